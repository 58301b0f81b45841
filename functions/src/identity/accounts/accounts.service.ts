import { randomUUID } from 'node:crypto';
import { countAuctionsByHouse } from '../../auctions/auctions.service.js';
import { countBiddersByHouse } from '../../bidders/bidders.service.js';
import { writeAudit } from '../../platform/audit.js';
import { systemContext, type RequestContext, type UserContext } from '../../platform/context.js';
import { isStale } from '../../platform/cosmos-errors.js';
import { conflict, forbidden, notFound, unauthorized } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { validationError } from '../../platform/validation.js';
import { evaluateFlag, evaluateFlags } from '../../platform/flags.js';
import type { AccountScope, Stored } from '../../platform/repo.js';
import {
  DEFAULT_SESSION_IDLE_MINUTES,
  DEFAULT_SESSION_MAX_DAYS,
  endSessions,
} from '../sessions/sessions.service.js';
import {
  membershipId,
  type AccountRecord,
  type GroupRecord,
  type HouseRecord,
  type MembershipRecord,
  type UserRecord,
} from '../shared/identity.model.js';
import { fullName, saveUser, signedInUser, toUserView } from '../shared/users.service.js';
import type {
  AccountAccess,
  AccountType,
  AccountUpdate,
  GroupUpdate,
  HouseGroup,
  HouseInput,
  HouseUpdate,
} from './accounts.schema.js';
import { DEFAULT_HOUSE_CURRENCY } from './accounts.schema.js';
import { accountsRepo } from './accounts.repo.js';
import {
  effectiveAccess,
  toAccountView,
  toHouse,
  type FeatureAvailability,
} from './member-access.js';

/** Another account's id answers 404: a member of one account learns nothing of another. */
function ownAccount(ctx: UserContext, accountId: string) {
  if (accountId !== ctx.scope.accountId) throw notFound('Account not found');
  return ctx.scope;
}

const definedOnly = <T extends object>(changes: T) =>
  Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  ) as Partial<T>;

// ---- The account as a member sees it ----

async function featureAvailability(
  account: AccountRecord,
  userId: string,
  role: string,
  houseCount: number,
): Promise<FeatureAvailability> {
  const context = {
    userId,
    groups: [role, `account:${account.id}`],
    tier: account.subscription.tier,
    houseCount,
  };
  const available = async (feature: keyof FeatureAvailability) => {
    if (!account.subscription.addOns[feature]) return false;
    const flag = await evaluateFlag(feature, context);
    // The add-on decides; a defined flag can still switch the feature off.
    return flag.defined ? flag.value : true;
  };
  return { inventory: await available('inventory'), payments: await available('payments') };
}

/** The account as this member sees it, and what their token will carry. */
export async function memberContext(userId: string, accountId: string) {
  const scope = { accountId };
  const account = await accountsRepo.account(scope);
  const membership = await accountsRepo.membership(scope, userId);
  if (!account || account.status !== 'active' || !membership) throw notFound('Account not found');
  if (membership.status !== 'active') {
    throw forbidden('Your access to this account has been deactivated. Contact the account owner.');
  }
  const [houses, memberships] = await Promise.all([
    accountsRepo.houses(scope),
    accountsRepo.memberships(scope),
  ]);
  const access = effectiveAccess(membership, houses);
  const features = await featureAvailability(account, userId, access.role, houses.length);
  return {
    account,
    membership,
    access,
    features,
    view: toAccountView(account, houses, memberships, access, features),
  };
}

export async function currentAccount(ctx: UserContext) {
  await signedInUser(ctx);
  return (await memberContext(ctx.actor.userId, ctx.scope.accountId)).view;
}

export async function accountById(ctx: UserContext, accountId: string) {
  await signedInUser(ctx);
  // Any account the person belongs to, not just the current one.
  return (await memberContext(ctx.actor.userId, accountId)).view;
}

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

export async function myAccounts(ctx: UserContext) {
  const user = await signedInUser(ctx);
  return accountAccessList(user.id, user.defaultAccountId);
}

/** The signed-in person, the accounts they can open and the one they are working in. */
export async function me(ctx: UserContext) {
  const user = await signedInUser(ctx);
  return {
    user: toUserView(user),
    accounts: await accountAccessList(user.id, user.defaultAccountId),
    account: (await memberContext(user.id, ctx.scope.accountId)).view,
  };
}

export async function myHouseAccess(ctx: UserContext) {
  const account = await currentAccount(ctx);
  return { role: account.role, houses: account.houseAccess };
}

