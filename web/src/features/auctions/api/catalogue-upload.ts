import {
  cancelResultSchema,
  uploadPreviewSchema,
  uploadSchema,
  uploadSessionSchema,
  uploadStatusSchema,
  type Upload,
  type UploadStatusView,
} from '@contracts/uploads/uploads.schema';
import type { Auction } from '@contracts/auctions/auctions.schema';
import useSWR from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';
import type { HandoffCalls } from '../../../lib/use-import-handoff';

/**
 * The Import Catalogue dialog's calls: its file becomes a Data Processing upload of auction data
 * for this auction (issue 15), sent straight to Blob Storage and processed by the worker, so the
 * import is in the history, can be re-run (Update all for lots already here) and undone.
 */

const base = domainApi('/data-upload');
const uploadUrl = (id: string) => `${base}/${encodeURIComponent(id)}`;
const ifMatch = (upload: Upload) => ({ 'if-match': `"${upload.etag}"` });
/** The dialog follows its import more closely than the history does. */
const POLL_MS = 1000;

export function catalogueImportCalls(auction: Auction, files: File[]): HandoffCalls {
  return {
    start: () =>
      apiRequest(`${base}/sessions`, {
        method: 'POST',
        body: {
          name: `Catalogue of ${auction.title}`.slice(0, 200),
          description: `Lots for ${auction.title}, from its Import Catalogue dialog`.slice(0, 2000),
          category: 'auctions',
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
export const useCatalogueImportStatus = (uploadId: string | null) =>
  useSWR(
    uploadId ? `${base}/status/${encodeURIComponent(uploadId)}` : null,
    fetchWith(uploadStatusSchema),
    {
      refreshInterval: (latest?: UploadStatusView) =>
        latest && latest.status !== 'processing' ? 0 : POLL_MS,
      revalidateOnFocus: false,
    },
  );
