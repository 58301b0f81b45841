import { writeAudit } from '../../platform/audit.js';
import type { PublicContext, UserContext } from '../../platform/context.js';
import { badRequest, notFound, unauthorized } from '../../platform/errors.js';
import type { Stored } from '../../platform/repo.js';
import { validationError } from '../../platform/validation.js';
import { followEmailChange, membershipOf } from '../accounts/accounts.service.js';
import { issueLink, spendLink, usableLink } from '../sessions/one-time-tokens.service.js';
import { endSessions, type ClientInfo } from '../sessions/sessions.service.js';
import { identityMail } from '../shared/identity.mail.js';
import type { UserRecord } from '../shared/identity.model.js';
import {
  findUser,
  fullName,
  moveEmail,
  saveUser,
  signedInUser,
  userByEmail,
} from '../shared/users.service.js';
import { beforeAttempt, clearFailures, recordFailure, recordSuccess } from './login-throttle.js';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.js';

/** A person's password and email: changing them, resetting the one, confirming the other. */

/** The current password is checked (and throttled like sign-in) before anything changes. */
async function assertPassword(
  user: UserRecord,
  password: string,
  client: ClientInfo,
  field: string,
) {
  const attempt = { email: user.email, address: client.ipAddress };
  await beforeAttempt(attempt);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
    await recordFailure(attempt);
    throw validationError([{ location: 'body', field, message: 'is not your current password' }]);
  }
  await recordSuccess(attempt);
}

export async function changePassword(
  ctx: UserContext,
  input: { currentPassword: string; newPassword: string },
  client: ClientInfo,
): Promise<void> {
  const user = await signedInUser(ctx);
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
  await saveUser(user, {
    passwordHash: await hashPassword(input.newPassword),
    passwordChangedAt: new Date().toISOString(),
  });
  await endSessions(user.id, 'password-changed', { except: ctx.actor.sessionId });
  await identityMail.passwordChanged(user.email);
}

export async function changeEmail(
  ctx: UserContext,
  input: { newEmail: string; password: string },
  client: ClientInfo,
): Promise<Stored<UserRecord>> {
  const user = await signedInUser(ctx);
  await assertPassword(user, input.password, client, 'password');
  if (input.newEmail === user.email) {
    throw validationError([
      { location: 'body', field: 'newEmail', message: 'is already your email address' },
    ]);
  }
  const updated = await moveEmail(user, input.newEmail);
  await followEmailChange(user.id, input.newEmail);
  await sendEmailVerification(updated);
  await identityMail.emailChanged(user.email, input.newEmail);
  return updated;
}

/** Mails a link that confirms the person's address; earlier links stop working. */
export async function sendEmailVerification(user: UserRecord): Promise<void> {
  const { token } = await issueLink(
    'email-verify',
    { userId: user.id, email: user.email },
    { replacesEarlier: true },
  );
  await identityMail.verifyEmail(user.email, token);
}

/**
 * Sends the link again: to the signed-in person, or by email for someone an account turned away
 * until they confirm it. The answer never says whether the email is known.
 */
export async function resendEmailVerification(ctx: PublicContext, email: string | undefined) {
  if (!ctx.caller && !email) throw unauthorized('Sign in, or give the email address to confirm');
  const user = ctx.caller
    ? await findUser(ctx.caller.actor.userId)
    : email
      ? await userByEmail(email)
      : undefined;
  if (user && user.status === 'active' && !user.emailVerified) await sendEmailVerification(user);
}

/** Confirms the address the link was sent to, if the person still uses it. */
export async function verifyEmail(token: string): Promise<void> {
  const invalid = () =>
    validationError([
      { location: 'body', field: 'token', message: 'This link is not valid or has expired' },
    ]);
  const link = await usableLink(token, 'email-verify');
  if (!link) throw invalid();
  const user = link.userId ? await findUser(link.userId) : undefined;
  if (!user || user.email !== link.email) throw invalid();
  if (!(await spendLink(link))) throw invalid();
  if (!user.emailVerified) await saveUser(user, { emailVerified: true });
}

/** Mails a single-use link to set a new password; earlier links stop working. */
async function sendPasswordResetLink(user: UserRecord, requestedBy: string | null): Promise<void> {
  const { token } = await issueLink(
    'password-reset',
    { userId: user.id, email: user.email },
    { replacesEarlier: true },
  );
  await identityMail.passwordReset(user.email, token, requestedBy);
}

/** Sends a reset link if the email belongs to someone; the answer is the same either way. */
export async function requestPasswordReset(email: string): Promise<void> {
  const user = await userByEmail(email);
  if (user && user.status === 'active') await sendPasswordResetLink(user, null);
}

/** An owner or admin sends a member a reset link (the member sets the password, not the admin). */
export async function resetMemberPassword(ctx: UserContext, userId: string): Promise<void> {
  const membership = await membershipOf(ctx.scope, userId);
  if (!membership) throw notFound('User not found');
  if (membership.status !== 'active') throw badRequest('This user is deactivated');
  const user = await findUser(userId);
  if (!user) throw notFound('User not found');
  if (!user.passwordHash && user.externalLogins.length) {
    throw badRequest('This user signs in with Microsoft and has no Lotwise password');
  }
  await sendPasswordResetLink(user, ctx.actor.name);
  await writeAudit(ctx, {
    action: 'member.password-reset',
    entity: { type: 'member', id: userId },
  });
}

export async function resetPassword(token: string, newPassword: string): Promise<void> {
  const invalid = () =>
    validationError([
      { location: 'body', field: 'token', message: 'This reset link is not valid or has expired' },
    ]);
  const link = await usableLink(token, 'password-reset');
  if (!link) throw invalid();
  const user = link.userId ? await findUser(link.userId) : undefined;
  if (!user) throw invalid();
  await assertAcceptablePassword(
    newPassword,
    { email: user.email, name: fullName(user) },
    'newPassword',
  );
  if (!(await spendLink(link))) throw invalid();
  await saveUser(user, {
    passwordHash: await hashPassword(newPassword),
    passwordChangedAt: new Date().toISOString(),
    // Following the emailed link proves the address.
    emailVerified: user.email === link.email ? true : user.emailVerified,
  });
  await clearFailures(user.email);
  await endSessions(user.id, 'password-reset');
  await identityMail.passwordChanged(user.email);
}
