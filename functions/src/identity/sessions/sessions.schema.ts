import { z } from 'zod';
import { accountAccessSchema, accountViewSchema } from '../accounts/accounts.schema.js';
import { userViewSchema } from '../shared/users.schema.js';

/** Contracts of sessions and the tokens that stand for them. */

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

export const accessTokenRequestSchema = z.object({
  userId: z.string().min(1),
  accountId: z.string().min(1),
});
export const sessionTokenRequestSchema = z.object({ userId: z.string().min(1) }).optional();
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
export const sessionsResponseSchema = z.object({ sessions: z.array(sessionViewSchema) });
export const revokedResponseSchema = z.object({ revoked: z.number().int() });
