import type { ContainerDefinition } from '../platform/cosmos.js';
import { isNotFound } from '../platform/cosmos-errors.js';
import {
  MAX_BATCH_OPERATIONS,
  TenantRepository,
  type AccountScope,
  type Page,
  type Stored,
} from '../platform/repo.js';
import type { LedgerEntry } from './importer.js';
import type { FileMappings, Upload, UploadCategory, UploadStatus } from './uploads.schema.js';

/**
 * One document per upload in the account's partition (beside it, its runs' error batches:
 * `kind: 'upload-errors'`); its files are blobs in UPLOADS_BLOB_CONTAINER named
 * `{accountId}/{uploadId}/{index}`. History lists newest first.
 */
export const uploadsContainer: ContainerDefinition = {
  id: 'uploads',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/uploadDate', order: 'descending' },
      { path: '/id', order: 'descending' },
    ],
  ],
};

export interface UploadRecord extends Omit<Upload, 'etag'> {
  accountId: string;
  kind: 'upload';
  /** Lower-case name, description and file names, for the history's search. */
  searchText: string;
  /** Where the worker got to, so a retried message resumes instead of starting over. */
  checkpoint: {
    file: number;
    row: number;
    imported: number;
    processed: number;
    /** The worker that wrote it (two on one upload tell their checkpoints apart by it). */
    worker?: string;
  } | null;
  /** The column mappings the user chose, by file (files left out use the detected mapping). */
  mappings?: FileMappings;
  /**
   * Each file's version (blob ETag, by file index) as `complete` checked it. The browser's write
   * link outlives the check, so what reads the file afterwards reads that version only.
   */
  fileVersions?: Record<number, string>;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** The version of a file that `complete` checked (none for a file the server stored itself). */
export const fileVersionOf = (record: Pick<UploadRecord, 'fileVersions'>, index: number) =>
  record.fileVersions?.[index];

/** Fields a record written before runs, undo and cancel existed may lack. */
type LaterFields = 'runs' | 'undone' | 'cancelRequested' | 'auctionId';

/** A record as created: the later fields default when left out. */
export type NewUploadRecord = Omit<UploadRecord, 'accountId' | LaterFields> &
  Partial<Pick<UploadRecord, LaterFields>>;

/** A stored record with the later fields filled in (an older record reads as never re-run). */
function filled<T extends NewUploadRecord>(record: T): T & Pick<UploadRecord, LaterFields> {
  return {
    ...record,
    runs: record.runs ?? [],
    undone: record.undone ?? false,
    cancelRequested: record.cancelRequested ?? false,
    auctionId: record.auctionId ?? null,
  };
}

export const UPLOADS_BLOB_CONTAINER = 'data-uploads';

/** Names start with the account id: `deleteAccountBlobs` relies on it. */
export const uploadBlobName = (accountId: string, uploadId: string, index: number) =>
  `${accountId}/${uploadId}/${index}`;
export const errorReportBlobName = (accountId: string, uploadId: string) =>
  `${accountId}/${uploadId}/errors.csv`;
/** A copy of the last run's error report, which a run of its failed rows reads. */
export const failedRowsBlobName = (accountId: string, uploadId: string) =>
  `${accountId}/${uploadId}/failed-rows.csv`;
/** Every blob of one upload, for `deleteBlobsUnder`. */
export const uploadBlobPrefix = (accountId: string, uploadId: string) =>
  `${accountId}/${uploadId}/`;

const uploads = new TenantRepository<UploadRecord>(uploadsContainer.id);

/** An error of a run as the worker keeps it beyond the record's list: its file by index. */
export interface StoredUploadError {
  file: number;
  row: number | null;
  field: string | null;
  message: string;
}

/**
 * The errors of a run beyond the MAX_LISTED_ERRORS its record lists, for the full error report:
 * a document per checkpoint (or a part of one), beside the record in its partition and written
 * in one transactional batch with the checkpoint, so a crashed run's errors after its last
 * checkpoint are neither kept nor lost (the resumed run finds them again). `seq` orders a run's
 * documents as its rows go (see `errorBatchSeq`).
 */
export interface UploadErrorsRecord {
  id: string;
  accountId: string;
  kind: 'upload-errors';
  uploadId: string;
  run: number;
  seq: number;
  errors: StoredUploadError[];
  createdAt: string;
}

/** The upload container's documents: uploads, and the error batches of their runs. */
const uploadDocuments = new TenantRepository<UploadRecord | UploadErrorsRecord>(
  uploadsContainer.id,
);

export async function findUpload(
  scope: AccountScope,
  id: string,
): Promise<Stored<UploadRecord> | undefined> {
  const found = await uploads.find(scope, id);
  return found?.kind === 'upload' ? filled(found) : undefined;
}

export async function createUpload(
  scope: AccountScope,
  record: NewUploadRecord,
): Promise<Stored<UploadRecord>> {
  return filled(await uploads.create(scope, filled(record)));
}

/** Replaces only over `etag`; a raw 412 otherwise (check with `isStale`). */
export function replaceUpload(
  scope: AccountScope,
  record: UploadRecord,
  etag: string,
): Promise<Stored<UploadRecord>> {
  return uploads.replace(scope, record, etag).then(filled);
}

/**
 * `replaceUpload` that also writes a run's error batches, all or none (a raw 412 when the record
 * changed since `etag`).
 */
export async function replaceUploadWith(
  scope: AccountScope,
  record: UploadRecord,
  etag: string,
  errorBatches: readonly Omit<UploadErrorsRecord, 'accountId'>[],
): Promise<Stored<UploadRecord>> {
  if (errorBatches.length === 0) return replaceUpload(scope, record, etag);
  const [saved] = await uploadDocuments.batch(scope, [
    { op: 'replace', document: record, etag },
    // An error batch's id is its place in the run, which always holds the same errors.
    ...errorBatches.map((document) => ({ op: 'upsert' as const, document })),
  ]);
  return filled(saved as Stored<UploadRecord>);
}

/** One page of a run's error batches, in the order of its rows. */
export function pageUploadErrors(
  scope: AccountScope,
  uploadId: string,
  run: number,
  pageSize: number,
  continuationToken?: string,
): Promise<Page<Stored<UploadErrorsRecord>>> {
  return uploadDocuments.page(scope, {
    where: "c.kind = 'upload-errors' AND c.uploadId = @uploadId AND c.run = @run",
    parameters: [
      { name: '@uploadId', value: uploadId },
      { name: '@run', value: run },
    ],
    orderBy: 'c.seq ASC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  }) as Promise<Page<Stored<UploadErrorsRecord>>>;
}

/** Removes an upload's error batches (its report is written, or it is deleted), a page at a time. */
export async function deleteUploadErrorsOf(scope: AccountScope, uploadId: string): Promise<void> {
  for (;;) {
    const page = await uploadDocuments.page(scope, {
      select: 'c.id',
      where: "c.kind = 'upload-errors' AND c.uploadId = @uploadId",
      parameters: [{ name: '@uploadId', value: uploadId }],
      pageSize: MAX_BATCH_OPERATIONS,
    });
    if (page.items.length === 0) return;
    try {
      await uploadDocuments.writeBatch(
        scope,
        page.items.map(({ id }) => ({ op: 'delete' as const, id })),
      );
    } catch (error) {
      // One went meanwhile (a delete run twice): the rest one by one.
      if (!isNotFound(error)) throw error;
      for (const { id } of page.items) {
        await uploadDocuments.delete(scope, id).catch((failure: unknown) => {
          if (!isNotFound(failure)) throw failure;
        });
      }
    }
  }
}

export function deleteUploadRecord(scope: AccountScope, id: string, etag?: string) {
  return uploads.delete(scope, id, etag);
}

export interface HistoryFilters {
  category?: UploadCategory;
  status?: UploadStatus;
  /** Lower-case already. */
  search?: string;
}

/** One page of the account's uploads, newest first. */
export async function pageUploads(
  scope: AccountScope,
  filters: HistoryFilters,
  pageSize: number,
  continuationToken?: string,
): Promise<Page<Stored<UploadRecord>>> {
  const clauses = ["c.kind = 'upload'"];
  const parameters: { name: string; value: string }[] = [];
  if (filters.category) {
    clauses.push('c.category = @category');
    parameters.push({ name: '@category', value: filters.category });
  }
  if (filters.status) {
    clauses.push('c.status = @status');
    parameters.push({ name: '@status', value: filters.status });
  }
  if (filters.search) {
    clauses.push('CONTAINS(c.searchText, @search)');
    parameters.push({ name: '@search', value: filters.search });
  }
  const page = await uploads.page(scope, {
    where: clauses.join(' AND '),
    parameters,
    orderBy: 'c.uploadDate DESC, c.id DESC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  });
  return { ...page, items: page.items.map(filled) };
}

/**
 * The ledger of what an upload's runs wrote, for undo: one document per batch of entries (an
 * importer's write batch), in the account's partition, numbered by run and by `seq` (rising in
 * the order written). An undo marks each document it has taken back, so it resumes after a crash
 * and a later undo leaves those alone.
 */
export const uploadLedgerContainer: ContainerDefinition = {
  id: 'upload-ledger',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/run', order: 'descending' },
      { path: '/seq', order: 'descending' },
    ],
  ],
};

export type UndoOutcome = 'removed' | 'restored' | 'kept' | 'gone';

export type LandedMark = string | false | null;

export interface LedgerRecord {
  id: string;
  accountId: string;
  uploadId: string;
  run: number;
  seq: number;
  entries: LedgerEntry[];
  createdAt: string;
  /**
   * What became of each entry's write, as the run learnt it (absent, or null for an entry, when
   * the run stopped before saying): when it landed, or false when it was not written.
   */
  landed?: LandedMark[];
  /** Set once an undo has taken the entries back: which undo run, and each entry's outcome. */
  undo: { run: number; at: string; outcomes: UndoOutcome[] } | null;
  /** Set as an undo begins taking the entries back (absent on documents no undo has begun). */
  undoStarted?: { run: number; at: string };
}

const ledger = new TenantRepository<LedgerRecord>(uploadLedgerContainer.id);

export function createLedgerBatch(
  scope: AccountScope,
  record: Omit<LedgerRecord, 'accountId'>,
): Promise<Stored<LedgerRecord>> {
  return ledger.create(scope, record);
}

/** One page of an upload's ledger, newest first (by run, then as written). */
export function pageLedger(
  scope: AccountScope,
  uploadId: string,
  pageSize: number,
  continuationToken?: string,
): Promise<Page<Stored<LedgerRecord>>> {
  return ledger.page(scope, {
    where: 'c.uploadId = @uploadId',
    parameters: [{ name: '@uploadId', value: uploadId }],
    orderBy: 'c.run DESC, c.seq DESC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  });
}

/** Keeps what became of a ledger document's writes (see `landed`). */
export function markLedgerLanded(
  scope: AccountScope,
  id: string,
  landed: LandedMark[],
): Promise<Stored<LedgerRecord>> {
  return ledger.patch(scope, id, [{ op: 'set', path: '/landed', value: landed }]);
}

/** Marks a ledger document taken back by an undo run. */
export function markLedgerUndone(
  scope: AccountScope,
  id: string,
  undo: NonNullable<LedgerRecord['undo']>,
): Promise<Stored<LedgerRecord>> {
  return ledger.patch(scope, id, [{ op: 'set', path: '/undo', value: undo }]);
}

/** Marks a ledger document an undo run begins taking back. */
export function markLedgerStarted(
  scope: AccountScope,
  id: string,
  started: NonNullable<LedgerRecord['undoStarted']>,
): Promise<Stored<LedgerRecord>> {
  return ledger.patch(scope, id, [{ op: 'set', path: '/undoStarted', value: started }]);
}

/** Removes an upload's ledger (the upload is deleted: nothing is left to undo), a page at a time. */
export async function deleteLedgerOf(scope: AccountScope, uploadId: string): Promise<void> {
  for (;;) {
    const page = await ledger.page(scope, {
      select: 'c.id',
      where: 'c.uploadId = @uploadId',
      parameters: [{ name: '@uploadId', value: uploadId }],
      pageSize: MAX_BATCH_OPERATIONS,
    });
    if (page.items.length === 0) return;
    try {
      await ledger.writeBatch(
        scope,
        page.items.map(({ id }) => ({ op: 'delete' as const, id })),
      );
    } catch (error) {
      // One went meanwhile (a delete run twice): the rest one by one.
      if (!isNotFound(error)) throw error;
      for (const { id } of page.items) {
        await ledger.delete(scope, id).catch((failure: unknown) => {
          if (!isNotFound(failure)) throw failure;
        });
      }
    }
  }
}
