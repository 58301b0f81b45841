import { z } from 'zod';
import { currencies, minorUnits } from '../auctions/auctions.schema.js';
import { consignorSchema, lotNumberSchema } from '../auctions/lots/lots.schema.js';
import { houseCurrencies } from '../identity/accounts/accounts.schema.js';

/**
 * Contracts of the Inventory add-on (spec 2.5, 3.4, 9.4): the house's items, their photos, the
 * overview tiles, the AI suggestions and moving an item into an auction. Money is integer minor
 * units of the item's currency.
 */

const text = (max: number) => z.string().trim().max(max);

// ---- The spec's vocabularies, in its order and words ----

export const inventoryConditions = ['Excellent', 'Good', 'Fair', 'Poor'] as const;
export type InventoryCondition = (typeof inventoryConditions)[number];

export const inventoryStatuses = [
  'Available',
  'In Storage',
  'In Auction',
  'Sold',
  'Withdrawn',
  'On Hold',
  'Reserved',
  'Damaged',
] as const;
export type InventoryStatus = (typeof inventoryStatuses)[number];

/**
 * The statuses a house sets by hand. "In Auction" comes only from Add to Auction and "Sold" only
 * from a sale's recorded result.
 */
export const manualStatuses = [
  'Available',
  'In Storage',
  'Withdrawn',
  'On Hold',
  'Reserved',
  'Damaged',
] as const satisfies readonly InventoryStatus[];
export type ManualStatus = (typeof manualStatuses)[number];

/** The statuses from which an item may go to auction. */
export const auctionableStatuses = [
  'Available',
  'In Storage',
] as const satisfies readonly InventoryStatus[];

export const marketTrends = ['Hot', 'Warm', 'Cool', 'Cold'] as const;
export type MarketTrend = (typeof marketTrends)[number];

export const inventoryCategories = [
  'Furniture',
  'Art',
  'Silver',
  'Jewelry & Watches',
  'Textiles',
  'Ceramics',
] as const;
export type InventoryCategory = (typeof inventoryCategories)[number];

// ---- Business constants (spec 9.4) ----

/** AI Suggestions lists items scoring this or more (spec 9.4). */
export const AI_SUGGESTION_THRESHOLD = 85;
/** The overview's "Hot Items for Auction" shows this many (spec 9.4). */
export const HOT_ITEMS_COUNT = 3;
/**
 * Photo rule `valuable_only`: an item is valuable when its high estimate is at least this many
 * major units (1,000.00) of its own currency; no conversion between currencies.
 */
export const VALUABLE_ITEM_MIN_HIGH_ESTIMATE = 1000;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PHOTOS_PER_ITEM = 20;
export const photoContentTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoContentType = (typeof photoContentTypes)[number];
/** The multipart field a photo upload sends its file in. */
export const PHOTO_FIELD = 'file';
/** An item keeps its newest history entries up to this many. */
export const MAX_HISTORY_ENTRIES = 100;
export const INVENTORY_PAGE_DEFAULT = 25;
export const INVENTORY_PAGE_MAX = 100;

// ---- Shared shapes ----

/** A calendar day that exists (no 30 February). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'is a date like 2026-12-31')
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, 'is not a real date');

export const estimatedValueSchema = z
  .object({ low: minorUnits, high: minorUnits })
  .refine((value) => value.low <= value.high, {
    path: ['high'],
    message: 'is below the low estimate',
  });
export type EstimatedValue = z.infer<typeof estimatedValueSchema>;

export { consignorSchema };
export type Consignor = z.infer<typeof consignorSchema>;

const itemFields = {
  title: text(300).min(1, 'is required'),
  category: z.enum(inventoryCategories),
  subcategory: text(120),
  estimatedValue: estimatedValueSchema,
  condition: z.enum(inventoryConditions),
  location: text(200),
  acquiredDate: isoDateSchema,
  description: text(10000),
  consignor: consignorSchema.nullable(),
};

/**
 * A new item. `category` may be left out when the account auto-categorises (it is then suggested
 * from the title; otherwise 400). A blank location takes the settings' default storage location;
 * a missing acquired date is today; the status starts Available unless another manual one is set.
 */
export const itemInputSchema = z.object({
  ...itemFields,
  category: itemFields.category.optional(),
  subcategory: itemFields.subcategory.default(''),
  location: itemFields.location.default(''),
  acquiredDate: itemFields.acquiredDate.optional(),
  description: itemFields.description.default(''),
  consignor: itemFields.consignor.default(null),
  status: z.enum(manualStatuses).default('Available'),
});
export type ItemInput = z.infer<typeof itemInputSchema>;

