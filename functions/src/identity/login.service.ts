import { unauthorized } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import { accountAccessList } from './account-access.js';
import { grantAccess } from './access-token.service.js';
import { toUserView } from './access.js';
import type { LoginRequest, LoginResponse, SessionResponse } from './identity.schema.js';
import type { UserRecord } from './identity.model.js';
import { acceptInvitation } from './invitations.service.js';
import { assertNotLocked, clearFailures, recordFailure } from './login-throttle.js';
import { activeMethods, maskDestination, sendLoginCode, verifyLoginCode } from './mfa.service.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';
import { revokeSession, startSession, type ClientInfo } from './sessions.service.js';
import { usersRepo } from './users.repo.js';

const invalidCredentials = () => unauthorized('Invalid email or password');

/**
 * Opens a session for a person who has proved who they are, and binds it to their account when
 * there is exactly one (or the one given). With several, the client asks which.
 */
export async function openSession(
  user: Stored<UserRecord>,
  client: ClientInfo,
  preferredAccountId?: string,
): Promise<SessionResponse> {
  const signedIn = await usersRepo.touchLogin(user.id);
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

/**
 * Email and password, then a second factor when the person has one. Failures are throttled per
 * email and per address, and read the same whether or not the email belongs to anyone.
 */
export async function login(input: LoginRequest, client: ClientInfo): Promise<LoginResponse> {
  await assertNotLocked(input.email, client.ipAddress);
  const user = await usersRepo.findByEmail(input.email);
  if (!user?.passwordHash) {
    await burnPasswordCheck(input.password);
    await recordFailure(input.email, client.ipAddress);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await recordFailure(input.email, client.ipAddress);
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
      await recordFailure(input.email, client.ipAddress);
      throw unauthorized('Invalid verification code');
    }
    current = verified;
  }
  await clearFailures(input.email);
  const joined = input.invitationCode
    ? await acceptInvitation(current, input.invitationCode)
    : undefined;
  return openSession(current, client, joined);
}
