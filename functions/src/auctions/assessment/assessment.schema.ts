import { z } from 'zod';
import { tiers } from '../../scoring/scoring.schema.js';

/** Contracts of the AI Bidder Assessment of an auction and the invitations sent from it. */

export const recommendations = ['Auto-Invite', 'Consider', 'Review', 'Skip'] as const;
export type Recommendation = (typeof recommendations)[number];
export const riskLevels = ['Low', 'Medium', 'High'] as const;
export type RiskLevel = (typeof riskLevels)[number];

/** The most bidders one answer lists (the counts always cover every bidder). */
export const ASSESSMENT_MAX_LIMIT = 500;

export const assessmentQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ASSESSMENT_MAX_LIMIT).default(50),
  recommendation: z.enum(recommendations).optional(),
});
export type AssessmentQuery = z.infer<typeof assessmentQuerySchema>;

/** The spec's bidder assessment item, with what the formula made of each part. */
export const assessmentItemSchema = z.object({
  bidder: z.object({
    id: z.string(),
    bidderId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    preferredCategories: z.array(z.string()),
    lotwiseScore: z.object({ score: z.number(), tier: z.enum(tiers) }),
  }),
  recommendation: z.enum(recommendations),
  /** 0-100: how well the bidder suits this auction (see assessment-model.ts). */
  matchScore: z.number().int().min(0).max(100),
  riskLevel: z.enum(riskLevels),
  aiInsights: z.string(),
  /** Why, each naming its fact. */
  reasons: z.array(z.string()),
  /** The four parts of the match score, each 0-100. */
  breakdown: z.object({
    affinity: z.number().int(),
    standing: z.number().int(),
    recency: z.number().int(),
    means: z.number().int(),
  }),
  /** Already invited to or registered for this auction. */
  invited: z.boolean(),
});
export type AssessmentItem = z.infer<typeof assessmentItemSchema>;

export const assessmentSchema = z.object({
  auctionId: z.string(),
  /** The best first, up to `limit`, of the recommendation asked for (all by default). */
  items: z.array(assessmentItemSchema),
  counts: z.object({
    autoInvite: z.number().int(),
    consider: z.number().int(),
    review: z.number().int(),
    skip: z.number().int(),
    /** Every bidder of the account, each assessed. */
    totalAnalysed: z.number().int(),
    /** Auto-Invite bidders not yet invited or registered: what "Auto-Invite All" sends. */
    autoInviteNotInvited: z.number().int(),
  }),
  analysedAt: z.string(),
});
export type AssessmentView = z.infer<typeof assessmentSchema>;

/** "Send Selected" names the bidders; "Auto-Invite All" asks for every Auto-Invite one. */
export const assessmentInviteSchema = z
  .object({
    bidderIds: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one bidder').max(1000),
    all: z.literal('Auto-Invite'),
    message: z.string().trim().max(2000).optional(),
  })
  .partial({ bidderIds: true, all: true })
  .refine((input) => (input.bidderIds === undefined) !== (input.all === undefined), {
    path: ['bidderIds'],
    message: 'Name the bidders, or ask for all Auto-Invite ones, not both',
  });

export const assessmentInviteResultSchema = z.object({
  /** Invitations recorded (and mailed to those with an address). */
  invited: z.number().int(),
  /** Invited, but without an email address to send it to. */
  withoutEmail: z.array(z.string()),
  /** Not invited, and why: already invited or registered. */
  skipped: z.array(z.object({ bidderId: z.string(), name: z.string(), reason: z.string() })),
});
export type AssessmentInviteResult = z.infer<typeof assessmentInviteResultSchema>;
