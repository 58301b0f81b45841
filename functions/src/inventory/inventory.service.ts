import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { getAuction } from '../auctions/auctions.service.js';
import { currencyExponent } from '../auctions/auctions.schema.js';
import type { LotInput } from '../auctions/lots/lots.schema.js';
import { closedLotResults, createLot, deleteLot, listLots } from '../auctions/lots/lots.service.js';
import type { preferredCategories } from '../bidders/bidders.schema.js';
import { housesOf } from '../identity/accounts/accounts.service.js';
import { DEFAULT_HOUSE_CURRENCY, houseCurrencies } from '../identity/accounts/accounts.schema.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import { AppError, conflict, notFound, preconditionFailed } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import { inventorySettingsOf } from '../settings/settings.service.js';
import type { InventorySettingsInput } from '../settings/settings.schema.js';
import { readAll, type FormPart } from '../uploads/files.js';
import {
  bestScored,
  categoriesOf,
  createItemRecord,
  deleteItemPhotos,
  deleteItemRecord,
  deletePhoto,
  findItem,
  itemsWithIds,
  itemTitles,
  itemsToScore,
  listItemPage,
  overviewRows,
  putPhoto,
  readPhoto,
  replaceItemRecord,
  writeScores,
  type ItemRecord,
  type ScoreFields,
  type ScoringFields,
} from './inventory.repo.js';
import {
  AI_SUGGESTION_THRESHOLD,
  HOT_ITEMS_COUNT,
  MAX_HISTORY_ENTRIES,
  MAX_PHOTOS_PER_ITEM,
  PHOTO_FIELD,
  VALUABLE_ITEM_MIN_HIGH_ESTIMATE,
  auctionableStatuses,
  inventoryStatuses,
  type AddToAuction,
  type AuctionLink,
  type HistoryAction,
  type InventoryCategory,
  type InventoryItem,
  type InventoryListItem,
  type InventoryOverview,
  type InventoryStatus,
  type ItemHistoryEntry,
  type ItemInput,
  type ItemUpdate,
  type ListItemsQuery,
  type ListItemsResponse,
  type StatusMove,
  type SuggestionsResponse,
} from './inventory.schema.js';
import { photoTypeOf } from './photo-content.js';
import { hammerShares } from './lot-groups.js';
import { deleteLotGroup, lotGroupsOf } from './lot-groups.repo.js';
import {
  HISTORY_DAYS,
  suggest,
  suggestCategory,
  valueEstimateOf,
  type Sale,
} from './suggestions.js';

type HouseCurrency = (typeof houseCurrencies)[number];
type LotCategory = (typeof preferredCategories)[number];

/** Scores older than this are recomputed when the overview or the suggestions are read. */
export const SCORE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** The AI Suggestions list shows at most this many, best first. */
export const MAX_SUGGESTIONS = 100;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where an inventory category has a lot category of the same meaning; the others go uncategorised. */
export const lotCategories: Record<InventoryCategory, LotCategory | null> = {
  Furniture: 'Furniture',
  Art: 'Art',
  Silver: null,
  'Jewelry & Watches': 'Jewelry',
  Textiles: null,
  Ceramics: null,
};

/** A lot's category read back as an inventory category, where one means the same. */
const fromLotCategory: Partial<Record<string, InventoryCategory>> = {
  Furniture: 'Furniture',
  Art: 'Art',
  Jewelry: 'Jewelry & Watches',
  Watches: 'Jewelry & Watches',
};

const exponentOf = (currency: string) =>
  (currencyExponent as Record<string, number | undefined>)[currency] ?? 2;

