import { writeAudit } from '../platform/audit.js';
import { badRequest, notFound, unauthorized } from '../platform/errors.js';
import type { UserContext } from '../platform/context.js';
import type { Stored } from '../platform/repo.js';
import { randomToken } from '../platform/secrets.js';
import { validationError } from '../platform/validation.js';
import { accountsRepo } from './accounts.repo.js';
import { fullName } from './access.js';
import { PASSWORD_RESET_TTL_MINUTES } from './identity.schema.js';
import { identityMail } from './identity.mail.js';
import type { UserRecord } from './identity.model.js';
import { assertNotLocked, clearFailures, recordFailure } from './login-throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { assertAcceptablePassword } from './signup.service.js';
import { sendEmailVerification } from './email-verification.service.js';
import { liveSessionsOf, revokeSession, type ClientInfo } from './sessions.service.js';
import { tokensRepo } from './tokens.repo.js';
import { usersRepo } from './users.repo.js';

async function endSessions(userId: string, keepSessionId: string | null, reason: string) {
  const sessions = await liveSessionsOf(userId);
  await Promise.all(
    sessions
      .filter((session) => session.id !== keepSessionId)
      .map((session) => revokeSession(session, reason)),
  );
}

/** The current password is checked (and throttled like sign-in) before anything changes. */
async function assertPassword(
  user: UserRecord,
  password: string,
  client: ClientInfo,
  field: string,
) {
  await assertNotLocked(user.email, client.ipAddress);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
    await recordFailure(user.email, client.ipAddress);
    throw validationError([{ location: 'body', field, message: 'is not your current password' }]);
  }
  await clearFailures(user.email);
}

export async function changePassword(
  user: Stored<UserRecord>,
  input: { currentPassword: string; newPassword: string },
  currentSessionId: string,
  client: ClientInfo,
): Promise<void> {
  await assertPassword(user, input.currentPassword, client, 'currentPassword');
  if (input.currentPassword === input.newPassword) {
    throw validationError([
      { location: 'body', field: 'newPassword', message: 'must differ from your current password' },
    ]);
  }
  await assertAcceptablePassword(
    input.newPassword,
    { email: user.email, name: fullName(user) },
    'newPassword',
  );
  await usersRepo.replace({
    ...user,
    passwordHash: await hashPassword(input.newPassword),
    passwordChangedAt: new Date().toISOString(),
  });
  await endSessions(user.id, currentSessionId, 'password-changed');
  await identityMail.passwordChanged(user.email);
}

export async function changeEmail(
  user: Stored<UserRecord>,
  input: { newEmail: string; password: string },
  client: ClientInfo,
): Promise<Stored<UserRecord>> {
  await assertPassword(user, input.password, client, 'password');
  if (input.newEmail === user.email) {
    throw validationError([
      { location: 'body', field: 'newEmail', message: 'is already your email address' },
    ]);
  }
  const updated = await usersRepo.changeEmail(user, input.newEmail);
  // Team lists show each member's email; keep them in step.
  for (const membership of await accountsRepo.membershipsOfUser(user.id)) {
    await accountsRepo
      .replace({ accountId: membership.accountId }, { ...membership, email: input.newEmail })
      .catch(() => undefined);
  }
  await sendEmailVerification(updated);
  await identityMail.emailChanged(user.email, input.newEmail);
  return updated;
}

async function issueResetLink(user: UserRecord, requestedBy: string | null): Promise<void> {
  await tokensRepo.revokeFor(user.id, 'password-reset');
  const token = randomToken();
  const now = Date.now();
  await tokensRepo.create(token, {
    purpose: 'password-reset',
    userId: user.id,
    accountId: null,
    invitationId: null,
    email: user.email,
    data: {},
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + PASSWORD_RESET_TTL_MINUTES * 60_000).toISOString(),
    usedAt: null,
  });
  await identityMail.passwordReset(user.email, token, requestedBy);
}

/** Sends a reset link if the email belongs to someone; the answer is the same either way. */
export async function requestPasswordReset(email: string): Promise<void> {
  const user = await usersRepo.findByEmail(email);
  if (user && user.status === 'active') await issueResetLink(user, null);
}

export async function resetPassword(token: string, newPassword: string): Promise<void> {
  const invalid = () =>
    validationError([
      { location: 'body', field: 'token', message: 'This reset link is not valid or has expired' },
    ]);
  const record = await tokensRepo.findUsable(token, 'password-reset');
  if (!record) {
    throw invalid();
  }
  const user = record.userId ? await usersRepo.find(record.userId) : undefined;
  if (!user) throw invalid();
  await assertAcceptablePassword(
    newPassword,
    { email: user.email, name: fullName(user) },
    'newPassword',
  );
  if (!(await tokensRepo.markUsed(record))) throw invalid();
  await usersRepo.replace({
    ...user,
    passwordHash: await hashPassword(newPassword),
    passwordChangedAt: new Date().toISOString(),
    // Following the emailed link proves the address.
    emailVerified: user.email === record.email ? true : user.emailVerified,
  });
  await clearFailures(user.email);
  await endSessions(user.id, null, 'password-reset');
  await identityMail.passwordChanged(user.email);
}

/** An owner or admin sends a member a reset link (the member sets the password, not the admin). */
export async function adminPasswordReset(ctx: UserContext, targetUserId: string): Promise<void> {
  const membership = await accountsRepo.membership(ctx.scope, targetUserId);
  if (!membership) throw notFound('User not found');
  if (membership.status !== 'active') throw badRequest('This user is deactivated');
  const user = await usersRepo.find(targetUserId);
  if (!user) throw notFound('User not found');
  if (!user.passwordHash && user.externalLogins.length) {
    throw badRequest('This user signs in with Microsoft and has no Lotwise password');
  }
  await issueResetLink(user, ctx.actor.name);
  await writeAudit(ctx, {
    action: 'member.password-reset',
    entity: { type: 'member', id: targetUserId },
  });
}

export function requireUser(user: Stored<UserRecord> | undefined): Stored<UserRecord> {
  if (!user || user.status !== 'active')
    throw unauthorized('This sign-in has ended. Sign in again.');
  return user;
}
