import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { MAX_IMPORT_BYTES } from '../../bidders/bidder-import.service.js';
import { payloadTooLarge } from '../../platform/errors.js';
import { pathIdSchema } from '../../platform/validation.js';
import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { queuePushes } from '../../integrations/sync.service.js';
import { readForm } from '../../uploads/files.js';
import { CATALOGUE_FIELD, importCatalogue } from './catalogue-import.service.js';
import {
  lotImportResultSchema,
  lotInputSchema,
  lotResultInputSchema,
  lotSchema,
  lotsResponseSchema,
  lotUpdateSchema,
  reorderSchema,
} from './lots.schema.js';
import {
  createLot,
  deleteLot,
  getLot,
  listLots,
  recordResult,
  reorderLots,
  toLot,
  updateLot,
} from './lots.service.js';

const auctionParams = z.object({ id: pathIdSchema });
const lotParams = auctionParams.extend({ lotId: pathIdSchema });

/** Room for the multipart boundaries and the small fields beside the file. */
const FORM_OVERHEAD = 256 * 1024;

/** An auction's catalogue: lots, their order, and the results clerked during the sale. */
export const lotFunctions: HttpFunction[] = [
  httpRoute({
    name: 'lots-list',
    route: 'auctions/{id}/lots',
    methods: ['GET'],
    permission: 'auctions:view',
    params: auctionParams,
    response: lotsResponseSchema,
    handler: async ({ ctx, params }) => ({
      json: { lots: (await listLots(ctx, params.id)).map(toLot) },
    }),
  }),
  httpRoute({
    name: 'lots-create',
    route: 'auctions/{id}/lots',
    methods: ['POST'],
    permission: 'auctions:edit',
    params: auctionParams,
    body: lotInputSchema,
    response: lotSchema,
    handler: async ({ ctx, params, body, log }) => {
      const lot = await createLot(ctx, params.id, body);
      await queuePushes(ctx, params.id, log);
      return { status: 201, json: toLot(lot), etag: lot._etag };
    },
  }),
  httpRoute({
    name: 'lots-get',
    route: 'auctions/{id}/lots/{lotId}',
    methods: ['GET'],
    permission: 'auctions:view',
    params: lotParams,
    response: lotSchema,
    handler: async ({ ctx, params }) => {
      const lot = await getLot(ctx, params.id, params.lotId);
      return { json: toLot(lot), etag: lot._etag };
    },
  }),
  httpRoute({
    name: 'lots-update',
    route: 'auctions/{id}/lots/{lotId}',
    methods: ['PUT'],
    permission: 'auctions:edit',
    params: lotParams,
    body: lotUpdateSchema,
    response: lotSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, params, body, ifMatch, log }) => {
      const lot = await updateLot(ctx, params.id, params.lotId, ifMatch, body);
      await queuePushes(ctx, params.id, log);
      return { json: toLot(lot), etag: lot._etag };
    },
  }),
  httpRoute({
    name: 'lots-delete',
    route: 'auctions/{id}/lots/{lotId}',
    methods: ['DELETE'],
    permission: 'auctions:edit',
    params: lotParams,
    handler: async ({ ctx, params, log }) => {
      await deleteLot(ctx, params.id, params.lotId);
      await queuePushes(ctx, params.id, log);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'lots-import',
    route: 'auctions/{id}/lots/import',
    methods: ['POST'],
    permission: 'auctions:edit',
    summary: 'Imports a catalogue (CSV or Excel, multipart field "file"): new lots and updates',
    params: auctionParams,
    response: lotImportResultSchema,
    handler: async ({ ctx, params, request, log }) => {
      const declared = Number(request.headers.get('content-length') ?? 0);
      if (declared > MAX_IMPORT_BYTES + FORM_OVERHEAD) {
        throw payloadTooLarge('Files must be 10 MB or smaller');
      }
      // Read as it arrives: the upload is never held whole.
      const body = request.body
        ? Readable.fromWeb(request.body as ReadableStream<Uint8Array>)
        : Readable.from([]);
      const form = readForm(body, request.headers.get('content-type') ?? '', {
        maxBytes: MAX_IMPORT_BYTES,
        files: 2,
        fields: 10,
        field: CATALOGUE_FIELD,
      });
      const imported = await importCatalogue(ctx, params.id, form);
      await queuePushes(ctx, params.id, log);
      return { json: imported };
    },
  }),
  httpRoute({
    name: 'lots-reorder',
    route: 'auctions/{id}/lots-order',
    methods: ['PUT'],
    permission: 'auctions:edit',
    params: auctionParams,
    body: reorderSchema,
    response: lotsResponseSchema,
    handler: async ({ ctx, params, body, log }) => {
      const lots = await reorderLots(ctx, params.id, body.lotIds);
      await queuePushes(ctx, params.id, log);
      return { json: { lots: lots.map(toLot) } };
    },
  }),
  httpRoute({
    name: 'lots-result',
    route: 'auctions/{id}/lots/{lotId}/result',
    methods: ['PUT'],
    permission: 'auctions:edit',
    params: lotParams,
    body: lotResultInputSchema,
    response: lotSchema,
    handler: async ({ ctx, params, body }) => {
      const lot = await recordResult(ctx, params.id, params.lotId, body);
      return { json: toLot(lot), etag: lot._etag };
    },
  }),
];