/** Every feature flag as it applies to the caller, and the account's paid features. */
export async function featureFlags(ctx: UserContext) {
  const account = await accountOf(ctx.scope);
  const houses = await accountsRepo.houses(ctx.scope);
  const flags = await evaluateFlags({
    userId: ctx.actor.userId,
    groups: [ctx.actor.role, `account:${ctx.scope.accountId}`],
    tier: account.subscription.tier,
    houseCount: houses.length,
  });
  return {
    flags: Object.fromEntries(Object.entries(flags).map(([name, flag]) => [name, flag.value])),
    features: {
      inventory: ctx.features.has('inventory'),
      payments: ctx.features.has('payments'),
    },
    refreshedAt: new Date().toISOString(),
  };
}

// ---- Accounts ----

/** When an account switches its MFA policy on, members have this long to enrol unless it says. */
const DEFAULT_MFA_GRACE_DAYS = 30;

/** What a ready-made account starts with (the demo sandbox, the local seed). */
export interface AccountPlan {
  subscription: AccountRecord['subscription'];
  houses: HouseInput[];
  /** Each group names its houses by name. */
  groups: { name: string; description: string; houseNames: string[] }[];
}

export interface NewAccountOptions {
  /** The id to give it, when the caller must name the account before it exists. */
  id?: string;
  subscription?: AccountRecord['subscription'];
  /** Marks a demo sandbox, removed at this time with everything in it. */
  demoExpiresAt?: string;
}

