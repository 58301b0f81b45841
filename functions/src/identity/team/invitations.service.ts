import { randomUUID } from 'node:crypto';
import { writeAudit } from '../../platform/audit.js';
import type { UserContext } from '../../platform/context.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import type { Stored } from '../../platform/repo.js';
import { validationError } from '../../platform/validation.js';
import { notify } from '../../notifications/notifications.service.js';
import {
  accountOf,
  addMembership,
  findAccount,
  housesOf,
  membershipOf,
  membershipsOf,
} from '../accounts/accounts.service.js';
import {
  defaultPermissions,
  roleLabels,
  type AssignableRole,
  type Permission,
} from '../permissions.js';
import {
  inspectLink,
  issueLink,
  restoreLink,
  spendLink,
} from '../sessions/one-time-tokens.service.js';
import { identityMail } from '../shared/identity.mail.js';
import {
  membershipId,
  type InvitationRecord,
  type MembershipRecord,
  type UserRecord,
} from '../shared/identity.model.js';
import { fullName, userByEmail } from '../shared/users.service.js';
import { invitationsRepo } from './team.repo.js';

const invitationProblem = (message: string, field = 'invitationCode') =>
  validationError([{ location: 'body', field, message }]);

/** Finds the live invitation behind a code, or says plainly why it cannot be used. */
export async function resolveInvitation(code: string, field = 'invitationCode') {
  const inspected = await inspectLink(code, 'invitation');
  const accountId = inspected?.link.accountId;
  const invitationId = inspected?.link.invitationId;
  if (!inspected || !accountId || !invitationId) {
    throw invitationProblem('This invitation is not valid', field);
  }
  const scope = { accountId };
  const invitation = await invitationsRepo.find(scope, invitationId);
  if (!invitation || invitation.status === 'revoked') {
    throw invitationProblem('This invitation was withdrawn', field);
  }
  if (inspected.state === 'spent' || invitation.status === 'accepted') {
    throw invitationProblem('This invitation has already been used', field);
  }
  if (inspected.state === 'expired') {
    throw invitationProblem('This invitation has expired. Ask for a new one.', field);
  }
  const account = await findAccount(scope);
  if (!account || account.status !== 'active')
    throw invitationProblem('This invitation is not valid', field);
  return { link: inspected.link, invitation, account, scope };
}

function grantsFor(invitation: InvitationRecord) {
  const permissions: Permission[] = invitation.permissions.length
    ? invitation.permissions
    : defaultPermissions(invitation.role);
  return {
    permissions,
    houses: invitation.houseIds.map((houseId) => ({ houseId, role: invitation.role, permissions })),
  };
}

/**
 * Joins the person to the inviting account with the invited role, permissions and houses. The
 * code is spent first, so of two attempts only one can join; if joining then fails, it is restored.
 */
export async function acceptInvitation(user: UserRecord, code: string): Promise<string> {
  const { link, invitation, account, scope } = await resolveInvitation(code);
  if (invitation.email !== user.email.toLowerCase()) {
    throw invitationProblem(`This invitation was sent to a different email address`);
  }
  if (!(await spendLink(link))) throw invitationProblem('This invitation has already been used');
  try {
    if (!(await membershipOf(scope, user.id))) {
      const now = new Date().toISOString();
      const { permissions, houses } = grantsFor(invitation);
      const membership: MembershipRecord = {
        id: membershipId(user.id),
        accountId: account.id,
        type: 'membership',
        userId: user.id,
        email: user.email,
        name: fullName(user),
        role: invitation.role,
        permissions,
        houses,
        status: 'active',
        joinedAt: now,
        invitedBy: invitation.invitedBy,
        updatedAt: now,
      };
      await addMembership(scope, membership);
      await notify({ scope }, [invitation.invitedBy], {
        kind: 'team.member-joined',
        title: `${membership.name} joined ${account.name}`,
        body: `${membership.name} (${user.email}) accepted your invitation and joined as ${roleLabels[invitation.role]}.`,
        link: '/security/users',
      });
      await writeAudit(
        { scope, actor: { kind: 'user', userId: user.id, name: membership.name } },
        {
          action: 'member.join',
          entity: { type: 'member', id: user.id },
          after: { role: invitation.role, houses: invitation.houseIds },
        },
      );
    }
    await invitationsRepo.replace(
      scope,
      {
        ...invitation,
        status: 'accepted',
        acceptedAt: new Date().toISOString(),
        acceptedBy: user.id,
      },
      invitation._etag,
    );
  } catch (error) {
    await restoreLink(code);
    throw error;
  }
  return account.id;
}

