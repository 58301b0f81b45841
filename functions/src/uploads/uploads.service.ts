import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { writeAudit } from '../platform/audit.js';
import {
  blobProperties,
  blobSignsWithAccountKey,
  blobWriteUrl,
  deleteBlobsUnder,
  ensureBlobCors,
  isChangedBlob,
  openBlobStream,
  putBlobStream,
  readBlobRange,
} from '../platform/blob.js';
import { getAuction } from '../auctions/auctions.service.js';
import { importBidders, type ImportFile } from '../bidders/bidder-import.service.js';
import type { ImportResult } from '../bidders/bidders.schema.js';
import { pendingPairsOf } from '../bidders/duplicates.service.js';
import { importedSide, recordBidderPair } from '../conflicts/conflicts.service.js';
import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import {
  AppError,
  conflict,
  notFound,
  payloadTooLarge,
  preconditionFailed,
} from '../platform/errors.js';
import { enqueue } from '../platform/queue.js';
import type { Stored } from '../platform/repo.js';
import { settings } from '../platform/settings.js';
import { fieldProblems, validationError, type FieldProblem } from '../platform/validation.js';
import {
  HEAD_BYTES,
  recogniseFile,
  recogniseHead,
  recogniseStructure,
  type RangeReader,
  type Verdict,
} from './content-check.js';
import { peek, type FormPart } from './files.js';
import type { ImporterDefinition } from './importer.js';
import { importerFor } from './importers/index.js';
import { mappingProblems } from './mapping.js';
import { newRun, withRun } from './run-record.js';
import { overwritesOf, previewOf } from './upload-preview.js';
import {
  createUpload,
  deleteLedgerOf,
  deleteUploadErrorsOf,
  deleteUploadRecord,
  errorReportBlobName,
  failedRowsBlobName,
  fileVersionOf,
  findUpload,
  pageUploads,
  replaceUpload,
  uploadBlobName,
  uploadBlobPrefix,
  UPLOADS_BLOB_CONTAINER,
  type NewUploadRecord,
  type UploadRecord,
} from './uploads.repo.js';
import {
  fileMappingsSchema,
  MAX_UPLOAD_FILES,
  MAX_UPLOAD_TOTAL_BYTES,
  PROCESS_QUEUE,
  UPLOAD_FILE_CHANGED,
  UPLOAD_FILE_CHANGING,
  UPLOAD_MESSAGES,
  undoRanToItsEnd,
  downloadPath,
  errorReportPath,
  UPLOAD_SAS_MINUTES,
  uploadFieldsSchema,
  type CompleteUpload,
  type FileFormat,
  type FileMappings,
  type HistoryQuery,
  type OverwritePreview,
  type ProcessMessage,
  type Rerun,
  type Upload,
  type UploadError,
  type UploadFields,
  type UploadFile,
  type UploadPreview,
  type UploadResults,
  type UploadSession,
  type UploadSessionInput,
  type UploadStatusView,
} from './uploads.schema.js';

/**
 * The Data Processing Center's uploads up to the worker: files arrive (through the API as a
 * streamed multipart form, or from the browser straight to Blob Storage with write-only SAS
 * URLs), are checked by content, and the upload is queued for processing with the column
 * mappings chosen. Also its status, history, downloads and deletion; the preview of its files,
 * what an update would overwrite, re-runs, undo and cancel.
 */

/** A `processing` upload untouched this long has no worker on it any more: it may be deleted. */
export const STALLED_AFTER_MS = 15 * 60 * 1000;

const notFoundUpload = () => notFound('Upload not found');

const contentTypes: Record<FileFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  pdf: 'application/pdf',
  json: 'application/json',
  xml: 'application/xml',
  text: 'text/plain',
  jpeg: 'image/jpeg',
  png: 'image/png',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  zip: 'application/zip',
  sql: 'application/sql',
  sqlite: 'application/vnd.sqlite3',
};

/** The record as the API shows it: tenant and worker bookkeeping left out, links filled in. */
export function toUpload(record: Stored<UploadRecord>): Upload {
  const received = record.files.some((file) => file.received);
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    category: record.category,
    files: record.files,
    totalBytes: record.totalBytes,
    status: record.status,
    progress: record.progress,
    uploadDate: record.uploadDate,
    completedDate: record.completedDate,
    results: {
      ...record.results,
      downloadUrl: received ? downloadPath(record.id) : null,
      errorReportUrl: record.results.errorCount > 0 ? errorReportPath(record.id) : null,
    },
    uploadedBy: record.uploadedBy,
    runs: record.runs,
    undone: record.undone,
    cancelRequested: record.cancelRequested,
    auctionId: record.auctionId,
    etag: record._etag,
  };
}

