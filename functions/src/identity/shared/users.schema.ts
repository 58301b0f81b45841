import { z } from 'zod';
import {
  etagSchema,
  languageSchema,
  phoneSchema,
  timezoneSchema,
  trimmed,
} from './common.schema.js';

/** A person as the client sees them; `etag` is their record's, for If-Match on a profile change. */
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
  etag: etagSchema,
});
export type UserView = z.infer<typeof userViewSchema>;

export const profileUpdateSchema = z.object({
  firstName: trimmed(100).min(1, 'is required').optional(),
  lastName: trimmed(100).min(1, 'is required').optional(),
  phone: phoneSchema.nullable().optional(),
  timezone: timezoneSchema.optional(),
  language: languageSchema.optional(),
  marketingOptIn: z.boolean().optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
