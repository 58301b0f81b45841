import { z } from 'zod';
import { preferredCategories } from '../../bidders/bidders.schema.js';
import { minorUnits } from '../auctions.schema.js';

/** Contracts of an auction's lots: the catalogue, its import and the clerked results. */

const text = (max: number) => z.string().trim().max(max);

/** "12", "12A", "0040": what houses print in catalogues. */
export const lotNumberSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(20)
  .regex(/^[A-Za-z0-9][A-Za-z0-9.\-/]*$/, 'uses letters, digits, dots, dashes or slashes');

export const consignorSchema = z.object({
  name: text(200).min(1, 'is required'),
  contact: text(300).default(''),
});

const lotFields = {
  lotNumber: lotNumberSchema,
  title: text(300).min(1, 'is required'),
  description: text(10000),
  category: z.enum(preferredCategories).nullable(),
  estimateLow: minorUnits.nullable(),
  estimateHigh: minorUnits.nullable(),
  reserve: minorUnits.nullable(),
  consignor: consignorSchema.nullable(),
  /** An item of the house's inventory this lot sells (inventory arrives later). */
  inventoryItemId: z.string().max(100).nullable(),
};

const estimateOrder = <T extends { estimateLow?: number | null; estimateHigh?: number | null }>(
  lot: T,
) => lot.estimateLow == null || lot.estimateHigh == null || lot.estimateLow <= lot.estimateHigh;
const estimateMessage = { path: ['estimateHigh'], message: 'is below the low estimate' };

export const lotInputSchema = z
  .object({
    ...lotFields,
    description: lotFields.description.default(''),
    category: lotFields.category.default(null),
    estimateLow: lotFields.estimateLow.default(null),
    estimateHigh: lotFields.estimateHigh.default(null),
    reserve: lotFields.reserve.default(null),
    consignor: lotFields.consignor.default(null),
    inventoryItemId: lotFields.inventoryItemId.default(null),
  })
  .refine(estimateOrder, estimateMessage);
export type LotInput = z.infer<typeof lotInputSchema>;

export const lotUpdateSchema = z
  .object(lotFields)
  .partial()
  .strict()
  .refine(estimateOrder, estimateMessage);
export type LotUpdate = z.infer<typeof lotUpdateSchema>;

/** Where a lot was won: in the saleroom (the floor, phone, absentee) or online. */
export const saleChannels = ['room', 'online'] as const;
export type SaleChannel = (typeof saleChannels)[number];

/**
 * A clerked result. Sold names the buyer by bidder id or paddle number (one of them) and the
 * hammer; passed means it did not sell. `bidCount` and `underbidders` record the bidding when
 * the clerk has it, so bidders who bid and lost still show the activity.
 */
export const lotResultInputSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('sold'),
    hammer: minorUnits.min(1, 'must be more than 0'),
    bidderId: z.string().min(1).max(100).optional(),
    paddle: z.string().trim().min(1).max(20).optional(),
    bidCount: z.number().int().min(1).max(10_000).optional(),
    underbidders: z.array(z.string().min(1).max(100)).max(50).default([]),
    /**
     * Where it was won (the internet premium follows it). Left out: online for an Online or
     * platform-imported sale, the room otherwise.
     */
    channel: z.enum(saleChannels).optional(),
    /** Why an earlier result is being changed; required for a correction. */
    reason: text(500).optional(),
  }),
  z.object({
    outcome: z.literal('passed'),
    bidCount: z.number().int().min(0).max(10_000).optional(),
    underbidders: z.array(z.string().min(1).max(100)).max(50).default([]),
    reason: text(500).optional(),
  }),
]);
export type LotResultInput = z.infer<typeof lotResultInputSchema>;

export const lotResultSchema = z.object({
  outcome: z.enum(['sold', 'passed']),
  hammer: z.number().int().nullable(),
  /** The buyer's document id, and their display ID and name as recorded. */
  buyerId: z.string().nullable(),
  buyerBidderId: z.string().nullable(),
  buyerName: z.string().nullable(),
  paddle: z.string().nullable(),
  /** Where a sold lot was won; null when passed, or recorded before channels were kept. */
  channel: z.enum(saleChannels).nullable(),
  bidCount: z.number().int(),
  underbidders: z.array(z.string()),
  recordedAt: z.string(),
  recordedBy: z.string(),
});
export type LotResult = z.infer<typeof lotResultSchema>;

export const lotSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  lotNumber: z.string(),
  /** The catalogue order, 1 first. */
  position: z.number().int(),
  title: z.string(),
  description: z.string(),
  category: z.enum(preferredCategories).nullable(),
  estimateLow: z.number().int().nullable(),
  estimateHigh: z.number().int().nullable(),
  reserve: z.number().int().nullable(),
  consignor: z.object({ name: z.string(), contact: z.string() }).nullable(),
  inventoryItemId: z.string().nullable(),
  result: lotResultSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  etag: z.string(),
});
export type Lot = z.infer<typeof lotSchema>;

export const lotsResponseSchema = z.object({ lots: z.array(lotSchema) });

/** The lots in their new order, every lot once. */
export const reorderSchema = z.object({
  lotIds: z.array(z.string().min(1).max(100)).min(1).max(10_000),
});

export const lotImportErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export const lotImportResultSchema = z.object({
  imported: z.number().int(),
  /** Rows that matched a lot number already in the auction and were updated. */
  updated: z.number().int(),
  errors: z.array(lotImportErrorSchema),
});
export type LotImportResult = z.infer<typeof lotImportResultSchema>;

/** A catalogue import takes at most this many rows in one file. */
export const LOT_IMPORT_MAX_ROWS = 5000;
