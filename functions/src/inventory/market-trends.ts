/**
 * "Market trend analysis" (Settings › Inventory): per inventory category, the house's own results
 * month by month over the last MARKET_TREND_MONTHS calendar months (UTC, the current one last),
 * from the same sales the suggestion scores learn from. For each month and for the whole period:
 * lots clerked, lots sold, sell-through (sold / clerked) and the median of hammer / low estimate
 * over the sold lots that had a low estimate. The category's market trend is the one its items
 * carry (`trendOf` in suggestions.ts).
 */
import type { RequestContext } from '../platform/context.js';
import { inventorySettingsOf } from '../settings/settings.service.js';
import {
  MARKET_TREND_MONTHS,
  inventoryCategories,
  type CategoryTrend,
  type MarketTrendsResponse,
  type TrendFigures,
} from './inventory.schema.js';
import { salesOf } from './inventory.service.js';
import { trendOf, type Sale } from './suggestions.js';

/** The `count` calendar months (UTC) ending with `now`'s, oldest first: "2026-01". */
export function monthsUpTo(now: Date, count: number = MARKET_TREND_MONTHS): string[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(year, month - (count - 1 - index), 1)).toISOString().slice(0, 7),
  );
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Two decimals are all a ratio or a share needs on screen. */
const rounded = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** The figures of a set of clerked lots. */
export function figuresOf(sales: readonly Sale[]): TrendFigures {
  const sold = sales.filter((sale) => sale.outcome === 'sold');
  const ratios = sold.flatMap((sale) =>
    sale.hammer !== null && sale.estimateLow !== null && sale.estimateLow > 0
      ? [sale.hammer / sale.estimateLow]
      : [],
  );
  return {
    lots: sales.length,
    sold: sold.length,
    sellThrough: sales.length ? rounded(sold.length / sales.length) : null,
    medianPriceRatio: rounded(median(ratios)),
  };
}

/** Every category's figures per month and over the months, with its market trend. */
export function marketTrendsOf(
  sales: readonly Sale[],
  now: Date,
  count: number = MARKET_TREND_MONTHS,
): { months: string[]; categories: CategoryTrend[] } {
  const months = monthsUpTo(now, count);
  const first = months[0] ?? '';
  const inWindow = sales.filter((sale) => {
    const month = sale.closedAt.slice(0, 7);
    return month >= first && sale.closedAt <= now.toISOString();
  });
  const categories = inventoryCategories.map((category): CategoryTrend => {
    const ofCategory = inWindow.filter((sale) => sale.category === category);
    const { trend, reason } = trendOf(sales, category, now);
    return {
      category,
      trend,
      trendReason: reason,
      ...figuresOf(ofCategory),
      months: months.map((month) => ({
        month,
        ...figuresOf(ofCategory.filter((sale) => sale.closedAt.startsWith(month))),
      })),
    };
  });
  return { months, categories };
}

/** The house's market trends, when the account analyses them; `{ enabled: false }` otherwise. */
export async function marketTrends(
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<MarketTrendsResponse> {
  const settings = await inventorySettingsOf(ctx.scope);
  if (!settings.marketTrendAnalysis) return { enabled: false };
  const sales = await salesOf(ctx, now);
  return { enabled: true, ...marketTrendsOf(sales, now), generatedAt: now.toISOString() };
}
