import { writeAudit } from '../../platform/audit.js';
import type { UserContext } from '../../platform/context.js';
import type { Stored } from '../../platform/repo.js';
import { notify } from '../../notifications/notifications.service.js';
import { accountOf, membershipOf, membershipsOf } from '../accounts/accounts.service.js';
import { mfaDeadline } from '../accounts/member-access.js';
import type { AccountRecord } from '../shared/identity.model.js';
import type {
  MfaPolicyUpdate,
  MfaPolicyView,
  SecuritySettingsUpdate,
  SecuritySettingsView,
} from './mfa.schema.js';
import { mfaRepo } from './mfa.repo.js';

/** The account's MFA policy and security settings, and what they mean for one member. */

/** The deadline the account's policy sets the caller, if it sets one. */
export async function myMfaDeadline(ctx: UserContext): Promise<Date | null> {
  const [account, membership] = await Promise.all([
    accountOf(ctx.scope),
    membershipOf(ctx.scope, ctx.actor.userId),
  ]);
  return membership ? mfaDeadline(account, membership) : null;
}

/** Whether the account's policy makes the caller keep at least one method. */
export async function policyRequiresMfa(ctx: UserContext): Promise<boolean> {
  const { mfaPolicy } = await accountOf(ctx.scope);
  return mfaPolicy.required && mfaPolicy.requiredForRoles.includes(ctx.actor.role);
}

const policyView = (account: Stored<AccountRecord>): MfaPolicyView => {
  const { enabledAt: _enabledAt, ...policy } = account.mfaPolicy;
  return { ...policy, etag: account._etag };
};
const policyAudit = ({ enabledAt: _enabledAt, ...policy }: AccountRecord['mfaPolicy']) => policy;

export async function mfaPolicy(ctx: UserContext): Promise<MfaPolicyView> {
  return policyView(await accountOf(ctx.scope));
}

/**
 * Saves the policy as the caller saw it at `etag`. Switching it on starts the grace period and
 * tells every member it now applies to.
 */
export async function saveMfaPolicy(
  ctx: UserContext,
  etag: string,
  policy: MfaPolicyUpdate,
): Promise<MfaPolicyView> {
  const current = await accountOf(ctx.scope);
  const now = new Date().toISOString();
  // The grace period runs from when the policy was switched on.
  const enabledAt = policy.required
    ? current.mfaPolicy.required
      ? current.mfaPolicy.enabledAt
      : now
    : null;
  const updated = await mfaRepo.savePolicy(
    ctx.scope,
    { ...policy, updatedAt: now, enabledAt },
    etag,
  );
  if (policy.required && !current.mfaPolicy.required) {
    const affected = (await membershipsOf(ctx.scope)).filter(
      (member) => member.status === 'active' && policy.requiredForRoles.includes(member.role),
    );
    await notify(
      ctx,
      affected.map((member) => member.userId),
      {
        kind: 'security.mfa-required',
        title: 'Two-factor authentication is now required',
        body: `${current.name} requires two-factor authentication for your role. Set it up within ${policy.gracePeriodDays} days under Security.`,
        link: '/security',
      },
    );
  }
  await writeAudit(ctx, {
    action: 'security.mfa-policy',
    entity: { type: 'account', id: current.id },
    before: policyAudit(current.mfaPolicy),
    after: policyAudit(updated.mfaPolicy),
  });
  return policyView(updated);
}

const settingsView = (account: Stored<AccountRecord>): SecuritySettingsView => ({
  ...account.securitySettings,
  etag: account._etag,
});

export async function securitySettings(ctx: UserContext): Promise<SecuritySettingsView> {
  return settingsView(await accountOf(ctx.scope));
}

/** Saves the security settings as the caller saw them at `etag`. */
export async function saveSecuritySettings(
  ctx: UserContext,
  etag: string,
  settings: SecuritySettingsUpdate,
): Promise<SecuritySettingsView> {
  const current = await accountOf(ctx.scope);
  const updated = await mfaRepo.saveSecuritySettings(
    ctx.scope,
    { ...settings, updatedAt: new Date().toISOString() },
    etag,
  );
  await writeAudit(ctx, {
    action: 'security.settings',
    entity: { type: 'account', id: current.id },
    before: current.securitySettings,
    after: updated.securitySettings,
  });
  return settingsView(updated);
}
