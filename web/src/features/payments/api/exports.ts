import { domainApi } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/file-download';

export const reportFormats = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel' },
  { format: 'pdf', label: 'PDF' },
] as const;
export type ReportFormat = (typeof reportFormats)[number]['format'];
export type ReportDataset = 'transactions' | 'invoices' | 'settlements';

/**
 * Export Report: the dataset with the list's filters as a file the service builds, saved under
 * the service's name (`transactions-2026-05-12.xlsx`). Resolves with that name.
 */
export function downloadReport(
  dataset: ReportDataset,
  format: ReportFormat,
  filters: Record<string, string | undefined>,
): Promise<string> {
  const query = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return downloadFile(domainApi(`/exports/${dataset}?${query.toString()}`), `${dataset}.${format}`);
}
