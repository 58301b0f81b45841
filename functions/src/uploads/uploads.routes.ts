import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ReadableStream as WebReadableStream, type ReadableStream } from 'node:stream/web';
import { z } from 'zod';
import type { FunctionTable } from '../platform/functions.js';
import { AppError, payloadTooLarge } from '../platform/errors.js';
import { httpRoute } from '../platform/http.js';
import { validationError } from '../platform/validation.js';
import { MAX_IMPORT_BYTES, type ImportFile } from '../bidders/bidder-import.service.js';
import { importResultSchema } from '../bidders/bidders.schema.js';
import { attachment } from '../payments/exports/report-writer.js';
import { readForm, type FormPart } from './files.js';
import { uploadAbandonedFunction, uploadWorkerFunction } from './upload-worker.js';
import {
  acceptFormUpload,
  cancelUpload,
  completeUpload,
  importBiddersNow,
  createUploadSession,
  deleteUpload,
  previewUpload,
  requestUndo,
  rerunUpload,
  uploadDownload,
  getUpload,
  uploadHistory,
  uploadOverwrites,
  uploadStatus,
} from './uploads.service.js';
import {
  cancelResultSchema,
  completeUploadSchema,
  downloadQuerySchema,
  historyPageSchema,
  historyQuerySchema,
  MAX_UPLOAD_FILES,
  MAX_UPLOAD_TOTAL_BYTES,
  overwritePreviewSchema,
  rerunSchema,
  undoResultSchema,
  UPLOAD_MESSAGES,
  uploadAcceptedSchema,
  uploadDeletedSchema,
  uploadIdParams,
  uploadPreviewSchema,
  uploadSchema,
  uploadSessionInputSchema,
  uploadSessionSchema,
  uploadStatusSchema,
} from './uploads.schema.js';

/** Room for the multipart boundaries and the small fields beside the files. */
const FORM_OVERHEAD = 256 * 1024;

const importTypes = ['bidders'] as const;
const mappingSchema = z.record(z.string().max(200), z.string().max(100));

function mappingOf(raw: string): Record<string, string> {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw validationError([
      {
        location: 'body',
        field: 'csvMapping',
        message: 'must be JSON: { "column header": "field" }',
      },
    ]);
  }
  const mapping = mappingSchema.safeParse(parsed);
  if (!mapping.success) {
    throw validationError([
      { location: 'body', field: 'csvMapping', message: 'must map column headers to field names' },
    ]);
  }
  return mapping.data;
}

/**
 * The form's files as they arrive, each with the column mapping sent before it. The fields come
 * first (browsers send a form in the order it was filled), so a mapping sent after a file is
 * refused rather than quietly not applied to it. When the import stops early, the rest of the
 * form is still read (and dropped) to its end: an upload over the limit or cut off is refused as
 * that, whatever else was wrong with it, as when the whole form was read first.
 */
async function* importFiles(
  form: AsyncGenerator<FormPart>,
  transport: { failure?: AppError },
): AsyncGenerator<ImportFile> {
  let mapping: Record<string, string> = {};
  let current: Readable | undefined;
  try {
    for (;;) {
      const next = await form.next();
      if (next.done) return;
      const part = next.value;
      if (part.kind === 'file') {
        current = part.stream;
        yield { name: part.name, stream: part.stream, mapping };
      } else if (part.name === 'importType') {
        if (!(importTypes as readonly string[]).includes(part.value)) {
          throw validationError([
            {
              location: 'body',
              field: 'importType',
              message: `must be one of: ${importTypes.join(', ')}`,
            },
          ]);
        }
      } else if (part.name === 'csvMapping') {
        if (current) {
          throw validationError([
            { location: 'body', field: 'csvMapping', message: 'must come before the files' },
          ]);
        }
        mapping = mappingOf(part.value);
      }
    }
  } finally {
    try {
      if (current) await drain(current);
      for (;;) {
        const next = await form.next();
        if (next.done) break;
        if (next.value.kind === 'file') await drain(next.value.stream);
      }
    } catch (error) {
      if (error instanceof AppError) transport.failure = error;
    } finally {
      await form.return(undefined);
    }
  }
}

const drain = async (stream: Readable) => {
  stream.resume();
  await finished(stream);
};

