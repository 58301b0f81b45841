import {
  Button,
  DrawerBody,
  DrawerFooter,
  DrawerHeader,
  DrawerHeaderTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  OverlayDrawer,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { CaseUpdate, LegalCase } from '@contracts/legal/legal.schema';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../../../lib/api-client';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useLegalActions } from '../api/legal';
import {
  caseFieldLabels,
  checkCaseUpdate,
  formFromCase,
  MISSING_REQUIRED,
  serverFieldErrors,
  type CaseFormState,
} from './case-form';
import { CaseFormFields } from './CaseFormFields';

const useStyles = makeStyles({
  drawer: { width: 'min(720px, 100vw)' },
  // Its children keep their height; the panel scrolls instead of squeezing them.
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  // The drawer lays its children out in a row: the form takes all of its width.
  form: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, width: '100%' },
  footer: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
});

/**
 * Edit Case, a panel over the case: every field but the status, which moves only through the
 * workflow. Saved against the version it opened (its ETag); if someone changed the case
 * meanwhile, it says so and loads their version to edit again.
 */
export function EditCasePanel({
  legalCase,
  onClose,
}: {
  legalCase: LegalCase | null;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  // The version being edited: the one opened, or the newer one loaded after a conflict.
  const [base, setBase] = useState<LegalCase | null>(legalCase);
  const [form, setForm] = useState<CaseFormState | null>(legalCase && formFromCase(legalCase));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reloaded, setReloaded] = useState(false);
  const formRef = useFocusFirstError(errors);
  const [openedId, setOpenedId] = useState(legalCase?.id ?? null);
  if ((legalCase?.id ?? null) !== openedId) {
    setOpenedId(legalCase?.id ?? null);
    setBase(legalCase);
    setForm(legalCase && formFromCase(legalCase));
    setErrors({});
    setReloaded(false);
  }
  const unplaced = Object.entries(errors).filter(([key]) => !(key in caseFieldLabels));

  const save = useAction(
    async (changes: CaseUpdate) => {
      if (!base) return;
      if (Object.keys(changes).length) {
        await actions.update(base, changes);
        notify.success('Case saved', `${base.caseNumber} is up to date.`);
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        const fields = serverFieldErrors(caught);
        if (Object.keys(fields).length) {
          setErrors(fields);
          notify.error('The case was not saved', correctFieldsMessage(Object.keys(fields).length));
        } else if (caught instanceof ApiError && caught.status === 412 && base) {
          notify.warning(
            'Someone else changed this case',
            'Their version is loaded. Make your changes again.',
          );
          void actions.fetch(base.id).then(
            (fresh) => {
              setBase(fresh);
              setForm(formFromCase(fresh));
              setErrors({});
              setReloaded(true);
            },
            (failure: unknown) => notify.error('The case could not be loaded', messageOf(failure)),
          );
        } else {
          notify.error('The case was not saved', message);
        }
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!base || !form) return;
    const checked = checkCaseUpdate(base, form);
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
    setReloaded(false);
    void save.run(checked.body);
  };

  return (
    <OverlayDrawer
      position="end"
      size="medium"
      className={styles.drawer}
      open={legalCase !== null}
      onOpenChange={(_, data) => !data.open && !save.busy && onClose()}
    >
      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
        <DrawerHeader>
          <DrawerHeaderTitle
            action={
              <Button
                appearance="subtle"
                aria-label="Close"
                icon={<DismissRegular />}
                onClick={onClose}
                disabled={save.busy}
              />
            }
          >
            Edit Case {base?.caseNumber}
          </DrawerHeaderTitle>
        </DrawerHeader>
        <DrawerBody className={styles.body} tabIndex={0} role="region" aria-label="Case fields">
          {reloaded ? (
            <MessageBar intent="warning" layout="multiline">
              <MessageBarBody>
                Someone else changed this case while you were editing. Their version is loaded here:
                make your changes again, then save.
              </MessageBarBody>
            </MessageBar>
          ) : null}
          {unplaced.length ? (
            <MessageBar intent="error">
              <MessageBarBody>{unplaced.map(([, message]) => message).join(' ')}</MessageBarBody>
            </MessageBar>
          ) : null}
          {form && base ? (
            <CaseFormFields
              form={form}
              update={(change) => setForm((current) => current && change(current))}
              errors={errors}
              editing
              currentAssignee={base.assignedTo}
            />
          ) : null}
        </DrawerBody>
        <DrawerFooter className={styles.footer}>
          <Button onClick={onClose} disabled={save.busy}>
            Cancel
          </Button>
          <Button appearance="primary" type="submit" disabled={save.busy}>
            {save.busy ? 'Saving...' : 'Save Changes'}
          </Button>
        </DrawerFooter>
      </form>
    </OverlayDrawer>
  );
}
