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
    handler: async ({ principal }) => {
      const user = requireUser(await usersRepo.find(principal.userId));
      return { json: { accounts: await accountAccessList(user.id, user.defaultAccountId) } };
    },
  }),
  httpRoute({
    name: 'accounts-current',
    route: 'accounts/current',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ principal }) => ({ json: await currentAccount(principal) }),
  }),
  httpRoute({
    name: 'accounts-create',
    route: 'accounts/create',
    methods: ['POST'],
    permission: 'authenticated',
    body: accountCreateSchema,
    handler: async ({ principal, body }) => ({
      status: 201,
      json: await createAccount(principal, body),
    }),
  }),
  httpRoute({
    name: 'accounts-set-default',
    route: 'accounts/set-default',
    methods: ['POST'],
    permission: 'authenticated',
    body: accountIdBodySchema,
    handler: async ({ principal, body }) => {
      await setDefaultAccount(principal, body.accountId);
      return { json: { defaultAccountId: body.accountId } };
    },
  }),
  httpRoute({
    name: 'accounts-get',
    route: 'accounts/{id}',
    methods: ['GET'],
    permission: 'authenticated',
    params: idParams,
    handler: async ({ principal, params }) => ({ json: await accountById(principal, params.id) }),
  }),
  httpRoute({
    name: 'accounts-update',
    route: 'accounts/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    params: idParams,
    body: accountUpdateSchema,
    handler: async ({ principal, params, body, correlationId }) => ({
      json: await updateAccount(principal, params.id, body, correlationId),
    }),
  }),
  httpRoute({
    name: 'accounts-delete',
    route: 'accounts/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    params: idParams,
    handler: async ({ principal, params, correlationId }) => {
      await deleteAccount(principal, params.id, correlationId);
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
    handler: async ({ principal, body, request }) => {
      const user = requireUser(await usersRepo.find(principal.userId));
      const session = await findLiveSession(principal.userId, principal.sessionId);
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
    handler: async ({ principal }) => {
      const user = requireUser(await usersRepo.find(principal.userId));
      return {
        json: {
          user: toUserView(user),
          accounts: await accountAccessList(user.id, user.defaultAccountId),
          account: await currentAccount(principal),
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
    handler: async ({ principal }) => ({
      json: toUserView(requireUser(await usersRepo.find(principal.userId))),
    }),
  }),
  httpRoute({
    name: 'users-me-profile-update',
    route: 'users/me/profile',
    methods: ['PUT'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: profileUpdateSchema,
    handler: async ({ principal, body }) => {
      const user = requireUser(await usersRepo.find(principal.userId));
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
    handler: async ({ principal }) => {
      const account = await currentAccount(principal);
      return { json: { role: account.role, houses: account.houseAccess } };
    },
  }),
  httpRoute({
    name: 'houses-list',
    route: 'accounts/current/auction-houses',
    methods: ['GET'],
    permission: 'authenticated',
    handler: async ({ principal }) => ({
      json: { houses: (await currentAccount(principal)).houses },
    }),
  }),
  httpRoute({
    name: 'houses-create',
    route: 'accounts/current/auction-houses',
    methods: ['POST'],
    permission: 'system:settings',
    body: houseInputSchema,
    handler: async ({ principal, body, correlationId }) => ({
      status: 201,
      json: await createHouse(principal, body, correlationId),
    }),
  }),
  httpRoute({
    name: 'houses-update',
    route: 'auction-houses/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    params: idParams,
    body: houseUpdateSchema,
    handler: async ({ principal, params, body, correlationId }) => ({
      json: await updateHouse(principal, params.id, body, correlationId),
    }),
  }),
  httpRoute({
    name: 'houses-delete',
    route: 'auction-houses/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    params: idParams,
    handler: async ({ principal, params, correlationId }) => {
      await deleteHouse(principal, params.id, correlationId);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'groups-list',
    route: 'auction-house-groups',
    methods: ['GET'],
    permission: 'authenticated',
    handler: async ({ principal }) => ({ json: { groups: await listGroups(principal) } }),
  }),
  httpRoute({
    name: 'groups-create',
    route: 'auction-house-groups',
    methods: ['POST'],
    permission: 'system:settings',
    body: groupInputSchema,
    handler: async ({ principal, body, correlationId }) => ({
      status: 201,
      json: await createGroup(principal, body, correlationId),
    }),
  }),
  httpRoute({
    name: 'groups-update',
    route: 'auction-house-groups/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    params: idParams,
    body: groupUpdateSchema,
    handler: async ({ principal, params, body, correlationId }) => ({
      json: await updateGroup(principal, params.id, body, correlationId),
    }),
  }),
  httpRoute({
    name: 'groups-delete',
    route: 'auction-house-groups/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    params: idParams,
    handler: async ({ principal, params, correlationId }) => {
      await deleteGroup(principal, params.id, correlationId);
      return { status: 204 };
    },
  }),
];
