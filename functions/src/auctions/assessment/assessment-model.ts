import type { OutreachFacts } from '../../bidders/bidders.schema.js';
import {
  auctionCategoryLabels,
  currencyExponent,
  currencySymbols,
  type AuctionCategory,
  type Currency,
} from '../auctions.schema.js';
import type { Recommendation, RiskLevel } from './assessment.schema.js';

/**
 * The AI Bidder Assessment: how well each bidder suits one auction, by a formula a house can
 * check by hand. Nothing is learnt or random; the same records give the same answer.
 *
 *   matchScore = round(0.35 × affinity + 0.30 × standing + 0.15 × recency + 0.20 × means), 0-100
 *
 *   affinity  = 50 when a preferred category is the auction's own (its family, `categoryFamily`)
 *             + 30 × the share of the categorised lots in a preferred category (with no lot
 *               categorised yet, the auction's category stands for its lots: 30 when it matched)
 *             + 20 × min(1, earlier sales in the auction's or its lots' categories ÷ 3)
 *   standing  = the Lotwise Score
 *   recency   = by days since the last auction: up to 90 → 100, 365 → 60, 730 → 30, older → 10;
 *               none on record → 20
 *   means     = 100 × min(1, average win ÷ typical estimate), the typical estimate being the
 *               median of the lots' midpoints (the low or high estimate alone when only one is
 *               set); 50 when no lot has an estimate; 20 with no win on record. A bidder's amounts
 *               carry no currency and are read in the auction's.
 *
 *   risk points = 3 × payment defaults + 2 × disputes + overdue payments
 *               + 1 when more than a quarter of payments were late + 1 with no payment on record
 *   riskLevel   = High at 3 points or more, or when Suspended; Medium at 1 or 2; else Low
 *
 *   recommendation, the first that applies:
 *     Skip         Suspended, High risk, the house's automation rules Auto-Deny the bidder,
 *                  or matchScore below 40
 *     Auto-Invite  matchScore 75 or more, Low risk, Active, and the house's rules auto-invite
 *     Consider     matchScore 60 or more and Low risk
 *     Review       the rest: a fair match, or Medium risk
 *
 * Every reason names the fact it rests on.
 */

export const WEIGHTS = { affinity: 0.35, standing: 0.3, recency: 0.15, means: 0.2 } as const;
export const THRESHOLDS = { autoInvite: 75, consider: 60, skipBelow: 40 } as const;

/** The bidder categories (of the 18) that an auction category is about. */
export const categoryFamily: Record<AuctionCategory, readonly string[]> = {
  art: ['Art'],
  jewelry: ['Jewelry', 'Watches'],
  vehicles: ['Automobiles'],
  'real-estate': [],
  collectibles: ['Collectibles', 'Coins & Currency', 'Stamps', 'Sports', 'Books'],
};

/** What the assessment needs of an auction, worked out once for all its bidders. */
export interface AuctionProfile {
  category: AuctionCategory;
  family: readonly string[];
  /** Lots per bidder category, of the lots that have one. */
  lotCategories: ReadonlyMap<string, number>;
  categorisedLots: number;
  /** Lower-cased names a history entry of this kind of sale carries. */
  interest: ReadonlySet<string>;
  /** Major units; null when no lot has an estimate. */
  typicalEstimate: number | null;
  currencySymbol: string;
  now: Date;
}