const searchTextOf = (fields: UploadFields, files: Pick<UploadFile, 'name'>[]) =>
  [fields.name, fields.description, ...files.map((file) => file.name)].join('\n').toLowerCase();

const summary = (record: UploadRecord) => ({
  name: record.name,
  category: record.category,
  status: record.status,
  files: record.files.map((file) => ({ name: file.name, size: file.size, format: file.format })),
  totalBytes: record.totalBytes,
});

const emptyResults = (): UploadResults => ({
  recordsProcessed: 0,
  recordsImported: 0,
  errors: [],
  errorCount: 0,
  downloadUrl: null,
  errorReportUrl: null,
});

function newRecord(
  ctx: RequestContext,
  fields: UploadFields,
  files: UploadFile[],
  status: 'pending' | 'uploading',
): NewUploadRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    kind: 'upload',
    ...fields,
    files,
    totalBytes: files.reduce((sum, file) => sum + file.size, 0),
    status,
    progress: 0,
    uploadDate: now,
    completedDate: null,
    results: emptyResults(),
    uploadedBy: { id: ctx.actor.userId, name: ctx.actor.name },
    runs: [],
    undone: false,
    cancelRequested: false,
    auctionId: null,
    searchText: searchTextOf(fields, files),
    checkpoint: null,
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** The form's fields checked, and whether files came with them. */
function checkFields(
  raw: Record<string, string>,
  withFiles: boolean,
): { fields?: UploadFields; problems: FieldProblem[] } {
  const parsed = uploadFieldsSchema.safeParse(raw, { reportInput: true });
  const problems: FieldProblem[] = parsed.success ? [] : fieldProblems('body', parsed.error);
  if (!withFiles) problems.push({ location: 'body', field: 'files', message: 'is required' });
  return parsed.success && problems.length === 0 ? { fields: parsed.data, problems } : { problems };
}

/** Every field named; a missing one (or no file) with the spec's message. */
const formRefusal = (problems: FieldProblem[]) =>
  problems.some((problem) => problem.message === 'is required')
    ? new AppError('validation_failed', UPLOAD_MESSAGES.missingFields, { fields: problems })
    : validationError(problems);

const refused = (problems: { field: string; reason: string }[]) =>
  validationError(
    problems.map(({ field, reason }) => ({ location: 'body' as const, field, message: reason })),
  );

const rangeOf =
  (blobName: string, etag?: string): RangeReader =>
  (offset, length) =>
    readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, offset, length, etag);

/** Streams one file of the form to its blob, checked by its head before and structure after. */
async function storeFormFile(
  record: UploadRecord,
  part: Extract<FormPart, { kind: 'file' }>,
  index: number,
): Promise<UploadFile> {
  const { head, all } = await peek(part.stream, HEAD_BYTES);
  const verdict = recogniseHead(head);
  if (verdict.ok === false) throw refused([{ field: part.field, reason: verdict.reason }]);
  const blobName = uploadBlobName(record.accountId, record.id, index);
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  all.once('error', (error) => counted.destroy(error));
  all.pipe(counted);
  const contentType =
    verdict.ok === true ? contentTypes[verdict.format] : 'application/octet-stream';
  await putBlobStream(UPLOADS_BLOB_CONTAINER, blobName, counted, contentType);
  const final: Verdict =
    verdict.ok === true
      ? verdict
      : await recogniseStructure(verdict.container, head, size, rangeOf(blobName));
  if (!final.ok) throw refused([{ field: part.field, reason: final.reason }]);
  return { index, name: part.name, size, format: final.format, received: true };
}

/** Deletes what an upload left behind; failing that, marks it so nobody takes it for good. */
async function discard(ctx: RequestContext, record: Stored<UploadRecord>): Promise<void> {
  try {
    await deleteBlobsUnder(UPLOADS_BLOB_CONTAINER, uploadBlobPrefix(record.accountId, record.id));
    await deleteUploadRecord(ctx.scope, record.id);
  } catch (error) {
    if (isNotFound(error)) return;
    await replaceUpload(
      ctx.scope,
      { ...record, status: 'error', updatedAt: new Date().toISOString() },
      record._etag,
    ).catch(() => undefined);
  }
}

async function queueForProcessing(
  record: UploadRecord,
  action: ProcessMessage['action'] = 'process',
): Promise<void> {
  const message: ProcessMessage = { accountId: record.accountId, uploadId: record.id, action };
  await enqueue(PROCESS_QUEUE, message);
}

const byOf = (ctx: RequestContext) => ({ id: ctx.actor.userId, name: ctx.actor.name });

