import { randomUUID } from 'node:crypto';
import type { UserContext } from '../../platform/context.js';
import { unauthorized } from '../../platform/errors.js';
import type { Stored } from '../../platform/repo.js';
import type { UserRecord } from './identity.model.js';
import type { ProfileUpdate, UserView } from './users.schema.js';
import { usersRepo } from './users.repo.js';

/**
 * People: every part of identity reads and writes a person's record through here (their
 * credentials, methods and profile share one document).
 */

export const fullName = (user: { firstName: string; lastName: string }) =>
  `${user.firstName} ${user.lastName}`.trim();

export function newUserRecord(input: {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  phone?: string | undefined;
  timezone?: string | undefined;
  language?: string | undefined;
  marketingOptIn?: boolean | undefined;
  emailVerified: boolean;
  termsAccepted: boolean;
}): UserRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type: 'user',
    email: input.email,
    emailVerified: input.emailVerified,
    passwordHash: input.passwordHash,
    firstName: input.firstName,
    lastName: input.lastName,
    phone: input.phone ?? null,
    timezone: input.timezone ?? 'America/New_York',
    language: input.language ?? 'en',
    marketingOptIn: input.marketingOptIn ?? false,
    termsAcceptedAt: input.termsAccepted ? now : null,
    privacyAcceptedAt: input.termsAccepted ? now : null,
    status: 'active',
    defaultAccountId: null,
    externalLogins: [],
    mfa: { methods: [], backupCodes: null },
    passwordChangedAt: now,
    createdAt: now,
    updatedAt: now,
    lastLoginAt: null,
  };
}

export const hasVerifiedMfa = (user: UserRecord) =>
  user.mfa.methods.some((method) => method.enabled && method.verified);

export function toUserView(user: Stored<UserRecord>): UserView {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    timezone: user.timezone,
    language: user.language,
    marketingOptIn: user.marketingOptIn,
    defaultAccountId: user.defaultAccountId,
    mfaEnabled: hasVerifiedMfa(user),
    createdAt: user.createdAt,
    lastLoginAt: user.lastLoginAt,
    etag: user._etag,
  };
}

export function requireActive(user: Stored<UserRecord> | undefined): Stored<UserRecord> {
  if (!user || user.status !== 'active')
    throw unauthorized('This sign-in has ended. Sign in again.');
  return user;
}

/** The signed-in person's record, or 401 when they were disabled meanwhile. */
export async function signedInUser(ctx: UserContext): Promise<Stored<UserRecord>> {
  return requireActive(await usersRepo.find(ctx.actor.userId));
}

export const findUser = (userId: string) => usersRepo.find(userId);
export const userByEmail = (email: string) => usersRepo.findByEmail(email);
export const userByMicrosoftId = (tenantId: string, subject: string) =>
  usersRepo.findByExternal(tenantId, subject);
export const usersByIds = (userIds: string[]) => usersRepo.findMany(userIds);
export const createUser = (user: UserRecord) => usersRepo.create(user);
export const removeUser = (user: UserRecord) => usersRepo.remove(user);
/** Removes a person for good (a demo visitor), whether or not an earlier attempt got part way. */
export const eraseUser = (userId: string) => usersRepo.erase(userId);
export const recordSignIn = (userId: string) => usersRepo.touchLogin(userId);
export const moveEmail = (user: Stored<UserRecord>, newEmail: string) =>
  usersRepo.changeEmail(user, newEmail);
export const linkMicrosoftId = (tenantId: string, subject: string, userId: string) =>
  usersRepo.linkExternal(tenantId, subject, userId);

/** Saves changes to a person read at `user._etag` (or at the `etag` the caller shows); 412 when stale. */
export function saveUser(
  user: Stored<UserRecord>,
  changes: Partial<Omit<UserRecord, 'id' | 'type'>>,
  etag: string = user._etag,
): Promise<Stored<UserRecord>> {
  return usersRepo.replace({ ...user, ...changes }, etag);
}

/** The signed-in person's own profile, as they saw it at `etag`: only the fields sent change. */
export async function updateProfile(ctx: UserContext, etag: string, changes: ProfileUpdate) {
  const user = await signedInUser(ctx);
  const defined = Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  );
  return saveUser(user, defined, etag);
}
