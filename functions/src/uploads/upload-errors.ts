import type { AccountScope } from '../platform/repo.js';
import {
  pageUploadErrors,
  type StoredUploadError,
  type UploadErrorsRecord,
} from './uploads.repo.js';

/**
 * The full error report of a run, however many errors it had, without reading its files again.
 * The record lists the first MAX_LISTED_ERRORS errors; every later one (a row's problem found
 * while reading it, or only while writing it: an auction row needing a category, a bidder not on
 * file) waits in memory until the next checkpoint, which writes it in error batches together
 * with the record (`replaceUploadWith`). So what a checkpoint counts is exactly what the batches
 * and the list hold, and a crash loses nothing a resumed run does not find again. The report
 * merges the list and the batches in the order of files and rows.
 */

/** The longest message kept: one quoting a whole cell (up to 256 KB) is cut there. */
export const MAX_ERROR_MESSAGE_CHARS = 1000;
/** A checkpoint is due once the errors waiting for it hold this much text. */
export const ERROR_CHECKPOINT_CHARS = 512 * 1024;
/** The most text one error batch holds (a transactional batch carries 2 MB in all). */
const BATCH_CHARS = 256 * 1024;
/** Error batches read at a time by the report. */
const REPORT_PAGE = 4;
/** Places in `seq` for the parts of one checkpoint's errors. */
const PARTS = 1024;

export const clippedMessage = (message: string) =>
  message.length > MAX_ERROR_MESSAGE_CHARS
    ? `${message.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…`
    : message;

/** About how much of a batch an error takes. */
export const errorChars = (error: StoredUploadError) =>
  60 + error.message.length + (error.field?.length ?? 0);

/** Files in order, a file's rows in order, its own problems (no row) after its rows. */
export function errorOrder(a: StoredUploadError, b: StoredUploadError): number {
  if (a.file !== b.file) return a.file - b.file;
  return (a.row ?? Number.POSITIVE_INFINITY) - (b.row ?? Number.POSITIVE_INFINITY);
}

/**
 * Where a checkpoint's errors go in the order of a run's batches: its place (file, row) then the
 * part. A checkpoint's place is past every row before it, including a resumed run's first one.
 */
export const errorBatchSeq = (at: { file: number; row: number }, part: number) =>
  (at.file * 2 ** 31 + at.row) * PARTS + part;

/**
 * The errors found since the last checkpoint as the batches the checkpoint at `at` writes: in
 * the order of their rows, cut into parts of at most BATCH_CHARS. Their ids are their places, so
 * a checkpoint written again (its record went stale and was read again) writes the same ones.
 */
export function errorBatches(
  errors: readonly StoredUploadError[],
  upload: { id: string; run: number },
  at: { file: number; row: number },
  createdAt: string,
): Omit<UploadErrorsRecord, 'accountId'>[] {
  const sorted = [...errors].sort(errorOrder);
  const batches: Omit<UploadErrorsRecord, 'accountId'>[] = [];
  let part: StoredUploadError[] = [];
  let chars = 0;
  const close = () => {
    const seq = errorBatchSeq(at, batches.length);
    batches.push({
      id: `${upload.id}:errors:${upload.run}:${seq}`,
      kind: 'upload-errors',
      uploadId: upload.id,
      run: upload.run,
      seq,
      errors: part,
      createdAt,
    });
    part = [];
    chars = 0;
  };
  for (const error of sorted) {
    const size = errorChars(error);
    if (part.length && chars + size > BATCH_CHARS) close();
    part.push(error);
    chars += size;
  }
  if (part.length) close();
  return batches;
}

/** Two runs of errors, each in order, as one in order (the list's first on a tie). */
export async function* mergedErrors(
  listed: readonly StoredUploadError[],
  later: AsyncIterable<StoredUploadError> | Iterable<StoredUploadError>,
): AsyncGenerator<StoredUploadError> {
  const first = [...listed].sort(errorOrder);
  let next = 0;
  for await (const error of later) {
    while (next < first.length && errorOrder(first[next] as StoredUploadError, error) <= 0) {
      yield first[next] as StoredUploadError;
      next += 1;
    }
    yield error;
  }
  while (next < first.length) {
    yield first[next] as StoredUploadError;
    next += 1;
  }
}

/** A run's stored error batches in order, a few at a time, then those not stored yet. */
export async function* laterErrors(
  scope: AccountScope,
  upload: { id: string; run: number },
  waiting: readonly StoredUploadError[],
): AsyncGenerator<StoredUploadError> {
  let continuationToken: string | undefined;
  do {
    const page = await pageUploadErrors(
      scope,
      upload.id,
      upload.run,
      REPORT_PAGE,
      continuationToken,
    );
    for (const batch of page.items) yield* batch.errors;
    continuationToken = page.continuationToken;
  } while (continuationToken);
  yield* [...waiting].sort(errorOrder);
}