/** The fields a mapping may name: the category importer's (none for a category only stored). */
const fieldsOf = (definition: ImporterDefinition | undefined) => definition?.fields ?? [];

/** Refuses mappings of files the upload lacks or to fields its category does not have. */
function checkMappings(
  record: Pick<UploadRecord, 'category' | 'files'>,
  mappings: FileMappings | undefined,
): void {
  if (!mappings?.length) return;
  const problems = mappingProblems(fieldsOf(importerFor(record.category)), record.files, mappings);
  if (problems.length) throw validationError(problems);
}

/** Saved mappings with those just chosen in place of the same files'. */
const mergedMappings = (saved: FileMappings | undefined, chosen: FileMappings | undefined) =>
  chosen?.length
    ? [
        ...(saved ?? []).filter((entry) => !chosen.some((given) => given.file === entry.file)),
        ...chosen,
      ].sort((a, b) => a.file - b.file)
    : saved;

/** An auction the upload's lots go into: one of the account's (400 naming the field if not). */
async function checkAuction(ctx: RequestContext, auctionId: string | undefined, field: string) {
  if (auctionId === undefined) return;
  try {
    await getAuction(ctx, auctionId);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 404) throw error;
    throw validationError([
      { location: 'body', field, message: 'is not an auction of this account' },
    ]);
  }
}

/** A form's `mappings` field (JSON text), parsed and checked against the category's fields. */
function formMappings(raw: string | undefined, category: UploadRecord['category']) {
  if (raw === undefined || raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw validationError([
      {
        location: 'body',
        field: 'mappings',
        message: 'must be JSON: [{ "file": 0, "mapping": { "column": "field" } }]',
      },
    ]);
  }
  const mappings = fileMappingsSchema.safeParse(parsed, { reportInput: true });
  if (!mappings.success) {
    throw validationError(
      fieldProblems('body', mappings.error).map((problem) => ({
        ...problem,
        field: `mappings.${problem.field}`.replace(/\.body$/, ''),
      })),
    );
  }
  // The files are not there yet: their numbers are checked once they have arrived.
  const anyFile = Array.from({ length: MAX_UPLOAD_FILES + 1 }, (_, index) => ({
    index,
    name: `file_${index}`,
  }));
  const problems = mappingProblems(fieldsOf(importerFor(category)), anyFile, mappings.data);
  if (problems.length) throw validationError(problems);
  return mappings.data;
}

/** Form fields beside the upload's own: a column mapping and the auction its lots go into. */
const extraFormFields = ['mappings', 'auctionId'];

/**
 * POST /data-upload/general: the form's fields (first), then its files, each streamed to Blob
 * Storage as it arrives. The record is `pending` while the bytes arrive; anything refused (a
 * field, a file's content, the size, a body cut off, a mapping of a file that did not come)
 * deletes what was stored and the record.
 */
export async function acceptFormUpload(
  ctx: RequestContext,
  form: AsyncIterable<FormPart>,
): Promise<{ uploadId: string; status: 'processing'; progress: number }> {
  const fields: Record<string, string> = {};
  const files: UploadFile[] = [];
  let record: Stored<UploadRecord> | undefined;
  try {
    for await (const part of form) {
      if (part.kind === 'field') {
        if (
          record &&
          (part.name in uploadFieldsSchema.shape || extraFormFields.includes(part.name))
        ) {
          throw validationError([
            { location: 'body', field: part.name, message: 'must come before the files' },
          ]);
        }
        fields[part.name] = part.value;
        continue;
      }
      if (!record) {
        const checked = checkFields(fields, true);
        if (!checked.fields) throw formRefusal(checked.problems);
        const mappings = formMappings(fields.mappings, checked.fields.category);
        const auctionId = fields.auctionId?.trim() || undefined;
        await checkAuction(ctx, auctionId, 'auctionId');
        record = await createUpload(ctx.scope, {
          ...newRecord(ctx, checked.fields, [], 'pending'),
          ...(mappings ? { mappings } : {}),
          auctionId: auctionId ?? null,
        });
      }
      files.push(await storeFormFile(record, part, files.length));
    }
    if (!record) throw formRefusal(checkFields(fields, false).problems);
    checkMappings({ category: record.category, files }, record.mappings);
    const next: UploadRecord = {
      ...withRun(record, newRun(record, 'import', 'new', byOf(ctx))),
      files,
      totalBytes: files.reduce((sum, file) => sum + file.size, 0),
      status: 'processing',
      searchText: searchTextOf(record, files),
      revision: record.revision + 1,
      updatedAt: new Date().toISOString(),
    };
    record = await replaceUpload(ctx.scope, next, record._etag);
    await queueForProcessing(record);
    await writeAudit(ctx, {
      action: 'upload.create',
      entity: { type: 'upload', id: record.id },
      after: summary(record),
    });
    return { uploadId: record.id, status: 'processing', progress: 0 };
  } catch (error) {
    if (record) await discard(ctx, record);
    if (error instanceof AppError && error.code === 'payload_too_large') {
      throw payloadTooLarge(UPLOAD_MESSAGES.tooLarge);
    }
    throw error;
  }
}

