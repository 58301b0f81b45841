import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LOT_GROUP_ITEMS, MIN_LOT_GROUP_ITEMS } from './inventory.schema.js';
import {
  MIN_LOT_VALUE,
  groupIdOf,
  groupLotDescription,
  groupLotTitle,
  hammerShares,
  lotThreshold,
  proposeLotGroups,
  type GroupableItem,
} from './lot-groups.js';
import type { Sale } from './suggestions.js';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

const sale = (overrides: Partial<Sale> = {}): Sale => ({
  category: 'Ceramics',
  title: 'Delft charger',
  estimateLow: 100_000,
  estimateHigh: 150_000,
  outcome: 'sold',
  hammer: 160_000,
  currency: 'USD',
  closedAt: daysAgo(30),
  ...overrides,
});

let counter = 0;
const item = (overrides: Partial<GroupableItem> = {}): GroupableItem => {
  counter += 1;
  return {
    id: `item-${String(counter).padStart(3, '0')}`,
    title: `Redware plate ${counter}`,
    category: 'Ceramics',
    subcategory: 'American pottery',
    condition: 'Fair',
    status: 'In Storage',
    estimatedValue: { low: 10_000, high: 15_000 },
    currency: 'USD',
    consignor: null,
    description: '',
    ...overrides,
  };
};

const low = (amount: number) => ({ estimatedValue: { low: amount, high: amount * 2 } });

describe('lotThreshold', () => {
  it('is the currency floor until the house has sold enough of the category', () => {
    const few = [sale(), sale(), sale(), sale()];
    expect(lotThreshold('Ceramics', 'USD', few, now)).toEqual({
      amount: MIN_LOT_VALUE.USD,
      basis:
        "the house's minimum lot value (too few Ceramics lots sold in the last year to learn from)",
    });
    expect(lotThreshold('Ceramics', 'GBP', [], now).amount).toBe(25_000);
    expect(lotThreshold('Ceramics', 'CAD', [], now).amount).toBe(40_000);
  });

  it("is a quarter of the category's median hammer once that is above the floor", () => {
    const hammers = [200_000, 400_000, 600_000, 800_000, 1_000_000];
    const sales = hammers.map((hammer) => sale({ hammer }));
    expect(lotThreshold('Ceramics', 'USD', sales, now)).toEqual({
      amount: 150_000,
      basis:
        'a quarter of the median Ceramics hammer (USD 6,000.00 over 5 lots sold in the last year)',
    });
  });

  it('keeps the floor when a quarter of the median is below it, and reads only sold lots of the last year in the currency', () => {
    const cheap = [1, 2, 3, 4, 5].map(() => sale({ hammer: 40_000 }));
    expect(lotThreshold('Ceramics', 'USD', cheap, now).amount).toBe(MIN_LOT_VALUE.USD);
    const ignored = [
      ...[1, 2, 3, 4].map(() => sale({ hammer: 2_000_000 })),
      sale({ hammer: 2_000_000, closedAt: daysAgo(400) }),
      sale({ hammer: 2_000_000, currency: 'EUR' }),
      sale({ hammer: null, outcome: 'passed' }),
      sale({ hammer: 2_000_000, category: 'Silver' }),
    ];
    expect(lotThreshold('Ceramics', 'USD', ignored, now).amount).toBe(MIN_LOT_VALUE.USD);
  });
});

