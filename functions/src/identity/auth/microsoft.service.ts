import { createHash } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import { z } from 'zod';
import { AppError, notFound, unauthorized } from '../../platform/errors.js';
import { randomToken } from '../../platform/secrets.js';
import { settings } from '../../platform/settings.js';
import { validationError } from '../../platform/validation.js';
import { createOwnedAccount } from '../accounts/accounts.service.js';
import { openSession } from '../sessions/access-token.service.js';
import { issueLink, spendLink, usableLink } from '../sessions/one-time-tokens.service.js';
import type { SessionResponse } from '../sessions/sessions.schema.js';
import type { ClientInfo } from '../sessions/sessions.service.js';
import {
  createUser,
  linkMicrosoftId,
  newUserRecord,
  removeUser,
  saveUser,
  userByEmail,
  userByMicrosoftId,
} from '../shared/users.service.js';
import { acceptInvitation } from '../team/invitations.service.js';

interface EntraConfig {
  clientId: string;
  tenantId: string;
  authority: string;
  issuer: string;
  redirectUri: string;
  clientSecret: string | undefined;
}

/** Entra settings, or a 404 when Microsoft sign-in is not set up for this deployment. */
export function entraConfig(): EntraConfig {
  const config = settings();
  if (!config.ENTRA_CLIENT_ID || !config.ENTRA_TENANT_ID) {
    throw notFound('Microsoft sign-in is not configured for Lotwise');
  }
  const authority = `${config.ENTRA_AUTHORITY_HOST.replace(/\/$/, '')}/${config.ENTRA_TENANT_ID}`;
  return {
    clientId: config.ENTRA_CLIENT_ID,
    tenantId: config.ENTRA_TENANT_ID,
    authority,
    issuer: `${authority}/v2.0`,
    redirectUri:
      config.ENTRA_REDIRECT_URI ?? new URL('/auth/callback', config.PUBLIC_WEB_URL).toString(),
    clientSecret: config.ENTRA_CLIENT_SECRET,
  };
}