/** "USD 1,250.00". */
export function formatMoney(amount: number, currency: string): string {
  const exponent = exponentOf(currency);
  const major = (amount / 10 ** exponent).toLocaleString('en-US', {
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  return `${currency} ${major}`;
}

const etagOf = (record: Pick<ItemRecord, 'id' | 'revision'>) => `${record.id}-r${record.revision}`;

const stale = () =>
  preconditionFailed('Someone else changed this item; reload it to see their changes');

const itemNotFound = () => notFound('Inventory item not found');

export function toItem(record: ItemRecord): InventoryItem {
  return {
    id: record.id,
    title: record.title,
    category: record.category,
    subcategory: record.subcategory,
    estimatedValue: { low: record.estimatedValue.low, high: record.estimatedValue.high },
    currency: record.currency as HouseCurrency,
    condition: record.condition,
    status: record.status,
    location: record.location,
    acquiredDate: record.acquiredDate,
    description: record.description,
    auctionSuggestionScore: record.auctionSuggestionScore,
    marketTrend: record.marketTrend,
    lastSoldPrice: record.lastSoldPrice,
    consignor: record.consignor,
    photos: record.photos,
    auction: record.auction,
    suggestionReasons: record.suggestionReasons,
    valueEstimate: record.valueEstimate,
    categorySuggested: record.categorySuggested,
    scoredAt: record.scoredAt,
    history: record.history,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    etag: etagOf(record),
  };
}

export function toListItem(record: ItemRecord): InventoryListItem {
  const { history: _history, ...item } = toItem(record);
  return item;
}

const searchTextOf = (
  record: Pick<ItemRecord, 'title' | 'description' | 'consignor' | 'location'>,
) =>
  [record.title, record.description, record.consignor?.name ?? '', record.location]
    .join('\n')
    .toLowerCase();

export function historyEntry(
  ctx: RequestContext,
  action: HistoryAction,
  message: string,
  at: string,
  fields?: string[],
): ItemHistoryEntry {
  return {
    at,
    action,
    message,
    ...(fields ? { fields } : {}),
    by: { id: ctx.actor.userId, name: ctx.actor.name },
  };
}

/** The newest entries first, the oldest dropped past the cap. */
export const withHistory = (record: Pick<ItemRecord, 'history'>, entry: ItemHistoryEntry) =>
  [entry, ...record.history].slice(0, MAX_HISTORY_ENTRIES);

/** The currency the account trades in: its first house's, or US dollars. */
export async function accountCurrency(ctx: Pick<RequestContext, 'scope'>): Promise<HouseCurrency> {
  const houses = [...(await housesOf(ctx.scope))].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  const currency = houses[0]?.currency ?? DEFAULT_HOUSE_CURRENCY;
  return (houseCurrencies as readonly string[]).includes(currency)
    ? (currency as HouseCurrency)
    : DEFAULT_HOUSE_CURRENCY;
}

// ---- What the scores learn from ----

interface Market {
  sales: Sale[];
  settings: InventorySettingsInput;
  now: Date;
}

/** The house's clerked lots of the last two years, each under its inventory category. */
export async function salesOf(ctx: Pick<RequestContext, 'scope'>, now: Date): Promise<Sale[]> {
  const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS).toISOString();
  const lots = await closedLotResults(ctx, since);
  const linked = await categoriesOf(ctx.scope, [
    ...new Set(lots.flatMap((lot) => (lot.inventoryItemId ? [lot.inventoryItemId] : []))),
  ]);
  return lots.flatMap((lot) => {
    const category =
      (lot.inventoryItemId ? linked.get(lot.inventoryItemId) : undefined) ??
      (lot.category ? fromLotCategory[lot.category] : undefined) ??
      suggestCategory(lot.title, []);
    return category
      ? [
          {
            category,
            title: lot.title,
            estimateLow: lot.estimateLow,
            estimateHigh: lot.estimateHigh,
            outcome: lot.outcome,
            hammer: lot.hammer,
            currency: lot.currency,
            closedAt: lot.closedAt,
          },
        ]
      : [];
  });
}

async function marketOf(ctx: Pick<RequestContext, 'scope'>, now: Date): Promise<Market> {
  const [sales, settings] = await Promise.all([salesOf(ctx, now), inventorySettingsOf(ctx.scope)]);
  return { sales, settings, now };
}

function scoresFor(item: Omit<ScoringFields, 'id'>, market: Market): ScoreFields {
  const suggestion = suggest(item, market.sales, market.now);
  return {
    auctionSuggestionScore: suggestion.score,
    marketTrend: suggestion.trend,
    suggestionReasons: suggestion.reasons,
    valueEstimate: market.settings.aiValueEstimation ? valueEstimateOf(item, market.sales) : null,
    scoredAt: market.now.toISOString(),
  };
}

/** Rescores the items scored before `before` (every item without it); how many. */
async function rescore(ctx: RequestContext, now: Date, before?: string): Promise<number> {
  const due = await itemsToScore(ctx.scope, before);
  if (due.length === 0) return 0;
  const market = await marketOf(ctx, now);
  await writeScores(
    ctx.scope,
    due.map((item) => ({ id: item.id, fields: scoresFor(item, market) })),
  );
  return due.length;
}

const refreshStale = (ctx: RequestContext, now: Date) =>
  rescore(ctx, now, new Date(now.getTime() - SCORE_MAX_AGE_MS).toISOString());

// ---- Items ----

async function getRecord(ctx: Pick<RequestContext, 'scope'>, id: string) {
  const found = await findItem(ctx.scope, id);
  if (found?.kind !== 'item') throw itemNotFound();
  return found;
}

const plain = (record: Stored<ItemRecord>): ItemRecord => {
  const { _etag, _ts, ...document } = record;
  return document;
};

/**
 * Writes a change over the item as read. With `ifMatch`, only over the version the caller saw
 * (412 otherwise); a write lost to a background rescore is made again over it. `change` answers
 * undefined to write nothing.
 */
async function changeItem(
  ctx: RequestContext,
  id: string,
  ifMatch: string | undefined,
  change: (current: ItemRecord) => ItemRecord | undefined | Promise<ItemRecord | undefined>,
): Promise<{ before: ItemRecord; after: ItemRecord; changed: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    const current = await getRecord(ctx, id);
    if (ifMatch !== undefined && ifMatch !== etagOf(current)) throw stale();
    const before = plain(current);
    const next = await change(before);
    if (!next) return { before, after: before, changed: false };
    try {
      const saved = await replaceItemRecord(ctx.scope, next, current._etag);
      return { before, after: plain(saved), changed: true };
    } catch (error) {
      if (isNotFound(error)) throw itemNotFound();
      if (!isStale(error)) throw error;
      if (attempt >= 5) throw stale();
    }
  }
}

