import { describe, expect, it } from 'vitest';
import {
  autoInviteStatusOf,
  lotwiseScore,
  scoreComponentsOf,
  scoreWith,
  tierOf,
  weightedScore,
  type BidderFacts,
  type ScoreResult,
} from './score-formula.js';
import {
  DEFAULT_AUTOMATION,
  DEFAULT_CUSTOM_TIERS,
  DEFAULT_CUSTOM_WEIGHTS,
  LOTWISE_TIERS,
  LOTWISE_WEIGHTS,
  scoreComponents,
  type AutomationRules,
  type ScoreComponent,
  type Tier,
} from './scoring.schema.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

/** A bidder with nothing on record. */
const facts = (overrides: Partial<BidderFacts> = {}): BidderFacts => ({
  totalAuctionsBid: 0,
  totalLotsBid: 0,
  wins: 0,
  totalWinAmount: 0,
  paymentsOnTime: 0,
  paymentsLate: 0,
  paymentsOverdue: 0,
  avgDaysToPay: null,
  priorDefaults: 0,
  disputes: 0,
  referrals: 0,
  responseRate: null,
  avgResponseHours: null,
  firstAuction: null,
  lastAuction: null,
  ...overrides,
});

const component = (name: ScoreComponent, overrides: Partial<BidderFacts>) =>
  scoreComponentsOf(facts(overrides), NOW)[name];

describe('paymentHistory', () => {
  it('is a neutral 50 with no payments, defaults or overdue payments', () => {
    expect(component('paymentHistory', {})).toBe(50);
  });

  it('is the share of payments made on time', () => {
    expect(component('paymentHistory', { paymentsOnTime: 8, paymentsLate: 2 })).toBe(80);
    expect(component('paymentHistory', { paymentsOnTime: 10 })).toBe(100);
    expect(component('paymentHistory', { paymentsLate: 4 })).toBe(0);
  });

  it('costs 1.5 points a day beyond a week to pay, at most 30', () => {
    const base = { paymentsOnTime: 10, paymentsLate: 0 };
    expect(component('paymentHistory', { ...base, avgDaysToPay: 7 })).toBe(100);
    expect(component('paymentHistory', { ...base, avgDaysToPay: 17 })).toBe(85);
    expect(component('paymentHistory', { ...base, avgDaysToPay: 27 })).toBe(70);
    expect(component('paymentHistory', { ...base, avgDaysToPay: 400 })).toBe(70);
  });

  it('costs 15 per overdue payment (at most 45) and 25 per default (at most 50)', () => {
    const base = { paymentsOnTime: 10 };
    expect(component('paymentHistory', { ...base, paymentsOverdue: 1 })).toBe(85);
    expect(component('paymentHistory', { ...base, paymentsOverdue: 3 })).toBe(55);
    expect(component('paymentHistory', { ...base, paymentsOverdue: 9 })).toBe(55);
    expect(component('paymentHistory', { ...base, priorDefaults: 1 })).toBe(75);
    expect(component('paymentHistory', { ...base, priorDefaults: 5 })).toBe(50);
  });

  it('starts a defaulter with no payments from 50 and never goes below 0', () => {
    expect(component('paymentHistory', { priorDefaults: 1 })).toBe(25);
    expect(component('paymentHistory', { paymentsOverdue: 1 })).toBe(35);
    expect(
      component('paymentHistory', {
        paymentsLate: 5,
        avgDaysToPay: 90,
        paymentsOverdue: 3,
        priorDefaults: 2,
      }),
    ).toBe(0);
  });
});

describe('bidActivity', () => {
  it('is neutral with no lots and no auctions, and scores what evidence there is', () => {
    expect(component('bidActivity', {})).toBe(50);
    expect(component('bidActivity', { totalAuctionsBid: 1, lastAuction: daysAgo(400) })).toBe(0);
  });

  it('reaches 60 for volume at 200 lots, on a log scale, and no further', () => {
    expect(component('bidActivity', { totalLotsBid: 200 })).toBe(60);
    expect(component('bidActivity', { totalLotsBid: 5000 })).toBe(60);
    // 60 * log10(21) / log10(201) = 34.5
    expect(component('bidActivity', { totalLotsBid: 20 })).toBe(34);
  });

  it.each([
    [0, 40],
    [30, 40],
    [31, 30],
    [90, 30],
    [91, 20],
    [180, 20],
    [181, 10],
    [365, 10],
    [366, 0],
  ])('adds the recency band for a last auction %i days ago: %i', (days, points) => {
    expect(component('bidActivity', { lastAuction: daysAgo(days) })).toBe(points);
  });

  it('caps at 100 with full volume and a recent auction', () => {
    expect(component('bidActivity', { totalLotsBid: 900, lastAuction: daysAgo(2) })).toBe(100);
  });
});

