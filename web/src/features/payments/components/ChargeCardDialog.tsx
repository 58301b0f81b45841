import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarBody,
} from '@fluentui/react-components';
import type { CardPayment, Transaction } from '@contracts/payments/payments.schema';
import { useState } from 'react';
import { CardField, type CardFieldState } from '../../../components/CardField';
import { formatMoneyExact } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions } from '../api/payments';
import { usePaymentStyles } from './payment-style';

/**
 * Process (a Pending card payment) or Retry (a Failed one): the house takes the buyer's card, e.g.
 * over the phone, and Stripe charges it. The payment's outcome is read back from Stripe at once.
 */
function ChargeCardDialog({
  transaction,
  payment,
  onClose,
}: {
  transaction: Transaction;
  /** The PaymentIntent to pay (a new one after a failure). */
  payment: CardPayment;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const [card, setCard] = useState<CardFieldState | null>(null);
  const retrying = transaction.paymentStatus === 'Failed';
  const charge = useAction(
    async () => {
      if (!card) return;
      try {
        await card.pay(payment.clientSecret);
      } finally {
        // Declined or not, the transaction records what Stripe says.
        await actions.confirm(transaction.id).catch(() => undefined);
      }
      notify.success(
        'Payment completed',
        `${formatMoneyExact(payment.amount, payment.currency)} charged to ${transaction.bidderName}'s card.`,
      );
      onClose();
    },
    { onError: (message) => notify.error('The card was not charged', message) },
  );
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !charge.busy && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>
            {retrying ? 'Retry' : 'Process'} {transaction.transactionId}
          </DialogTitle>
          <DialogContent className={styles.dialogContent}>
            <Body1>
              Charge {formatMoneyExact(payment.amount, payment.currency)} to{' '}
              {transaction.bidderName}
              &apos;s card for invoice {transaction.invoiceNumber}.
            </Body1>
            {transaction.failureMessage ? (
              <MessageBar intent="warning">
                <MessageBarBody>Last attempt: {transaction.failureMessage}</MessageBarBody>
              </MessageBar>
            ) : null}
            <CardField
              stripeJsUrl={payment.stripeJsUrl}
              publishableKey={payment.publishableKey}
              onChange={setCard}
            />
            {charge.error ? (
              <MessageBar intent="error">
                <MessageBarBody>{charge.error}</MessageBarBody>
              </MessageBar>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose} disabled={charge.busy}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={charge.busy || !(card?.ready && card.complete)}
              onClick={() => void charge.run()}
            >
              {charge.busy
                ? 'Charging...'
                : `Charge ${formatMoneyExact(payment.amount, payment.currency)}`}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * Process / Retry for a card payment: `start` asks the service for the PaymentIntent, then the
 * dialog (rendered where `dialog` is placed) takes the card.
 */
export function useChargeCard() {
  const notify = useNotify();
  const actions = usePaymentActions();
  const [charging, setCharging] = useState<{
    transaction: Transaction;
    payment: CardPayment;
  } | null>(null);
  const start = useAction(
    async (transaction: Transaction) => {
      setCharging({ transaction, payment: await actions.retry(transaction.id) });
    },
    { onError: (message) => notify.error('The payment could not be started', message) },
  );
  return {
    start: (transaction: Transaction) => void start.run(transaction),
    busy: start.busy,
    dialog: charging ? (
      <ChargeCardDialog
        key={charging.payment.paymentIntentId}
        transaction={charging.transaction}
        payment={charging.payment}
        onClose={() => setCharging(null)}
      />
    ) : null,
  };
}
