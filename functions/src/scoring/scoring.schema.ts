import { z } from 'zod';

/** The score components of the spec, each 0-100. */
export const scoreComponents = [
  'paymentHistory',
  'bidActivity',
  'winRate',
  'avgSpending',
  'accountAge',
  'communicationResponsiveness',
  'disputeHistory',
  'referrals',
] as const;
export type ScoreComponent = (typeof scoreComponents)[number];
export type Weights = Record<ScoreComponent, number>;

export const componentLabels: Record<ScoreComponent, string> = {
  paymentHistory: 'Payment history',
  bidActivity: 'Bid activity',
  winRate: 'Win rate',
  avgSpending: 'Average spending',
  accountAge: 'Account age',
  communicationResponsiveness: 'Responsiveness',
  disputeHistory: 'Dispute history',
  referrals: 'Referrals',
};

export const tiers = ['Premium', 'Gold', 'Silver', 'Bronze', 'New'] as const;
export type Tier = (typeof tiers)[number];
export interface TierThresholds {
  premium: number;
  gold: number;
  silver: number;
  bronze: number;
}

/** The Lotwise Score's weights and tier minimums: the same for every house, not editable. */
export const LOTWISE_WEIGHTS: Weights = {
  paymentHistory: 25,
  bidActivity: 15,
  winRate: 12,
  avgSpending: 18,
  accountAge: 8,
  communicationResponsiveness: 7,
  disputeHistory: 10,
  referrals: 5,
};
export const LOTWISE_TIERS: TierThresholds = { premium: 90, gold: 80, silver: 70, bronze: 60 };

export const DEFAULT_CUSTOM_WEIGHTS: Weights = {
  paymentHistory: 30,
  bidActivity: 20,
  winRate: 10,
  avgSpending: 15,
  accountAge: 5,
  communicationResponsiveness: 5,
  disputeHistory: 10,
  referrals: 5,
};
export const DEFAULT_CUSTOM_TIERS: TierThresholds = {
  premium: 85,
  gold: 75,
  silver: 65,
  bronze: 55,
};

export const autoInviteStatuses = ['Auto-Invite', 'Manual Review', 'Auto-Deny'] as const;
export type AutoInviteStatus = (typeof autoInviteStatuses)[number];

export const minimumTierOptions = ['Bronze', 'Silver', 'Gold', 'Premium'] as const;

const score = z.number().int().min(0).max(100);
const weight = z.number().int().min(0, 'Each weight is 0 to 50').max(50, 'Each weight is 0 to 50');

export const weightsSchema = z
  .object(
    Object.fromEntries(scoreComponents.map((name) => [name, weight])) as Record<
      ScoreComponent,
      typeof weight
    >,
  )
  .superRefine((weights, ctx) => {
    const total = Object.values(weights).reduce((sum, value) => sum + value, 0);
    if (total !== 100) {
      const by = Math.abs(total - 100);
      ctx.addIssue({
        code: 'custom',
        message: `Weights must total 100% (currently ${total > 100 ? 'over' : 'under'} by ${by}%)`,
      });
    }
  });

export const tierThresholdsSchema = z
  .object({ premium: score, gold: score, silver: score, bronze: score })
  .refine((t) => t.premium >= t.gold && t.gold >= t.silver && t.silver >= t.bronze, {
    message: 'Tier minimums must go down from Premium to Bronze',
  });

export const automationRulesSchema = z
  .object({
    autoInvite: z.object({
      enabled: z.boolean(),
      scoreThreshold: score,
      requirePaymentHistory: z.boolean(),
      requireMinimumTier: z.boolean(),
      minimumTier: z.enum(minimumTierOptions),
    }),
    autoDeny: z.object({
      enabled: z.boolean(),
      scoreThreshold: score,
      checkDisputes: z.boolean(),
      checkPaymentDefaults: z.boolean(),
    }),
  })
  .refine(
    (rules) =>
      !rules.autoInvite.enabled ||
      !rules.autoDeny.enabled ||
      rules.autoInvite.scoreThreshold > rules.autoDeny.scoreThreshold,
    {
      path: ['autoInvite', 'scoreThreshold'],
      message: 'Auto-invite must be above auto-deny, so Manual Review lies between them',
    },
  );
export type AutomationRules = z.infer<typeof automationRulesSchema>;