describe('winRate', () => {
  it('is neutral with no lots bid, and 0 with lots bid and none won', () => {
    expect(component('winRate', { wins: 0 })).toBe(50);
    expect(component('winRate', { totalLotsBid: 12, wins: 0 })).toBe(0);
  });

  it('scores 100 at 40% of lots won, proportionally below, capped above', () => {
    expect(component('winRate', { totalLotsBid: 100, wins: 40 })).toBe(100);
    expect(component('winRate', { totalLotsBid: 100, wins: 20 })).toBe(50);
    expect(component('winRate', { totalLotsBid: 100, wins: 10 })).toBe(25);
    expect(component('winRate', { totalLotsBid: 10, wins: 10 })).toBe(100);
  });
});

describe('avgSpending', () => {
  it('reaches 100 at $250,000 on a log scale', () => {
    expect(component('avgSpending', { totalWinAmount: 0 })).toBe(50);
    expect(component('avgSpending', { totalWinAmount: 250_000 })).toBe(100);
    expect(component('avgSpending', { totalWinAmount: 5_000_000 })).toBe(100);
    // 100 * log10(2500) / log10(250001) = 62.9
    expect(component('avgSpending', { totalWinAmount: 2_499 })).toBe(63);
  });

  it('treats a negative amount as nothing spent', () => {
    expect(component('avgSpending', { wins: 1, totalWinAmount: -500 })).toBe(0);
  });
});

describe('accountAge', () => {
  it('counts from the first auction, reaching 100 at five years', () => {
    expect(component('accountAge', { firstAuction: daysAgo(365) })).toBe(20);
    expect(component('accountAge', { firstAuction: daysAgo(5 * 365) })).toBe(100);
    expect(component('accountAge', { firstAuction: daysAgo(20 * 365) })).toBe(100);
  });

  it('is neutral before the first auction', () => {
    expect(component('accountAge', {})).toBe(50);
    expect(component('accountAge', { firstAuction: NOW.toISOString() })).toBe(0);
  });
});

describe('communicationResponsiveness', () => {
  it('is a neutral 50 when unknown', () => {
    expect(component('communicationResponsiveness', {})).toBe(50);
  });

  it('is the share answered, minus half a point an hour beyond a day, at most 40', () => {
    expect(component('communicationResponsiveness', { responseRate: 0.9 })).toBe(90);
    expect(
      component('communicationResponsiveness', { responseRate: 0.9, avgResponseHours: 24 }),
    ).toBe(90);
    expect(
      component('communicationResponsiveness', { responseRate: 0.9, avgResponseHours: 44 }),
    ).toBe(80);
    expect(
      component('communicationResponsiveness', { responseRate: 0.9, avgResponseHours: 500 }),
    ).toBe(50);
    expect(
      component('communicationResponsiveness', { responseRate: 0.2, avgResponseHours: 500 }),
    ).toBe(0);
  });
});

describe('disputeHistory and referrals', () => {
  it('takes 25 per dispute from 100, never below 0', () => {
    expect(component('disputeHistory', { totalAuctionsBid: 3 })).toBe(100);
    expect(component('disputeHistory', { disputes: 1 })).toBe(75);
    expect(component('disputeHistory', { disputes: 2 })).toBe(50);
    expect(component('disputeHistory', { disputes: 7 })).toBe(0);
  });

  it('gives 20 per referral, at most 100', () => {
    expect(component('referrals', { totalAuctionsBid: 3 })).toBe(0);
    expect(component('referrals', { referrals: 3 })).toBe(60);
    expect(component('referrals', { referrals: 5 })).toBe(100);
    expect(component('referrals', { referrals: 12 })).toBe(100);
  });
});

describe('weightedScore', () => {
  const uniform = (value: number) =>
    Object.fromEntries(scoreComponents.map((name) => [name, value])) as Record<
      ScoreComponent,
      number
    >;

  it('is the weighted mean of the components', () => {
    expect(weightedScore(uniform(100), LOTWISE_WEIGHTS)).toBe(100);
    expect(weightedScore(uniform(0), LOTWISE_WEIGHTS)).toBe(0);
    // Only payment history (weight 25) at 100: 25.
    expect(weightedScore({ ...uniform(0), paymentHistory: 100 }, LOTWISE_WEIGHTS)).toBe(25);
    // Payment history 80 (x30) and bid activity 50 (x20), the rest 0, default custom weights.
    expect(
      weightedScore({ ...uniform(0), paymentHistory: 80, bidActivity: 50 }, DEFAULT_CUSTOM_WEIGHTS),
    ).toBe(34);
  });

  it('normalises by the weights total and survives all-zero weights', () => {
    const twoWeights = { ...uniform(0), paymentHistory: 1, bidActivity: 1 };
    expect(weightedScore({ ...uniform(0), paymentHistory: 90 }, twoWeights)).toBe(45);
    expect(weightedScore(uniform(70), uniform(0))).toBe(0);
  });

  it('rounds to a whole number', () => {
    const weights = { ...uniform(0), paymentHistory: 1, bidActivity: 2 };
    // (100 * 1 + 0 * 2) / 3 = 33.3
    expect(weightedScore({ ...uniform(0), paymentHistory: 100 }, weights)).toBe(33);
  });
});

