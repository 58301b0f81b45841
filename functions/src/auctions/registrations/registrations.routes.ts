import { z } from 'zod';
import { pathIdSchema } from '../../platform/validation.js';
import { accountNameOf } from '../../identity/accounts/accounts.service.js';
import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import {
  bidLimitChangeSchema,
  decisionSchema,
  inviteResultSchema,
  inviteSchema,
  registerSchema,
  registrationSchema,
  registrationsQuerySchema,
  registrationsResponseSchema,
} from './registrations.schema.js';
import {
  changeBidLimit,
  decide,
  inviteBidders,
  listRegistrations,
  register,
  toRegistration,
  unregister,
} from './registrations.service.js';

const auctionParams = z.object({ id: pathIdSchema });
const bidderParams = auctionParams.extend({ bidderId: pathIdSchema });

/** Who may bid in an auction: registrations, their approval and limits, and invitations. */
export const registrationFunctions: HttpFunction[] = [
  httpRoute({
    name: 'registrations-list',
    route: 'auctions/{id}/bidders',
    methods: ['GET'],
    permission: 'auctions:view',
    params: auctionParams,
    query: registrationsQuerySchema,
    response: registrationsResponseSchema,
    handler: async ({ ctx, params, query }) => ({
      json: await listRegistrations(ctx, params.id, query),
    }),
  }),
  httpRoute({
    name: 'registrations-register',
    route: 'auctions/{id}/register',
    methods: ['POST'],
    permission: 'auctions:edit',
    params: auctionParams,
    body: registerSchema,
    response: registrationSchema,
    handler: async ({ ctx, params, body }) => ({
      status: 201,
      json: toRegistration(await register(ctx, params.id, body)),
    }),
  }),
  httpRoute({
    name: 'registrations-remove',
    route: 'auctions/{id}/bidders/{bidderId}',
    methods: ['DELETE'],
    permission: 'auctions:edit',
    params: bidderParams,
    handler: async ({ ctx, params }) => {
      await unregister(ctx, params.id, params.bidderId);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'registrations-decide',
    route: 'auctions/{id}/bidders/{bidderId}/decision',
    methods: ['POST'],
    permission: 'auctions:edit',
    params: bidderParams,
    body: decisionSchema,
    response: registrationSchema,
    handler: async ({ ctx, params, body }) => ({
      json: toRegistration(await decide(ctx, params.id, params.bidderId, body)),
    }),
  }),
  httpRoute({
    name: 'registrations-bid-limit',
    route: 'auctions/{id}/bidders/{bidderId}/bid-limit',
    methods: ['PUT'],
    permission: 'auctions:edit',
    params: bidderParams,
    body: bidLimitChangeSchema,
    response: registrationSchema,
    handler: async ({ ctx, params, body }) => ({
      json: toRegistration(await changeBidLimit(ctx, params.id, params.bidderId, body)),
    }),
  }),
  httpRoute({
    name: 'auctions-invite-bidders',
    route: 'auctions/{id}/invite-bidders',
    methods: ['POST'],
    permission: 'bidders:invite',
    params: auctionParams,
    body: inviteSchema,
    response: inviteResultSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await inviteBidders(ctx, params.id, body, await accountNameOf(ctx.scope.accountId)),
    }),
  }),
];
