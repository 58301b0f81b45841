import { z } from 'zod';
import type { HttpFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';

import { adminPasswordReset } from './credentials.service.js';
import {
  activityQuerySchema,
  houseAccessUpdateSchema,
  houseAssignmentSchema,
  inviteRequestSchema,
  inviteToHouseSchema,
  memberUpdateSchema,
  roleChangeSchema,
} from './identity.schema.js';
import { resendInvitation } from './invitations.service.js';
import {
  activity,
  changeRole,
  deactivate,
  invite,
  listTeam,
  reactivate,
  renameMember,
  replaceHouseAccess,
  setHouseGrant,
  teamMember,
} from './team.service.js';
import { currentAccount } from './accounts.service.js';
import { notFound } from '../platform/errors.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

const invitationView = (invitation: {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
  houseIds: string[];
}) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  expiresAt: invitation.expiresAt,
  auctionHouseIds: invitation.houseIds,
});

/** The team: members and invitations of the current account. */
export const teamFunctions: HttpFunction[] = [
  ...(['auction-house/users', 'users'] as const).map((route) =>
    httpRoute({
      name: route === 'users' ? 'users-list' : 'team-list',
      route,
      methods: ['GET'],
      permission: 'users:view',
      handler: async ({ ctx }) => ({ json: { users: await listTeam(ctx) } }),
    }),
  ),
  httpRoute({
    name: 'team-invite',
    route: 'auction-house/invite',
    methods: ['POST'],
    permission: 'users:invite',
    body: inviteRequestSchema,
    handler: async ({ ctx, body }) => ({
      status: 201,
      json: invitationView(await invite(ctx, body)),
    }),
  }),
  httpRoute({
    name: 'team-role',
    route: 'auction-house/users/{id}/role',
    methods: ['PUT'],
    permission: 'users:roles_assign',
    params: idParams,
    body: roleChangeSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await changeRole(ctx, params.id, body),
    }),
  }),
  httpRoute({
    name: 'team-deactivate',
    route: 'auction-house/users/{id}/deactivate',
    methods: ['POST'],
    permission: 'users:edit',
    params: idParams,
    handler: async ({ ctx, params }) => ({
      json: await deactivate(ctx, params.id),
    }),
  }),
  httpRoute({
    name: 'team-reactivate',
    route: 'auction-house/users/{id}/reactivate',
    methods: ['POST'],
    permission: 'users:edit',
    params: idParams,
    handler: async ({ ctx, params }) => ({
      json: await reactivate(ctx, params.id),
    }),
  }),
  httpRoute({
    name: 'team-activity',
    route: 'auction-house/users/{id}/activity',
    methods: ['GET'],
    permission: 'users:view',
    params: idParams,
    query: activityQuerySchema,
    handler: async ({ ctx, params, query }) => ({
      json: { days: query.days, activity: await activity(ctx, params.id, query.days) },
    }),
  }),
  httpRoute({
    name: 'users-get',
    route: 'users/{id}',
    methods: ['GET'],
    permission: 'users:view',
    params: idParams,
    handler: async ({ ctx, params }) => ({ json: await teamMember(ctx, params.id) }),
  }),
  httpRoute({
    name: 'users-update',
    route: 'users/{id}',
    methods: ['PUT'],
    permission: 'users:edit',
    params: idParams,
    body: memberUpdateSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await renameMember(ctx, params.id, body.name),
    }),
  }),
  httpRoute({
    name: 'users-invite-resend',
    route: 'users/{id}/invite',
    methods: ['POST'],
    permission: 'users:invite',
    params: idParams,
    handler: async ({ ctx, params }) => ({
      json: invitationView(await resendInvitation(ctx, params.id)),
    }),
  }),
  httpRoute({
    name: 'users-reset-password',
    route: 'users/{id}/reset-password',
    methods: ['POST'],
    permission: 'users:password_reset',
    params: idParams,
    handler: async ({ ctx, params }) => {
      await adminPasswordReset(ctx, params.id);
      return { status: 202, json: { message: 'A password reset link was sent.' } };
    },
  }),
  httpRoute({
    name: 'house-users',
    route: 'auction-houses/{id}/users',
    methods: ['GET'],
    permission: 'users:view',
    params: idParams,
    handler: async ({ ctx, params }) => {
      const account = await currentAccount(ctx);
      if (!account.houses.some((house) => house.id === params.id))
        throw notFound('Auction house not found');
      const team = await listTeam(ctx);
      return {
        json: {
          users: team.filter(
            (member) =>
              member.accountRole === 'owner' ||
              member.auctionHouseAccess.some((grant) => grant.houseId === params.id),
          ),
        },
      };
    },
  }),
  httpRoute({
    name: 'house-assign-user',
    route: 'auction-house/assign-user',
    methods: ['POST'],
    permission: 'users:roles_assign',
    body: houseAssignmentSchema,
    handler: async ({ ctx, body }) => ({
      json: await setHouseGrant(ctx, body, true),
    }),
  }),
  httpRoute({
    name: 'house-remove-user',
    route: 'auction-house/remove-user',
    methods: ['POST'],
    permission: 'users:roles_assign',
    body: houseAssignmentSchema,
    handler: async ({ ctx, body }) => ({
      json: await setHouseGrant(ctx, body, false),
    }),
  }),
  httpRoute({
    name: 'house-invite-user',
    route: 'auction-house/invite-user',
    methods: ['POST'],
    permission: 'users:invite',
    body: inviteToHouseSchema,
    handler: async ({ ctx, body }) => ({
      status: 201,
      json: invitationView(
        await invite(ctx, {
          email: body.email,
          role: body.role,
          permissions: [],
          personalMessage: body.personalMessage,
          auctionHouseIds: [body.houseId],
        }),
      ),
    }),
  }),
  httpRoute({
    name: 'user-house-access-update',
    route: 'users/{id}/auction-house-access',
    methods: ['PUT'],
    permission: 'users:roles_assign',
    params: idParams,
    body: houseAccessUpdateSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await replaceHouseAccess(ctx, params.id, body.houses),
    }),
  }),
];
