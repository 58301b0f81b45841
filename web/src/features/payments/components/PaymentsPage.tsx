import { makeStyles, tokens } from '@fluentui/react-components';
import { DocumentAddRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PermittedButton } from '../../../components/PermittedButton';
import { RoutedTabsPage, type RoutedTab } from '../../../components/RoutedTabsPage';
import type { ReportDataset } from '../api/exports';
import { ExportMenu } from './ExportMenu';
import { InvoiceDialog } from './InvoiceDialog';
import { InvoicesTab } from './InvoicesTab';
import { ManualInvoiceDialog } from './ManualInvoiceDialog';
import { OverviewTab } from './OverviewTab';
import { PendingTab } from './PendingTab';
import { SettlementsTab } from './SettlementsTab';
import { StatementDialog } from './StatementDialog';
import { TransactionDialog } from './TransactionDialog';
import { TransactionsTab } from './TransactionsTab';

const BASE = '/payments';

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** The spec's three tabs, then the invoices and consignor settlements behind them. */
const tabs: RoutedTab[] = [
  { id: 'overview', label: 'Overview', render: () => <OverviewTab /> },
  { id: 'transactions', label: 'All Transactions', render: () => <TransactionsTab /> },
  { id: 'pending', label: 'Pending Actions', render: () => <PendingTab /> },
  { id: 'invoices', label: 'Invoices', render: () => <InvoicesTab /> },
  { id: 'settlements', label: 'Settlements', render: () => <SettlementsTab /> },
];

/** What Export Report exports from each tab: its list, with the list's filters. */
function useReport(tab: string | undefined): {
  dataset: ReportDataset;
  filters: Record<string, string | undefined>;
} {
  const [params] = useSearchParams();
  const get = (name: string) => params.get(name) ?? undefined;
  if (tab === 'invoices')
    return { dataset: 'invoices', filters: { search: get('q'), status: get('invoiceStatus') } };
  if (tab === 'settlements')
    return {
      dataset: 'settlements',
      filters: { status: get('statementStatus'), consignor: get('consignor') },
    };
  if (tab === 'pending')
    return { dataset: 'transactions', filters: { statuses: 'Pending,Failed' } };
  if (tab === 'transactions')
    return { dataset: 'transactions', filters: { search: get('q'), status: get('status') } };
  return { dataset: 'transactions', filters: {} };
}

/**
 * Payments (`/payments/{tab}`): Overview, All Transactions, Pending Actions, Invoices and
 * Settlements. A transaction, invoice or statement opens over the page from its query parameter
 * (`?transaction=`, `?invoice=`, `?settlement=`), so each has an address.
 */
export default function PaymentsPage() {
  const styles = useStyles();
  const { tab } = useParams();
  const report = useReport(tab);
  const [manual, setManual] = useState(false);
  return (
    <RoutedTabsPage
      title="Payments"
      base={BASE}
      label="Payments sections"
      tabs={tabs}
      indexTab="overview"
      scrollableTabs
      actions={
        <div className={styles.actions}>
          <ExportMenu dataset={report.dataset} filters={report.filters} />
          <PermittedButton
            permission="payments:process"
            appearance="primary"
            icon={<DocumentAddRegular />}
            onClick={() => setManual(true)}
          >
            Manual Invoice
          </PermittedButton>
        </div>
      }
    >
      <TransactionDialog />
      <InvoiceDialog />
      <StatementDialog />
      <ManualInvoiceDialog open={manual} onClose={() => setManual(false)} />
    </RoutedTabsPage>
  );
}
