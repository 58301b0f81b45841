import { z } from 'zod';
import { allPermissions, roleNames, type Permission } from '../permissions.js';

/** The field rules every part of identity shares, and the web app with it. */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

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

export const trimmed = (max: number) => z.string().trim().max(max);
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
export const metadataSchema = z
  .object({
    source: trimmed(40).optional(),
    timestamp: z.string().max(40).optional(),
    requestId: z.string().max(100).optional(),
  })
  .optional();

export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** What several routes answer: a sentence for the person. */
export const messageSchema = z.object({ message: z.string() });

/** The ETag of the record shown, to send back as If-Match with a change. */
export const etagSchema = z.string().min(1);