let corsReady: Promise<void> | undefined;

/**
 * The browser puts blocks straight to Blob Storage from the web's origins. With an account key
 * (locally) the service's CORS rule is set here, once per process; in Azure the storage account
 * carries it from its deployment (the managed identity may not change service properties).
 */
function browserCors(): Promise<void> {
  if (!blobSignsWithAccountKey()) return Promise.resolve();
  corsReady ??= ensureBlobCors(settings().WEB_ORIGINS);
  corsReady.catch(() => {
    corsReady = undefined;
  });
  return corsReady;
}

/** POST /data-upload/sessions: the record (`uploading`) and one write-only URL per file. */
export async function createUploadSession(
  ctx: RequestContext,
  input: UploadSessionInput,
): Promise<UploadSession> {
  const total = input.files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_UPLOAD_TOTAL_BYTES) {
    throw validationError([
      { location: 'body', field: 'files', message: UPLOAD_MESSAGES.tooLarge },
    ]);
  }
  await browserCors();
  const { files: declared, ...fields } = input;
  const files = declared.map((file, index): UploadFile => ({
    index,
    name: file.name,
    size: file.size,
    format: null,
    received: false,
  }));
  const record = await createUpload(ctx.scope, newRecord(ctx, fields, files, 'uploading'));
  const expiresOn = new Date(Date.now() + UPLOAD_SAS_MINUTES * 60 * 1000);
  const targets = await Promise.all(
    files.map(async (file) => ({
      index: file.index,
      url: await blobWriteUrl(
        UPLOADS_BLOB_CONTAINER,
        uploadBlobName(record.accountId, record.id, file.index),
        expiresOn,
      ),
      expiresAt: expiresOn.toISOString(),
    })),
  );
  await writeAudit(ctx, {
    action: 'upload.create',
    entity: { type: 'upload', id: record.id },
    after: summary(record),
  });
  return { upload: toUpload(record), targets };
}

async function uploadOf(ctx: RequestContext, uploadId: string) {
  const found = await findUpload(ctx.scope, uploadId);
  if (!found) throw notFoundUpload();
  return found;
}

const fileField = (file: UploadFile) => `file_${file.index}`;

/** Ends a browser upload that cannot go on: its blobs deleted, the record in error, saying why. */
async function failSession(
  ctx: RequestContext,
  record: Stored<UploadRecord>,
  errors: UploadError[],
): Promise<void> {
  await deleteBlobsUnder(UPLOADS_BLOB_CONTAINER, uploadBlobPrefix(record.accountId, record.id));
  const now = new Date().toISOString();
  const failed = await replaceUpload(
    ctx.scope,
    {
      ...record,
      files: record.files.map((file) => ({ ...file, received: false })),
      status: 'error',
      completedDate: now,
      results: { ...record.results, errors, errorCount: errors.length },
      revision: record.revision + 1,
      updatedAt: now,
    },
    record._etag,
  );
  await writeAudit(ctx, {
    action: 'upload.refuse',
    entity: { type: 'upload', id: record.id },
    before: summary(record),
    after: { ...summary(failed), errors },
  });
}

/**
 * POST /data-upload/{id}/complete: every file is there in full (409 naming the first missing or
 * short one; the upload stays `uploading`, so the browser can send it again), within the total,
 * and of an accepted format; then `processing` and queued. Repeating it answers the same upload.
 */