interface ProfileLot {
  category: string | null;
  estimateLow: number | null;
  estimateHigh: number | null;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function profileOf(
  auction: { category: AuctionCategory; currency: Currency },
  lots: readonly ProfileLot[],
  now = new Date(),
): AuctionProfile {
  const lotCategories = new Map<string, number>();
  for (const lot of lots) {
    if (lot.category) lotCategories.set(lot.category, (lotCategories.get(lot.category) ?? 0) + 1);
  }
  const family = categoryFamily[auction.category];
  const midpoints = lots.flatMap((lot) => {
    const { estimateLow: low, estimateHigh: high } = lot;
    if (low != null && high != null) return [(low + high) / 2];
    if (low != null) return [low];
    if (high != null) return [high];
    return [];
  });
  const typical = median(midpoints);
  return {
    category: auction.category,
    family,
    lotCategories,
    categorisedLots: [...lotCategories.values()].reduce((sum, count) => sum + count, 0),
    interest: new Set(
      [...family, ...lotCategories.keys(), auctionCategoryLabels[auction.category]].map((name) =>
        name.toLowerCase(),
      ),
    ),
    typicalEstimate: typical === null ? null : typical / 10 ** currencyExponent[auction.currency],
    currencySymbol: currencySymbols[auction.currency],
    now,
  };
}

export type AssessedBidder = Pick<
  OutreachFacts,
  | 'status'
  | 'preferredCategories'
  | 'historyCategories'
  | 'lotwiseScore'
  | 'autoInviteStatus'
  | 'stats'
>;

export interface Assessment {
  recommendation: Recommendation;
  matchScore: number;
  riskLevel: RiskLevel;
  aiInsights: string;
  reasons: string[];
  breakdown: { affinity: number; standing: number; recency: number; means: number };
  riskPoints: number;
}

const DAY = 86_400_000;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const list = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;

function affinityOf(bidder: AssessedBidder, profile: AuctionProfile, reasons: string[]) {
  const preferred = new Set(bidder.preferredCategories);
  const label = auctionCategoryLabels[profile.category];
  const ownMatch = profile.family.filter((name) => preferred.has(name));
  if (ownMatch.length) reasons.push(`Prefers ${list(ownMatch)}, this sale's category`);
  else if (!preferred.size) reasons.push('No preferred categories on record');
  else if (profile.family.length) reasons.push(`No preference for this sale's category (${label})`);

  let share: number;
  if (profile.categorisedLots) {
    const matching = [...profile.lotCategories]
      .filter(([name]) => preferred.has(name))
      .reduce((sum, [, count]) => sum + count, 0);
    share = matching / profile.categorisedLots;
    if (preferred.size) {
      reasons.push(
        `${matching} of ${plural(profile.categorisedLots, 'lot')} in preferred categories`,
      );
    }
  } else {
    share = ownMatch.length ? 1 : 0;
  }

  const earlierSales = bidder.historyCategories.filter(
    (name): name is string => name !== null && profile.interest.has(name.toLowerCase()),
  );
  const earlier = earlierSales.length;
  if (earlier) {
    reasons.push(`${plural(earlier, 'earlier sale')} in ${list([...new Set(earlierSales)])}`);
  }
  return (ownMatch.length ? 50 : 0) + 30 * share + 20 * Math.min(1, earlier / 3);
}

function recencyOf(bidder: AssessedBidder, profile: AuctionProfile, reasons: string[]) {
  const last = bidder.stats.lastAuction;
  if (!last) {
    reasons.push('No auction on record');
    return 20;
  }
  const days = Math.max(0, Math.floor((profile.now.getTime() - Date.parse(last)) / DAY));
  reasons.push(`Last auction ${plural(days, 'day')} ago`);
  if (days <= 90) return 100;
  if (days <= 365) return 60;
  if (days <= 730) return 30;
  return 10;
}

function meansOf(bidder: AssessedBidder, profile: AuctionProfile, reasons: string[]) {
  const { wins, totalWinAmount } = bidder.stats;
  const money = (amount: number) =>
    `${profile.currencySymbol}${Math.round(amount).toLocaleString('en-US')}`;
  if (profile.typicalEstimate === null || profile.typicalEstimate <= 0) return 50;
  if (!wins) {
    reasons.push('No wins on record to set against the estimates');
    return 20;
  }
  const average = totalWinAmount / wins;
  reasons.push(
    `Average win ${money(average)} against a typical estimate of ${money(profile.typicalEstimate)}`,
  );
  return 100 * Math.min(1, average / profile.typicalEstimate);
}

function riskOf(bidder: AssessedBidder, reasons: string[]) {
  const { priorDefaults, disputes, paymentsOverdue, paymentsLate, paymentsOnTime } = bidder.stats;
  const payments = paymentsOnTime + paymentsLate + paymentsOverdue;
  let points = 3 * priorDefaults + 2 * disputes + paymentsOverdue;
  if (priorDefaults) reasons.push(`${plural(priorDefaults, 'payment default')} on record`);
  if (disputes) reasons.push(`${plural(disputes, 'dispute')} on record`);
  if (paymentsOverdue) reasons.push(`${plural(paymentsOverdue, 'overdue payment')}`);
  if (payments && paymentsLate / payments > 0.25) {
    points += 1;
    reasons.push(`Late with ${Math.round((100 * paymentsLate) / payments)}% of payments`);
  }
  if (!payments) {
    points += 1;
    reasons.push('No payments on record');
  }
  if (bidder.status === 'Suspended') reasons.push('Suspended');
  const level: RiskLevel =
    points >= 3 || bidder.status === 'Suspended' ? 'High' : points >= 1 ? 'Medium' : 'Low';
  return { points, level };
}

const fitWord = (matchScore: number) =>
  matchScore >= THRESHOLDS.autoInvite
    ? 'Strong'
    : matchScore >= THRESHOLDS.consider
      ? 'Good'
      : matchScore >= THRESHOLDS.skipBelow
        ? 'Fair'
        : 'Weak';

const advice: Record<Recommendation, string> = {
  'Auto-Invite': 'Invite without review.',
  Consider: 'Worth inviting.',
  Review: 'Look at the record before inviting.',
  Skip: 'Do not invite to this sale.',
};

/** One bidder's assessment for the auction of `profile`. */
export function assess(bidder: AssessedBidder, profile: AuctionProfile): Assessment {
  const fit: string[] = [];
  const affinity = affinityOf(bidder, profile, fit);
  const standing = bidder.lotwiseScore.score;
  fit.push(`Lotwise Score ${standing} (${bidder.lotwiseScore.tier})`);
  const recency = recencyOf(bidder, profile, fit);
  const means = meansOf(bidder, profile, fit);
  const matchScore = Math.max(
    0,
    Math.min(
      100,
      Math.round(
        WEIGHTS.affinity * affinity +
          WEIGHTS.standing * standing +
          WEIGHTS.recency * recency +
          WEIGHTS.means * means,
      ),
    ),
  );
  const risks: string[] = [];
  const risk = riskOf(bidder, risks);
  const rules: string[] = [];
  let recommendation: Recommendation;
  if (bidder.autoInviteStatus === 'Auto-Deny') rules.push("The house's rules auto-deny");
  if (
    bidder.status === 'Suspended' ||
    risk.level === 'High' ||
    bidder.autoInviteStatus === 'Auto-Deny' ||
    matchScore < THRESHOLDS.skipBelow
  ) {
    recommendation = 'Skip';
  } else if (matchScore >= THRESHOLDS.autoInvite && risk.level === 'Low') {
    if (bidder.status !== 'Active') rules.push(`Status ${bidder.status}, not Active`);
    else if (bidder.autoInviteStatus !== 'Auto-Invite') {
      rules.push(`The house's rules say ${bidder.autoInviteStatus}`);
    }
    recommendation = rules.length ? 'Consider' : 'Auto-Invite';
  } else {
    recommendation =
      matchScore >= THRESHOLDS.consider && risk.level === 'Low' ? 'Consider' : 'Review';
  }
  const interest = bidder.preferredCategories.filter(
    (name) => profile.family.includes(name) || profile.lotCategories.has(name),
  );
  const aiInsights = [
    `${fitWord(matchScore)} fit (match ${matchScore}).`,
    interest.length
      ? `Interested in ${list(interest)}.`
      : 'No stated interest in what this sale offers.',
    `${risk.level} risk${risks.length ? `: ${risks.join(', ').toLowerCase()}` : ''}.`,
    advice[recommendation],
  ].join(' ');
  return {
    recommendation,
    matchScore,
    riskLevel: risk.level,
    aiInsights,
    reasons: [...fit, ...risks, ...rules],
    breakdown: {
      affinity: Math.round(affinity),
      standing: Math.round(standing),
      recency,
      means: Math.round(means),
    },
    riskPoints: risk.points,
  };
}

const order: Record<Recommendation, number> = {
  'Auto-Invite': 0,
  Consider: 1,
  Review: 2,
  Skip: 3,
};

/** Best first: by recommendation, then match, then Lotwise Score, then bidder ID. */
export function byRank(
  a: { assessment: Assessment; bidder: Pick<OutreachFacts, 'bidderId' | 'lotwiseScore'> },
  b: { assessment: Assessment; bidder: Pick<OutreachFacts, 'bidderId' | 'lotwiseScore'> },
) {
  return (
    order[a.assessment.recommendation] - order[b.assessment.recommendation] ||
    b.assessment.matchScore - a.assessment.matchScore ||
    b.bidder.lotwiseScore.score - a.bidder.lotwiseScore.score ||
    a.bidder.bidderId.localeCompare(b.bidder.bidderId)
  );
}
