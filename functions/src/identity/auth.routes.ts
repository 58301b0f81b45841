import { z } from 'zod';
import type { HttpFunction } from '../platform/functions.js';
import type { UserContext } from '../platform/context.js';
import { httpRoute } from '../platform/http.js';
import { notFound, unauthorized } from '../platform/errors.js';
import { settings } from '../platform/settings.js';
import { accountAccessList } from './account-access.js';
import { grantAccess } from './access-token.service.js';
import { toUserView } from './access.js';
import {
  changeEmail,
  changePassword,
  requestPasswordReset,
  requireUser,
  resetPassword,
} from './credentials.service.js';
import { sendEmailVerification, verifyEmail } from './email-verification.service.js';
import {
  accessTokenRequestSchema,
  changeEmailSchema,
  emailSchema,
  changePasswordSchema,
  generatePasswordSchema,
  loginRequestSchema,
  logoutRequestSchema,
  oauthCallbackSchema,
  passwordBodySchema,
  providerLoginSchema,
  refreshRequestSchema,
  resetPasswordSchema,
  resetRequestSchema,
  signupRequestSchema,
  tokenBodySchema,
} from './identity.schema.js';
import { describeInvitation } from './invitations.service.js';
import { login, openSession } from './login.service.js';
import {
  completeRedirect,
  providers,
  signInWithMicrosoft,
  startRedirect,
} from './microsoft.service.js';
import {
  generatePassword,
  passwordPolicy,
  passwordProblems,
  passwordStrength,
} from './passwords.js';
import {
  clientInfo,
  findLiveSession,
  liveSessionsOf,
  revokeSession,
  rotateRefreshToken,
  sessionFromToken,
  sessionOfRefreshToken,
  touchSession,
  toSessionView,
} from './sessions.service.js';
import { signup } from './signup.service.js';
import { usersRepo } from './users.repo.js';

const bearer = (authorization: string | null) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];

async function sessionOf(ctx: UserContext) {
  const session = await findLiveSession(ctx.actor.userId, ctx.actor.sessionId);
  if (!session) throw unauthorized('This sign-in has ended. Sign in again.');
  return session;
}

