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
  Radio,
  RadioGroup,
  Textarea,
} from '@fluentui/react-components';
import type { Transaction } from '@contracts/payments/payments.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { ApiError } from '../../../lib/api-client';
import { formatMoneyExact, parseMoney, toMajorText } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions } from '../api/payments';
import { usePaymentStyles } from './payment-style';

/**
 * Refund (owner only): all that is left of a completed payment, or part of it. A card payment is
 * refunded through Stripe; money paid by hand is recorded as returned.
 */
export function RefundDialog({
  transaction,
  open,
  onClose,
}: {
  transaction: Transaction;
  open: boolean;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const refundable = transaction.amount - transaction.refundedAmount;
  const money = (minor: number) => formatMoneyExact(minor, transaction.currency);
  const [kind, setKind] = useState<'full' | 'part'>('full');
  const [amount, setAmount] = useState(() => toMajorText(refundable, transaction.currency));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAction(
    async (minor: number) => {
      const saved = await actions.refund(transaction.id, { amount: minor, reason: reason.trim() });
      notify.success(
        'Refund issued',
        `${money(minor)} refunded to ${saved.bidderName}; ${saved.transactionId} is ${saved.paymentStatus}.`,
      );
      onClose();
    },
    {
      onError: (message, caught) => {
        setErrors(caught instanceof ApiError ? caught.fieldErrors() : {});
        notify.error('The refund was not issued', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'full') {
      setErrors({});
      void save.run(refundable);
      return;
    }
    const parsed = parseMoney(amount, transaction.currency);
    const found: Record<string, string> = {};
    if (!parsed.ok) found.amount = `Amount ${parsed.message}`;
    else if (!parsed.minor) found.amount = 'Amount is required';
    else if (parsed.minor > refundable)
      found.amount = `Amount is at most ${money(refundable)}, what is left to refund`;
    setErrors(found);
    if (!parsed.ok || !parsed.minor || found.amount) return;
    void save.run(parsed.minor);
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Refund {transaction.transactionId}</DialogTitle>
            <DialogContent className={styles.dialogContent}>
              <Body1>
                {transaction.bidderName} paid {money(transaction.amount)} by{' '}
                {transaction.paymentMethod.toLowerCase()}
                {transaction.refundedAmount
                  ? `; ${money(transaction.refundedAmount)} has been refunded already`
                  : ''}
                .{' '}
                {transaction.paymentMethod === 'Credit Card'
                  ? 'The refund goes back to their card.'
                  : 'Record the money you have returned to them.'}
              </Body1>
              <RadioGroup
                aria-label="How much to refund"
                value={kind}
                onChange={(_, data) => setKind(data.value === 'part' ? 'part' : 'full')}
              >
                <Radio value="full" label={`Full refund (${money(refundable)})`} />
                <Radio value="part" label="Partial refund" />
              </RadioGroup>
              {kind === 'part' ? (
                <MoneyInput
                  label="Refund amount"
                  currency={transaction.currency}
                  value={amount}
                  onChange={setAmount}
                  error={errors.amount}
                  hint={`At most ${money(refundable)}`}
                  required
                />
              ) : null}
              <Field
                label="Reason"
                hint="Optional: kept with the refund and shown on the transaction."
                validationMessage={errors.reason}
                validationState={errors.reason ? 'error' : 'none'}
              >
                <Textarea
                  value={reason}
                  maxLength={500}
                  onChange={(_, data) => setReason(data.value)}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy || refundable <= 0}>
                {save.busy ? 'Refunding...' : 'Refund'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