export async function listItems(
  ctx: RequestContext,
  query: ListItemsQuery,
): Promise<ListItemsResponse> {
  const page = await listItemPage(ctx.scope, query);
  return { items: page.items.map(toListItem), continuation: page.continuation, total: page.total };
}

export async function getItem(ctx: RequestContext, id: string): Promise<InventoryItem> {
  return toItem(await getRecord(ctx, id));
}

/** The named items on file by id, in one query (an upload's batch of rows to update). */
export async function getItems(ctx: RequestContext, ids: string[]) {
  const records = await itemsWithIds(ctx.scope, ids);
  return new Map(records.map((record) => [record.id, toItem(record)]));
}

export async function createItem(
  ctx: RequestContext,
  input: ItemInput,
  now: Date = new Date(),
): Promise<InventoryItem> {
  const [market, currency] = await Promise.all([marketOf(ctx, now), accountCurrency(ctx)]);
  return newItem(ctx, input, { market, currency, id: randomUUID(), now });
}

/**
 * Creates items one after another against one reading of the market and the account's currency
 * (an upload's rows), each with the id given: writing the same row again is refused (a raw 409)
 * rather than making a second item.
 */
export async function itemCreator(ctx: RequestContext, now: Date = new Date()) {
  const [market, currency] = await Promise.all([marketOf(ctx, now), accountCurrency(ctx)]);
  return {
    currency,
    create: (input: ItemInput, id: string) =>
      newItem(ctx, input, { market, currency, id, now: new Date() }),
  };
}

async function newItem(
  ctx: RequestContext,
  input: ItemInput,
  made: { market: Market; currency: HouseCurrency; id: string; now: Date },
): Promise<InventoryItem> {
  const { market, currency, now } = made;
  const category =
    input.category ??
    (market.settings.autoCategorize
      ? suggestCategory(`${input.title} ${input.subcategory}`, market.sales)
      : null);
  if (!category) {
    throw validationError([
      {
        location: 'body',
        field: 'category',
        message: market.settings.autoCategorize
          ? 'is required: none could be suggested from the title'
          : 'is required',
      },
    ]);
  }
  const at = now.toISOString();
  const fields = {
    title: input.title,
    category,
    subcategory: input.subcategory,
    estimatedValue: input.estimatedValue,
    currency,
    condition: input.condition,
    status: input.status,
    location: input.location || market.settings.defaultStorageLocation,
    acquiredDate: input.acquiredDate ?? at.slice(0, 10),
    description: input.description,
    consignor: input.consignor,
  };
  const record: Omit<ItemRecord, 'accountId'> = {
    id: made.id,
    kind: 'item',
    ...fields,
    lastSoldPrice: null,
    photos: [],
    auction: null,
    ...scoresFor(fields, market),
    categorySuggested: input.category === undefined,
    history: [
      historyEntry(
        ctx,
        'created',
        input.category === undefined ? `Created (category ${category} suggested)` : 'Created',
        at,
      ),
    ],
    searchText: searchTextOf(fields),
    revision: 1,
    createdAt: at,
    updatedAt: at,
  };
  const saved = plain(await createItemRecord(ctx.scope, record));
  await writeAudit(ctx, {
    action: 'inventoryItem.create',
    entity: { type: 'inventoryItem', id: saved.id },
    after: saved,
  });
  return toItem(saved);
}

const SCORED_FIELDS = new Set(['title', 'category', 'estimatedValue', 'condition', 'acquiredDate']);

export async function updateItem(
  ctx: RequestContext,
  id: string,
  ifMatch: string,
  update: ItemUpdate,
  now: Date = new Date(),
): Promise<InventoryItem> {
  let market: Market | undefined;
  const { before, after, changed } = await changeItem(ctx, id, ifMatch, async (current) => {
    const changes = Object.entries(update).filter(
      ([field, value]) =>
        value !== undefined &&
        JSON.stringify(value) !== JSON.stringify(current[field as keyof ItemRecord]),
    );
    if (changes.length === 0) return undefined;
    const next: ItemRecord = { ...current, ...Object.fromEntries(changes) };
    const fields = changes.map(([field]) => field);
    const at = now.toISOString();
    if (fields.some((field) => SCORED_FIELDS.has(field))) {
      market ??= await marketOf(ctx, now);
      Object.assign(next, scoresFor(next, market));
    }
    return {
      ...next,
      categorySuggested: fields.includes('category') ? false : current.categorySuggested,
      searchText: searchTextOf(next),
      history: withHistory(
        current,
        historyEntry(ctx, 'edited', `Edited ${fields.join(', ')}`, at, fields),
      ),
      revision: current.revision + 1,
      updatedAt: at,
    };
  });
  if (changed) {
    await writeAudit(ctx, {
      action: 'inventoryItem.update',
      entity: { type: 'inventoryItem', id },
      before,
      after,
    });
  }
  return toItem(after);
}

