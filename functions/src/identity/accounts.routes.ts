import { z } from 'zod';
import type { HttpFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { accountAccessList } from './account-access.js';
import { grantAccess } from './access-token.service.js';
import { toUserView } from './access.js';
import {
  accountById,
  createAccount,
  createGroup,
  createHouse,
  currentAccount,
  deleteAccount,
  deleteGroup,
  deleteHouse,
  listGroups,
  setDefaultAccount,
  updateAccount,
  updateGroup,
  updateHouse,
} from './accounts.service.js';
import { requireUser } from './credentials.service.js';
import {
  accountCreateSchema,
  accountIdBodySchema,
  accountUpdateSchema,
  groupInputSchema,
  groupUpdateSchema,
  houseInputSchema,
  houseUpdateSchema,
  profileUpdateSchema,
} from './identity.schema.js';
import { clientInfo, findLiveSession } from './sessions.service.js';
import { usersRepo } from './users.repo.js';
import { unauthorized } from '../platform/errors.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** Accounts, auction houses, groups and the signed-in person's own profile. */
export const accountFunctions: HttpFunction[] = [
  httpRoute({
    name: 'accounts-list',
    route: 'accounts',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      return { json: { accounts: await accountAccessList(user.id, user.defaultAccountId) } };
    },
  }),
  httpRoute({
    name: 'accounts-current',
    route: 'accounts/current',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => ({ json: await currentAccount(ctx) }),
  }),
  httpRoute({
    name: 'accounts-create',
    route: 'accounts/create',
    methods: ['POST'],
    permission: 'authenticated',
    body: accountCreateSchema,
    handler: async ({ ctx, body }) => ({
      status: 201,
      json: await createAccount(ctx, body),
    }),
  }),
  httpRoute({
    name: 'accounts-set-default',
    route: 'accounts/set-default',
    methods: ['POST'],
    permission: 'authenticated',
    body: accountIdBodySchema,
    handler: async ({ ctx, body }) => {
      await setDefaultAccount(ctx, body.accountId);
      return { json: { defaultAccountId: body.accountId } };
    },
  }),
  httpRoute({
    name: 'accounts-get',
    route: 'accounts/{id}',
    methods: ['GET'],
    permission: 'authenticated',
    params: idParams,
    handler: async ({ ctx, params }) => ({ json: await accountById(ctx, params.id) }),
  }),
  httpRoute({
    name: 'accounts-update',
    route: 'accounts/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    params: idParams,
    body: accountUpdateSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await updateAccount(ctx, params.id, body),
    }),
  }),
  httpRoute({
    name: 'accounts-delete',
    route: 'accounts/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    params: idParams,
    handler: async ({ ctx, params }) => {
      await deleteAccount(ctx, params.id);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'me-switch-account',
    route: 'me/switch-account',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: accountIdBodySchema,
    handler: async ({ ctx, body, request }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      const session = await findLiveSession(ctx.actor.userId, ctx.actor.sessionId);
      if (!session) throw unauthorized('This sign-in has ended. Sign in again.');
      return {
        json: await grantAccess({
          user,
          session,
          accountId: body.accountId,
          client: clientInfo(request),
        }),
      };
    },
  }),
  httpRoute({
    name: 'users-me',
    route: 'users/me',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      return {
        json: {
          user: toUserView(user),
          accounts: await accountAccessList(user.id, user.defaultAccountId),
          account: await currentAccount(ctx),
        },
      };
    },
  }),
  httpRoute({
    name: 'users-me-profile',
    route: 'users/me/profile',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => ({
      json: toUserView(requireUser(await usersRepo.find(ctx.actor.userId))),
    }),
  }),
  httpRoute({
    name: 'users-me-profile-update',
    route: 'users/me/profile',
    methods: ['PUT'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: profileUpdateSchema,
    handler: async ({ ctx, body }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      const changes = Object.fromEntries(
        Object.entries(body).filter(([, value]) => value !== undefined),
      );
      return { json: toUserView(await usersRepo.replace({ ...user, ...changes })) };
    },
  }),
  httpRoute({
    name: 'user-house-access',
    route: 'user/auction-house-access',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const account = await currentAccount(ctx);
      return { json: { role: account.role, houses: account.houseAccess } };
    },
  }),
  httpRoute({
    name: 'houses-list',
    route: 'accounts/current/auction-houses',
    methods: ['GET'],
    permission: 'authenticated',
    handler: async ({ ctx }) => ({
      json: { houses: (await currentAccount(ctx)).houses },
    }),
  }),
  httpRoute({
    name: 'houses-create',
    route: 'accounts/current/auction-houses',
    methods: ['POST'],
    permission: 'system:settings',
    body: houseInputSchema,
    handler: async ({ ctx, body }) => ({
      status: 201,
      json: await createHouse(ctx, body),
    }),
  }),
  httpRoute({
    name: 'houses-update',
    route: 'auction-houses/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    params: idParams,
    body: houseUpdateSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await updateHouse(ctx, params.id, body),
    }),
  }),
  httpRoute({
    name: 'houses-delete',
    route: 'auction-houses/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    params: idParams,
    handler: async ({ ctx, params }) => {
      await deleteHouse(ctx, params.id);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'groups-list',
    route: 'auction-house-groups',
    methods: ['GET'],
    permission: 'authenticated',
    handler: async ({ ctx }) => ({ json: { groups: await listGroups(ctx) } }),
  }),
  httpRoute({
    name: 'groups-create',
    route: 'auction-house-groups',
    methods: ['POST'],
    permission: 'system:settings',
    body: groupInputSchema,
    handler: async ({ ctx, body }) => ({
      status: 201,
      json: await createGroup(ctx, body),
    }),
  }),
  httpRoute({
    name: 'groups-update',
    route: 'auction-house-groups/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    params: idParams,
    body: groupUpdateSchema,
    handler: async ({ ctx, params, body }) => ({
      json: await updateGroup(ctx, params.id, body),
    }),
  }),
  httpRoute({
    name: 'groups-delete',
    route: 'auction-house-groups/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    params: idParams,
    handler: async ({ ctx, params }) => {
      await deleteGroup(ctx, params.id);
      return { status: 204 };
    },
  }),
];