describe('proposeLotGroups', () => {
  it('groups low-value items of one category, subcategory and consignor into lots that pay their way', () => {
    const [a, b, c, d, e] = [
      item({ ...low(20_000), title: 'Redware pie plate' }),
      item({ ...low(15_000), title: 'Stoneware crock' }),
      item({ ...low(12_000), title: 'Yellowware bowl' }),
      item({ ...low(10_000), title: 'Slipware dish' }),
      item({ ...low(5_000), title: 'Redware cup' }),
    ] as GroupableItem[];
    const groups = proposeLotGroups([e, d, c, b, a] as GroupableItem[], [], now);
    // 200 + 100 reaches 300; 150 takes 120 (nothing completes it), then 50 does: two lots, not
    // the one that 200 + 150 and 120 + 100 + 50 (270) would make.
    expect(groups.map((group) => group.itemIds)).toEqual([
      [b?.id, c?.id, e?.id],
      [a?.id, d?.id],
    ]);
    const [first, second] = groups;
    expect(first).toMatchObject({
      category: 'Ceramics',
      subcategory: 'American pottery',
      currency: 'USD',
      consignor: null,
      threshold: 30_000,
      estimate: { low: 32_000, high: 64_000 },
      title: 'A group of three ceramic pieces (American pottery), including Stoneware crock',
    });
    expect(first?.reasons).toEqual([
      "Each has a low estimate under USD 300.00: the house's minimum lot value (too few Ceramics lots sold in the last year to learn from)",
      'Together estimated USD 320.00–640.00: one lot that pays its way instead of three that do not',
      'All Ceramics, American pottery',
      'All house stock (no consignor)',
    ]);
    expect(second?.reasons[1]).toBe(
      'Together estimated USD 300.00–600.00: one lot that pays its way instead of two that do not',
    );
  });

  it('still proposes a group that stays under the threshold: one lot instead of several', () => {
    const items = [item(low(12_000)), item(low(10_000)), item(low(5_000))];
    const [group] = proposeLotGroups(items, [], now);
    expect(group?.itemIds).toEqual(items.map((one) => one.id));
    expect(group?.reasons[1]).toBe(
      'Together estimated USD 270.00–540.00, still under USD 300.00, but one lot instead of three',
    );
  });

  it('leaves out items at or over the threshold and those that cannot go to auction', () => {
    const items = [
      item(low(30_000)),
      item({ ...low(10_000), status: 'Damaged' }),
      item({ ...low(10_000), status: 'In Auction' }),
      item(low(10_000)),
    ];
    expect(proposeLotGroups(items, [], now)).toEqual([]);
  });

  it('never mixes categories, subcategories, consignors or currencies', () => {
    const items = [
      item(low(10_000)),
      item({ ...low(10_000), subcategory: 'Export porcelain' }),
      item({ ...low(10_000), category: 'Textiles' }),
      item({ ...low(10_000), consignor: { name: 'The Avery Trust' } }),
      item({ ...low(10_000), currency: 'EUR' }),
    ];
    expect(proposeLotGroups(items, [], now)).toEqual([]);
  });

  it('compares subcategories and consignors trimmed and ignoring case', () => {
    const items = [
      item({
        ...low(10_000),
        title: 'A',
        subcategory: 'american Pottery ',
        consignor: { name: 'Avery' },
      }),
      item({ ...low(10_000), title: 'B', consignor: { name: ' avery' } }),
    ];
    const [group] = proposeLotGroups(items, [], now);
    expect(group?.itemIds).toHaveLength(2);
    expect(group?.reasons[3]).toBe('All consigned by Avery');
  });

  it('holds at most six items and folds a lone last item into the group before it', () => {
    const tiny = Array.from({ length: 7 }, () => item(low(1_000)));
    const groups = proposeLotGroups(tiny, [], now);
    expect(groups.map((group) => group.itemIds.length)).toEqual([6]);
    const few = Array.from({ length: 3 }, () => item(low(14_000)));
    // 140 + 140 is under 300, so all three go together.
    expect(proposeLotGroups(few, [], now).map((group) => group.itemIds.length)).toEqual([3]);
    const lone = [item(low(20_000)), item(low(20_000)), item(low(1_000))];
    // 200 + 200 reaches 300; the last joins them.
    expect(proposeLotGroups(lone, [], now).map((group) => group.itemIds.length)).toEqual([3]);
  });

  it('learns the threshold from the house: a quarter of the median hammer', () => {
    const sales = [1, 2, 3, 4, 5].map(() => sale({ hammer: 2_000_000 }));
    // The threshold is 5,000.00: items of 1,000.00 now group, five of them to reach it.
    const items = Array.from({ length: 5 }, () => item(low(100_000)));
    const [group] = proposeLotGroups(items, sales, now);
    expect(group?.threshold).toBe(500_000);
    expect(group?.itemIds).toHaveLength(5);
  });

  it('always proposes 2-6 distinct auctionable items under their threshold, each item once', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            low: fc.nat(50_000),
            subcategory: fc.constantFrom('', 'A', 'B'),
            status: fc.constantFrom('Available', 'In Storage', 'Sold', 'On Hold') as fc.Arbitrary<
              GroupableItem['status']
            >,
          }),
          { maxLength: 40 },
        ),
        (rows) => {
          const items = rows.map((row) =>
            item({ ...low(row.low), subcategory: row.subcategory, status: row.status }),
          );
          const groups = proposeLotGroups(items, [], now);
          const seen = new Set<string>();
          for (const group of groups) {
            expect(group.itemIds.length).toBeGreaterThanOrEqual(MIN_LOT_GROUP_ITEMS);
            expect(group.itemIds.length).toBeLessThanOrEqual(MAX_LOT_GROUP_ITEMS);
            for (const id of group.itemIds) {
              expect(seen.has(id)).toBe(false);
              seen.add(id);
              const member = items.find((candidate) => candidate.id === id);
              expect(['Available', 'In Storage']).toContain(member?.status);
              expect(member?.estimatedValue.low).toBeLessThan(group.threshold);
            }
            expect(group.id).toBe(groupIdOf(group.itemIds));
          }
          expect(proposeLotGroups([...items].reverse(), [], now)).toEqual(groups);
        },
      ),
    );
  });
});