export async function deleteItem(
  ctx: RequestContext,
  id: string,
  ifMatch: string | undefined,
): Promise<void> {
  const current = await getRecord(ctx, id);
  if (ifMatch !== undefined && ifMatch !== etagOf(current)) throw stale();
  if (current.status === 'In Auction') {
    const link = current.auction;
    throw conflict(
      `This item is In Auction${link ? ` (${link.auctionTitle}, lot ${link.lotNumber})` : ''}: remove it from the auction before deleting it`,
    );
  }
  try {
    await deleteItemRecord(ctx.scope, id, current._etag);
  } catch (error) {
    if (isStale(error)) throw stale();
    if (isNotFound(error)) throw itemNotFound();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'inventoryItem.delete',
    entity: { type: 'inventoryItem', id },
    before: plain(current),
  });
  await deleteItemPhotos(ctx.scope, id);
}

/** Every item's id, title and category: what an upload matches its rows against. */
export const itemTitlesOf = (ctx: Pick<RequestContext, 'scope'>) => itemTitles(ctx.scope);

/** The fields an upload may overwrite (with the scores they give), and so what undo puts back. */
const editable = [
  'title',
  'category',
  'subcategory',
  'estimatedValue',
  'condition',
  'location',
  'acquiredDate',
  'description',
  'consignor',
] as const satisfies readonly (keyof ItemUpdate)[];
const restorable = [
  ...editable,
  'categorySuggested',
  'auctionSuggestionScore',
  'marketTrend',
  'suggestionReasons',
  'valueEstimate',
  'scoredAt',
] as const satisfies readonly (keyof InventoryItem & keyof ItemRecord)[];
export type RestorableItem = Pick<InventoryItem, 'id' | 'updatedAt' | (typeof restorable)[number]>;

/**
 * Puts an item's fields back as `before` had them (an upload undone), with its scores and the
 * time it was last changed then, so undoing an earlier upload still sees it as that one left it.
 * An item changed after `since` (by anyone) is kept as it is.
 */
export async function restoreItem(
  ctx: RequestContext,
  before: RestorableItem,
  since: string,
): Promise<'restored' | 'kept' | 'gone'> {
  let kept = false;
  try {
    const {
      before: was,
      after,
      changed,
    } = await changeItem(ctx, before.id, undefined, (current) => {
      kept = current.updatedAt > since;
      const edited = restorable.filter(
        (field) => JSON.stringify(before[field]) !== JSON.stringify(current[field]),
      );
      if (kept || edited.length === 0) return undefined;
      const next: ItemRecord = {
        ...current,
        ...Object.fromEntries(edited.map((field) => [field, before[field]])),
      };
      const shown = edited.filter((field) => (editable as readonly string[]).includes(field));
      return {
        ...next,
        searchText: searchTextOf(next),
        history: withHistory(
          current,
          historyEntry(
            ctx,
            'edited',
            'Put back as it was before an upload',
            new Date().toISOString(),
            shown,
          ),
        ),
        revision: current.revision + 1,
        updatedAt: before.updatedAt,
      };
    });
    if (changed) {
      await writeAudit(ctx, {
        action: 'inventoryItem.restore',
        entity: { type: 'inventoryItem', id: before.id },
        before: was,
        after,
      });
    }
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return 'gone';
    throw error;
  }
  return kept ? 'kept' : 'restored';
}

/**
 * A house's own move among the manual statuses. "In Auction" comes only from Add to Auction and
 * "Sold" only from a sale's result; an item in an auction or sold moves by those, not by hand.
 */
