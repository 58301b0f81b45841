import { randomToken } from '../platform/secrets.js';
import { validationError } from '../platform/validation.js';
import type { UserRecord } from './identity.model.js';
import { identityMail } from './identity.mail.js';
import { tokensRepo } from './tokens.repo.js';
import { usersRepo } from './users.repo.js';

const VERIFY_TTL_HOURS = 48;

export async function sendEmailVerification(user: UserRecord): Promise<void> {
  await tokensRepo.revokeFor(user.id, 'email-verify');
  const token = randomToken();
  const now = Date.now();
  await tokensRepo.create(token, {
    purpose: 'email-verify',
    userId: user.id,
    accountId: null,
    invitationId: null,
    email: user.email,
    data: {},
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + VERIFY_TTL_HOURS * 3_600_000).toISOString(),
    usedAt: null,
  });
  await identityMail.verifyEmail(user.email, token);
}

/** Confirms the address the link was sent to, if the person still uses it. */
export async function verifyEmail(token: string): Promise<void> {
  const invalid = () =>
    validationError([
      { location: 'body', field: 'token', message: 'This link is not valid or has expired' },
    ]);
  const record = await tokensRepo.findUsable(token, 'email-verify');
  if (!record) {
    throw invalid();
  }
  const user = record.userId ? await usersRepo.find(record.userId) : undefined;
  if (!user || user.email !== record.email) throw invalid();
  if (!(await tokensRepo.markUsed(record))) throw invalid();
  if (!user.emailVerified) await usersRepo.replace({ ...user, emailVerified: true });
}
