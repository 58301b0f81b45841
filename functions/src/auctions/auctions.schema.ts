import { z } from 'zod';
import { paymentMethods, preferredCategories } from '../bidders/bidders.schema.js';
import { timezoneSchema } from '../identity/shared/common.schema.js';

/** Contracts of the auctions service (auctions and their lifecycle), shared with the web app. */

/** Draft is Lotwise's: a new auction is a draft until it is published (shown under Upcoming). */
export const auctionStatuses = ['Draft', 'Upcoming', 'Active', 'Completed', 'Cancelled'] as const;
export type AuctionStatus = (typeof auctionStatuses)[number];

/**
 * The moves a house may make by hand. Upcoming -> Active also happens by itself at the start
 * instant; Draft -> Upcoming is publishing and Active -> Completed is closing, each its own call.
 */
export const statusMoves: Record<AuctionStatus, readonly AuctionStatus[]> = {
  Draft: ['Upcoming', 'Cancelled'],
  Upcoming: ['Active', 'Cancelled'],
  Active: ['Completed', 'Cancelled'],
  Completed: [],
  Cancelled: [],
};

export const auctionTypes = ['Live', 'Online', 'Hybrid'] as const;
export type AuctionType = (typeof auctionTypes)[number];
export const auctionCategories = [
  'art',
  'jewelry',
  'vehicles',
  'real-estate',
  'collectibles',
] as const;
export type AuctionCategory = (typeof auctionCategories)[number];
export const auctionCategoryLabels: Record<AuctionCategory, string> = {
  art: 'Art',
  jewelry: 'Jewelry',
  vehicles: 'Vehicles',
  'real-estate': 'Real Estate',
  collectibles: 'Collectibles',
};
export {
  currencies,
  currencyExponent,
  currencySymbols,
  platforms,
  type Currency,
  type Platform,
} from './markets.schema.js';
import { currencies, platforms } from './markets.schema.js';

const text = (max: number) => z.string().trim().max(max);
/** Money: integer minor units of the auction's currency. */
export const minorUnits = z
  .number()
  .int('is a whole number of minor units (cents)')
  .min(0, 'cannot be negative')
  .max(1_000_000_000_000);

/** A calendar day that exists (no 30 February). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'is a date like 2026-12-31')
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, 'is not a real date');
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'is a time like 18:30');

export const incrementSchema = z.object({
  /** Bids from this amount up step by `increment`. */
  from: minorUnits,
  increment: minorUnits.min(1, 'must be more than 0'),
});
export const depositSchema = z.object({
  description: text(200).min(1, 'is required'),
  amount: minorUnits,
});
export const shippingOptionSchema = z.object({
  name: text(120).min(1, 'is required'),
  price: minorUnits.nullable().default(null),
  description: text(500).default(''),
});

/** Where an imported auction came from; kept so sync can find it again. */
export const auctionSourceSchema = z.object({
  platform: z.enum(platforms),
  externalId: z.string(),
  lastSyncAt: z.string().nullable(),
});

/** The rules of each field a house writes (every field of the new-auction form), no defaults. */
const auctionFields = {
  title: text(200).min(1, 'is required'),
  type: z.enum(auctionTypes),
  category: z.enum(auctionCategories),
  subcategory: text(100),
  description: text(5000),
  notes: text(5000),
  location: text(200),
  /** The house's local wall time of the start and end, in `timeZone`. */
  startDate: isoDate,
  startTime: clockTime,
  endDate: isoDate,
  endTime: clockTime,
  timeZone: timezoneSchema,
  buyersPremium: z
    .number()
    .min(0, 'is 0 to 100 percent')
    .max(100, 'is 0 to 100 percent')
    .multipleOf(0.01, 'has at most two decimals'),
  buyersPremiumDescription: text(1000),
  currency: z.enum(currencies),
  /**
   * The house that runs it; its name is the auction's company. May be left out when the account
   * has one house (that one) or none yet (the account itself runs it).
   */
  auctionHouseId: z.string().min(1, 'is required').max(100).nullable(),
  registrationRequired: z.boolean(),
  requirements: z.array(text(500).min(1, 'is required')).max(50),
  paymentMethods: z
    .array(z.enum(paymentMethods))
    .max(paymentMethods.length)
    .refine((methods) => new Set(methods).size === methods.length, 'lists a method twice'),
  biddingIncrements: z
    .array(incrementSchema)
    .max(50)
    .refine(
      (rows) => rows.every((row, index) => index === 0 || row.from > (rows[index - 1]?.from ?? 0)),
      'go up: each row starts above the one before',
    ),
  biddingDeposits: z.array(depositSchema).max(20),
  shippingOptions: z.array(shippingOptionSchema).max(20),
  terms: text(20000),
};

/** POST /auctions: the spec's defaults (Live, USD, no premium, registration required). */
export const auctionInputSchema = z.object({
  ...auctionFields,
  type: auctionFields.type.default('Live'),
  subcategory: auctionFields.subcategory.default(''),
  description: auctionFields.description.default(''),
  notes: auctionFields.notes.default(''),
  location: auctionFields.location.default(''),
  /** Defaults to the auction house's time zone. */
  timeZone: auctionFields.timeZone.optional(),
  buyersPremium: auctionFields.buyersPremium.default(0),
  buyersPremiumDescription: auctionFields.buyersPremiumDescription.default(''),
  currency: auctionFields.currency.default('USD'),
  auctionHouseId: auctionFields.auctionHouseId.default(null),
  registrationRequired: auctionFields.registrationRequired.default(true),
  requirements: auctionFields.requirements.default([]),
  paymentMethods: auctionFields.paymentMethods.default([]),
  biddingIncrements: auctionFields.biddingIncrements.default([]),
  biddingDeposits: auctionFields.biddingDeposits.default([]),
  shippingOptions: auctionFields.shippingOptions.default([]),
  terms: auctionFields.terms.default(''),
});
export type AuctionInput = z.infer<typeof auctionInputSchema>;

