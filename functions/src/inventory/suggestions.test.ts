import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  inventoryCategories,
  inventoryConditions,
  type InventoryCategory,
} from './inventory.schema.js';
import { photoTypeOf } from './photo-content.js';
import {
  CATEGORY_PRIORS,
  performanceOf,
  suggest,
  suggestCategory,
  trendOf,
  valueEstimateOf,
  wordsOf,
  type Sale,
  type ScoredItem,
} from './suggestions.js';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

const sale = (overrides: Partial<Sale> = {}): Sale => ({
  category: 'Jewelry & Watches',
  title: 'Diamond ring',
  estimateLow: 100_000,
  estimateHigh: 150_000,
  outcome: 'sold',
  hammer: 130_000,
  currency: 'USD',
  closedAt: daysAgo(30),
  ...overrides,
});

const item = (overrides: Partial<ScoredItem> = {}): ScoredItem => ({
  title: 'Sapphire and diamond ring',
  category: 'Jewelry & Watches',
  estimatedValue: { low: 200_000, high: 300_000 },
  condition: 'Good',
  acquiredDate: '2026-01-01',
  currency: 'USD',
  ...overrides,
});

const saleArbitrary = fc.record({
  category: fc.constantFrom(...inventoryCategories),
  title: fc.constantFrom('Diamond ring', 'Oak chest', 'Silver teapot', 'Oil painting', 'Rug'),
  estimateLow: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
  estimateHigh: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
  outcome: fc.constantFrom('sold' as const, 'passed' as const),
  hammer: fc.option(fc.integer({ min: 1, max: 50_000_000 }), { nil: null }),
  currency: fc.constantFrom('USD', 'EUR'),
  closedAt: fc.integer({ min: 0, max: 1000 }).map(daysAgo),
});

const itemArbitrary = fc.record({
  title: fc.string({ maxLength: 40 }),
  category: fc.constantFrom(...inventoryCategories),
  estimatedValue: fc
    .tuple(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 1_000_000_000 }))
    .map(([a, b]) => ({ low: Math.min(a, b), high: Math.max(a, b) })),
  condition: fc.constantFrom(...inventoryConditions),
  acquiredDate: fc.integer({ min: 0, max: 5000 }).map((days) => daysAgo(days).slice(0, 10)),
  currency: fc.constant('USD'),
});

