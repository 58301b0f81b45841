import { z } from 'zod';
import { etagSchema, phoneSchema, roleSchema, trimmed } from '../shared/common.schema.js';

/** Contracts of two-factor methods, backup codes, and the account's MFA policy and security settings. */

export const BACKUP_CODE_COUNT = 10;
export const LOW_BACKUP_CODES = 2;

export const mfaTypeSchema = z.enum(['authenticator', 'sms', 'email']);
/** One of the person's methods; `etag` is their record's, which holds every method. */
export const mfaMethodViewSchema = z.object({
  id: z.string(),
  type: mfaTypeSchema,
  name: z.string(),
  enabled: z.boolean(),
  primary: z.boolean(),
  details: z.object({ phoneNumber: z.string().optional(), email: z.string().optional() }),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  etag: etagSchema,
});
export type MfaMethodView = z.infer<typeof mfaMethodViewSchema>;
export const mfaMethodsResponseSchema = z.object({ methods: z.array(mfaMethodViewSchema) });
export const mfaSetupRequestSchema = z
  .object({
    type: mfaTypeSchema,
    name: trimmed(60).min(1, 'is required'),
    phoneNumber: phoneSchema.optional(),
  })
  .refine((value) => value.type !== 'sms' || value.phoneNumber, {
    path: ['phoneNumber'],
    message: 'is required for text message codes',
  });
export type MfaSetupRequest = z.infer<typeof mfaSetupRequestSchema>;
export const mfaSetupResponseSchema = z.object({
  methodId: z.string(),
  type: mfaTypeSchema,
  qrCode: z.string().nullable(),
  secret: z.string().nullable(),
  otpauthUrl: z.string().nullable(),
  codeSentTo: z.string().nullable(),
  backupCodes: z.array(z.string()).nullable(),
});
export const mfaVerifyRequestSchema = z.object({
  methodId: z.string().min(1).max(100),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be 6 digits'),
});
export const mfaVerifyResponseSchema = z.object({
  verified: z.literal(true),
  method: mfaMethodViewSchema,
  backupCodes: z.array(z.string()).nullable(),
});
export const mfaMethodUpdateSchema = z.object({
  enabled: z.boolean().optional(),
  name: trimmed(60).min(1).optional(),
  primary: z.literal(true).optional(),
});
export type MfaMethodUpdate = z.infer<typeof mfaMethodUpdateSchema>;
export const backupCodeStatusSchema = z.object({
  generated: z.boolean(),
  remaining: z.number().int(),
  generatedAt: z.string().nullable(),
});
export const backupCodesSchema = backupCodeStatusSchema.extend({ codes: z.array(z.string()) });
export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  methods: z.number().int(),
  backupCodesRemaining: z.number().int(),
  requiredByPolicy: z.boolean(),
  setupDueBy: z.string().nullable(),
});

export const mfaPolicySchema = z.object({
  required: z.boolean(),
  requiredForRoles: z.array(roleSchema),
  gracePeriodDays: z.number().int().min(0).max(365),
  enforceBackupCodes: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type MfaPolicy = z.infer<typeof mfaPolicySchema>;
export const mfaPolicyUpdateSchema = mfaPolicySchema.omit({ updatedAt: true });
export type MfaPolicyUpdate = z.infer<typeof mfaPolicyUpdateSchema>;
/** The policy as shown; it lives on the account record, so `etag` is the account's. */
export const mfaPolicyViewSchema = mfaPolicySchema.extend({ etag: etagSchema });
export type MfaPolicyView = z.infer<typeof mfaPolicyViewSchema>;

export const securitySettingsSchema = z.object({
  /** Sign out a session after this many idle minutes. */
  sessionIdleMinutes: z
    .number()
    .int()
    .min(15)
    .max(24 * 60),
  /** Sign out a session this many days after sign-in, however active. */
  sessionMaxDays: z.number().int().min(1).max(90),
  /** Members must verify their email before they can use this account. */
  requireVerifiedEmail: z.boolean(),
  /** Email members when their account is signed in to. */
  loginNotifications: z.boolean(),
  /** When not empty, only these email domains can be invited. */
  allowedEmailDomains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/),
    )
    .max(50),
  updatedAt: z.string().nullable(),
});
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;
export const securitySettingsUpdateSchema = securitySettingsSchema.omit({ updatedAt: true });
export type SecuritySettingsUpdate = z.infer<typeof securitySettingsUpdateSchema>;
/** The settings as shown; they live on the account record, so `etag` is the account's. */
export const securitySettingsViewSchema = securitySettingsSchema.extend({ etag: etagSchema });
export type SecuritySettingsView = z.infer<typeof securitySettingsViewSchema>;
