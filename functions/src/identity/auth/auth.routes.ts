import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { settings } from '../../platform/settings.js';
import { sessionResponseSchema } from '../sessions/sessions.schema.js';
import { clientInfo } from '../sessions/sessions.service.js';
import { idParamsSchema, messageSchema } from '../shared/common.schema.js';
import { toUserView } from '../shared/users.service.js';
import {
  changeEmailResponseSchema,
  changeEmailSchema,
  changePasswordSchema,
  generatedPasswordSchema,
  generatePasswordSchema,
  loginRequestSchema,
  loginResponseSchema,
  oauthCallbackSchema,
  passwordBodySchema,
  passwordPolicySchema,
  passwordStrengthSchema,
  passwordValidationSchema,
  providerLoginResponseSchema,
  providerLoginSchema,
  providerParamsSchema,
  providersResponseSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  resetRequestSchema,
  signupRequestSchema,
  tokenBodySchema,
  verifiedResponseSchema,
} from './auth.schema.js';
import { login, signup } from './auth.service.js';
import {
  changeEmail,
  changePassword,
  requestPasswordReset,
  resendEmailVerification,
  resetMemberPassword,
  resetPassword,
  verifyEmail,
} from './credentials.service.js';
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

/** Sign-up, sign-in, passwords and email: the public edge of identity. */
export const authFunctions: HttpFunction[] = [
  httpRoute({
    name: 'signup',
    route: 'signup',
    methods: ['POST'],
    permission: 'public',
    body: signupRequestSchema,
    response: sessionResponseSchema,
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
    response: loginResponseSchema,
    handler: async ({ body, request }) => ({ json: await login(body, clientInfo(request)) }),
  }),
  httpRoute({
    name: 'passwords-policy',
    route: 'passwords/policy',
    methods: ['GET'],
    permission: 'public',
    response: passwordPolicySchema,
    handler: async () => ({ json: passwordPolicy }),
  }),
  httpRoute({
    name: 'passwords-validate',
    route: 'passwords/validate',
    methods: ['POST'],
    permission: 'public',
    body: passwordBodySchema,
    response: passwordValidationSchema,
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
    response: passwordStrengthSchema,
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
    response: generatedPasswordSchema,
    handler: async ({ body }) => ({ json: { password: generatePassword(body.length) } }),
  }),
  httpRoute({
    name: 'password-reset-request',
    route: 'password/reset-request',
    methods: ['POST'],
    permission: 'public',
    body: resetRequestSchema,
    response: messageSchema,
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
    response: messageSchema,
    handler: async ({ body }) => {
      await resetPassword(body.token, body.newPassword);
      return { json: { message: 'Your password was changed. Sign in with the new one.' } };
    },
  }),
  httpRoute({
    name: 'users-reset-password',
    route: 'users/{id}/reset-password',
    methods: ['POST'],
    permission: 'users:password_reset',
    callers: 'people',
    params: idParamsSchema,
    response: messageSchema,
    handler: async ({ ctx, params }) => {
      await resetMemberPassword(ctx, params.id);
      return { status: 202, json: { message: 'A password reset link was sent.' } };
    },
  }),
  ...(['verify-email', 'users/verify-email'] as const).map((route) =>
    httpRoute({
      name: route === 'verify-email' ? 'verify-email' : 'users-verify-email',
      route,
      methods: ['POST'],
      permission: 'public',
      body: tokenBodySchema,
      response: verifiedResponseSchema,
      handler: async ({ body }) => {
        await verifyEmail(body.token);
        return { json: { verified: true as const } };
      },
    }),
  ),
  httpRoute({
    name: 'verify-email-resend',
    route: 'verify-email/resend',
    methods: ['POST'],
    // Signed in, or by email for someone an account turned away until they confirm it.
    permission: 'public',
    body: resendVerificationSchema,
    response: messageSchema,
    handler: async ({ ctx, body }) => {
      await resendEmailVerification(ctx, body?.email);
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
    response: messageSchema,
    handler: async ({ ctx, body, request }) => {
      await changePassword(ctx, body, clientInfo(request));
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
    response: changeEmailResponseSchema,
    handler: async ({ ctx, body, request }) => {
      const updated = await changeEmail(ctx, body, clientInfo(request));
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
    response: providersResponseSchema,
    handler: async () => ({
      json: { providers: providers(), demo: settings().DEMO_ENABLED },
    }),
  }),
  httpRoute({
    name: 'login-provider',
    route: 'login/{provider}',
    methods: ['POST'],
    permission: 'public',
    params: providerParamsSchema,
    body: providerLoginSchema.partial({ idToken: true }),
    response: providerLoginResponseSchema,
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
    response: sessionResponseSchema,
    handler: async ({ body, request }) => ({
      json: await completeRedirect(body.code, body.state, clientInfo(request)),
    }),
  }),
];