/** What the invitation link shows before the person signs up or in. */
export async function describeInvitation(code: string) {
  const { invitation, account } = await resolveInvitation(code, 'token');
  return {
    valid: true as const,
    email: invitation.email,
    accountName: account.name,
    role: invitation.role,
    invitedBy: invitation.invitedByName,
    expiresAt: invitation.expiresAt,
    existingUser: Boolean(await userByEmail(invitation.email)),
  };
}

export interface InvitationInput {
  email: string;
  role: AssignableRole;
  permissions: Permission[];
  personalMessage?: string | undefined;
  houseIds: string[];
}

export const pendingInvitations = (ctx: UserContext) => invitationsRepo.pending(ctx.scope);

/** Records an invitation and mails its single-use link. */
export async function createInvitation(
  ctx: UserContext,
  input: InvitationInput,
): Promise<Stored<InvitationRecord>> {
  const { scope, actor } = ctx;
  if (input.role === 'admin' && actor.role !== 'owner') {
    throw forbidden('Only the account owner can invite administrators');
  }
  const account = await accountOf(scope);
  const domains = account.securitySettings.allowedEmailDomains;
  const domain = input.email.split('@')[1] ?? '';
  if (domains.length && !domains.includes(domain)) {
    throw validationError([
      {
        location: 'body',
        field: 'email',
        message: `Only addresses at ${domains.join(', ')} can be invited`,
      },
    ]);
  }
  const members = await membershipsOf(scope);
  if (members.some((member) => member.email === input.email && member.status === 'active')) {
    throw conflict(`${input.email} is already a member of this account`);
  }
  const houses = await housesOf(scope);
  if (input.houseIds.some((id) => !houses.some((house) => house.id === id))) {
    throw validationError([
      { location: 'body', field: 'auctionHouseIds', message: 'names a house that does not exist' },
    ]);
  }
  const previous = await invitationsRepo.pendingFor(scope, input.email);
  if (previous) {
    await invitationsRepo.replace(scope, { ...previous, status: 'revoked' }, previous._etag);
  }

  const invitationId = randomUUID();
  const { token, expiresAt } = await issueLink('invitation', {
    accountId: scope.accountId,
    invitationId,
    email: input.email,
  });
  const invitation = await invitationsRepo.create(scope, {
    id: invitationId,
    accountId: scope.accountId,
    type: 'invitation',
    email: input.email,
    role: input.role,
    permissions: input.permissions,
    houseIds: input.houseIds,
    personalMessage: input.personalMessage ?? null,
    invitedBy: actor.userId,
    invitedByName: actor.name,
    createdAt: new Date().toISOString(),
    expiresAt,
    status: 'pending',
    acceptedAt: null,
    acceptedBy: null,
  });
  try {
    await identityMail.invitation({
      to: input.email,
      code: token,
      accountName: account.name,
      invitedBy: actor.name,
      role: roleLabels[input.role],
      personalMessage: input.personalMessage ?? null,
      expiresAt,
    });
  } catch (error) {
    // An invitation nobody was told about must not linger as pending.
    await invitationsRepo.replace(scope, { ...invitation, status: 'revoked' }, invitation._etag);
    throw new AppError(
      'service_unavailable',
      'The invitation could not be sent. Try again shortly.',
      { cause: String(error) },
    );
  }
  await writeAudit(ctx, {
    action: 'invitation.create',
    entity: { type: 'invitation', id: invitation.id },
    after: { email: input.email, role: input.role, houseIds: input.houseIds },
  });
  return invitation;
}

/** Sends a fresh link for a pending invitation (the old one stops working). */
export async function resendInvitation(ctx: UserContext, invitationId: string) {
  const invitation = await invitationsRepo.find(ctx.scope, invitationId);
  if (!invitation) throw notFound('Invitation not found');
  if (invitation.status !== 'pending')
    throw badRequest('Only pending invitations can be sent again');
  return createInvitation(ctx, {
    email: invitation.email,
    role: invitation.role,
    permissions: invitation.permissions,
    personalMessage: invitation.personalMessage ?? undefined,
    houseIds: invitation.houseIds,
  });
}