/** The request body as it arrives, counted, and whether it was cut off part way. */
function countedBody(body: ReadableStream<Uint8Array> | null) {
  const seen = { bytes: 0, cut: false };
  if (!body) return { seen, stream: Readable.from([]) };
  const reader = body.getReader();
  const counted = new WebReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          controller.close();
          return;
        }
        seen.bytes += next.value.byteLength;
        controller.enqueue(next.value);
      } catch {
        // Ended rather than failed: the form parser then fails the file it was in (a failed
        // body would leave that file's reader waiting for bytes that never come).
        seen.cut = true;
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { seen, stream: Readable.fromWeb(counted) };
}

export const uploadFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'data-upload-bidders-import',
      route: 'data-upload/bidders/import',
      methods: ['POST'],
      permission: 'data:import',
      response: importResultSchema,
      handler: async ({ ctx, request }) => {
        const declared = Number(request.headers.get('content-length') ?? 0);
        if (declared > MAX_IMPORT_BYTES + FORM_OVERHEAD)
          throw payloadTooLarge('Files must be 10 MB or smaller');
        // Read as it arrives: the upload is never held whole.
        const body = request.body
          ? Readable.fromWeb(request.body as ReadableStream<Uint8Array>)
          : Readable.from([]);
        const form = readForm(body, request.headers.get('content-type') ?? '', {
          maxBytes: MAX_IMPORT_BYTES,
          files: 10,
          fields: 20,
        });
        const transport: { failure?: AppError } = {};
        try {
          return { json: await importBiddersNow(ctx, importFiles(form, transport)) };
        } catch (error) {
          throw transport.failure ?? error;
        }
      },
    }),
    httpRoute({
      name: 'data-upload-general',
      route: 'data-upload/general',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Uploads files (multipart: name, description, category, optional mappings (JSON) and auctionId, then file_0..n; 100 MB in all), streamed to storage and queued for processing',
      response: uploadAcceptedSchema,
      maxBodyBytes: MAX_UPLOAD_TOTAL_BYTES + FORM_OVERHEAD,
      handler: async ({ ctx, request }) => {
        const declared = Number(request.headers.get('content-length') ?? 0);
        if (declared > MAX_UPLOAD_TOTAL_BYTES + FORM_OVERHEAD) {
          throw payloadTooLarge(UPLOAD_MESSAGES.tooLarge);
        }
        const { seen, stream } = countedBody(request.body as ReadableStream<Uint8Array> | null);
        const form = readForm(stream, request.headers.get('content-type') ?? '', {
          maxBytes: MAX_UPLOAD_TOTAL_BYTES,
          files: MAX_UPLOAD_FILES,
          fields: 20,
        });
        try {
          return { status: 201, json: await acceptFormUpload(ctx, form) };
        } catch (error) {
          // The host cuts a request off at 100 MB (as Azure refuses a larger one): a body cut
          // there was too large, not malformed.
          if (seen.cut && seen.bytes > MAX_UPLOAD_TOTAL_BYTES - FORM_OVERHEAD) {
            throw payloadTooLarge(UPLOAD_MESSAGES.tooLarge);
          }
          throw error;
        }
      },
    }),
    httpRoute({
      name: 'data-upload-sessions',
      route: 'data-upload/sessions',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Starts a browser upload: the record (uploading) and one write-only SAS URL per file; put the blocks, then complete',
      body: uploadSessionInputSchema,
      response: uploadSessionSchema,
      handler: async ({ ctx, body }) => ({
        status: 201,
        json: await createUploadSession(ctx, body),
      }),
    }),
    httpRoute({
      name: 'data-upload-complete',
      route: 'data-upload/{uploadId}/complete',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        "Checks a browser upload's files arrived whole and are accepted formats, then queues it with the chosen column mappings (409 naming a missing file)",
      params: uploadIdParams,
      body: completeUploadSchema.optional(),
      response: uploadSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const upload = await completeUpload(ctx, params.uploadId, ifMatch, body ?? {});
        return { json: upload, etag: upload.etag };
      },
    }),
    httpRoute({
      name: 'data-upload-preview',
      route: 'data-upload/{uploadId}/preview',
      methods: ['GET'],
      permission: 'data:import',
      summary:
        "Each file's first rows (read from its first bytes), its columns and the mapping they would be read with",
      params: uploadIdParams,
      response: uploadPreviewSchema,
      handler: async ({ ctx, params }) => ({ json: await previewUpload(ctx, params.uploadId) }),
    }),
    httpRoute({
      name: 'data-upload-overwrites',
      route: 'data-upload/{uploadId}/overwrites',
      methods: ['GET'],
      permission: 'data:import',
      summary: 'What a re-run in update mode would overwrite, from the first rows',
      params: uploadIdParams,
      response: overwritePreviewSchema,
      handler: async ({ ctx, params }) => ({ json: await uploadOverwrites(ctx, params.uploadId) }),
    }),
    httpRoute({
      name: 'data-upload-rerun',
      route: 'data-upload/{uploadId}/rerun',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Processes a finished upload again: new rows, failed rows or update all (409 while processing)',
      params: uploadIdParams,
      body: rerunSchema,
      response: uploadSchema,
      // The upload's own state guards a run (409 while one is under way); an If-Match sent, as
      // the screen does after showing what a run would overwrite, is honoured.
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const upload = await rerunUpload(ctx, params.uploadId, ifMatch, body);
        return { json: upload, etag: upload.etag };
      },
    }),
    httpRoute({
      name: 'data-upload-undo',
      route: 'data-upload/{uploadId}/undo',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Queues the undo of everything the upload imported: created records removed, changed ones put back',
      params: uploadIdParams,
      response: undoResultSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) => {
        const { upload } = await requestUndo(ctx, params.uploadId, ifMatch);
        return { json: { uploadId: upload.id, status: upload.status }, etag: upload.etag };
      },
    }),
    httpRoute({
      name: 'data-upload-cancel',
      route: 'data-upload/{uploadId}/cancel',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Cancels an upload: one still uploading is removed with its files; a run under way stops at its next checkpoint',
      params: uploadIdParams,
      response: cancelResultSchema,
      handler: async ({ ctx, params }) => {
        const { etag, ...result } = await cancelUpload(ctx, params.uploadId);
        return { json: result, ...(etag ? { etag } : {}) };
      },
    }),
    httpRoute({
      name: 'data-upload-status',
      route: 'data-upload/status/{uploadId}',
      methods: ['GET'],
      permission: 'data:import',
      params: uploadIdParams,
      response: uploadStatusSchema,
      handler: async ({ ctx, params }) => ({ json: await uploadStatus(ctx, params.uploadId) }),
    }),
    httpRoute({
      name: 'data-upload-history',
      route: 'data-upload/history',
      methods: ['GET'],
      permission: 'data:import',
      summary: 'Uploads newest first; category, status and search filters; continuation paging',
      query: historyQuerySchema,
      response: historyPageSchema,
      handler: async ({ ctx, query }) => ({ json: await uploadHistory(ctx, query) }),
    }),
    httpRoute({
      name: 'data-upload-download',
      route: 'data-upload/download/{uploadId}',
      methods: ['GET'],
      permission: 'data:import',
      summary:
        'An original file (?file=n, the first by default) or the error report (?report=errors)',
      params: uploadIdParams,
      query: downloadQuerySchema,
      handler: async ({ ctx, params, query, log }) => {
        const file = await uploadDownload(ctx, params.uploadId, query);
        // The reply has started by then: all that is left to do with a failure is to say so.
        file.data.once('error', (error) =>
          log.error('upload download failed part way', { uploadId: params.uploadId, error }),
        );
        return {
          body: file.data,
          headers: {
            'content-type': file.contentType,
            'content-length': String(file.size),
            'content-disposition': attachment(file.fileName),
            'x-content-type-options': 'nosniff',
          },
        };
      },
    }),
    httpRoute({
      name: 'data-upload-get',
      route: 'data-upload/{uploadId}',
      methods: ['GET'],
      permission: 'data:import',
      summary: 'One upload as the history lists it, with its runs and ETag',
      params: uploadIdParams,
      response: uploadSchema,
      handler: async ({ ctx, params }) => {
        const upload = await getUpload(ctx, params.uploadId);
        return { json: upload, etag: upload.etag };
      },
    }),
    httpRoute({
      name: 'data-upload-delete',
      route: 'data-upload/{uploadId}',
      methods: ['DELETE'],
      permission: 'data:import',
      summary:
        'Deletes an upload and its files (409 while it is processing); records it imported stay',
      params: uploadIdParams,
      response: uploadDeletedSchema,
      handler: async ({ ctx, params }) => ({ json: await deleteUpload(ctx, params.uploadId) }),
    }),
    uploadWorkerFunction,
    uploadAbandonedFunction,
  ],
};
