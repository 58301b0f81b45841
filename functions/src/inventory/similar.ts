/**
 * "Suggest similar items" (Settings › Inventory): for one item, the house's other items of its
 * category that are most like it, and its comparable sold lots (the ones its value estimate is
 * made from), each with why. Pure ranking here, the reads in `similarItems`.
 *
 * An item is alike by title (Jaccard similarity of the title words, as the value estimate uses)
 * and by estimate (1 - |log10(their midpoint / this midpoint)|, so the same estimate gives 1 and
 * ten times more or less gives 0; another currency gives 0). Its rank is
 * TITLE_WEIGHT × title + ESTIMATE_WEIGHT × estimate, plus SUBCATEGORY_BONUS for the same
 * subcategory; ties go to the higher suggestion score, then the title.
 */
import type { RequestContext } from '../platform/context.js';
import { inventorySettingsOf } from '../settings/settings.service.js';
import { itemsInCategory, type SimilarFields } from './inventory.repo.js';
import {
  SIMILAR_ITEMS_MAX,
  type InventoryItem,
  type SimilarItem,
  type SimilarResponse,
  type SimilarSale,
} from './inventory.schema.js';
import { getItem, salesOf } from './inventory.service.js';
import { comparablesOf, jaccard, wordsOf, type Sale } from './suggestions.js';

export const TITLE_WEIGHT = 0.6;
export const ESTIMATE_WEIGHT = 0.4;
export const SUBCATEGORY_BONUS = 0.2;

type Target = Pick<
  InventoryItem,
  'id' | 'title' | 'category' | 'subcategory' | 'estimatedValue' | 'currency' | 'condition'
>;

const midpoint = (value: { low: number; high: number }) => (value.low + value.high) / 2;
const quoted = (words: readonly string[]) => words.map((word) => `“${word}”`).join(', ');
const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** How alike two estimates are, 0-1: 1 the same, 0 at ten times apart or in another currency. */
export function estimateCloseness(
  a: { estimatedValue: { low: number; high: number }; currency: string },
  b: { estimatedValue: { low: number; high: number }; currency: string },
): number {
  if (a.currency !== b.currency) return 0;
  const mine = midpoint(a.estimatedValue);
  const theirs = midpoint(b.estimatedValue);
  if (mine <= 0 || theirs <= 0) return mine === theirs ? 1 : 0;
  return Math.max(0, 1 - Math.abs(Math.log10(theirs / mine)));
}

/** "About the same estimate", "Estimate 40% higher", "Estimate 25% lower". */
function estimateReason(target: Target, other: SimilarFields): string | null {
  if (target.currency !== other.currency) return null;
  const mine = midpoint(target.estimatedValue);
  if (mine <= 0) return null;
  const change = midpoint(other.estimatedValue) / mine - 1;
  if (Math.abs(change) < 0.05) return 'About the same estimate';
  return `Estimate ${Math.round(Math.abs(change) * 100)}% ${change > 0 ? 'higher' : 'lower'}`;
}

/** The other items of the target's category most like it, best first, each with why. */
export function rankSimilar(
  target: Target,
  candidates: readonly SimilarFields[],
  count: number = SIMILAR_ITEMS_MAX,
): SimilarItem[] {
  const words = wordsOf(target.title);
  return candidates
    .filter((other) => other.id !== target.id && other.category === target.category)
    .map((other) => {
      const theirs = wordsOf(other.title);
      const shared = words.filter((word) => theirs.includes(word));
      const sameSubcategory =
        target.subcategory.trim() !== '' && sameText(target.subcategory, other.subcategory);
      const rank =
        TITLE_WEIGHT * jaccard(words, theirs) +
        ESTIMATE_WEIGHT * estimateCloseness(target, other) +
        (sameSubcategory ? SUBCATEGORY_BONUS : 0);
      const estimate = estimateReason(target, other);
      const reasons = [
        sameSubcategory
          ? `Also ${other.category} · ${other.subcategory}`
          : `Also ${other.category}`,
        ...(shared.length ? [`Shares ${quoted(shared)} in the title`] : []),
        ...(estimate ? [estimate] : []),
        ...(other.condition === target.condition ? [`Also ${other.condition} condition`] : []),
      ];
      return { other, rank, reasons };
    })
    .sort(
      (a, b) =>
        b.rank - a.rank ||
        b.other.auctionSuggestionScore - a.other.auctionSuggestionScore ||
        a.other.title.localeCompare(b.other.title),
    )
    .slice(0, count)
    .map(({ other, reasons }) => ({
      id: other.id,
      title: other.title,
      subcategory: other.subcategory,
      status: other.status,
      condition: other.condition,
      estimatedValue: { low: other.estimatedValue.low, high: other.estimatedValue.high },
      currency: other.currency as SimilarItem['currency'],
      auctionSuggestionScore: other.auctionSuggestionScore,
      reasons,
    }));
}

/** The house's sold lots most like the target (its value estimate's comparables), each with why. */
export function similarSales(
  target: Pick<Target, 'title' | 'category' | 'currency'>,
  sales: readonly Sale[],
  count: number = SIMILAR_ITEMS_MAX,
): SimilarSale[] {
  return comparablesOf(target, sales, count).map(({ sale, shared }) => {
    const hammer = sale.hammer ?? 0;
    const ratio =
      sale.estimateLow !== null && sale.estimateLow > 0 ? hammer / sale.estimateLow : null;
    return {
      title: sale.title,
      hammer,
      // Sales come from auctions, whose currency is one of theirs.
      currency: sale.currency as SimilarSale['currency'],
      estimateLow: sale.estimateLow,
      estimateHigh: sale.estimateHigh,
      closedAt: sale.closedAt,
      reasons: [
        `Sold as ${target.category}; shares ${quoted(shared)} in the title`,
        ...(ratio === null ? [] : [`Hammered at ${ratio.toFixed(1)}× its low estimate`]),
      ],
    };
  });
}

/**
 * Items and sold lots like the item, when the account suggests similar items; another tenant's
 * item is not found (404) either way.
 */
export async function similarItems(
  ctx: RequestContext,
  id: string,
  now: Date = new Date(),
): Promise<SimilarResponse> {
  const [target, settings] = await Promise.all([getItem(ctx, id), inventorySettingsOf(ctx.scope)]);
  if (!settings.suggestSimilarItems) return { enabled: false, items: [], sold: [] };
  const [candidates, sales] = await Promise.all([
    itemsInCategory(ctx.scope, target.category),
    salesOf(ctx, now),
  ]);
  return {
    enabled: true,
    items: rankSimilar(target, candidates),
    sold: similarSales(target, sales),
  };
}
