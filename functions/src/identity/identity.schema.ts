import { z } from 'zod';
import { allPermissions, roleNames, type Permission } from './permissions.js';

/** Contracts of the identity service, shared by the functions and the web app. */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const MFA_CODE_LENGTH = 6;
export const BACKUP_CODE_COUNT = 10;
export const LOW_BACKUP_CODES = 2;
export const INVITATION_TTL_DAYS = 7;
export const PASSWORD_RESET_TTL_MINUTES = 60;
export const DEFAULT_ACTIVITY_DAYS = 30;
export const DEFAULT_MFA_GRACE_DAYS = 30;

export const timezones = [
  { value: 'America/New_York', label: 'Eastern' },
  { value: 'America/Chicago', label: 'Central' },
  { value: 'America/Denver', label: 'Mountain' },
  { value: 'America/Los_Angeles', label: 'Pacific' },
  { value: 'America/Phoenix', label: 'Arizona' },
  { value: 'America/Anchorage', label: 'Alaska' },
  { value: 'Pacific/Honolulu', label: 'Hawaii' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
  { value: 'Australia/Sydney', label: 'Sydney' },
] as const;
export const languages = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Español' },
  { value: 'fr', label: 'Français' },
  { value: 'de', label: 'Deutsch' },
] as const;

const trimmed = (max: number) => z.string().trim().max(max);
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid email address' }));
/** Optional plus, then at least 10 digits, spaces, dashes or parentheses (the spec's rule). */
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[\d\s\-()]{10,}$/, 'Enter a phone number with at least 10 digits, e.g. +15551234567')
  .max(32);
export const passwordInputSchema = z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH);
export const roleSchema = z.enum(roleNames);
export const assignableRoleSchema = z.enum(['admin', 'staff', 'viewer']);
export const permissionSchema = z
  .string()
  .refine((value): value is Permission => (allPermissions as string[]).includes(value), {
    message: 'is not a known permission',
  });
export const timezoneSchema = z.enum(timezones.map((zone) => zone.value) as [string, ...string[]]);
export const languageSchema = z.enum(['en', 'es', 'fr', 'de']);
const metadataSchema = z
  .object({
    source: trimmed(40).optional(),
    timestamp: z.string().max(40).optional(),
    requestId: z.string().max(100).optional(),
  })
  .optional();

// ---- People and accounts as the client sees them ----

export const userViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  timezone: z.string(),
  language: z.string(),
  marketingOptIn: z.boolean(),
  defaultAccountId: z.string().nullable(),
  mfaEnabled: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserView = z.infer<typeof userViewSchema>;

export const accountTypeSchema = z.enum(['individual', 'organization', 'group']);
export type AccountType = z.infer<typeof accountTypeSchema>;
export const subscriptionTierSchema = z.enum([
  'free',
  'tier-1',
  'tier-2',
  'tier-3',
  'tier-4',
  'tier-5',
]);
export type SubscriptionTier = z.infer<typeof subscriptionTierSchema>;

export const houseAccessSchema = z.object({
  houseId: z.string(),
  houseName: z.string(),
  role: roleSchema,
  permissions: z.array(z.string()),
});

/** One entry of the account picker. */
export const accountAccessSchema = z.object({
  accountId: z.string(),
  accountName: z.string(),
  accountType: accountTypeSchema,
  roles: z.array(z.string()),
  assignedAt: z.string().nullable(),
  isDefault: z.boolean(),
});
export type AccountAccess = z.infer<typeof accountAccessSchema>;

export const houseSchema = z.object({
  id: z.string(),
  name: z.string(),
  businessName: z.string(),
  status: z.enum(['active', 'inactive']),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  phone: z.string(),
  email: z.string(),
  website: z.string().nullable(),
  timezone: z.string(),
  staffCount: z.number().int(),
  createdAt: z.string(),
});
export type House = z.infer<typeof houseSchema>;

