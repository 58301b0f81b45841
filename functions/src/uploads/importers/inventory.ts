import { currencyExponent } from '../../auctions/auctions.schema.js';
import { accountPlanOf } from '../../identity/accounts/accounts.service.js';
import {
  inventoryCategories,
  inventoryConditions,
  itemInputSchema,
  manualStatuses,
  type InventoryCategory,
  type InventoryItem,
  type ItemInput,
  type ItemUpdate,
} from '../../inventory/inventory.schema.js';
import {
  accountCurrency,
  deleteItem,
  formatMoney,
  getItem,
  getItems,
  itemCreator,
  itemTitlesOf,
  restoreItem,
  updateItem,
  type RestorableItem,
} from '../../inventory/inventory.service.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict } from '../../platform/cosmos-errors.js';
import { AppError, forbidden } from '../../platform/errors.js';
import { inFlight } from '../../platform/in-flight.js';
import { StringMap } from '../../platform/string-table.js';
import type {
  ImporterContext,
  ImporterDefinition,
  LedgerEntry,
  Overwrite,
  RowImporter,
  RowProblem,
  RowRef,
} from '../importer.js';
import {
  MAX_EXPONENT,
  cellText,
  choiceOf,
  dayOf,
  given,
  issueProblem,
  minorOf,
  perContext,
  refusalOf,
  refusesFormat,
  same,
} from './cells.js';

/**
 * Inventory items from an upload (the Inventory add-on). An item has no number of its own, so
 * its stable key is its title and category: a row whose title (ignoring case and spacing) and
 * category match an item on file is that item. A row without a category (the account may
 * suggest one from the title) matches an item of that title in any category.
 *
 * Money is in major units as a house writes it ("1,250.00", 1250) and becomes minor units of the
 * account's currency, which is every item's. A row's status applies to a new item only: an item
 * on file moves by its own route. Blank cells never clear what is on file.
 */

/** The message of the add-on's routes (spec §6), for every file of an account without it. */
export const INVENTORY_NOT_IN_PLAN = 'Access denied: inventory feature not available in your plan';

export const inventoryFields = [
  {
    key: 'title',
    label: 'Title',
    required: true,
    aliases: ['itemtitle', 'name', 'itemname', 'item', 'heading'],
  },
  {
    key: 'category',
    label: 'Category',
    required: false,
    aliases: ['itemcategory', 'department', 'type'],
  },
  { key: 'subcategory', label: 'Subcategory', required: false, aliases: ['subcat', 'subtype'] },
  {
    key: 'estimateLow',
    label: 'Low Estimate',
    required: true,
    aliases: ['lowestimate', 'estlow', 'low', 'minestimate', 'estimatemin', 'lowvalue', 'valuelow'],
  },
  {
    key: 'estimateHigh',
    label: 'High Estimate',
    required: true,
    aliases: [
      'highestimate',
      'esthigh',
      'high',
      'maxestimate',
      'estimatemax',
      'highvalue',
      'valuehigh',
    ],
  },
  { key: 'condition', label: 'Condition', required: true, aliases: ['grade', 'itemcondition'] },
  { key: 'status', label: 'Status', required: false, aliases: ['itemstatus'] },
  {
    key: 'location',
    label: 'Location',
    required: false,
    aliases: ['storagelocation', 'storage', 'warehouse', 'shelf'],
  },
  {
    key: 'acquiredDate',
    label: 'Acquired Date',
    required: false,
    aliases: ['acquired', 'dateacquired', 'acquisitiondate', 'datereceived', 'received'],
  },
  {
    key: 'description',
    label: 'Description',
    required: false,
    aliases: ['desc', 'details', 'itemdescription'],
  },
  {
    key: 'consignorName',
    label: 'Consignor',
    required: false,
    aliases: ['consignor', 'consignedby', 'seller', 'vendor'],
  },
  {
    key: 'consignorContact',
    label: 'Consignor Contact',
    required: false,
    aliases: ['consignoremail', 'consignorphone', 'contact'],
  },
] as const;

/** Other names houses give the categories. */
const categoryNames: Record<string, InventoryCategory> = {
  jewelry: 'Jewelry & Watches',
  jewellery: 'Jewelry & Watches',
  watches: 'Jewelry & Watches',
  jewelryandwatches: 'Jewelry & Watches',
  jewelleryandwatches: 'Jewelry & Watches',
};

const problem = (field: string, message: string) => ({ problem: { field, message } });

/** Where the item contract names a problem, as the column it came from. */
function fieldOfPath([first, second]: string[]): string {
  if (first === 'estimatedValue') return second === 'high' ? 'estimateHigh' : 'estimateLow';
  if (first === 'consignor') return second === 'contact' ? 'consignorContact' : 'consignorName';
  return first ?? 'title';
}

