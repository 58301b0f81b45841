import { z } from 'zod';
import { systemContext } from '../platform/context.js';
import type { FunctionTable, QueueFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { inviteBidders } from '../auctions/registrations/registrations.service.js';
import { accountNameOf } from '../identity/accounts/accounts.service.js';
import { recomputeMessageSchema } from '../scoring/scoring.schema.js';
import { RECOMPUTE_QUEUE } from '../scoring/scoring.service.js';
import { toBidder } from './bidder-model.js';
import {
  analyticsSchema,
  bidderInputSchema,
  bidderSchema,
  bidderUpdateSchema,
  bidderWriteSchema,
  bulkInviteResultSchema,
  bulkInviteSchema,
  candidatesQuerySchema,
  candidatesResponseSchema,
  duplicatesResponseSchema,
  historyResponseSchema,
  listQuerySchema,
  listResponseSchema,
  localScoreSchema,
  mergeRequestSchema,
  noteInputSchema,
  noteSchema,
  notesResponseSchema,
  scanResultSchema,
  scoreHistoryResponseSchema,
  scoresResponseSchema,
  scoreTypes,
  usageResponseSchema,
} from './bidders.schema.js';
import {
  addNote,
  analytics,
  autoInviteCandidates,
  bidderHistory,
  bulkInvite,
  createBidder,
  deleteBidder,
  getBidder,
  listBidders,
  listNotes,
  scoredBidderCount,
  setLocalScore,
  updateBidder,
  type WriteOutcome,
} from './bidders.service.js';
import {
  dismissPair,
  duplicateSummary,
  listDuplicates,
  mergePair,
  scanDuplicates,
} from './duplicates.service.js';
import { recomputeScores } from './recompute.service.js';
import { scoreHistory } from './score-history.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

const writeAnswer = (outcome: WriteOutcome) => ({
  ...toBidder(outcome.bidder),
  mergedBecause: outcome.mergedBecause,
  possibleDuplicates: outcome.possibleDuplicates,
});

const recomputeFunction: QueueFunction = {
  kind: 'queue',
  name: 'scoring-recompute',
  queueName: RECOMPUTE_QUEUE,
  handler: async (message) => {
    const { accountId, jobId, version, savedBy } = recomputeMessageSchema.parse(message);
    const ctx = systemContext(accountId, jobId);
    await recomputeScores(ctx, jobId, version, savedBy ?? ctx.actor.name);
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
      response: listResponseSchema,
      handler: async ({ ctx, query }) => ({ json: await listBidders(ctx, query) }),
    }),
    httpRoute({
      name: 'bidders-create',
      route: 'bidders',
      methods: ['POST'],
      permission: 'bidders:create',
      body: bidderInputSchema,
      response: bidderWriteSchema,
      handler: async ({ ctx, body }) => {
        const outcome = await createBidder(ctx, body);
        // Merged into a bidder already on file: nothing new was created.
        return {
          status: outcome.mergedBecause ? 200 : 201,
          json: writeAnswer(outcome),
          etag: outcome.bidder._etag,
        };
      },
    }),
    httpRoute({
      name: 'bidders-analytics',
      route: 'bidders/analytics',
      methods: ['GET'],
      permission: 'bidders:view',
      query: z.object({ scoreType: z.enum(scoreTypes).default('lotwise') }),
      response: analyticsSchema,
      handler: async ({ ctx, query }) => ({ json: await analytics(ctx, query.scoreType) }),
    }),
    httpRoute({
      name: 'bidders-get',
      route: 'bidders/{id}',
      methods: ['GET'],
      permission: 'bidders:view',
      params: idParams,
      response: bidderSchema,
      handler: async ({ ctx, params }) => {
        const bidder = await getBidder(ctx, params.id);
        return { json: toBidder(bidder), etag: bidder._etag };
      },
    }),
    httpRoute({
      name: 'bidders-update',
      route: 'bidders/{id}',
      methods: ['PUT'],
      permission: 'bidders:edit',
      params: idParams,
      body: bidderUpdateSchema,
      response: bidderWriteSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const outcome = await updateBidder(ctx, params.id, ifMatch, body);
        return { json: writeAnswer(outcome), etag: outcome.bidder._etag };
      },
    }),
    httpRoute({
      name: 'bidders-delete',
      route: 'bidders/{id}',
      methods: ['DELETE'],
      permission: 'bidders:delete',
      params: idParams,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) => {
        await deleteBidder(ctx, params.id, ifMatch);
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'bidders-scores',
      route: 'bidders/{id}/scores',
      methods: ['GET'],
      permission: 'bidders:view',
      params: idParams,
      response: scoresResponseSchema,
      handler: async ({ ctx, params }) => {
        const bidder = await getBidder(ctx, params.id);
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
      permission: 'bidders:scoring_local',
      params: idParams,
      body: localScoreSchema,
      response: bidderSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const saved = await setLocalScore(ctx, params.id, ifMatch, body);
        return { json: toBidder(saved), etag: saved._etag };
      },
    }),
    httpRoute({
      name: 'bidders-history',
      route: 'bidders/{id}/history',
      methods: ['GET'],
      permission: 'bidders:history_view',
      params: idParams,
      response: historyResponseSchema,
      handler: async ({ ctx, params }) => ({
        json: { history: await bidderHistory(ctx, params.id) },
      }),
    }),
    httpRoute({
      name: 'bidders-score-history',
      route: 'bidders/{id}/score-history',
      methods: ['GET'],
      permission: 'bidders:history_view',
      params: idParams,
      response: scoreHistoryResponseSchema,
      handler: async ({ ctx, params }) => ({
        json: { changes: await scoreHistory(ctx, params.id) },
      }),
    }),
    httpRoute({
      name: 'bidders-notes',
      route: 'bidders/{id}/notes',
      methods: ['GET'],
      permission: 'bidders:view',
      params: idParams,
      response: notesResponseSchema,
      handler: async ({ ctx, params }) => ({ json: { notes: await listNotes(ctx, params.id) } }),
    }),
    httpRoute({
      name: 'bidders-note-add',
      route: 'bidders/{id}/notes',
      methods: ['POST'],
      permission: 'bidders:history_edit',
      params: idParams,
      body: noteInputSchema,
      response: noteSchema,
      handler: async ({ ctx, params, body }) => ({
        status: 201,
        json: await addNote(ctx, params.id, body),
      }),
    }),
    httpRoute({
      name: 'bidders-auto-invite-candidates',
      route: 'auto-invite-candidates',
      methods: ['GET'],
      permission: 'bidders:view',
      query: candidatesQuerySchema,
      response: candidatesResponseSchema,
      handler: async ({ ctx, query }) => ({ json: await autoInviteCandidates(ctx, query) }),
    }),
    httpRoute({
      name: 'bidders-bulk-invite',
      route: 'bulk-invite',
      methods: ['POST'],
      permission: 'bidders:invite',
      body: bulkInviteSchema,
      response: bulkInviteResultSchema,
      handler: async ({ ctx, body }) => {
        const accountName = await accountNameOf(ctx.scope.accountId);
        if (!body.auctionId) return { json: await bulkInvite(ctx, body, accountName) };
        // To an auction: recorded per auction, once per bidder, by the auctions service.
        const result = await inviteBidders(
          ctx,
          body.auctionId,
          { bidderIds: body.bidderIds, message: body.message },
          accountName,
        );
        return {
          json: {
            invited: result.invited,
            skipped: result.withoutEmail.map((id) => ({ id, reason: 'no email address' })),
          },
        };
      },
    }),
    httpRoute({
      name: 'scoring-usage',
      route: 'scoring/usage',
      methods: ['GET'],
      permission: 'authenticated',
      response: usageResponseSchema,
      handler: async ({ ctx }) => ({ json: { scoredBidders: await scoredBidderCount(ctx) } }),
    }),
    httpRoute({
      name: 'duplicates-list',
      route: 'duplicates',
      methods: ['GET'],
      permission: 'bidders:view',
      query: z.object({
        status: z.enum(['pending', 'auto-merged', 'manually-merged', 'dismissed']).optional(),
      }),
      response: duplicatesResponseSchema,
      handler: async ({ ctx, query }) => ({
        json: {
          duplicates: await listDuplicates(ctx, query.status),
          summary: await duplicateSummary(ctx),
        },
      }),
    }),
    httpRoute({
      name: 'duplicates-scan',
      route: 'duplicates/scan',
      methods: ['POST'],
      permission: 'bidders:merge',
      response: scanResultSchema,
      handler: async ({ ctx }) => ({ json: await scanDuplicates(ctx) }),
    }),
    httpRoute({
      name: 'duplicates-merge',
      route: 'duplicates/{id}/merge',
      methods: ['POST'],
      permission: 'bidders:merge',
      params: idParams,
      body: mergeRequestSchema,
      response: bidderSchema,
      handler: async ({ ctx, params, body }) => ({
        json: toBidder(await mergePair(ctx, params.id, body)),
      }),
    }),
    httpRoute({
      name: 'duplicates-dismiss',
      route: 'duplicates/{id}/dismiss',
      methods: ['POST'],
      permission: 'bidders:merge',
      params: idParams,
      handler: async ({ ctx, params }) => {
        await dismissPair(ctx, params.id);
        return { status: 204 };
      },
    }),
    recomputeFunction,
  ],
};
