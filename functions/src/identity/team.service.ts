import { auditByActor, writeAudit } from '../platform/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors.js';
import type { UserContext } from '../platform/context.js';
import type { Stored } from '../platform/repo.js';
import { accountsRepo } from './accounts.repo.js';
import { effectiveAccess } from './access.js';
import type { TeamMember } from './identity.schema.js';
import type { HouseGrant, InvitationRecord, MembershipRecord } from './identity.model.js';
import { createInvitation } from './invitations.service.js';
import { notify } from '../notifications/notifications.service.js';
import {
  defaultPermissions,
  roleLabels,
  type AssignableRole,
  type Permission,
} from './permissions.js';
import { liveSessionsOf, revokeSession } from './sessions.service.js';
import { usersRepo } from './users.repo.js';

/** The spec's rule: only the owner or holders of users:invite manage users. */
function assertCanManage(ctx: UserContext) {
  if (!ctx.can('users:invite')) {
    throw forbidden('Only the account owner or users who can invite may manage users');
  }
}

async function targetMember(ctx: UserContext, userId: string, action: string) {
  const scope = ctx.scope;
  const membership = await accountsRepo.membership(scope, userId);
  if (!membership) throw notFound('User not found');
  if (membership.role === 'owner') throw forbidden(`The account owner cannot be ${action}`);
  if (userId === ctx.actor.userId)
    throw forbidden(`You cannot ${action.replace(/d$/, '')} your own account here`);
  if (membership.role === 'admin' && ctx.actor.role !== 'owner') {
    throw forbidden('Only the account owner can change an administrator');
  }
  return { scope, membership };
}

export async function listTeam(ctx: UserContext): Promise<TeamMember[]> {
  const scope = ctx.scope;
  const [memberships, invitations, houses] = await Promise.all([
    accountsRepo.memberships(scope),
    accountsRepo.pendingInvitations(scope),
    accountsRepo.houses(scope),
  ]);
  const users = new Map(
    (await usersRepo.findMany(memberships.map((member) => member.userId))).map((user) => [
      user.id,
      user,
    ]),
  );
  const members = memberships.map((membership): TeamMember => {
    const user = users.get(membership.userId);
    const access = effectiveAccess(membership, houses);
    return {
      id: membership.userId,
      kind: 'member',
      name: membership.name,
      email: membership.email,
      accountRole: membership.role,
      auctionHouseAccess: access.houses,
      permissions: access.permissions,
      mfa: {
        enabled: Boolean(user?.mfa.methods.some((method) => method.enabled && method.verified)),
      },
      status: membership.status === 'active' ? 'active' : 'suspended',
      lastLoginAt: user?.lastLoginAt ?? null,
      invitedAt: null,
      expiresAt: null,
    };
  });
  const pending = invitations
    .filter((invitation) => Date.parse(invitation.expiresAt) > Date.now())
    .map((invitation): TeamMember => ({
      id: invitation.id,
      kind: 'invitation',
      name: invitation.email,
      email: invitation.email,
      accountRole: invitation.role,
      auctionHouseAccess: invitation.houseIds.flatMap((houseId) => {
        const house = houses.find((candidate) => candidate.id === houseId);
        return house
          ? [
              {
                houseId,
                houseName: house.name,
                role: invitation.role,
                permissions: invitation.permissions,
              },
            ]
          : [];
      }),
      permissions: invitation.permissions.length
        ? invitation.permissions
        : defaultPermissions(invitation.role),
      mfa: { enabled: false },
      status: 'pending',
      lastLoginAt: null,
      invitedAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
    }));
  const order = { owner: 0, admin: 1, staff: 2, viewer: 3 };
  return [...members, ...pending].sort(
    (a, b) => order[a.accountRole] - order[b.accountRole] || a.name.localeCompare(b.name),
  );
}

