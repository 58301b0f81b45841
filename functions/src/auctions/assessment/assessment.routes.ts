import { z } from 'zod';
import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { pathIdSchema } from '../../platform/validation.js';
import {
  assessmentInviteResultSchema,
  assessmentInviteSchema,
  assessmentQuerySchema,
  assessmentSchema,
} from './assessment.schema.js';
import { assessAuction, inviteFromAssessment } from './assessment.service.js';

const auctionParams = z.object({ id: pathIdSchema });

/** The AI Bidder Assessment panel: the ranking, and the invitations sent from it. */
export const assessmentFunctions: HttpFunction[] = [
  httpRoute({
    name: 'auctions-assessment',
    route: 'auctions/{id}/assessment',
    methods: ['GET'],
    permission: 'bidders:assessment',
    summary: "Ranks the account's bidders for the auction, each with its reasons",
    params: auctionParams,
    query: assessmentQuerySchema,
    response: assessmentSchema,
    handler: async ({ ctx, params, query }) => ({
      json: await assessAuction(ctx, params.id, query),
    }),
  }),
  httpRoute({
    name: 'auctions-assessment-invite',
    route: 'auctions/{id}/assessment/invite',
    methods: ['POST'],
    permission: 'bidders:invite',
    summary: 'Invites the bidders chosen, or every Auto-Invite one, passing over those invited',
    params: auctionParams,
    body: assessmentInviteSchema,
    response: assessmentInviteResultSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await inviteFromAssessment(ctx, params.id, body),
    }),
  }),
];
