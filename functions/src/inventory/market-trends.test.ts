import { describe, expect, it } from 'vitest';
import { inventoryCategories } from './inventory.schema.js';
import { figuresOf, marketTrendsOf, monthsUpTo } from './market-trends.js';
import { trendOf, type Sale } from './suggestions.js';

const now = new Date('2026-03-15T12:00:00Z');

const sale = (overrides: Partial<Sale>): Sale => ({
  category: 'Art',
  title: 'Oil on canvas',
  estimateLow: 100_000,
  estimateHigh: 150_000,
  outcome: 'sold',
  hammer: 120_000,
  currency: 'USD',
  closedAt: '2026-03-01T20:00:00.000Z',
  ...overrides,
});

describe('monthsUpTo', () => {
  it('gives the calendar months ending with the current one, across the year', () => {
    expect(monthsUpTo(now)).toEqual([
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
    expect(monthsUpTo(new Date('2026-12-31T23:59:59Z'), 2)).toEqual(['2026-11', '2026-12']);
  });
});

describe('figuresOf', () => {
  it('counts lots and sales, with sell-through and the median hammer over the low estimate', () => {
    expect(
      figuresOf([
        sale({ hammer: 150_000 }),
        sale({ hammer: 90_000 }),
        sale({ hammer: 200_000, estimateLow: null }),
        sale({ hammer: 130_000, estimateLow: 0 }),
        sale({ outcome: 'passed', hammer: null }),
        sale({ hammer: 120_000 }),
      ]),
    ).toEqual({ lots: 6, sold: 5, sellThrough: 0.83, medianPriceRatio: 1.2 });
    expect(figuresOf([sale({ hammer: 150_000 }), sale({ hammer: 90_000 })])).toMatchObject({
      medianPriceRatio: 1.2,
    });
  });

  it('has no ratios without lots or priced sales', () => {
    expect(figuresOf([])).toEqual({ lots: 0, sold: 0, sellThrough: null, medianPriceRatio: null });
    expect(figuresOf([sale({ outcome: 'passed', hammer: null })])).toEqual({
      lots: 1,
      sold: 0,
      sellThrough: 0,
      medianPriceRatio: null,
    });
  });
});

describe('marketTrendsOf', () => {
  const sales = [
    sale({}),
    sale({ outcome: 'passed', hammer: null }),
    sale({ closedAt: '2026-01-31T23:59:59.000Z', hammer: 200_000 }),
    sale({ category: 'Silver', closedAt: '2025-04-01T00:00:00.000Z', hammer: 150_000 }),
    // Before the first month, and after now: outside the figures.
    sale({ closedAt: '2025-03-31T23:59:59.000Z' }),
    sale({ closedAt: '2026-03-20T00:00:00.000Z' }),
  ];

  it('gives every category, each month in order, and the trend its items carry', () => {
    const result = marketTrendsOf(sales, now);
    expect(result.months).toHaveLength(12);
    expect(result.categories.map((entry) => entry.category)).toEqual([...inventoryCategories]);
    const art = result.categories.find((entry) => entry.category === 'Art');
    expect(art).toMatchObject({
      lots: 3,
      sold: 2,
      sellThrough: 0.67,
      medianPriceRatio: 1.6,
      trend: trendOf(sales, 'Art', now).trend,
      trendReason: trendOf(sales, 'Art', now).reason,
    });
    expect(art?.months.map((month) => month.month)).toEqual(result.months);
    expect(art?.months.at(-1)).toEqual({
      month: '2026-03',
      lots: 2,
      sold: 1,
      sellThrough: 0.5,
      medianPriceRatio: 1.2,
    });
    expect(art?.months.at(-3)).toMatchObject({ month: '2026-01', lots: 1, sold: 1 });
    expect(art?.months.at(-2)).toMatchObject({ lots: 0, sellThrough: null });
    const silver = result.categories.find((entry) => entry.category === 'Silver');
    expect(silver?.months[0]).toMatchObject({ month: '2025-04', lots: 1, medianPriceRatio: 1.5 });
    const textiles = result.categories.find((entry) => entry.category === 'Textiles');
    expect(textiles).toMatchObject({ lots: 0, sold: 0, sellThrough: null, medianPriceRatio: null });
  });
});