/** Sign-up, sign-in, tokens, sessions, passwords and email: the public edge of identity. */
export const authFunctions: HttpFunction[] = [
  httpRoute({
    name: 'signup',
    route: 'signup',
    methods: ['POST'],
    permission: 'public',
    body: signupRequestSchema,
    handler: async ({ body, request }) => ({
      status: 201,
      json: await signup(body, clientInfo(request)),
    }),
  }),
  httpRoute({
    name: 'login',
    route: 'login',
    methods: ['POST'],
    permission: 'public',
    body: loginRequestSchema,
    handler: async ({ body, request }) => ({ json: await login(body, clientInfo(request)) }),
  }),
  httpRoute({
    name: 'invitation-validate',
    route: 'invitation/validate/{token}',
    methods: ['GET'],
    permission: 'public',
    params: z.object({ token: z.string().min(10).max(200) }),
    handler: async ({ params }) => ({ json: await describeInvitation(params.token) }),
  }),
  httpRoute({
    name: 'tokens-session',
    route: 'tokens/session',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: z.object({ userId: z.string().min(1) }).optional(),
    // A new session token for the signed-in session (the old one stops working).
    handler: async ({ ctx, body, request }) => {
      if (body?.userId && body.userId !== ctx.actor.userId)
        throw unauthorized('That is not your user id');
      const session = await sessionOf(ctx);
      await revokeSession(session, 'session-token-renewed');
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      return { json: await openSession(user, clientInfo(request), ctx.scope.accountId) };
    },
  }),
  httpRoute({
    name: 'tokens-access',
    route: 'tokens/access',
    methods: ['POST'],
    // Authenticated by the session token in the Authorization header, checked here.
    permission: 'public',
    body: accessTokenRequestSchema,
    handler: async ({ body, request }) => {
      const token = bearer(request.headers.get('authorization'));
      if (!token) throw unauthorized('No session token found. Please login first.');
      const session = await sessionFromToken(token);
      if (session.userId !== body.userId)
        throw unauthorized('The session does not belong to this user');
      const user = requireUser(await usersRepo.find(session.userId));
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
    name: 'me-refresh',
    route: 'me/refresh',
    methods: ['POST'],
    permission: 'public',
    body: refreshRequestSchema,
    handler: async ({ body, request }) => {
      const { session, refreshToken } = await rotateRefreshToken(body.refreshToken);
      const user = requireUser(await usersRepo.find(session.userId));
      if (!session.accountId) {
        await touchSession(session);
        return { json: { accessToken: null, accessTokenExpiresAt: null, refreshToken } };
      }
      const granted = await grantAccess({
        user,
        session,
        accountId: session.accountId,
        client: clientInfo(request),
      });
      return {
        json: {
          accessToken: granted.accessToken,
          accessTokenExpiresAt: granted.accessTokenExpiresAt,
          refreshToken,
        },
      };
    },
  }),
  httpRoute({
    name: 'me-token',
    route: 'me/token',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    // A fresh access token for the same session and account, e.g. after a role change.
    handler: async ({ ctx, request }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      const session = await sessionOf(ctx);
      return {
        json: await grantAccess({
          user,
          session,
          accountId: ctx.scope.accountId,
          client: clientInfo(request),
        }),
      };
    },
  }),
  httpRoute({
    name: 'logout',
    route: 'logout',
    methods: ['POST'],
    permission: 'public',
    body: logoutRequestSchema.optional(),
    handler: async ({ body, ctx }) => {
      const fromRefresh = body?.refreshToken
        ? await sessionOfRefreshToken(body.refreshToken)
        : undefined;
      const fromAccess = ctx.caller
        ? await findLiveSession(ctx.caller.actor.userId, ctx.caller.actor.sessionId)
        : undefined;
      const session = fromRefresh ?? fromAccess;
      if (!session) throw unauthorized('Nothing to sign out of');
      await revokeSession(session, 'logout');
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
      handler: async ({ ctx }) => ({
        json: {
          sessions: (await liveSessionsOf(ctx.actor.userId))
            .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt))
            .map((session) => toSessionView(session, ctx.actor.sessionId)),
        },
      }),
    }),
  ),
  httpRoute({
    name: 'me-sessions-revoke',
    route: 'me/sessions/{id}',
    methods: ['DELETE'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: z.object({ id: z.string().min(1).max(100) }),
    handler: async ({ ctx, params }) => {
      const session = await findLiveSession(ctx.actor.userId, params.id);
      if (!session) throw unauthorized('That session has already ended');
      await revokeSession(session, 'revoked-by-user');
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
      await Promise.all(
        (await liveSessionsOf(ctx.actor.userId)).map((session) =>
          revokeSession(session, 'signed-out-everywhere'),
        ),
      );
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'sessions-revoke-others',
    route: 'sessions/revoke-others',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const others = (await liveSessionsOf(ctx.actor.userId)).filter(
        (session) => session.id !== ctx.actor.sessionId,
      );
      await Promise.all(others.map((session) => revokeSession(session, 'revoked-by-user')));
      return { json: { revoked: others.length } };
    },
  }),
  httpRoute({
    name: 'passwords-policy',
    route: 'passwords/policy',
    methods: ['GET'],
    permission: 'public',
    handler: async () => ({ json: passwordPolicy }),
  }),
  httpRoute({
    name: 'passwords-validate',
    route: 'passwords/validate',
    methods: ['POST'],
    permission: 'public',
    body: passwordBodySchema,
    handler: async ({ body }) => {
      const errors = await passwordProblems(body.password, { email: body.email, name: body.name });
      return { json: { valid: errors.length === 0, errors } };
    },
  }),
  httpRoute({
    name: 'passwords-strength',
    route: 'passwords/strength',
    methods: ['POST'],
    permission: 'public',
    body: passwordBodySchema,
    handler: async ({ body }) => ({
      json: await passwordStrength(
        body.password,
        [body.email, body.name].filter((part): part is string => Boolean(part)),
      ),
    }),
  }),
  httpRoute({
    name: 'passwords-generate',
    route: 'passwords/generate',
    methods: ['POST'],
    permission: 'public',
    body: generatePasswordSchema,
    handler: async ({ body }) => ({ json: { password: generatePassword(body.length) } }),
  }),
  httpRoute({
    name: 'password-reset-request',
    route: 'password/reset-request',
    methods: ['POST'],
    permission: 'public',
    body: resetRequestSchema,
    handler: async ({ body }) => {
      await requestPasswordReset(body.email);
      return {
        status: 202,
        json: {
          message: 'If that email belongs to a Lotwise sign-in, a reset link is on its way.',
        },
      };
    },
  }),
  httpRoute({
    name: 'password-reset',
    route: 'password/reset',
    methods: ['POST'],
    permission: 'public',
    body: resetPasswordSchema,
    handler: async ({ body }) => {
      await resetPassword(body.token, body.newPassword);
      return { json: { message: 'Your password was changed. Sign in with the new one.' } };
    },
  }),
  ...(['verify-email', 'users/verify-email'] as const).map((route) =>
    httpRoute({
      name: route === 'verify-email' ? 'verify-email' : 'users-verify-email',
      route,
      methods: ['POST'],
      permission: 'public',
      body: tokenBodySchema,
      handler: async ({ body }) => {
        await verifyEmail(body.token);
        return { json: { verified: true } };
      },
    }),
  ),
  httpRoute({
    name: 'verify-email-resend',
    route: 'verify-email/resend',
    methods: ['POST'],
    // Signed in, or by email for someone an account turned away until they confirm it; the
    // answer never says whether the email is known.
    permission: 'public',
    body: z.object({ email: emailSchema }).optional(),
    handler: async ({ ctx, body }) => {
      const user = ctx.caller
        ? await usersRepo.find(ctx.caller.actor.userId)
        : body?.email
          ? await usersRepo.findByEmail(body.email)
          : undefined;
      if (!ctx.caller && !body?.email)
        throw unauthorized('Sign in, or give the email address to confirm');
      if (user && user.status === 'active' && !user.emailVerified)
        await sendEmailVerification(user);
      return {
        status: 202,
        json: { message: 'If the address still needs confirming, a new link is on its way.' },
      };
    },
  }),
  httpRoute({
    name: 'me-change-password',
    route: 'users/me/change-password',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: changePasswordSchema,
    handler: async ({ ctx, body, request }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      await changePassword(user, body, ctx.actor.sessionId, clientInfo(request));
      return {
        json: { message: 'Your password was changed. Your other sessions were signed out.' },
      };
    },
  }),
  httpRoute({
    name: 'me-change-email',
    route: 'users/me/change-email',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: changeEmailSchema,
    handler: async ({ ctx, body, request }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      const updated = await changeEmail(user, body, clientInfo(request));
      return {
        json: {
          user: toUserView(updated),
          message: `Confirm ${updated.email} from the link we sent there.`,
        },
      };
    },
  }),
  httpRoute({
    name: 'auth-providers',
    route: 'auth/providers',
    methods: ['GET'],
    permission: 'public',
    handler: async () => ({
      json: { providers: providers(), demo: Boolean(settings().DEMO_USER_EMAIL) },
    }),
  }),
  httpRoute({
    name: 'login-demo',
    route: 'login/demo',
    methods: ['POST'],
    // Signs in to the seeded demo tenant; exists only where DEMO_USER_EMAIL is set (never in production).
    permission: 'public',
    handler: async ({ request }) => {
      const email = settings().DEMO_USER_EMAIL;
      if (!email) throw notFound('The demo is not available here');
      const user = await usersRepo.findByEmail(email);
      if (!user) throw notFound('The demo tenant has not been created');
      return { json: await openSession(user, clientInfo(request)) };
    },
  }),
  httpRoute({
    name: 'login-provider',
    route: 'login/{provider}',
    methods: ['POST'],
    permission: 'public',
    params: z.object({
      provider: z.literal('microsoft', { message: 'is not a sign-in provider Lotwise offers' }),
    }),
    body: providerLoginSchema.partial({ idToken: true }),
    handler: async ({ body, request }) =>
      body.idToken
        ? {
            json: await signInWithMicrosoft(body.idToken, body.invitationCode, clientInfo(request)),
          }
        : { json: await startRedirect(body.invitationCode) },
  }),
  httpRoute({
    name: 'oauth-callback',
    route: 'oauth/callback',
    methods: ['POST'],
    permission: 'public',
    body: oauthCallbackSchema,
    handler: async ({ body, request }) => ({
      json: await completeRedirect(body.code, body.state, clientInfo(request)),
    }),
  }),
  httpRoute({
    name: 'users-me-accounts',
    route: 'users/me/accounts',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const user = requireUser(await usersRepo.find(ctx.actor.userId));
      return { json: { accounts: await accountAccessList(user.id, user.defaultAccountId) } };
    },
  }),
];
