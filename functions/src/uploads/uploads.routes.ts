import { z } from 'zod';
import type { FunctionTable } from '../platform/functions.js';
import { payloadTooLarge } from '../platform/errors.js';
import { httpRoute } from '../platform/http.js';
import { validationError } from '../platform/validation.js';
import { importResultSchema } from '../bidders/bidders.schema.js';
import { importBidders, MAX_IMPORT_BYTES, readImportForm } from './bidder-import.service.js';

/** Room for the multipart boundaries and the small fields beside the files. */
const FORM_OVERHEAD = 256 * 1024;

const importTypes = ['bidders'] as const;
const mappingSchema = z.record(z.string().max(200), z.string().max(100));

function mappingOf(raw: string | undefined): Record<string, string> {
  if (raw === undefined || raw.trim() === '') return {};
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
        const body = Buffer.from(await request.arrayBuffer());
        if (body.length > MAX_IMPORT_BYTES + FORM_OVERHEAD)
          throw payloadTooLarge('Files must be 10 MB or smaller');
        const form = await readImportForm(body, request.headers.get('content-type') ?? '');
        const importType = form.fields.importType ?? 'bidders';
        if (!(importTypes as readonly string[]).includes(importType)) {
          throw validationError([
            {
              location: 'body',
              field: 'importType',
              message: `must be one of: ${importTypes.join(', ')}`,
            },
          ]);
        }
        return {
          json: await importBidders(ctx, form.files, mappingOf(form.fields.csvMapping)),
        };
      },
    }),
  ],
};
