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
import type { InvoiceListItem } from '@contracts/payments/payments.schema';
import type { ReactNode } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { useInvoicePage, useTransactionPage } from '../api/payments';
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
 * waiting on the house: drafts to approve, approved ones to send, sent ones overdue.
 */
export function PendingTab() {
  const styles = usePaymentStyles();
  const payments = useTransactionPage({ statuses: ['Pending', 'Failed'] });
  const drafts = useInvoicePage({ status: 'draft' });
  const approved = useInvoicePage({ status: 'approved' });
  const sent = useInvoicePage({ status: 'sent' });
  const viewed = useInvoicePage({ status: 'viewed' });
  const charge = useChargeCard();
  const overdue: InvoiceListItem[] = [...(sent.data?.items ?? []), ...(viewed.data?.items ?? [])]
    .filter((invoice) => invoice.overdueAt)
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate));
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
      <Section title="Overdue invoices" description="Sent invoices past their due date">
        {sent.data && viewed.data ? (
          <InvoiceList
            invoices={overdue}
            label="Overdue invoices"
            empty="No invoice is overdue."
            withActions
          />
        ) : (
          <Loading error={sent.error ?? viewed.error} label="overdue invoices" />
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
            void sent.mutate();
            void viewed.mutate();
          }}
        >
          Refresh
        </Button>
      </div>
    </div>
  );
}
