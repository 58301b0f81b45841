import { SignJWT } from 'jose';
import type { UserContext } from '../../platform/context.js';
import { AppError, unauthorized } from '../../platform/errors.js';
import { ACCESS_TOKEN_AUDIENCE, signingKey, type AccessClaims } from '../../platform/principal.js';
import type { Stored } from '../../platform/repo.js';
import { settings } from '../../platform/settings.js';
import { accountAccessList, memberContext } from '../accounts/accounts.service.js';
import { mfaDeadline, type FeatureAvailability } from '../accounts/member-access.js';
import { identityMail } from '../shared/identity.mail.js';
import type { SessionRecord, UserRecord } from '../shared/identity.model.js';
import {
  findUser,
  fullName,
  hasVerifiedMfa,
  recordSignIn,
  requireActive,
  signedInUser,
  toUserView,
} from '../shared/users.service.js';
import type { AccessTokenResponse, SessionResponse } from './sessions.schema.js';
import {
  currentSession,
  revokeSession,
  rotateRefreshToken,
  sessionFromToken,
  startSession,
  touchSession,
  type ClientInfo,
} from './sessions.service.js';

/** Access tokens live at most 15 minutes; the refresh token brings a new one. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * Binds the session to an account and issues a short access token for it, after the account's
 * own rules: membership, verified email when required, and its MFA policy.
 */
async function grantAccess(input: {
  user: Stored<UserRecord>;
  session: Stored<SessionRecord>;
  accountId: string;
  client?: ClientInfo;
}): Promise<AccessTokenResponse> {
  const { user, session } = input;
  const context = await memberContext(user.id, input.accountId);
  const { account, membership, access, features } = context;
  if (account.securitySettings.requireVerifiedEmail && !user.emailVerified) {
    throw new AppError(
      'forbidden',
      `Verify your email address to open ${account.name}. We can send the link again from your profile.`,
      { reason: 'email_not_verified' },
    );
  }
  const deadline = mfaDeadline(account, membership);
  const mfaSetupRequired = Boolean(
    deadline && !hasVerifiedMfa(user) && Date.now() > deadline.getTime(),
  );
  const rebound = session.accountId !== account.id;
  const touched = await touchSession(session, {
    accountId: account.id,
    lifetimes: {
      idleMinutes: account.securitySettings.sessionIdleMinutes,
      maxDays: account.securitySettings.sessionMaxDays,
    },
  });

  const claims: Omit<AccessClaims, 'sub'> = {
    acc: account.id,
    sid: touched.id,
    email: user.email,
    name: fullName(user),
    role: access.role,
    // The owner holds everything; listing it would only make the token larger.
    perms: access.role === 'owner' ? [] : access.permissions,
    houses: access.houses.map((house) => ({
      id: house.houseId,
      role: house.role,
      perms: access.role === 'owner' ? [] : house.permissions,
    })),
    feat: (Object.keys(features) as (keyof FeatureAvailability)[]).filter((key) => features[key]),
    plan: account.subscription.revision ?? 0,
    ...(mfaSetupRequired ? { msr: true } : {}),
  };
  const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
  const accessToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(settings().AUTH_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(signingKey());

  if (rebound && input.client && account.securitySettings.loginNotifications) {
    await identityMail.signInNotice(
      user.email,
      account.name,
      input.client.userAgent,
      input.client.ipAddress,
    );
  }
  return {
    accessToken,
    accessTokenExpiresAt: expiresAt.toISOString(),
    account: context.view,
    mfaSetupDueBy: deadline && !hasVerifiedMfa(user) ? deadline.toISOString() : null,
    mfaSetupRequired,
  };
}

/**
 * Opens a session for a person who has proved who they are, and binds it to their account when
 * there is exactly one (or the one given). With several, the client asks which.
 */
export async function openSession(
  user: Stored<UserRecord>,
  client: ClientInfo,
  preferredAccountId?: string,
): Promise<SessionResponse> {
  const signedIn = await recordSignIn(user.id);
  const { session, sessionToken, refreshToken } = await startSession(signedIn.id, client);
  const accounts = await accountAccessList(signedIn.id, signedIn.defaultAccountId);
  const base = {
    status: 'signed-in' as const,
    user: toUserView(signedIn),
    sessionToken,
    refreshToken,
    accounts,
  };
  const chosen =
    accounts.find((entry) => entry.accountId === preferredAccountId) ??
    (accounts.length === 1 ? accounts[0] : undefined);
  if (!chosen) return { ...base, accountSelection: accounts.length ? 'pending' : 'none' };
  try {
    const granted = await grantAccess({
      user: signedIn,
      session,
      accountId: chosen.accountId,
      client,
    });
    return { ...base, accountSelection: 'selected', ...granted };
  } catch (error) {
    // Refused by the account's rules: the session just opened must not outlive the answer.
    await revokeSession(session, 'sign-in-refused');
    throw error;
  }
}

/** A new session token for the signed-in session; the old one stops working. */
export async function renewSessionToken(
  ctx: UserContext,
  userId: string | undefined,
  client: ClientInfo,
): Promise<SessionResponse> {
  if (userId && userId !== ctx.actor.userId) throw unauthorized('That is not your user id');
  const session = await currentSession(ctx);
  await revokeSession(session, 'session-token-renewed');
  return openSession(await signedInUser(ctx), client, ctx.scope.accountId);
}

/** An access token for one account, for the holder of a session token (the account picker). */
export async function exchangeSessionToken(
  sessionToken: string | undefined,
  request: { userId: string; accountId: string },
  client: ClientInfo,
): Promise<AccessTokenResponse> {
  if (!sessionToken) throw unauthorized('No session token found. Please login first.');
  const session = await sessionFromToken(sessionToken);
  if (session.userId !== request.userId)
    throw unauthorized('The session does not belong to this user');
  const user = requireActive(await findUser(session.userId));
  return grantAccess({ user, session, accountId: request.accountId, client });
}

/**
 * Trades a refresh token for a new one and, when the session has an account, a fresh access
 * token for it.
 */
export async function refreshAccess(refreshToken: string, client: ClientInfo) {
  const { session, refreshToken: next } = await rotateRefreshToken(refreshToken);
  const user = requireActive(await findUser(session.userId));
  if (!session.accountId) {
    await touchSession(session);
    return { accessToken: null, accessTokenExpiresAt: null, refreshToken: next };
  }
  const granted = await grantAccess({ user, session, accountId: session.accountId, client });
  return {
    accessToken: granted.accessToken,
    accessTokenExpiresAt: granted.accessTokenExpiresAt,
    refreshToken: next,
  };
}

/**
 * A fresh access token for the signed-in session in another account (switching), or in the same
 * one (e.g. after a role change).
 */
export async function reissueAccess(
  ctx: UserContext,
  accountId: string,
  client: ClientInfo,
): Promise<AccessTokenResponse> {
  const user = await signedInUser(ctx);
  const session = await currentSession(ctx);
  return grantAccess({ user, session, accountId, client });
}