export async function completeUpload(
  ctx: RequestContext,
  uploadId: string,
  ifMatch: string | undefined,
  input: CompleteUpload = {},
): Promise<Upload> {
  const record = await uploadOf(ctx, uploadId);
  if (record.status !== 'uploading') {
    if (record.status === 'pending') {
      throw conflict('This upload is still arriving through the upload form');
    }
    return toUpload(record);
  }
  if (ifMatch && ifMatch !== record._etag) throw preconditionFailed();
  checkMappings(record, input.mappings);
  await checkAuction(ctx, input.auctionId, 'auctionId');
  const sizes = await Promise.all(
    record.files.map((file) =>
      blobProperties(
        UPLOADS_BLOB_CONTAINER,
        uploadBlobName(record.accountId, record.id, file.index),
      ),
    ),
  );
  const missing = record.files.flatMap((file, index) => {
    const stored = sizes[index];
    if (!stored) return [{ field: fileField(file), message: `${file.name} has not arrived` }];
    if (stored.size < file.size) {
      return [
        {
          field: fileField(file),
          message: `${file.name} is incomplete (${stored.size} of ${file.size} bytes)`,
        },
      ];
    }
    return [];
  });
  const [first] = missing;
  if (first) {
    throw conflict(`${first.field}: ${first.message}`, {
      fields: missing.map((problem) => ({ location: 'body', ...problem })),
    });
  }
  const real = sizes.map((stored) => stored?.size ?? 0);
  if (real.reduce((sum, size) => sum + size, 0) > MAX_UPLOAD_TOTAL_BYTES) {
    await failSession(ctx, record, [
      { file: null, row: null, field: null, message: UPLOAD_MESSAGES.tooLarge },
    ]);
    throw payloadTooLarge(UPLOAD_MESSAGES.tooLarge);
  }
  // Each file is checked, and later read, as the version whose size was just taken.
  const versions: Record<number, string> = {};
  record.files.forEach((file, index) => {
    const etag = sizes[index]?.etag;
    if (etag) versions[file.index] = etag;
  });
  let verdicts: Awaited<ReturnType<typeof recogniseFile>>[];
  try {
    verdicts = await Promise.all(
      record.files.map(async (file, index) => {
        const blobName = uploadBlobName(record.accountId, record.id, file.index);
        const size = real[index] ?? 0;
        const etag = versions[file.index];
        const head = await readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, 0, HEAD_BYTES, etag);
        return recogniseFile(head, size, rangeOf(blobName, etag));
      }),
    );
  } catch (error) {
    if (isChangedBlob(error)) throw conflict(UPLOAD_FILE_CHANGING);
    throw error;
  }
  const refusals = record.files.flatMap((file, index) => {
    const verdict = verdicts[index];
    return verdict && !verdict.ok ? [{ file, reason: verdict.reason }] : [];
  });
  if (refusals.length > 0) {
    await failSession(
      ctx,
      record,
      refusals.map(({ file, reason }) => ({
        file: file.name,
        row: null,
        field: null,
        message: reason,
      })),
    );
    throw refused(refusals.map(({ file, reason }) => ({ field: fileField(file), reason })));
  }
  const files = record.files.map((file, index): UploadFile => ({
    ...file,
    size: real[index] ?? file.size,
    format: verdicts[index]?.ok ? verdicts[index].format : null,
    received: true,
  }));
  let queued: Stored<UploadRecord>;
  try {
    const mappings = mergedMappings(record.mappings, input.mappings);
    queued = await replaceUpload(
      ctx.scope,
      {
        ...withRun(record, newRun(record, 'import', 'new', byOf(ctx))),
        files,
        totalBytes: files.reduce((sum, file) => sum + file.size, 0),
        status: 'processing',
        progress: 0,
        fileVersions: versions,
        ...(mappings ? { mappings } : {}),
        auctionId: input.auctionId ?? record.auctionId,
        revision: record.revision + 1,
        updatedAt: new Date().toISOString(),
      },
      record._etag,
    );
  } catch (error) {
    if (!isStale(error)) throw error;
    // Another complete got there first: its answer is this one's.
    const now = await uploadOf(ctx, uploadId);
    if (now.status === 'uploading') throw preconditionFailed();
    return toUpload(now);
  }
  try {
    await queueForProcessing(queued);
  } catch (error) {
    // Not queued, so not processing: back to `uploading`, and completing again retries.
    await replaceUpload(
      ctx.scope,
      { ...queued, status: 'uploading', runs: record.runs },
      queued._etag,
    ).catch(() => undefined);
    throw error;
  }
  await writeAudit(ctx, {
    action: 'upload.complete',
    entity: { type: 'upload', id: queued.id },
    before: summary(record),
    after: summary(queued),
  });
  return toUpload(queued);
}

export async function uploadStatus(
  ctx: RequestContext,
  uploadId: string,
): Promise<UploadStatusView> {
  const upload = toUpload(await uploadOf(ctx, uploadId));
  return {
    uploadId: upload.id,
    status: upload.status,
    progress: upload.progress,
    results: upload.results,
  };
}

/** GET /data-upload/{id}: the upload as the history lists it. */
export async function getUpload(ctx: RequestContext, uploadId: string): Promise<Upload> {
  return toUpload(await uploadOf(ctx, uploadId));
}

export async function uploadHistory(
  ctx: RequestContext,
  query: HistoryQuery,
): Promise<{ items: Upload[]; continuationToken: string | null }> {
  const page = await pageUploads(
    ctx.scope,
    {
      ...(query.category ? { category: query.category } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.search ? { search: query.search.toLowerCase() } : {}),
    },
    query.pageSize,
    query.continuationToken,
  );
  return { items: page.items.map(toUpload), continuationToken: page.continuationToken ?? null };
}

