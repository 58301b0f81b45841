import {
  LOTWISE_TIERS,
  LOTWISE_WEIGHTS,
  minimumTierOptions,
  scoreComponents,
  type AutoInviteStatus,
  type AutomationRules,
  type ScoreComponent,
  type Tier,
  type TierThresholds,
  type Weights,
} from './scoring.schema.js';

/** What a bidder's own record says; every score is computed from these and nothing else. */
export interface BidderFacts {
  totalAuctionsBid: number;
  totalLotsBid: number;
  wins: number;
  /** Dollars paid for won lots. */
  totalWinAmount: number;
  paymentsOnTime: number;
  paymentsLate: number;
  /** Payments past due now. */
  paymentsOverdue: number;
  avgDaysToPay: number | null;
  priorDefaults: number;
  disputes: number;
  referrals: number;
  /** Share of messages answered, 0 to 1. */
  responseRate: number | null;
  avgResponseHours: number | null;
  firstAuction: string | null;
  lastAuction: string | null;
}

export interface ScoreResult {
  score: number;
  tier: Tier;
  breakdown: Record<ScoreComponent, number>;
  /** Components the record holds no evidence for yet: each scored the neutral value. */
  neutral: ScoreComponent[];
  lastUpdated: string;
}

/** What a component without evidence scores: the middle of the scale, neither good nor bad. */
export const NEUTRAL_COMPONENT = 50;
/** The spec's new-bidder default: a bidder with no record at all starts in the entry tier. */
export const UNKNOWN_BIDDER_TIER: Tier = 'Bronze';

const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));
const DAY = 86_400_000;

/** Whether the bidder has taken part in anything: bid on a lot or owed a payment. */
export function hasRecord(facts: BidderFacts): boolean {
  return (
    facts.totalLotsBid > 0 ||
    facts.totalAuctionsBid > 0 ||
    facts.paymentsOnTime + facts.paymentsLate + facts.paymentsOverdue > 0 ||
    facts.priorDefaults > 0 ||
    facts.disputes > 0
  );
}

/**
 * The components the record says something about. The rest score NEUTRAL_COMPONENT: a bidder
 * nobody has dealt with yet is unknown, not bad (no auctions is not a poor win rate, and no
 * disputes before any auction is not a clean record either).
 */
export function componentsWithEvidence(facts: BidderFacts): Set<ScoreComponent> {
  const record = hasRecord(facts);
  const known = new Set<ScoreComponent>();
  if (facts.paymentsOnTime + facts.paymentsLate + facts.paymentsOverdue + facts.priorDefaults > 0)
    known.add('paymentHistory');
  if (facts.totalLotsBid > 0 || facts.totalAuctionsBid > 0 || facts.lastAuction)
    known.add('bidActivity');
  if (facts.totalLotsBid > 0) known.add('winRate');
  if (facts.wins > 0 || facts.totalWinAmount > 0) known.add('avgSpending');
  if (facts.firstAuction) known.add('accountAge');
  if (facts.responseRate !== null) known.add('communicationResponsiveness');
  if (record) known.add('disputeHistory');
  if (record || facts.referrals > 0) known.add('referrals');
  return known;
}

/**
 * The Lotwise components, each 0-100, with the reasoning in plain words. A component the record
 * holds no evidence for (componentsWithEvidence) scores the neutral 50 instead.
 * - paymentHistory: the share of payments made on time; minus 1.5 points a day beyond a week to
 *   pay (at most 30), 15 per payment overdue now (at most 45), 25 per prior default (at most 50).
 * - bidActivity: up to 60 for volume (lots bid, on a log scale reaching 60 at 200 lots) plus up to
 *   40 for recency (last auction within 30 days 40, 90 days 30, 180 days 20, a year 10).
 * - winRate: wins over lots bid, where winning 40% or more of the lots bid on scores 100.
 * - avgSpending: total paid, on a log scale reaching 100 at $250,000; without a win, neutral.
 * - accountAge: time since the first auction, reaching 100 at five years.
 * - communicationResponsiveness: the share of messages answered, minus half a point per hour of
 *   average reply time beyond a day (at most 40).
 * - disputeHistory: 100, minus 25 per dispute.
 * - referrals: 20 per bidder referred, at most 100.
 */