describe('auction suggestion score', () => {
  it('is always a whole number from 0 to 100', () => {
    fc.assert(
      fc.property(itemArbitrary, fc.array(saleArbitrary, { maxLength: 40 }), (scored, sales) => {
        const { score } = suggest(scored, sales, now);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('never falls as the condition improves (Excellent > Good > Fair > Poor)', () => {
    fc.assert(
      fc.property(itemArbitrary, fc.array(saleArbitrary, { maxLength: 20 }), (scored, sales) => {
        const scores = [...inventoryConditions]
          .reverse()
          .map((condition) => suggest({ ...scored, condition }, sales, now).score);
        for (let index = 1; index < scores.length; index += 1) {
          expect(scores[index]).toBeGreaterThanOrEqual(scores[index - 1] as number);
        }
      }),
    );
  });

  it('never falls with longer time in storage', () => {
    fc.assert(
      fc.property(
        itemArbitrary,
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 2000 }),
        (scored, a, b) => {
          const [shorter, longer] = [Math.min(a, b), Math.max(a, b)];
          const at = (days: number) => daysAgo(days).slice(0, 10);
          expect(
            suggest({ ...scored, acquiredDate: at(longer) }, [], now).score,
          ).toBeGreaterThanOrEqual(
            suggest({ ...scored, acquiredDate: at(shorter) }, [], now).score,
          );
        },
      ),
    );
  });

  it('is deterministic for the same input and moment', () => {
    const sales = [sale(), sale({ outcome: 'passed', hammer: null })];
    expect(suggest(item(), sales, now)).toEqual(suggest(item(), sales, now));
  });

  it('rises when the category sells well and falls when it does not', () => {
    const strong = Array.from({ length: 20 }, () => sale({ hammer: 200_000 }));
    const weak = Array.from({ length: 20 }, () => sale({ outcome: 'passed', hammer: null }));
    expect(suggest(item(), strong, now).score).toBeGreaterThan(suggest(item(), [], now).score);
    expect(suggest(item(), weak, now).score).toBeLessThan(suggest(item(), [], now).score);
  });

  it('explains itself from the house record, or says it falls back to typical figures', () => {
    const sales = [
      ...Array.from({ length: 11 }, () => sale({ hammer: 130_000 })),
      sale({ outcome: 'passed', hammer: null }),
    ];
    expect(suggest(item(), sales, now).reasons[0]).toBe(
      'Jewelry & Watches sold 92% of lots in the last year, at 1.3× the low estimate',
    );
    expect(suggest(item(), [], now).reasons[0]).toBe(
      'Too little sale history for Jewelry & Watches (0 lots): using typical figures of 80% sold at 1.2× the low estimate',
    );
  });

  it('weights recent sales more than old ones (half-life 180 days)', () => {
    const recentSold = [
      sale({ closedAt: daysAgo(10) }),
      sale({ outcome: 'passed', hammer: null, closedAt: daysAgo(400) }),
    ];
    const recentPassed = [
      sale({ closedAt: daysAgo(400) }),
      sale({ outcome: 'passed', hammer: null, closedAt: daysAgo(10) }),
    ];
    const category: InventoryCategory = 'Jewelry & Watches';
    expect(performanceOf(recentSold, category, now).sellThrough).toBeGreaterThan(
      performanceOf(recentPassed, category, now).sellThrough,
    );
  });

  it('with no history equals the prior', () => {
    const performance = performanceOf([], 'Textiles', now);
    expect(performance.sellThrough).toBeCloseTo(CATEGORY_PRIORS.Textiles.sellThrough);
    expect(performance.ratio).toBeCloseTo(CATEGORY_PRIORS.Textiles.ratio);
  });
});

describe('market trend', () => {
  it('follows the priors with no history', () => {
    expect(trendOf([], 'Jewelry & Watches', now).trend).toBe('Hot');
    expect(trendOf([], 'Furniture', now).trend).toBe('Cool');
    expect(trendOf([], 'Art', now).trend).toBe('Warm');
  });

  it('is Hot for a category selling everything above estimate lately, Cold for one passing', () => {
    const hot = Array.from({ length: 20 }, () => sale({ category: 'Textiles', hammer: 200_000 }));
    const cold = Array.from({ length: 20 }, () =>
      sale({ category: 'Textiles', outcome: 'passed', hammer: null }),
    );
    expect(trendOf(hot, 'Textiles', now).trend).toBe('Hot');
    expect(trendOf(cold, 'Textiles', now).trend).toBe('Cold');
  });

  it('steps down when recent results fell against the year before', () => {
    const older = Array.from({ length: 20 }, () =>
      sale({ category: 'Art', hammer: 200_000, closedAt: daysAgo(300) }),
    );
    const recent = Array.from({ length: 20 }, (_, index) =>
      sale({
        category: 'Art',
        outcome: index % 4 === 0 ? 'passed' : 'sold',
        hammer: index % 4 === 0 ? null : 100_000,
        closedAt: daysAgo(20),
      }),
    );
    const { trend, reason } = trendOf([...older, ...recent], 'Art', now);
    expect(trend).toBe('Cool');
    expect(reason).toContain('down on the year before');
  });
});

describe('value estimate', () => {
  it('is the median hammer of the most similar sold lots, ±20%', () => {
    const sales = [
      sale({ title: 'Diamond solitaire ring', hammer: 100_000 }),
      sale({ title: 'Sapphire ring', hammer: 200_000 }),
      sale({ title: 'Diamond and sapphire ring', hammer: 300_000 }),
      sale({ title: 'Gold bracelet', hammer: 9_000_000 }),
      sale({ title: 'Diamond ring', currency: 'EUR', hammer: 9_000_000 }),
    ];
    expect(valueEstimateOf(item(), sales)).toEqual({
      low: 160_000,
      high: 240_000,
      basis: 'Median hammer of the 3 most similar Jewelry & Watches lots sold',
    });
  });

  it('is null with too few comparables', () => {
    expect(valueEstimateOf(item(), [sale(), sale()])).toBeNull();
  });
});

describe('auto-categorisation', () => {
  it('reads the category from title keywords', () => {
    expect(suggestCategory('Georgian sterling teapot', [])).toBe('Silver');
    expect(suggestCategory('Meissen porcelain vase', [])).toBe('Ceramics');
    expect(suggestCategory('Mahogany writing desk', [])).toBe('Furniture');
    expect(suggestCategory('Persian silk rug', [])).toBe('Textiles');
  });

  it("learns words from the house's sold lots", () => {
    const sales = [sale({ category: 'Art', title: 'Hudson River school view' })];
    expect(suggestCategory('Hudson River view', sales)).toBe('Art');
  });

  it('suggests nothing without a clue', () => {
    expect(suggestCategory('Miscellaneous box', [])).toBeNull();
    expect(suggestCategory('', [])).toBeNull();
  });

  it('splits titles into meaningful words', () => {
    expect(wordsOf('A pair of Georgian silver-plated candlesticks, c. 1790')).toEqual([
      'georgian',
      'silver',
      'plated',
      'candlesticks',
      '1790',
    ]);
  });
});

describe('photo content', () => {
  it('recognises JPEG, PNG and WebP by their bytes and nothing else', () => {
    expect(photoTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(photoTypeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe(
      'image/png',
    );
    expect(photoTypeOf(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(photoTypeOf(Buffer.from('just some text renamed to photo.jpg'))).toBeUndefined();
  });
});
