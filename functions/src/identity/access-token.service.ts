import { SignJWT } from 'jose';
import { AppError, forbidden, notFound } from '../platform/errors.js';
import { evaluateFlag } from '../platform/flags.js';
import { ACCESS_TOKEN_AUDIENCE, signingKey, type AccessClaims } from '../platform/principal.js';
import type { Stored } from '../platform/repo.js';
import { settings } from '../platform/settings.js';
import { accountsRepo } from './accounts.repo.js';
import { effectiveAccess, fullName, toAccountView, type FeatureAvailability } from './access.js';
import type { AccessTokenResponse } from './identity.schema.js';
import { identityMail } from './identity.mail.js';
import type {
  AccountRecord,
  MembershipRecord,
  SessionRecord,
  UserRecord,
} from './identity.model.js';
import { touchSession, type ClientInfo } from './sessions.service.js';

/** Access tokens live at most 15 minutes; the refresh token brings a new one. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export function hasVerifiedMfa(user: UserRecord): boolean {
  return user.mfa.methods.some((method) => method.enabled && method.verified);
}

/** When the account's MFA policy makes this member enrol, if it does. */
export function mfaDeadline(account: AccountRecord, membership: MembershipRecord): Date | null {
  const policy = account.mfaPolicy;
  if (!policy.required || !policy.requiredForRoles.includes(membership.role)) return null;
  const since = Math.max(
    Date.parse(policy.enabledAt ?? account.createdAt),
    Date.parse(membership.joinedAt),
  );
  return new Date(since + policy.gracePeriodDays * 86_400_000);
}

export async function featureAvailability(
  account: AccountRecord,
  userId: string,
  role: string,
  houseCount: number,
): Promise<FeatureAvailability> {
  const context = {
    userId,
    groups: [role, `account:${account.id}`],
    tier: account.subscription.tier,
    houseCount,
  };
  const available = async (feature: keyof FeatureAvailability) => {
    if (!account.subscription.addOns[feature]) return false;
    const flag = await evaluateFlag(feature, context);
    // The add-on decides; a defined flag can still switch the feature off.
    return flag.defined ? flag.value : true;
  };
  return { inventory: await available('inventory'), payments: await available('payments') };
}

/** The account as this member sees it, and what their token will carry. */
export async function memberContext(user: UserRecord, accountId: string) {
  const scope = { accountId };
  const account = await accountsRepo.account(scope);
  const membership = await accountsRepo.membership(scope, user.id);
  if (!account || account.status !== 'active' || !membership) throw notFound('Account not found');
  if (membership.status !== 'active') {
    throw forbidden('Your access to this account has been deactivated. Contact the account owner.');
  }
  const [houses, memberships] = await Promise.all([
    accountsRepo.houses(scope),
    accountsRepo.memberships(scope),
  ]);
  const access = effectiveAccess(membership, houses);
  const features = await featureAvailability(account, user.id, access.role, houses.length);
  return {
    account,
    membership,
    access,
    features,
    view: toAccountView(account, houses, memberships, access, features),
  };
}

/**
 * Binds the session to an account and issues a short access token for it, after the account's
 * own rules: membership, verified email when required, and its MFA policy.
 */
export async function grantAccess(input: {
  user: Stored<UserRecord>;
  session: Stored<SessionRecord>;
  accountId: string;
  client?: ClientInfo;
}): Promise<AccessTokenResponse> {
  const { user, session } = input;
  const context = await memberContext(user, input.accountId);
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
