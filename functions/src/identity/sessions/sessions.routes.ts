import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { accountIdBodySchema } from '../accounts/accounts.schema.js';
import { idParamsSchema } from '../shared/common.schema.js';
import {
  exchangeSessionToken,
  refreshAccess,
  reissueAccess,
  renewSessionToken,
} from './access-token.service.js';
import {
  accessTokenRequestSchema,
  accessTokenResponseSchema,
  logoutRequestSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  revokedResponseSchema,
  sessionResponseSchema,
  sessionsResponseSchema,
  sessionTokenRequestSchema,
} from './sessions.schema.js';
import { clientInfo, endMySession, endSessions, logout, mySessions } from './sessions.service.js';

const bearer = (authorization: string | null) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];

/** Sessions and the tokens that stand for them: renewing, refreshing, switching, signing out. */
export const sessionFunctions: HttpFunction[] = [
  httpRoute({
    name: 'tokens-session',
    route: 'tokens/session',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: sessionTokenRequestSchema,
    response: sessionResponseSchema,
    handler: async ({ ctx, body, request }) => ({
      json: await renewSessionToken(ctx, body?.userId, clientInfo(request)),
    }),
  }),
  httpRoute({
    name: 'tokens-access',
    route: 'tokens/access',
    methods: ['POST'],
    // Authenticated by the session token in the Authorization header, checked by the service.
    permission: 'public',
    body: accessTokenRequestSchema,
    response: accessTokenResponseSchema,
    handler: async ({ body, request }) => ({
      json: await exchangeSessionToken(
        bearer(request.headers.get('authorization')),
        body,
        clientInfo(request),
      ),
    }),
  }),
  httpRoute({
    name: 'me-refresh',
    route: 'me/refresh',
    methods: ['POST'],
    permission: 'public',
    body: refreshRequestSchema,
    response: refreshResponseSchema,
    handler: async ({ body, request }) => ({
      json: await refreshAccess(body.refreshToken, clientInfo(request)),
    }),
  }),
  httpRoute({
    name: 'me-token',
    route: 'me/token',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: accessTokenResponseSchema,
    // A fresh access token for the same session and account, e.g. after a role change.
    handler: async ({ ctx, request }) => ({
      json: await reissueAccess(ctx, ctx.scope.accountId, clientInfo(request)),
    }),
  }),
  httpRoute({
    name: 'me-switch-account',
    route: 'me/switch-account',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: accountIdBodySchema,
    response: accessTokenResponseSchema,
    handler: async ({ ctx, body, request }) => ({
      json: await reissueAccess(ctx, body.accountId, clientInfo(request)),
    }),
  }),
  httpRoute({
    name: 'logout',
    route: 'logout',
    methods: ['POST'],
    permission: 'public',
    body: logoutRequestSchema.optional(),
    handler: async ({ ctx, body }) => {
      await logout(ctx, body?.refreshToken);
      return { status: 204 };
    },
  }),
  ...(['me/sessions', 'sessions'] as const).map((route) =>
    httpRoute({
      name: route === 'sessions' ? 'sessions-list' : 'me-sessions-list',
      route,
      methods: ['GET'],
      permission: 'authenticated',
      allowDuringMfaSetup: true,
      response: sessionsResponseSchema,
      handler: async ({ ctx }) => ({ json: { sessions: await mySessions(ctx) } }),
    }),
  ),
  httpRoute({
    name: 'me-sessions-revoke',
    route: 'me/sessions/{id}',
    methods: ['DELETE'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: idParamsSchema,
    handler: async ({ ctx, params }) => {
      await endMySession(ctx, params.id);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'me-sessions-revoke-all',
    route: 'me/sessions',
    methods: ['DELETE'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      await endSessions(ctx.actor.userId, 'signed-out-everywhere');
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'sessions-revoke-others',
    route: 'sessions/revoke-others',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: revokedResponseSchema,
    handler: async ({ ctx }) => ({
      json: {
        revoked: await endSessions(ctx.actor.userId, 'revoked-by-user', {
          except: ctx.actor.sessionId,
        }),
      },
    }),
  }),
];
