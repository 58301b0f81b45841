import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { MAX_IMPORT_BYTES } from '../bidders/bidder-import.service.js';
import { payloadTooLarge } from '../platform/errors.js';
import { readForm } from '../uploads/files.js';
import { EXPORT_FILE_FIELD, importExportFile } from './export-import.service.js';
import type { FunctionTable, QueueFunction, TimerFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { contextLogger } from '../platform/invocation-log.js';
import { pathIdSchema } from '../platform/validation.js';
import { platforms } from '../auctions/auctions.schema.js';
import {
  auctionSyncBodySchema,
  connectBodySchema,
  importAuctionBodySchema,
  importBiddersBodySchema,
  platformAuctionListSchema,
  platformBidderListSchema,
  platformConnectionSchema,
  platformListSchema,
  platformPathSchema,
  syncChangeSchema,
  syncRunListSchema,
  syncRunSchema,
  syncSettingsUpdateSchema,
  syncSettingsViewSchema,
} from './integrations.schema.js';
import {
  connectPlatform,
  disconnectPlatform,
  listPlatforms,
  platformStatus,
  readSyncSettings,
  saveSyncSettings,
} from './integrations.service.js';
import {
  importAuction,
  importBidders,
  listRuns,
  platformAuctionChoices,
  platformBidderChoices,
  PUSH_QUEUE,
  runPush,
  runSync,
  startSync,
  SYNC_QUEUE,
  syncAuction,
  syncDue,
} from './sync.service.js';

/** What a multipart form adds to its file: boundaries and the other fields. */
const FORM_OVERHEAD = 256 * 1024;

const cursorQuery = z.object({ cursor: z.string().max(2000).optional() });

const runsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  continuationToken: z.string().max(4000).optional(),
});

const syncFunction: QueueFunction = {
  kind: 'queue',
  name: 'platform-sync',
  queueName: SYNC_QUEUE,
  handler: async (message, context) => {
    const parsed = z
      .object({ accountId: z.string(), platform: z.enum(platforms), runId: z.string() })
      .parse(message);
    await runSync(
      parsed,
      contextLogger(context, { function: 'platform-sync', invocationId: context.invocationId }),
    );
  },
};

const pushFunction: QueueFunction = {
  kind: 'queue',
  name: 'platform-push',
  queueName: PUSH_QUEUE,
  handler: async (message) => {
    await runPush(
      z
        .object({
          accountId: z.string(),
          platform: z.enum(platforms),
          auctionId: z.string(),
          by: z.string(),
        })
        .parse(message),
    );
  },
};

/** Starts each connected platform's scheduled sync when it is due (Settings › Sync frequency). */
const scheduleTimer: TimerFunction = {
  kind: 'timer',
  name: 'platforms-sync-schedule',
  schedule: '0 * * * * *',
  handler: async (_timer, context) => {
    await syncDue(
      contextLogger(context, {
        function: 'platforms-sync-schedule',
        invocationId: context.invocationId,
      }),
    );
  },
};

