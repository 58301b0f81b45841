import { ApiError } from './api-client';

/**
 * Files sent from the browser straight to Azure Blob Storage through short-lived write-only SAS
 * URLs, in blocks with real progress (a Functions request is capped at 100 MB in Azure). Each
 * feature that uploads this way (Data Processing, the bidders' and auctions' Import dialogs)
 * declares its own calls to start and finish the upload; this is only the part in between.
 */

/** Azure Blob Storage takes a file in blocks; 4 MiB keeps each request short and retryable. */
export const BLOCK_BYTES = 4 * 1024 * 1024;

/** Where one file goes: its index in the list sent, and its write-only SAS URL. */
export interface BlobTarget {
  index: number;
  url: string;
}

/** Bytes sent so far per file, in the order the files were given. */
export type FileProgress = number[];

/** What an upload stopped by its AbortSignal rejects with. */
export class UploadAbortedError extends ApiError {
  constructor() {
    super('The upload was cancelled', 0, 'aborted');
    this.name = 'UploadAbortedError';
  }
}

export const isUploadAborted = (error: unknown): error is UploadAbortedError =>
  error instanceof UploadAbortedError;

/** A file's blocks in Azure's block ids: the same length each, base64. */
const blockId = (index: number) => btoa(`block-${String(index).padStart(6, '0')}`);

/** One request to Blob Storage with upload progress (which fetch cannot report). */
function putToBlob(
  url: string,
  body: Blob | string,
  headers: Record<string, string>,
  onProgress: (loaded: number) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadAbortedError());
      return;
    }
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      settle();
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
    request.onabort = () => {
      settle();
      reject(new UploadAbortedError());
    };
    request.onerror = () => {
      settle();
      reject(new ApiError('The upload could not reach the storage service', 0, 'network'));
    };
    request.send(body);
  });
}

/** A SAS URL with more query parameters after its own. */
const withQuery = (sasUrl: string, query: string) =>
  `${sasUrl}${sasUrl.includes('?') ? '&' : '?'}${query}`;

/** Puts one file into its blob: its blocks one after another, then the list that commits them. */
async function putFile(
  sasUrl: string,
  file: File,
  onProgress: (loaded: number) => void,
  signal: AbortSignal | undefined,
) {
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
      signal,
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
    signal,
  );
}

/**
 * Puts each file into its target blob, one after another, reporting the bytes sent per file.
 * Aborting the signal stops the request under way and rejects with UploadAbortedError.
 */
export async function putFiles(
  targets: readonly BlobTarget[],
  files: readonly File[],
  onProgress: (sent: FileProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const sent: FileProgress = files.map(() => 0);
  for (const target of targets) {
    const file = files[target.index];
    if (!file) continue;
    await putFile(
      target.url,
      file,
      (loaded) => {
        sent[target.index] = loaded;
        onProgress([...sent]);
      },
      signal,
    );
  }
}

/** The share of the bytes sent, 0 to 1 (1 for nothing to send). */
export function shareSent(sent: FileProgress, files: readonly { size: number }[]): number {
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (!total) return 1;
  return Math.min(1, sent.reduce((sum, value) => sum + value, 0) / total);
}
