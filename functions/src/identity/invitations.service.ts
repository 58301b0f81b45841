import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../platform/errors.js';
import type { UserContext } from '../platform/context.js';
import type { Stored } from '../platform/repo.js';
import { randomToken } from '../platform/secrets.js';
import { validationError } from '../platform/validation.js';
import { accountsRepo, membershipId } from './accounts.repo.js';
import { fullName } from './access.js';
import { INVITATION_TTL_DAYS } from './identity.schema.js';
import { identityMail } from './identity.mail.js';
import type { InvitationRecord, MembershipRecord, UserRecord } from './identity.model.js';
import {
  defaultPermissions,
  roleLabels,
  type AssignableRole,
  type Permission,
} from './permissions.js';
import { notify } from '../notifications/notifications.service.js';
import { tokensRepo } from './tokens.repo.js';
import { usersRepo } from './users.repo.js';

const invitationProblem = (message: string, field = 'invitationCode') =>
  validationError([{ location: 'body', field, message }]);

/** Finds the live invitation behind a code, or says plainly why it cannot be used. */
export async function resolveInvitation(code: string, field = 'invitationCode') {
  const token = await tokensRepo.find(code);
  if (!token || token.purpose !== 'invitation' || !token.accountId || !token.invitationId) {
    throw invitationProblem('This invitation is not valid', field);
  }
  const scope = { accountId: token.accountId };
  const invitation = await accountsRepo.invitation(scope, token.invitationId);
  if (!invitation || invitation.status === 'revoked') {
    throw invitationProblem('This invitation was withdrawn', field);
  }
  if (token.usedAt || invitation.status === 'accepted') {
    throw invitationProblem('This invitation has already been used', field);
  }
  if (Date.parse(token.expiresAt) < Date.now()) {
    throw invitationProblem('This invitation has expired. Ask for a new one.', field);
  }
  const account = await accountsRepo.account(scope);
  if (!account || account.status !== 'active')
    throw invitationProblem('This invitation is not valid', field);
  return { token, invitation, account, scope };
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
export async function acceptInvitation(
  user: Stored<UserRecord> | UserRecord,
  code: string,
): Promise<string> {
  const { token, invitation, account, scope } = await resolveInvitation(code);
  if (invitation.email !== user.email.toLowerCase()) {
    throw invitationProblem(`This invitation was sent to a different email address`);
  }
  if (!(await tokensRepo.markUsed(token)))
    throw invitationProblem('This invitation has already been used');
  try {
    const existing = await accountsRepo.membership(scope, user.id);
    if (!existing) {
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
      await accountsRepo.create(scope, membership);
      await notify({ scope: { accountId: account.id } }, [invitation.invitedBy], {
        kind: 'team.member-joined',
        title: `${membership.name} joined ${account.name}`,
        body: `${membership.name} (${user.email}) accepted your invitation and joined as ${roleLabels[invitation.role]}.`,
        link: '/security/users',
      });
      await writeAudit(
        {
          scope: { accountId: account.id },
          actor: { kind: 'user', userId: user.id, name: membership.name },
        },
        {
          action: 'member.join',
          entity: { type: 'member', id: user.id },
          after: { role: invitation.role, houses: invitation.houseIds },
        },
      );
    }
    await accountsRepo.replace(scope, {
      ...invitation,
      status: 'accepted' as const,
      acceptedAt: new Date().toISOString(),
      acceptedBy: user.id,
    });
  } catch (error) {
    const spent = await tokensRepo.find(code);
    if (spent) await tokensRepo.restore(spent);
    throw error;
  }
  return account.id;
}

export async function describeInvitation(code: string) {
  const { invitation, account } = await resolveInvitation(code, 'token');
  return {
    valid: true as const,
    email: invitation.email,
    accountName: account.name,
    role: invitation.role,
    invitedBy: invitation.invitedByName,
    expiresAt: invitation.expiresAt,
    existingUser: Boolean(await usersRepo.findByEmail(invitation.email)),
  };
}

export interface InvitationInput {
  email: string;
  role: AssignableRole;
  permissions: Permission[];
  personalMessage?: string | undefined;
  houseIds: string[];
}

/** Records an invitation and mails its single-use link (valid 7 days). */
export async function createInvitation(
  ctx: UserContext,
  input: InvitationInput,
): Promise<Stored<InvitationRecord>> {
  const { scope, actor } = ctx;
  if (input.role === 'admin' && actor.role !== 'owner') {
    throw forbidden('Only the account owner can invite administrators');
  }
  const account = await accountsRepo.account(scope);
  if (!account) throw notFound('Account not found');
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
  const members = await accountsRepo.memberships(scope);
  if (members.some((member) => member.email === input.email && member.status === 'active')) {
    throw conflict(`${input.email} is already a member of this account`);
  }
  const houses = await accountsRepo.houses(scope);
  const unknown = input.houseIds.filter((id) => !houses.some((house) => house.id === id));
  if (unknown.length) {
    throw validationError([
      { location: 'body', field: 'auctionHouseIds', message: 'names a house that does not exist' },
    ]);
  }
  const previous = await accountsRepo.pendingInvitationFor(scope, input.email);
  if (previous) await accountsRepo.replace(scope, { ...previous, status: 'revoked' as const });

  const code = randomToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000).toISOString();
  const invitation = await accountsRepo.create<InvitationRecord>(scope, {
    id: randomUUID(),
    accountId: scope.accountId,
    type: 'invitation',
    email: input.email,
    role: input.role,
    permissions: input.permissions,
    houseIds: input.houseIds,
    personalMessage: input.personalMessage ?? null,
    invitedBy: actor.userId,
    invitedByName: actor.name,
    createdAt: now.toISOString(),
    expiresAt,
    status: 'pending',
    acceptedAt: null,
    acceptedBy: null,
  });
  await tokensRepo.create(code, {
    purpose: 'invitation',
    userId: null,
    accountId: scope.accountId,
    invitationId: invitation.id,
    email: input.email,
    data: {},
    createdAt: now.toISOString(),
    expiresAt,
    usedAt: null,
  });
  try {
    await identityMail.invitation({
      to: input.email,
      code,
      accountName: account.name,
      invitedBy: actor.name,
      role: roleLabels[input.role],
      personalMessage: input.personalMessage ?? null,
      expiresAt,
    });
  } catch (error) {
    // An invitation nobody was told about must not linger as pending.
    await accountsRepo.replace(scope, { ...invitation, status: 'revoked' as const });
    throw new AppError(
      'service_unavailable',
      'The invitation could not be sent. Try again shortly.',
      {
        cause: String(error),
      },
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
  const invitation = await accountsRepo.invitation(ctx.scope, invitationId);
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
