import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { idParamsSchema } from '../shared/common.schema.js';
import {
  backupCodesSchema,
  backupCodeStatusSchema,
  mfaMethodsResponseSchema,
  mfaMethodUpdateSchema,
  mfaMethodViewSchema,
  mfaPolicyUpdateSchema,
  mfaPolicyViewSchema,
  mfaSetupRequestSchema,
  mfaSetupResponseSchema,
  mfaStatusSchema,
  mfaVerifyRequestSchema,
  mfaVerifyResponseSchema,
  securitySettingsUpdateSchema,
  securitySettingsViewSchema,
} from './mfa.schema.js';
import {
  backupCodes,
  getMethod,
  listMethods,
  mfaStatus,
  regenerateBackupCodes,
  removeMethod,
  startSetup,
  updateMethod,
  verifySetup,
} from './mfa.service.js';
import {
  mfaPolicy,
  saveMfaPolicy,
  saveSecuritySettings,
  securitySettings,
} from './security.service.js';

const withEtag = <T extends { etag: string }>(json: T) => ({ json, etag: json.etag });

/** Two-factor methods and backup codes, and the account's MFA policy and security settings. */
export const mfaFunctions: HttpFunction[] = [
  httpRoute({
    name: 'mfa-status',
    route: 'security/2fa/setup',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: mfaStatusSchema,
    handler: async ({ ctx }) => ({ json: await mfaStatus(ctx) }),
  }),
  httpRoute({
    name: 'mfa-setup',
    route: 'security/2fa/setup',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: mfaSetupRequestSchema,
    response: mfaSetupResponseSchema,
    handler: async ({ ctx, body }) => ({ status: 201, json: await startSetup(ctx, body) }),
  }),
  httpRoute({
    name: 'mfa-verify',
    route: 'mfa/verify',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    body: mfaVerifyRequestSchema,
    response: mfaVerifyResponseSchema,
    handler: async ({ ctx, body }) => ({
      json: await verifySetup(ctx, body.methodId, body.code),
    }),
  }),
  httpRoute({
    name: 'mfa-methods',
    route: 'security/2fa/methods',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: mfaMethodsResponseSchema,
    handler: async ({ ctx }) => ({ json: { methods: await listMethods(ctx) } }),
  }),
  httpRoute({
    name: 'mfa-method-get',
    route: 'security/2fa/methods/{id}',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: idParamsSchema,
    response: mfaMethodViewSchema,
    handler: async ({ ctx, params }) => withEtag(await getMethod(ctx, params.id)),
  }),
  httpRoute({
    name: 'mfa-method-update',
    route: 'security/2fa/methods/{id}',
    methods: ['PUT'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: idParamsSchema,
    body: mfaMethodUpdateSchema,
    response: mfaMethodViewSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, params, body, ifMatch }) =>
      withEtag(await updateMethod(ctx, params.id, ifMatch, body)),
  }),
  httpRoute({
    name: 'mfa-method-remove',
    route: 'security/2fa/methods/{id}',
    methods: ['DELETE'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    params: idParamsSchema,
    handler: async ({ ctx, params }) => {
      await removeMethod(ctx, params.id);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'mfa-backup-status',
    route: 'security/2fa/backup-codes',
    methods: ['GET'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: backupCodeStatusSchema,
    handler: async ({ ctx }) => ({ json: await backupCodes(ctx) }),
  }),
  httpRoute({
    name: 'mfa-backup-generate',
    route: 'security/2fa/backup-codes',
    methods: ['POST'],
    permission: 'authenticated',
    allowDuringMfaSetup: true,
    response: backupCodesSchema,
    handler: async ({ ctx }) => ({ status: 201, json: await regenerateBackupCodes(ctx) }),
  }),
  httpRoute({
    name: 'mfa-policy-get',
    route: 'security/mfa-policy',
    methods: ['GET'],
    permission: 'users:security',
    response: mfaPolicyViewSchema,
    handler: async ({ ctx }) => withEtag(await mfaPolicy(ctx)),
  }),
  httpRoute({
    name: 'mfa-policy-update',
    route: 'security/mfa-policy',
    methods: ['PUT'],
    permission: 'users:security',
    body: mfaPolicyUpdateSchema,
    response: mfaPolicyViewSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, body, ifMatch }) => withEtag(await saveMfaPolicy(ctx, ifMatch, body)),
  }),
  httpRoute({
    name: 'security-settings-get',
    route: 'security/settings',
    methods: ['GET'],
    permission: 'users:security',
    response: securitySettingsViewSchema,
    handler: async ({ ctx }) => withEtag(await securitySettings(ctx)),
  }),
  httpRoute({
    name: 'security-settings-update',
    route: 'security/settings',
    methods: ['PUT'],
    permission: 'users:security',
    body: securitySettingsUpdateSchema,
    response: securitySettingsViewSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, body, ifMatch }) =>
      withEtag(await saveSecuritySettings(ctx, ifMatch, body)),
  }),
];
