import { auditByActor, writeAudit } from '../../platform/audit.js';
import type { AccountScope, UserContext } from '../../platform/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { validationError } from '../../platform/validation.js';
import { notify } from '../../notifications/notifications.service.js';
import {
  currentAccount,
  findAccount,
  housesOf,
  membershipOf,
  membershipsOf,
  saveMembership,
} from '../accounts/accounts.service.js';
import { effectiveAccess } from '../accounts/member-access.js';
import {
  allPermissions,
  defaultPermissions,
  permissionCatalogue as permissionLabels,
  roleDescriptions,
  roleLabels,
  roleNames,
  type AssignableRole,
} from '../permissions.js';
import { endSessions } from '../sessions/sessions.service.js';
import type { HouseGrant, MembershipRecord } from '../shared/identity.model.js';
import { hasVerifiedMfa, usersByIds } from '../shared/users.service.js';
import { createInvitation, pendingInvitations } from './invitations.service.js';
import type {
  HouseAccessGrant,
  InvitationView,
  InviteRequest,
  RoleChange,
  TeamMember,
} from './team.schema.js';

/** The spec's rule: only the owner or holders of users:invite manage users. */
function assertCanManage(ctx: UserContext) {
  if (!ctx.can('users:invite')) {
    throw forbidden('Only the account owner or users who can invite may manage users');
  }
}

async function memberOrNotFound(ctx: UserContext, userId: string) {
  const membership = await membershipOf(ctx.scope, userId);
  if (!membership) throw notFound('User not found');
  return membership;
}

/** A member someone else may change: never the owner, never yourself, an admin only by the owner. */
async function targetMember(ctx: UserContext, userId: string, action: string) {
  const membership = await memberOrNotFound(ctx, userId);
  if (membership.role === 'owner') throw forbidden(`The account owner cannot be ${action}`);
  if (userId === ctx.actor.userId)
    throw forbidden(`You cannot ${action.replace(/d$/, '')} your own account here`);
  if (membership.role === 'admin' && ctx.actor.role !== 'owner') {
    throw forbidden('Only the account owner can change an administrator');
  }
  return membership;
}

function assertOwnerGrantsAdmin(ctx: UserContext, roles: AssignableRole[]) {
  if (roles.includes('admin') && ctx.actor.role !== 'owner') {
    throw forbidden('Only the account owner can grant the Admin role');
  }
}

/**
 * The active members who hold a permission somewhere in the account, by name: whom other
 * features may assign work to or notify (a case's assignee, a settlement's approvers).
 */
