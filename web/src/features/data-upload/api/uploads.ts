import {
  historyPageSchema,
  uploadSchema,
  uploadSessionSchema,
  uploadStatusSchema,
  type HistoryQuery,
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

const base = domainApi('/data-upload');
const PAGE_SIZE = 25;
/** How often an upload being processed is asked for its progress. */
export const STATUS_POLL_MS = 2000;
/** Azure Blob Storage takes a file in blocks; 4 MiB keeps each request short and retryable. */
export const BLOCK_BYTES = 4 * 1024 * 1024;

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
 * polling stops) once it is not processing.
 */
export const useUploadStatus = (id: string, processing: boolean) =>
  useSWR(
    processing ? `${base}/status/${encodeURIComponent(id)}` : null,
    fetchWith(uploadStatusSchema),
    {
      refreshInterval: (latest?: UploadStatusView) =>
        latest && !isProcessing(latest.status) ? 0 : STATUS_POLL_MS,
      revalidateOnFocus: false,
    },
  );

/** How far each file has got, in bytes, in the form's order. */
export type FileProgress = number[];

/** A file's bytes in Azure's block ids: the same length each, base64. */
const blockId = (index: number) => btoa(`block-${String(index).padStart(6, '0')}`);

/** One request to Blob Storage with upload progress (which fetch cannot report). */
function putToBlob(
  url: string,
  body: Blob | string,
  headers: Record<string, string>,
  onProgress: (loaded: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else
        reject(
          new ApiError(
            `Storage refused the file: ${request.status} ${request.statusText}`.trim(),
            request.status,
            'storage',
          ),
        );
    };
    request.onerror = () =>
      reject(new ApiError('The upload could not reach the storage service', 0, 'network'));
    request.send(body);
  });
}

/** A SAS URL with more query parameters after its own. */
const withQuery = (sasUrl: string, query: string) =>
  `${sasUrl}${sasUrl.includes('?') ? '&' : '?'}${query}`;

/** Puts one file into its blob: its blocks one after another, then the list that commits them. */
async function putFile(sasUrl: string, file: File, onProgress: (loaded: number) => void) {
  const ids: string[] = [];
  for (let start = 0, index = 0; start < file.size; start += BLOCK_BYTES, index += 1) {
    const id = blockId(index);
    ids.push(id);
    const block = file.slice(start, Math.min(start + BLOCK_BYTES, file.size));
    await putToBlob(
      withQuery(sasUrl, `comp=block&blockid=${encodeURIComponent(id)}`),
      block,
      {},
      (loaded) => onProgress(start + loaded),
    );
    onProgress(start + block.size);
  }
  const list = `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids
    .map((id) => `<Latest>${id}</Latest>`)
    .join('')}</BlockList>`;
  await putToBlob(
    withQuery(sasUrl, 'comp=blocklist'),
    list,
    {
      'content-type': 'application/xml',
      'x-ms-blob-content-type': file.type || 'application/octet-stream',
    },
    () => undefined,
  );
}

export interface UploadCallbacks {
  /** The upload's record exists (status uploading): show it at the top of the history. */
  onStarted(upload: Upload): void;
  /** Bytes sent per file, in the form's order. */
  onProgress(sent: FileProgress): void;
}

/** Everything the Uploads & Processing tab changes. */
export function useUploadActions() {
  return {
    /**
     * Creates the upload, puts each file straight into Blob Storage through its write-only SAS
     * URL, then says the files are in, which queues the processing. A failure after the upload
     * was created deletes it, so no half-sent entry stays in the history (spec 4.3).
     */
    async upload(fields: Omit<UploadSessionInput, 'files'>, files: File[], on: UploadCallbacks) {
      const session = await apiRequest(`${base}/sessions`, {
        method: 'POST',
        body: { ...fields, files: files.map((file) => ({ name: file.name, size: file.size })) },
        schema: uploadSessionSchema,
      });
      on.onStarted(session.upload);
      const sent: FileProgress = files.map(() => 0);
      try {
        for (const target of session.targets) {
          const file = files[target.index];
          if (!file) continue;
          await putFile(target.url, file, (loaded) => {
            sent[target.index] = loaded;
            on.onProgress([...sent]);
          });
        }
        return await apiRequest(`${uploadUrl(session.upload.id)}/complete`, {
          method: 'POST',
          schema: uploadSchema,
        });
      } catch (error) {
        await apiRequest(uploadUrl(session.upload.id), { method: 'DELETE' }).catch(() => undefined);
        throw error;
      }
    },
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
