import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { LegalCase } from '@contracts/legal/legal.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { ApiError } from '../../../lib/api-client';
import { formatMoney, parseMoney, toMajorText } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useLegalActions } from '../api/legal';
import { todayOnCalendar } from './case-style';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** What the payment is for, and what recording it does to the case. */
function paymentOf(legalCase: LegalCase, kind: 'settlement' | 'purchase') {
  const paused = legalCase.automationPaused;
  if (kind === 'settlement') {
    return {
      title: 'Record settlement payment',
      expected: legalCase.settlementAmount ?? 0,
      explain: `The settlement agreed is ${formatMoney(legalCase.settlementAmount ?? 0, legalCase.currency)}.${
        paused
          ? ' Automation is paused, so the case stays SETTLED until someone closes it.'
          : ' The case closes once the payment is recorded.'
      }`,
    };
  }
  const due = legalCase.nonPayment?.amountDue ?? 0;
  const resolves =
    !paused && legalCase.allowedTransitions.some((transition) => transition.to === 'RESOLVED');
  return {
    title: 'Record purchase payment',
    expected: due,
    explain: `${legalCase.bidder?.name ?? 'The bidder'} owes ${formatMoney(due, legalCase.currency)}. Recording the payment in full clears the strike against them and stops the reminders${
      resolves ? '; the case moves to RESOLVED.' : '.'
    }`,
  };
}

/**
 * Records a payment on a case: the settlement's (with automation on the case closes on it at
 * once, spec 4.2 "payment received: close settled cases") or a non-paying bidder's purchase.
 */
export function PaymentDialog({
  legalCase,
  kind = 'settlement',
  open,
  onClose,
}: {
  legalCase: LegalCase;
  kind?: 'settlement' | 'purchase';
  open: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const payment = paymentOf(legalCase, kind);
  const agreed = payment.expected;
  const [amount, setAmount] = useState(() => toMajorText(agreed, legalCase.currency));
  const [receivedOn, setReceivedOn] = useState(todayOnCalendar);
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const close = () => {
    setErrors({});
    onClose();
  };
  const save = useAction(
    async (minor: number) => {
      const input = { amount: minor, receivedOn, reference: reference.trim() };
      if (kind === 'purchase') {
        const saved = await actions.recordPurchasePayment(legalCase.id, input);
        notify.success(
          'Payment recorded',
          `The strike against ${saved.bidder?.name ?? 'the bidder'} is cleared; ${saved.caseNumber} is ${saved.status}.`,
        );
      } else {
        const saved = await actions.recordPayment(legalCase.id, input);
        notify.success(
          'Payment recorded',
          saved.status === 'CLOSED'
            ? `${saved.caseNumber} is CLOSED.`
            : `${saved.caseNumber} stays ${saved.status} while its automation is paused.`,
        );
      }
      close();
    },
    {
      onError: (message, caught) => {
        const fields = caught instanceof ApiError ? caught.fieldErrors() : {};
        setErrors(fields);
        notify.error('The payment was not recorded', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMoney(amount, legalCase.currency);
    const found: Record<string, string> = {};
    if (!parsed.ok) found.amount = `Amount ${parsed.message}`;
    else if (!parsed.minor) found.amount = 'Amount is required';
    if (!receivedOn) found.receivedOn = 'Received on is required';
    setErrors(found);
    if (Object.keys(found).length || !parsed.ok || !parsed.minor) return;
    void save.run(parsed.minor);
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && close()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{payment.title}</DialogTitle>
            <DialogContent className={styles.content}>
              <Body1>{payment.explain}</Body1>
              <MoneyInput
                label="Amount received"
                currency={legalCase.currency}
                value={amount}
                onChange={setAmount}
                error={errors.amount}
                required
              />
              <Field
                label="Received on"
                required
                validationMessage={errors.receivedOn}
                validationState={errors.receivedOn ? 'error' : 'none'}
              >
                <Input
                  type="date"
                  value={receivedOn}
                  onChange={(_, data) => setReceivedOn(data.value)}
                />
              </Field>
              <Field
                label="Reference"
                hint="Optional: a transfer or cheque number."
                validationMessage={errors.reference}
                validationState={errors.reference ? 'error' : 'none'}
              >
                <Input value={reference} onChange={(_, data) => setReference(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Recording...' : 'Record Payment'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
