import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { idParamsSchema } from '../shared/common.schema.js';
import { profileUpdateSchema, userViewSchema } from '../shared/users.schema.js';
import { signedInUser, toUserView, updateProfile } from '../shared/users.service.js';
import {
  accountAccessListSchema,
  accountCreateSchema,
  accountIdBodySchema,
  accountUpdateSchema,
  accountViewSchema,
  defaultAccountResponseSchema,
  featuresResponseSchema,
  groupInputSchema,
  groupSchema,
  groupsResponseSchema,
  groupUpdateSchema,
  houseInputSchema,
  houseSchema,
  housesResponseSchema,
  houseUpdateSchema,
  meResponseSchema,
  myHouseAccessSchema,
} from './accounts.schema.js';
import {
  accountById,
  createAccount,
  createGroup,
  createHouse,
  currentAccount,
  deleteAccount,
  deleteGroup,
  deleteHouse,
  featureFlags,
  listGroups,
  listHouses,
  me,
  myAccounts,
  myHouseAccess,
  setDefaultAccount,
  updateAccount,
  getGroup,
  getHouse,
  updateGroup,
  updateHouse,
} from './accounts.service.js';

/** Accounts, auction houses, groups and the signed-in person's own profile. */
export const accountFunctions: HttpFunction[] = [
  ...(['accounts', 'users/me/accounts'] as const).map((route) =>
    httpRoute({
      name: route === 'accounts' ? 'accounts-list' : 'users-me-accounts',
      route,
      methods: ['GET'],
      permission: 'authenticated',
      allowDuringMfaSetup: true,
      response: accountAccessListSchema,
      handler: async ({ ctx }) => ({ json: { accounts: await myAccounts(ctx) } }),
    }),
  ),
  httpRoute({
    name: 'accounts-current',
    route: 'accounts/current',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: accountViewSchema,
    handler: async ({ ctx }) => {
      const account = await currentAccount(ctx);
      return { json: account, etag: account.etag };
    },
  }),
  httpRoute({
    name: 'accounts-create',
    route: 'accounts/create',
    methods: ['POST'],
    permission: 'authenticated',
    body: accountCreateSchema,
    response: accountViewSchema,
    handler: async ({ ctx, body }) => {
      const account = await createAccount(ctx, body);
      return { status: 201, json: account, etag: account.etag };
    },
  }),
  httpRoute({
    name: 'accounts-set-default',
    route: 'accounts/set-default',
    methods: ['POST'],
    permission: 'authenticated',
    body: accountIdBodySchema,
    response: defaultAccountResponseSchema,
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
    params: idParamsSchema,
    response: accountViewSchema,
    handler: async ({ ctx, params }) => {
      const account = await accountById(ctx, params.id);
      return { json: account, etag: account.etag };
    },
  }),
  httpRoute({
    name: 'accounts-update',
    route: 'accounts/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    callers: 'people',
    params: idParamsSchema,
    body: accountUpdateSchema,
    response: accountViewSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, params, body, ifMatch }) => {
      const account = await updateAccount(ctx, params.id, ifMatch, body);
      return { json: account, etag: account.etag };
    },
  }),
  httpRoute({
    name: 'accounts-delete',
    route: 'accounts/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    callers: 'people',
    params: idParamsSchema,
    handler: async ({ ctx, params }) => {
      await deleteAccount(ctx, params.id);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'users-me',
    route: 'users/me',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: meResponseSchema,
    handler: async ({ ctx }) => ({ json: await me(ctx) }),
  }),
  httpRoute({
    name: 'users-me-profile',
    route: 'users/me/profile',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: userViewSchema,
    handler: async ({ ctx }) => {
      const user = toUserView(await signedInUser(ctx));
      return { json: user, etag: user.etag };
    },
  }),
  httpRoute({
    name: 'users-me-profile-update',
    route: 'users/me/profile',
    methods: ['PUT'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: profileUpdateSchema,
    response: userViewSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, body, ifMatch }) => {
      const user = toUserView(await updateProfile(ctx, ifMatch, body));
      return { json: user, etag: user.etag };
    },
  }),
  httpRoute({
    name: 'user-house-access',
    route: 'user/auction-house-access',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: myHouseAccessSchema,
    handler: async ({ ctx }) => ({ json: await myHouseAccess(ctx) }),
  }),
  httpRoute({
    name: 'houses-list',
    route: 'accounts/current/auction-houses',
    methods: ['GET'],
    permission: 'authenticated',
    response: housesResponseSchema,
    handler: async ({ ctx }) => ({ json: { houses: await listHouses(ctx) } }),
  }),
  httpRoute({
    name: 'houses-create',
    route: 'accounts/current/auction-houses',
    methods: ['POST'],
    permission: 'system:settings',
    callers: 'people',
    body: houseInputSchema,
    response: houseSchema,
    handler: async ({ ctx, body }) => {
      const house = await createHouse(ctx, body);
      return { status: 201, json: house, etag: house.etag };
    },
  }),
  httpRoute({
    name: 'houses-get',
    route: 'auction-houses/{id}',
    methods: ['GET'],
    permission: 'authenticated',
    params: idParamsSchema,
    response: houseSchema,
    handler: async ({ ctx, params }) => {
      const house = await getHouse(ctx, params.id);
      return { json: house, etag: house.etag };
    },
  }),
  httpRoute({
    name: 'houses-update',
    route: 'auction-houses/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    callers: 'people',
    params: idParamsSchema,
    body: houseUpdateSchema,
    response: houseSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, params, body, ifMatch }) => {
      const house = await updateHouse(ctx, params.id, ifMatch, body);
      return { json: house, etag: house.etag };
    },
  }),
  httpRoute({
    name: 'houses-delete',
    route: 'auction-houses/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    callers: 'people',
    params: idParamsSchema,
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
    response: groupsResponseSchema,
    handler: async ({ ctx }) => ({ json: { groups: await listGroups(ctx) } }),
  }),
  httpRoute({
    name: 'groups-create',
    route: 'auction-house-groups',
    methods: ['POST'],
    permission: 'system:settings',
    callers: 'people',
    body: groupInputSchema,
    response: groupSchema,
    handler: async ({ ctx, body }) => {
      const group = await createGroup(ctx, body);
      return { status: 201, json: group, etag: group.etag };
    },
  }),
  httpRoute({
    name: 'groups-get',
    route: 'auction-house-groups/{id}',
    methods: ['GET'],
    permission: 'authenticated',
    params: idParamsSchema,
    response: groupSchema,
    handler: async ({ ctx, params }) => {
      const group = await getGroup(ctx, params.id);
      return { json: group, etag: group.etag };
    },
  }),
  httpRoute({
    name: 'groups-update',
    route: 'auction-house-groups/{id}',
    methods: ['PUT'],
    permission: 'system:settings',
    callers: 'people',
    params: idParamsSchema,
    body: groupUpdateSchema,
    response: groupSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, params, body, ifMatch }) => {
      const group = await updateGroup(ctx, params.id, ifMatch, body);
      return { json: group, etag: group.etag };
    },
  }),
  httpRoute({
    name: 'groups-delete',
    route: 'auction-house-groups/{id}',
    methods: ['DELETE'],
    permission: 'system:settings',
    callers: 'people',
    params: idParamsSchema,
    handler: async ({ ctx, params }) => {
      await deleteGroup(ctx, params.id);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'features',
    route: 'features',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: featuresResponseSchema,
    handler: async ({ ctx }) => ({ json: await featureFlags(ctx) }),
  }),
];