/**
 * A row's cells as an item's input, money in minor units of a currency with `exponent`
 * decimals, or the first problem in the order of the fields.
 */
export function itemOfRow(
  values: Record<string, unknown>,
  exponent: number,
): { input: ItemInput } | { problem: RowProblem } {
  const title = cellText(values.title);
  if (!title) return problem('title', 'is required');
  const categoryText = given(values, 'category');
  const category =
    categoryText === undefined
      ? undefined
      : choiceOf(categoryText, inventoryCategories, {}, categoryNames);
  if (categoryText !== undefined && !category) {
    return problem(
      'category',
      `"${categoryText}" is not a category; use one of ${inventoryCategories.join(', ')}`,
    );
  }
  const money: Record<'estimateLow' | 'estimateHigh', number> = { estimateLow: 0, estimateHigh: 0 };
  for (const field of ['estimateLow', 'estimateHigh'] as const) {
    const read = minorOf(values[field], exponent);
    if ('problem' in read) return problem(field, read.problem);
    if (read.minor === undefined) return problem(field, 'is required');
    money[field] = read.minor;
  }
  const conditionText = given(values, 'condition');
  if (conditionText === undefined) return problem('condition', 'is required');
  const condition = choiceOf(conditionText, inventoryConditions);
  if (!condition) {
    return problem('condition', `must be one of ${inventoryConditions.join(', ')}`);
  }
  const statusText = given(values, 'status');
  const status = statusText === undefined ? 'Available' : choiceOf(statusText, manualStatuses);
  if (!status) {
    return problem(
      'status',
      choiceOf(statusText ?? '', ['In Auction', 'Sold'] as const)
        ? `"${statusText}" comes from Add to Auction or a sale's result, not from an upload`
        : `must be one of ${manualStatuses.join(', ')}`,
    );
  }
  const acquired = dayOf(values.acquiredDate);
  if ('problem' in acquired) return problem('acquiredDate', acquired.problem);
  const consignorName = cellText(values.consignorName);
  const consignorContact = cellText(values.consignorContact);
  if (consignorContact && !consignorName) {
    return problem('consignorName', 'is required with a consignor contact');
  }
  const parsed = itemInputSchema.safeParse({
    title,
    ...(category ? { category } : {}),
    subcategory: cellText(values.subcategory),
    estimatedValue: { low: money.estimateLow, high: money.estimateHigh },
    condition,
    location: cellText(values.location),
    ...(acquired.day ? { acquiredDate: acquired.day } : {}),
    description: cellText(values.description),
    consignor: consignorName ? { name: consignorName, contact: consignorContact } : null,
    status,
  });
  if (!parsed.success) return { problem: issueProblem(parsed.error, fieldOfPath) };
  return { input: parsed.data };
}

const titleKey = (title: string) => title.trim().toLowerCase().replace(/\s+/g, ' ');

/** The stable key of an item: its title (case and spacing ignored) and category. */
export function itemKeyOf(values: Record<string, unknown>): string | null {
  const title = cellText(values.title);
  if (!title) return null;
  const categoryText = cellText(values.category);
  const category = choiceOf(categoryText, inventoryCategories, {}, categoryNames) ?? categoryText;
  return `${titleKey(title)}|${category}`;
}

/** The account's items by title and category, and those this run adds. */
class ItemIndex {
  private readonly byKey = new StringMap();
  private readonly byTitle = new StringMap();

  add(id: string, title: string, category: string) {
    const key = titleKey(title);
    this.byKey.setIfAbsent(`${key}|${category}`, id);
    this.byTitle.setIfAbsent(key, id);
  }

  /** The item a row names: by title and category, or by title alone when it has none. */
  find(input: Pick<ItemInput, 'title' | 'category'>) {
    const key = titleKey(input.title);
    return input.category ? this.byKey.get(`${key}|${input.category}`) : this.byTitle.get(key);
  }

  forget(id: string, input: Pick<ItemInput, 'title' | 'category'>) {
    const key = titleKey(input.title);
    if (input.category) this.byKey.forget(`${key}|${input.category}`, id);
    this.byTitle.forget(key, id);
  }
}

async function indexOf(ctx: RequestContext) {
  const index = new ItemIndex();
  for (const item of await itemTitlesOf(ctx)) index.add(item.id, item.title, item.category);
  return index;
}

const exponentOf = (currency: string) =>
  (currencyExponent as Record<string, number | undefined>)[currency] ?? MAX_EXPONENT;

