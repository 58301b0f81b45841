import { randomUUID } from 'node:crypto';
import { validationError } from '../platform/validation.js';
import type { SessionResponse, SignupRequest } from './identity.schema.js';
import type { UserRecord } from './identity.model.js';
import { createOwnedAccount } from './account-factory.js';
import { acceptInvitation, resolveInvitation } from './invitations.service.js';
import { openSession } from './login.service.js';
import { hashPassword, passwordProblems } from './passwords.js';
import { sendEmailVerification } from './email-verification.service.js';
import type { ClientInfo } from './sessions.service.js';
import { usersRepo } from './users.repo.js';

export async function assertAcceptablePassword(
  password: string,
  context: { email?: string; name?: string },
  field = 'password',
): Promise<void> {
  const problems = await passwordProblems(password, context);
  if (problems.length) {
    throw validationError(problems.map((message) => ({ location: 'body', field, message })));
  }
}

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
    mfa: { methods: [], backupCodes: null, pendingCodes: [] },
    passwordChangedAt: now,
    createdAt: now,
    updatedAt: now,
    lastLoginAt: null,
  };
}

/**
 * Creates the person and either joins them to the account that invited them or gives them an
 * account of their own on the free plan. If the second step fails the person is removed again.
 */
export async function signup(input: SignupRequest, client: ClientInfo): Promise<SessionResponse> {
  await assertAcceptablePassword(input.password, {
    email: input.email,
    name: `${input.firstName} ${input.lastName}`,
  });
  if (input.invitationCode) {
    const { invitation } = await resolveInvitation(input.invitationCode);
    if (invitation.email !== input.email) {
      throw validationError([
        {
          location: 'body',
          field: 'email',
          message: 'must be the address the invitation was sent to',
        },
      ]);
    }
  }
  const user = await usersRepo.create(
    newUserRecord({
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash: await hashPassword(input.password),
      phone: input.phone,
      timezone: input.preferences.timezone,
      language: input.preferences.language,
      marketingOptIn: input.preferences.marketingOptIn,
      // An invitation link proves the address; a plain sign-up confirms it by email.
      emailVerified: Boolean(input.invitationCode),
      termsAccepted: input.preferences.termsAccepted && input.preferences.privacyPolicyAccepted,
    }),
  );
  let accountId: string;
  try {
    accountId = input.invitationCode
      ? await acceptInvitation(user, input.invitationCode)
      : (
          await createOwnedAccount(
            user,
            input.accountName ?? `${input.firstName} ${input.lastName}'s Auction House`,
            'individual',
          )
        ).id;
  } catch (error) {
    await usersRepo.remove(user);
    throw error;
  }
  if (!user.emailVerified) await sendEmailVerification(user);
  return openSession(user, client, accountId);
}