/** Everything a new account starts with: the free plan, no add-ons, MFA policy off. */
function newAccountRecord(
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
  options: NewAccountOptions = {},
): Promise<AccountRecord> {
  const accountId = options.id ?? randomUUID();
  const account: AccountRecord = {
    ...newAccountRecord(accountId, name, type, user.id),
    ...(options.subscription ? { subscription: options.subscription } : {}),
    ...(options.demoExpiresAt ? { demoExpiresAt: options.demoExpiresAt } : {}),
  };
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

/** Adds a plan's houses and groups to a new account, all in one write, and answers the houses. */
export async function furnishAccount(
  ctx: RequestContext,
  plan: Pick<AccountPlan, 'houses' | 'groups'>,
): Promise<HouseRecord[]> {
  const scope = ctx.scope;
  const now = new Date().toISOString();
  const houses = plan.houses.map((input): HouseRecord => ({
    id: randomUUID(),
    accountId: scope.accountId,
    type: 'house',
    ...houseFields(input),
    createdAt: now,
    updatedAt: now,
  }));
  const groups = plan.groups.map((input): GroupRecord => ({
    id: randomUUID(),
    accountId: scope.accountId,
    type: 'group',
    name: input.name,
    description: input.description,
    houseIds: houses.filter((house) => input.houseNames.includes(house.name)).map((h) => h.id),
    createdAt: now,
    updatedAt: now,
  }));
  await accountsRepo.createTogether(scope, [...houses, ...groups]);
  for (const house of houses) {
    await writeAudit(ctx, {
      action: 'house.create',
      entity: { type: 'house', id: house.id },
      after: houseFields(house),
    });
  }
  for (const { id, name, description, houseIds } of groups) {
    await writeAudit(ctx, {
      action: 'group.create',
      entity: { type: 'group', id },
      after: { id, name, description, houseIds },
    });
  }
  return houses;
}

export async function createAccount(ctx: UserContext, input: { name: string; type: AccountType }) {
  const user = await signedInUser(ctx);
  const account = await createOwnedAccount(user, input.name, input.type);
  return (await memberContext(user.id, account.id)).view;
}

export async function setDefaultAccount(ctx: UserContext, accountId: string) {
  const user = await signedInUser(ctx);
  await memberContext(user.id, accountId);
  await saveUser(user, { defaultAccountId: accountId });
}

export const findAccount = (scope: AccountScope) => accountsRepo.account(scope);

/** The account record, or 404. */
export async function accountOf(scope: AccountScope): Promise<Stored<AccountRecord>> {
  const account = await findAccount(scope);
  if (!account) throw notFound('Account not found');
  return account;
}

/** Renames or retypes the account, as the caller saw it at `etag`. */
export async function updateAccount(
  ctx: UserContext,
  accountId: string,
  etag: string,
  changes: AccountUpdate,
) {
  const scope = ownAccount(ctx, accountId);
  const account = await accountOf(scope);
  const updated = await accountsRepo.replace(
    scope,
    {
      ...account,
      name: changes.name ?? account.name,
      accountType: changes.type ?? account.accountType,
      updatedAt: new Date().toISOString(),
    },
    etag,
  );
  await writeAudit(ctx, {
    action: 'account.update',
    entity: { type: 'account', id: account.id },
    before: { name: account.name, type: account.accountType },
    after: { name: updated.name, type: updated.accountType },
  });
  return currentAccount(ctx);
}

/**
 * Closes an account: nobody can open it any more and every session in it ends. Its records stay
 * for the retention period rather than vanishing with one click.
 */
export async function deleteAccount(ctx: UserContext, accountId: string) {
  const scope = ownAccount(ctx, accountId);
  const account = await accountOf(scope);
  if (account.ownerUserId !== ctx.actor.userId)
    throw forbidden('Only the account owner can close the account');
  await accountsRepo.replace(
    scope,
    { ...account, status: 'deleted' as const, updatedAt: new Date().toISOString() },
    account._etag,
  );
  for (const membership of await accountsRepo.memberships(scope)) {
    await endSessions(membership.userId, 'account-closed', { in: account.id });
  }
  await writeAudit(ctx, {
    action: 'account.delete',
    entity: { type: 'account', id: account.id },
  });
}

/** Whether an account is open (not closed): the house's API keys work only while it is. */
export async function accountIsOpen(accountId: string): Promise<boolean> {
  return (await accountsRepo.account({ accountId }))?.status === 'active';
}

/** An account's name, for messages other features send on its behalf. */
export async function accountNameOf(accountId: string): Promise<string> {
  return (await accountsRepo.account({ accountId }))?.name ?? 'Your auction house';
}

// ---- The plan billing keeps in step ----

export type PaidPlan = Pick<AccountRecord['subscription'], 'tier' | 'addOns'>;

/** How long a service instance trusts the plan revision it read for the token check. */
const PLAN_CHECK_TTL_MS = 30_000;
const planRevisions = new Map<string, { revision: number; readAt: number }>();

/**
 * Sets the tier and add-ons billing says the account has paid for. A change raises the plan's
 * revision, which makes every token issued before it stale (see `planGuard`), so features follow
 * the subscription within a minute for everyone signed in.
 */
export async function applyPlan(accountId: string, plan: PaidPlan): Promise<boolean> {
  const scope = { accountId };
  for (;;) {
    const account = await accountsRepo.account(scope);
    if (!account) throw notFound('Account not found');
    const current = account.subscription;
    const same =
      current.tier === plan.tier &&
      current.addOns.inventory === plan.addOns.inventory &&
      current.addOns.payments === plan.addOns.payments;
    if (same) return false;
    const revision = (current.revision ?? 0) + 1;
    const next = {
      ...account,
      subscription: { ...plan, revision },
      updatedAt: new Date().toISOString(),
    };
    try {
      await accountsRepo.replace(scope, next, account._etag);
    } catch (error) {
      if (isStale(error)) continue;
      throw error;
    }
    planRevisions.set(accountId, { revision, readAt: Date.now() });
    await writeAudit(systemContext(accountId), {
      action: 'account.plan',
      entity: { type: 'account', id: accountId },
      before: { tier: current.tier, addOns: current.addOns },
      after: plan,
    });
    return true;
  }
}

/** The tier and add-ons the account has now, whoever set them (billing, or a demo sandbox). */
export async function accountPlanOf(accountId: string): Promise<PaidPlan> {
  const account = await accountsRepo.account({ accountId });
  if (!account) throw notFound('Account not found');
  return { tier: account.subscription.tier, addOns: account.subscription.addOns };
}

/**
 * Refuses a token issued before the account's plan last changed: the client's one refresh on a
 * 401 brings a token with the features the account has now.
 */
export async function planGuard(principal: Principal): Promise<void> {
  const cached = planRevisions.get(principal.accountId);
  let revision =
    cached && Date.now() - cached.readAt < PLAN_CHECK_TTL_MS ? cached.revision : undefined;
  if (revision === undefined) {
    const account = await accountsRepo.account({ accountId: principal.accountId });
    revision = account?.subscription.revision ?? 0;
    planRevisions.set(principal.accountId, { revision, readAt: Date.now() });
  }
  if (revision > principal.planRevision) {
    throw unauthorized('Your plan has changed: refresh your sign-in to continue');
  }
}

// ---- Houses ----

type HouseFields = Omit<HouseRecord, 'id' | 'accountId' | 'type' | 'createdAt' | 'updatedAt'>;

function houseFields(input: HouseFields): HouseFields {
  return {
    name: input.name,
    businessName: input.businessName,
    status: input.status,
    address: input.address,
    city: input.city,
    state: input.state,
    zip: input.zip,
    country: input.country,
    phone: input.phone,
    email: input.email,
    website: input.website,
    timezone: input.timezone,
    currency: input.currency ?? DEFAULT_HOUSE_CURRENCY,
  };
}

export const housesOf = (scope: AccountScope) => accountsRepo.houses(scope);

export async function listHouses(ctx: UserContext) {
  return (await currentAccount(ctx)).houses;
}

async function houseView(scope: AccountScope, house: Stored<HouseRecord>) {
  return toHouse(house, await accountsRepo.memberships(scope));
}

export async function getHouse(ctx: UserContext, houseId: string) {
  const house = await accountsRepo.house(ctx.scope, houseId);
  if (!house) throw notFound('Auction house not found');
  return houseView(ctx.scope, house);
}

export async function createHouse(ctx: UserContext, input: HouseInput) {
  const scope = ctx.scope;
  const now = new Date().toISOString();
  const house = await accountsRepo.create<HouseRecord>(scope, {
    id: randomUUID(),
    accountId: scope.accountId,
    type: 'house',
    ...houseFields(input),
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(ctx, {
    action: 'house.create',
    entity: { type: 'house', id: house.id },
    after: houseFields(house),
  });
  return houseView(scope, house);
}

/** Changes what was sent of a house, as the caller saw it at `etag`. */
export async function updateHouse(
  ctx: UserContext,
  houseId: string,
  etag: string,
  changes: HouseUpdate,
) {
  const scope = ctx.scope;
  const house = await accountsRepo.house(scope, houseId);
  if (!house) throw notFound('Auction house not found');
  const updated = await accountsRepo.replace(
    scope,
    { ...house, ...definedOnly(changes), updatedAt: new Date().toISOString() },
    etag,
  );
  await writeAudit(ctx, {
    action: 'house.update',
    entity: { type: 'house', id: houseId },
    before: houseFields(house),
    after: houseFields(updated),
  });
  return houseView(scope, updated);
}

const counted = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;

/** "a", "a and b", "a, b and c". */
const inWords = (parts: string[]) =>
  parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');

/**
 * Why a house may not be deleted yet, if it may not: it is the account's last, or auctions,
 * bidders or team members (other than the owner, who works in every house) still belong to it.
 * Nothing is moved or stripped silently; the person moves or removes them first.
 */
async function deletionBlocker(ctx: UserContext, house: Stored<HouseRecord>) {
  const scope = ctx.scope;
  const [houses, memberships, auctions, bidders] = await Promise.all([
    accountsRepo.houses(scope),
    accountsRepo.memberships(scope),
    countAuctionsByHouse(ctx, house.id),
    countBiddersByHouse(ctx, house.name),
  ]);
  if (houses.length <= 1) {
    return {
      message:
        'This is the only auction house in the account, and an account keeps at least one. Create another auction house first.',
      details: { lastHouse: true },
    };
  }
  const members = memberships.filter(
    (membership) =>
      membership.role !== 'owner' && membership.houses.some((grant) => grant.houseId === house.id),
  ).length;
  const parts = [
    ...(auctions ? [counted(auctions, 'auction', 'auctions')] : []),
    ...(bidders ? [counted(bidders, 'bidder', 'bidders')] : []),
    ...(members ? [counted(members, 'team member', 'team members')] : []),
  ];
  if (!parts.length) return null;
  const single = auctions + bidders + members === 1;
  return {
    message: `${inWords(parts)} still ${single ? 'belongs' : 'belong'} to this auction house. Move or remove them first.`,
    details: { auctions, bidders, members },
  };
}

/**
 * Deletes a house nothing depends on any more (409 saying what still does), and takes it out of
 * any group: a group is only a view of houses.
 */
/**
 * Takes a house out of a group, over any edit of the group made meanwhile (the edit stands, less
 * the house): the delete was not made against a version of the group.
 */
async function leaveGroup(scope: AccountScope, groupId: string, houseId: string) {
  for (;;) {
    const group = await accountsRepo.group(scope, groupId);
    if (!group?.houseIds.includes(houseId)) return;
    try {
      await accountsRepo.replace(
        scope,
        { ...group, houseIds: group.houseIds.filter((id) => id !== houseId) },
        group._etag,
      );
      return;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
}

export async function deleteHouse(ctx: UserContext, houseId: string) {
  const scope = ctx.scope;
  const house = await accountsRepo.house(scope, houseId);
  if (!house) throw notFound('Auction house not found');
  const blocker = await deletionBlocker(ctx, house);
  if (blocker) throw conflict(blocker.message, blocker.details);
  for (const { id } of await accountsRepo.groups(scope)) await leaveGroup(scope, id, houseId);
  await accountsRepo.remove(scope, houseId);
  await writeAudit(ctx, {
    action: 'house.delete',
    entity: { type: 'house', id: houseId },
    before: houseFields(house),
  });
}

// ---- Groups ----

const toGroup = (group: Stored<GroupRecord>): HouseGroup => ({
  id: group.id,
  name: group.name,
  description: group.description,
  houseIds: group.houseIds,
  createdAt: group.createdAt,
  etag: group._etag,
});

const groupAudit = ({ etag: _etag, ...group }: HouseGroup) => group;

async function assertHouses(ctx: UserContext, houseIds: string[]) {
  const houses = await accountsRepo.houses(ctx.scope);
  if (houseIds.some((id) => !houses.some((house) => house.id === id))) {
    throw validationError([
      { location: 'body', field: 'houseIds', message: 'names a house that does not exist' },
    ]);
  }
}

export async function listGroups(ctx: UserContext) {
  return (await accountsRepo.groups(ctx.scope))
    .map(toGroup)
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function getGroup(ctx: UserContext, groupId: string) {
  const group = await accountsRepo.group(ctx.scope, groupId);
  if (!group) throw notFound('Group not found');
  return toGroup(group);
}

export async function createGroup(
  ctx: UserContext,
  input: { name: string; description: string; houseIds: string[] },
) {
  await assertHouses(ctx, input.houseIds);
  const scope = ctx.scope;
  const now = new Date().toISOString();
  const group = toGroup(
    await accountsRepo.create<GroupRecord>(scope, {
      id: randomUUID(),
      accountId: scope.accountId,
      type: 'group',
      name: input.name,
      description: input.description,
      houseIds: [...new Set(input.houseIds)],
      createdAt: now,
      updatedAt: now,
    }),
  );
  await writeAudit(ctx, {
    action: 'group.create',
    entity: { type: 'group', id: group.id },
    after: groupAudit(group),
  });
  return group;
}

/** Changes what was sent of a group, as the caller saw it at `etag`. */
export async function updateGroup(
  ctx: UserContext,
  groupId: string,
  etag: string,
  changes: GroupUpdate,
) {
  const scope = ctx.scope;
  const group = await accountsRepo.group(scope, groupId);
  if (!group) throw notFound('Group not found');
  if (changes.houseIds) await assertHouses(ctx, changes.houseIds);
  const updated = toGroup(
    await accountsRepo.replace(
      scope,
      {
        ...group,
        name: changes.name ?? group.name,
        description: changes.description ?? group.description,
        houseIds: changes.houseIds ? [...new Set(changes.houseIds)] : group.houseIds,
        updatedAt: new Date().toISOString(),
      },
      etag,
    ),
  );
  await writeAudit(ctx, {
    action: 'group.update',
    entity: { type: 'group', id: groupId },
    before: groupAudit(toGroup(group)),
    after: groupAudit(updated),
  });
  return updated;
}

/** Deletes the group only; its houses stay in the account. */
export async function deleteGroup(ctx: UserContext, groupId: string) {
  const scope = ctx.scope;
  const group = await accountsRepo.group(scope, groupId);
  if (!group) throw notFound('Group not found');
  await accountsRepo.remove(scope, groupId);
  await writeAudit(ctx, {
    action: 'group.delete',
    entity: { type: 'group', id: groupId },
    before: groupAudit(toGroup(group)),
  });
}

// ---- Memberships, for the team and MFA parts ----

export const membershipOf = (scope: AccountScope, userId: string) =>
  accountsRepo.membership(scope, userId);
export const membershipsOf = (scope: AccountScope) => accountsRepo.memberships(scope);
export const addMembership = (scope: AccountScope, membership: MembershipRecord) =>
  accountsRepo.create(scope, membership);
/** Saves a membership read at `etag`; 412 when someone changed it since. */
export const saveMembership = (scope: AccountScope, membership: MembershipRecord, etag: string) =>
  accountsRepo.replace(scope, { ...membership, updatedAt: new Date().toISOString() }, etag);

/** Team lists show each member's email: after a person changes theirs, every account follows. */
export async function followEmailChange(userId: string, email: string): Promise<void> {
  for (const membership of await accountsRepo.membershipsOfUser(userId)) {
    await accountsRepo
      .replace({ accountId: membership.accountId }, { ...membership, email }, membership._etag)
      .catch(() => undefined);
  }
}
