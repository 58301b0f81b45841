/**
 * Auto-generate descriptions (Settings › Inventory): a catalogue description drafted from the
 * item's own fields and the house's own sales. Not a language model: pure and deterministic (the
 * caller passes `now`), so the same details and history always give the same draft, and every
 * word of it comes from what the house entered or sold.
 *
 * The draft, in the terse style of the house's catalogue ("Pennsylvania, 19th century; rim
 * chips."):
 *   1. what it is and its condition: the subcategory (or the category) and a condition phrase,
 *      e.g. "Hollowware; good condition, with light wear consistent with age and use.";
 *   2. with comparables, "Comparable pieces sold by the house: 3 in the last year, hammer
 *      $1,800–$2,900."
 *
 * Comparables: sold lots of the same category and currency whose auction closed in the last
 * COMPARABLE_DAYS, that share a distinctive title word with the item (words of 3+ letters, common
 * words left out, and words in more than DISTINCTIVE_SHARE of those lots, such as "silver" among
 * silver, left out too) or whose hammer lies within PRICE_BAND of the item's estimate (half the
 * low to twice the high). `toAdd` lists what a cataloguer should still give for the category (marks, dimensions,
 * provenance); the draft never invents them.
 */
import { currencyExponent } from '../auctions/auctions.schema.js';
import type { InventoryCategory, InventoryCondition } from './inventory.schema.js';
import { wordsOf, type Sale } from './suggestions.js';

export interface DraftFacts {
  title: string;
  category: InventoryCategory;
  subcategory: string;
  condition: InventoryCondition;
  estimatedValue: { low: number; high: number };
  currency: string;
}

export interface Comparables {
  count: number;
  /** Lowest and highest hammer, minor units of the item's currency. */
  low: number;
  high: number;
}

export interface DescriptionDraft {
  description: string;
  comparables: Comparables | null;
  toAdd: string[];
}

export const COMPARABLE_DAYS = 365;
/** A hammer from half the low estimate to twice the high one is in the item's price range. */
export const PRICE_BAND = { below: 0.5, above: 2 } as const;
/** A word in more than this share of the category's sold lots says nothing of likeness. */
export const DISTINCTIVE_SHARE = 0.5;

const DAY_MS = 24 * 60 * 60 * 1000;

export const CONDITION_PHRASES: Record<InventoryCondition, string> = {
  Excellent: 'excellent condition overall',
  Good: 'good condition, with light wear consistent with age and use',
  Fair: 'fair condition, with visible wear and minor faults',
  Poor: 'poor condition; offered as found',
};

/** What a catalogue entry of the category gives that the item's fields cannot. */
export const DETAILS_TO_ADD: Record<InventoryCategory, readonly string[]> = {
  Furniture: ['wood and origin', 'dimensions (H × W × D)', 'restorations or replaced parts'],
  Art: ['medium and support', 'signature and inscriptions', 'sight size', 'frame'],
  Silver: ["maker's mark and hallmarks", 'weight (troy oz)', 'dimensions'],
  'Jewelry & Watches': [
    'metal and marks',
    'stones and approximate weights',
    'ring size or case diameter',
    'movement, for a watch',
  ],
  Textiles: ['materials and technique', 'dimensions', 'losses, stains or repairs'],
  Ceramics: ['factory or potter marks', 'dimensions', 'chips, cracks or restoration'],
};

const exponentOf = (currency: string) =>
  (currencyExponent as Record<string, number | undefined>)[currency] ?? 2;

/** "$1,800" or "CA$1,250.50": whole amounts without decimals, as catalogues print them. */
export function catalogueMoney(amount: number, currency: string): string {
  const exponent = exponentOf(currency);
  const major = amount / 10 ** exponent;
  const whole = Number.isInteger(major);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: whole ? 0 : exponent,
    maximumFractionDigits: whole ? 0 : exponent,
  }).format(major);
}

/** The house's sold lots like the item, newest first. */
export function comparablesOf(facts: DraftFacts, sales: readonly Sale[], now: Date): Sale[] {
  const since = now.getTime() - COMPARABLE_DAYS * DAY_MS;
  const pool = sales.filter(
    (sale) =>
      sale.category === facts.category &&
      sale.currency === facts.currency &&
      sale.outcome === 'sold' &&
      sale.hammer !== null &&
      Date.parse(sale.closedAt) >= since &&
      Date.parse(sale.closedAt) <= now.getTime(),
  );
  const titles = new Map(pool.map((sale) => [sale, new Set(wordsOf(sale.title))]));
  const words = wordsOf(facts.title).filter(
    (word) =>
      pool.filter((sale) => titles.get(sale)?.has(word)).length <= pool.length * DISTINCTIVE_SHARE,
  );
  const floor = facts.estimatedValue.low * PRICE_BAND.below;
  const ceiling = facts.estimatedValue.high * PRICE_BAND.above;
  return pool
    .filter(
      (sale) =>
        words.some((word) => titles.get(sale)?.has(word)) ||
        ((sale.hammer ?? 0) >= floor && (sale.hammer ?? 0) <= ceiling),
    )
    .sort((a, b) => b.closedAt.localeCompare(a.closedAt) || a.title.localeCompare(b.title));
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function draftDescription(
  facts: DraftFacts,
  sales: readonly Sale[],
  now: Date,
): DescriptionDraft {
  const what = capitalised(facts.subcategory.trim() || facts.category);
  const paragraphs = [`${what}; ${CONDITION_PHRASES[facts.condition]}.`];
  const found = comparablesOf(facts, sales, now);
  let comparables: Comparables | null = null;
  if (found.length > 0) {
    const hammers = found.map((sale) => sale.hammer ?? 0);
    comparables = { count: found.length, low: Math.min(...hammers), high: Math.max(...hammers) };
    const money = (amount: number) => catalogueMoney(amount, facts.currency);
    const range =
      comparables.low === comparables.high
        ? money(comparables.low)
        : `${money(comparables.low)}–${money(comparables.high)}`;
    paragraphs.push(
      `Comparable pieces sold by the house: ${comparables.count} in the last year, hammer ${range}.`,
    );
  }
  return {
    description: paragraphs.join('\n\n'),
    comparables,
    toAdd: [...DETAILS_TO_ADD[facts.category], 'provenance'],
  };
}
