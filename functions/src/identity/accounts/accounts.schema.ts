import { z } from 'zod';
import {
  emailSchema,
  etagSchema,
  phoneSchema,
  roleSchema,
  trimmed,
} from '../shared/common.schema.js';
import { userViewSchema } from '../shared/users.schema.js';

/** Contracts of accounts, their auction houses and groups. */

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
  roles: z.array(roleSchema),
  assignedAt: z.string().nullable(),
  isDefault: z.boolean(),
});
export type AccountAccess = z.infer<typeof accountAccessSchema>;
export const accountAccessListSchema = z.object({ accounts: z.array(accountAccessSchema) });

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
  currency: z.string(),
  staffCount: z.number().int(),
  createdAt: z.string(),
  etag: etagSchema,
});
export type House = z.infer<typeof houseSchema>;
export const housesResponseSchema = z.object({ houses: z.array(houseSchema) });

/** The account as one member sees it; `etag` is the account record's. */
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
  /** Only on a demo sandbox: when it is removed, with everything in it. */
  demoExpiresAt: z.string().optional(),
  createdAt: z.string(),
  etag: etagSchema,
});
export type AccountView = z.infer<typeof accountViewSchema>;

/** GET /users/me: the person, the accounts they can open and the one they are in. */
export const meResponseSchema = z.object({
  user: userViewSchema,
  accounts: z.array(accountAccessSchema),
  account: accountViewSchema,
});

export const myHouseAccessSchema = z.object({
  role: roleSchema,
  houses: z.array(houseAccessSchema),
});

export const accountIdBodySchema = z.object({ accountId: z.string().min(1).max(100) });
export const defaultAccountResponseSchema = z.object({ defaultAccountId: z.string() });

export const accountUpdateSchema = z.object({
  name: trimmed(120).min(1, 'is required').optional(),
  type: accountTypeSchema.optional(),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;
export const accountCreateSchema = z.object({
  name: trimmed(120).min(1, 'is required'),
  type: accountTypeSchema.default('individual'),
});

/** The time zones and currencies a house may run in (the spec's settings lists). */
export const houseTimezones = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
] as const;
export type HouseTimezone = (typeof houseTimezones)[number];
export const houseTimezoneLabels: Record<HouseTimezone, string> = {
  'America/New_York': 'Eastern',
  'America/Chicago': 'Central',
  'America/Denver': 'Mountain',
  'America/Los_Angeles': 'Pacific',
};
export const houseCurrencies = ['USD', 'EUR', 'GBP', 'CAD'] as const;
export const DEFAULT_HOUSE_COUNTRY = 'USA';
export const DEFAULT_HOUSE_TIMEZONE = 'America/New_York';
export const DEFAULT_HOUSE_CURRENCY = 'USD';

const houseFields = {
  name: trimmed(120).min(1, 'is required'),
  businessName: trimmed(160).min(1, 'is required'),
  status: z.enum(['active', 'inactive']),
  address: trimmed(200),
  city: trimmed(100).min(1, 'is required'),
  state: trimmed(100),
  zip: trimmed(20),
  country: trimmed(60),
  phone: z.union([phoneSchema, z.literal('')]),
  email: z.union([emailSchema, z.literal('')]),
  website: z.url().max(300).nullable(),
  timezone: z.enum(houseTimezones),
  currency: z.enum(houseCurrencies),
};
export const houseInputSchema = z.object({
  ...houseFields,
  status: houseFields.status.default('active'),
  address: houseFields.address.default(''),
  state: houseFields.state.default(''),
  zip: houseFields.zip.default(''),
  country: houseFields.country.default(DEFAULT_HOUSE_COUNTRY),
  phone: houseFields.phone.default(''),
  email: houseFields.email.default(''),
  website: houseFields.website.default(null),
  timezone: houseFields.timezone.default(DEFAULT_HOUSE_TIMEZONE),
  currency: houseFields.currency.default(DEFAULT_HOUSE_CURRENCY),
});
export type HouseInput = z.infer<typeof houseInputSchema>;
/** Only what is sent changes; nothing falls back to a default. */
export const houseUpdateSchema = z.object(houseFields).partial();
export type HouseUpdate = z.infer<typeof houseUpdateSchema>;

export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  houseIds: z.array(z.string()),
  createdAt: z.string(),
  etag: etagSchema,
});
export type HouseGroup = z.infer<typeof groupSchema>;
export const groupsResponseSchema = z.object({ groups: z.array(groupSchema) });
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
export type GroupUpdate = z.infer<typeof groupUpdateSchema>;

export const featuresResponseSchema = z.object({
  flags: z.record(z.string(), z.boolean()),
  features: z.object({ inventory: z.boolean(), payments: z.boolean() }),
  refreshedAt: z.string(),
});