/** The item on file, or undefined when it is gone. */
async function itemOnFile(ctx: RequestContext, id: string) {
  try {
    return await getItem(ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}

/** What a row would change of the item on file: the fields it has a value for that differ. */
function changesOf(item: InventoryItem, input: ItemInput, values: Record<string, unknown>) {
  // The title is the key the row matched by: as written on file it stays.
  const update: ItemUpdate = {};
  if (input.category && input.category !== item.category) update.category = input.category;
  if (!same(input.estimatedValue, item.estimatedValue))
    update.estimatedValue = input.estimatedValue;
  if (input.condition !== item.condition) update.condition = input.condition;
  const text = ['subcategory', 'location', 'description'] as const;
  for (const field of text) {
    if (given(values, field) !== undefined && input[field] !== item[field]) {
      update[field] = input[field];
    }
  }
  if (input.acquiredDate && input.acquiredDate !== item.acquiredDate) {
    update.acquiredDate = input.acquiredDate;
  }
  if (input.consignor && !same(input.consignor, item.consignor)) update.consignor = input.consignor;
  return update;
}

/** What the overwrite preview shows of a field: money as the house reads it. */
function shown(field: keyof ItemUpdate, value: unknown, currency: string): unknown {
  if (field === 'estimatedValue') {
    const { low, high } = value as { low: number; high: number };
    return `${formatMoney(low, currency)} – ${formatMoney(high, currency)}`;
  }
  return value ?? null;
}

/** What the ledger keeps of an item an upload overwrites: the item, without its history. */
function beforeOf(item: InventoryItem): Record<string, unknown> {
  const { history: _history, ...rest } = item;
  return rest;
}

/**
 * New items, and rows of `update` mode whose item is on file, wait for a batch: their ledger
 * entries are stored together (and the items to update read together), then each is written.
 */
const CREATE_BATCH = 25;
const UPDATE_BATCH = 25;
const WRITES_IN_FLIGHT = 2;

interface PendingItem {
  ref: RowRef;
  id: string;
  input: ItemInput;
}

interface PendingUpdate extends PendingItem {
  values: Record<string, unknown>;
}

class InventoryRows implements RowImporter {
  private pending: PendingItem[] = [];
  private pendingIds = new Set<string>();
  private updates: PendingUpdate[] = [];
  private readonly updateIds = new Set<string>();
  private readonly writes = inFlight(WRITES_IN_FLIGHT);
  private created = 0;
  private updated = 0;

  constructor(
    private readonly run: ImporterContext,
    private readonly creator: Awaited<ReturnType<typeof itemCreator>>,
    private readonly index: ItemIndex,
  ) {}

  async row(ref: RowRef, id: string, values: Record<string, unknown>) {
    const { sink, mode } = this.run;
    const read = itemOfRow(values, exponentOf(this.creator.currency));
    if ('problem' in read) {
      sink.error(ref, read.problem);
      return;
    }
    const { input } = read;
    const existing = this.index.find(input);
    if (existing && this.pendingIds.has(existing)) await this.flush();
    if (existing === undefined) {
      this.pending.push({ ref, id, input });
      this.pendingIds.add(id);
      this.index.add(id, input.title, input.category ?? '');
      if (this.pending.length >= CREATE_BATCH) await this.write();
      return;
    }
    // Just after resuming, the item on file may be the one this row wrote before the crash.
    if (existing === id && (await this.ownBeforeCrash(id))) {
      this.created += 1;
      sink.created('inventory-item', id);
      return;
    }
    if (mode !== 'update') {
      sink.duplicate();
      return;
    }
    // A second row of an item waiting in the batch is compared with what the first one wrote.
    if (this.updateIds.has(existing)) await this.writeUpdates();
    this.updates.push({ ref, id: existing, input, values });
    this.updateIds.add(existing);
    if (this.updates.length >= UPDATE_BATCH) await this.writeUpdates();
  }

  /**
   * The batch of rows whose item is on file: the items read in one query, each one's version as
   * it was stored in one ledger document, then each overwritten over the version read.
   */
  private async writeUpdates() {
    const { ctx, sink, ledger } = this.run;
    const batch = this.updates;
    this.updates = [];
    this.updateIds.clear();
    const onFile = await getItems(
      ctx,
      batch.map(({ id }) => id),
    );
    const planned: (PendingUpdate & { item: InventoryItem; update: ItemUpdate })[] = [];
    for (const row of batch) {
      const item = onFile.get(row.id);
      if (!item) {
        this.index.forget(row.id, row.input);
        sink.error(row.ref, { field: 'title', message: 'names an item deleted while importing' });
        continue;
      }
      const update = changesOf(item, row.input, row.values);
      if (Object.keys(update).length === 0) sink.duplicate();
      else planned.push({ ...row, item, update });
    }
    if (planned.length === 0) return;
    await ledger.intend(
      planned.map(({ id, item }) => ({ entity: 'inventory-item', id, before: beforeOf(item) })),
    );
    for (const { ref, id, item, update } of planned) {
      try {
        await updateItem(ctx, id, item.etag, update);
      } catch (error) {
        ledger.skipped('inventory-item', id);
        sink.error(ref, refusalOf(error));
        continue;
      }
      ledger.landed('inventory-item', id);
      this.updated += 1;
      sink.updated('inventory-item', id);
    }
  }

  /** Whether this row's item on file is one this run wrote before it crashed (just resumed). */
  private async ownBeforeCrash(id: string) {
    if (!this.run.replaying()) return false;
    const item = await itemOnFile(this.run.ctx, id);
    return item !== undefined && this.run.wroteBeforeCrash(item);
  }

  private write() {
    const batch = this.pending;
    this.pending = [];
    const { sink, ledger } = this.run;
    return this.writes.add(
      (async () => {
        await ledger.intend(
          batch.map(({ id }): LedgerEntry => ({ entity: 'inventory-item', id, before: null })),
        );
        for (const { ref, id, input } of batch) {
          this.pendingIds.delete(id);
          try {
            await this.creator.create(input, id);
            ledger.landed('inventory-item', id);
          } catch (error) {
            ledger.skipped('inventory-item', id);
            if (!isConflict(error)) {
              this.index.forget(id, input);
              sink.error(ref, refusalOf(error));
              continue;
            }
            // Already there: this row's item, written by the run that stopped before its
            // checkpoint, or by an earlier run (and renamed since, or it would have matched).
            if (!(await this.ownBeforeCrash(id))) {
              sink.duplicate();
              continue;
            }
          }
          this.created += 1;
          sink.created('inventory-item', id);
        }
      })(),
    );
  }

  async flush() {
    if (this.updates.length) await this.writeUpdates();
    if (this.pending.length) await this.write();
    await this.writes.finish();
  }

  settle() {
    return this.writes.settle();
  }

  async finish() {
    await this.flush();
    return { inventoryItems: { created: this.created, updated: this.updated } };
  }
}

const previewIndex = perContext(indexOf);
const previewCurrency = perContext(accountCurrency);
const hasAddOn = async (ctx: RequestContext) =>
  (await accountPlanOf(ctx.scope.accountId)).addOns.inventory;

export const inventoryImporter: ImporterDefinition = {
  category: 'inventory',
  fields: inventoryFields,
  jsonKey: 'items',
  refuses: (format) => refusesFormat(format, 'inventory items'),
  check: (values) => {
    const read = itemOfRow(values, MAX_EXPONENT);
    return 'problem' in read ? read.problem : null;
  },
  keyOf: itemKeyOf,

  /** Refuses the upload (a 403 naming the add-on) when the account's plan lacks Inventory. */
  async start(context) {
    if (!(await hasAddOn(context.ctx))) throw forbidden(INVENTORY_NOT_IN_PLAN);
    const [creator, index] = await Promise.all([itemCreator(context.ctx), indexOf(context.ctx)]);
    return new InventoryRows(context, creator, index);
  },

  async overwrite(ctx, values): Promise<Overwrite | null> {
    const currency = await previewCurrency(ctx);
    const read = itemOfRow(values, exponentOf(currency));
    if ('problem' in read) return null;
    const id = (await previewIndex(ctx)).find(read.input);
    const item = id ? await itemOnFile(ctx, id) : undefined;
    if (!item) return null;
    const update = changesOf(item, read.input, values);
    const fields = (Object.keys(update) as (keyof ItemUpdate)[]).map((field) => ({
      field,
      existing: shown(field, item[field], item.currency),
      imported: shown(field, update[field], item.currency),
    }));
    // On file and unchanged is no field to overwrite, not a new item.
    return { entity: 'inventory-item', recordId: item.id, title: item.title, fields };
  },

  async undo(ctx, entry, since) {
    if (entry.before) return restoreItem(ctx, entry.before as RestorableItem, since);
    const item = await itemOnFile(ctx, entry.id);
    if (!item) return 'gone';
    if (item.updatedAt > since) return 'kept';
    try {
      await deleteItem(ctx, entry.id, item.etag);
      return 'removed';
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'not_found') return 'gone';
      // Changed meanwhile, or In Auction now: it stays.
      if (error.code === 'precondition_failed' || error.code === 'conflict') return 'kept';
      throw error;
    }
  },
};
