/**
 * The inventory's "AI": a small, explainable model fed by the house's own sales. Pure and
 * deterministic (the caller passes `now`), so the same history always gives the same answer.
 *
 * Input: the clerked lots of the account's Completed auctions (`Sale`), each with the inventory
 * category it belongs to, its estimates, outcome, hammer, currency and when its auction closed.
 *
 * Category performance. Every sale is weighted by recency, w = 0.5^(age days / 180) (half-life
 * HALF_LIFE_DAYS). For a category:
 *   - sell-through = weighted share of lots sold;
 *   - price ratio  = weighted mean of hammer / low estimate over sold lots with a low estimate
 *                    (each ratio capped at MAX_PRICE_RATIO).
 * Both are shrunk towards the category's prior (CATEGORY_PRIORS, typical auction-house figures)
 * as if PRIOR_WEIGHT sales at the prior had been seen: with no history the prior rules, with
 * plenty the house's own record does. Under MIN_HISTORY_LOTS lots the reasons say so.
 *
 * Auction suggestion score, 0-100 (rounded), the sum of:
 *   - demand      40 × sell-through;
 *   - price       20 × clamp((price ratio - 0.5) / 1.5): 0.5× the low estimate gives 0, 2× gives 20;
 *   - condition   15 × Excellent 1, Good 0.75, Fair 0.45, Poor 0.15;
 *   - value       10 × clamp(log10(estimate midpoint in major units) / 4): 10,000.00 or more gives 10;
 *   - storage     15 × clamp(days since acquired / 365): a year in storage or more gives 15.
 *
 * Market trend: the performance index P = sell-through × min(price ratio, 2) of the last 180 days
 * (RECENT_DAYS) against the 180-730 days before (each shrunk to the prior as above). By the recent
 * P: Hot >= 0.9, Warm >= 0.7, Cool >= 0.45, else Cold; then one step up when P rose by
 * TREND_SHIFT (0.2) or more against the older window, one step down when it fell by as much.
 *
 * Value estimate: the k (VALUE_NEIGHBOURS = 5) sold lots of the same category and currency whose
 * titles share the most words with the item (Jaccard similarity on words of 3+ letters, common
 * words left out); at least MIN_COMPARABLES sharing a word are needed. The estimate is the median
 * hammer m as low = 0.8 m, high = 1.2 m.
 *
 * Auto-categorisation: each title word votes for the categories whose keyword list holds it (1
 * vote) and for the categories of the house's sold lots whose titles held it (up to 1 vote, split
 * by how often). The most votes wins; no votes, no suggestion.
 */
import {
  inventoryCategories,
  marketTrends,
  type InventoryCategory,
  type InventoryCondition,
  type MarketTrend,
} from './inventory.schema.js';

export interface Sale {
  category: InventoryCategory;
  title: string;
  estimateLow: number | null;
  estimateHigh: number | null;
  outcome: 'sold' | 'passed';
  hammer: number | null;
  currency: string;
  /** When its auction closed (ISO). */
  closedAt: string;
}

export interface ScoredItem {
  title: string;
  category: InventoryCategory;
  estimatedValue: { low: number; high: number };
  condition: InventoryCondition;
  /** YYYY-MM-DD. */
  acquiredDate: string;
  currency: string;
}

export interface Suggestion {
  score: number;
  trend: MarketTrend;
  reasons: string[];
}

export const HALF_LIFE_DAYS = 180;
export const PRIOR_WEIGHT = 3;
export const MIN_HISTORY_LOTS = 5;
export const MAX_PRICE_RATIO = 5;
export const RECENT_DAYS = 180;
export const OLDER_DAYS = 730;
/** Sales older than this teach nothing more (their weight is below 6%). */
export const HISTORY_DAYS = 730;
export const TREND_SHIFT = 0.2;
export const TREND_THRESHOLDS = { Hot: 0.9, Warm: 0.7, Cool: 0.45 } as const;
export const VALUE_NEIGHBOURS = 5;
export const MIN_COMPARABLES = 3;

export const WEIGHTS = { demand: 40, price: 20, condition: 15, value: 10, storage: 15 } as const;

