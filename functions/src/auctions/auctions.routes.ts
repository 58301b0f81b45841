import { z } from 'zod';
import { pathIdSchema } from '../platform/validation.js';
import type { FunctionTable, TimerFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { contextLogger } from '../platform/invocation-log.js';
import {
  auctionInputSchema,
  auctionSchema,
  auctionSummarySchema,
  auctionUpdateSchema,
  cancelSchema,
  listAuctionsQuerySchema,
  listAuctionsResponseSchema,
  performanceSchema,
} from './auctions.schema.js';
import {
  auctionEtag,
  auctionSummary,
  cancelAuction,
  createAuction,
  deleteAuction,
  getAuction,
  goLive,
  listAuctions,
  publishAuction,
  toAuction,
  updateAuction,
} from './auctions.service.js';
import { queuePushes } from '../integrations/sync.service.js';
import { assessmentFunctions } from './assessment/assessment.routes.js';
import { campaignFunctions } from './campaigns/campaigns.routes.js';
import { closeAuction, goLiveDue } from './lifecycle.service.js';
import { lotFunctions } from './lots/lots.routes.js';
import { auctionPerformance } from './performance.service.js';
import { registrationFunctions } from './registrations/registrations.routes.js';

const idParams = z.object({ id: pathIdSchema });

const answer = (record: Parameters<typeof toAuction>[0], status = 200) => ({
  status,
  json: toAuction(record),
  etag: auctionEtag(record),
});

/** Takes Upcoming auctions live at their start instant, in every account. */
const goLiveTimer: TimerFunction = {
  kind: 'timer',
  name: 'auctions-go-live',
  schedule: '0 * * * * *',
  handler: async (_timer, context) => {
    await goLiveDue(
      contextLogger(context, { function: 'auctions-go-live', invocationId: context.invocationId }),
    );
  },
};

export const auctionFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'auctions-list',
      route: 'listAuctions',
      methods: ['GET'],
      permission: 'auctions:view',
      query: listAuctionsQuerySchema,
      response: listAuctionsResponseSchema,
      handler: async ({ ctx, query }) => ({ json: await listAuctions(ctx, query) }),
    }),
    httpRoute({
      name: 'auctions-summary',
      route: 'auctions/summary',
      methods: ['GET'],
      permission: 'auctions:view',
      response: auctionSummarySchema,
      handler: async ({ ctx }) => ({ json: await auctionSummary(ctx) }),
    }),
    httpRoute({
      name: 'auctions-create',
      route: 'auctions',
      methods: ['POST'],
      permission: 'auctions:create',
      body: auctionInputSchema,
      response: auctionSchema,
      handler: async ({ ctx, body }) => answer(await createAuction(ctx, body), 201),
    }),
    httpRoute({
      name: 'auctions-get',
      route: 'auctions/{id}',
      methods: ['GET'],
      permission: 'auctions:view',
      params: idParams,
      response: auctionSchema,
      handler: async ({ ctx, params }) => answer(await getAuction(ctx, params.id)),
    }),
    httpRoute({
      name: 'auctions-update',
      route: 'auctions/{id}',
      methods: ['PUT'],
      permission: 'auctions:edit',
      params: idParams,
      body: auctionUpdateSchema,
      response: auctionSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch, log }) => {
        const saved = await updateAuction(ctx, params.id, ifMatch, body);
        await queuePushes(ctx, saved.id, log);
        return answer(saved);
      },
    }),
    httpRoute({
      name: 'auctions-delete',
      route: 'auctions/{id}',
      methods: ['DELETE'],
      permission: 'auctions:delete',
      params: idParams,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) => {
        await deleteAuction(ctx, params.id, ifMatch);
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'auctions-publish',
      route: 'auctions/{id}/publish',
      methods: ['POST'],
      permission: 'auctions:publish',
      params: idParams,
      response: auctionSchema,
      handler: async ({ ctx, params }) => answer(await publishAuction(ctx, params.id)),
    }),
    httpRoute({
      name: 'auctions-go-live-now',
      route: 'auctions/{id}/go-live',
      methods: ['POST'],
      permission: 'auctions:go_live',
      params: idParams,
      response: auctionSchema,
      handler: async ({ ctx, params }) => answer(await goLive(ctx, params.id)),
    }),
    httpRoute({
      name: 'auctions-close',
      route: 'auctions/{id}/close',
      methods: ['POST'],
      permission: 'auctions:close',
      params: idParams,
      response: auctionSchema,
      handler: async ({ ctx, params }) => answer(await closeAuction(ctx, params.id)),
    }),
    httpRoute({
      name: 'auctions-cancel',
      route: 'auctions/{id}/cancel',
      methods: ['POST'],
      permission: 'auctions:close',
      params: idParams,
      body: cancelSchema,
      response: auctionSchema,
      handler: async ({ ctx, params, body }) =>
        answer(await cancelAuction(ctx, params.id, body.reason)),
    }),
    httpRoute({
      name: 'auctions-performance',
      route: 'auctions/{id}/performance',
      methods: ['GET'],
      permission: 'auctions:analytics',
      params: idParams,
      response: performanceSchema,
      handler: async ({ ctx, params }) => ({ json: await auctionPerformance(ctx, params.id) }),
    }),
    ...lotFunctions,
    ...registrationFunctions,
    ...assessmentFunctions,
    ...campaignFunctions,
    goLiveTimer,
  ],
};
