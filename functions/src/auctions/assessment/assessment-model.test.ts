import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyStats, preferredCategories } from '../../bidders/bidders.schema.js';
import { autoInviteStatuses, tiers } from '../../scoring/scoring.schema.js';
import { auctionCategories, auctionCategoryLabels } from '../auctions.schema.js';
import { assess, byRank, profileOf, type AssessedBidder } from './assessment-model.js';
import { recommendations } from './assessment.schema.js';

const NOW = new Date('2031-03-01T12:00:00Z');
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

const artSale = profileOf(
  { category: 'art', currency: 'USD' },
  [
    { category: 'Art', estimateLow: 100_000, estimateHigh: 200_000 },
    { category: 'Art', estimateLow: 100_000, estimateHigh: 200_000 },
    { category: 'Art', estimateLow: 100_000, estimateHigh: 200_000 },
    { category: 'Jewelry', estimateLow: 40_000, estimateHigh: null },
  ],
  NOW,
);

const bidder = (overrides: Partial<AssessedBidder> = {}): AssessedBidder => ({
  status: 'Active',
  preferredCategories: ['Art'],
  historyCategories: ['Art', 'Vehicles', 'Art'],
  lotwiseScore: { score: 80, tier: 'Gold' },
  autoInviteStatus: 'Auto-Invite',
  ...overrides,
  stats: {
    ...emptyStats(),
    wins: 4,
    totalWinAmount: 6000,
    paymentsOnTime: 5,
    lastAuction: daysBefore(30),
    ...overrides.stats,
  },
});

describe('the formula, worked by hand', () => {
  it('scores a strong art buyer for an art sale', () => {
    // affinity 50 + 30 × 3/4 + 20 × 2/3 = 85.83; standing 80; recency 100; means 100 (1,500 vs 1,500)
    // match = 0.35 × 85.83 + 0.30 × 80 + 0.15 × 100 + 0.20 × 100 = 89.04
    expect(assess(bidder(), artSale)).toEqual({
      recommendation: 'Auto-Invite',
      matchScore: 89,
      riskLevel: 'Low',
      riskPoints: 0,
      breakdown: { affinity: 86, standing: 80, recency: 100, means: 100 },
      reasons: [
        "Prefers Art, this sale's category",
        '3 of 4 lots in preferred categories',
        '2 earlier sales in Art',
        'Lotwise Score 80 (Gold)',
        'Last auction 30 days ago',
        'Average win $1,500 against a typical estimate of $1,500',
      ],
      aiInsights: 'Strong fit (match 89). Interested in Art. Low risk. Invite without review.',
    });
  });

  it('names each risk and lets a dispute and a default force Skip', () => {
    const risky = assess(
      bidder({ stats: { ...emptyStats(), disputes: 1, priorDefaults: 1 } }),
      artSale,
    );
    expect(risky).toMatchObject({ recommendation: 'Skip', riskLevel: 'High', riskPoints: 6 });
    expect(risky.reasons).toEqual(
      expect.arrayContaining([
        '1 payment default on record',
        '1 dispute on record',
        'No payments on record',
      ]),
    );
    expect(risky.aiInsights).toContain(
      'High risk: 1 payment default on record, 1 dispute on record, no payments on record.',
    );
  });

  it("defers to the house's rules: Manual Review is Consider, Auto-Deny is Skip", () => {
    const review = assess(bidder({ autoInviteStatus: 'Manual Review' }), artSale);
    expect(review.recommendation).toBe('Consider');
    expect(review.reasons).toContain("The house's rules say Manual Review");
    const deny = assess(bidder({ autoInviteStatus: 'Auto-Deny' }), artSale);
    expect(deny.recommendation).toBe('Skip');
    expect(deny.reasons).toContain("The house's rules auto-deny");
  });

  it('reads a sale with no categorised lots by its own category, and one without estimates as neutral', () => {
    const bare = profileOf({ category: 'jewelry', currency: 'EUR' }, [], NOW);
    const watches = assess(
      bidder({ preferredCategories: ['Watches'], historyCategories: [] }),
      bare,
    );
    // 50 + 30 (the category stands for the lots) + 0; means neutral 50.
    expect(watches.breakdown).toEqual({ affinity: 80, standing: 80, recency: 100, means: 50 });
    expect(watches.reasons[0]).toBe("Prefers Watches, this sale's category");
  });

  it('converts estimates with the currency exponent (the yen has none)', () => {
    const yen = profileOf(
      { category: 'art', currency: 'JPY' },
      [{ category: 'Art', estimateLow: 300_000, estimateHigh: 500_000 }],
      NOW,
    );
    expect(yen.typicalEstimate).toBe(400_000);
    expect(assess(bidder(), yen).reasons).toContain(
      'Average win ¥1,500 against a typical estimate of ¥400,000',
    );
  });
});

