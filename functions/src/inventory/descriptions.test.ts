import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONDITION_PHRASES,
  DETAILS_TO_ADD,
  catalogueMoney,
  comparablesOf,
  draftDescription,
  type DraftFacts,
} from './descriptions.js';
import { inventoryCategories, inventoryConditions } from './inventory.schema.js';
import type { Sale } from './suggestions.js';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

const sale = (overrides: Partial<Sale> = {}): Sale => ({
  category: 'Silver',
  title: 'Georgian silver teapot',
  estimateLow: 150_000,
  estimateHigh: 250_000,
  outcome: 'sold',
  hammer: 180_000,
  currency: 'USD',
  closedAt: daysAgo(30),
  ...overrides,
});

const facts = (overrides: Partial<DraftFacts> = {}): DraftFacts => ({
  title: 'Coin silver pitcher, Boston',
  category: 'Silver',
  subcategory: 'Hollowware',
  condition: 'Good',
  estimatedValue: { low: 180_000, high: 240_000 },
  currency: 'USD',
  ...overrides,
});

describe('catalogueMoney', () => {
  it('prints whole amounts without decimals and keeps cents when there are some', () => {
    expect(catalogueMoney(180_000, 'USD')).toBe('$1,800');
    expect(catalogueMoney(125_050, 'USD')).toBe('$1,250.50');
    expect(catalogueMoney(90_000, 'GBP')).toBe('£900');
    expect(catalogueMoney(40_000, 'CAD')).toBe('CA$400');
  });
});

describe('comparablesOf', () => {
  it('takes sold lots of the category and currency from the last year that share a word or the price range', () => {
    const sales = [
      sale({ title: 'Sterling pitcher', hammer: 900_000 }), // shares "pitcher"
      sale({ title: 'Sterling salver', hammer: 200_000 }), // in the price range
      sale({ title: 'Sterling salver', hammer: 5_000 }), // neither
      sale({ title: 'Silver pitcher', outcome: 'passed', hammer: null }),
      sale({ title: 'Silver pitcher', currency: 'GBP' }),
      sale({ title: 'Silver pitcher', category: 'Ceramics' }),
      sale({ title: 'Silver pitcher', closedAt: daysAgo(400) }),
    ];
    const found = comparablesOf(facts(), sales, now);
    expect(found.map((one) => one.hammer)).toEqual([900_000, 200_000]);
  });

  it('leaves out words most of the sold lots share: "silver" among silver says nothing', () => {
    const sales = [
      sale({ title: 'Silver teapot', hammer: 10_000 }),
      sale({ title: 'Silver tray', hammer: 10_000 }),
      sale({ title: 'Silver pitcher', hammer: 10_000 }),
    ];
    const found = comparablesOf(facts(), sales, now);
    expect(found.map((one) => one.title)).toEqual(['Silver pitcher']);
  });

  it('reads the price range as half the low estimate to twice the high', () => {
    const at = (hammer: number) => comparablesOf(facts(), [sale({ title: 'Tray', hammer })], now);
    expect(at(90_000)).toHaveLength(1);
    expect(at(89_999)).toHaveLength(0);
    expect(at(480_000)).toHaveLength(1);
    expect(at(480_001)).toHaveLength(0);
  });
});

describe('draftDescription', () => {
  it('drafts the catalogue line and the comparables line', () => {
    const draft = draftDescription(
      facts(),
      [
        sale({ hammer: 150_000 }),
        sale({ hammer: 290_000, title: 'Silver pitcher' }),
        sale({ hammer: 210_000, title: 'Silver jug' }),
      ],
      now,
    );
    expect(draft.description).toBe(
      'Hollowware; good condition, with light wear consistent with age and use.\n\n' +
        'Comparable pieces sold by the house: 3 in the last year, hammer $1,500–$2,900.',
    );
    expect(draft.comparables).toEqual({ count: 3, low: 150_000, high: 290_000 });
    expect(draft.toAdd).toEqual([...DETAILS_TO_ADD.Silver, 'provenance']);
  });

  it('says nothing of comparables without any, and uses the category without a subcategory', () => {
    const draft = draftDescription(facts({ subcategory: ' ', condition: 'Poor' }), [], now);
    expect(draft.description).toBe('Silver; poor condition; offered as found.');
    expect(draft.comparables).toBeNull();
  });

  it('prints a single hammer once', () => {
    const draft = draftDescription(facts(), [sale({ hammer: 200_000 })], now);
    expect(draft.description).toContain('1 in the last year, hammer $2,000.');
  });

  it('is deterministic and never empty for any fields', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...inventoryCategories),
        fc.constantFrom(...inventoryConditions),
        fc.string({ maxLength: 40 }),
        fc.nat(10_000_000),
        fc.array(fc.nat(10_000_000), { maxLength: 8 }),
        (category, condition, subcategory, low, hammers) => {
          const input = facts({
            category,
            condition,
            subcategory,
            estimatedValue: { low, high: low * 2 },
          });
          const sales = hammers.map((hammer) => sale({ category, hammer }));
          const first = draftDescription(input, sales, now);
          expect(draftDescription(input, sales, now)).toEqual(first);
          expect(first.description).toContain(CONDITION_PHRASES[condition]);
          if (first.comparables) {
            expect(first.comparables.low).toBeLessThanOrEqual(first.comparables.high);
            expect(first.description).toContain('Comparable pieces sold by the house');
          }
        },
      ),
    );
  });
});