export async function teamMember(ctx: UserContext, userId: string): Promise<TeamMember> {
  const found = (await listTeam(ctx)).find((member) => member.id === userId);
  if (!found) throw notFound('User not found');
  return found;
}

export async function invite(
  ctx: UserContext,
  input: {
    email: string;
    role: AssignableRole;
    permissions: Permission[];
    personalMessage?: string | undefined;
    auctionHouseIds?: string[] | undefined;
  },
): Promise<Stored<InvitationRecord>> {
  assertCanManage(ctx);
  // By default the invitation covers the inviting person's own houses, as the spec says.
  const houseIds = input.auctionHouseIds ?? ctx.scope.houses.map((house) => house.id);
  if (
    ctx.actor.role !== 'owner' &&
    houseIds.some((id) => !ctx.scope.houses.some((house) => house.id === id))
  ) {
    throw forbidden('You can only invite people to auction houses you have access to');
  }
  return createInvitation(ctx, { ...input, houseIds });
}

export async function changeRole(
  ctx: UserContext,
  userId: string,
  input: {
    role: AssignableRole;
    permissions?: Permission[] | undefined;
    houseId?: string | undefined;
  },
) {
  assertCanManage(ctx);
  if (input.role === 'admin' && ctx.actor.role !== 'owner') {
    throw forbidden('Only the account owner can grant the Admin role');
  }
  const { scope, membership } = await targetMember(ctx, userId, 'changed');
  const permissions = input.permissions?.length
    ? input.permissions
    : defaultPermissions(input.role);
  let houses: HouseGrant[];
  if (input.houseId) {
    const house = await accountsRepo.house(scope, input.houseId);
    if (!house) throw notFound('Auction house not found');
    houses = [
      ...membership.houses.filter((grant) => grant.houseId !== input.houseId),
      { houseId: input.houseId, role: input.role, permissions },
    ];
  } else {
    houses = membership.houses.map((grant) => ({ ...grant, role: input.role, permissions }));
  }
  const updated = await accountsRepo.replace<MembershipRecord>(scope, {
    ...membership,
    role: input.houseId ? membership.role : input.role,
    permissions: input.houseId ? membership.permissions : permissions,
    houses,
    updatedAt: new Date().toISOString(),
  });
  const account = await accountsRepo.account(scope);
  await notify(ctx, [userId], {
    kind: 'team.role-changed',
    title: 'Your role changed',
    body: `${ctx.actor.name} made you ${roleLabels[input.role]}${input.houseId ? ' in one of the houses' : ''} at ${account?.name ?? 'your account'}.`,
    link: '/security',
  });
  await writeAudit(ctx, {
    action: 'member.role-change',
    entity: { type: 'member', id: userId },
    before: { role: membership.role, houses: membership.houses },
    after: { role: updated.role, houses: updated.houses },
  });
  return teamMember(ctx, userId);
}

async function endSessionsIn(userId: string, accountId: string, reason: string) {
  for (const session of await liveSessionsOf(userId)) {
    if (session.accountId === accountId) await revokeSession(session, reason);
  }
}

export async function deactivate(ctx: UserContext, userId: string) {
  assertCanManage(ctx);
  const { scope, membership } = await targetMember(ctx, userId, 'deactivated');
  if (membership.status === 'suspended') throw conflict('This user is already deactivated');
  await accountsRepo.replace<MembershipRecord>(scope, {
    ...membership,
    status: 'suspended',
    updatedAt: new Date().toISOString(),
  });
  await endSessionsIn(userId, scope.accountId, 'deactivated');
  await writeAudit(ctx, {
    action: 'member.deactivate',
    entity: { type: 'member', id: userId },
    before: { status: 'active' },
    after: { status: 'suspended' },
  });
  return teamMember(ctx, userId);
}