/** Only what is sent changes (the status moves by its own route). */
export const itemUpdateSchema = z.object(itemFields).partial().strict();
export type ItemUpdate = z.infer<typeof itemUpdateSchema>;

export const itemParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const photoParamsSchema = z.object({
  id: z.string().min(1).max(100),
  photoId: z.string().min(1).max(100),
});

export const photoSchema = z.object({
  id: z.string(),
  contentType: z.enum(photoContentTypes),
  size: z.number().int(),
  uploadedAt: z.string(),
});
export type Photo = z.infer<typeof photoSchema>;

/** The lot an item is in while it waits for its sale. */
export const auctionLinkSchema = z.object({
  auctionId: z.string(),
  auctionTitle: z.string(),
  lotId: z.string(),
  lotNumber: z.string(),
  /** Where the item was before (Available or In Storage): where a pass or removal returns it. */
  previousStatus: z.enum(auctionableStatuses),
  addedAt: z.string(),
  /** The last sold price before this sale: put back if the sale is corrected to passed. */
  previousSoldPrice: z.number().int().nullable().optional(),
});
export type AuctionLink = z.infer<typeof auctionLinkSchema>;

export const historyActions = [
  'created',
  'edited',
  'status_changed',
  'photo_added',
  'photo_removed',
  'added_to_auction',
  'removed_from_auction',
  'sold',
  'returned',
] as const;
export type HistoryAction = (typeof historyActions)[number];

export const historyEntrySchema = z.object({
  at: z.string(),
  action: z.enum(historyActions),
  /** One line for the screen, e.g. "Sold for USD 1,250.00 in Spring Sale, lot 12". */
  message: z.string(),
  /** The fields an edit changed. */
  fields: z.array(z.string()).optional(),
  by: z.object({ id: z.string(), name: z.string() }),
});
export type ItemHistoryEntry = z.infer<typeof historyEntrySchema>;

/** An estimate from the house's comparable sold lots; never replaces the house's own. */
export const valueEstimateSchema = z.object({
  low: z.number().int(),
  high: z.number().int(),
  /** How it was found, e.g. "Median hammer of 5 comparable Silver lots sold". */
  basis: z.string(),
});
export type ValueEstimate = z.infer<typeof valueEstimateSchema>;

