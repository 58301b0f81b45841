import type { Upload, UploadSession } from '@contracts/uploads/uploads.schema';
import { putFiles, UploadAbortedError, type FileProgress } from './block-upload';

/**
 * A browser upload session of the Data Processing Center: the upload is created (status
 * `uploading`, one write-only SAS URL per file), the files go straight to Blob Storage, and the
 * caller then previews, maps and completes it. The calls are the feature's own (each feature's
 * `api/` module declares them); this is the order they run in and what happens when it stops.
 */
export interface SessionCalls {
  /** POST /data-upload/sessions: the record (uploading) and where each file goes. */
  start(): Promise<UploadSession>;
  /** POST /data-upload/{id}/cancel: its record and blobs are removed. */
  cancel(upload: Upload): Promise<unknown>;
  /** DELETE /data-upload/{id}: what is left of an upload that failed part way. */
  discard(upload: Upload): Promise<unknown>;
}

export interface SendOptions {
  /** Aborting stops the bytes, cancels the upload on the server and rejects UploadAbortedError. */
  signal?: AbortSignal;
  /** The upload exists on the server (status uploading). */
  onStarted?(upload: Upload): void;
  onProgress?(sent: FileProgress): void;
}

/**
 * Starts the session and puts every file into Blob Storage; resolves with the upload, still
 * `uploading`, once every byte is there. Cancelled, the upload is cancelled on the server (or
 * deleted, should the cancel be refused) so nothing half-sent stays in the history; failed, it
 * is deleted and the failure rethrown.
 */
export async function sendFiles(
  calls: SessionCalls,
  files: readonly File[],
  { signal, onStarted, onProgress }: SendOptions = {},
): Promise<Upload> {
  if (signal?.aborted) throw new UploadAbortedError();
  const session = await calls.start();
  const { upload } = session;
  onStarted?.(upload);
  try {
    if (signal?.aborted) throw new UploadAbortedError();
    await putFiles(session.targets, files, (sent) => onProgress?.(sent), signal);
    return upload;
  } catch (error) {
    if (signal?.aborted) {
      await calls
        .cancel(upload)
        .catch(() => calls.discard(upload))
        .catch(() => undefined);
      throw new UploadAbortedError();
    }
    await calls.discard(upload).catch(() => undefined);
    throw error;
  }
}