export interface UploadDownload {
  data: Readable;
  contentType: string;
  fileName: string;
  size: number;
}

/** GET /data-upload/download/{id}: one of its original files, or its error report. */
export async function uploadDownload(
  ctx: RequestContext,
  uploadId: string,
  what: { file: number; report?: 'errors' | undefined },
): Promise<UploadDownload> {
  const record = await uploadOf(ctx, uploadId);
  if (what.report === 'errors') {
    const blobName = errorReportBlobName(record.accountId, record.id);
    const stored = await blobProperties(UPLOADS_BLOB_CONTAINER, blobName);
    const data = stored && (await openBlobStream(UPLOADS_BLOB_CONTAINER, blobName));
    if (!stored || !data) throw notFound('This upload has no error report');
    return {
      data,
      contentType: 'text/csv',
      fileName: `${record.name}-errors.csv`,
      size: stored.size,
    };
  }
  const file = record.files.find((candidate) => candidate.index === what.file);
  if (!file?.received) throw notFound('File not found');
  const blobName = uploadBlobName(record.accountId, record.id, file.index);
  const stored = await blobProperties(UPLOADS_BLOB_CONTAINER, blobName);
  const data =
    stored &&
    (await openBlobStream(UPLOADS_BLOB_CONTAINER, blobName, {
      etag: fileVersionOf(record, file.index),
    }).catch((error: unknown) => {
      if (isChangedBlob(error)) throw conflict(`${file.name} ${UPLOAD_FILE_CHANGED}`);
      throw error;
    }));
  if (!stored || !data) throw notFound('File not found');
  return {
    data,
    contentType: file.format ? contentTypes[file.format] : 'application/octet-stream',
    fileName: file.name,
    size: stored.size,
  };
}

/**
 * DELETE /data-upload/{id}: its blobs and its record; what it imported stays. Refused (409) while
 * a worker may be on it: `processing`, or a form still arriving (`pending`), touched within
 * STALLED_AFTER_MS. Past that nobody is, and it can go.
 */
export async function deleteUpload(
  ctx: RequestContext,
  uploadId: string,
): Promise<{ deleted: true; recordsKept: number }> {
  const record = await uploadOf(ctx, uploadId);
  const busy =
    (record.status === 'processing' || record.status === 'pending') &&
    Date.now() - Date.parse(record.updatedAt) < STALLED_AFTER_MS;
  if (busy) {
    throw conflict(
      record.status === 'processing'
        ? 'This upload is being processed. Delete it when it has finished.'
        : 'This upload is still arriving. Delete it when it has finished.',
    );
  }
  // The record goes first, over the version read: a re-run started meanwhile wins, and keeps
  // its files and ledger. Files left by a failure after this are under the upload's prefix.
  try {
    await deleteUploadRecord(ctx.scope, record.id, record._etag);
  } catch (error) {
    if (isNotFound(error)) throw notFoundUpload();
    if (isStale(error)) throw conflict('This upload changed while it was deleted. Try again.');
    throw error;
  }
  await deleteBlobsUnder(UPLOADS_BLOB_CONTAINER, uploadBlobPrefix(record.accountId, record.id));
  await deleteLedgerOf(ctx.scope, record.id);
  await deleteUploadErrorsOf(ctx.scope, record.id);
  await writeAudit(ctx, {
    action: 'upload.delete',
    entity: { type: 'upload', id: record.id },
    before: summary(record),
  });
  return { deleted: true, recordsKept: recordsKeptOf(record) };
}

/**
 * The records an upload's imports left in the account: those its runs since the last undo
 * created or changed (what an undo kept, after one), or what the last run counted.
 */
function recordsKeptOf(record: UploadRecord): number {
  if (!importerFor(record.category) || record.runs.length === 0) {
    return record.results.recordsImported;
  }
  const lastUndo = record.runs.findLastIndex(undoRanToItsEnd);
  const since = record.runs.slice(lastUndo + 1).filter((run) => run.kind === 'import');
  const kept = lastUndo >= 0 ? (record.runs[lastUndo]?.kept ?? 0) : 0;
  return kept + since.reduce((sum, run) => sum + run.created + run.updated, 0);
}

/** GET /data-upload/{id}/preview: each file's first rows and the mapping they would be read with. */
export async function previewUpload(ctx: RequestContext, uploadId: string): Promise<UploadPreview> {
  const record = await uploadOf(ctx, uploadId);
  return previewOf(record, importerFor(record.category));
}

