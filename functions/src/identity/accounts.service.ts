import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { badRequest, forbidden, notFound } from '../platform/errors.js';
import type { Principal } from '../platform/principal.js';
import { scopeOf, type Stored } from '../platform/repo.js';
import { accountsRepo } from './accounts.repo.js';
import { memberContext } from './access-token.service.js';
import type { AccountType, HouseGroup } from './identity.schema.js';
import type { GroupRecord, HouseRecord } from './identity.model.js';
import { createOwnedAccount } from './account-factory.js';
import { liveSessionsOf, revokeSession } from './sessions.service.js';
import { usersRepo } from './users.repo.js';
import { requireUser } from './credentials.service.js';

/** Another account's id answers 404: a member of one account learns nothing of another. */
function ownAccount(principal: Principal, accountId: string) {
  if (accountId !== principal.accountId) throw notFound('Account not found');
  return scopeOf(principal);
}

export async function currentAccount(principal: Principal) {
  const user = requireUser(await usersRepo.find(principal.userId));
  return (await memberContext(user, principal.accountId)).view;
}

export async function accountById(principal: Principal, accountId: string) {
  const user = requireUser(await usersRepo.find(principal.userId));
  // Any account the person belongs to, not just the current one.
  return (await memberContext(user, accountId)).view;
}

export async function updateAccount(
  principal: Principal,
  accountId: string,
  changes: { name?: string | undefined; type?: AccountType | undefined },
  correlationId: string,
) {
  const scope = ownAccount(principal, accountId);
  const account = await accountsRepo.account(scope);
  if (!account) throw notFound('Account not found');
  const updated = await accountsRepo.replace(scope, {
    ...account,
    name: changes.name ?? account.name,
    accountType: changes.type ?? account.accountType,
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(scope, {
    action: 'account.update',
    entity: { type: 'account', id: account.id },
    before: { name: account.name, type: account.accountType },
    after: { name: updated.name, type: updated.accountType },
    correlationId,
  });
  return currentAccount(principal);
}

/**
 * Closes an account: nobody can open it any more and every session in it ends. Its records stay
 * for the retention period rather than vanishing with one click.
 */
export async function deleteAccount(
  principal: Principal,
  accountId: string,
  correlationId: string,
) {
  const scope = ownAccount(principal, accountId);
  const account = await accountsRepo.account(scope);
  if (!account) throw notFound('Account not found');
  if (account.ownerUserId !== principal.userId)
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
  await writeAudit(scope, {
    action: 'account.delete',
    entity: { type: 'account', id: account.id },
    correlationId,
  });
}

export async function createAccount(
  principal: Principal,
  input: { name: string; type: AccountType },
) {
  const user = requireUser(await usersRepo.find(principal.userId));
  const account = await createOwnedAccount(user, input.name, input.type);
  return (await memberContext(user, account.id)).view;
}

export async function setDefaultAccount(principal: Principal, accountId: string) {
  const user = requireUser(await usersRepo.find(principal.userId));
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
  principal: Principal,
  input: Omit<HouseRecord, 'id' | 'accountId' | 'type' | 'createdAt' | 'updatedAt'>,
  correlationId: string,
) {
  const scope = scopeOf(principal);
  const now = new Date().toISOString();
  const house = await accountsRepo.create<HouseRecord>(scope, {
    id: randomUUID(),
    accountId: scope.accountId,
    type: 'house',
    ...houseFields(input),
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(scope, {
    action: 'house.create',
    entity: { type: 'house', id: house.id },
    after: houseFields(house),
    correlationId,
  });
  return (await currentAccount(principal)).houses.find((candidate) => candidate.id === house.id);
}

export async function updateHouse(
  principal: Principal,
  houseId: string,
  changes: Partial<Omit<HouseRecord, 'id' | 'accountId' | 'type' | 'createdAt' | 'updatedAt'>>,
  correlationId: string,
) {
  const scope = scopeOf(principal);
  const house = await accountsRepo.house(scope, houseId);
  if (!house) throw notFound('Auction house not found');
  const updated = await accountsRepo.replace(scope, {
    ...house,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(scope, {
    action: 'house.update',
    entity: { type: 'house', id: houseId },
    before: houseFields(house),
    after: houseFields(updated),
    correlationId,
  });
  return (await currentAccount(principal)).houses.find((candidate) => candidate.id === houseId);
}

/** Removes the house, and with it every member's access to it and its place in any group. */
export async function deleteHouse(principal: Principal, houseId: string, correlationId: string) {
  const scope = scopeOf(principal);
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
  await writeAudit(scope, {
    action: 'house.delete',
    entity: { type: 'house', id: houseId },
    before: houseFields(house),
    correlationId,
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

async function assertHouses(principal: Principal, houseIds: string[]) {
  const houses = await accountsRepo.houses(scopeOf(principal));
  if (houseIds.some((id) => !houses.some((house) => house.id === id))) {
    throw badRequest('houseIds: names a house that does not exist');
  }
}

export async function listGroups(principal: Principal) {
  return (await accountsRepo.groups(scopeOf(principal)))
    .map(toGroup)
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function createGroup(
  principal: Principal,
  input: { name: string; description: string; houseIds: string[] },
  correlationId: string,
) {
  await assertHouses(principal, input.houseIds);
  const scope = scopeOf(principal);
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
  await writeAudit(scope, {
    action: 'group.create',
    entity: { type: 'group', id: group.id },
    after: toGroup(group),
    correlationId,
  });
  return toGroup(group);
}

export async function updateGroup(
  principal: Principal,
  groupId: string,
  changes: {
    name?: string | undefined;
    description?: string | undefined;
    houseIds?: string[] | undefined;
  },
  correlationId: string,
) {
  const scope = scopeOf(principal);
  const group = await accountsRepo.group(scope, groupId);
  if (!group) throw notFound('Group not found');
  if (changes.houseIds) await assertHouses(principal, changes.houseIds);
  const updated: Stored<GroupRecord> = await accountsRepo.replace(scope, {
    ...group,
    name: changes.name ?? group.name,
    description: changes.description ?? group.description,
    houseIds: changes.houseIds ? [...new Set(changes.houseIds)] : group.houseIds,
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(scope, {
    action: 'group.update',
    entity: { type: 'group', id: groupId },
    before: toGroup(group),
    after: toGroup(updated),
    correlationId,
  });
  return toGroup(updated);
}

/** Deletes the group only; its houses stay in the account. */
export async function deleteGroup(principal: Principal, groupId: string, correlationId: string) {
  const scope = scopeOf(principal);
  const group = await accountsRepo.group(scope, groupId);
  if (!group) throw notFound('Group not found');
  await accountsRepo.remove(scope, groupId);
  await writeAudit(scope, {
    action: 'group.delete',
    entity: { type: 'group', id: groupId },
    before: toGroup(group),
    correlationId,
  });
}

/** An account's name, for messages other features send on its behalf. */
export async function accountNameOf(accountId: string): Promise<string> {
  return (await accountsRepo.account({ accountId }))?.name ?? 'Your auction house';
}