export const CONDITION_FACTORS: Record<InventoryCondition, number> = {
  Excellent: 1,
  Good: 0.75,
  Fair: 0.45,
  Poor: 0.15,
};

/** Typical sell-through and hammer / low estimate per category, before the house has history. */
export const CATEGORY_PRIORS: Record<InventoryCategory, { sellThrough: number; ratio: number }> = {
  Furniture: { sellThrough: 0.65, ratio: 1.0 },
  Art: { sellThrough: 0.7, ratio: 1.1 },
  Silver: { sellThrough: 0.7, ratio: 1.05 },
  'Jewelry & Watches': { sellThrough: 0.8, ratio: 1.2 },
  Textiles: { sellThrough: 0.55, ratio: 0.9 },
  Ceramics: { sellThrough: 0.6, ratio: 0.95 },
};

const wordList = (list: string) => list.split(' ');

export const CATEGORY_KEYWORDS: Record<InventoryCategory, readonly string[]> = {
  Furniture: wordList(
    'chair chairs table desk cabinet chest dresser sofa settee bench bookcase commode armoire wardrobe stool sideboard bureau console bed secretary credenza armchair highboy lowboy mahogany walnut oak',
  ),
  Art: wordList(
    'painting oil canvas watercolor watercolour print lithograph etching drawing portrait landscape sculpture signed framed gouache pastel engraving still artist',
  ),
  Silver: wordList(
    'silver sterling silverplate candlestick candlesticks teapot tray flatware salver tankard goblet cutlery epergne tureen hallmarked georgian',
  ),
  'Jewelry & Watches': wordList(
    'ring necklace bracelet brooch earrings pendant watch wristwatch rolex omega cartier diamond pearl pearls sapphire emerald ruby cufflinks carat jewelry jewellery chronograph',
  ),
  Textiles: wordList(
    'rug carpet quilt tapestry textile silk embroidery embroidered kilim shawl linen sampler coverlet needlepoint lace kimono persian',
  ),
  Ceramics: wordList(
    'porcelain ceramic pottery vase bowl plate stoneware earthenware faience majolica figurine jug delft celadon teacup meissen wedgwood dinner service glazed',
  ),
};

const STOP_WORDS = new Set(
  wordList(
    'the and with for from pair set two three four one large small antique vintage century style circa early late fine its',
  ),
);

const DAY_MS = 24 * 60 * 60 * 1000;
const clamp = (value: number, low = 0, high = 1) => Math.min(high, Math.max(low, value));
const ageDays = (at: string, now: Date) => Math.max(0, (now.getTime() - Date.parse(at)) / DAY_MS);
const percent = (share: number) => `${Math.round(share * 100)}%`;
const times = (ratio: number) => `${ratio.toFixed(1)}×`;

/** Lower-cased words of 3+ letters, common words left out. */
export function wordsOf(title: string): string[] {
  return [
    ...new Set(
      title
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((word) => word.length >= 3 && !STOP_WORDS.has(word)),
    ),
  ];
}

interface Performance {
  sellThrough: number;
  ratio: number;
  /** Lots (unweighted) the figures come from. */
  lots: number;
}

/** A category's shrunk sell-through and price ratio over sales aged [fromDays, toDays). */
export function performanceOf(
  sales: readonly Sale[],
  category: InventoryCategory,
  now: Date,
  fromDays = 0,
  toDays = HISTORY_DAYS,
): Performance {
  const prior = CATEGORY_PRIORS[category];
  let weight = 0;
  let soldWeight = 0;
  let ratioWeight = 0;
  let ratioSum = 0;
  let lots = 0;
  for (const sale of sales) {
    if (sale.category !== category) continue;
    const age = ageDays(sale.closedAt, now);
    if (age < fromDays || age >= toDays) continue;
    const w = 0.5 ** (age / HALF_LIFE_DAYS);
    lots += 1;
    weight += w;
    if (sale.outcome !== 'sold') continue;
    soldWeight += w;
    if (sale.hammer !== null && sale.estimateLow !== null && sale.estimateLow > 0) {
      ratioWeight += w;
      ratioSum += w * Math.min(MAX_PRICE_RATIO, sale.hammer / sale.estimateLow);
    }
  }
  return {
    sellThrough: (soldWeight + PRIOR_WEIGHT * prior.sellThrough) / (weight + PRIOR_WEIGHT),
    ratio: (ratioSum + PRIOR_WEIGHT * prior.ratio) / (ratioWeight + PRIOR_WEIGHT),
    lots,
  };
}

