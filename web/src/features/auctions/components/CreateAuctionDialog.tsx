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
  Tooltip,
} from '@fluentui/react-components';
import { ArrowImportRegular } from '@fluentui/react-icons';
import type { House } from '@contracts/identity/accounts/accounts.schema';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useAuctionActions, useHouses } from '../api/auctions';
import {
  blankAuctionForm,
  checkCreate,
  serverFieldErrors,
  type AuctionFormState,
} from './auction-form';
import { AuctionFormFields } from './AuctionFormFields';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  // Its children keep their height; the content scrolls instead of squeezing them.
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  // Off on a phone: the title needs the width, and the button cannot be used yet anyway.
  wideOnly: { '@media (max-width: 560px)': { display: 'none' } },
});

/** Create New Auction: every section of the spec's form; the new auction is a Draft. */
export function CreateAuctionDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const actions = useAuctionActions();
  const { data: houseList } = useHouses();
  const houses = houseList?.houses.filter((house) => house.status === 'active');
  const [form, setForm] = useState<AuctionFormState>(blankAuctionForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useFocusFirstError(errors);

  // The house is chosen for them when there is one to choose (or it is the first).
  const [firstHouse] = houses ?? [];
  if (open && firstHouse && !form.auctionHouseId) {
    setForm((current) => ({
      ...current,
      auctionHouseId: firstHouse.id,
      timeZone: current.timeZone || firstHouse.timezone,
    }));
  }

  const reset = () => {
    setForm(blankAuctionForm());
    setErrors({});
  };
  const close = () => {
    if (save.busy) return;
    reset();
    onClose();
  };

  const save = useAction(
    async (body: Parameters<typeof actions.create>[0]) => {
      const created = await actions.create(body);
      notify.success('Auction created', `${created.title} is a Draft until you publish it.`);
      reset();
      navigate(`/auctions/${created.id}`, { replace: true });
    },
    {
      onError: (message, caught) => {
        const fields = serverFieldErrors(caught);
        if (Object.keys(fields).length) {
          setErrors(fields);
          notify.error(
            'The auction was not created',
            correctFieldsMessage(Object.keys(fields).length),
          );
        } else {
          notify.error('The auction was not created', message);
        }
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkCreate(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.error(correctFieldsMessage(Object.keys(checked.errors).length));
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
            <DialogTitle
              action={
                <Tooltip
                  content="Platform import arrives with integrations"
                  relationship="description"
                >
                  <Button
                    className={styles.wideOnly}
                    size="small"
                    icon={<ArrowImportRegular />}
                    disabledFocusable
                  >
                    Import from Platform
                  </Button>
                </Tooltip>
              }
            >
              Create New Auction
            </DialogTitle>
            <DialogContent className={styles.content}>
              {Object.keys(errors).length ? (
                <MessageBar intent="error">
                  <MessageBarBody>
                    {correctFieldsMessage(Object.keys(errors).length)}
                  </MessageBarBody>
                </MessageBar>
              ) : null}
              <AuctionFormFields
                form={form}
                update={setForm}
                errors={errors}
                houses={houses}
                onHouseChosen={(house: House) => {
                  // The time zone follows the house unless someone chose another themselves.
                  const before = houses?.find((candidate) => candidate.id === form.auctionHouseId);
                  if (!form.timeZone || form.timeZone === before?.timezone)
                    setForm((current) => ({ ...current, timeZone: house.timezone }));
                }}
              />
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Creating...' : 'Create Auction'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
