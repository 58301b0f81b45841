import { z } from 'zod';
import { writeAudit } from '../platform/audit.js';
import { notFound } from '../platform/errors.js';
import { evaluateFlags } from '../platform/flags.js';
import { notify } from '../notifications/notifications.service.js';
import type { HttpFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import type { UserContext } from '../platform/context.js';
import type { Stored } from '../platform/repo.js';
import { accountsRepo } from './accounts.repo.js';
import { hasVerifiedMfa, mfaDeadline } from './access-token.service.js';
import { requireUser } from './credentials.service.js';
import type { AccountRecord } from './identity.model.js';
import {
  mfaMethodUpdateSchema,
  mfaPolicyUpdateSchema,
  mfaSetupRequestSchema,
  mfaVerifyRequestSchema,
  securitySettingsUpdateSchema,
} from './identity.schema.js';
import {
  activeMethods,
  auditSecurity,
  backupCodeStatus,
  regenerateBackupCodes,
  removeMethod,
  startSetup,
  toMethodView,
  updateMethod,
  verifySetup,
} from './mfa.service.js';
import {
  allPermissions,
  defaultPermissions,
  permissionCatalogue,
  roleDescriptions,
  roleLabels,
  roleNames,
} from './permissions.js';
import { usersRepo } from './users.repo.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

async function account(ctx: UserContext): Promise<Stored<AccountRecord>> {
  const found = await accountsRepo.account(ctx.scope);
  if (!found) throw notFound('Account not found');
  return found;
}

/** Whether the account's policy makes this person keep at least one method. */
async function policyRequiresMfa(ctx: UserContext): Promise<boolean> {
  const current = await account(ctx);
  return current.mfaPolicy.required && current.mfaPolicy.requiredForRoles.includes(ctx.actor.role);
}

const me = async (ctx: UserContext) => requireUser(await usersRepo.find(ctx.actor.userId));

const policyView = ({ enabledAt: _enabledAt, ...policy }: AccountRecord['mfaPolicy']) => policy;

/** Two-factor methods, backup codes, the MFA policy and security settings, permissions, flags. */
export const securityFunctions: HttpFunction[] = [
  httpRoute({
    name: 'mfa-status',
    route: 'security/2fa/setup',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const [user, current] = await Promise.all([me(ctx), account(ctx)]);
      const membership = await accountsRepo.membership(ctx.scope, ctx.actor.userId);
      const deadline = membership ? mfaDeadline(current, membership) : null;
      return {
        json: {
          enabled: hasVerifiedMfa(user),
          methods: activeMethods(user).length,
          backupCodesRemaining: backupCodeStatus(user).remaining,
          requiredByPolicy: Boolean(deadline),
          setupDueBy: deadline && !hasVerifiedMfa(user) ? deadline.toISOString() : null,
        },
      };
    },
  }),
  httpRoute({
    name: 'mfa-setup',
    route: 'security/2fa/setup',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: mfaSetupRequestSchema,
    handler: async ({ ctx, body }) => ({
      status: 201,
      json: (await startSetup(await me(ctx), body)).response,
    }),
  }),
  httpRoute({
    name: 'mfa-verify',
    route: 'mfa/verify',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: mfaVerifyRequestSchema,
    handler: async ({ ctx, body }) => {
      const { method, backupCodes } = await verifySetup(await me(ctx), body.methodId, body.code);
      await auditSecurity(ctx, 'mfa.method-add', {
        type: method.type,
        name: method.name,
      });
      return { json: { verified: true, method: toMethodView(method), backupCodes } };
    },
  }),
  httpRoute({
    name: 'mfa-methods',
    route: 'security/2fa/methods',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => ({
      json: {
        methods: (await me(ctx)).mfa.methods.filter((method) => method.verified).map(toMethodView),
      },
    }),
  }),
  httpRoute({
    name: 'mfa-method-update',
    route: 'security/2fa/methods/{id}',
    methods: ['PUT'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: idParams,
    body: mfaMethodUpdateSchema,
    handler: async ({ ctx, params, body }) => {
      const { method } = await updateMethod(
        await me(ctx),
        params.id,
        body,
        await policyRequiresMfa(ctx),
      );
      await auditSecurity(ctx, 'mfa.method-update', {
        id: params.id,
        ...body,
      });
      return { json: toMethodView(method) };
    },
  }),
  httpRoute({
    name: 'mfa-method-remove',
    route: 'security/2fa/methods/{id}',
    methods: ['DELETE'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: idParams,
    handler: async ({ ctx, params }) => {
      await removeMethod(await me(ctx), params.id, await policyRequiresMfa(ctx));
      await auditSecurity(ctx, 'mfa.method-remove', {
        id: params.id,
      });
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'mfa-backup-status',
    route: 'security/2fa/backup-codes',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => ({ json: backupCodeStatus(await me(ctx)) }),
  }),
  httpRoute({
    name: 'mfa-backup-generate',
    route: 'security/2fa/backup-codes',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const { codes, status } = await regenerateBackupCodes(await me(ctx));
      await auditSecurity(ctx, 'mfa.backup-codes-generate');
      return { status: 201, json: { ...status, codes } };
    },
  }),
  httpRoute({
    name: 'mfa-policy-get',
    route: 'security/mfa-policy',
    methods: ['GET'],
    permission: 'users:security',
    handler: async ({ ctx }) => ({ json: policyView((await account(ctx)).mfaPolicy) }),
  }),
  httpRoute({
    name: 'mfa-policy-update',
    route: 'security/mfa-policy',
    methods: ['PUT'],
    permission: 'users:security',
    body: mfaPolicyUpdateSchema,
    handler: async ({ ctx, body }) => {
      const current = await account(ctx);
      const now = new Date().toISOString();
      // The grace period runs from when the policy was switched on.
      const enabledAt = body.required
        ? current.mfaPolicy.required
          ? current.mfaPolicy.enabledAt
          : now
        : null;
      const updated = await accountsRepo.replace(ctx.scope, {
        ...current,
        mfaPolicy: { ...body, updatedAt: now, enabledAt },
      });
      if (body.required && !current.mfaPolicy.required) {
        const affected = (await accountsRepo.memberships(ctx.scope)).filter(
          (member) => member.status === 'active' && body.requiredForRoles.includes(member.role),
        );
        await notify(
          ctx,
          affected.map((member) => member.userId),
          {
            kind: 'security.mfa-required',
            title: 'Two-factor authentication is now required',
            body: `${current.name} requires two-factor authentication for your role. Set it up within ${body.gracePeriodDays} days under Security.`,
            link: '/security',
          },
        );
      }
      await writeAudit(ctx, {
        action: 'security.mfa-policy',
        entity: { type: 'account', id: current.id },
        before: policyView(current.mfaPolicy),
        after: policyView(updated.mfaPolicy),
      });
      return { json: policyView(updated.mfaPolicy) };
    },
  }),
  httpRoute({
    name: 'security-settings-get',
    route: 'security/settings',
    methods: ['GET'],
    permission: 'users:security',
    handler: async ({ ctx }) => ({ json: (await account(ctx)).securitySettings }),
  }),
  httpRoute({
    name: 'security-settings-update',
    route: 'security/settings',
    methods: ['PUT'],
    permission: 'users:security',
    body: securitySettingsUpdateSchema,
    handler: async ({ ctx, body }) => {
      const current = await account(ctx);
      const updated = await accountsRepo.replace(ctx.scope, {
        ...current,
        securitySettings: { ...body, updatedAt: new Date().toISOString() },
      });
      await writeAudit(ctx, {
        action: 'security.settings',
        entity: { type: 'account', id: current.id },
        before: current.securitySettings,
        after: updated.securitySettings,
      });
      return { json: updated.securitySettings };
    },
  }),
  httpRoute({
    name: 'permissions-catalogue',
    route: 'permissions',
    methods: ['GET'],
    permission: 'authenticated',
    handler: async () => ({
      json: {
        permissions: allPermissions.map((key) => ({
          key,
          label: permissionCatalogue[key],
          area: key.split(':')[0] as string,
        })),
        roles: roleNames.map((role) => ({
          role,
          label: roleLabels[role],
          description: roleDescriptions[role],
          permissions: defaultPermissions(role),
        })),
      },
    }),
  }),
  httpRoute({
    name: 'features',
    route: 'features',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    handler: async ({ ctx }) => {
      const current = await account(ctx);
      const houses = await accountsRepo.houses(ctx.scope);
      const flags = await evaluateFlags({
        userId: ctx.actor.userId,
        groups: [ctx.actor.role, `account:${ctx.scope.accountId}`],
        tier: current.subscription.tier,
        houseCount: houses.length,
      });
      return {
        json: {
          flags: Object.fromEntries(
            Object.entries(flags).map(([name, flag]) => [name, flag.value]),
          ),
          features: {
            inventory: ctx.features.has('inventory'),
            payments: ctx.features.has('payments'),
          },
          refreshedAt: new Date().toISOString(),
        },
      };
    },
  }),
];
