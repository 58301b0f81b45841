import type { PatchOperation, SqlParameter } from '@azure/cosmos';
import { deleteBlob, deleteBlobsUnder, getBlob, putBlob } from '../platform/blob.js';
import { isNotFound } from '../platform/cosmos-errors.js';
import type { ContainerDefinition } from '../platform/cosmos.js';
import {
  MAX_BATCH_OPERATIONS,
  TenantRepository,
  type AccountScope,
  type Stored,
} from '../platform/repo.js';
import type {
  AuctionLink,
  Consignor,
  EstimatedValue,
  InventoryCategory,
  InventoryCondition,
  InventoryStatus,
  ItemHistoryEntry,
  ListItemsQuery,
  MarketTrend,
  Photo,
  ValueEstimate,
} from './inventory.schema.js';

/**
 * One document per inventory item, its photos' metadata and history inside it (both capped), so
 * every change to an item is one conditional write. Photo bytes live in a blob container, under
 * the account's and the item's prefix.
 */
export const inventoryContainer: ContainerDefinition = {
  id: 'inventory',
  partitionKey: '/accountId',
};

export interface ItemRecord {
  id: string;
  accountId: string;
  kind: 'item';
  title: string;
  category: InventoryCategory;
  subcategory: string;
  estimatedValue: EstimatedValue;
  currency: string;
  condition: InventoryCondition;
  status: InventoryStatus;
  location: string;
  acquiredDate: string;
  description: string;
  consignor: Consignor | null;
  lastSoldPrice: number | null;
  photos: Photo[];
  auction: AuctionLink | null;
  auctionSuggestionScore: number;
  marketTrend: MarketTrend;
  suggestionReasons: string[];
  valueEstimate: ValueEstimate | null;
  categorySuggested: boolean;
  scoredAt: string;
  history: ItemHistoryEntry[];
  /** Lower-cased title, description, consignor and location, for the list's search. */
  searchText: string;
  /**
   * What people edit is versioned apart from the document, so a background rescore never makes
   * someone's open form stale. The item's ETag is this revision.
   */
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** What the scores are computed from. */
export type ScoringFields = Pick<
  ItemRecord,
  'id' | 'title' | 'category' | 'estimatedValue' | 'condition' | 'acquiredDate' | 'currency'
>;

/** What a rescore writes. */
export type ScoreFields = Pick<
  ItemRecord,
  'auctionSuggestionScore' | 'marketTrend' | 'suggestionReasons' | 'valueEstimate' | 'scoredAt'
>;

const items = new TenantRepository<ItemRecord>(inventoryContainer.id);

export const findItem = (scope: AccountScope, id: string) => items.find(scope, id);

/** The named items on file (a missing id is simply not in the answer). */
export function itemsWithIds(scope: AccountScope, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return items.all(scope, {
    where: "c.kind = 'item' AND ARRAY_CONTAINS(@ids, c.id)",
    parameters: [{ name: '@ids', value: ids }],
  });
}

export const createItemRecord = (scope: AccountScope, record: Omit<ItemRecord, 'accountId'>) =>
  items.create(scope, record);

/** Replaces the item only if nobody wrote it since `etag` (the document's own) was read. */
export const replaceItemRecord = (scope: AccountScope, record: ItemRecord, etag: string) =>
  items.replace(scope, record, etag);

export const deleteItemRecord = (scope: AccountScope, id: string, etag: string) =>
  items.delete(scope, id, etag);

function listCondition(query: Pick<ListItemsQuery, 'search' | 'status' | 'category'>): {
  where: string;
  parameters: SqlParameter[];
} {
  const clauses = ["c.kind = 'item'"];
  const parameters: SqlParameter[] = [];
  if (query.status) {
    clauses.push('c.status = @status');
    parameters.push({ name: '@status', value: query.status });
  }
  if (query.category) {
    clauses.push('c.category = @category');
    parameters.push({ name: '@category', value: query.category });
  }
  if (query.search) {
    clauses.push('CONTAINS(c.searchText, @search)');
    parameters.push({ name: '@search', value: query.search.toLowerCase() });
  }
  return { where: clauses.join(' AND '), parameters };
}

/** One page of the list, newest first, and how many items match in all. */
export async function listItemPage(scope: AccountScope, query: ListItemsQuery) {
  const condition = listCondition(query);
  const [page, total] = await Promise.all([
    items.page(scope, {
      ...condition,
      orderBy: 'c.createdAt DESC',
      pageSize: query.limit,
      ...(query.continuation ? { continuationToken: query.continuation } : {}),
    }),
    items.count(scope, condition),
  ]);
  return { items: page.items, continuation: page.continuationToken ?? null, total };
}

/** The overview's small row per item: one query, no GROUP BY (the emulator has none). */
export async function overviewRows(scope: AccountScope) {
  return (await items.all(scope, {
    select:
      'c.status, c.currency, c.estimatedValue.low AS low, c.estimatedValue.high AS high, c.auctionSuggestionScore AS score',
    where: "c.kind = 'item'",
  })) as unknown as {
    status: InventoryStatus;
    currency: string;
    low: number;
    high: number;
    score: number;
  }[];
}

/** The best-scored items with these statuses (and trend, when given), best first. */
export function bestScored(
  scope: AccountScope,
  statuses: readonly InventoryStatus[],
  options: { trend?: MarketTrend; minScore?: number },
  count: number,
) {
  const clauses = ["c.kind = 'item'", 'ARRAY_CONTAINS(@statuses, c.status)'];
  const parameters: SqlParameter[] = [{ name: '@statuses', value: [...statuses] }];
  if (options.trend) {
    clauses.push('c.marketTrend = @trend');
    parameters.push({ name: '@trend', value: options.trend });
  }
  if (options.minScore !== undefined) {
    clauses.push('c.auctionSuggestionScore >= @minScore');
    parameters.push({ name: '@minScore', value: options.minScore });
  }
  return items.firstRows<Stored<ItemRecord>>(
    scope,
    { where: clauses.join(' AND '), parameters, orderBy: 'c.auctionSuggestionScore DESC' },
    count,
  );
}

/** The scoring fields of the items scored before `before` (all of them without it). */
export async function itemsToScore(scope: AccountScope, before?: string) {
  return (await items.all(scope, {
    select: 'c.id, c.title, c.category, c.estimatedValue, c.condition, c.acquiredDate, c.currency',
    where: before ? "c.kind = 'item' AND c.scoredAt < @before" : "c.kind = 'item'",
    ...(before ? { parameters: [{ name: '@before', value: before }] } : {}),
  })) as unknown as ScoringFields[];
}

/** Every item's id, title and category (an upload matches its rows against them). */
export async function itemTitles(scope: AccountScope) {
  return (await items.all(scope, {
    select: 'c.id, c.title, c.category',
    where: "c.kind = 'item'",
  })) as unknown as Pick<ItemRecord, 'id' | 'title' | 'category'>[];
}

/** The categories of the named items (the inventory category of lots made from them). */
export async function categoriesOf(scope: AccountScope, ids: string[]) {
  if (ids.length === 0) return new Map<string, InventoryCategory>();
  const rows = (await items.all(scope, {
    select: 'c.id, c.category',
    where: "c.kind = 'item' AND ARRAY_CONTAINS(@ids, c.id)",
    parameters: [{ name: '@ids', value: ids }],
  })) as unknown as { id: string; category: InventoryCategory }[];
  return new Map(rows.map((row) => [row.id, row.category]));
}

/** What a similar item is judged and shown by. */
export type SimilarFields = Pick<
  ItemRecord,
  | 'id'
  | 'title'
  | 'category'
  | 'subcategory'
  | 'estimatedValue'
  | 'currency'
  | 'condition'
  | 'status'
  | 'auctionSuggestionScore'
>;

/** Every item of a category, in the few fields the similar items are chosen by. */
export async function itemsInCategory(scope: AccountScope, category: InventoryCategory) {
  return (await items.all(scope, {
    select:
      'c.id, c.title, c.category, c.subcategory, c.estimatedValue, c.currency, c.condition, c.status, c.auctionSuggestionScore',
    where: "c.kind = 'item' AND c.category = @category",
    parameters: [{ name: '@category', value: category }],
  })) as unknown as SimilarFields[];
}

/** Writes fresh scores in place, 100 items to a batch; items deleted meanwhile are passed over. */
export async function writeScores(
  scope: AccountScope,
  scores: { id: string; fields: ScoreFields }[],
) {
  const patches = scores.map(({ id, fields }) => ({
    op: 'patch' as const,
    id,
    operations: Object.entries(fields).map(([path, value]): PatchOperation => ({
      op: 'set',
      path: `/${path}`,
      value,
    })),
  }));
  for (let start = 0; start < patches.length; start += MAX_BATCH_OPERATIONS) {
    const slice = patches.slice(start, start + MAX_BATCH_OPERATIONS);
    try {
      await items.writeBatch(scope, slice);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // One of them is gone: write the others one by one.
      for (const patch of slice) {
        await items.patch(scope, patch.id, patch.operations).catch((failure: unknown) => {
          if (!isNotFound(failure)) throw failure;
        });
      }
    }
  }
}

const PHOTO_BLOBS = 'inventory-photos';
const photoBlobName = (scope: AccountScope, itemId: string, photoId: string) =>
  `${scope.accountId}/${itemId}/${photoId}`;

export const putPhoto = (
  scope: AccountScope,
  itemId: string,
  photoId: string,
  data: Buffer,
  contentType: string,
) => putBlob(PHOTO_BLOBS, photoBlobName(scope, itemId, photoId), data, contentType);

export const readPhoto = (scope: AccountScope, itemId: string, photoId: string) =>
  getBlob(PHOTO_BLOBS, photoBlobName(scope, itemId, photoId));

/** Removes a photo's bytes; ones already gone count as removed. */
export async function deletePhoto(scope: AccountScope, itemId: string, photoId: string) {
  try {
    await deleteBlob(PHOTO_BLOBS, photoBlobName(scope, itemId, photoId));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Removes every photo's bytes under the item, also any an upload that failed left behind. */
export const deleteItemPhotos = (scope: AccountScope, itemId: string) =>
  deleteBlobsUnder(PHOTO_BLOBS, `${scope.accountId}/${itemId}/`);
