import {
  cancelResultSchema,
  uploadPreviewSchema,
  uploadSchema,
  uploadSessionSchema,
  uploadStatusSchema,
  type Upload,
  type UploadStatusView,
} from '@contracts/uploads/uploads.schema';
import useSWR from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';
import type { HandoffCalls } from '../../../lib/use-import-handoff';

/**
 * The Import Bidders dialog's calls: its files become a Data Processing upload of bidders (issue
 * 15), sent straight to Blob Storage and processed by the worker, so the import is in the
 * history, can be re-run and undone.
 */

const base = domainApi('/data-upload');
const uploadUrl = (id: string) => `${base}/${encodeURIComponent(id)}`;
const ifMatch = (upload: Upload) => ({ 'if-match': `"${upload.etag}"` });
/** The dialog follows its import more closely than the history does. */
const POLL_MS = 1000;

/** "Bidders from spring.csv", "Bidders from spring.csv and 2 more files". */
export function bidderUploadName(files: readonly File[]): string {
  const [first] = files;
  const more = files.length > 1 ? ` and ${files.length - 1} more` : '';
  return `Bidders from ${first?.name ?? 'a file'}${more}`.slice(0, 200);
}

export function bidderImportCalls(files: File[]): HandoffCalls {
  return {
    start: () =>
      apiRequest(`${base}/sessions`, {
        method: 'POST',
        body: {
          name: bidderUploadName(files),
          description: 'Imported from the Bidders page',
          category: 'bidders',
          files: files.map((file) => ({ name: file.name, size: file.size })),
        },
        schema: uploadSessionSchema,
      }),
    preview: (upload) =>
      apiRequest(`${uploadUrl(upload.id)}/preview`, { schema: uploadPreviewSchema }),
    complete: (upload, body) =>
      apiRequest(`${uploadUrl(upload.id)}/complete`, {
        method: 'POST',
        body,
        headers: ifMatch(upload),
        schema: uploadSchema,
      }),
    cancel: (upload) =>
      apiRequest(`${uploadUrl(upload.id)}/cancel`, {
        method: 'POST',
        schema: cancelResultSchema,
      }),
    discard: (upload) => apiRequest(uploadUrl(upload.id), { method: 'DELETE' }),
  };
}

/** The import's status while it is processed, asked every second until it is done. */
export const useBidderImportStatus = (uploadId: string | null) =>
  useSWR(
    uploadId ? `${base}/status/${encodeURIComponent(uploadId)}` : null,
    fetchWith(uploadStatusSchema),
    {
      refreshInterval: (latest?: UploadStatusView) =>
        latest && latest.status !== 'processing' ? 0 : POLL_MS,
      revalidateOnFocus: false,
    },
  );
