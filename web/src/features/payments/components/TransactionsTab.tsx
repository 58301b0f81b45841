import {
  Button,
  Caption1,
  Dropdown,
  Field,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  SearchBox,
  Skeleton,
  SkeletonItem,
} from '@fluentui/react-components';
import { paymentStatuses, type PaymentStatus } from '@contracts/payments/payments.schema';
import { useDeferredValue } from 'react';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useTransactions } from '../api/payments';
import { usePaymentStyles } from './payment-style';
import { TransactionList } from './TransactionList';

const ALL = 'all';

/** The search and status filter as the address keeps them (`?q=&status=`). */
export function useTransactionFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const asked = params.get('status');
  const status = paymentStatuses.find((candidate) => candidate === asked);
  const set = (name: 'q' | 'status', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { search, status, set };
}

/** All Transactions: search, a status filter, newest first, more on request. */
export function TransactionsTab() {
  const styles = usePaymentStyles();
  const { search, status, set } = useTransactionFilters();
  const deferred = useDeferredValue(search);
  const list = useTransactions({
    search: deferred,
    ...(status ? { statuses: [status] } : {}),
  });
  const transactions = list.data?.flatMap((page) => page.items) ?? [];
  const more = Boolean(list.data?.at(-1)?.continuationToken);
  const filtered = Boolean(search || status);
  return (
    <div className={styles.stack}>
      <div className={styles.toolbar}>
        <Field label="Search transactions" className={styles.search}>
          <SearchBox
            value={search}
            placeholder="Transaction, bidder, auction or lot"
            onChange={(_, data) => set('q', data.value)}
          />
        </Field>
        <Field label="Status" className={styles.filter}>
          <Dropdown
            value={status ?? 'All statuses'}
            selectedOptions={[status ?? ALL]}
            onOptionSelect={(_, data) =>
              set('status', data.optionValue === ALL ? '' : (data.optionValue ?? ''))
            }
          >
            <Option value={ALL}>All statuses</Option>
            {paymentStatuses.map((candidate: PaymentStatus) => (
              <Option key={candidate} value={candidate}>
                {candidate}
              </Option>
            ))}
          </Dropdown>
        </Field>
      </div>
      {list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>
            The transactions could not be loaded: {messageOf(list.error)}
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void list.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {list.data ? (
        <TransactionList
          transactions={transactions}
          label="Transactions"
          empty={
            filtered
              ? 'No transactions match this search.'
              : 'No transactions yet. Card payments, recorded payments and refunds appear here.'
          }
        />
      ) : list.error ? null : (
        <Skeleton aria-label="Loading transactions">
          {[0, 1, 2].map((row) => (
            <SkeletonItem key={row} size={48} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      )}
      {transactions.length ? (
        <div className={styles.more}>
          {more ? (
            <Button disabled={list.isValidating} onClick={() => void list.setSize(list.size + 1)}>
              {list.isValidating ? 'Loading...' : 'Load more'}
            </Button>
          ) : (
            <Caption1 className={styles.muted} aria-live="polite">
              {countOf(transactions.length, 'transaction')}
            </Caption1>
          )}
        </div>
      ) : null}
    </div>
  );
}
