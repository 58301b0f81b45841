import { unauthorized } from '../../platform/errors.js';
import { validationError } from '../../platform/validation.js';
import { createOwnedAccount } from '../accounts/accounts.service.js';
import {
  activeMethods,
  maskDestination,
  sendLoginCode,
  verifyLoginCode,
} from '../mfa/mfa.service.js';
import { openSession } from '../sessions/access-token.service.js';
import type { SessionResponse } from '../sessions/sessions.schema.js';
import type { ClientInfo } from '../sessions/sessions.service.js';
import { acceptInvitation, resolveInvitation } from '../team/invitations.service.js';
import { createUser, newUserRecord, removeUser, userByEmail } from '../shared/users.service.js';
import type { LoginRequest, LoginResponse, SignupRequest } from './auth.schema.js';
import { sendEmailVerification } from './credentials.service.js';
import { issueDeviceToken, knownDevice } from './device-tokens.js';
import { beforeAttempt, recordFailure, recordSuccess } from './login-throttle.js';
import {
  assertAcceptablePassword,
  burnPasswordCheck,
  hashPassword,
  verifyPassword,
} from './passwords.js';

const invalidCredentials = () => unauthorized('Invalid email or password');

/**
 * Email and password, then a second factor when the person has one. Failures are throttled
 * (login-throttle.ts) and read the same whether or not the email belongs to anyone. A full
 * sign-in gives the client a device token, which makes it a known device next time.
 */
export async function login(input: LoginRequest, client: ClientInfo): Promise<LoginResponse> {
  const user = await userByEmail(input.email);
  const attempt = {
    email: input.email,
    address: client.ipAddress,
    deviceId: await knownDevice(input.deviceToken, user?.id),
  };
  await beforeAttempt(attempt);
  if (!user?.passwordHash) {
    await burnPasswordCheck(input.password);
    await recordFailure(attempt);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await recordFailure(attempt);
    throw invalidCredentials();
  }
  if (user.status !== 'active') throw unauthorized('This sign-in has been disabled');

  let current = user;
  const methods = activeMethods(user);
  if (methods.length) {
    if (!input.mfaCode) {
      const codeSentTo = await sendLoginCode(user, input.mfaMethodId);
      return {
        status: 'mfa-required',
        methods: methods.map((method) => ({
          id: method.id,
          type: method.type,
          name: method.name,
          primary: method.primary,
          destination: maskDestination(method),
        })),
        codeSentTo,
        backupCodesAvailable: Boolean(user.mfa.backupCodes?.hashes.length),
      };
    }
    const verified = await verifyLoginCode(user, input.mfaCode);
    if (!verified) {
      await recordFailure(attempt);
      throw unauthorized('Invalid verification code');
    }
    current = verified;
  }
  await recordSuccess(attempt);
  const joined = input.invitationCode
    ? await acceptInvitation(current, input.invitationCode)
    : undefined;
  const session = await openSession(current, client, joined);
  return { ...session, deviceToken: await issueDeviceToken(current.id) };
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
  const user = await createUser(
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
    await removeUser(user);
    throw error;
  }
  if (!user.emailVerified) await sendEmailVerification(user);
  return openSession(user, client, accountId);
}