describe('tierOf', () => {
  const cases: [number, Tier][] = [
    [100, 'Premium'],
    [90, 'Premium'],
    [89, 'Gold'],
    [80, 'Gold'],
    [79, 'Silver'],
    [70, 'Silver'],
    [69, 'Bronze'],
    [60, 'Bronze'],
    [59, 'New'],
    [0, 'New'],
  ];
  it.each(cases)('Lotwise tiers: %i is %s', (score, tier) => {
    expect(tierOf(score, LOTWISE_TIERS)).toBe(tier);
  });

  const custom: [number, Tier][] = [
    [85, 'Premium'],
    [84, 'Gold'],
    [75, 'Gold'],
    [74, 'Silver'],
    [65, 'Silver'],
    [64, 'Bronze'],
    [55, 'Bronze'],
    [54, 'New'],
  ];
  it.each(custom)('default custom tiers: %i is %s', (score, tier) => {
    expect(tierOf(score, DEFAULT_CUSTOM_TIERS)).toBe(tier);
  });
});

describe('scoreWith and lotwiseScore', () => {
  const strong = facts({
    totalAuctionsBid: 40,
    totalLotsBid: 200,
    wins: 80,
    totalWinAmount: 250_000,
    paymentsOnTime: 80,
    avgDaysToPay: 3,
    responseRate: 1,
    avgResponseHours: 2,
    firstAuction: daysAgo(6 * 365),
    lastAuction: daysAgo(5),
    referrals: 5,
  });

  it('gives a bidder perfect on every count 100 and Premium', () => {
    const result = lotwiseScore(strong, NOW);
    expect(Object.values(result.breakdown)).toEqual(Array(8).fill(100));
    expect(result).toMatchObject({ score: 100, tier: 'Premium', lastUpdated: NOW.toISOString() });
  });

  it('gives a bidder with no record the new-bidder default: 50, Bronze, every component neutral', () => {
    for (const result of [
      lotwiseScore(facts(), NOW),
      scoreWith(facts(), DEFAULT_CUSTOM_WEIGHTS, DEFAULT_CUSTOM_TIERS, NOW),
    ]) {
      expect(result).toMatchObject({ score: 50, tier: 'Bronze' });
      expect(result.neutral).toEqual([...scoreComponents]);
      expect(Object.values(result.breakdown)).toEqual(Array(8).fill(50));
    }
  });

  it('names the components without evidence, and tiers by score once there is a record', () => {
    const oneSale = facts({
      totalAuctionsBid: 1,
      totalLotsBid: 4,
      wins: 1,
      totalWinAmount: 900,
      paymentsOnTime: 1,
      firstAuction: daysAgo(10),
      lastAuction: daysAgo(10),
    });
    const result = lotwiseScore(oneSale, NOW);
    expect(result.neutral).toEqual(['communicationResponsiveness']);
    expect(result.tier).toBe(tierOf(result.score, LOTWISE_TIERS));
    expect(lotwiseScore(strong, NOW).neutral).toEqual([]);
  });

  it('tiers by the thresholds it is given', () => {
    const middling = facts({ ...strong, referrals: 0, disputes: 1, totalWinAmount: 20_000 });
    const lotwise = lotwiseScore(middling, NOW);
    const lowered = scoreWith(
      middling,
      LOTWISE_WEIGHTS,
      { premium: lotwise.score, gold: 10, silver: 5, bronze: 1 },
      NOW,
    );
    expect(lowered.score).toBe(lotwise.score);
    expect(lowered.tier).toBe('Premium');
    expect(lotwise.tier).toBe(tierOf(lotwise.score, LOTWISE_TIERS));
  });
});

