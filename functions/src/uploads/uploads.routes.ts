import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { z } from 'zod';
import type { FunctionTable } from '../platform/functions.js';
import { AppError, payloadTooLarge } from '../platform/errors.js';
import { httpRoute } from '../platform/http.js';
import { validationError } from '../platform/validation.js';
import {
  importBidders,
  MAX_IMPORT_BYTES,
  type ImportFile,
} from '../bidders/bidder-import.service.js';
import { importResultSchema } from '../bidders/bidders.schema.js';
import { readForm, type FormPart } from './files.js';

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
          return { json: await importBidders(ctx, importFiles(form, transport)) };
        } catch (error) {
          throw transport.failure ?? error;
        }
      },
    }),
  ],
};
