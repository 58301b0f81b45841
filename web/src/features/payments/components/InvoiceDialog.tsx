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
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import type { Invoice } from '@contracts/payments/payments.schema';
import { useState } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { formatMoneyExact } from '../../../lib/money';
import { useInvoice, useTransactionPage } from '../api/payments';
import { CreditNoteDialog } from './CreditNoteDialog';
import { useInvoiceFlow } from './InvoiceActions';
import {
  formatDate,
  formatDay,
  InvoiceStatusBadge,
  percentOfBps,
  useOpenRecord,
  usePaymentStyles,
} from './payment-style';
import { RecordPaymentDialog } from './RecordPaymentDialog';
import { TransactionList } from './TransactionList';

function InvoiceBody({ invoice }: { invoice: Invoice }) {
  const styles = usePaymentStyles();
  const payments = useTransactionPage({ invoiceId: invoice.id });
  const less = (minor: number) => (minor ? `−${money(minor)}` : money(0));
  const money = (minor: number) => formatMoneyExact(minor, invoice.currency);
  const tax = invoice.taxRates;
  return (
    <>
      <dl className={styles.facts}>
        <dt>Bidder</dt>
        <dd>
          {invoice.bidderName} · {invoice.bidderEmail || 'no email'}
        </dd>
        <dt>Auction</dt>
        <dd>{invoice.auctionTitle || 'Manual invoice'}</dd>
        <dt>Issued</dt>
        <dd>{formatDate(invoice.issuedAt)}</dd>
        <dt>Due</dt>
        <dd>{formatDay(invoice.dueDate)}</dd>
        {invoice.sentAt ? (
          <>
            <dt>Sent</dt>
            <dd>
              {formatDate(invoice.sentAt)}
              {invoice.viewedAt ? ` · viewed ${formatDate(invoice.viewedAt)}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      <div className={styles.frame}>
        <Table size="small" aria-label="Lines of this invoice" style={{ minWidth: '420px' }}>
          <TableHeader>
            <TableRow className={styles.headerRow}>
              <TableHeaderCell style={{ width: '64px' }}>Lot</TableHeaderCell>
              <TableHeaderCell>Description</TableHeaderCell>
              <TableHeaderCell style={{ width: '110px' }} className={styles.money}>
                Hammer
              </TableHeaderCell>
              <TableHeaderCell style={{ width: '110px' }} className={styles.money}>
                Premium
              </TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {invoice.lines.map((line) => (
              <TableRow key={`${line.lotNumber}-${line.lotId ?? ''}`}>
                <TableCell>{line.lotNumber}</TableCell>
                <TableCell>
                  {line.title}
                  {line.internet ? <Caption1 className={styles.muted}> · online</Caption1> : null}
                </TableCell>
                <TableCell className={styles.money}>{money(line.hammer)}</TableCell>
                <TableCell className={styles.money}>{money(line.premium)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <section className={styles.section} aria-label="Totals">
        <dl className={styles.breakdown}>
          <dt>Hammer total</dt>
          <dd>{money(invoice.hammerTotal)}</dd>
          <dt>Buyer&apos;s premium</dt>
          <dd>{money(invoice.premiumTotal)}</dd>
          {invoice.charges.map((charge, index) => (
            <FragmentRow
              key={`${charge.label}-${index}`}
              label={charge.label}
              value={money(charge.amount)}
            />
          ))}
          <dt>
            Tax (hammer {percentOfBps(tax.hammerBps)}, premium {percentOfBps(tax.premiumBps)},
            charges {percentOfBps(tax.chargesBps)})
          </dt>
          <dd>{money(invoice.tax.total)}</dd>
          <dt className={styles.total}>Grand total</dt>
          <dd className={styles.total}>{money(invoice.grandTotal)}</dd>
          {invoice.creditedTotal ? (
            <FragmentRow label="Credit notes" value={`−${money(invoice.creditedTotal)}`} />
          ) : null}
          <dt>Paid</dt>
          <dd>{less(invoice.paidTotal)}</dd>
          {invoice.refundedTotal ? (
            <FragmentRow label="Refunded" value={money(invoice.refundedTotal)} />
          ) : null}
          <dt className={styles.total}>Balance</dt>
          <dd className={styles.total}>{money(invoice.balance)}</dd>
        </dl>
      </section>
      {invoice.credits.length ? (
        <section className={styles.section} aria-label="Credit notes">
          <Subtitle2 as="h3" className={styles.sectionTitle}>
            Credit notes
          </Subtitle2>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {invoice.credits.map((note) => (
              <li key={note.id}>
                <Body1>
                  {note.number}: {less(note.total)} on {formatDate(note.createdAt)}
                  {note.lotNumbers.length ? ` (lots ${note.lotNumbers.join(', ')})` : ''} —{' '}
                  {note.reason}
                </Body1>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className={styles.section} aria-label="Payments">
        <Subtitle2 as="h3" className={styles.sectionTitle}>
          Payments
        </Subtitle2>
        {payments.data ? (
          <TransactionList
            transactions={payments.data.items}
            label="Payments of this invoice"
            empty="No payments yet."
            compact
          />
        ) : payments.error ? (
          <Body1>{messageOf(payments.error)}</Body1>
        ) : (
          <Spinner size="tiny" label="Loading payments..." />
        )}
      </section>
      {invoice.history.length ? (
        <section className={styles.section} aria-label="History">
          <Subtitle2 as="h3" className={styles.sectionTitle}>
            History
          </Subtitle2>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {invoice.history.map((event, index) => (
              <li key={`${event.at}-${index}`}>
                <Caption1>
                  {formatDate(event.at)} · {event.action}
                  {event.detail ? `: ${event.detail}` : ''}
                  {event.by ? ` (${event.by.name})` : ''}
                </Caption1>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

function InvoiceButtons({
  invoice,
  onDialog,
}: {
  invoice: Invoice;
  onDialog(dialog: 'payment' | 'credit'): void;
}) {
  const { approve, send } = useInvoiceFlow(invoice);
  const open = ['approved', 'sent', 'viewed'].includes(invoice.status);
  return (
    <>
      {invoice.status === 'draft' ? (
        <PermittedButton
          permission="payments:process"
          disabled={approve.busy}
          onClick={() => void approve.run()}
        >
          {approve.busy ? 'Approving...' : 'Approve'}
        </PermittedButton>
      ) : null}
      {open ? (
        <PermittedButton
          permission="payments:process"
          disabled={send.busy}
          onClick={() => void send.run()}
        >
          {send.busy ? 'Sending...' : 'Send Email'}
        </PermittedButton>
      ) : null}
      {open && invoice.balance > 0 ? (
        <PermittedButton permission="payments:process" onClick={() => onDialog('payment')}>
          Record Payment
        </PermittedButton>
      ) : null}
      {invoice.status !== 'draft' && invoice.status !== 'void' ? (
        <PermittedButton permission="payments:process" onClick={() => onDialog('credit')}>
          Credit Note
        </PermittedButton>
      ) : null}
    </>
  );
}

/** An invoice over the page (`?invoice=`): lines, totals, credit notes, payments and history. */
export function InvoiceDialog() {
  const styles = usePaymentStyles();
  const record = useOpenRecord('invoice');
  const { data, error } = useInvoice(record.id);
  const [dialog, setDialog] = useState<'payment' | 'credit' | null>(null);
  return (
    <Dialog open={Boolean(record.id)} onOpenChange={(_, state) => !state.open && record.close()}>
      <DialogSurface className={styles.dialog}>
        <DialogBody>
          <DialogTitle>
            <span className={styles.cardHead} style={{ justifyContent: 'flex-start' }}>
              {data ? `Invoice ${data.number}` : 'Invoice'}
              {data ? (
                <InvoiceStatusBadge status={data.status} overdue={Boolean(data.overdueAt)} />
              ) : null}
            </span>
          </DialogTitle>
          <DialogContent className={styles.dialogContent}>
            {error ? (
              <MessageBar intent="error">
                <MessageBarBody>The invoice could not be loaded: {messageOf(error)}</MessageBarBody>
              </MessageBar>
            ) : data ? (
              <InvoiceBody invoice={data} />
            ) : (
              <Spinner label="Loading the invoice..." />
            )}
          </DialogContent>
          <DialogActions fluid className={styles.actions}>
            {data ? <InvoiceButtons invoice={data} onDialog={setDialog} /> : null}
            <Button appearance="secondary" onClick={record.close}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
        {data ? (
          <>
            <RecordPaymentDialog
              key={`payment-${data.etag}`}
              invoice={data}
              open={dialog === 'payment'}
              onClose={() => setDialog(null)}
            />
            <CreditNoteDialog
              key={`credit-${data.etag}`}
              invoice={data}
              open={dialog === 'credit'}
              onClose={() => setDialog(null)}
            />
          </>
        ) : null}
      </DialogSurface>
    </Dialog>
  );
}
