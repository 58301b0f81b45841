import { accountsRepo } from './accounts.repo.js';
import type { AccountAccess } from './identity.schema.js';

/** The accounts a person can open, for the account picker and GET /users/me/accounts. */
export async function accountAccessList(
  userId: string,
  defaultAccountId: string | null,
): Promise<AccountAccess[]> {
  const memberships = (await accountsRepo.membershipsOfUser(userId)).filter(
    (membership) => membership.status === 'active',
  );
  const accounts = await accountsRepo.accountsByIds(
    memberships.map((membership) => membership.accountId),
  );
  const byId = new Map(
    accounts
      .filter((account) => account.status === 'active')
      .map((account) => [account.id, account]),
  );
  return memberships
    .filter((membership) => byId.has(membership.accountId))
    .map((membership) => {
      const account = byId.get(membership.accountId);
      return {
        accountId: membership.accountId,
        accountName: account?.name ?? `Account ${membership.accountId}`,
        accountType: account?.accountType ?? 'individual',
        roles: [membership.role],
        assignedAt: membership.joinedAt,
        isDefault: membership.accountId === defaultAccountId,
      };
    })
    .sort((a, b) => a.accountName.localeCompare(b.accountName));
}
