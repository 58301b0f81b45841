import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useLegalActions, type CaseBody } from '../api/legal';
import {
  blankCaseForm,
  caseFieldLabels,
  checkNewCase,
  MISSING_REQUIRED,
  serverFieldErrors,
  type CaseFormState,
} from './case-form';
import { CaseFormFields } from './CaseFormFields';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  // Its children keep their height; the content scrolls instead of squeezing them.
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
});

/** File New Legal Case: the spec's form; the new case is SUBMITTED and gets its case number. */
export function NewCaseDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const actions = useLegalActions();
  const [form, setForm] = useState<CaseFormState>(blankCaseForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useFocusFirstError(errors);
  // Problems the service named for no field of the form, said above it.
  const unplaced = Object.entries(errors).filter(([key]) => !(key in caseFieldLabels));

  const reset = () => {
    setForm(blankCaseForm());
    setErrors({});
  };
  const save = useAction(
    async (body: CaseBody) => {
      const created = await actions.create(body);
      notify.success(
        'Legal case filed successfully',
        `Case "${created.title}" has been created and assigned a case number.`,
      );
      reset();
      navigate(`/legal/cases/${created.id}`, { replace: true });
    },
    {
      onError: (message, caught) => {
        const fields = serverFieldErrors(caught);
        if (Object.keys(fields).length) {
          setErrors(fields);
          notify.error('The case was not filed', correctFieldsMessage(Object.keys(fields).length));
        } else {
          notify.error('The case was not filed', message);
        }
      },
    },
  );
  const close = () => {
    if (save.busy) return;
    reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkNewCase(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.error(
        checked.missingRequired
          ? MISSING_REQUIRED
          : correctFieldsMessage(Object.keys(checked.errors).length),
      );
      return;
    }
    setErrors({});
    void save.run(checked.body);
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form ref={formRef} onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>File New Legal Case</DialogTitle>
            <DialogContent className={styles.content}>
              {unplaced.length ? (
                <MessageBar intent="error">
                  <MessageBarBody>
                    {unplaced.map(([, message]) => message).join(' ')}
                  </MessageBarBody>
                </MessageBar>
              ) : null}
              <CaseFormFields form={form} update={setForm} errors={errors} />
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Filing...' : 'File Case'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