describe('the grouped lot', () => {
  it('names the group in catalogue words and lists each piece', () => {
    const items = [
      item({ title: 'Redware pie plate.', description: 'Pennsylvania; rim chips.' }),
      item({ title: 'Stoneware crock', condition: 'Good', subcategory: 'Stoneware' }),
    ];
    expect(groupLotTitle(items)).toBe(
      'A group of two ceramic pieces, including Redware pie plate.',
    );
    expect(groupLotDescription(items)).toBe(
      'Comprising two pieces:\n' +
        '1. Redware pie plate. Fair condition. Pennsylvania; rim chips.\n' +
        '2. Stoneware crock. Good condition.',
    );
    expect(groupLotTitle([item({ category: 'Silver' }), item()])).toMatch(
      /^A group of two pieces, including/,
    );
  });

  it('gives the same id for the same items in any order', () => {
    expect(groupIdOf(['b', 'a', 'c'])).toBe(groupIdOf(['c', 'b', 'a']));
    expect(groupIdOf(['a', 'b'])).not.toBe(groupIdOf(['a', 'c']));
  });
});

describe('hammerShares', () => {
  it('shares by estimate midpoint and adds up to the hammer exactly', () => {
    const shares = hammerShares(100_001, [
      { id: 'a', low: 10_000, high: 20_000 },
      { id: 'b', low: 20_000, high: 40_000 },
      { id: 'c', low: 30_000, high: 60_000 },
    ]);
    expect([...shares.values()].reduce((sum, share) => sum + share, 0)).toBe(100_001);
    expect(shares.get('a')).toBe(16_667);
    expect(shares.get('b')).toBe(33_334);
    expect(shares.get('c')).toBe(50_000);
  });

  it('shares equally when every estimate is zero', () => {
    const shares = hammerShares(10, [
      { id: 'a', low: 0, high: 0 },
      { id: 'b', low: 0, high: 0 },
      { id: 'c', low: 0, high: 0 },
    ]);
    expect([...shares.values()]).toEqual([4, 3, 3]);
  });

  it('always sums to the hammer with no share negative', () => {
    fc.assert(
      fc.property(
        fc.nat(100_000_000),
        fc.array(fc.record({ low: fc.nat(1_000_000), high: fc.nat(1_000_000) }), {
          minLength: 1,
          maxLength: 6,
        }),
        (hammer, estimates) => {
          const shares = hammerShares(
            hammer,
            estimates.map((estimate, index) => ({ id: String(index), ...estimate })),
          );
          const values = [...shares.values()];
          expect(values.reduce((sum, share) => sum + share, 0)).toBe(hammer);
          expect(values.every((share) => share >= 0 && Number.isInteger(share))).toBe(true);
        },
      ),
    );
  });
});
