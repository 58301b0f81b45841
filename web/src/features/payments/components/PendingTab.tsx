import {
  Button,
  Caption1,
  Card,
  CardHeader,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useInvoicePage, useInvoices, useTransactionPage } from '../api/payments';
import { useChargeCard } from './ChargeCardDialog';
import { InvoiceList } from './InvoiceList';
import { usePaymentStyles } from './payment-style';
import { TransactionList } from './TransactionList';

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  const styles = usePaymentStyles();
  return (
    <Card>
      <CardHeader
        header={<Subtitle2 as="h2">{title}</Subtitle2>}
        description={<Caption1 className={styles.muted}>{description}</Caption1>}
      />
      {children}
    </Card>
  );
}

function Loading({ error, label }: { error: unknown; label: string }) {
  if (error) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>
          The {label} could not be loaded: {messageOf(error)}
        </MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <Skeleton aria-label={`Loading ${label}`}>
      <SkeletonItem size={48} />
    </Skeleton>
  );
}

/**
 * Pending Actions: payments waiting for a card (Process) or that failed (Retry), and invoices
 * waiting on the house: drafts to approve, approved ones to send, and every invoice still owed
 * past its due date (the server's `overdue` filter, a page at a time, the longest owed first).
 */
export function PendingTab() {
  const styles = usePaymentStyles();
  const payments = useTransactionPage({ statuses: ['Pending', 'Failed'] });
  const drafts = useInvoicePage({ status: 'draft' });
  const approved = useInvoicePage({ status: 'approved' });
  const overdue = useInvoices({ overdue: true });
  const overdueInvoices = overdue.data?.flatMap((page) => page.items) ?? [];
  const overdueTotal = overdue.data?.at(-1)?.total ?? 0;
  const moreOverdue = Boolean(overdue.data?.at(-1)?.continuationToken);
  const charge = useChargeCard();
  const toAct = [...(drafts.data?.items ?? []), ...(approved.data?.items ?? [])];
  return (
    <div className={styles.stack}>
      <Section
        title="Payments"
        description="Card payments waiting to be taken, and ones that failed"
      >
        {payments.data ? (
          <TransactionList
            transactions={payments.data.items}
            label="Pending and failed payments"
            empty="No pending or failed payments."
            actions={(transaction) =>
              transaction.paymentMethod === 'Credit Card' ? (
                <PermittedButton
                  permission="payments:process"
                  size="small"
                  disabled={charge.busy}
                  onClick={() => charge.start(transaction)}
                >
                  {transaction.paymentStatus === 'Failed' ? 'Retry' : 'Process'}
                </PermittedButton>
              ) : null
            }
          />
        ) : (
          <Loading error={payments.error} label="payments" />
        )}
      </Section>
      <Section
        title="Invoices to approve or send"
        description="Drafts to check and approve, and approved invoices not yet sent to the buyer"
      >
        {drafts.data && approved.data ? (
          <InvoiceList
            invoices={toAct}
            label="Invoices to approve or send"
            empty="Every invoice has been approved and sent."
            withActions
          />
        ) : (
          <Loading error={drafts.error ?? approved.error} label="invoices" />
        )}
      </Section>
      <Section
        title="Overdue invoices"
        description="Invoices still owed after their due date, the longest owed first"
      >
        {overdue.data ? (
          <>
            <InvoiceList
              invoices={overdueInvoices}
              label="Overdue invoices"
              empty="No invoice is overdue."
              withActions
            />
            {overdueTotal ? (
              <div className={styles.more}>
                <Caption1 className={styles.muted} aria-live="polite">
                  {moreOverdue
                    ? `Showing ${overdueInvoices.length.toLocaleString()} of ${countOf(overdueTotal, 'overdue invoice')}`
                    : countOf(overdueTotal, 'overdue invoice')}
                </Caption1>
              </div>
            ) : null}
            {moreOverdue ? (
              <div className={styles.more}>
                <Button
                  disabled={overdue.isValidating}
                  onClick={() => void overdue.setSize(overdue.size + 1)}
                >
                  {overdue.isValidating ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        ) : (
          <Loading error={overdue.error} label="overdue invoices" />
        )}
      </Section>
      {charge.dialog}
      <div className={styles.more}>
        <Button
          appearance="subtle"
          onClick={() => {
            void payments.mutate();
            void drafts.mutate();
            void approved.mutate();
            void overdue.mutate();
          }}
        >
          Refresh
        </Button>
      </div>
    </div>
  );
}
