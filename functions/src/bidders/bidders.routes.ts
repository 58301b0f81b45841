import { z } from 'zod';
import type { FunctionTable, QueueFunction } from '../platform/functions.js';
import { preconditionRequired } from '../platform/errors.js';
import { httpRoute } from '../platform/http.js';
import { scopeOf } from '../platform/repo.js';
import { accountNameOf } from '../identity/accounts.service.js';
import { RECOMPUTE_QUEUE } from '../scoring/scoring.service.js';
import { actorOf } from './actor.js';
import { toBidder } from './bidder-model.js';
import {
  bidderInputSchema,
  bidderUpdateSchema,
  bulkInviteSchema,
  candidatesQuerySchema,
  listQuerySchema,
  localScoreSchema,
  mergeRequestSchema,
  noteInputSchema,
  scoreTypes,
} from './bidders.schema.js';
import {
  addNote,
  analytics,
  autoInviteCandidates,
  bulkInvite,
  createBidder,
  deleteBidder,
  getBidder,
  listBidders,
  scoredBidderCount,
  setLocalScore,
  updateBidder,
} from './bidders.service.js';
import {
  dismissPair,
  duplicateSummary,
  listDuplicates,
  mergePair,
  scanDuplicates,
} from './duplicates.service.js';
import { recomputeScores } from './recompute.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** The ETag a change was made against; without it, a change could overwrite someone else's. */
function ifMatch(request: { headers: { get(name: string): string | null } }): string {
  const etag = request.headers.get('if-match');
  if (!etag) throw preconditionRequired('Send If-Match with the ETag of the bidder you edited');
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

const etagHeader = (etag: string) => ({ etag: `"${etag}"` });

const recomputeFunction: QueueFunction = {
  kind: 'queue',
  name: 'scoring-recompute',
  queueName: RECOMPUTE_QUEUE,
  handler: async (message) => {
    const { accountId, jobId, version } = z
      .object({ accountId: z.string(), jobId: z.string(), version: z.number().int() })
      .parse(message);
    await recomputeScores({ accountId }, jobId, version);
  },
};

export const bidderFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'bidders-list',
      route: 'listBidders',
      methods: ['GET'],
      permission: 'bidders:view',
      query: listQuerySchema,
      handler: async ({ principal, query }) => ({
        json: await listBidders(scopeOf(principal), query),
      }),
    }),
    httpRoute({
      name: 'bidders-create',
      route: 'bidders',
      methods: ['POST'],
      permission: 'bidders:create',
      body: bidderInputSchema,
      handler: async ({ principal, body, correlationId }) => {
        const created = await createBidder(
          scopeOf(principal),
          actorOf(principal),
          body,
          correlationId,
        );
        return { status: 201, json: toBidder(created), headers: etagHeader(created._etag) };
      },
    }),
    httpRoute({
      name: 'bidders-analytics',
      route: 'bidders/analytics',
      methods: ['GET'],
      permission: 'bidders:view',
      query: z.object({ scoreType: z.enum(scoreTypes).default('lotwise') }),
      handler: async ({ principal, query }) => ({
        json: await analytics(scopeOf(principal), query.scoreType),
      }),
    }),
    httpRoute({
      name: 'bidders-get',
      route: 'bidders/{id}',
      methods: ['GET'],
      permission: 'bidders:view',
      params: idParams,
      handler: async ({ principal, params }) => {
        const bidder = await getBidder(scopeOf(principal), params.id);
        return { json: toBidder(bidder), headers: etagHeader(bidder._etag) };
      },
    }),
    httpRoute({
      name: 'bidders-update',
      route: 'bidders/{id}',
      methods: ['PUT'],
      permission: 'bidders:edit',
      params: idParams,
      body: bidderUpdateSchema,
      handler: async ({ principal, params, body, request, correlationId }) => {
        const saved = await updateBidder(
          scopeOf(principal),
          params.id,
          ifMatch(request),
          body,
          correlationId,
        );
        return { json: toBidder(saved), headers: etagHeader(saved._etag) };
      },
    }),
    httpRoute({
      name: 'bidders-delete',
      route: 'bidders/{id}',
      methods: ['DELETE'],
      permission: 'bidders:delete',
      params: idParams,
      handler: async ({ principal, params, request, correlationId }) => {
        await deleteBidder(
          scopeOf(principal),
          params.id,
          request.headers.get('if-match') ? ifMatch(request) : undefined,
          correlationId,
        );
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'bidders-scores',
      route: 'bidders/{id}/scores',
      methods: ['GET'],
      permission: 'bidders:view',
      params: idParams,
      handler: async ({ principal, params }) => {
        const bidder = await getBidder(scopeOf(principal), params.id);
        return {
          json: {
            lotwiseScore: bidder.lotwiseScore,
            customScore: bidder.customScore,
            localScore: bidder.localScore,
            autoInviteStatus: bidder.autoInviteStatus,
          },
        };
      },
    }),
    httpRoute({
      name: 'bidders-local-score',
      route: 'bidders/{id}/scores/local',
      methods: ['PUT'],
      permission: 'bidders:score_override',
      params: idParams,
      body: localScoreSchema,
      handler: async ({ principal, params, body, request, correlationId }) => {
        const saved = await setLocalScore(
          scopeOf(principal),
          actorOf(principal),
          params.id,
          ifMatch(request),
          body,
          correlationId,
        );
        return { json: toBidder(saved), headers: etagHeader(saved._etag) };
      },
    }),
    httpRoute({
      name: 'bidders-history',
      route: 'bidders/{id}/history',
      methods: ['GET'],
      permission: 'bidders:history',
      params: idParams,
      handler: async ({ principal, params }) => ({
        json: { history: (await getBidder(scopeOf(principal), params.id)).history },
      }),
    }),
    httpRoute({
      name: 'bidders-notes',
      route: 'bidders/{id}/notes',
      methods: ['GET'],
      permission: 'bidders:view',
      params: idParams,
      handler: async ({ principal, params }) => ({
        json: { notes: (await getBidder(scopeOf(principal), params.id)).notes },
      }),
    }),
    httpRoute({
      name: 'bidders-note-add',
      route: 'bidders/{id}/notes',
      methods: ['POST'],
      permission: 'bidders:notes',
      params: idParams,
      body: noteInputSchema,
      handler: async ({ principal, params, body, correlationId }) => ({
        status: 201,
        json: await addNote(scopeOf(principal), actorOf(principal), params.id, body, correlationId),
      }),
    }),
    httpRoute({
      name: 'bidders-auto-invite-candidates',
      route: 'auto-invite-candidates',
      methods: ['GET'],
      permission: 'bidders:view',
      query: candidatesQuerySchema,
      handler: async ({ principal, query }) => ({
        json: await autoInviteCandidates(scopeOf(principal), query),
      }),
    }),
    httpRoute({
      name: 'bidders-bulk-invite',
      route: 'bulk-invite',
      methods: ['POST'],
      permission: 'bidders:invite',
      body: bulkInviteSchema,
      handler: async ({ principal, body, correlationId }) => ({
        json: await bulkInvite(
          scopeOf(principal),
          actorOf(principal),
          body,
          await accountNameOf(principal.accountId),
          correlationId,
        ),
      }),
    }),
    httpRoute({
      name: 'scoring-usage',
      route: 'scoring/usage',
      methods: ['GET'],
      permission: 'authenticated',
      handler: async ({ principal }) => ({
        json: { scoredBidders: await scoredBidderCount(scopeOf(principal)) },
      }),
    }),
    httpRoute({
      name: 'duplicates-list',
      route: 'duplicates',
      methods: ['GET'],
      permission: 'bidders:view',
      query: z.object({
        status: z.enum(['pending', 'auto-merged', 'manually-merged', 'dismissed']).optional(),
      }),
      handler: async ({ principal, query }) => ({
        json: {
          duplicates: await listDuplicates(scopeOf(principal), query.status),
          summary: await duplicateSummary(scopeOf(principal)),
        },
      }),
    }),
    httpRoute({
      name: 'duplicates-scan',
      route: 'duplicates/scan',
      methods: ['POST'],
      permission: 'bidders:merge',
      handler: async ({ principal }) => ({ json: await scanDuplicates(scopeOf(principal)) }),
    }),
    httpRoute({
      name: 'duplicates-merge',
      route: 'duplicates/{id}/merge',
      methods: ['POST'],
      permission: 'bidders:merge',
      params: idParams,
      body: mergeRequestSchema,
      handler: async ({ principal, params, body, correlationId }) => ({
        json: toBidder(
          await mergePair(scopeOf(principal), actorOf(principal), params.id, body, correlationId),
        ),
      }),
    }),
    httpRoute({
      name: 'duplicates-dismiss',
      route: 'duplicates/{id}/dismiss',
      methods: ['POST'],
      permission: 'bidders:merge',
      params: idParams,
      handler: async ({ principal, params, correlationId }) => {
        await dismissPair(scopeOf(principal), actorOf(principal), params.id, correlationId);
        return { status: 204 };
      },
    }),
    recomputeFunction,
  ],
};