const indexOf = (performance: Performance) =>
  performance.sellThrough * Math.min(performance.ratio, 2);

/** The category's market trend and the sentence that explains it. */
export function trendOf(
  sales: readonly Sale[],
  category: InventoryCategory,
  now: Date,
): { trend: MarketTrend; reason: string } {
  const recent = indexOf(performanceOf(sales, category, now, 0, RECENT_DAYS));
  const older = indexOf(performanceOf(sales, category, now, RECENT_DAYS, OLDER_DAYS));
  let level =
    recent >= TREND_THRESHOLDS.Hot
      ? 0
      : recent >= TREND_THRESHOLDS.Warm
        ? 1
        : recent >= TREND_THRESHOLDS.Cool
          ? 2
          : 3;
  const change = recent - older;
  if (change >= TREND_SHIFT) level -= 1;
  if (change <= -TREND_SHIFT) level += 1;
  const trend = marketTrends[Math.min(3, Math.max(0, level))] as MarketTrend;
  const direction =
    change >= TREND_SHIFT
      ? 'up on the year before'
      : change <= -TREND_SHIFT
        ? 'down on the year before'
        : 'steady against the year before';
  return {
    trend,
    reason: `Market trend ${trend}: ${category} results in the last 6 months are ${direction}`,
  };
}

/** The auction suggestion score (0-100), market trend and the reasons for both. */
export function suggest(item: ScoredItem, sales: readonly Sale[], now: Date): Suggestion {
  const performance = performanceOf(sales, item.category, now);
  const prior = CATEGORY_PRIORS[item.category];
  const midpointMajor = (item.estimatedValue.low + item.estimatedValue.high) / 2 / 100;
  const storedDays = ageDays(`${item.acquiredDate}T00:00:00Z`, now);
  const parts = {
    demand: WEIGHTS.demand * clamp(performance.sellThrough),
    price: WEIGHTS.price * clamp((performance.ratio - 0.5) / 1.5),
    condition: WEIGHTS.condition * CONDITION_FACTORS[item.condition],
    value: WEIGHTS.value * clamp(Math.log10(Math.max(1, midpointMajor)) / 4),
    storage: WEIGHTS.storage * clamp(storedDays / 365),
  };
  const total = Object.values(parts).reduce((sum, part) => sum + part, 0);
  const score = Math.round(clamp(total, 0, 100));
  const { trend, reason: trendReason } = trendOf(sales, item.category, now);

  const reasons: string[] = [];
  const lastYear = sales.filter(
    (sale) => sale.category === item.category && ageDays(sale.closedAt, now) < 365,
  );
  if (performance.lots >= MIN_HISTORY_LOTS && lastYear.length > 0) {
    const sold = lastYear.filter((sale) => sale.outcome === 'sold');
    const priced = sold.filter(
      (sale) => sale.hammer !== null && sale.estimateLow !== null && sale.estimateLow > 0,
    );
    const ratio = priced.length
      ? priced.reduce(
          (sum, sale) =>
            sum + Math.min(MAX_PRICE_RATIO, (sale.hammer ?? 0) / (sale.estimateLow ?? 1)),
          0,
        ) / priced.length
      : performance.ratio;
    reasons.push(
      `${item.category} sold ${percent(sold.length / lastYear.length)} of lots in the last year, at ${times(ratio)} the low estimate`,
    );
  } else {
    reasons.push(
      `Too little sale history for ${item.category} (${performance.lots} lot${performance.lots === 1 ? '' : 's'}): using typical figures of ${percent(prior.sellThrough)} sold at ${times(prior.ratio)} the low estimate`,
    );
  }
  reasons.push(
    item.condition === 'Excellent' || item.condition === 'Good'
      ? `${item.condition} condition supports the price`
      : `${item.condition} condition holds the price back`,
  );
  if (storedDays >= 180) {
    reasons.push(`In storage ${Math.floor(storedDays)} days: time to bring it to sale`);
  }
  if (midpointMajor >= 10_000) reasons.push('High estimate value draws serious bidders');
  reasons.push(trendReason);
  return { score, trend, reasons };
}