export async function moveStatus(
  ctx: RequestContext,
  id: string,
  move: StatusMove,
  ifMatch: string | undefined,
  now: Date = new Date(),
): Promise<InventoryItem> {
  if (move.status === 'In Auction' || move.status === 'Sold') {
    throw validationError([
      {
        location: 'body',
        field: 'status',
        message:
          move.status === 'In Auction'
            ? 'An item goes In Auction only through Add to Auction'
            : "An item becomes Sold only from a sale's recorded result",
      },
    ]);
  }
  const { before, after, changed } = await changeItem(ctx, id, ifMatch, (current) => {
    if (current.status === 'In Auction') {
      throw conflict(
        `This item is In Auction${current.auction ? ` (${current.auction.auctionTitle})` : ''}: remove it from the auction to change its status`,
      );
    }
    if (current.status === 'Sold') throw conflict('This item is Sold; its status stays Sold');
    if (current.status === move.status) return undefined;
    const at = now.toISOString();
    return {
      ...current,
      status: move.status,
      history: withHistory(
        current,
        historyEntry(
          ctx,
          'status_changed',
          `Status ${current.status} → ${move.status}${move.reason ? `: ${move.reason}` : ''}`,
          at,
        ),
      ),
      revision: current.revision + 1,
      updatedAt: at,
    };
  });
  if (changed) {
    await writeAudit(ctx, {
      action: 'inventoryItem.status',
      entity: { type: 'inventoryItem', id },
      before: { status: before.status },
      after: { status: after.status, reason: move.reason ?? null },
    });
  }
  return toItem(after);
}

// ---- Photos ----

const photoProblem = (message: string) =>
  validationError([{ location: 'body', field: PHOTO_FIELD, message }]);

/** The one file of a photo upload, whole (readForm holds it to MAX_PHOTO_BYTES, else 413). */
async function photoBytes(form: AsyncIterable<FormPart>): Promise<Buffer> {
  let data: Buffer | undefined;
  for await (const part of form) {
    if (part.kind !== 'file') continue;
    if (part.field !== PHOTO_FIELD || data !== undefined) {
      part.stream.resume();
      throw photoProblem(`Send one photo in the "${PHOTO_FIELD}" field`);
    }
    data = await readAll(part.stream as Readable);
  }
  if (!data || data.length === 0) throw photoProblem('is required: choose a photo to upload');
  return data;
}

const tooManyPhotos = () =>
  conflict(`An item holds at most ${MAX_PHOTOS_PER_ITEM} photos; remove one to add another`);

/** Keeps an uploaded photo (JPEG, PNG or WebP by its bytes, 10 MB at most) with the item. */
export async function addPhoto(
  ctx: RequestContext,
  id: string,
  form: AsyncIterable<FormPart>,
): Promise<InventoryItem> {
  const current = await getRecord(ctx, id);
  if (current.photos.length >= MAX_PHOTOS_PER_ITEM) throw tooManyPhotos();
  const data = await photoBytes(form);
  const contentType = photoTypeOf(data);
  if (!contentType) {
    throw new AppError('unsupported_media_type', 'A photo must be a JPEG, PNG or WebP image', {
      fields: [
        {
          location: 'body',
          field: PHOTO_FIELD,
          message: 'A photo must be a JPEG, PNG or WebP image',
        },
      ],
    });
  }
  const photo = {
    id: randomUUID(),
    contentType,
    size: data.length,
    uploadedAt: new Date().toISOString(),
  };
  await putPhoto(ctx.scope, id, photo.id, data, contentType);
  try {
    const { after } = await changeItem(ctx, id, undefined, (item) => {
      if (item.photos.length >= MAX_PHOTOS_PER_ITEM) throw tooManyPhotos();
      return {
        ...item,
        photos: [...item.photos, photo],
        history: withHistory(
          item,
          historyEntry(ctx, 'photo_added', 'Photo added', photo.uploadedAt),
        ),
        revision: item.revision + 1,
        updatedAt: photo.uploadedAt,
      };
    });
    await writeAudit(ctx, {
      action: 'inventoryItem.photo.add',
      entity: { type: 'inventoryItem', id },
      after: photo,
    });
    return toItem(after);
  } catch (error) {
    await deletePhoto(ctx.scope, id, photo.id);
    throw error;
  }
}

/** A photo's bytes, for people signed in to the item's account. */
export async function photoFile(ctx: RequestContext, id: string, photoId: string) {
  const item = await getRecord(ctx, id);
  const photo = item.photos.find((candidate) => candidate.id === photoId);
  const found = photo ? await readPhoto(ctx.scope, id, photoId) : undefined;
  if (!photo || !found) throw notFound('Photo not found');
  return { data: found.data, contentType: photo.contentType };
}

export async function removePhoto(
  ctx: RequestContext,
  id: string,
  photoId: string,
): Promise<InventoryItem> {
  const at = new Date().toISOString();
  const { after } = await changeItem(ctx, id, undefined, (item) => {
    if (!item.photos.some((photo) => photo.id === photoId)) throw notFound('Photo not found');
    return {
      ...item,
      photos: item.photos.filter((photo) => photo.id !== photoId),
      history: withHistory(item, historyEntry(ctx, 'photo_removed', 'Photo removed', at)),
      revision: item.revision + 1,
      updatedAt: at,
    };
  });
  await deletePhoto(ctx.scope, id, photoId);
  await writeAudit(ctx, {
    action: 'inventoryItem.photo.remove',
    entity: { type: 'inventoryItem', id },
    before: { photoId },
  });
  return toItem(after);
}

