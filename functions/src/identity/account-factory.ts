import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { DEFAULT_MFA_GRACE_DAYS, type AccountType } from './identity.schema.js';
import { accountsRepo, membershipId } from './accounts.repo.js';
import { fullName } from './access.js';
import type { AccountRecord, MembershipRecord, UserRecord } from './identity.model.js';
import { DEFAULT_SESSION_IDLE_MINUTES, DEFAULT_SESSION_MAX_DAYS } from './sessions.service.js';

/** Everything a new account starts with: the free plan, no add-ons, MFA policy off. */
export function newAccountRecord(
  id: string,
  name: string,
  type: AccountType,
  ownerUserId: string,
): AccountRecord {
  const now = new Date().toISOString();
  return {
    id,
    accountId: id,
    type: 'account',
    name,
    accountType: type,
    ownerUserId,
    status: 'active',
    subscription: { tier: 'free', addOns: { inventory: false, payments: false } },
    mfaPolicy: {
      required: false,
      requiredForRoles: ['owner', 'admin'],
      gracePeriodDays: DEFAULT_MFA_GRACE_DAYS,
      enforceBackupCodes: true,
      updatedAt: null,
      enabledAt: null,
    },
    securitySettings: {
      sessionIdleMinutes: DEFAULT_SESSION_IDLE_MINUTES,
      sessionMaxDays: DEFAULT_SESSION_MAX_DAYS,
      requireVerifiedEmail: false,
      loginNotifications: false,
      allowedEmailDomains: [],
      updatedAt: null,
    },
    createdAt: now,
    updatedAt: now,
  };
}

/** Creates an account owned by the user, account and ownership written together. */
export async function createOwnedAccount(
  user: UserRecord,
  name: string,
  type: AccountType,
): Promise<AccountRecord> {
  const accountId = randomUUID();
  const account = newAccountRecord(accountId, name, type, user.id);
  const now = account.createdAt;
  const ownership: MembershipRecord = {
    id: membershipId(user.id),
    accountId,
    type: 'membership',
    userId: user.id,
    email: user.email,
    name: fullName(user),
    role: 'owner',
    permissions: [],
    houses: [],
    status: 'active',
    joinedAt: now,
    invitedBy: null,
    updatedAt: now,
  };
  const scope = { accountId };
  await accountsRepo.createTogether(scope, [account, ownership]);
  await writeAudit(
    { scope, actor: { kind: 'user', userId: user.id, name: ownership.name } },
    {
      action: 'account.create',
      entity: { type: 'account', id: accountId },
      after: { name, type },
    },
  );
  return account;
}
