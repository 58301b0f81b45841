import {
  Menu,
  MenuButton,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Tooltip,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  downloadReport,
  reportFormats,
  type ReportDataset,
  type ReportFormat,
} from '../api/exports';

const datasetLabels: Record<ReportDataset, string> = {
  transactions: 'transactions',
  invoices: 'invoices',
  settlements: 'consignor statements',
};

/** Export Report: the current tab's list as CSV, Excel or PDF, with the list's filters. */
export function ExportMenu({
  dataset,
  filters,
}: {
  dataset: ReportDataset;
  filters: Record<string, string | undefined>;
}) {
  const can = useCan();
  const notify = useNotify();
  const exporting = useAction(
    async (format: ReportFormat) => {
      const name = await downloadReport(dataset, format, filters);
      notify.success('Report downloaded', name);
    },
    { onError: (message) => notify.error('The report could not be exported', message) },
  );
  const button = (
    <MenuButton icon={<ArrowDownloadRegular />} disabled={exporting.busy}>
      {exporting.busy ? 'Exporting...' : 'Export Report'}
    </MenuButton>
  );
  if (!can('payments:reports')) {
    return (
      <Tooltip content={needsPermission('payments:reports')} relationship="description">
        <MenuButton icon={<ArrowDownloadRegular />} disabledFocusable>
          Export Report
        </MenuButton>
      </Tooltip>
    );
  }
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>{button}</MenuTrigger>
      <MenuPopover>
        <MenuList aria-label={`Export ${datasetLabels[dataset]}`}>
          {reportFormats.map(({ format, label }) => (
            <MenuItem key={format} onClick={() => void exporting.run(format)}>
              {label}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
