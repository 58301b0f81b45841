import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Switch,
} from '@fluentui/react-components';
import type { Transaction } from '@contracts/payments/payments.schema';
import { useState, type FormEvent } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError, messageOf } from '../../../lib/api-client';
import { formatMoneyExact } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions, useTransaction } from '../api/payments';
import { useChargeCard } from './ChargeCardDialog';
import {
  formatDate,
  formatDay,
  PaymentStatusBadge,
  useOpenRecord,
  usePaymentStyles,
} from './payment-style';
import { RefundDialog } from './RefundDialog';

/** Shipping status: whether the lots went out and their tracking number (If-Match). */
function ShippingForm({ transaction }: { transaction: Transaction }) {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const [shipped, setShipped] = useState(transaction.itemsShipped);
  const [tracking, setTracking] = useState(transaction.shippingTrackingNumber);
  const changed =
    shipped !== transaction.itemsShipped || tracking.trim() !== transaction.shippingTrackingNumber;
  const save = useAction(
    async () => {
      try {
        await actions.updateShipping(transaction, {
          itemsShipped: shipped,
          shippingTrackingNumber: tracking.trim(),
        });
        notify.success('Shipping saved');
      } catch (error) {
        if (error instanceof ApiError && error.status === 412) {
          const fresh = await actions.fetchTransaction(transaction.id);
          setShipped(fresh.itemsShipped);
          setTracking(fresh.shippingTrackingNumber);
          throw new Error(
            'Someone else changed this transaction. It has been reloaded: check it and save again.',
          );
        }
        throw error;
      }
    },
    { onError: (message) => notify.error('Shipping was not saved', message) },
  );
  return (
    <form
      className={styles.section}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save.run();
      }}
      noValidate
    >
      <Subtitle2 as="h3" className={styles.sectionTitle}>
        Shipping
      </Subtitle2>
      <Switch
        checked={shipped}
        label={shipped ? 'Items shipped' : 'Items not shipped yet'}
        onChange={(_, data) => setShipped(data.checked)}
      />
      <Field label="Tracking number" validationMessage={save.fieldErrors.shippingTrackingNumber}>
        <Input value={tracking} maxLength={100} onChange={(_, data) => setTracking(data.value)} />
      </Field>
      <div className={styles.actions}>
        <Button type="submit" disabled={!changed || save.busy}>
          {save.busy ? 'Saving...' : 'Save shipping'}
        </Button>
      </div>
    </form>
  );
}