export function scoreComponentsOf(facts: BidderFacts, now: Date): Record<ScoreComponent, number> {
  const payments = facts.paymentsOnTime + facts.paymentsLate;
  const paymentHistory =
    payments === 0 && facts.priorDefaults === 0 && facts.paymentsOverdue === 0
      ? 50
      : (payments ? (100 * facts.paymentsOnTime) / payments : 50) -
        Math.min(30, Math.max(0, (facts.avgDaysToPay ?? 0) - 7) * 1.5) -
        Math.min(45, facts.paymentsOverdue * 15) -
        Math.min(50, facts.priorDefaults * 25);

  const volume = (60 * Math.log10(1 + facts.totalLotsBid)) / Math.log10(201);
  const sinceLast = facts.lastAuction
    ? (now.getTime() - Date.parse(facts.lastAuction)) / DAY
    : Infinity;
  const recency =
    sinceLast <= 30 ? 40 : sinceLast <= 90 ? 30 : sinceLast <= 180 ? 20 : sinceLast <= 365 ? 10 : 0;

  const winRate = facts.totalLotsBid ? (facts.wins / facts.totalLotsBid / 0.4) * 100 : 0;
  const avgSpending =
    (100 * Math.log10(1 + Math.max(0, facts.totalWinAmount))) / Math.log10(250_001);
  const since = facts.firstAuction ? Date.parse(facts.firstAuction) : now.getTime();
  const accountAge = ((now.getTime() - since) / DAY / (5 * 365)) * 100;
  const responsiveness =
    facts.responseRate === null
      ? 50
      : facts.responseRate * 100 -
        Math.min(40, Math.max(0, (facts.avgResponseHours ?? 0) - 24) / 2);

  const computed: Record<ScoreComponent, number> = {
    paymentHistory: clamp(paymentHistory),
    bidActivity: clamp(Math.min(60, volume) + recency),
    winRate: clamp(winRate),
    avgSpending: clamp(avgSpending),
    accountAge: clamp(accountAge),
    communicationResponsiveness: clamp(responsiveness),
    disputeHistory: clamp(100 - facts.disputes * 25),
    referrals: clamp(facts.referrals * 20),
  };
  const known = componentsWithEvidence(facts);
  for (const name of scoreComponents) if (!known.has(name)) computed[name] = NEUTRAL_COMPONENT;
  return computed;
}

export function weightedScore(breakdown: Record<ScoreComponent, number>, weights: Weights): number {
  const total = scoreComponents.reduce((sum, name) => sum + weights[name], 0) || 1;
  return clamp(
    scoreComponents.reduce((sum, name) => sum + breakdown[name] * weights[name], 0) / total,
  );
}

export function tierOf(score: number, thresholds: TierThresholds): Tier {
  if (score >= thresholds.premium) return 'Premium';
  if (score >= thresholds.gold) return 'Gold';
  if (score >= thresholds.silver) return 'Silver';
  if (score >= thresholds.bronze) return 'Bronze';
  return 'New';
}

export function scoreWith(
  facts: BidderFacts,
  weights: Weights,
  thresholds: TierThresholds,
  now = new Date(),
): ScoreResult {
  const breakdown = scoreComponentsOf(facts, now);
  const known = componentsWithEvidence(facts);
  const score = weightedScore(breakdown, weights);
  return {
    score,
    tier: known.size ? tierOf(score, thresholds) : UNKNOWN_BIDDER_TIER,
    breakdown,
    neutral: scoreComponents.filter((name) => !known.has(name)),
    lastUpdated: now.toISOString(),
  };
}

/** The standardized Lotwise Score: the same weights and tiers for every house. */
export const lotwiseScore = (facts: BidderFacts, now = new Date()) =>
  scoreWith(facts, LOTWISE_WEIGHTS, LOTWISE_TIERS, now);

const tierRank: Record<Tier, number> = { New: 0, Bronze: 1, Silver: 2, Gold: 3, Premium: 4 };

/**
 * The house's automation rules applied to its custom score: Auto-Deny first (disputes or payment
 * defaults when checked, or a score below the threshold earned by a real record: a bidder nobody
 * has dealt with yet is never denied for being unknown), then Auto-Invite (score at or above its
 * threshold, a clean payment record and the minimum tier when required), else Manual Review.
 */
export function autoInviteStatusOf(
  custom: ScoreResult,
  facts: BidderFacts,
  rules: AutomationRules,
): AutoInviteStatus {
  const deny = rules.autoDeny;
  if (
    deny.enabled &&
    ((custom.score < deny.scoreThreshold && hasRecord(facts)) ||
      (deny.checkDisputes && facts.disputes > 0) ||
      (deny.checkPaymentDefaults && facts.priorDefaults > 0))
  ) {
    return 'Auto-Deny';
  }
  const invite = rules.autoInvite;
  const paymentsClean =
    facts.paymentsOnTime > 0 && facts.paymentsOverdue === 0 && facts.priorDefaults === 0;
  if (
    invite.enabled &&
    custom.score >= invite.scoreThreshold &&
    (!invite.requirePaymentHistory || paymentsClean) &&
    (!invite.requireMinimumTier ||
      tierRank[custom.tier] >= minimumTierOptions.indexOf(invite.minimumTier) + 1)
  ) {
    return 'Auto-Invite';
  }
  return 'Manual Review';
}