export const accountViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: accountTypeSchema,
  ownerUserId: z.string(),
  subscription: z.object({
    tier: subscriptionTierSchema,
    addOns: z.object({ inventory: z.boolean(), payments: z.boolean() }),
  }),
  houses: z.array(houseSchema),
  role: roleSchema,
  permissions: z.array(z.string()),
  houseAccess: z.array(houseAccessSchema),
  features: z.array(z.string()),
  createdAt: z.string(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

// ---- Sign-up and sign-in ----

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

/** A signed-in session: what login, sign-up and Microsoft sign-in all answer. */
export const sessionResponseSchema = z.object({
  status: z.literal('signed-in'),
  user: userViewSchema,
  sessionToken: z.string(),
  refreshToken: z.string(),
  /** `selected` when the session is bound to an account (then accessToken is set). */
  accountSelection: z.enum(['selected', 'pending', 'none']),
  accounts: z.array(accountAccessSchema),
  accessToken: z.string().optional(),
  accessTokenExpiresAt: z.string().optional(),
  account: accountViewSchema.optional(),
  /** When the account's MFA policy will require this user to enrol. */
  mfaSetupDueBy: z.string().nullable().optional(),
  mfaSetupRequired: z.boolean().optional(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const mfaChallengeSchema = z.object({
  status: z.literal('mfa-required'),
  methods: z.array(mfaMethodSummarySchema),
  /** Masked destination when a code was just sent. */
  codeSentTo: z.string().nullable(),
  backupCodesAvailable: z.boolean(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

export const loginResponseSchema = z.discriminatedUnion('status', [
  sessionResponseSchema,
  mfaChallengeSchema,
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const accessTokenRequestSchema = z.object({
  userId: z.string().min(1),
  accountId: z.string().min(1),
});
export const accountIdBodySchema = z.object({ accountId: z.string().min(1).max(100) });
export const refreshRequestSchema = z.object({ refreshToken: z.string().min(10).max(500) });
export const logoutRequestSchema = z.object({ refreshToken: z.string().max(500).optional() });

export const accessTokenResponseSchema = z.object({
  accessToken: z.string(),
  accessTokenExpiresAt: z.string(),
  account: accountViewSchema,
  mfaSetupDueBy: z.string().nullable(),
  mfaSetupRequired: z.boolean(),
});
export type AccessTokenResponse = z.infer<typeof accessTokenResponseSchema>;

export const refreshResponseSchema = z.object({
  accessToken: z.string().nullable(),
  accessTokenExpiresAt: z.string().nullable(),
  refreshToken: z.string(),
});

export const sessionViewSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  accountId: z.string().nullable(),
  userAgent: z.string(),
  ipAddress: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

// ---- Profile, passwords, email ----

export const profileUpdateSchema = z.object({
  firstName: trimmed(100).min(1, 'is required').optional(),
  lastName: trimmed(100).min(1, 'is required').optional(),
  phone: phoneSchema.nullable().optional(),
  timezone: timezoneSchema.optional(),
  language: languageSchema.optional(),
  marketingOptIn: z.boolean().optional(),
});

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
export const passwordBodySchema = z.object({
  password: z.string().max(PASSWORD_MAX_LENGTH),
  email: z.string().max(254).optional(),
  name: z.string().max(200).optional(),
});
export const generatePasswordSchema = z
  .object({ length: z.number().int().min(PASSWORD_MIN_LENGTH).max(64).default(20) })
  .prefault({});

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

// ---- Accounts, houses and groups ----

export const accountUpdateSchema = z.object({
  name: trimmed(120).min(1, 'is required').optional(),
  type: accountTypeSchema.optional(),
});
export const accountCreateSchema = z.object({
  name: trimmed(120).min(1, 'is required'),
  type: accountTypeSchema.default('individual'),
});

const houseFields = {
  name: trimmed(120).min(1, 'is required'),
  businessName: trimmed(160),
  status: z.enum(['active', 'inactive']),
  address: trimmed(200),
  city: trimmed(100),
  state: trimmed(100),
  zip: trimmed(20),
  country: trimmed(60),
  phone: z.union([phoneSchema, z.literal('')]),
  email: z.union([emailSchema, z.literal('')]),
  website: z.url().max(300).nullable(),
  timezone: timezoneSchema,
};
export const houseInputSchema = z.object({
  ...houseFields,
  businessName: houseFields.businessName.default(''),
  status: houseFields.status.default('active'),
  address: houseFields.address.default(''),
  city: houseFields.city.default(''),
  state: houseFields.state.default(''),
  zip: houseFields.zip.default(''),
  country: houseFields.country.default('USA'),
  phone: houseFields.phone.default(''),
  email: houseFields.email.default(''),
  website: houseFields.website.default(null),
  timezone: houseFields.timezone.default('America/New_York'),
});
/** Only what is sent changes; nothing falls back to a default. */
export const houseUpdateSchema = z.object(houseFields).partial();

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  houseIds: z.array(z.string()),
  createdAt: z.string(),
});
export type HouseGroup = z.infer<typeof groupSchema>;
const groupFields = {
  name: trimmed(120).min(1, 'is required'),
  description: trimmed(500),
  houseIds: z.array(z.string().min(1)).max(200),
};
export const groupInputSchema = z.object({
  ...groupFields,
  description: groupFields.description.default(''),
  houseIds: groupFields.houseIds.default([]),
});
export const groupUpdateSchema = z.object(groupFields).partial();

// ---- Team ----

export const memberStatusSchema = z.enum(['active', 'pending', 'suspended']);
export const teamMemberSchema = z.object({
  id: z.string(),
  kind: z.enum(['member', 'invitation']),
  name: z.string(),
  email: z.string(),
  accountRole: roleSchema,
  auctionHouseAccess: z.array(houseAccessSchema),
  permissions: z.array(z.string()),
  mfa: z.object({ enabled: z.boolean() }),
  status: memberStatusSchema,
  lastLoginAt: z.string().nullable(),
  invitedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const inviteRequestSchema = z.object({
  email: emailSchema,
  role: assignableRoleSchema.default('staff'),
  permissions: z.array(permissionSchema).max(200).default([]),
  personalMessage: trimmed(1000).optional(),
  auctionHouseIds: z.array(z.string().min(1)).max(200).optional(),
});
export const roleChangeSchema = z.object({
  role: assignableRoleSchema,
  permissions: z.array(permissionSchema).max(200).optional(),
  houseId: z.string().min(1).optional(),
});
export const houseAssignmentSchema = z.object({
  userId: z.string().min(1),
  houseId: z.string().min(1),
  role: assignableRoleSchema.optional(),
});
export const inviteToHouseSchema = z.object({
  email: emailSchema,
  houseId: z.string().min(1),
  role: assignableRoleSchema.default('staff'),
  personalMessage: trimmed(1000).optional(),
});
export const houseAccessUpdateSchema = z.object({
  houses: z
    .array(
      z.object({
        houseId: z.string().min(1),
        role: assignableRoleSchema,
        permissions: z.array(permissionSchema).max(200).optional(),
      }),
    )
    .max(200),
});
/** How the member is named in this account's team lists. */
export const memberUpdateSchema = z.object({ name: trimmed(200).min(1, 'is required') });
export const activityQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(DEFAULT_ACTIVITY_DAYS),
});
export const activityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  entity: z.object({ type: z.string(), id: z.string() }),
});

export const invitationValidationSchema = z.object({
  valid: z.literal(true),
  email: z.string(),
  accountName: z.string(),
  role: roleSchema,
  invitedBy: z.string(),
  expiresAt: z.string(),
  existingUser: z.boolean(),
});

// ---- MFA ----

export const mfaTypeSchema = z.enum(['authenticator', 'sms', 'email']);
export const mfaMethodViewSchema = z.object({
  id: z.string(),
  type: mfaTypeSchema,
  name: z.string(),
  enabled: z.boolean(),
  primary: z.boolean(),
  details: z.object({ phoneNumber: z.string().optional(), email: z.string().optional() }),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type MfaMethodView = z.infer<typeof mfaMethodViewSchema>;
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

// ---- Permissions and features ----

export const permissionCatalogueSchema = z.object({
  permissions: z.array(z.object({ key: z.string(), label: z.string(), area: z.string() })),
  roles: z.array(
    z.object({
      role: roleSchema,
      label: z.string(),
      description: z.string(),
      permissions: z.array(z.string()),
    }),
  ),
});

export const featuresResponseSchema = z.object({
  flags: z.record(z.string(), z.boolean()),
  features: z.object({ inventory: z.boolean(), payments: z.boolean() }),
  refreshedAt: z.string(),
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
export const providerLoginSchema = z.object({
  idToken: z.string().min(20).max(20_000),
  invitationCode: z.string().trim().min(1).max(200).optional(),
});
export const oauthCallbackSchema = z.object({
  code: z.string().min(1).max(4000),
  state: z.string().min(10).max(200),
});
export const oauthStartResponseSchema = z.object({ authorizeUrl: z.string(), state: z.string() });

export const outboxQuerySchema = z.object({
  to: z.string().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