/**
 * PUT /auctions/{id}: only what is sent changes, plus a status the auction may move to by hand
 * (the edit form offers only those).
 */
export const auctionUpdateSchema = z
  .object({
    ...auctionFields,
    status: z.enum(auctionStatuses),
    /** Why the status changes; required to cancel. */
    statusReason: text(500).min(1, 'is required'),
  })
  .partial()
  .strict();
export type AuctionUpdate = z.infer<typeof auctionUpdateSchema>;

export const auctionSchema = z.object({
  id: z.string(),
  title: z.string(),
  company: z.string(),
  type: z.enum(auctionTypes),
  category: z.enum(auctionCategories),
  subcategory: z.string(),
  description: z.string(),
  notes: z.string(),
  location: z.string(),
  status: z.enum(auctionStatuses),
  startsAt: z.string(),
  endsAt: z.string(),
  startDate: z.string(),
  startTime: z.string(),
  endDate: z.string(),
  endTime: z.string(),
  timeZone: z.string(),
  buyersPremium: z.number(),
  buyersPremiumDescription: z.string(),
  currency: z.enum(currencies),
  currencySymbol: z.string(),
  auctionHouseId: z.string().nullable(),
  auctionHouseName: z.string(),
  registrationRequired: z.boolean(),
  requirements: z.array(z.string()),
  paymentMethods: z.array(z.enum(paymentMethods)),
  biddingIncrements: z.array(incrementSchema),
  biddingDeposits: z.array(depositSchema),
  shippingOptions: z.array(
    z.object({ name: z.string(), price: z.number().nullable(), description: z.string() }),
  ),
  terms: z.string(),
  /** Registrations approved (with or without a limit): the spec's registered bidders. */
  biddersRegistered: z.number().int(),
  lotCount: z.number().int(),
  /** The platform's name when imported, else null ("Manual"). */
  importedFrom: z.enum(platforms).nullable(),
  source: auctionSourceSchema.nullable(),
  /** The moves this auction may make now, for the edit form's status choice. */
  allowedStatuses: z.array(z.enum(auctionStatuses)),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  etag: z.string(),
});
export type Auction = z.infer<typeof auctionSchema>;

export const auctionSortFields = [
  'startsAt',
  'endsAt',
  'title',
  'company',
  'biddersRegistered',
  'createdAt',
] as const;

/** The spec's fetch limit for the auction list. */
export const AUCTION_LIST_MAX = 1000;

export const listAuctionsQuerySchema = z
  .object({
    status: z.enum(auctionStatuses).optional(),
    /** Upcoming (with drafts), current or past: the screen's three tabs. */
    view: z.enum(['current', 'upcoming', 'past']).optional(),
    platform: z.union([z.enum(platforms), z.literal('manual')]).optional(),
    category: z.enum(auctionCategories).optional(),
    search: z.string().trim().max(100).optional(),
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(AUCTION_LIST_MAX).default(50),
    sortBy: z.enum(auctionSortFields).default('startsAt'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    /** Auctions that end on or after this day of the house's calendar. */
    startDate: isoDate.optional(),
    /** Auctions that start on or before this day of the house's calendar. */
    endDate: isoDate.optional(),
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    path: ['endDate'],
    message: 'is before startDate',
  });
export type ListAuctionsQuery = z.infer<typeof listAuctionsQuerySchema>;

export const auctionListItemSchema = auctionSchema.pick({
  id: true,
  title: true,
  company: true,
  description: true,
  status: true,
  category: true,
  type: true,
  startsAt: true,
  endsAt: true,
  startDate: true,
  startTime: true,
  endDate: true,
  endTime: true,
  timeZone: true,
  location: true,
  currency: true,
  biddersRegistered: true,
  lotCount: true,
  importedFrom: true,
  etag: true,
});
export type AuctionListItem = z.infer<typeof auctionListItemSchema>;

export const listAuctionsResponseSchema = z.object({
  auctions: z.array(auctionListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

/** The five tiles of Auction Management, counted on the server. */
export const auctionSummarySchema = z.object({
  total: z.number().int(),
  draft: z.number().int(),
  active: z.number().int(),
  upcoming: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
  /** Rounded mean of registered bidders over every auction; 0 with none. */
  avgBidders: z.number().int(),
});
export type AuctionSummary = z.infer<typeof auctionSummarySchema>;

export const lifecycleReasonSchema = z.object({ reason: text(500).optional() });
export const cancelSchema = z.object({
  reason: text(500).min(1, 'Say why the auction is cancelled'),
});

export const performanceSchema = z.object({
  auctionId: z.string(),
  currency: z.enum(currencies),
  registered: z.number().int(),
  approved: z.number().int(),
  pending: z.number().int(),
  denied: z.number().int(),
  invited: z.number().int(),
  bids: z.number().int(),
  lotsOffered: z.number().int(),
  lotsSold: z.number().int(),
  lotsClerked: z.number().int(),
  /** Lots sold over lots offered, 0-1; null with no lots. */
  sellThroughRate: z.number().nullable(),
  hammerTotal: z.number().int(),
  buyersPremiumTotal: z.number().int(),
  /** The mean Lotwise Score of approved bidders; null with none. */
  averageBidderScore: z.number().nullable(),
});
export type Performance = z.infer<typeof performanceSchema>;

export { preferredCategories };
