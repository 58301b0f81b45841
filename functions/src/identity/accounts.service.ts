import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { badRequest, forbidden, notFound } from '../platform/errors.js';
import type { UserContext } from '../platform/context.js';
import type { Stored } from '../platform/repo.js';
import { accountsRepo } from './accounts.repo.js';
import { memberContext } from './access-token.service.js';
import type { AccountType, HouseGroup } from './identity.schema.js';
import type { GroupRecord, HouseRecord } from './identity.model.js';
import { createOwnedAccount } from './account-factory.js';
import { liveSessionsOf, revokeSession } from './sessions.service.js';
import { usersRepo } from './users.repo.js';
import { requireUser } from './credentials.service.js';

/** Another account's id answers 404: a member of one account learns nothing of another. */
function ownAccount(ctx: UserContext, accountId: string) {
  if (accountId !== ctx.scope.accountId) throw notFound('Account not found');
  return ctx.scope;
}

export async function currentAccount(ctx: UserContext) {
  const user = requireUser(await usersRepo.find(ctx.actor.userId));
  return (await memberContext(user, ctx.scope.accountId)).view;
}

export async function accountById(ctx: UserContext, accountId: string) {
  const user = requireUser(await usersRepo.find(ctx.actor.userId));
  // Any account the person belongs to, not just the current one.
  return (await memberContext(user, accountId)).view;
}

export async function updateAccount(
  ctx: UserContext,
  accountId: string,
  changes: { name?: string | undefined; type?: AccountType | undefined },
) {
  const scope = ownAccount(ctx, accountId);
  const account = await accountsRepo.account(scope);
  if (!account) throw notFound('Account not found');
  const updated = await accountsRepo.replace(scope, {
    ...account,
    name: changes.name ?? account.name,
    accountType: changes.type ?? account.accountType,
    updatedAt: new Date().toISOString(),
  });
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
  const account = await accountsRepo.account(scope);
  if (!account) throw notFound('Account not found');
  if (account.ownerUserId !== ctx.actor.userId)
    throw forbidden('Only the account owner can close the account');
  await accountsRepo.replace(scope, {
    ...account,
    status: 'deleted' as const,
    updatedAt: new Date().toISOString(),
  });
  for (const membership of await accountsRepo.memberships(scope)) {
    for (const session of await liveSessionsOf(membership.userId)) {
      if (session.accountId === account.id) await revokeSession(session, 'account-closed');
    }
  }
  await writeAudit(ctx, {
    action: 'account.delete',
    entity: { type: 'account', id: account.id },
  });
}

export async function createAccount(ctx: UserContext, input: { name: string; type: AccountType }) {
  const user = requireUser(await usersRepo.find(ctx.actor.userId));
  const account = await createOwnedAccount(user, input.name, input.type);
  return (await memberContext(user, account.id)).view;
}

export async function setDefaultAccount(ctx: UserContext, accountId: string) {
  const user = requireUser(await usersRepo.find(ctx.actor.userId));
  await memberContext(user, accountId);
  await usersRepo.replace({ ...user, defaultAccountId: accountId });
}

// ---- Houses ----

function houseFields(
  input: Omit<HouseRecord, 'id' | 'accountId' | 'type' | 'createdAt' | 'updatedAt'>,
) {
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
  };
}

export async function createHouse(
  ctx: UserContext,
  input: Omit<HouseRecord, 'id' | 'accountId' | 'type' | 'createdAt' | 'updatedAt'>,
) {
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
  return (await currentAccount(ctx)).houses.find((candidate) => candidate.id === house.id);
}

export async function updateHouse(
  ctx: UserContext,
  houseId: string,
  changes: Partial<Omit<HouseRecord, 'id' | 'accountId' | 'type' | 'createdAt' | 'updatedAt'>>,
) {
  const scope = ctx.scope;
  const house = await accountsRepo.house(scope, houseId);
  if (!house) throw notFound('Auction house not found');
  const updated = await accountsRepo.replace(scope, {
    ...house,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(ctx, {
    action: 'house.update',
    entity: { type: 'house', id: houseId },
    before: houseFields(house),
    after: houseFields(updated),
  });
  return (await currentAccount(ctx)).houses.find((candidate) => candidate.id === houseId);
}

/** Removes the house, and with it every member's access to it and its place in any group. */
export async function deleteHouse(ctx: UserContext, houseId: string) {
  const scope = ctx.scope;
  const house = await accountsRepo.house(scope, houseId);
  if (!house) throw notFound('Auction house not found');
  for (const membership of await accountsRepo.memberships(scope)) {
    if (membership.houses.some((grant) => grant.houseId === houseId)) {
      await accountsRepo.replace(scope, {
        ...membership,
        houses: membership.houses.filter((grant) => grant.houseId !== houseId),
      });
    }
  }
  for (const group of await accountsRepo.groups(scope)) {
    if (group.houseIds.includes(houseId)) {
      await accountsRepo.replace(scope, {
        ...group,
        houseIds: group.houseIds.filter((id) => id !== houseId),
      });
    }
  }
  await accountsRepo.remove(scope, houseId);
  await writeAudit(ctx, {
    action: 'house.delete',
    entity: { type: 'house', id: houseId },
    before: houseFields(house),
  });
}

// ---- Groups ----

const toGroup = (group: GroupRecord): HouseGroup => ({
  id: group.id,
  name: group.name,
  description: group.description,
  houseIds: group.houseIds,
  createdAt: group.createdAt,
});

async function assertHouses(ctx: UserContext, houseIds: string[]) {
  const houses = await accountsRepo.houses(ctx.scope);
  if (houseIds.some((id) => !houses.some((house) => house.id === id))) {
    throw badRequest('houseIds: names a house that does not exist');
  }
}

export async function listGroups(ctx: UserContext) {
  return (await accountsRepo.groups(ctx.scope))
    .map(toGroup)
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function createGroup(
  ctx: UserContext,
  input: { name: string; description: string; houseIds: string[] },
) {
  await assertHouses(ctx, input.houseIds);
  const scope = ctx.scope;
  const now = new Date().toISOString();
  const group = await accountsRepo.create<GroupRecord>(scope, {
    id: randomUUID(),
    accountId: scope.accountId,
    type: 'group',
    name: input.name,
    description: input.description,
    houseIds: [...new Set(input.houseIds)],
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(ctx, {
    action: 'group.create',
    entity: { type: 'group', id: group.id },
    after: toGroup(group),
  });
  return toGroup(group);
}

export async function updateGroup(
  ctx: UserContext,
  groupId: string,
  changes: {
    name?: string | undefined;
    description?: string | undefined;
    houseIds?: string[] | undefined;
  },
) {
  const scope = ctx.scope;
  const group = await accountsRepo.group(scope, groupId);
  if (!group) throw notFound('Group not found');
  if (changes.houseIds) await assertHouses(ctx, changes.houseIds);
  const updated: Stored<GroupRecord> = await accountsRepo.replace(scope, {
    ...group,
    name: changes.name ?? group.name,
    description: changes.description ?? group.description,
    houseIds: changes.houseIds ? [...new Set(changes.houseIds)] : group.houseIds,
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(ctx, {
    action: 'group.update',
    entity: { type: 'group', id: groupId },
    before: toGroup(group),
    after: toGroup(updated),
  });
  return toGroup(updated);
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
    before: toGroup(group),
  });
}

/** An account's name, for messages other features send on its behalf. */
export async function accountNameOf(accountId: string): Promise<string> {
  return (await accountsRepo.account({ accountId }))?.name ?? 'Your auction house';
}
