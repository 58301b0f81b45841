import { container } from '../../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../../platform/repo.js';
import {
  membershipId,
  type AccountRecord,
  type GroupRecord,
  type HouseRecord,
  type MembershipRecord,
} from '../shared/identity.model.js';

/** What accounts keep in the account's partition (invitations there are the team's). */
export type AccountPartRecord = AccountRecord | HouseRecord | GroupRecord | MembershipRecord;

const tenant = new TenantRepository<AccountPartRecord>('accounts');
const accounts = () => container('accounts');

type Kind = AccountPartRecord['type'];
type OfKind<K extends Kind> = Extract<AccountPartRecord, { type: K }>;

async function ofType<K extends Kind>(scope: AccountScope, type: K): Promise<Stored<OfKind<K>>[]> {
  const all = await tenant.all(scope, {
    where: 'c.type = @type',
    parameters: [{ name: '@type', value: type }],
  });
  return all as Stored<OfKind<K>>[];
}

async function one<K extends Kind>(scope: AccountScope, type: K, id: string) {
  const found = await tenant.find(scope, id);
  return found && found.type === type ? (found as Stored<OfKind<K>>) : undefined;
}

/** Accounts, their houses and groups, and memberships: one partition per account. */
export const accountsRepo = {
  account: (scope: AccountScope) => one(scope, 'account', scope.accountId),
  house: (scope: AccountScope, id: string) => one(scope, 'house', id),
  houses: (scope: AccountScope) => ofType(scope, 'house'),
  group: (scope: AccountScope, id: string) => one(scope, 'group', id),
  groups: (scope: AccountScope) => ofType(scope, 'group'),
  membership: (scope: AccountScope, userId: string) =>
    one(scope, 'membership', membershipId(userId)),
  memberships: (scope: AccountScope) => ofType(scope, 'membership'),

  create: async <T extends AccountPartRecord>(scope: AccountScope, record: T) =>
    (await tenant.create(scope, record)) as unknown as Stored<T>,
  /** Replaces only if nobody changed the record since `etag` was read; otherwise 412. */
  replace: async <T extends AccountPartRecord>(scope: AccountScope, record: T, etag: string) =>
    (await tenant.replace(scope, record, etag)) as unknown as Stored<T>,
  remove: (scope: AccountScope, id: string) => tenant.delete(scope, id),

  /** Creates several records of one account all or none, so an account is never left half made. */
  async createTogether(scope: AccountScope, records: AccountPartRecord[]): Promise<void> {
    await tenant.batch(
      scope,
      records.map((document) => ({ op: 'create' as const, document })),
    );
  },

  /** Every membership of one person, across accounts (for sign-in and the picker). */
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