export const DEFAULT_AUTOMATION: AutomationRules = {
  autoInvite: {
    enabled: true,
    scoreThreshold: 80,
    requirePaymentHistory: true,
    requireMinimumTier: true,
    minimumTier: 'Silver',
  },
  autoDeny: { enabled: true, scoreThreshold: 40, checkDisputes: true, checkPaymentDefaults: true },
};

/** A bid limit: integer minor units of the auction's currency; null is no limit. */
const bidLimit = z
  .number()
  .int('is a whole number of minor units (cents)')
  .min(0, 'cannot be negative')
  .max(1_000_000_000_000)
  .nullable();

/**
 * How a registration to an auction is decided, beside the automation rules (which deny and
 * approve by score): the bid limit each tier gets, the history that approves a bidder the score
 * alone would send to review (LiveAuctioneers' options), and the house's own accept and decline
 * lists of bidder IDs (Proxibid's).
 */
export const registrationRulesSchema = z.object({
  bidLimits: z.object(
    Object.fromEntries(tiers.map((tier) => [tier, bidLimit])) as Record<Tier, typeof bidLimit>,
  ),
  autoApprove: z.object({
    previouslyApproved: z.boolean(),
    approvedAuctions: z.number().int().min(1).max(1000).nullable(),
    itemsWon: z.number().int().min(1).max(100_000).nullable(),
    /** Minor units spent (won) with the house. */
    amountSpent: z.number().int().min(1).max(1_000_000_000_000).nullable(),
  }),
  neverWithOpenDispute: z.boolean(),
  autoAccept: z.array(z.string().trim().min(1).max(40)).max(1000),
  autoDecline: z.array(z.string().trim().min(1).max(40)).max(1000),
});
export type RegistrationRules = z.infer<typeof registrationRulesSchema>;

export const DEFAULT_REGISTRATION_RULES: RegistrationRules = {
  bidLimits: { Premium: null, Gold: 5_000_000, Silver: 1_000_000, Bronze: 250_000, New: 100_000 },
  autoApprove: {
    previouslyApproved: false,
    approvedAuctions: 3,
    itemsWon: null,
    amountSpent: null,
  },
  neverWithOpenDispute: true,
  autoAccept: [],
  autoDecline: [],
};

export const AUTO_MERGE_DEFAULT = 95;
export const autoMergeSchema = z.number().int().min(70).max(100);

export const recomputeStatusSchema = z.object({
  jobId: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  processed: z.number().int(),
  total: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type RecomputeStatus = z.infer<typeof recomputeStatusSchema>;

export const scoringSettingsSchema = z.object({
  customWeights: weightsSchema,
  customTiers: tierThresholdsSchema,
  automation: automationRulesSchema,
  registration: registrationRulesSchema,
  autoMergeThreshold: autoMergeSchema,
  version: z.number().int(),
  updatedAt: z.string().nullable(),
  recompute: recomputeStatusSchema.nullable(),
});
export type ScoringSettings = z.infer<typeof scoringSettingsSchema>;
/** What scoring a bidder needs: the settings without the recalculation's progress. */
export type ScoringRules = Omit<ScoringSettings, 'recompute'>;

/** What GET and PUT /scoring/settings answer: the settings and the ETag to send back. */
export const scoringSettingsViewSchema = scoringSettingsSchema.extend({ etag: z.string() });
export type ScoringSettingsView = z.infer<typeof scoringSettingsViewSchema>;

export const scoringSettingsUpdateSchema = z
  .object({
    customWeights: weightsSchema,
    customTiers: tierThresholdsSchema,
    automation: automationRulesSchema,
    registration: registrationRulesSchema,
    autoMergeThreshold: autoMergeSchema,
  })
  .partial();

/** GET /scoring/lotwise: the standardized model, the same for every house. */
export const lotwiseModelSchema = z.object({
  weights: z.record(z.enum(scoreComponents), z.number()),
  tiers: z.object({ premium: score, gold: score, silver: score, bronze: score }),
  description: z.string(),
});
export type LotwiseModel = z.infer<typeof lotwiseModelSchema>;

/** The queued message that starts a recalculation. */
export const recomputeMessageSchema = z.object({
  accountId: z.string(),
  jobId: z.string(),
  version: z.number().int(),
  /** Who saved the settings; absent from messages queued before it was kept. */
  savedBy: z.string().optional(),
});
export type RecomputeMessage = z.infer<typeof recomputeMessageSchema>;