export const itemSchema = z.object({
  id: z.string(),
  title: z.string(),
  category: z.enum(inventoryCategories),
  subcategory: z.string(),
  estimatedValue: z.object({ low: z.number().int(), high: z.number().int() }),
  currency: z.enum(houseCurrencies),
  condition: z.enum(inventoryConditions),
  status: z.enum(inventoryStatuses),
  location: z.string(),
  acquiredDate: z.string(),
  description: z.string(),
  auctionSuggestionScore: z.number().int().min(0).max(100),
  marketTrend: z.enum(marketTrends),
  /** The hammer of its last sale, in minor units; null until sold. */
  lastSoldPrice: z.number().int().nullable(),
  consignor: z.object({ name: z.string(), contact: z.string() }).nullable(),
  photos: z.array(photoSchema),
  auction: auctionLinkSchema.nullable(),
  /** Why the score and trend are what they are, in short sentences. */
  suggestionReasons: z.array(z.string()),
  /** Present when the account has AI value estimation on and comparables exist. */
  valueEstimate: valueEstimateSchema.nullable(),
  /** The category was suggested from the title (auto-categorise), not chosen. */
  categorySuggested: z.boolean(),
  scoredAt: z.string(),
  history: z.array(historyEntrySchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  etag: z.string(),
});
export type InventoryItem = z.infer<typeof itemSchema>;

/** A row of the lists: the item without its history. */
export const itemListItemSchema = itemSchema.omit({ history: true });
export type InventoryListItem = z.infer<typeof itemListItemSchema>;

export const listItemsQuerySchema = z.object({
  /** Matches title, description, consignor or location, ignoring case. */
  search: text(200).optional(),
  status: z.enum(inventoryStatuses).optional(),
  category: z.enum(inventoryCategories).optional(),
  limit: z.coerce.number().int().min(1).max(INVENTORY_PAGE_MAX).default(INVENTORY_PAGE_DEFAULT),
  continuation: z.string().max(4000).optional(),
});
export type ListItemsQuery = z.infer<typeof listItemsQuerySchema>;

export const listItemsResponseSchema = z.object({
  items: z.array(itemListItemSchema),
  /** Pass back as `continuation` for the next page; null on the last. */
  continuation: z.string().nullable(),
  /** How many items match the filters. */
  total: z.number().int(),
});
export type ListItemsResponse = z.infer<typeof listItemsResponseSchema>;

export const statusMoveSchema = z.object({
  status: z.enum(inventoryStatuses),
  reason: text(500).optional(),
});
export type StatusMove = z.infer<typeof statusMoveSchema>;

export const addToAuctionSchema = z.object({
  auctionId: z.string().trim().min(1, 'is required').max(100),
  /** The next free whole number after the auction's highest when left out. */
  lotNumber: lotNumberSchema.optional(),
});
export type AddToAuction = z.infer<typeof addToAuctionSchema>;

export const statusCountSchema = z.object({
  status: z.enum(inventoryStatuses),
  count: z.number().int(),
});

export const overviewSchema = z.object({
  totalItems: z.number().int(),
  /**
   * The sum of each held item's estimate midpoint ((low + high) / 2), Sold items left out, in the
   * account's currency; items in another currency are summed apart in `otherCurrencies`, never
   * converted.
   */
  totalValue: z.object({
    amount: z.number().int(),
    currency: z.enum(houseCurrencies),
    otherCurrencies: z.array(z.object({ currency: z.string(), amount: z.number().int() })),
  }),
  /** Mean auction suggestion score over all items; null with none. */
  avgScore: z.number().nullable(),
  inAuction: z.number().int(),
  /** Every status with its count, in the spec's order. */
  statusCounts: z.array(statusCountSchema),
  hotItems: z.array(itemListItemSchema),
});
export type InventoryOverview = z.infer<typeof overviewSchema>;

export const suggestionsResponseSchema = z.object({
  threshold: z.number().int(),
  items: z.array(itemListItemSchema),
});
export type SuggestionsResponse = z.infer<typeof suggestionsResponseSchema>;

export const recomputeResponseSchema = z.object({ rescored: z.number().int() });

// ---- Description drafts (Settings › Inventory › Auto-generate descriptions) ----

/** What the web says of every draft: it is no more than the item's own details. */
export const DESCRIPTION_DRAFT_NOTE = "Drafted from the item's details — edit before use";

/**
 * The form's fields a description is drafted from. Without a category one is suggested from the
 * title where the account auto-categorises (else 400). `itemId`, when editing an item, drafts in
 * that item's currency (else the account's).
 */
export const descriptionDraftInputSchema = z.object({
  title: itemFields.title,
  category: itemFields.category.optional(),
  subcategory: itemFields.subcategory.default(''),
  condition: itemFields.condition,
  estimatedValue: estimatedValueSchema,
  itemId: z.string().trim().min(1).max(100).optional(),
});
export type DescriptionDraftInput = z.infer<typeof descriptionDraftInputSchema>;

export const descriptionDraftSchema = z.object({
  description: z.string(),
  /** The category it was drafted for: the one sent, or the one suggested from the title. */
  category: z.enum(inventoryCategories),
  currency: z.enum(houseCurrencies),
  /** The house's comparable sold lots of the last year; null with none. */
  comparables: z
    .object({ count: z.number().int(), low: z.number().int(), high: z.number().int() })
    .nullable(),
  /** What a cataloguer should still add for the category; the draft never invents them. */
  toAdd: z.array(z.string()),
  /** DESCRIPTION_DRAFT_NOTE. */
  note: z.string(),
});
export type DescriptionDraft = z.infer<typeof descriptionDraftSchema>;

// ---- Lot groups (Settings › Inventory › Optimal lot grouping) ----

export const MIN_LOT_GROUP_ITEMS = 2;
export const MAX_LOT_GROUP_ITEMS = 6;

export const lotGroupItemSchema = itemListItemSchema.pick({
  id: true,
  title: true,
  category: true,
  subcategory: true,
  condition: true,
  status: true,
  estimatedValue: true,
  currency: true,
  consignor: true,
  photos: true,
  etag: true,
});
export type LotGroupItem = z.infer<typeof lotGroupItemSchema>;

/** Items worth selling together as one lot (the rule is in inventory/lot-groups.ts). */
export const lotGroupSchema = z.object({
  /** The same items always give the same id. */
  id: z.string(),
  category: z.enum(inventoryCategories),
  subcategory: z.string(),
  currency: z.enum(houseCurrencies),
  /** The consignor every item shares; null for house stock. */
  consignor: z.string().nullable(),
  /** A catalogue title for the lot, to edit before adding it. */
  title: z.string(),
  /** Minor units: each item's low estimate is under it, the least a lot should make. */
  threshold: z.number().int(),
  /** The items' estimates added up. */
  estimate: z.object({ low: z.number().int(), high: z.number().int() }),
  items: z.array(lotGroupItemSchema),
  reasons: z.array(z.string()),
});
export type LotGroup = z.infer<typeof lotGroupSchema>;

export const lotGroupsResponseSchema = z.object({
  /** The setting is on; when off there are no groups. */
  enabled: z.boolean(),
  groups: z.array(lotGroupSchema),
  /** Low-value items left out because the photo rule would refuse them at auction (when on). */
  needPhotos: z.number().int().optional(),
});
export type LotGroupsResponse = z.infer<typeof lotGroupsResponseSchema>;

/** Several items as ONE lot of a Draft or Upcoming auction. */
export const addGroupToAuctionSchema = z.object({
  itemIds: z
    .array(z.string().trim().min(1).max(100))
    .min(MIN_LOT_GROUP_ITEMS, `lists at least ${MIN_LOT_GROUP_ITEMS} items`)
    .max(MAX_LOT_GROUP_ITEMS, `lists at most ${MAX_LOT_GROUP_ITEMS} items`)
    .refine((ids) => new Set(ids).size === ids.length, 'lists an item more than once'),
  auctionId: z.string().trim().min(1, 'is required').max(100),
  /** The lot's catalogue title. */
  title: text(300).min(1, 'is required'),
  /** The next free whole number after the auction's highest when left out. */
  lotNumber: lotNumberSchema.optional(),
});
export type AddGroupToAuction = z.infer<typeof addGroupToAuctionSchema>;

export const groupLotSchema = z.object({
  lot: z.object({
    id: z.string(),
    auctionId: z.string(),
    auctionTitle: z.string(),
    lotNumber: z.string(),
    title: z.string(),
    estimateLow: z.number().int(),
    estimateHigh: z.number().int(),
  }),
  /** Every item, now In Auction and linked to the lot. */
  items: z.array(itemSchema),
});
export type GroupLot = z.infer<typeof groupLotSchema>;

// ---- Similar items and market trends (Settings › Inventory › AI enhancements) ----

/** Similar items shows at most this many held items and this many sold lots. */
export const SIMILAR_ITEMS_MAX = 6;
/** Market trends covers this many calendar months (UTC), the current one last. */
export const MARKET_TREND_MONTHS = 12;

export const similarItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  subcategory: z.string(),
  status: z.enum(inventoryStatuses),
  condition: z.enum(inventoryConditions),
  estimatedValue: z.object({ low: z.number().int(), high: z.number().int() }),
  currency: z.enum(houseCurrencies),
  auctionSuggestionScore: z.number().int(),
  /** Why it is like the item, in short sentences. */
  reasons: z.array(z.string()),
});
export type SimilarItem = z.infer<typeof similarItemSchema>;

