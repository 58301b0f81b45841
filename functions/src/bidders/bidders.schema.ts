import { z } from 'zod';
import { currencies, platforms } from '../auctions/markets.schema.js';
import { emailSchema } from '../identity/shared/common.schema.js';
import { autoInviteStatuses, scoreComponents, tiers } from '../scoring/scoring.schema.js';

/** Contracts of the bidders service, shared with the web app. */

export const bidderStatuses = ['Active', 'Inactive', 'Suspended', 'Pending'] as const;
export type BidderStatus = (typeof bidderStatuses)[number];
export const preferredCategories = [
  'Art',
  'Jewelry',
  'Antiques',
  'Furniture',
  'Collectibles',
  'Electronics',
  'Automobiles',
  'Tools',
  'Sports',
  'Books',
  'Designer Items',
  'Home Decor',
  'Kitchenware',
  'Watches',
  'Coins & Currency',
  'Stamps',
  'Musical Instruments',
  'Wine & Spirits',
] as const;
export const paymentMethods = [
  'Credit Card',
  'Wire Transfer',
  'ACH Transfer',
  'Cash',
  'Check',
  'PayPal',
] as const;
export const noteCategories = ['General', 'Payment', 'Behavior', 'Preference', 'Warning'] as const;
export const scoreTypes = ['lotwise', 'custom'] as const;
export type ScoreType = (typeof scoreTypes)[number];

const text = (max: number) => z.string().trim().max(max);

/** The field names of an object contract, in its order: field lists derive from the contracts. */
export const keysOf = <S extends z.ZodRawShape>(schema: z.ZodObject<S>) =>
  Object.keys(schema.shape) as (keyof S & string)[];
const count = z.number().int().min(0).max(1_000_000);

export const addressSchema = z.object({
  street: text(200).default(''),
  city: text(100).default(''),
  state: text(100).default(''),
  zip: text(20).default(''),
  country: text(60).default('USA'),
});
export type Address = z.infer<typeof addressSchema>;

/** The facts of a bidder's record the scores are computed from. */
export const bidderStatsSchema = z.object({
  totalAuctionsBid: count,
  totalLotsBid: count,
  wins: count,
  totalWinAmount: z.number().min(0).max(1_000_000_000),
  paymentsOnTime: count,
  paymentsLate: count,
  paymentsOverdue: count,
  avgDaysToPay: z.number().min(0).max(3650).nullable(),
  priorDefaults: count,
  disputes: count,
  referrals: count,
  responseRate: z.number().min(0).max(1).nullable(),
  avgResponseHours: z.number().min(0).max(10_000).nullable(),
  firstAuction: z.iso.datetime().nullable(),
  lastAuction: z.iso.datetime().nullable(),
});
export type BidderStats = z.infer<typeof bidderStatsSchema>;

export const emptyStats = (): BidderStats => ({
  totalAuctionsBid: 0,
  totalLotsBid: 0,
  wins: 0,
  totalWinAmount: 0,
  paymentsOnTime: 0,
  paymentsLate: 0,
  paymentsOverdue: 0,
  avgDaysToPay: null,
  priorDefaults: 0,
  disputes: 0,
  referrals: 0,
  responseRate: null,
  avgResponseHours: null,
  firstAuction: null,
  lastAuction: null,
});

export const scoreResultSchema = z.object({
  score: z.number(),
  tier: z.enum(tiers),
  breakdown: z.object(
    Object.fromEntries(scoreComponents.map((name) => [name, z.number()])) as Record<
      (typeof scoreComponents)[number],
      z.ZodNumber
    >,
  ),
  /** Components without evidence yet, scored the neutral 50; absent on scores from before. */
  neutral: z.array(z.enum(scoreComponents)).default([]),
  lastUpdated: z.string(),
});