export async function reactivate(ctx: UserContext, userId: string) {
  assertCanManage(ctx);
  const { scope, membership } = await targetMember(ctx, userId, 'reactivated');
  if (membership.status === 'active') throw conflict('This user is already active');
  await accountsRepo.replace<MembershipRecord>(scope, {
    ...membership,
    status: 'active',
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(ctx, {
    action: 'member.reactivate',
    entity: { type: 'member', id: userId },
    before: { status: 'suspended' },
    after: { status: 'active' },
  });
  return teamMember(ctx, userId);
}

export async function renameMember(ctx: UserContext, userId: string, name: string) {
  assertCanManage(ctx);
  const scope = ctx.scope;
  const membership = await accountsRepo.membership(scope, userId);
  if (!membership) throw notFound('User not found');
  await accountsRepo.replace<MembershipRecord>(scope, {
    ...membership,
    name,
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(ctx, {
    action: 'member.update',
    entity: { type: 'member', id: userId },
    before: { name: membership.name },
    after: { name },
  });
  return teamMember(ctx, userId);
}

/** Puts a member in a house (with a role) or takes them out of it. */
export async function setHouseGrant(
  ctx: UserContext,
  input: { userId: string; houseId: string; role?: AssignableRole | undefined },
  assign: boolean,
) {
  assertCanManage(ctx);
  const scope = ctx.scope;
  const membership = await accountsRepo.membership(scope, input.userId);
  if (!membership) throw notFound('User not found');
  if (membership.role === 'owner') throw badRequest('The account owner has access to every house');
  if (!(await accountsRepo.house(scope, input.houseId))) throw notFound('Auction house not found');
  const role = input.role ?? membership.role;
  if (assign && role === 'admin' && ctx.actor.role !== 'owner') {
    throw forbidden('Only the account owner can grant the Admin role');
  }
  const others = membership.houses.filter((grant) => grant.houseId !== input.houseId);
  const houses = assign
    ? [...others, { houseId: input.houseId, role, permissions: defaultPermissions(role) }]
    : others;
  await accountsRepo.replace<MembershipRecord>(scope, {
    ...membership,
    houses,
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(ctx, {
    action: assign ? 'member.house-assign' : 'member.house-remove',
    entity: { type: 'member', id: input.userId },
    before: { houses: membership.houses },
    after: { houses },
  });
  return teamMember(ctx, input.userId);
}

export async function replaceHouseAccess(
  ctx: UserContext,
  userId: string,
  grants: { houseId: string; role: AssignableRole; permissions?: Permission[] | undefined }[],
) {
  assertCanManage(ctx);
  if (grants.some((grant) => grant.role === 'admin') && ctx.actor.role !== 'owner') {
    throw forbidden('Only the account owner can grant the Admin role');
  }
  const { scope, membership } = await targetMember(ctx, userId, 'changed');
  const houses = await accountsRepo.houses(scope);
  if (grants.some((grant) => !houses.some((house) => house.id === grant.houseId))) {
    throw badRequest('houses: names a house that does not exist');
  }
  const next = grants.map((grant) => ({
    houseId: grant.houseId,
    role: grant.role,
    permissions: grant.permissions?.length ? grant.permissions : defaultPermissions(grant.role),
  }));
  await accountsRepo.replace<MembershipRecord>(scope, {
    ...membership,
    houses: next,
    updatedAt: new Date().toISOString(),
  });
  await writeAudit(ctx, {
    action: 'member.house-access',
    entity: { type: 'member', id: userId },
    before: { houses: membership.houses },
    after: { houses: next },
  });
  return teamMember(ctx, userId);
}

/** What a member did in the last `days` days, from the audit log, newest first. */
export async function activity(ctx: UserContext, userId: string, days: number) {
  const scope = ctx.scope;
  if (!(await accountsRepo.membership(scope, userId))) throw notFound('User not found');
  const entries = await auditByActor(scope, userId, new Date(Date.now() - days * 86_400_000), 200);
  return entries.map(({ id, at, action, entity }) => ({ id, at, action, entity }));
}
