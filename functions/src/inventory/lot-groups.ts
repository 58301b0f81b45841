/**
 * Optimal lot grouping (Settings › Inventory): which items are worth selling together as one lot.
 * Pure and deterministic (the caller passes `now`); the service feeds it the account's items and
 * the house's own sales.
 *
 * The rule. Every lot costs the house about the same to catalogue, photograph, hang and clerk, so
 * a lot whose low estimate is under the lot threshold of its category does not pay its way alone:
 *   threshold = max(MIN_LOT_VALUE[currency], MEDIAN_SHARE × median hammer)
 * where the median is over the house's sold lots of the category in that currency whose auction
 * closed in the last THRESHOLD_DAYS, used once there are at least MIN_SOLD_FOR_MEDIAN of them
 * (else the fixed floor alone). MIN_LOT_VALUE is USD 300.00, EUR 300.00, GBP 250.00, CAD 400.00;
 * MEDIAN_SHARE is a quarter: an item expected to fetch under a quarter of what the category's lots
 * usually make takes a catalogue slot for little.
 *
 * The groups. Candidates are the Available or In Storage items with a low estimate strictly under
 * their threshold (the service leaves out those the photo rule would refuse at auction). They are
 * bucketed by currency, category, subcategory (compared trimmed and ignoring case; items without
 * one group together) and consignor (a lot sells for one consignor; house stock together). Each
 * bucket is packed to make as many lots that reach the threshold as it can (a bin-covering
 * heuristic): the highest remaining low estimate starts a group; while the group's combined low
 * estimate is under the threshold it takes the smallest remaining item that brings it there, or,
 * with none, the highest remaining one, up to MAX_LOT_GROUP_ITEMS. Ties go by title, then id. A
 * lone item left at the end joins the group before while it has room, else stays alone (every
 * group holds MIN_LOT_GROUP_ITEMS or more). Groups are listed highest combined low estimate first,
 * each one's items highest first.
 *
 * A grouped lot that sells shares its hammer among its items by their estimate midpoints (largest
 * remainder, so the shares add up to the hammer exactly): `hammerShares`.
 */
import { createHash } from 'node:crypto';
import { currencyExponent } from '../auctions/auctions.schema.js';
import {
  MAX_LOT_GROUP_ITEMS,
  MIN_LOT_GROUP_ITEMS,
  auctionableStatuses,
  type InventoryCategory,
  type InventoryCondition,
  type InventoryStatus,
} from './inventory.schema.js';
import type { Sale } from './suggestions.js';

export interface GroupableItem {
  id: string;
  title: string;
  category: InventoryCategory;
  subcategory: string;
  condition: InventoryCondition;
  status: InventoryStatus;
  estimatedValue: { low: number; high: number };
  currency: string;
  consignor: { name: string } | null;
  description: string;
}

export interface LotThreshold {
  amount: number;
  /** Where the amount comes from, in a sentence's words. */
  basis: string;
}

export interface LotGroupProposal {
  /** The same items always give the same id. */
  id: string;
  category: InventoryCategory;
  subcategory: string;
  currency: string;
  consignor: string | null;
  title: string;
  threshold: number;
  estimate: { low: number; high: number };
  itemIds: string[];
  reasons: string[];
}

/** Minor units: the least a lot should make on its own, per house currency. */
export const MIN_LOT_VALUE: Readonly<Record<string, number>> = {
  USD: 30_000,
  EUR: 30_000,
  GBP: 25_000,
  CAD: 40_000,
};
export const MEDIAN_SHARE = 0.25;
export const MIN_SOLD_FOR_MEDIAN = 5;
export const THRESHOLD_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;

const exponentOf = (currency: string) =>
  (currencyExponent as Record<string, number | undefined>)[currency] ?? 2;

