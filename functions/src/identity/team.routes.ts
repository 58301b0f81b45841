import { z } from 'zod';
import type { HttpFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { scopeOf } from '../platform/repo.js';
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
      handler: async ({ principal }) => ({ json: { users: await listTeam(principal) } }),
    }),
  ),
  httpRoute({
    name: 'team-invite',
    route: 'auction-house/invite',
    methods: ['POST'],
    permission: 'users:invite',
    body: inviteRequestSchema,
    handler: async ({ principal, body, correlationId }) => ({
      status: 201,
      json: invitationView(await invite(principal, body, correlationId)),
    }),
  }),
  httpRoute({
    name: 'team-role',
    route: 'auction-house/users/{id}/role',
    methods: ['PUT'],
    permission: 'users:roles',
    params: idParams,
    body: roleChangeSchema,
    handler: async ({ principal, params, body, correlationId }) => ({
      json: await changeRole(principal, params.id, body, correlationId),
    }),
  }),
  httpRoute({
    name: 'team-deactivate',
    route: 'auction-house/users/{id}/deactivate',
    methods: ['POST'],
    permission: 'users:deactivate',
    params: idParams,
    handler: async ({ principal, params, correlationId }) => ({
      json: await deactivate(principal, params.id, correlationId),
    }),
  }),
  httpRoute({
    name: 'team-reactivate',
    route: 'auction-house/users/{id}/reactivate',
    methods: ['POST'],
    permission: 'users:deactivate',
    params: idParams,
    handler: async ({ principal, params, correlationId }) => ({
      json: await reactivate(principal, params.id, correlationId),
    }),
  }),
  httpRoute({
    name: 'team-activity',
    route: 'auction-house/users/{id}/activity',
    methods: ['GET'],
    permission: 'users:view',
    params: idParams,
    query: activityQuerySchema,
    handler: async ({ principal, params, query }) => ({
      json: { days: query.days, activity: await activity(principal, params.id, query.days) },
    }),
  }),
  httpRoute({
    name: 'users-get',
    route: 'users/{id}',
    methods: ['GET'],
    permission: 'users:view',
    params: idParams,
    handler: async ({ principal, params }) => ({ json: await teamMember(principal, params.id) }),
  }),
  httpRoute({
    name: 'users-update',
    route: 'users/{id}',
    methods: ['PUT'],
    permission: 'users:edit',
    params: idParams,
    body: memberUpdateSchema,
    handler: async ({ principal, params, body, correlationId }) => ({
      json: await renameMember(principal, params.id, body.name, correlationId),
    }),
  }),
  httpRoute({
    name: 'users-invite-resend',
    route: 'users/{id}/invite',
    methods: ['POST'],
    permission: 'users:invite',
    params: idParams,
    handler: async ({ principal, params }) => ({
      json: invitationView(
        await resendInvitation(
          scopeOf(principal),
          { userId: principal.userId, name: principal.name, role: principal.role },
          params.id,
        ),
      ),
    }),
  }),
  httpRoute({
    name: 'users-reset-password',
    route: 'users/{id}/reset-password',
    methods: ['POST'],
    permission: 'users:edit',
    params: idParams,
    handler: async ({ principal, params }) => {
      await adminPasswordReset(
        scopeOf(principal),
        { userId: principal.userId, name: principal.name },
        params.id,
      );
      return { status: 202, json: { message: 'A password reset link was sent.' } };
    },
  }),
  httpRoute({
    name: 'house-users',
    route: 'auction-houses/{id}/users',
    methods: ['GET'],
    permission: 'users:view',
    params: idParams,
    handler: async ({ principal, params }) => {
      const account = await currentAccount(principal);
      if (!account.houses.some((house) => house.id === params.id))
        throw notFound('Auction house not found');
      const team = await listTeam(principal);
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
    permission: 'users:roles',
    body: houseAssignmentSchema,
    handler: async ({ principal, body, correlationId }) => ({
      json: await setHouseGrant(principal, body, true, correlationId),
    }),
  }),
  httpRoute({
    name: 'house-remove-user',
    route: 'auction-house/remove-user',
    methods: ['POST'],
    permission: 'users:roles',
    body: houseAssignmentSchema,
    handler: async ({ principal, body, correlationId }) => ({
      json: await setHouseGrant(principal, body, false, correlationId),
    }),
  }),
  httpRoute({
    name: 'house-invite-user',
    route: 'auction-house/invite-user',
    methods: ['POST'],
    permission: 'users:invite',
    body: inviteToHouseSchema,
    handler: async ({ principal, body, correlationId }) => ({
      status: 201,
      json: invitationView(
        await invite(
          principal,
          {
            email: body.email,
            role: body.role,
            permissions: [],
            personalMessage: body.personalMessage,
            auctionHouseIds: [body.houseId],
          },
          correlationId,
        ),
      ),
    }),
  }),
  httpRoute({
    name: 'user-house-access-update',
    route: 'users/{id}/auction-house-access',
    methods: ['PUT'],
    permission: 'users:roles',
    params: idParams,
    body: houseAccessUpdateSchema,
    handler: async ({ principal, params, body, correlationId }) => ({
      json: await replaceHouseAccess(principal, params.id, body.houses, correlationId),
    }),
  }),
];