export const integrationFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'platforms-list',
      route: 'platforms',
      methods: ['GET'],
      permission: 'auctions:view',
      response: platformListSchema,
      handler: async ({ ctx }) => ({ json: { platforms: await listPlatforms(ctx) } }),
    }),
    httpRoute({
      name: 'platforms-status',
      route: 'platforms/{platform}/status',
      methods: ['GET'],
      permission: 'auctions:view',
      params: platformPathSchema,
      response: platformConnectionSchema,
      handler: async ({ ctx, params }) => ({ json: await platformStatus(ctx, params.platform) }),
    }),
    httpRoute({
      name: 'platforms-connect',
      route: 'platforms/{platform}/connection',
      methods: ['PUT'],
      permission: 'system:integrations',
      params: platformPathSchema,
      body: connectBodySchema,
      response: platformConnectionSchema,
      handler: async ({ ctx, params, body }) => ({
        json: await connectPlatform(ctx, params.platform, body),
      }),
    }),
    httpRoute({
      name: 'platforms-disconnect',
      route: 'platforms/{platform}/connection',
      methods: ['DELETE'],
      permission: 'system:integrations',
      params: platformPathSchema,
      response: platformConnectionSchema,
      handler: async ({ ctx, params }) => ({
        json: await disconnectPlatform(ctx, params.platform),
      }),
    }),
    httpRoute({
      name: 'platforms-sync',
      route: 'platforms/sync/{platform}',
      methods: ['POST'],
      permission: 'auctions:import',
      params: platformPathSchema,
      response: syncRunSchema,
      handler: async ({ ctx, params }) => ({
        status: 202,
        json: await startSync(ctx, params.platform, 'manual'),
      }),
    }),
    httpRoute({
      name: 'platforms-logs',
      route: 'platforms/{platform}/logs',
      methods: ['GET'],
      permission: 'auctions:view',
      params: platformPathSchema,
      query: runsQuery,
      response: syncRunListSchema,
      handler: async ({ ctx, params, query }) => ({
        json: await listRuns(
          ctx,
          { platform: params.platform },
          query.limit,
          query.continuationToken,
        ),
      }),
    }),
    httpRoute({
      name: 'platforms-import-auction',
      route: 'import/{platform}',
      methods: ['POST'],
      permission: 'auctions:import',
      params: platformPathSchema,
      body: importAuctionBodySchema,
      response: z.object({ change: syncChangeSchema, run: syncRunSchema }),
      handler: async ({ ctx, params, body }) => ({
        json: await importAuction(ctx, params.platform, body.externalId),
      }),
    }),
    httpRoute({
      name: 'platforms-auctions',
      route: 'platforms/{platform}/auctions',
      methods: ['GET'],
      permission: 'auctions:import',
      params: platformPathSchema,
      query: cursorQuery,
      response: platformAuctionListSchema,
      handler: async ({ ctx, params, query }) => ({
        json: await platformAuctionChoices(ctx, params.platform, query.cursor ?? null),
      }),
    }),
    httpRoute({
      name: 'platforms-bidders',
      route: 'platforms/{platform}/bidders',
      methods: ['GET'],
      permission: 'data:import',
      params: platformPathSchema,
      query: cursorQuery,
      response: platformBidderListSchema,
      handler: async ({ ctx, params, query }) => ({
        json: await platformBidderChoices(ctx, params.platform, query.cursor ?? null),
      }),
    }),
    httpRoute({
      name: 'platforms-import-bidders',
      route: 'import/{platform}/bidders',
      methods: ['POST'],
      permission: 'data:import',
      params: platformPathSchema,
      body: importBiddersBodySchema,
      response: syncRunSchema,
      handler: async ({ ctx, params, body }) => ({
        json: await importBidders(ctx, params.platform, body.externalIds),
      }),
    }),
    httpRoute({
      name: 'platforms-import-file',
      route: 'import/{platform}/file',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        "Imports a platform's own export (multipart: kind bidders or catalogue, auctionId for a catalogue, file)",
      params: platformPathSchema,
      response: z.object({
        run: syncRunSchema,
        errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
      }),
      handler: async ({ ctx, params, request }) => {
        const declared = Number(request.headers.get('content-length') ?? 0);
        if (declared > MAX_IMPORT_BYTES + FORM_OVERHEAD) {
          throw payloadTooLarge('Files must be 10 MB or smaller');
        }
        // Read as it arrives, and refused as soon as it grows past the limit.
        const body = request.body
          ? Readable.fromWeb(request.body as ReadableStream<Uint8Array>)
          : Readable.from([]);
        const form = readForm(body, request.headers.get('content-type') ?? '', {
          maxBytes: MAX_IMPORT_BYTES,
          files: 2,
          fields: 10,
          field: EXPORT_FILE_FIELD,
        });
        return { json: await importExportFile(ctx, params.platform, form) };
      },
    }),
    httpRoute({
      name: 'auctions-sync',
      route: 'auctions/{id}/sync/{platform}',
      methods: ['PUT'],
      permission: 'auctions:edit',
      params: z.object({ id: pathIdSchema, platform: z.enum(platforms) }),
      body: auctionSyncBodySchema,
      response: syncRunSchema,
      handler: async ({ ctx, params, body }) => ({
        json: await syncAuction(ctx, params.id, params.platform, body.direction),
      }),
    }),
    httpRoute({
      name: 'auctions-sync-history',
      route: 'auctions/{id}/sync-history',
      methods: ['GET'],
      permission: 'auctions:view',
      params: z.object({ id: pathIdSchema }),
      query: runsQuery,
      response: syncRunListSchema,
      handler: async ({ ctx, params, query }) => ({
        json: await listRuns(ctx, { auctionId: params.id }, query.limit, query.continuationToken),
      }),
    }),
    httpRoute({
      name: 'sync-settings-get',
      route: 'settings/sync',
      methods: ['GET'],
      permission: 'auctions:view',
      response: syncSettingsViewSchema,
      handler: async ({ ctx }) => {
        const view = await readSyncSettings(ctx);
        return { json: view, etag: view.etag };
      },
    }),
    httpRoute({
      name: 'sync-settings-put',
      route: 'settings/sync',
      methods: ['PUT'],
      permission: 'system:integrations',
      body: syncSettingsUpdateSchema,
      response: syncSettingsViewSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, body, ifMatch }) => {
        const view = await saveSyncSettings(ctx, ifMatch, body);
        return { json: view, etag: view.etag };
      },
    }),
    syncFunction,
    pushFunction,
    scheduleTimer,
  ],
};
