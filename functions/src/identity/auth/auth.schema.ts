import { z } from 'zod';
import {
  emailSchema,
  languageSchema,
  metadataSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordInputSchema,
  phoneSchema,
  timezoneSchema,
  trimmed,
} from '../shared/common.schema.js';
import { userViewSchema } from '../shared/users.schema.js';
import { sessionResponseSchema } from '../sessions/sessions.schema.js';

/** Contracts of sign-up, sign-in, passwords and email confirmation. */

export const signupRequestSchema = z
  .object({
    firstName: trimmed(100).min(1, 'is required'),
    lastName: trimmed(100).min(1, 'is required'),
    email: emailSchema,
    password: passwordInputSchema,
    confirmPassword: z.string(),
    phone: phoneSchema.optional().or(z.literal('').transform(() => undefined)),
    preferences: z
      .object({
        timezone: timezoneSchema.optional(),
        language: languageSchema.default('en'),
        marketingOptIn: z.boolean().default(false),
        termsAccepted: z.boolean().default(false),
        privacyPolicyAccepted: z.boolean().default(false),
      })
      .prefault({}),
    invitationCode: z.string().trim().min(1).max(200).optional(),
    accountName: trimmed(120).min(1).optional(),
    metadata: metadataSchema,
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: 'Passwords do not match',
      });
    }
    if (!value.preferences.termsAccepted) {
      ctx.addIssue({
        code: 'custom',
        path: ['preferences', 'termsAccepted'],
        message: 'must be accepted',
      });
    }
    if (!value.preferences.privacyPolicyAccepted) {
      ctx.addIssue({
        code: 'custom',
        path: ['preferences', 'privacyPolicyAccepted'],
        message: 'must be accepted',
      });
    }
  });
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const loginRequestSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Please enter both email and password').max(254),
  password: z.string().min(1, 'Please enter both email and password').max(PASSWORD_MAX_LENGTH),
  mfaCode: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z-]{6,20}$/, 'must be a 6-digit code or a backup code')
    .optional(),
  /** For sms and email methods: which one to send the code to. */
  mfaMethodId: z.string().max(100).optional(),
  invitationCode: z.string().trim().min(1).max(200).optional(),
  /** The device token an earlier sign-in of this person gave this client (device-tokens.ts). */
  deviceToken: z.string().max(2000).optional(),
  demoMode: z.literal(false).optional(),
  metadata: metadataSchema,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const mfaMethodSummarySchema = z.object({
  id: z.string(),
  type: z.enum(['authenticator', 'sms', 'email']),
  name: z.string(),
  primary: z.boolean(),
  /** Masked destination for sms and email methods. */
  destination: z.string().nullable(),
});

export const mfaChallengeSchema = z.object({
  status: z.literal('mfa-required'),
  methods: z.array(mfaMethodSummarySchema),
  /** Masked destination when a code was just sent. */
  codeSentTo: z.string().nullable(),
  backupCodesAvailable: z.boolean(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** A password sign-in also answers a device token, for the client to send with the next one. */
export const loginResponseSchema = z.discriminatedUnion('status', [
  sessionResponseSchema.extend({ deviceToken: z.string() }),
  mfaChallengeSchema,
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: passwordInputSchema,
    newPassword: passwordInputSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  });
export const changeEmailSchema = z.object({ newEmail: emailSchema, password: passwordInputSchema });
export const changeEmailResponseSchema = z.object({ user: userViewSchema, message: z.string() });
export const resetRequestSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z
  .object({
    token: z.string().min(10).max(200),
    newPassword: passwordInputSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  });
export const tokenBodySchema = z.object({ token: z.string().min(10).max(200) });
export const verifiedResponseSchema = z.object({ verified: z.literal(true) });
export const resendVerificationSchema = z.object({ email: emailSchema }).optional();
export const passwordBodySchema = z.object({
  password: z.string().max(PASSWORD_MAX_LENGTH),
  email: z.string().max(254).optional(),
  name: z.string().max(200).optional(),
});
export const generatePasswordSchema = z
  .object({ length: z.number().int().min(PASSWORD_MIN_LENGTH).max(64).default(20) })
  .prefault({});
export const generatedPasswordSchema = z.object({ password: z.string() });

export const passwordPolicySchema = z.object({
  minLength: z.number(),
  maxLength: z.number(),
  requireUppercase: z.boolean(),
  requireLowercase: z.boolean(),
  requireNumber: z.boolean(),
  requireSpecial: z.boolean(),
  rejectCommon: z.boolean(),
  description: z.string(),
});
export const passwordValidationSchema = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
});
export const passwordStrengthSchema = z.object({
  score: z.number().int().min(0).max(4),
  label: z.enum(['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong']),
  suggestions: z.array(z.string()),
});

export const providersResponseSchema = z.object({
  demo: z.boolean(),
  providers: z.array(
    z.object({
      id: z.literal('microsoft'),
      clientId: z.string(),
      authority: z.string(),
      redirectUri: z.string(),
    }),
  ),
});
export const providerParamsSchema = z.object({
  provider: z.literal('microsoft', { message: 'is not a sign-in provider Lotwise offers' }),
});
export const providerLoginSchema = z.object({
  idToken: z.string().min(20).max(20_000),
  invitationCode: z.string().trim().min(1).max(200).optional(),
});
export const oauthCallbackSchema = z.object({
  code: z.string().min(1).max(4000),
  state: z.string().min(10).max(200),
});
export const oauthStartResponseSchema = z.object({ authorizeUrl: z.string(), state: z.string() });
/** POST /login/{provider}: signed in with an ID token, or where to send the browser. */
export const providerLoginResponseSchema = z.union([
  sessionResponseSchema,
  oauthStartResponseSchema,
]);
