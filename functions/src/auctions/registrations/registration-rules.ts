import type { BidderStats } from '../../bidders/bidders.schema.js';
import type {
  AutoInviteStatus,
  AutomationRules,
  RegistrationRules,
  Tier,
} from '../../scoring/scoring.schema.js';
import type { RegistrationFigures } from './registrations.schema.js';

/**
 * How Lotwise decides a registration to an auction, in this order, each step naming its fact:
 * 1. the house's auto-decline list denies, and its auto-accept list approves;
 * 2. a Suspended bidder is denied, and so is one with two non-paying-bidder strikes (open or lost
 *    cases over unpaid purchases; paying clears a strike);
 * 3. the automation rules' Auto-Deny (a low custom score earned by a real record, disputes or
 *    payment defaults when checked) denies;
 * 4. an open dispute sends the bidder to review when the house never auto-approves those;
 * 5. the automation rules' Auto-Invite approves, and so does any history the house accepts
 *    (approved before; approved for N auctions; won N items; spent N);
 * 6. everyone else waits for a reviewer.
 * Approved bidders get their tier's bid limit.
 */

export interface RegistrationFacts {
  bidderNumber: string;
  status: string;
  customScore: number;
  tier: Tier;
  autoInviteStatus: AutoInviteStatus;
  stats: BidderStats;
  /** Earlier auctions of this house that approved the bidder. */
  auctionsApproved: number;
  /** Non-paying-bidder cases holding against the bidder: open, or lost and unpaid. */
  nonPaymentStrikes: number;
}

/** As the platforms do: two open or lost non-paying-bidder cases keep a bidder out. */
export const NON_PAYMENT_STRIKES_DENY = 2;

export interface RegistrationDecision {
  status: 'approved' | 'pending' | 'denied';
  reasons: string[];
  bidLimit: number | null;
}

/** What a reviewer sees beside a registration. */
export function figuresOf(facts: RegistrationFacts): RegistrationFigures {
  const { stats } = facts;
  const payments = stats.paymentsOnTime + stats.paymentsLate + stats.paymentsOverdue;
  const spentMinor = Math.round(stats.totalWinAmount * 100);
  return {
    paymentRate: payments ? stats.paymentsOnTime / payments : null,
    averageHammer: stats.wins ? Math.round(spentMinor / stats.wins) : null,
    totalPaid: spentMinor,
    openDisputes: stats.disputes,
    priorDefaults: stats.priorDefaults,
    auctionsApproved: facts.auctionsApproved,
    itemsWon: stats.wins,
  };
}

const money = (minor: number) =>
  `$${(minor / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function denyReasons(facts: RegistrationFacts, automation: AutomationRules): string[] {
  const deny = automation.autoDeny;
  const reasons: string[] = [];
  if (deny.checkDisputes && facts.stats.disputes > 0) {
    reasons.push(
      `${plural(facts.stats.disputes, 'dispute')} on record (auto-deny checks disputes)`,
    );
  }
  if (deny.checkPaymentDefaults && facts.stats.priorDefaults > 0) {
    reasons.push(
      `${plural(facts.stats.priorDefaults, 'payment default')} on record (auto-deny checks defaults)`,
    );
  }
  if (facts.customScore < deny.scoreThreshold) {
    reasons.push(
      `Custom score ${facts.customScore} is below the auto-deny threshold ${deny.scoreThreshold}`,
    );
  }
  return reasons.length ? reasons : ['The automation rules deny this bidder'];
}

function approvingHistory(facts: RegistrationFacts, rules: RegistrationRules): string[] {
  const { autoApprove } = rules;
  const reasons: string[] = [];
  if (autoApprove.previouslyApproved && facts.auctionsApproved > 0) {
    reasons.push('Approved for an earlier auction of this house');
  }
  if (
    autoApprove.approvedAuctions !== null &&
    facts.auctionsApproved >= autoApprove.approvedAuctions
  ) {
    reasons.push(
      `Approved for ${plural(facts.auctionsApproved, 'auction')} (the house accepts ${autoApprove.approvedAuctions} or more)`,
    );
  }
  if (autoApprove.itemsWon !== null && facts.stats.wins >= autoApprove.itemsWon) {
    reasons.push(
      `Won ${plural(facts.stats.wins, 'item')} (the house accepts ${autoApprove.itemsWon} or more)`,
    );
  }
  const spent = Math.round(facts.stats.totalWinAmount * 100);
  if (autoApprove.amountSpent !== null && spent >= autoApprove.amountSpent) {
    reasons.push(
      `Spent ${money(spent)} (the house accepts ${money(autoApprove.amountSpent)} or more)`,
    );
  }
  return reasons;
}

export function decideRegistration(
  facts: RegistrationFacts,
  automation: AutomationRules,
  rules: RegistrationRules,
): RegistrationDecision {
  const limit = rules.bidLimits[facts.tier];
  const limitReason =
    limit === null
      ? `${facts.tier} tier: no bid limit`
      : `${facts.tier} tier: bid limit ${money(limit)}`;
  const approved = (reasons: string[]): RegistrationDecision => ({
    status: 'approved',
    reasons: [...reasons, limitReason],
    bidLimit: limit,
  });
  const denied = (reasons: string[]): RegistrationDecision => ({
    status: 'denied',
    reasons,
    bidLimit: null,
  });
  const listed = (list: string[]) =>
    list.some((entry) => entry.toLowerCase() === facts.bidderNumber.toLowerCase());

  if (listed(rules.autoDecline)) return denied(["On the house's auto-decline list"]);
  if (listed(rules.autoAccept)) return approved(["On the house's auto-accept list"]);
  if (facts.status === 'Suspended') return denied(['The bidder is Suspended']);
  if (facts.nonPaymentStrikes >= NON_PAYMENT_STRIKES_DENY) {
    return denied([
      `${plural(facts.nonPaymentStrikes, 'non-paying-bidder strike')}: unpaid purchases with open or lost cases`,
    ]);
  }
  if (facts.autoInviteStatus === 'Auto-Deny') return denied(denyReasons(facts, automation));
  if (rules.neverWithOpenDispute && facts.stats.disputes > 0) {
    return {
      status: 'pending',
      reasons: [
        `${plural(facts.stats.disputes, 'open dispute')}: the house never auto-approves a bidder with one`,
      ],
      bidLimit: limit,
    };
  }
  if (facts.autoInviteStatus === 'Auto-Invite') {
    return approved([
      `Custom score ${facts.customScore} meets the auto-invite threshold ${automation.autoInvite.scoreThreshold}`,
    ]);
  }
  const history = approvingHistory(facts, rules);
  if (history.length) return approved(history);
  return {
    status: 'pending',
    reasons: [
      facts.stats.totalAuctionsBid === 0 && facts.stats.wins === 0
        ? 'No record yet: a reviewer decides'
        : `Custom score ${facts.customScore} is in the manual review band`,
    ],
    bidLimit: limit,
  };
}