const storedOnly = () =>
  conflict('Files of this category are stored, not imported: there is nothing to run or undo');

/** Refuses a change to an upload whose files are arriving or whose run is under way. */
function refuseBusy(record: UploadRecord) {
  if (record.status === 'processing') {
    throw conflict('This upload is being processed. Try again when it has finished.');
  }
  if (record.status === 'uploading' || record.status === 'pending') {
    throw conflict('This upload is still arriving. Try again when it has been processed.');
  }
}

/** GET /data-upload/{id}/overwrites: what a run in `update` mode would overwrite. */
export async function uploadOverwrites(
  ctx: RequestContext,
  uploadId: string,
): Promise<OverwritePreview> {
  const record = await uploadOf(ctx, uploadId);
  const definition = importerFor(record.category);
  if (!definition) throw storedOnly();
  if (!record.files.some((file) => file.received)) {
    throw conflict("This upload's files have not arrived yet");
  }
  return overwritesOf(ctx, record, definition);
}

/** Saves a change over the ETag the caller read (412 when someone changed it meanwhile). */
async function replaceOver(ctx: RequestContext, next: UploadRecord, etag: string) {
  try {
    return await replaceUpload(ctx.scope, next, etag);
  } catch (error) {
    if (isStale(error)) throw preconditionFailed();
    if (isNotFound(error)) throw notFoundUpload();
    throw error;
  }
}

/** Queues a run just saved; not queued, the upload goes back as it was (and may be asked again). */
async function queueRun(
  ctx: RequestContext,
  saved: Stored<UploadRecord>,
  before: Stored<UploadRecord>,
  action: ProcessMessage['action'],
) {
  try {
    await queueForProcessing(saved, action);
  } catch (error) {
    const { _etag: _previous, _ts: _time, ...previous } = before;
    await replaceUpload(ctx.scope, previous, saved._etag).catch(() => undefined);
    throw error;
  }
}

/** Copies the last run's error report for a run of its failed rows to read (the run rewrites it). */
async function keepFailedRows(record: UploadRecord) {
  const report = await openBlobStream(
    UPLOADS_BLOB_CONTAINER,
    errorReportBlobName(record.accountId, record.id),
  );
  if (!report || record.results.errorCount === 0) {
    throw validationError([
      { location: 'body', field: 'mode', message: 'the last run has no failed rows to run again' },
    ]);
  }
  await putBlobStream(
    UPLOADS_BLOB_CONTAINER,
    failedRowsBlobName(record.accountId, record.id),
    report,
    'text/csv',
  );
}

/**
 * POST /data-upload/{id}/rerun: a finished upload processed again in a mode (new rows, failed
 * rows, or update all), with mappings changed if sent. Refused (409) while it is processing or
 * arriving; over If-Match (412 when stale).
 */
export async function rerunUpload(
  ctx: RequestContext,
  uploadId: string,
  ifMatch: string | undefined,
  input: Rerun,
): Promise<Upload> {
  const record = await uploadOf(ctx, uploadId);
  // The precondition first: of writers holding one version, the losers hear it changed.
  if (ifMatch !== undefined && ifMatch !== record._etag) throw preconditionFailed();
  refuseBusy(record);
  if (!importerFor(record.category)) throw storedOnly();
  if (!record.files.some((file) => file.received)) {
    throw conflict('This upload has no files left to process');
  }
  checkMappings(record, input.mappings);
  if (input.mode === 'failed') await keepFailedRows(record);
  const run = newRun(record, 'import', input.mode, byOf(ctx));
  const mappings = mergedMappings(record.mappings, input.mappings);
  const saved = await replaceOver(
    ctx,
    {
      ...withRun(record, run),
      status: 'processing',
      progress: 0,
      completedDate: null,
      results: emptyResults(),
      checkpoint: null,
      cancelRequested: false,
      ...(mappings ? { mappings } : {}),
      revision: record.revision + 1,
      updatedAt: new Date().toISOString(),
    },
    record._etag,
  );
  await queueRun(ctx, saved, record, 'process');
  await writeAudit(ctx, {
    action: 'upload.rerun',
    entity: { type: 'upload', id: record.id },
    before: summary(record),
    after: { ...summary(saved), run: run.number, mode: run.mode, mappings: input.mappings ?? null },
  });
  return toUpload(saved);
}

/**
 * POST /data-upload/{id}/undo: queues the undo of every run of the upload (records created
 * removed, records changed put back, records changed since kept). Refused while it is busy, for
 * a category only stored, and when it is undone already with no run since.
 */
