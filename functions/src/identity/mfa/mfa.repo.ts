import { container } from '../../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../../platform/repo.js';
import type { AccountRecord, UserRecord } from '../shared/identity.model.js';

/**
 * What MFA keeps lives inside records others own too: a person's methods and backup codes in
 * their user record, the account's MFA policy and security settings in the account record. Each
 * change sets only MFA's own part, and only if the record is unchanged since `etag` (else 412).
 */
const users = () => container('users');
const accounts = new TenantRepository<AccountRecord>('accounts');

const changedAt = () => ({
  op: 'set' as const,
  path: '/updatedAt',
  value: new Date().toISOString(),
});

export const mfaRepo = {
  async saveMethods(
    userId: string,
    mfa: UserRecord['mfa'],
    etag: string,
  ): Promise<Stored<UserRecord>> {
    const { resource } = await users()
      .item(userId, userId)
      .patch<UserRecord>([{ op: 'set', path: '/mfa', value: mfa }, changedAt()], {
        accessCondition: { type: 'IfMatch', condition: etag },
      });
    return resource as unknown as Stored<UserRecord>;
  },

  savePolicy: (scope: AccountScope, policy: AccountRecord['mfaPolicy'], etag: string) =>
    accounts.patch(
      scope,
      scope.accountId,
      [{ op: 'set', path: '/mfaPolicy', value: policy }, changedAt()],
      {
        etag,
      },
    ),

  saveSecuritySettings: (
    scope: AccountScope,
    settings: AccountRecord['securitySettings'],
    etag: string,
  ) =>
    accounts.patch(
      scope,
      scope.accountId,
      [{ op: 'set', path: '/securitySettings', value: settings }, changedAt()],
      { etag },
    ),
};