/** One of the house's sold lots like the item: the comparables its value estimate uses. */
export const similarSaleSchema = z.object({
  title: z.string(),
  hammer: z.number().int(),
  currency: z.enum(currencies),
  estimateLow: z.number().int().nullable(),
  estimateHigh: z.number().int().nullable(),
  /** When its auction closed. */
  closedAt: z.string(),
  reasons: z.array(z.string()),
});
export type SimilarSale = z.infer<typeof similarSaleSchema>;

/** With "Suggest similar items" off, `enabled` is false and both lists are empty. */
export const similarResponseSchema = z.object({
  enabled: z.boolean(),
  items: z.array(similarItemSchema),
  sold: z.array(similarSaleSchema),
});
export type SimilarResponse = z.infer<typeof similarResponseSchema>;

/** A month's (or the year's) results of a category. */
export const trendFiguresSchema = z.object({
  /** Lots clerked (sold or passed). */
  lots: z.number().int(),
  sold: z.number().int(),
  /** Sold over clerked, 0-1; null with no lots. */
  sellThrough: z.number().nullable(),
  /** The median hammer over the low estimate of the sold lots that had one; null with none. */
  medianPriceRatio: z.number().nullable(),
});
export type TrendFigures = z.infer<typeof trendFiguresSchema>;

export const categoryTrendSchema = trendFiguresSchema.extend({
  category: z.enum(inventoryCategories),
  /** The category's market trend, as the items' scores use it. */
  trend: z.enum(marketTrends),
  trendReason: z.string(),
  /** One entry per month of `months`, in the same order. */
  months: z.array(trendFiguresSchema.extend({ month: z.string() })),
});
export type CategoryTrend = z.infer<typeof categoryTrendSchema>;

/** With "Market trend analysis" off, only `{ enabled: false }`. */
export const marketTrendsResponseSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    /** The months covered, "2026-01" style, oldest first. */
    months: z.array(z.string()),
    categories: z.array(categoryTrendSchema),
    generatedAt: z.string(),
  }),
]);
export type MarketTrendsResponse = z.infer<typeof marketTrendsResponseSchema>;
