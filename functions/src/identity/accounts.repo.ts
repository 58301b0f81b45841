import type { JSONObject, OperationInput } from '@azure/cosmos';
import { container } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type {
  AccountRecord,
  GroupRecord,
  HouseRecord,
  InvitationRecord,
  MembershipRecord,
  TenantIdentityRecord,
} from './identity.model.js';

const tenant = new TenantRepository<TenantIdentityRecord>('accounts');
const accounts = () => container('accounts');

type Kind = TenantIdentityRecord['type'];
type OfKind<K extends Kind> = Extract<TenantIdentityRecord, { type: K }>;

async function ofType<K extends Kind>(
  scope: AccountScope,
  type: K,
  where?: string,
  parameters: { name: string; value: string | boolean | number | string[] }[] = [],
): Promise<Stored<OfKind<K>>[]> {
  const all = await tenant.all(scope, {
    where: `c.type = @type${where ? ` AND (${where})` : ''}`,
    parameters: [{ name: '@type', value: type }, ...parameters],
  });
  return all as Stored<OfKind<K>>[];
}

async function one<K extends Kind>(scope: AccountScope, type: K, id: string) {
  const found = await tenant.find(scope, id);
  return found && found.type === type ? (found as Stored<OfKind<K>>) : undefined;
}

export const membershipId = (userId: string) => `member:${userId}`;

/** Accounts, their houses and groups, memberships and invitations: one partition per account. */
export const accountsRepo = {
  account: (scope: AccountScope) => one(scope, 'account', scope.accountId),
  house: (scope: AccountScope, id: string) => one(scope, 'house', id),
  houses: (scope: AccountScope) => ofType(scope, 'house'),
  group: (scope: AccountScope, id: string) => one(scope, 'group', id),
  groups: (scope: AccountScope) => ofType(scope, 'group'),
  membership: (scope: AccountScope, userId: string) =>
    one(scope, 'membership', membershipId(userId)),
  memberships: (scope: AccountScope) => ofType(scope, 'membership'),
  invitation: (scope: AccountScope, id: string) => one(scope, 'invitation', id),
  pendingInvitations: (scope: AccountScope) => ofType(scope, 'invitation', "c.status = 'pending'"),
  pendingInvitationFor: async (scope: AccountScope, email: string) =>
    (
      await ofType(scope, 'invitation', "c.status = 'pending' AND c.email = @email", [
        { name: '@email', value: email },
      ])
    )[0],

  create: async <T extends TenantIdentityRecord>(scope: AccountScope, record: T) =>
    (await tenant.create(scope, record)) as unknown as Stored<T>,
  replace: async <T extends TenantIdentityRecord>(scope: AccountScope, record: Stored<T>) =>
    (await tenant.replace(scope, record, record._etag)) as unknown as Stored<T>,
  remove: (scope: AccountScope, id: string) => tenant.delete(scope, id),

  /**
   * Writes several records of one account together: Cosmos applies a batch in one partition
   * all or nothing, so an account is never left half made.
   */
  async createTogether(scope: AccountScope, records: TenantIdentityRecord[]): Promise<void> {
    const response = await accounts().items.batch(
      records.map((record): OperationInput => ({
        operationType: 'Create',
        resourceBody: { ...record, accountId: scope.accountId } as unknown as JSONObject,
      })),
      scope.accountId,
    );
    const failed = response.result?.find((result) => result.statusCode >= 400);
    if (failed) {
      throw Object.assign(new Error('Batch write failed'), { code: failed.statusCode });
    }
  },

  /** Every active membership of one person, across accounts (for sign-in and the picker). */
  async membershipsOfUser(userId: string): Promise<Stored<MembershipRecord>[]> {
    const { resources } = await accounts()
      .items.query<Stored<MembershipRecord>>({
        query: "SELECT * FROM c WHERE c.type = 'membership' AND c.userId = @userId",
        parameters: [{ name: '@userId', value: userId }],
      })
      .fetchAll();
    return resources;
  },

  async accountsByIds(accountIds: string[]): Promise<Stored<AccountRecord>[]> {
    if (!accountIds.length) return [];
    const { resources } = await accounts()
      .items.query<Stored<AccountRecord>>({
        query: "SELECT * FROM c WHERE c.type = 'account' AND ARRAY_CONTAINS(@ids, c.id)",
        parameters: [{ name: '@ids', value: accountIds }],
      })
      .fetchAll();
    return resources;
  },
};

export type { AccountRecord, GroupRecord, HouseRecord, InvitationRecord, MembershipRecord };