export async function requestUndo(
  ctx: RequestContext,
  uploadId: string,
  ifMatch: string | undefined,
): Promise<{ upload: Upload }> {
  const record = await uploadOf(ctx, uploadId);
  // The precondition first: of writers holding one version, the losers hear it changed.
  if (ifMatch !== undefined && ifMatch !== record._etag) throw preconditionFailed();
  refuseBusy(record);
  if (!importerFor(record.category)) throw storedOnly();
  if (record.undone) throw conflict('This upload has been undone already');
  if (!record.runs.some((run) => run.kind === 'import')) {
    throw conflict('This upload has imported nothing that can be undone');
  }
  const run = newRun(record, 'undo', null, byOf(ctx));
  const saved = await replaceOver(
    ctx,
    {
      ...withRun(record, run),
      status: 'processing',
      progress: 0,
      completedDate: null,
      checkpoint: null,
      cancelRequested: false,
      revision: record.revision + 1,
      updatedAt: new Date().toISOString(),
    },
    record._etag,
  );
  await queueRun(ctx, saved, record, 'undo');
  await writeAudit(ctx, {
    action: 'upload.undo-request',
    entity: { type: 'upload', id: record.id },
    before: summary(record),
    after: { ...summary(saved), run: run.number },
  });
  return { upload: toUpload(saved) };
}

/**
 * POST /data-upload/{id}/cancel: a browser upload still arriving is removed with its blobs (as a
 * failed upload is), answering `error`; a run under way is asked to stop at its next checkpoint
 * (what it wrote stays; Undo removes it). A command, not an edit: asking twice is asking once, so
 * it takes no If-Match. The removal is made over the version read, so an upload completed
 * meanwhile is not removed (409).
 */
export async function cancelUpload(
  ctx: RequestContext,
  uploadId: string,
): Promise<{ uploadId: string; status: Upload['status']; etag: string | null }> {
  const record = await uploadOf(ctx, uploadId);
  if (record.status === 'uploading') {
    // The record first, over its version: a `complete` that won keeps its files.
    try {
      await deleteUploadRecord(ctx.scope, record.id, record._etag);
    } catch (error) {
      if (isStale(error)) throw conflict('This upload has just been completed. Refresh to see it.');
      if (isNotFound(error)) throw notFoundUpload();
      throw error;
    }
    await deleteBlobsUnder(UPLOADS_BLOB_CONTAINER, uploadBlobPrefix(record.accountId, record.id));
    await writeAudit(ctx, {
      action: 'upload.cancel',
      entity: { type: 'upload', id: record.id },
      before: summary(record),
    });
    return { uploadId: record.id, status: 'error', etag: null };
  }
  if (record.status !== 'processing') {
    throw conflict('Only an upload still uploading or being processed can be cancelled');
  }
  if (record.cancelRequested) {
    return { uploadId: record.id, status: record.status, etag: record._etag };
  }
  for (let current = record, attempt = 0; ; attempt += 1) {
    try {
      const saved = await replaceUpload(
        ctx.scope,
        {
          ...current,
          cancelRequested: true,
          revision: current.revision + 1,
          updatedAt: new Date().toISOString(),
        },
        current._etag,
      );
      await writeAudit(ctx, {
        action: 'upload.cancel-request',
        entity: { type: 'upload', id: record.id },
        before: summary(current),
        after: { ...summary(saved), cancelRequested: true },
      });
      return { uploadId: saved.id, status: saved.status, etag: saved._etag };
    } catch (error) {
      if (!isStale(error) || attempt >= 4) throw error;
    }
    const fresh = await uploadOf(ctx, uploadId);
    // Finished meanwhile: there is nothing left to stop.
    if (fresh.status !== 'processing') {
      throw conflict('This upload finished before it could be cancelled');
    }
    current = fresh;
  }
}

/** What the conflicts of POST /data-upload/bidders/import go by (they belong to no upload). */
const IMPORT_ROUTE_NAME = 'Bidder import';

/**
 * POST /data-upload/bidders/import: the bidders of files imported within the request (small
 * files; the Data Processing Center takes the rest), each likely duplicate it leaves for review
 * kept as a conflict under Conflict Resolution, as an upload's are.
 */
export async function importBiddersNow(
  ctx: RequestContext,
  files: AsyncIterable<ImportFile>,
): Promise<ImportResult> {
  const { result, writtenIds } = await importBidders(ctx, files);
  const written = new Set(writtenIds);
  for (const pair of await pendingPairsOf(ctx, writtenIds)) {
    await recordBidderPair(
      ctx,
      pair,
      importedSide(pair, (id) => written.has(id)),
      {
        key: `import:${ctx.correlationId}:${pair.id}`,
        source: { kind: 'import', importId: ctx.correlationId },
        uploadName: IMPORT_ROUTE_NAME,
      },
    );
  }
  return result;
}