export async function membersHolding(
  scope: AccountScope,
  permission: string,
): Promise<{ id: string; name: string }[]> {
  const [memberships, houses] = await Promise.all([membershipsOf(scope), housesOf(scope)]);
  return memberships
    .filter((membership) => membership.status === 'active')
    .filter((membership) =>
      (effectiveAccess(membership, houses).permissions as string[]).includes(permission),
    )
    .map((membership) => ({ id: membership.userId, name: membership.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The account's active members with their account role, by name. */
export async function activeMembers(
  scope: AccountScope,
): Promise<{ id: string; name: string; role: MembershipRecord['role'] }[]> {
  return (await membershipsOf(scope))
    .filter((membership) => membership.status === 'active')
    .map((membership) => ({ id: membership.userId, name: membership.name, role: membership.role }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function listTeam(ctx: UserContext): Promise<TeamMember[]> {
  const scope = ctx.scope;
  const [memberships, invitations, houses] = await Promise.all([
    membershipsOf(scope),
    pendingInvitations(ctx),
    housesOf(scope),
  ]);
  const users = new Map(
    (await usersByIds(memberships.map((member) => member.userId))).map((user) => [user.id, user]),
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
      mfa: { enabled: Boolean(user && hasVerifiedMfa(user)) },
      status: membership.status === 'active' ? 'active' : 'suspended',
      lastLoginAt: user?.lastLoginAt ?? null,
      invitedAt: null,
      expiresAt: null,
      etag: membership._etag,
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
      etag: invitation._etag,
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

/** The members who work in one house (the owner works in all). */
export async function houseMembers(ctx: UserContext, houseId: string): Promise<TeamMember[]> {
  const account = await currentAccount(ctx);
  if (!account.houses.some((house) => house.id === houseId)) {
    throw notFound('Auction house not found');
  }
  return (await listTeam(ctx)).filter(
    (member) =>
      member.accountRole === 'owner' ||
      member.auctionHouseAccess.some((grant) => grant.houseId === houseId),
  );
}

export async function invite(
  ctx: UserContext,
  input: Omit<InviteRequest, 'auctionHouseIds'> & { auctionHouseIds?: string[] | undefined },
): Promise<InvitationView> {
  assertCanManage(ctx);
  // By default the invitation covers the inviting person's own houses, as the spec says.
  const houseIds = input.auctionHouseIds ?? ctx.scope.houses.map((house) => house.id);
  if (
    ctx.actor.role !== 'owner' &&
    houseIds.some((id) => !ctx.scope.houses.some((house) => house.id === id))
  ) {
    throw forbidden('You can only invite people to auction houses you have access to');
  }
  return toInvitationView(await createInvitation(ctx, { ...input, houseIds }));
}

export function toInvitationView(invitation: {
  id: string;
  email: string;
  role: AssignableRole;
  expiresAt: string;
  houseIds: string[];
}): InvitationView {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
    auctionHouseIds: invitation.houseIds,
  };
}

/** Changes a member's role, everywhere or in one house, as the caller saw them at `etag`. */
export async function changeRole(
  ctx: UserContext,
  userId: string,
  etag: string,
  input: RoleChange,
) {
  assertCanManage(ctx);
  assertOwnerGrantsAdmin(ctx, [input.role]);
  const membership = await targetMember(ctx, userId, 'changed');
  const permissions = input.permissions?.length
    ? input.permissions
    : defaultPermissions(input.role);
  let houses: HouseGrant[];
  if (input.houseId) {
    if (!(await housesOf(ctx.scope)).some((house) => house.id === input.houseId)) {
      throw notFound('Auction house not found');
    }
    houses = [
      ...membership.houses.filter((grant) => grant.houseId !== input.houseId),
      { houseId: input.houseId, role: input.role, permissions },
    ];
  } else {
    houses = membership.houses.map((grant) => ({ ...grant, role: input.role, permissions }));
  }
  const updated = await saveMembership(
    ctx.scope,
    {
      ...membership,
      role: input.houseId ? membership.role : input.role,
      permissions: input.houseId ? membership.permissions : permissions,
      houses,
    },
    etag,
  );
  const account = await findAccount(ctx.scope);
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

async function setStatus(ctx: UserContext, userId: string, status: MembershipRecord['status']) {
  assertCanManage(ctx);
  const suspend = status === 'suspended';
  const membership = await targetMember(ctx, userId, suspend ? 'deactivated' : 'reactivated');
  if (membership.status === status) {
    throw conflict(suspend ? 'This user is already deactivated' : 'This user is already active');
  }
  await saveMembership(ctx.scope, { ...membership, status }, membership._etag);
  if (suspend) await endSessions(userId, 'deactivated', { in: ctx.scope.accountId });
  await writeAudit(ctx, {
    action: suspend ? 'member.deactivate' : 'member.reactivate',
    entity: { type: 'member', id: userId },
    before: { status: membership.status },
    after: { status },
  });
  return teamMember(ctx, userId);
}

export const deactivate = (ctx: UserContext, userId: string) => setStatus(ctx, userId, 'suspended');
export const reactivate = (ctx: UserContext, userId: string) => setStatus(ctx, userId, 'active');

/** Names a member in this account's lists, as the caller saw them at `etag`. */
export async function renameMember(ctx: UserContext, userId: string, etag: string, name: string) {
  assertCanManage(ctx);
  const membership = await memberOrNotFound(ctx, userId);
  await saveMembership(ctx.scope, { ...membership, name }, etag);
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
  const membership = await memberOrNotFound(ctx, input.userId);
  if (membership.role === 'owner') throw badRequest('The account owner has access to every house');
  if (!(await housesOf(ctx.scope)).some((house) => house.id === input.houseId)) {
    throw notFound('Auction house not found');
  }
  const role = input.role ?? membership.role;
  if (assign && role === 'admin') assertOwnerGrantsAdmin(ctx, [role]);
  const others = membership.houses.filter((grant) => grant.houseId !== input.houseId);
  const houses = assign
    ? [...others, { houseId: input.houseId, role, permissions: defaultPermissions(role) }]
    : others;
  await saveMembership(ctx.scope, { ...membership, houses }, membership._etag);
  await writeAudit(ctx, {
    action: assign ? 'member.house-assign' : 'member.house-remove',
    entity: { type: 'member', id: input.userId },
    before: { houses: membership.houses },
    after: { houses },
  });
  return teamMember(ctx, input.userId);
}

/** Replaces a member's house access, as the caller saw them at `etag`. */
export async function replaceHouseAccess(
  ctx: UserContext,
  userId: string,
  etag: string,
  grants: HouseAccessGrant[],
) {
  assertCanManage(ctx);
  assertOwnerGrantsAdmin(
    ctx,
    grants.map((grant) => grant.role),
  );
  const membership = await targetMember(ctx, userId, 'changed');
  const houses = await housesOf(ctx.scope);
  if (grants.some((grant) => !houses.some((house) => house.id === grant.houseId))) {
    throw validationError([
      { location: 'body', field: 'houses', message: 'names a house that does not exist' },
    ]);
  }
  const next = grants.map((grant) => ({
    houseId: grant.houseId,
    role: grant.role,
    permissions: grant.permissions?.length ? grant.permissions : defaultPermissions(grant.role),
  }));
  await saveMembership(ctx.scope, { ...membership, houses: next }, etag);
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
  await memberOrNotFound(ctx, userId);
  const entries = await auditByActor(
    ctx.scope,
    userId,
    new Date(Date.now() - days * 86_400_000),
    200,
  );
  return entries.map(({ id, at, action, entity }) => ({ id, at, action, entity }));
}

/** Every permission with its label, and what each role holds by default. */
export function permissionCatalogue() {
  return {
    permissions: allPermissions.map((key) => ({
      key,
      label: permissionLabels[key],
      area: key.split(':')[0] as string,
    })),
    roles: roleNames.map((role) => ({
      role,
      label: roleLabels[role],
      description: roleDescriptions[role],
      permissions: defaultPermissions(role),
    })),
  };
}
