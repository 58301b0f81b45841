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
import { ReceiptMoneyRegular } from '@fluentui/react-icons';
import type { Transaction } from '@contracts/payments/payments.schema';
import type { MouseEvent, ReactNode } from 'react';
import { formatMoneyExact } from '../../../lib/money';
import { useMediaQuery } from '../../../lib/use-media-query';
import { formatDay, PaymentStatusBadge, useOpenRecord, usePaymentStyles } from './payment-style';

/** A click on the row opens it, unless it was on something that acts by itself. */
const opens = (event: MouseEvent) => !(event.target as HTMLElement).closest('a, button, input');

function TransactionLink({ transaction }: { transaction: Transaction }) {
  const styles = usePaymentStyles();
  const record = useOpenRecord('transaction');
  return (
    <Link
      href={`?transaction=${encodeURIComponent(transaction.id)}`}
      className={styles.strong}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        record.open(transaction.id);
      }}
    >
      {transaction.transactionId}
    </Link>
  );
}

const columns: { name: string; width?: string; end?: boolean }[] = [
  { name: 'Transaction', width: '150px' },
  { name: 'Bidder', width: '20%' },
  { name: 'Auction', width: '22%' },
  { name: 'Lots', width: '90px' },
  { name: 'Amount', width: '120px', end: true },
  { name: 'Method', width: '120px' },
  { name: 'Status', width: '110px' },
  { name: 'Due', width: '110px' },
];

/**
 * Transactions as a table, or cards on a phone (and in the narrow Overview panel); a row opens the
 * transaction's detail over the page.
 */
export function TransactionList({
  transactions,
  label,
  empty,
  compact,
  actions,
}: {
  transactions: Transaction[];
  label: string;
  empty: ReactNode;
  /** Fewer columns, for the Overview's panel. */
  compact?: boolean;
  /** Buttons per transaction, e.g. Process or Retry on Pending Actions. */
  actions?(transaction: Transaction): ReactNode;
}) {
  const styles = usePaymentStyles();
  const phone = useMediaQuery('(max-width: 760px)');
  const record = useOpenRecord('transaction');
  if (!transactions.length) {
    return (
      <div className={styles.empty}>
        <ReceiptMoneyRegular fontSize={32} aria-hidden="true" />
        <Body1>{empty}</Body1>
      </div>
    );
  }
  if (phone) {
    return (
      <ul className={styles.cards} aria-label={label}>
        {transactions.map((transaction) => (
          <li key={transaction.id}>
            <Card
              className={styles.card}
              onClick={(event) => opens(event) && record.open(transaction.id)}
            >
              <div className={styles.cardHead}>
                <div>
                  <TransactionLink transaction={transaction} />
                  <Text block>{transaction.bidderName}</Text>
                </div>
                <PaymentStatusBadge status={transaction.paymentStatus} />
              </div>
              <dl className={styles.facts}>
                <dt>Amount</dt>
                <dd className={styles.strong}>
                  {formatMoneyExact(transaction.amount, transaction.currency)}
                </dd>
                <dt>Auction</dt>
                <dd>{transaction.auctionTitle || '—'}</dd>
                <dt>Method</dt>
                <dd>{transaction.paymentMethod}</dd>
                <dt>Due</dt>
                <dd>{formatDay(transaction.dueDate)}</dd>
              </dl>
              {actions ? <div className={styles.actions}>{actions(transaction)}</div> : null}
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  const shown = compact
    ? columns.filter((column) =>
        ['Transaction', 'Bidder', 'Amount', 'Status'].includes(column.name),
      )
    : columns;
  return (
    <div className={styles.frame}>
      <Table aria-label={label} style={compact ? undefined : { minWidth: '960px' }}>
        <TableHeader>
          <TableRow className={styles.headerRow}>
            {shown.map((column) => (
              <TableHeaderCell
                key={column.name}
                style={column.width ? { width: column.width } : undefined}
                className={column.end ? styles.money : undefined}
              >
                {column.name}
              </TableHeaderCell>
            ))}
            {actions ? (
              <TableHeaderCell style={{ width: '200px' }}>
                <span className="visually-hidden">Actions</span>
              </TableHeaderCell>
            ) : null}
          </TableRow>
        </TableHeader>
        <TableBody>
          {transactions.map((transaction) => (
            <TableRow
              key={transaction.id}
              className={styles.row}
              onClick={(event) => opens(event) && record.open(transaction.id)}
            >
              <TableCell>
                <TransactionLink transaction={transaction} />
              </TableCell>
              <TableCell>
                <span className={styles.clip} title={transaction.bidderEmail}>
                  {transaction.bidderName}
                </span>
                {compact ? null : (
                  <Caption1 className={mergeClasses(styles.muted, styles.clip)}>
                    {transaction.bidderEmail}
                  </Caption1>
                )}
              </TableCell>
              {compact ? null : (
                <>
                  <TableCell>
                    <span className={styles.clip} title={transaction.auctionTitle}>
                      {transaction.auctionTitle || '—'}
                    </span>
                  </TableCell>
                  <TableCell>
                    <span className={styles.clip}>{transaction.lotNumbers.join(', ') || '—'}</span>
                  </TableCell>
                </>
              )}
              <TableCell className={styles.money}>
                {formatMoneyExact(transaction.amount, transaction.currency)}
              </TableCell>
              {compact ? null : <TableCell>{transaction.paymentMethod}</TableCell>}
              <TableCell>
                <PaymentStatusBadge status={transaction.paymentStatus} />
              </TableCell>
              {compact ? null : <TableCell>{formatDay(transaction.dueDate)}</TableCell>}
              {actions ? (
                <TableCell>
                  <div className={styles.actions}>{actions(transaction)}</div>
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
