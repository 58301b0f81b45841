import {
  cancelResultSchema,
  historyPageSchema,
  importingCategories,
  overwritePreviewSchema,
  undoResultSchema,
  uploadPreviewSchema,
  uploadSchema,
  uploadSessionSchema,
  uploadStatusSchema,
  type CompleteUpload,
  type HistoryQuery,
  type ImportMode,
  type Rerun,
  type Upload,
  type UploadCategory,
  type UploadSessionInput,
  type UploadStatus,
  type UploadStatusView,
} from '@contracts/uploads/uploads.schema';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import { ApiError, apiRequest, domainApi } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/file-download';
import { fetchWith } from '../../../lib/swr';
import { sendFiles, type SendOptions } from '../../../lib/upload-session';

const base = domainApi('/data-upload');
const PAGE_SIZE = 25;
/** How often an upload being processed is asked for its progress. */
export const STATUS_POLL_MS = 2000;

type HistoryPage = z.infer<typeof historyPageSchema>;
export type HistoryFilters = Pick<HistoryQuery, 'category' | 'status' | 'search'>;

const uploadUrl = (id: string) => `${base}/${encodeURIComponent(id)}`;

function historyUrl(filters: HistoryFilters, continuationToken: string | null): string {
  const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
  if (filters.category) query.set('category', filters.category);
  if (filters.status) query.set('status', filters.status);
  if (filters.search?.trim()) query.set('search', filters.search.trim());
  if (continuationToken) query.set('continuationToken', continuationToken);
  return `${base}/history?${query.toString()}`;
}

/** The Processing History, newest first, a page at a time ("Load more" asks for the next). */
export const useUploadHistory = (filters: HistoryFilters) =>
  useSWRInfinite(
    (index: number, previous: HistoryPage | null) => {
      if (index === 0) return historyUrl(filters, null);
      return previous?.continuationToken ? historyUrl(filters, previous.continuationToken) : null;
    },
    fetchWith(historyPageSchema),
    { keepPreviousData: true, revalidateAll: true },
  );

/** Statuses whose upload is still moving on the server by itself. */
export const isProcessing = (status: UploadStatus) => status === 'processing';

/**
 * An upload's status while it is being processed, asked every 2 s; none is asked for (and the
 * polling stops) once it is not processing. Keyed by the upload's ETag as well, so each run (a
 * re-run, an undo) starts from a fresh answer, never from the last run's cached "completed".
 */
export const useUploadStatus = (upload: Upload) =>
  useSWR(
    isProcessing(upload.status)
      ? [`${base}/status/${encodeURIComponent(upload.id)}`, upload.etag]
      : null,
    ([url]: [string, string]) => apiRequest(url, { schema: uploadStatusSchema }),
    {
      refreshInterval: (latest?: UploadStatusView) =>
        latest && !isProcessing(latest.status) ? 0 : STATUS_POLL_MS,
      revalidateOnFocus: false,
    },
  );

const ifMatch = (upload: Upload) => ({ 'if-match': `"${upload.etag}"` });

/** Whether a failure is the service saying the upload changed since it was read (412). */
export const isStale = (error: unknown) => error instanceof ApiError && error.status === 412;

/**
 * Each tabular file's first rows and the detected (or saved) mapping, for an upload whose files
 * are in; asked once per upload (the preview does not change until the mapping is saved).
 */
export const useUploadPreview = (id: string | null) =>
  useSWR(id ? `${uploadUrl(id)}/preview` : null, fetchWith(uploadPreviewSchema), {
    revalidateOnFocus: false,
  });

/** What re-running with `update` would overwrite, read afresh each time the dialog opens. */
export const useOverwritePreview = (id: string | null) =>
  useSWR(id ? `${uploadUrl(id)}/overwrites` : null, fetchWith(overwritePreviewSchema), {
    revalidateOnFocus: false,
    revalidateOnMount: true,
    dedupingInterval: 0,
  });

