import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { writeAudit } from '../platform/audit.js';
import {
  blobProperties,
  blobSignsWithAccountKey,
  blobWriteUrl,
  deleteBlobsUnder,
  ensureBlobCors,
  openBlobStream,
  putBlobStream,
  readBlobRange,
} from '../platform/blob.js';
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
import {
  createUpload,
  deleteUploadRecord,
  errorReportBlobName,
  findUpload,
  pageUploads,
  replaceUpload,
  uploadBlobName,
  uploadBlobPrefix,
  UPLOADS_BLOB_CONTAINER,
  type UploadRecord,
} from './uploads.repo.js';
import {
  MAX_UPLOAD_TOTAL_BYTES,
  PROCESS_QUEUE,
  UPLOAD_MESSAGES,
  downloadPath,
  errorReportPath,
  UPLOAD_SAS_MINUTES,
  uploadFieldsSchema,
  type FileFormat,
  type HistoryQuery,
  type ProcessMessage,
  type Upload,
  type UploadError,
  type UploadFields,
  type UploadFile,
  type UploadSession,
  type UploadSessionInput,
  type UploadStatusView,
} from './uploads.schema.js';

/**
 * The Data Processing Center's uploads up to the worker: files arrive (through the API as a
 * streamed multipart form, or from the browser straight to Blob Storage with write-only SAS
 * URLs), are checked by content, and the upload is queued for processing. Also its status,
 * history, downloads and deletion.
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

function newRecord(
  ctx: RequestContext,
  fields: UploadFields,
  files: UploadFile[],
  status: 'pending' | 'uploading',
): Omit<UploadRecord, 'accountId'> {
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
    results: {
      recordsProcessed: 0,
      recordsImported: 0,
      errors: [],
      errorCount: 0,
      downloadUrl: null,
      errorReportUrl: null,
    },
    uploadedBy: { id: ctx.actor.userId, name: ctx.actor.name },
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
  (blobName: string): RangeReader =>
  (offset, length) =>
    readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, offset, length);

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

async function queueForProcessing(record: UploadRecord): Promise<void> {
  const message: ProcessMessage = { accountId: record.accountId, uploadId: record.id };
  await enqueue(PROCESS_QUEUE, message);
}

/**
 * POST /data-upload/general: the form's fields (first), then its files, each streamed to Blob
 * Storage as it arrives. The record is `pending` while the bytes arrive; anything refused (a
 * field, a file's content, the size, a body cut off) deletes what was stored and the record.
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
        if (record && part.name in uploadFieldsSchema.shape) {
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
        record = await createUpload(ctx.scope, newRecord(ctx, checked.fields, [], 'pending'));
      }
      files.push(await storeFormFile(record, part, files.length));
    }
    if (!record) throw formRefusal(checkFields(fields, false).problems);
    const next: UploadRecord = {
      ...record,
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
): Promise<Upload> {
  const record = await uploadOf(ctx, uploadId);
  if (record.status !== 'uploading') {
    if (record.status === 'pending') {
      throw conflict('This upload is still arriving through the upload form');
    }
    return toUpload(record);
  }
  if (ifMatch && ifMatch !== record._etag) throw preconditionFailed();
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
  const verdicts = await Promise.all(
    record.files.map(async (file, index) => {
      const blobName = uploadBlobName(record.accountId, record.id, file.index);
      const size = real[index] ?? 0;
      const head = await readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, 0, HEAD_BYTES);
      return recogniseFile(head, size, rangeOf(blobName));
    }),
  );
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
    queued = await replaceUpload(
      ctx.scope,
      {
        ...record,
        files,
        totalBytes: files.reduce((sum, file) => sum + file.size, 0),
        status: 'processing',
        progress: 0,
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
    await replaceUpload(ctx.scope, { ...queued, status: 'uploading' }, queued._etag).catch(
      () => undefined,
    );
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
  const data = stored && (await openBlobStream(UPLOADS_BLOB_CONTAINER, blobName));
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
  await deleteBlobsUnder(UPLOADS_BLOB_CONTAINER, uploadBlobPrefix(record.accountId, record.id));
  try {
    await deleteUploadRecord(ctx.scope, record.id, record._etag);
  } catch (error) {
    if (isNotFound(error)) throw notFoundUpload();
    if (isStale(error)) throw conflict('This upload changed while it was deleted. Try again.');
    throw error;
  }
  await writeAudit(ctx, {
    action: 'upload.delete',
    entity: { type: 'upload', id: record.id },
    before: summary(record),
  });
  return { deleted: true, recordsKept: record.results.recordsImported };
}
