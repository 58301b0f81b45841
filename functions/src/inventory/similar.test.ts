import { describe, expect, it } from 'vitest';
import type { SimilarFields } from './inventory.repo.js';
import { estimateCloseness, rankSimilar, similarSales } from './similar.js';
import { valueEstimateOf, type Sale } from './suggestions.js';

const target = {
  id: 'target',
  title: 'Pair of Georgian silver candlesticks',
  category: 'Silver' as const,
  subcategory: 'Candlesticks',
  estimatedValue: { low: 400_000, high: 600_000 },
  currency: 'USD' as const,
  condition: 'Excellent' as const,
};

const other = (overrides: Partial<SimilarFields>): SimilarFields => ({
  id: 'other',
  title: 'Sterling tray',
  category: 'Silver',
  subcategory: 'Hollowware',
  estimatedValue: { low: 400_000, high: 600_000 },
  currency: 'USD',
  condition: 'Good',
  status: 'Available',
  auctionSuggestionScore: 70,
  ...overrides,
});

const sale = (overrides: Partial<Sale>): Sale => ({
  category: 'Silver',
  title: 'Sterling teapot',
  estimateLow: 100_000,
  estimateHigh: 160_000,
  outcome: 'sold',
  hammer: 150_000,
  currency: 'USD',
  closedAt: '2026-05-01T00:00:00.000Z',
  ...overrides,
});

describe('estimateCloseness', () => {
  it('is 1 for the same estimate, 0 at ten times apart or in another currency', () => {
    expect(estimateCloseness(target, other({}))).toBe(1);
    expect(
      estimateCloseness(target, other({ estimatedValue: { low: 4_000_000, high: 6_000_000 } })),
    ).toBe(0);
    expect(
      estimateCloseness(target, other({ estimatedValue: { low: 40_000, high: 60_000 } })),
    ).toBe(0);
    expect(estimateCloseness(target, other({ currency: 'EUR' }))).toBe(0);
    const double = estimateCloseness(
      target,
      other({ estimatedValue: { low: 800_000, high: 1_200_000 } }),
    );
    expect(double).toBeCloseTo(1 - Math.log10(2));
  });
});

describe('rankSimilar', () => {
  it('keeps to the category, leaves the item itself out and ranks by title, estimate and subcategory', () => {
    const ranked = rankSimilar(target, [
      other({ id: 'target', title: target.title }),
      other({ id: 'ring', title: 'Georgian silver ring', category: 'Jewelry & Watches' }),
      other({ id: 'tray', title: 'Sterling tray' }),
      other({
        id: 'pair',
        title: 'Georgian silver candlesticks, single',
        estimatedValue: { low: 100_000, high: 150_000 },
      }),
      other({ id: 'sticks', title: 'Brass candlesticks', subcategory: 'candlesticks ' }),
    ]);
    // The same subcategory and estimate outweigh more shared words at a quarter of the value.
    expect(ranked.map((item) => item.id)).toEqual(['sticks', 'pair', 'tray']);
    expect(ranked[0]?.reasons).toEqual([
      'Also Silver · candlesticks ',
      'Shares “candlesticks” in the title',
      'About the same estimate',
    ]);
    expect(ranked[1]?.reasons).toEqual([
      'Also Silver',
      'Shares “georgian”, “silver”, “candlesticks” in the title',
      'Estimate 75% lower',
    ]);
  });

  it('names a shared condition and a higher estimate, and breaks ties by score then title', () => {
    const ranked = rankSimilar(target, [
      other({ id: 'b', title: 'Tray B', auctionSuggestionScore: 60 }),
      other({ id: 'a', title: 'Tray A', auctionSuggestionScore: 60 }),
      other({
        id: 'c',
        title: 'Tray C',
        auctionSuggestionScore: 80,
        condition: 'Excellent',
      }),
      other({ id: 'd', title: 'Tray D', estimatedValue: { low: 600_000, high: 900_000 } }),
    ]);
    expect(ranked.map((item) => item.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(ranked[0]?.reasons).toContain('Also Excellent condition');
    expect(ranked[3]?.reasons).toContain('Estimate 50% higher');
  });

  it('gives at most the count asked for', () => {
    const many = Array.from({ length: 10 }, (_, index) => other({ id: `item-${index}` }));
    expect(rankSimilar(target, many)).toHaveLength(6);
    expect(rankSimilar(target, many, 2)).toHaveLength(2);
    expect(rankSimilar(target, [])).toEqual([]);
  });
});

describe('similarSales', () => {
  const sales = [
    sale({ title: 'Georgian silver candlesticks', hammer: 500_000, estimateLow: 300_000 }),
    sale({ title: 'Sterling candlesticks', hammer: 200_000, estimateLow: null }),
    sale({ title: 'Georgian silver tankard', hammer: 300_000 }),
    sale({ title: 'Georgian candlesticks', outcome: 'passed', hammer: null }),
    sale({ title: 'Georgian candlesticks', currency: 'EUR' }),
    sale({ title: 'Georgian candlesticks', category: 'Furniture' }),
    sale({ title: 'Coin silver beaker', closedAt: '2026-05-02T00:00:00.000Z' }),
    sale({ title: 'Silver porringer', closedAt: '2026-04-01T00:00:00.000Z' }),
    sale({ title: 'Silver cream jug' }),
    sale({ title: 'Sterling tray' }),
  ];

  it('lists the value estimate’s comparables, most alike first, with why', () => {
    const found = similarSales(target, sales);
    expect(found.map((lot) => lot.title)).toEqual([
      'Georgian silver candlesticks',
      'Georgian silver tankard',
      'Sterling candlesticks',
      'Silver porringer',
      'Coin silver beaker',
      'Silver cream jug',
    ]);
    expect(found[0]).toEqual({
      title: 'Georgian silver candlesticks',
      hammer: 500_000,
      currency: 'USD',
      estimateLow: 300_000,
      estimateHigh: 160_000,
      closedAt: '2026-05-01T00:00:00.000Z',
      reasons: [
        'Sold as Silver; shares “georgian”, “silver”, “candlesticks” in the title',
        'Hammered at 1.7× its low estimate',
      ],
    });
    expect(found[2]?.reasons).toEqual(['Sold as Silver; shares “candlesticks” in the title']);
    // The first five are the ones the value estimate takes its median from.
    const estimate = valueEstimateOf(target, sales);
    expect(estimate?.basis).toContain('5 most similar');
    expect(estimate).toMatchObject({ low: 160_000, high: 240_000 });
  });

  it('is empty without a sold lot sharing a word', () => {
    expect(similarSales({ ...target, title: 'Epergne' }, sales)).toEqual([]);
  });
});