/** "USD 1,250.00", as the inventory's other messages print money. */
export function moneyText(amount: number, currency: string): string {
  const exponent = exponentOf(currency);
  const major = (amount / 10 ** exponent).toLocaleString('en-US', {
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  return `${currency} ${major}`;
}

/** The floor of a currency: the table's, or 300 major units of one not in it. */
const floorOf = (currency: string) => MIN_LOT_VALUE[currency] ?? 300 * 10 ** exponentOf(currency);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The least a lot of this category should make here, and why. */
export function lotThreshold(
  category: InventoryCategory,
  currency: string,
  sales: readonly Sale[],
  now: Date,
): LotThreshold {
  const floor = floorOf(currency);
  const since = now.getTime() - THRESHOLD_DAYS * DAY_MS;
  const hammers = sales
    .filter(
      (sale) =>
        sale.category === category &&
        sale.currency === currency &&
        sale.outcome === 'sold' &&
        sale.hammer !== null &&
        Date.parse(sale.closedAt) >= since,
    )
    .map((sale) => sale.hammer ?? 0);
  if (hammers.length < MIN_SOLD_FOR_MEDIAN) {
    return {
      amount: floor,
      basis: `the house's minimum lot value (too few ${category} lots sold in the last year to learn from)`,
    };
  }
  const middle = median(hammers);
  const share = Math.round(middle * MEDIAN_SHARE);
  if (share <= floor) {
    return { amount: floor, basis: "the house's minimum lot value" };
  }
  return {
    amount: share,
    basis: `a quarter of the median ${category} hammer (${moneyText(Math.round(middle), currency)} over ${hammers.length} lots sold in the last year)`,
  };
}

const NUMBER_WORDS = ['', 'one', 'two', 'three', 'four', 'five', 'six'];
const numberWord = (count: number) => NUMBER_WORDS[count] ?? String(count);

const CATEGORY_NOUNS: Record<InventoryCategory, string> = {
  Furniture: 'pieces of furniture',
  Art: 'works of art',
  Silver: 'silver pieces',
  'Jewelry & Watches': 'pieces of jewelry and watches',
  Textiles: 'textiles',
  Ceramics: 'ceramic pieces',
};

export const MAX_LOT_TITLE = 300;
export const MAX_LOT_DESCRIPTION = 10_000;

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

/** "A group of three ceramic pieces (American pottery), including Redware pie plate". */
export function groupLotTitle(
  items: readonly Pick<GroupableItem, 'title' | 'category' | 'subcategory'>[],
): string {
  const [lead] = items;
  if (!lead) return '';
  const sameCategory = items.every((item) => item.category === lead.category);
  const noun = sameCategory ? CATEGORY_NOUNS[lead.category] : 'pieces';
  const subcategory = lead.subcategory.trim();
  const sameSubcategory =
    sameCategory &&
    subcategory !== '' &&
    items.every((item) => item.subcategory.trim().toLowerCase() === subcategory.toLowerCase());
  return clip(
    `A group of ${numberWord(items.length)} ${noun}${sameSubcategory ? ` (${subcategory})` : ''}, including ${lead.title}`,
    MAX_LOT_TITLE,
  );
}

/** The grouped lot's catalogue text: each item numbered, with its condition and description. */
export function groupLotDescription(
  items: readonly Pick<GroupableItem, 'title' | 'condition' | 'description'>[],
): string {
  const lines = items.map((item, index) => {
    const title = item.title.trim().replace(/[.;:,]$/, '');
    const description = item.description.trim();
    return `${index + 1}. ${title}. ${item.condition} condition.${description ? ` ${description}` : ''}`;
  });
  return clip(
    `Comprising ${numberWord(items.length)} pieces:\n${lines.join('\n')}`,
    MAX_LOT_DESCRIPTION,
  );
}

/** The same items, in any order, give the same id. */
export const groupIdOf = (itemIds: readonly string[]) =>
  createHash('sha256')
    .update([...itemIds].sort().join('\n'))
    .digest('hex')
    .slice(0, 16);

const normal = (text: string) => text.trim().toLowerCase();

const byValue = (a: GroupableItem, b: GroupableItem) =>
  b.estimatedValue.low - a.estimatedValue.low ||
  a.title.localeCompare(b.title) ||
  a.id.localeCompare(b.id);

const lowOf = (items: readonly GroupableItem[]) =>
  items.reduce((sum, item) => sum + item.estimatedValue.low, 0);

/** Packs one bucket's items (sorted highest first) into groups, as the header says. */
function pack(sorted: readonly GroupableItem[], threshold: number): GroupableItem[][] {
  const left = [...sorted];
  const groups: GroupableItem[][] = [];
  for (let start = left.shift(); start; start = left.shift()) {
    const group = [start];
    while (left.length > 0 && group.length < MAX_LOT_GROUP_ITEMS && lowOf(group) < threshold) {
      const need = threshold - lowOf(group);
      // From the lowest up: the first that reaches the threshold is the smallest that does.
      let pick = 0;
      for (let index = left.length - 1; index >= 0; index -= 1) {
        if ((left[index] as GroupableItem).estimatedValue.low >= need) {
          pick = index;
          break;
        }
      }
      group.push(...left.splice(pick, 1));
    }
    groups.push(group);
  }
  const last = groups.at(-1);
  if (last && last.length < MIN_LOT_GROUP_ITEMS) {
    groups.pop();
    const before = groups.at(-1);
    if (before && before.length + last.length <= MAX_LOT_GROUP_ITEMS) before.push(...last);
  }
  return groups.map((group) => [...group].sort(byValue));
}

/** The groups worth making now, best first. */
export function proposeLotGroups(
  items: readonly GroupableItem[],
  sales: readonly Sale[],
  now: Date,
): LotGroupProposal[] {
  const thresholds = new Map<string, LotThreshold>();
  const thresholdOf = (category: InventoryCategory, currency: string) => {
    const key = `${currency}\n${category}`;
    let found = thresholds.get(key);
    if (!found) {
      found = lotThreshold(category, currency, sales, now);
      thresholds.set(key, found);
    }
    return found;
  };
  const buckets = new Map<string, GroupableItem[]>();
  for (const item of items) {
    if (!(auctionableStatuses as readonly string[]).includes(item.status)) continue;
    if (item.estimatedValue.low >= thresholdOf(item.category, item.currency).amount) continue;
    const key = [
      item.currency,
      item.category,
      normal(item.subcategory),
      normal(item.consignor?.name ?? ''),
    ].join('\n');
    buckets.set(key, [...(buckets.get(key) ?? []), item]);
  }
  const proposals: LotGroupProposal[] = [];
  for (const bucket of buckets.values()) {
    const [first] = bucket;
    if (!first || bucket.length < MIN_LOT_GROUP_ITEMS) continue;
    const threshold = thresholdOf(first.category, first.currency);
    for (const group of pack([...bucket].sort(byValue), threshold.amount)) {
      proposals.push(proposalOf(group, threshold));
    }
  }
  return proposals.sort((a, b) => b.estimate.low - a.estimate.low || a.id.localeCompare(b.id));
}

function proposalOf(group: GroupableItem[], threshold: LotThreshold): LotGroupProposal {
  const lead = group[0] as GroupableItem;
  const money = (amount: number) => moneyText(amount, lead.currency);
  const estimate = {
    low: lowOf(group),
    high: group.reduce((sum, item) => sum + item.estimatedValue.high, 0),
  };
  const subcategory = lead.subcategory.trim();
  const consignor = lead.consignor?.name.trim() || null;
  const range = `${money(estimate.low)}–${money(estimate.high).slice(lead.currency.length + 1)}`;
  return {
    id: groupIdOf(group.map((item) => item.id)),
    category: lead.category,
    subcategory,
    currency: lead.currency,
    consignor,
    title: groupLotTitle(group),
    threshold: threshold.amount,
    estimate,
    itemIds: group.map((item) => item.id),
    reasons: [
      `Each has a low estimate under ${money(threshold.amount)}: ${threshold.basis}`,
      estimate.low >= threshold.amount
        ? `Together estimated ${range}: one lot that pays its way instead of ${numberWord(group.length)} that do not`
        : `Together estimated ${range}, still under ${money(threshold.amount)}, but one lot instead of ${numberWord(group.length)}`,
      subcategory
        ? `All ${lead.category}, ${subcategory}`
        : `All ${lead.category} without a subcategory`,
      consignor ? `All consigned by ${consignor}` : 'All house stock (no consignor)',
    ],
  };
}

/**
 * Each item's part of a grouped lot's hammer, in proportion to its estimate midpoint (equal parts
 * when every estimate is zero); the parts add up to the hammer exactly.
 */
export function hammerShares(
  hammer: number,
  items: readonly { id: string; low: number; high: number }[],
): Map<string, number> {
  if (items.length === 0) return new Map();
  const weights = items.map((item) => item.low + item.high);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const exact = weights.map((weight) =>
    total > 0 ? (hammer * weight) / total : hammer / items.length,
  );
  const shares = exact.map(Math.floor);
  let left = hammer - shares.reduce((sum, share) => sum + share, 0);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index] = (shares[index] as number) + 1;
    left -= 1;
  }
  return new Map(items.map((item, index) => [item.id, shares[index] as number]));
}