/**
 * Whether the account's photo rule (Settings › Inventory › Photo requirements) lets the item go
 * to auction; the refusal names the rule.
 */
export function photoRuleProblem(
  item: Pick<ItemRecord, 'photos' | 'estimatedValue' | 'currency'>,
  rule: InventorySettingsInput['photoRequirement'],
): string | undefined {
  if (item.photos.length > 0 || rule === 'optional') return undefined;
  if (rule === 'required_all') {
    return 'Photo requirement "required for all": add at least one photo before adding this item to an auction';
  }
  const threshold = VALUABLE_ITEM_MIN_HIGH_ESTIMATE * 10 ** exponentOf(item.currency);
  if (item.estimatedValue.high < threshold) return undefined;
  return `Photo requirement "valuable items only": items with a high estimate of ${formatMoney(threshold, item.currency)} or more need a photo before they go to auction`;
}

// ---- Overview and suggestions ----

export async function inventoryOverview(
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<InventoryOverview> {
  await refreshStale(ctx, now);
  const [rows, currency, hot] = await Promise.all([
    overviewRows(ctx.scope),
    accountCurrency(ctx),
    bestScored(ctx.scope, auctionableStatuses, { trend: 'Hot' }, HOT_ITEMS_COUNT),
  ]);
  const values = new Map<string, number>();
  const counts = new Map<InventoryStatus, number>();
  let scoreSum = 0;
  for (const row of rows) {
    counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
    scoreSum += row.score;
    if (row.status === 'Sold') continue;
    values.set(
      row.currency,
      (values.get(row.currency) ?? 0) + Math.round((row.low + row.high) / 2),
    );
  }
  return {
    totalItems: rows.length,
    totalValue: {
      amount: values.get(currency) ?? 0,
      currency,
      otherCurrencies: [...values]
        .filter(([other]) => other !== currency)
        .map(([other, amount]) => ({ currency: other, amount })),
    },
    avgScore: rows.length ? Math.round((scoreSum / rows.length) * 10) / 10 : null,
    inAuction: counts.get('In Auction') ?? 0,
    statusCounts: inventoryStatuses.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    hotItems: hot.map(toListItem),
  };
}

/** Items scoring AI_SUGGESTION_THRESHOLD or more that could go to auction, best first. */
export async function aiSuggestions(
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<SuggestionsResponse> {
  await refreshStale(ctx, now);
  const best = await bestScored(
    ctx.scope,
    auctionableStatuses,
    { minScore: AI_SUGGESTION_THRESHOLD },
    MAX_SUGGESTIONS,
  );
  return { threshold: AI_SUGGESTION_THRESHOLD, items: best.map(toListItem) };
}

/** Rescores every item from the house's latest results. */
export async function recomputeScores(
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<{ rescored: number }> {
  const rescored = await rescore(ctx, now);
  await writeAudit(ctx, {
    action: 'inventory.rescore',
    entity: { type: 'inventory', id: ctx.scope.accountId },
    after: { rescored, at: now.toISOString() },
  });
  return { rescored };
}

// ---- Auctions ----

/** The next whole lot number after the auction's highest numeric one. */
export async function nextLotNumber(ctx: RequestContext, auctionId: string) {
  const lots = await listLots(ctx, auctionId);
  const highest = lots.reduce((max, lot) => {
    const number = /^\d+$/.test(lot.lotNumber) ? Number(lot.lotNumber) : 0;
    return Math.max(max, number);
  }, 0);
  return String(highest + 1);
}

export const lotNumberTaken = (error: unknown) =>
  error instanceof AppError &&
  error.code === 'validation_failed' &&
  (error.details as { fields?: { field: string }[] } | undefined)?.fields?.some(
    (field) => field.field === 'lotNumber',
  ) === true;

/**
 * Makes the item a lot of a Draft or Upcoming auction (the lots service keeps the auction's own
 * rules) and marks it In Auction. The item is written only once the lot exists, under the ETag it
 * was read with: of two calls at once one wins and the other's lot is deleted again.
 */
export async function addToAuction(
  ctx: RequestContext,
  id: string,
  input: AddToAuction,
  ifMatch: string | undefined,
  now: Date = new Date(),
): Promise<InventoryItem> {
  const current = await getRecord(ctx, id);
  if (ifMatch !== undefined && ifMatch !== etagOf(current)) throw stale();
  if (!(auctionableStatuses as readonly string[]).includes(current.status)) {
    throw conflict(
      `Only Available or In Storage items can be added to an auction; this one is ${current.status}`,
    );
  }
  const settings = await inventorySettingsOf(ctx.scope);
  const photoProblem = photoRuleProblem(current, settings.photoRequirement);
  if (photoProblem) throw conflict(photoProblem, { rule: settings.photoRequirement });
  const auction = await getAuction(ctx, input.auctionId);
  if (auction.status !== 'Draft' && auction.status !== 'Upcoming') {
    throw conflict(
      `Items can be added only to a Draft or Upcoming auction; "${auction.title}" is ${auction.status}`,
    );
  }
  if (auction.currency !== current.currency) {
    throw conflict(
      `This item is valued in ${current.currency} and "${auction.title}" sells in ${auction.currency}`,
    );
  }
  const lotInput = (lotNumber: string): LotInput => ({
    lotNumber,
    title: current.title,
    description: current.description,
    category: lotCategories[current.category],
    estimateLow: current.estimatedValue.low,
    estimateHigh: current.estimatedValue.high,
    reserve: null,
    consignor: current.consignor,
    inventoryItemId: current.id,
  });
  let lot: Awaited<ReturnType<typeof createLot>> | undefined;
  for (let attempt = 1; !lot; attempt += 1) {
    const lotNumber = input.lotNumber ?? (await nextLotNumber(ctx, auction.id));
    try {
      lot = await createLot(ctx, auction.id, lotInput(lotNumber));
    } catch (error) {
      // A number picked for the caller and taken meanwhile: pick again.
      if (input.lotNumber !== undefined || !lotNumberTaken(error) || attempt >= 5) throw error;
    }
  }
  const at = now.toISOString();
  const previousStatus = current.status as (typeof auctionableStatuses)[number];
  const before = plain(current);
  const next: ItemRecord = {
    ...before,
    status: 'In Auction',
    auction: {
      auctionId: auction.id,
      auctionTitle: auction.title,
      lotId: lot.id,
      lotNumber: lot.lotNumber,
      previousStatus,
      addedAt: at,
    },
    history: withHistory(
      current,
      historyEntry(
        ctx,
        'added_to_auction',
        `Added to ${auction.title} as lot ${lot.lotNumber}`,
        at,
      ),
    ),
    revision: current.revision + 1,
    updatedAt: at,
  };
  let saved: ItemRecord;
  try {
    saved = plain(await replaceItemRecord(ctx.scope, next, current._etag));
  } catch (error) {
    // Nothing half-written: the lot goes again.
    await deleteLot(ctx, auction.id, lot.id);
    if (isStale(error)) {
      const now = await findItem(ctx.scope, id);
      throw now?.status === 'In Auction'
        ? conflict(
            `This item was just added to ${now.auction?.auctionTitle ?? 'an auction'}; reload it`,
          )
        : stale();
    }
    if (isNotFound(error)) throw itemNotFound();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'inventoryItem.addToAuction',
    entity: { type: 'inventoryItem', id },
    before: { status: before.status, auction: null },
    after: { status: saved.status, auction: saved.auction },
  });
  return toItem(saved);
}

/** Takes the item out of its auction before the sale: its lot goes, it returns where it was. */
export async function removeFromAuction(
  ctx: RequestContext,
  id: string,
  ifMatch: string | undefined,
  now: Date = new Date(),
): Promise<InventoryItem> {
  const current = await getRecord(ctx, id);
  if (ifMatch !== undefined && ifMatch !== etagOf(current)) throw stale();
  const link = current.auction;
  if (current.status !== 'In Auction' || !link) {
    throw conflict(`This item is not in an auction; it is ${current.status}`);
  }
  const auction = await getAuction(ctx, link.auctionId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  });
  if (auction && auction.status !== 'Draft' && auction.status !== 'Upcoming') {
    throw conflict(
      `Items can be taken out only before the sale; "${auction.title}" is ${auction.status}`,
    );
  }
  if (auction) {
    await deleteLot(ctx, auction.id, link.lotId).catch((error: unknown) => {
      // The lot was deleted from the catalogue already.
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    });
  }
  const at = now.toISOString();
  // An item of a lot grouped from several goes back with all of them: the lot is gone.
  const group = (await lotGroupsOf(ctx.scope, [link.lotId])).get(link.lotId);
  const others = (group?.items ?? []).map((member) => member.id).filter((other) => other !== id);
  const returnItem = async (itemId: string) => {
    const { before, after } = await changeItem(ctx, itemId, undefined, (item) =>
      item.auction?.lotId !== link.lotId
        ? undefined
        : {
            ...item,
            status: item.auction.previousStatus,
            auction: null,
            history: withHistory(
              item,
              historyEntry(
                ctx,
                'removed_from_auction',
                `Removed from ${link.auctionTitle} (lot ${link.lotNumber})`,
                at,
              ),
            ),
            revision: item.revision + 1,
            updatedAt: at,
          },
    );
    if (before.auction?.lotId === link.lotId) {
      await writeAudit(ctx, {
        action: 'inventoryItem.removeFromAuction',
        entity: { type: 'inventoryItem', id: itemId },
        before: { status: before.status, auction: before.auction },
        after: { status: after.status, auction: after.auction },
      });
    }
    return after;
  };
  const after = await returnItem(id);
  for (const other of others) {
    await returnItem(other).catch((error: unknown) => {
      // An item deleted meanwhile has nothing to return.
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    });
  }
  if (group) await deleteLotGroup(ctx.scope, link.lotId);
  return toItem(after);
}

/**
 * After an auction closes, and again after a result of the closed sale is corrected: each lot
 * made from an inventory item marks the item Sold (with the hammer as its last sold price) or,
 * passed, returns it where it was before the sale with its auction link cleared. A correction
 * moves the item with it (a new hammer, or a sale undone). Safe to run twice: an item already as
 * its lot says is left alone.
 */
export async function inventoryAfterClose(
  ctx: RequestContext,
  auctionId: string,
  lots: {
    id: string;
    inventoryItemId: string | null;
    result: { outcome: 'sold' | 'passed'; hammer: number | null } | null;
  }[],
): Promise<void> {
  const linked = lots.filter((lot) => lot.inventoryItemId && lot.result);
  if (linked.length === 0) return;
  const auction = await getAuction(ctx, auctionId);
  const lotNumbers = new Map(
    (await listLots(ctx, auctionId)).map((catalogued) => [catalogued.id, catalogued.lotNumber]),
  );
  const groups = await lotGroupsOf(
    ctx.scope,
    linked.map((lot) => lot.id),
  );
  for (const lot of linked) {
    const result = lot.result as NonNullable<typeof lot.result>;
    const group = groups.get(lot.id);
    // A grouped lot sells every item in it, each for its share of the hammer.
    const shares =
      group && result.hammer !== null ? hammerShares(result.hammer, group.items) : undefined;
    const members = group
      ? group.items.map((member) => member.id)
      : [lot.inventoryItemId as string];
    for (const itemId of members) {
      const itemHammer = shares?.get(itemId) ?? result.hammer;
      const at = new Date().toISOString();
      try {
        const { before, after, changed } = await changeItem(ctx, itemId, undefined, (item) => {
          const ours = item.auction?.lotId === lot.id;
          const lotNumber = item.auction?.lotNumber ?? lotNumbers.get(lot.id) ?? '';
          if (result.outcome === 'sold') {
            const hammer = itemHammer ?? 0;
            if (item.status === 'Sold' && ours) {
              if (item.lastSoldPrice === itemHammer) return undefined;
              return {
                ...item,
                lastSoldPrice: itemHammer,
                history: withHistory(
                  item,
                  historyEntry(
                    ctx,
                    'sold',
                    `Result corrected: sold for ${formatMoney(hammer, auction.currency)} in ${auction.title} (lot ${lotNumber})`,
                    at,
                  ),
                ),
                revision: item.revision + 1,
                updatedAt: at,
              };
            }
            const link: AuctionLink =
              item.auction && ours
                ? item.auction
                : {
                    auctionId,
                    auctionTitle: auction.title,
                    lotId: lot.id,
                    lotNumber,
                    previousStatus: 'Available',
                    addedAt: at,
                  };
            return {
              ...item,
              status: 'Sold',
              lastSoldPrice: itemHammer,
              auction: { ...link, previousSoldPrice: item.lastSoldPrice },
              history: withHistory(
                item,
                historyEntry(
                  ctx,
                  'sold',
                  `Sold for ${formatMoney(hammer, auction.currency)} in ${auction.title}`,
                  at,
                ),
              ),
              revision: item.revision + 1,
              updatedAt: at,
            };
          }
          if (!ours || !item.auction) return undefined;
          if (item.status === 'Sold') {
            // The sale was corrected to passed: the item goes back, with the price it had before.
            return {
              ...item,
              status: item.auction.previousStatus,
              lastSoldPrice: item.auction.previousSoldPrice ?? null,
              auction: null,
              history: withHistory(
                item,
                historyEntry(
                  ctx,
                  'returned',
                  `Result corrected: passed in ${auction.title} (lot ${lotNumber}); returned to ${item.auction.previousStatus}`,
                  at,
                ),
              ),
              revision: item.revision + 1,
              updatedAt: at,
            };
          }
          if (item.status !== 'In Auction') return undefined;
          return {
            ...item,
            status: item.auction.previousStatus,
            auction: null,
            history: withHistory(
              item,
              historyEntry(
                ctx,
                'returned',
                `Passed in ${auction.title} (lot ${lotNumber}); returned to ${item.auction.previousStatus}`,
                at,
              ),
            ),
            revision: item.revision + 1,
            updatedAt: at,
          };
        });
        if (changed) {
          await writeAudit(ctx, {
            action: result.outcome === 'sold' ? 'inventoryItem.sold' : 'inventoryItem.returned',
            entity: { type: 'inventoryItem', id: itemId },
            before: { status: before.status, auction: before.auction },
            after: {
              status: after.status,
              auction: after.auction,
              lastSoldPrice: after.lastSoldPrice,
            },
          });
        }
      } catch (error) {
        // An item deleted since it was catalogued has nothing left to update.
        if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      }
    }
  }
}