/** The median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** How alike two word lists are: shared words over all words (0-1). */
export const jaccard = (a: readonly string[], b: readonly string[]) => {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  const shared = b.filter((word) => set.has(word)).length;
  return shared / (a.length + b.length - shared);
};

/** A sold lot like an item, how alike their titles are (0-1) and the words they share. */
export interface Comparable {
  sale: Sale;
  similarity: number;
  shared: string[];
}

/**
 * The house's sold lots most like the item, most alike first (then the newest): the same category
 * and currency, sharing at least one title word. The value estimate is made from these.
 */
export function comparablesOf(
  item: Pick<ScoredItem, 'title' | 'category' | 'currency'>,
  sales: readonly Sale[],
  count: number = VALUE_NEIGHBOURS,
): Comparable[] {
  const words = wordsOf(item.title);
  return sales
    .filter(
      (sale) =>
        sale.category === item.category &&
        sale.currency === item.currency &&
        sale.outcome === 'sold' &&
        sale.hammer !== null,
    )
    .map((sale) => {
      const theirs = wordsOf(sale.title);
      return {
        sale,
        similarity: jaccard(words, theirs),
        shared: words.filter((word) => theirs.includes(word)),
      };
    })
    .filter((candidate) => candidate.similarity > 0)
    .sort(
      (a, b) =>
        b.similarity - a.similarity ||
        b.sale.closedAt.localeCompare(a.sale.closedAt) ||
        a.sale.title.localeCompare(b.sale.title),
    )
    .slice(0, count);
}

/** An estimate from comparable sold lots, or null without enough of them. */
export function valueEstimateOf(
  item: Pick<ScoredItem, 'title' | 'category' | 'currency'>,
  sales: readonly Sale[],
): { low: number; high: number; basis: string } | null {
  const comparables = comparablesOf(item, sales);
  if (comparables.length < MIN_COMPARABLES) return null;
  const middle = median(comparables.map((candidate) => candidate.sale.hammer ?? 0));
  return {
    low: Math.round(middle * 0.8),
    high: Math.round(middle * 1.2),
    basis: `Median hammer of the ${comparables.length} most similar ${item.category} lots sold`,
  };
}

/** The category a title suggests, from keywords and the house's sold lots; null with no clue. */
export function suggestCategory(
  title: string,
  sales: readonly Pick<Sale, 'category' | 'title'>[],
): InventoryCategory | null {
  const words = wordsOf(title);
  if (words.length === 0) return null;
  const learned = new Map<string, Map<InventoryCategory, number>>();
  const wanted = new Set(words);
  for (const sale of sales) {
    for (const word of wordsOf(sale.title)) {
      if (!wanted.has(word)) continue;
      const counts = learned.get(word) ?? new Map<InventoryCategory, number>();
      counts.set(sale.category, (counts.get(sale.category) ?? 0) + 1);
      learned.set(word, counts);
    }
  }
  const votes = new Map<InventoryCategory, number>();
  const vote = (category: InventoryCategory, amount: number) =>
    votes.set(category, (votes.get(category) ?? 0) + amount);
  for (const word of words) {
    for (const category of inventoryCategories) {
      if (CATEGORY_KEYWORDS[category].includes(word)) vote(category, 1);
    }
    const counts = learned.get(word);
    if (!counts) continue;
    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    for (const [category, count] of counts) vote(category, count / total);
  }
  let best: InventoryCategory | null = null;
  for (const category of inventoryCategories) {
    if ((votes.get(category) ?? 0) > (best ? (votes.get(best) ?? 0) : 0)) best = category;
  }
  return best;
}