describe('autoInviteStatusOf', () => {
  const scored = (score: number, tier: Tier): ScoreResult => ({
    score,
    tier,
    breakdown: Object.fromEntries(scoreComponents.map((name) => [name, score])) as Record<
      ScoreComponent,
      number
    >,
    neutral: [],
    lastUpdated: NOW.toISOString(),
  });
  const clean = facts({ paymentsOnTime: 5 });
  const rules = (change: (rules: AutomationRules) => void = () => {}) => {
    const copy = structuredClone(DEFAULT_AUTOMATION);
    change(copy);
    return copy;
  };

  it('denies below the deny threshold, but not at it', () => {
    expect(autoInviteStatusOf(scored(39, 'New'), clean, rules())).toBe('Auto-Deny');
    expect(autoInviteStatusOf(scored(40, 'New'), clean, rules())).toBe('Manual Review');
  });

  it('never denies a bidder for having no record: unknown goes to Manual Review', () => {
    expect(autoInviteStatusOf(scored(10, 'New'), facts(), rules())).toBe('Manual Review');
    const unknown = scoreWith(facts(), DEFAULT_CUSTOM_WEIGHTS, DEFAULT_CUSTOM_TIERS, NOW);
    const raised = rules((r) => {
      r.autoDeny.scoreThreshold = 60;
    });
    expect(autoInviteStatusOf(unknown, facts(), raised)).toBe('Manual Review');
    expect(autoInviteStatusOf(scored(10, 'New'), facts({ totalLotsBid: 30 }), raised)).toBe(
      'Auto-Deny',
    );
  });

  it('denies on disputes or defaults when checked, whatever the score', () => {
    expect(
      autoInviteStatusOf(scored(95, 'Premium'), facts({ ...clean, disputes: 1 }), rules()),
    ).toBe('Auto-Deny');
    expect(
      autoInviteStatusOf(scored(95, 'Premium'), facts({ ...clean, priorDefaults: 1 }), rules()),
    ).toBe('Auto-Deny');
    const unchecked = rules((r) => {
      r.autoDeny.checkDisputes = false;
      r.autoDeny.checkPaymentDefaults = false;
    });
    expect(
      autoInviteStatusOf(scored(95, 'Premium'), facts({ ...clean, disputes: 2 }), unchecked),
    ).toBe('Auto-Invite');
    // A default still spoils a clean payment record for Auto-Invite.
    expect(
      autoInviteStatusOf(scored(95, 'Premium'), facts({ ...clean, priorDefaults: 1 }), unchecked),
    ).toBe('Manual Review');
  });

  it('never denies when Auto-Deny is off', () => {
    const off = rules((r) => {
      r.autoDeny.enabled = false;
    });
    expect(autoInviteStatusOf(scored(5, 'New'), facts({ disputes: 3 }), off)).toBe('Manual Review');
  });

  it('invites at or above the threshold with clean payments and the minimum tier', () => {
    expect(autoInviteStatusOf(scored(80, 'Silver'), clean, rules())).toBe('Auto-Invite');
    expect(autoInviteStatusOf(scored(79, 'Gold'), clean, rules())).toBe('Manual Review');
  });

  it('requires a payment on time and none overdue when payment history is required', () => {
    expect(autoInviteStatusOf(scored(90, 'Premium'), facts(), rules())).toBe('Manual Review');
    expect(
      autoInviteStatusOf(scored(90, 'Premium'), facts({ ...clean, paymentsOverdue: 1 }), rules()),
    ).toBe('Manual Review');
    const relaxed = rules((r) => {
      r.autoInvite.requirePaymentHistory = false;
    });
    expect(autoInviteStatusOf(scored(90, 'Premium'), facts(), relaxed)).toBe('Auto-Invite');
  });

  it('requires the minimum tier only when asked to', () => {
    expect(autoInviteStatusOf(scored(85, 'Bronze'), clean, rules())).toBe('Manual Review');
    const gold = rules((r) => {
      r.autoInvite.minimumTier = 'Gold';
    });
    expect(autoInviteStatusOf(scored(85, 'Silver'), clean, gold)).toBe('Manual Review');
    expect(autoInviteStatusOf(scored(85, 'Gold'), clean, gold)).toBe('Auto-Invite');
    const premium = rules((r) => {
      r.autoInvite.minimumTier = 'Premium';
    });
    expect(autoInviteStatusOf(scored(99, 'Gold'), clean, premium)).toBe('Manual Review');
    const bronze = rules((r) => {
      r.autoInvite.minimumTier = 'Bronze';
    });
    expect(autoInviteStatusOf(scored(85, 'Bronze'), clean, bronze)).toBe('Auto-Invite');
    expect(autoInviteStatusOf(scored(85, 'New'), clean, bronze)).toBe('Manual Review');
    const anyTier = rules((r) => {
      r.autoInvite.requireMinimumTier = false;
    });
    expect(autoInviteStatusOf(scored(85, 'New'), clean, anyTier)).toBe('Auto-Invite');
  });

  it('leaves everything for review when Auto-Invite is off', () => {
    const off = rules((r) => {
      r.autoInvite.enabled = false;
    });
    expect(autoInviteStatusOf(scored(100, 'Premium'), clean, off)).toBe('Manual Review');
  });
});
