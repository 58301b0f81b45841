import { z } from 'zod';
import { tiers } from '../../scoring/scoring.schema.js';

/** Contracts of registrations to an auction, their approval and bid limits, and invitations. */

const text = (max: number) => z.string().trim().max(max);

/**
 * invited: asked, not registered yet. pending: registered, waiting for a reviewer.
 * approved: may bid (up to its limit). denied: may not bid, and the reasons say why.
 */
export const registrationStatuses = ['invited', 'pending', 'approved', 'denied'] as const;
export type RegistrationStatus = (typeof registrationStatuses)[number];

/** What a reviewer sees beside a pending registration (LiveAuctioneers' approval figures). */
export const registrationFiguresSchema = z.object({
  /** Payments on time over all payments, 0-1; null with no payments. */
  paymentRate: z.number().nullable(),
  /** Mean hammer of lots won, minor units; null with no wins. */
  averageHammer: z.number().int().nullable(),
  totalPaid: z.number().int(),
  openDisputes: z.number().int(),
  priorDefaults: z.number().int(),
  auctionsApproved: z.number().int(),
  itemsWon: z.number().int(),
});
export type RegistrationFigures = z.infer<typeof registrationFiguresSchema>;

export const registrationSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  /** The bidder's document id, display ID, name and scores when it was decided. */
  bidderId: z.string(),
  bidderNumber: z.string(),
  bidderName: z.string(),
  email: z.string().nullable(),
  lotwiseScore: z.number().int(),
  customScore: z.number().int(),
  tier: z.enum(tiers),
  status: z.enum(registrationStatuses),
  /** Approved with a bid limit below what the bidder asked for or the tier allows by default. */
  limited: z.boolean(),
  /** Minor units of the auction's currency; null is no limit. */
  bidLimit: z.number().int().nullable(),
  paddle: z.string().nullable(),
  /** Why the rules or the reviewer decided as they did, each naming its fact. */
  reasons: z.array(z.string()),
  decidedBy: z.enum(['rules', 'reviewer']).nullable(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  figures: registrationFiguresSchema,
  invitedAt: z.string().nullable(),
  invitedBy: z.string().nullable(),
  registeredAt: z.string().nullable(),
  etag: z.string(),
});
export type Registration = z.infer<typeof registrationSchema>;

export const registrationsQuerySchema = z.object({
  status: z.enum(registrationStatuses).optional(),
  limited: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

export const registrationsResponseSchema = z.object({
  registrations: z.array(registrationSchema),
  counts: z.object({
    invited: z.number().int(),
    pending: z.number().int(),
    approved: z.number().int(),
    limited: z.number().int(),
    denied: z.number().int(),
  }),
});

export const registerSchema = z.object({
  bidderId: z.string().min(1, 'is required').max(100),
  paddle: z.string().trim().min(1).max(20).optional(),
});

export const decisionSchema = z.object({
  decision: z.enum(['approve', 'deny']),
  reason: text(500).min(1, 'Say why'),
  /** Approve with this limit instead of the tier's. */
  bidLimit: z.number().int().min(0).max(1_000_000_000_000).nullable().optional(),
});

export const bidLimitChangeSchema = z.object({
  /** Minor units; null lifts the limit. */
  bidLimit: z.number().int().min(0).max(1_000_000_000_000).nullable(),
  reason: text(500).min(1, 'Say why the limit changes'),
});

export const inviteSchema = z.object({
  bidderIds: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one bidder').max(1000),
  message: text(2000).optional(),
});

export const inviteResultSchema = z.object({
  invited: z.number().int(),
  /** Ids that were skipped because they had no email address. */
  withoutEmail: z.array(z.string()),
});
export type InviteResult = z.infer<typeof inviteResultSchema>;