const categoryArb = fc.constantFrom(...preferredCategories);
const statsArb = fc.record({
  totalAuctionsBid: fc.nat(200),
  totalLotsBid: fc.nat(2000),
  wins: fc.nat(300),
  totalWinAmount: fc.nat(2_000_000),
  paymentsOnTime: fc.nat(100),
  paymentsLate: fc.nat(30),
  paymentsOverdue: fc.nat(5),
  avgDaysToPay: fc.constant(null),
  priorDefaults: fc.nat(3),
  disputes: fc.nat(3),
  referrals: fc.nat(5),
  responseRate: fc.constant(null),
  avgResponseHours: fc.constant(null),
  firstAuction: fc.constant(null),
  lastAuction: fc.option(
    fc.nat(3000).map((days) => daysBefore(days)),
    { nil: null },
  ),
});
const bidderArb: fc.Arbitrary<AssessedBidder> = fc.record({
  status: fc.constantFrom('Active', 'Inactive', 'Suspended', 'Pending'),
  preferredCategories: fc.uniqueArray(categoryArb, { maxLength: 5 }),
  historyCategories: fc.array(
    fc.option(fc.oneof(categoryArb, fc.constantFrom(...Object.values(auctionCategoryLabels))), {
      nil: null,
    }),
    { maxLength: 8 },
  ),
  lotwiseScore: fc.record({
    score: fc.integer({ min: 0, max: 100 }),
    tier: fc.constantFrom(...tiers),
  }),
  autoInviteStatus: fc.constantFrom(...autoInviteStatuses),
  stats: statsArb,
});
const lotArb = fc.record({
  category: fc.option(categoryArb, { nil: null }),
  estimateLow: fc.option(fc.nat(10_000_000), { nil: null }),
  estimateHigh: fc.option(fc.nat(10_000_000), { nil: null }),
});
const profileArb = fc
  .record({
    category: fc.constantFrom(...auctionCategories),
    currency: fc.constantFrom('USD', 'EUR', 'GBP', 'JPY' as const),
    lots: fc.array(lotArb, { maxLength: 30 }),
  })
  .map(({ category, currency, lots }) => profileOf({ category, currency }, lots, NOW));

const rank = (recommendation: string) => recommendations.indexOf(recommendation as never);

describe('properties of the formula', () => {
  it('answers a whole match of 0-100 from parts of 0-100, the same every time', () => {
    fc.assert(
      fc.property(bidderArb, profileArb, (someone, sale) => {
        const first = assess(someone, sale);
        expect(Number.isInteger(first.matchScore)).toBe(true);
        expect(first.matchScore).toBeGreaterThanOrEqual(0);
        expect(first.matchScore).toBeLessThanOrEqual(100);
        for (const part of Object.values(first.breakdown)) {
          expect(part).toBeGreaterThanOrEqual(0);
          expect(part).toBeLessThanOrEqual(100);
        }
        expect(assess(someone, sale)).toEqual(first);
      }),
    );
  });

  it('never auto-invites without a strong match, low risk, an Active record and the house rules', () => {
    fc.assert(
      fc.property(bidderArb, profileArb, (someone, sale) => {
        const { recommendation, matchScore, riskLevel } = assess(someone, sale);
        if (recommendation === 'Auto-Invite') {
          expect(matchScore).toBeGreaterThanOrEqual(75);
          expect(riskLevel).toBe('Low');
          expect(someone.status).toBe('Active');
          expect(someone.autoInviteStatus).toBe('Auto-Invite');
        }
        if (
          someone.status === 'Suspended' ||
          riskLevel === 'High' ||
          someone.autoInviteStatus === 'Auto-Deny'
        ) {
          expect(recommendation).toBe('Skip');
        }
      }),
    );
  });

  it('never ranks a bidder lower for a higher Lotwise Score', () => {
    fc.assert(
      fc.property(bidderArb, profileArb, fc.integer({ min: 1, max: 100 }), (someone, sale, up) => {
        const higher = {
          ...someone,
          lotwiseScore: {
            ...someone.lotwiseScore,
            score: Math.min(100, someone.lotwiseScore.score + up),
          },
        };
        const before = assess(someone, sale);
        const after = assess(higher, sale);
        expect(after.matchScore).toBeGreaterThanOrEqual(before.matchScore);
        expect(rank(after.recommendation)).toBeLessThanOrEqual(rank(before.recommendation));
      }),
    );
  });

  it('never thinks better of a bidder for another dispute or payment default', () => {
    fc.assert(
      fc.property(
        bidderArb,
        profileArb,
        fc.constantFrom('disputes', 'priorDefaults' as const),
        (someone, sale, fact) => {
          const worse = {
            ...someone,
            stats: { ...someone.stats, [fact]: someone.stats[fact] + 1 },
          };
          const before = assess(someone, sale);
          const after = assess(worse, sale);
          expect(after.riskPoints).toBeGreaterThan(before.riskPoints);
          expect(rank(after.recommendation)).toBeGreaterThanOrEqual(rank(before.recommendation));
          expect(after.matchScore).toBe(before.matchScore);
        },
      ),
    );
  });

  it('never lowers the affinity for another preferred category', () => {
    fc.assert(
      fc.property(bidderArb, profileArb, categoryArb, (someone, sale, extra) => {
        const wider = {
          ...someone,
          preferredCategories: [...new Set([...someone.preferredCategories, extra])],
        };
        expect(assess(wider, sale).breakdown.affinity).toBeGreaterThanOrEqual(
          assess(someone, sale).breakdown.affinity,
        );
      }),
    );
  });

  it('orders best first, the same whatever order the bidders came in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ bidder: bidderArb, bidderId: fc.uuid() }), {
          minLength: 2,
          maxLength: 20,
          selector: (entry) => entry.bidderId,
        }),
        profileArb,
        (people, sale) => {
          const entries = people.map(({ bidder: someone, bidderId }) => ({
            bidder: { bidderId, lotwiseScore: someone.lotwiseScore },
            assessment: assess(someone, sale),
          }));
          const sorted = entries.toSorted(byRank);
          expect(entries.toReversed().toSorted(byRank)).toEqual(sorted);
          for (let index = 1; index < sorted.length; index += 1) {
            const [a, b] = [sorted[index - 1]!, sorted[index]!];
            expect(rank(a.assessment.recommendation)).toBeLessThanOrEqual(
              rank(b.assessment.recommendation),
            );
          }
        },
      ),
    );
  });
});