export function providers() {
  try {
    const config = entraConfig();
    return [
      {
        id: 'microsoft' as const,
        clientId: config.clientId,
        authority: config.authority,
        redirectUri: config.redirectUri,
      },
    ];
  } catch {
    return [];
  }
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const idTokenClaims = z.object({
  oid: z.string().min(1),
  tid: z.string().min(1),
  email: z.string().optional(),
  preferred_username: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
});

/** Checks an Entra ID token's signature against the tenant's keys, its issuer, audience and expiry. */
export async function verifyIdToken(idToken: string): Promise<z.infer<typeof idTokenClaims>> {
  const config = entraConfig();
  let keySet = keySets.get(config.authority);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(`${config.authority}/discovery/v2.0/keys`));
    keySets.set(config.authority, keySet);
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySet, {
      issuer: config.issuer,
      audience: config.clientId,
      algorithms: ['RS256'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw unauthorized('The Microsoft sign-in has expired. Try again.');
    if (error instanceof joseErrors.JOSEError)
      throw unauthorized('The Microsoft sign-in could not be verified');
    throw error;
  }
  const claims = idTokenClaims.safeParse(payload);
  if (!claims.success || claims.data.tid !== config.tenantId) {
    throw unauthorized('The Microsoft sign-in could not be verified');
  }
  return claims.data;
}

function splitName(claims: z.infer<typeof idTokenClaims>) {
  const [first = '', ...rest] = (claims.name ?? '').split(/\s+/);
  return {
    firstName: claims.given_name ?? (first || 'Microsoft'),
    lastName: claims.family_name ?? (rest.join(' ') || 'User'),
  };
}

/**
 * Signs in with a verified Microsoft identity: the person linked to it, else the person with that
 * email (now linked), else a new person with an account of their own or the invited one.
 */
export async function signInWithMicrosoft(
  idToken: string,
  invitationCode: string | undefined,
  client: ClientInfo,
): Promise<SessionResponse> {
  const claims = await verifyIdToken(idToken);
  const email = (claims.email ?? claims.preferred_username ?? '').trim().toLowerCase();
  if (!z.email().safeParse(email).success) {
    throw unauthorized('Your Microsoft account has no email address Lotwise can use');
  }
  let user = await userByMicrosoftId(claims.tid, claims.oid);
  let accountId: string | undefined;
  if (!user) {
    user = await userByEmail(email);
    if (user) {
      user = await saveUser(user, {
        emailVerified: true,
        externalLogins: [
          ...user.externalLogins,
          { provider: 'microsoft', tenantId: claims.tid, subject: claims.oid },
        ],
      });
    } else {
      const names = splitName(claims);
      user = await createUser({
        ...newUserRecord({
          email,
          ...names,
          passwordHash: null,
          emailVerified: true,
          termsAccepted: true,
        }),
        externalLogins: [{ provider: 'microsoft', tenantId: claims.tid, subject: claims.oid }],
      });
      try {
        accountId = invitationCode
          ? await acceptInvitation(user, invitationCode)
          : (
              await createOwnedAccount(
                user,
                `${names.firstName} ${names.lastName}'s Auction House`,
                'individual',
              )
            ).id;
      } catch (error) {
        await removeUser(user);
        throw error;
      }
      invitationCode = undefined;
    }
    await linkMicrosoftId(claims.tid, claims.oid, user.id);
  }
  if (user.status !== 'active') throw unauthorized('This sign-in has been disabled');
  if (invitationCode) accountId = await acceptInvitation(user, invitationCode);
  return openSession(user, client, accountId);
}

const pkceChallenge = (verifier: string) =>
  createHash('sha256').update(verifier).digest('base64url');

/** Starts the redirect flow: where to send the browser, with state and PKCE kept server-side. */
export async function startRedirect(invitationCode: string | undefined) {
  const config = entraConfig();
  if (!config.clientSecret)
    throw notFound('Microsoft redirect sign-in is not configured for Lotwise');
  const verifier = randomToken(48);
  const { token: state } = await issueLink('oauth-state', {
    data: { verifier, ...(invitationCode ? { invitationCode } : {}) },
  });
  const url = new URL(`${config.authority}/oauth2/v2.0/authorize`);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    redirect_uri: config.redirectUri,
    response_mode: 'query',
    scope: 'openid profile email',
    state,
    code_challenge: pkceChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return { authorizeUrl: url.toString(), state };
}

/** Finishes the redirect flow: trades the code for an ID token at Entra and signs in with it. */
export async function completeRedirect(
  code: string,
  state: string,
  client: ClientInfo,
): Promise<SessionResponse> {
  const config = entraConfig();
  const record = await usableLink(state, 'oauth-state');
  if (!record) {
    throw validationError([
      {
        location: 'body',
        field: 'state',
        message: 'This sign-in attempt has expired. Start again.',
      },
    ]);
  }
  if (!(await spendLink(record))) {
    throw validationError([
      { location: 'body', field: 'state', message: 'This sign-in attempt was already used' },
    ]);
  }
  const response = await fetch(`${config.authority}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: config.clientId,
      client_secret: config.clientSecret ?? '',
      grant_type: 'authorization_code',
      code,
      redirect_uri: config.redirectUri,
      code_verifier: record.data.verifier ?? '',
    }),
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
  if (!response)
    throw new AppError(
      'service_unavailable',
      'Microsoft sign-in is not answering. Try again shortly.',
    );
  const body = (await response.json().catch(() => ({}))) as {
    id_token?: unknown;
    error_description?: unknown;
  };
  if (!response.ok || typeof body.id_token !== 'string') {
    throw unauthorized('Microsoft did not accept the sign-in. Start again.');
  }
  return signInWithMicrosoft(body.id_token, record.data.invitationCode, client);
}