function TransactionBody({ transaction }: { transaction: Transaction }) {
  const styles = usePaymentStyles();
  const invoice = useOpenRecord('invoice');
  const less = (minor: number) => (minor ? `−${money(minor)}` : money(0));
  const money = (minor: number) => formatMoneyExact(minor, transaction.currency);
  return (
    <>
      {transaction.failureMessage ? (
        <MessageBar intent="error">
          <MessageBarBody>{transaction.failureMessage}</MessageBarBody>
        </MessageBar>
      ) : null}
      {transaction.dispute ? (
        <MessageBar intent="warning">
          <MessageBarBody>
            Disputed by the buyer&apos;s bank ({transaction.dispute.reason}):{' '}
            {money(transaction.dispute.amount)}, {transaction.dispute.status.replace(/_/g, ' ')}.
            {transaction.dispute.caseId ? (
              <>
                {' '}
                <Link href={`/legal/cases/${transaction.dispute.caseId}`}>Open the legal case</Link>
              </>
            ) : null}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <dl className={styles.facts}>
        <dt>Bidder</dt>
        <dd>
          {transaction.bidderName} · {transaction.bidderEmail}
        </dd>
        <dt>Auction</dt>
        <dd>{transaction.auctionTitle || '—'}</dd>
        <dt>Lots</dt>
        <dd>{transaction.lotNumbers.join(', ') || '—'}</dd>
        <dt>Invoice</dt>
        <dd>
          <Link
            href={`?invoice=${encodeURIComponent(transaction.invoiceId)}`}
            onClick={(event) => {
              event.preventDefault();
              invoice.open(transaction.invoiceId);
            }}
          >
            {transaction.invoiceNumber}
          </Link>
        </dd>
        <dt>Method</dt>
        <dd>
          {transaction.paymentMethod}
          {transaction.reference ? ` · ${transaction.reference}` : ''}
        </dd>
        <dt>Due</dt>
        <dd>{formatDay(transaction.dueDate)}</dd>
        <dt>Paid</dt>
        <dd>{transaction.paymentDate ? formatDay(transaction.paymentDate) : 'Not yet'}</dd>
      </dl>
      <section className={styles.section} aria-label="Payment breakdown">
        <Subtitle2 as="h3" className={styles.sectionTitle}>
          Payment breakdown
        </Subtitle2>
        <dl className={styles.breakdown}>
          <dt>Winning bids (hammer)</dt>
          <dd>{money(transaction.totalAmount)}</dd>
          <dt>Buyer&apos;s premium</dt>
          <dd>{money(transaction.buyersPremium)}</dd>
          <dt>Taxes</dt>
          <dd>{money(transaction.taxes)}</dd>
          <dt>Shipping</dt>
          <dd>{money(transaction.shippingFees)}</dd>
          <dt className={styles.total}>Grand total</dt>
          <dd className={styles.total}>{money(transaction.grandTotal)}</dd>
          <dt>This payment</dt>
          <dd>{money(transaction.amount)}</dd>
          {transaction.refundedAmount ? (
            <>
              <dt>Refunded</dt>
              <dd>{less(transaction.refundedAmount)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      {transaction.refunds.length ? (
        <section className={styles.section} aria-label="Refunds">
          <Subtitle2 as="h3" className={styles.sectionTitle}>
            Refunds
          </Subtitle2>
          <ul className={styles.stack} style={{ margin: 0, paddingLeft: 20 }}>
            {transaction.refunds.map((refund) => (
              <li key={refund.id}>
                <Body1>
                  {money(refund.amount)} on {formatDate(refund.createdAt)} ({refund.status})
                  {refund.reason ? `: ${refund.reason}` : ''}
                </Body1>
                {refund.createdBy ? (
                  <Caption1 className={styles.muted}> by {refund.createdBy.name}</Caption1>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ShippingForm key={transaction.etag} transaction={transaction} />
    </>
  );
}

/** A transaction over the page (`?transaction=`): its breakdown, refunds and shipping. */
export function TransactionDialog() {
  const styles = usePaymentStyles();
  const record = useOpenRecord('transaction');
  const { data, error } = useTransaction(record.id);
  const [refunding, setRefunding] = useState(false);
  const charge = useChargeCard();
  const status = data?.paymentStatus;
  return (
    <Dialog open={Boolean(record.id)} onOpenChange={(_, state) => !state.open && record.close()}>
      <DialogSurface className={styles.dialog}>
        <DialogBody>
          <DialogTitle>
            <span className={styles.cardHead} style={{ justifyContent: 'flex-start' }}>
              {data ? data.transactionId : 'Transaction'}
              {status ? <PaymentStatusBadge status={status} /> : null}
            </span>
          </DialogTitle>
          <DialogContent className={styles.dialogContent}>
            {error ? (
              <MessageBar intent="error">
                <MessageBarBody>
                  The transaction could not be loaded: {messageOf(error)}
                </MessageBarBody>
              </MessageBar>
            ) : data ? (
              <TransactionBody transaction={data} />
            ) : (
              <Spinner label="Loading the transaction..." />
            )}
          </DialogContent>
          <DialogActions>
            {status === 'Completed' ? (
              <PermittedButton permission="payments:refund" onClick={() => setRefunding(true)}>
                Refund
              </PermittedButton>
            ) : null}
            {data?.paymentMethod === 'Credit Card' &&
            (status === 'Pending' || status === 'Failed') ? (
              <PermittedButton
                permission="payments:process"
                appearance="primary"
                disabled={charge.busy}
                onClick={() => charge.start(data)}
              >
                {status === 'Failed' ? 'Retry' : 'Process'}
              </PermittedButton>
            ) : null}
            <Button appearance="secondary" onClick={record.close}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
        {data ? (
          <RefundDialog
            key={`refund-${data.etag}`}
            transaction={data}
            open={refunding}
            onClose={() => setRefunding(false)}
          />
        ) : null}
        {charge.dialog}
      </DialogSurface>
    </Dialog>
  );
}