/** Everything the Uploads & Processing tab changes. */
export function useUploadActions() {
  return {
    /**
     * Creates the upload and puts each file straight into Blob Storage through its write-only
     * SAS URL; resolves with the upload, still `uploading`, once every byte is there (then map
     * and complete it). Aborted, the upload is cancelled; failed, it is deleted (spec 4.3).
     */
    send: (fields: Omit<UploadSessionInput, 'files'>, files: File[], options: SendOptions) =>
      sendFiles(
        {
          start: () =>
            apiRequest(`${base}/sessions`, {
              method: 'POST',
              body: {
                ...fields,
                files: files.map((file) => ({ name: file.name, size: file.size })),
              },
              schema: uploadSessionSchema,
            }),
          cancel: (upload) =>
            apiRequest(`${uploadUrl(upload.id)}/cancel`, {
              method: 'POST',
              schema: cancelResultSchema,
            }),
          discard: (upload) => apiRequest(uploadUrl(upload.id), { method: 'DELETE' }),
        },
        files,
        options,
      ),
    /** The files are in: saves the mapping and queues the processing. */
    complete: (upload: Upload, body: CompleteUpload = {}) =>
      apiRequest(`${uploadUrl(upload.id)}/complete`, {
        method: 'POST',
        body,
        headers: ifMatch(upload),
        schema: uploadSchema,
      }),
    /** Processes a finished upload again: new rows only, failed rows only, or update all. */
    rerun: (upload: Upload, body: Rerun) =>
      apiRequest(`${uploadUrl(upload.id)}/rerun`, {
        method: 'POST',
        body,
        headers: ifMatch(upload),
        schema: uploadSchema,
      }),
    /** Takes back what the upload's runs wrote (created removed, changed put back). */
    undo: (upload: Upload) =>
      apiRequest(`${uploadUrl(upload.id)}/undo`, {
        method: 'POST',
        headers: ifMatch(upload),
        schema: undoResultSchema,
      }),
    /** Uploading: the upload and its files go. Processing: the run stops at its next checkpoint. */
    cancel: (upload: Upload) =>
      apiRequest(`${uploadUrl(upload.id)}/cancel`, {
        method: 'POST',
        schema: cancelResultSchema,
      }),
    /** Deletes the upload and its stored files; records already imported from it stay. */
    remove: (upload: Upload) => apiRequest(uploadUrl(upload.id), { method: 'DELETE' }),
    /** Saves one of the upload's original files. */
    downloadOriginal: (upload: Upload, index: number) =>
      downloadFile(
        `${base}/download/${encodeURIComponent(upload.id)}?file=${index}`,
        upload.files[index]?.name ?? `upload-${index + 1}`,
      ),
    /** Saves the upload's full error report (CSV). */
    downloadErrors: (upload: Upload) =>
      downloadFile(
        `${base}/download/${encodeURIComponent(upload.id)}?report=errors`,
        `${upload.name} errors.csv`,
      ),
  };
}

/** How each import mode reads on the screen. */
export const modeLabels: Record<ImportMode, string> = {
  new: 'New rows only',
  failed: 'Failed rows only',
  update: 'Update all',
};

/** Whether the upload's category turns rows into records (and so has a mapping, re-runs, undo). */
export const importsRows = (category: UploadCategory) =>
  (importingCategories as readonly string[]).includes(category);

/** The categories' readable names, in the spec's order. */
export const categoryLabels: Record<UploadCategory, string> = {
  bidders: 'Bidder Data',
  inventory: 'Inventory',
  auctions: 'Auction Data',
  financial: 'Financial Records',
  legal: 'Legal Documents',
  marketing: 'Marketing Data',
  operations: 'Operations',
  historical: 'Historical Records',
  other: 'Other',
};

export const statusLabels: Record<UploadStatus, string> = {
  pending: 'Pending',
  uploading: 'Uploading',
  processing: 'Processing',
  completed: 'Completed',
  error: 'Error',
};
