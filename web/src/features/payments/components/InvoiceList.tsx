import {
  Body1,
  Caption1,
  Card,
  Link,
  mergeClasses,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { DocumentBulletListRegular } from '@fluentui/react-icons';
import type { InvoiceListItem } from '@contracts/payments/payments.schema';
import type { MouseEvent, ReactNode } from 'react';
import { formatMoneyExact } from '../../../lib/money';
import { useMediaQuery } from '../../../lib/use-media-query';
import { InvoiceActions } from './InvoiceActions';
import { formatDay, InvoiceStatusBadge, useOpenRecord, usePaymentStyles } from './payment-style';

const opens = (event: MouseEvent) =>
  !(event.target as HTMLElement).closest('a, button, input, [role="menu"]');

function InvoiceLink({ invoice }: { invoice: InvoiceListItem }) {
  const styles = usePaymentStyles();
  const record = useOpenRecord('invoice');
  return (
    <Link
      href={`?invoice=${encodeURIComponent(invoice.id)}`}
      className={styles.strong}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        record.open(invoice.id);
      }}
    >
      {invoice.number}
    </Link>
  );
}

const columns: { name: string; width?: string; end?: boolean }[] = [
  { name: 'Invoice', width: '140px' },
  { name: 'Bidder', width: '20%' },
  { name: 'Auction', width: '22%' },
  { name: 'Total', width: '120px', end: true },
  { name: 'Balance', width: '120px', end: true },
  { name: 'Status', width: '150px' },
  { name: 'Due', width: '110px' },
];

/** Invoices as a table, or cards on a phone; a row opens the invoice over the page. */
export function InvoiceList({
  invoices,
  label,
  empty,
  withActions,
}: {
  invoices: InvoiceListItem[];
  label: string;
  empty: ReactNode;
  /** Approve / Send Email on each, as Pending Actions offers them. */
  withActions?: boolean;
}) {
  const styles = usePaymentStyles();
  const phone = useMediaQuery('(max-width: 760px)');
  const record = useOpenRecord('invoice');
  if (!invoices.length) {
    return (
      <div className={styles.empty}>
        <DocumentBulletListRegular fontSize={32} aria-hidden="true" />
        <Body1>{empty}</Body1>
      </div>
    );
  }
  const money = (invoice: InvoiceListItem, minor: number) =>
    formatMoneyExact(minor, invoice.currency);
  if (phone) {
    return (
      <ul className={styles.cards} aria-label={label}>
        {invoices.map((invoice) => (
          <li key={invoice.id}>
            <Card
              className={styles.card}
              onClick={(event) => opens(event) && record.open(invoice.id)}
            >
              <div className={styles.cardHead}>
                <div>
                  <InvoiceLink invoice={invoice} />
                  <Text block>{invoice.bidderName}</Text>
                </div>
                <InvoiceStatusBadge status={invoice.status} overdue={Boolean(invoice.overdueAt)} />
              </div>
              <dl className={styles.facts}>
                <dt>Total</dt>
                <dd className={styles.strong}>{money(invoice, invoice.grandTotal)}</dd>
                <dt>Balance</dt>
                <dd>{money(invoice, invoice.balance)}</dd>
                <dt>Auction</dt>
                <dd>{invoice.auctionTitle || 'Manual invoice'}</dd>
                <dt>Due</dt>
                <dd>{formatDay(invoice.dueDate)}</dd>
              </dl>
              {withActions ? <InvoiceActions invoice={invoice} size="small" /> : null}
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className={styles.frame}>
      <Table aria-label={label} style={{ minWidth: '920px' }}>
        <TableHeader>
          <TableRow className={styles.headerRow}>
            {columns.map((column) => (
              <TableHeaderCell
                key={column.name}
                style={column.width ? { width: column.width } : undefined}
                className={column.end ? styles.money : undefined}
              >
                {column.name}
              </TableHeaderCell>
            ))}
            {withActions ? (
              <TableHeaderCell style={{ width: '220px' }}>
                <span className="visually-hidden">Actions</span>
              </TableHeaderCell>
            ) : null}
          </TableRow>
        </TableHeader>
        <TableBody>
          {invoices.map((invoice) => (
            <TableRow
              key={invoice.id}
              className={styles.row}
              onClick={(event) => opens(event) && record.open(invoice.id)}
            >
              <TableCell>
                <InvoiceLink invoice={invoice} />
              </TableCell>
              <TableCell>
                <span className={styles.clip}>{invoice.bidderName}</span>
                <Caption1 className={mergeClasses(styles.muted, styles.clip)}>
                  {invoice.bidderEmail}
                </Caption1>
              </TableCell>
              <TableCell>
                <span className={styles.clip} title={invoice.auctionTitle}>
                  {invoice.auctionTitle || 'Manual invoice'}
                </span>
              </TableCell>
              <TableCell className={styles.money}>{money(invoice, invoice.grandTotal)}</TableCell>
              <TableCell className={styles.money}>{money(invoice, invoice.balance)}</TableCell>
              <TableCell>
                <InvoiceStatusBadge status={invoice.status} overdue={Boolean(invoice.overdueAt)} />
              </TableCell>
              <TableCell>{formatDay(invoice.dueDate)}</TableCell>
              {withActions ? (
                <TableCell>
                  <InvoiceActions invoice={invoice} size="small" />
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
