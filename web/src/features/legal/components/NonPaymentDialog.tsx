import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  NON_PAYMENT_FILE_AFTER_DAYS,
  NON_PAYMENT_FILE_WITHIN_DAYS,
  NON_PAYMENT_REMINDERS,
  casePriorities,
  priorityLabels,
  type CasePriority,
} from '@contracts/legal/legal.schema';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useBidderRef, useLegalActions } from '../api/legal';
import { serverFieldErrors } from './case-form';
import { AuctionPicker, BidderPicker } from './CasePickers';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  muted: { color: tokens.colorNeutralForeground2 },
});

const fieldLabels: Record<string, string> = {
  bidderId: 'Bidder',
  auctionId: 'Auction',
  priority: 'Priority',
  jurisdiction: 'Jurisdiction',
  description: 'Description',
};

/**
 * Report Non-Payment: a non-paying-bidder case for what a bidder won in a closed sale and has not
 * paid for. The server checks the purchase and the filing window and works out the amount due.
 */
export function NonPaymentDialog({
  open,
  onClose,
  bidderId = null,
}: {
  open: boolean;
  onClose(): void;
  /** The bidder it was opened for (from their profile), if any. */
  bidderId?: string | null;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const navigate = useNavigate();
  const actions = useLegalActions();
  const { data: given } = useBidderRef(bidderId);
  // Until someone picks (or clears) the bidder, it is the one the dialog was opened for.
  const [picked, setBidder] = useState<{ id: string; name: string } | null | undefined>();
  const bidder =
    picked !== undefined
      ? picked
      : given
        ? { id: given.id, name: `${given.firstName} ${given.lastName}`.trim() }
        : null;
  const [auction, setAuction] = useState<{ id: string; title: string } | null>(null);
  const [priority, setPriority] = useState<CasePriority>('medium');
  const [jurisdiction, setJurisdiction] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A refusal about the purchase as a whole (not overdue yet, already filed) is said above it.
  const [refusal, setRefusal] = useState('');
  const formRef = useFocusFirstError(errors);

  const reset = () => {
    setAuction(null);
    setJurisdiction('');
    setDescription('');
    setErrors({});
    setRefusal('');
  };
  const save = useAction(
    async () => {
      const filed = await actions.fileNonPayment({
        bidderId: bidder?.id ?? '',
        auctionId: auction?.id ?? '',
        priority,
        jurisdiction: jurisdiction.trim(),
        description: description.trim(),
      });
      notify.success(
        'Legal case filed successfully',
        `${filed.caseNumber}: ${filed.bidder?.name ?? 'the bidder'} will be reminded to pay.`,
      );
      reset();
      navigate(`/legal/cases/${filed.id}`, { replace: true });
    },
    {
      onError: (message, caught) => {
        const fields = serverFieldErrors(caught);
        const named = Object.fromEntries(
          Object.entries(fields).map(([field, text]) => [
            field,
            field in fieldLabels ? text : `${field}: ${text}`,
          ]),
        );
        if (Object.keys(named).length) {
          setErrors(named);
          notify.error('The case was not filed', correctFieldsMessage(Object.keys(named).length));
        } else {
          setRefusal(message);
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
    const found: Record<string, string> = {};
    if (!bidder) found.bidderId = 'Bidder is required';
    if (!auction) found.auctionId = 'Auction is required';
    if (!jurisdiction.trim()) found.jurisdiction = 'Jurisdiction is required';
    setErrors(found);
    setRefusal('');
    if (Object.keys(found).length) return;
    void save.run();
  };
  /** A field changed: its error no longer says anything true. */
  const edited = (field: string) =>
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _gone, ...rest } = current;
      return rest;
    });
  const state = (field: string) => ({
    validationMessage: errors[field],
    validationState: errors[field] ? ('error' as const) : ('none' as const),
  });

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form ref={formRef} onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Report Non-Payment</DialogTitle>
            <DialogContent className={styles.content}>
              <Body1 className={styles.muted}>
                For a purchase still unpaid {NON_PAYMENT_FILE_AFTER_DAYS} to{' '}
                {NON_PAYMENT_FILE_WITHIN_DAYS} days after the sale. The bidder gets{' '}
                {NON_PAYMENT_REMINDERS} reminders a week apart; until they pay, the case is a strike
                against them, and two keep them out of future auctions.
              </Body1>
              {refusal ? (
                <MessageBar intent="error">
                  <MessageBarBody>{refusal}</MessageBarBody>
                </MessageBar>
              ) : null}
              <BidderPicker
                key={bidder?.id ?? 'none'}
                hint="Required. The buyer who has not paid."
                value={bidder}
                onChange={(picked) => {
                  setBidder(picked);
                  edited('bidderId');
                }}
                error={errors.bidderId}
              />
              <AuctionPicker
                hint="Required. The closed sale they bought in."
                value={auction}
                onChange={(picked) => {
                  setAuction(picked);
                  edited('auctionId');
                }}
                error={errors.auctionId}
              />
              <Field label="Priority" required {...state('priority')}>
                <Dropdown
                  value={priorityLabels[priority]}
                  selectedOptions={[priority]}
                  onOptionSelect={(_, data) => setPriority(data.optionValue as CasePriority)}
                >
                  {casePriorities.map((value) => (
                    <Option key={value} value={value}>
                      {priorityLabels[value]}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
              <Field label="Jurisdiction" required {...state('jurisdiction')}>
                <Input
                  name="jurisdiction"
                  value={jurisdiction}
                  onChange={(_, data) => {
                    setJurisdiction(data.value);
                    edited('jurisdiction');
                  }}
                />
              </Field>
              <Field
                label="Description"
                hint="Optional. Without one, the case says what was bought and what is due."
                {...state('description')}
              >
                <Textarea
                  value={description}
                  resize="vertical"
                  onChange={(_, data) => setDescription(data.value)}
                />
              </Field>
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