export const historyEntrySchema = z.object({
  id: z.string(),
  isInternal: z.boolean(),
  auctionTitle: z.string(),
  generalCategory: z.string().nullable(),
  auctionHouse: z.string().nullable(),
  auctionDate: z.string(),
  totalSpent: z.number(),
  totalBids: z.number().int(),
  wonItems: z.number().int(),
  highestBid: z.number().nullable(),
  lotNumbers: z.array(z.string()),
  paymentStatus: z.string(),
  pickupStatus: z.string(),
  specialNotes: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const noteSchema = z.object({
  id: z.string(),
  category: z.enum(noteCategories),
  isPrivate: z.boolean(),
  note: z.string(),
  user: z.string(),
  userId: z.string(),
  date: z.string(),
});
export type BidderNote = z.infer<typeof noteSchema>;

/**
 * The same person as a bidder on a bidding platform: one Lotwise bidder may be several platform
 * bidders, each with its own figures there. Money is in minor units of `currency`.
 */
export const platformIdentitySchema = z.object({
  platform: z.enum(platforms),
  externalId: z.string(),
  email: z.string().nullable(),
  totalBids: z.number().int().min(0),
  totalWins: z.number().int().min(0),
  totalSpent: z.number().int().min(0),
  currency: z.enum(currencies),
  lastActive: z.string().nullable(),
  linkedAt: z.string(),
  updatedAt: z.string(),
});
export type PlatformIdentity = z.infer<typeof platformIdentitySchema>;

export const bidderSchema = z.object({
  id: z.string(),
  bidderId: z.string(),
  aliases: z.array(z.string()),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: addressSchema,
  status: z.enum(bidderStatuses),
  preferredCategories: z.array(z.string()),
  preferredPaymentMethod: z.enum(paymentMethods),
  stats: bidderStatsSchema,
  lotwiseScore: scoreResultSchema,
  customScore: scoreResultSchema,
  localScore: z
    .object({ score: z.number(), reason: z.string(), by: z.string(), at: z.string() })
    .nullable(),
  autoInviteStatus: z.enum(autoInviteStatuses),
  /** Asked to receive no marketing mail: campaigns pass them by. */
  marketingOptOut: z.boolean(),
  invitations: z.array(
    z.object({ at: z.string(), by: z.string(), auctionId: z.string().nullable() }),
  ),
  platformIdentities: z.array(platformIdentitySchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  etag: z.string(),
});
export type Bidder = z.infer<typeof bidderSchema>;

/** A row of the list: what the table shows, without history and notes. */
export const bidderListItemSchema = bidderSchema.omit({
  invitations: true,
  platformIdentities: true,
});
export type BidderListItem = z.infer<typeof bidderListItemSchema>;

/** The facts of a bidder an audit entry keeps: not the derived or bulky fields. */
export const bidderFactsSchema = bidderSchema.pick({
  bidderId: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  address: true,
  status: true,
  stats: true,
  marketingOptOut: true,
});

/** What duplicate matching reads of a bidder, and when it arrived (the older record stays). */
export const pairCandidateSchema = bidderSchema.pick({
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  address: true,
  status: true,
  createdAt: true,
});
export type PairCandidate = z.infer<typeof pairCandidateSchema>;

/**
 * What an auction's assessment and campaigns read of every bidder: the facts they decide on, the
 * scores without their breakdowns, and the categories of the auctions in the bidder's history.
 */
export const outreachFactsSchema = bidderSchema
  .pick({
    id: true,
    bidderId: true,
    firstName: true,
    lastName: true,
    email: true,
    status: true,
    preferredCategories: true,
    autoInviteStatus: true,
    stats: true,
    marketingOptOut: true,
  })
  .extend({
    lotwiseScore: z.object({ score: z.number(), tier: z.enum(tiers) }),
    customScore: z.object({ score: z.number(), tier: z.enum(tiers) }),
    historyCategories: z.array(z.string().nullable()),
  });
export type OutreachFacts = z.infer<typeof outreachFactsSchema>;

/** Bidders' numbers come from many countries and old records: 7 digits is enough to call. */
const bidderPhoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[\d\s\-().]{7,}$/, 'Enter a phone number with at least 7 digits')
  .max(32);

export const bidderInputSchema = z.object({
  bidderId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'use letters, digits, dot, dash or underscore')
    .optional(),
  firstName: text(100).min(1, 'is required'),
  lastName: text(100).min(1, 'is required'),
  email: emailSchema,
  phone: bidderPhoneSchema.optional().or(z.literal('').transform(() => undefined)),
  address: addressSchema.prefault({}),
  status: z.enum(bidderStatuses).default('Pending'),
  preferredCategories: z.array(z.enum(preferredCategories)).max(18).default([]),
  preferredPaymentMethod: z.enum(paymentMethods).default('Credit Card'),
  marketingOptOut: z.boolean().default(false),
  stats: bidderStatsSchema.partial().optional(),
  initialNote: text(2000).optional(),
});
export type BidderInput = z.infer<typeof bidderInputSchema>;

/** An edit: only what is sent changes (no defaults). */
export const bidderUpdateSchema = z
  .object({
    firstName: text(100).min(1, 'is required'),
    lastName: text(100).min(1, 'is required'),
    email: emailSchema,
    phone: bidderPhoneSchema.nullable(),
    address: z.object({
      street: text(200),
      city: text(100),
      state: text(100),
      zip: text(20),
      country: text(60),
    }),
    status: z.enum(bidderStatuses),
    preferredCategories: z.array(z.enum(preferredCategories)).max(18),
    preferredPaymentMethod: z.enum(paymentMethods),
    marketingOptOut: z.boolean(),
    stats: bidderStatsSchema.partial(),
  })
  .partial();

export type BidderUpdate = z.infer<typeof bidderUpdateSchema>;

export const listQuerySchema = z.object({
  tier: z.enum(tiers).optional(),
  status: z.enum(bidderStatuses).optional(),
  autoInvite: z.enum(autoInviteStatuses).optional(),
  scoreType: z.enum(scoreTypes).default('lotwise'),
  minScore: z.coerce.number().int().min(0).max(100).optional(),
  maxScore: z.coerce.number().int().min(0).max(100).optional(),
  search: z.string().trim().max(100).optional(),
  sort: z.enum(['desc', 'asc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  continuationToken: z.string().max(4000).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const listResponseSchema = z.object({
  bidders: z.array(bidderListItemSchema),
  total: z.number().int(),
  continuationToken: z.string().optional(),
});

export const noteInputSchema = z.object({
  category: z.enum(noteCategories).default('General'),
  note: text(2000).min(1, 'is required'),
  isPrivate: z.boolean().default(true),
});

export const localScoreSchema = z.object({
  score: z.number().int().min(0).max(100),
  reason: text(500).min(1, 'Say why the score is overridden'),
});

export const bulkInviteSchema = z.object({
  bidderIds: z.array(z.string().min(1)).min(1, 'Choose at least one bidder').max(500),
  auctionId: z.string().min(1).max(100).optional(),
  message: text(2000).optional(),
});

export const candidatesQuerySchema = z.object({
  minScore: z.coerce.number().int().min(0).max(100).optional(),
  tier: z.enum(tiers).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const analyticsSchema = z.object({
  scoreType: z.enum(scoreTypes),
  total: z.number().int(),
  active: z.number().int(),
  averageScore: z.number().nullable(),
  byTier: z.record(z.string(), z.number().int()),
  byAutoInvite: z.record(z.string(), z.number().int()),
});

export const duplicateSchema = z.object({
  id: z.string(),
  bidder1: bidderListItemSchema,
  bidder2: bidderListItemSchema,
  confidenceScore: z.number().int(),
  matchReasons: z.array(z.string()),
  conflicts: z.array(z.object({ field: z.string(), value1: z.string(), value2: z.string() })),
  status: z.enum(['pending', 'auto-merged', 'manually-merged', 'dismissed']),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type DuplicateView = z.infer<typeof duplicateSchema>;

export const duplicateSummarySchema = z.object({
  pending: z.number().int(),
  autoMerged: z.number().int(),
  resolved: z.number().int(),
  total: z.number().int(),
});

/** A reviewer's merge, naming the versions of the two bidders the review showed (their ETags). */
export const mergeRequestSchema = z.object({
  primaryId: z.string().min(1),
  secondaryId: z.string().min(1),
  primaryEtag: z.string().min(1).max(200),
  secondaryEtag: z.string().min(1).max(200),
  resolved: z.record(z.string(), z.string().max(500)).default({}),
});

export const importResultSchema = z.object({
  totalProcessed: z.number().int(),
  successful: z.number().int(),
  failed: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Fields a conflicting pair can differ in, and that the merge dialog offers. */
export const mergeableFields = [
  ...keysOf(bidderSchema.pick({ firstName: true, lastName: true, email: true, phone: true })),
  ...keysOf(addressSchema),
  ...keysOf(bidderSchema.pick({ status: true })),
];
export type MergeableField = (typeof mergeableFields)[number];

/**
 * What adding or editing a bidder answers: the bidder as it now is, and what duplicate matching
 * did. When the bidder was certainly someone already on file it was merged into them: the answer
 * is that bidder, and `mergedBecause` says why (the match reasons).
 */
export const bidderWriteSchema = bidderSchema.extend({
  mergedBecause: z.array(z.string()).nullable(),
  possibleDuplicates: z.number().int(),
});
export type BidderWrite = z.infer<typeof bidderWriteSchema>;

export const historyResponseSchema = z.object({ history: z.array(historyEntrySchema) });

const scoreMove = z.object({
  before: z.number(),
  after: z.number(),
  tierBefore: z.enum(tiers),
  tierAfter: z.enum(tiers),
});
/** One change of a bidder's scores: what moved, by how much, and why. */
export const scoreChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  /** "Auction closed: Spring Fine Art", "Record edited", ... */
  cause: z.string(),
  by: z.string(),
  lotwise: scoreMove,
  custom: scoreMove,
  components: z.array(
    z.object({
      scoreType: z.enum(scoreTypes),
      component: z.enum(scoreComponents),
      before: z.number(),
      after: z.number(),
    }),
  ),
});
export type ScoreChange = z.infer<typeof scoreChangeSchema>;
export const scoreHistoryResponseSchema = z.object({ changes: z.array(scoreChangeSchema) });
export const notesResponseSchema = z.object({ notes: z.array(noteSchema) });
export const duplicatesResponseSchema = z.object({
  duplicates: z.array(duplicateSchema),
  summary: duplicateSummarySchema,
});
export const scanResultSchema = z.object({
  scanned: z.number().int(),
  pending: z.number().int(),
  autoMerged: z.number().int(),
});
export const bulkInviteResultSchema = z.object({
  invited: z.number().int(),
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
});
export const scoresResponseSchema = bidderSchema.pick({
  lotwiseScore: true,
  customScore: true,
  localScore: true,
  autoInviteStatus: true,
});
export const candidatesResponseSchema = z.object({
  minScore: z.number(),
  bidders: z.array(bidderListItemSchema),
});
export const usageResponseSchema = z.object({ scoredBidders: z.number().int() });
