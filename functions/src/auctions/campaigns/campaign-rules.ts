import type { OutreachFacts } from '../../bidders/bidders.schema.js';
import type { Tier } from '../../scoring/scoring.schema.js';
import type { AuctionProfile } from '../assessment/assessment-model.js';
import type { CampaignKind } from './campaigns.schema.js';

/**
 * Who each campaign is for (the spec's triggers), and who of them a launch mails:
 *  - Premium Bidder Campaign: Lotwise Score 85 or more and a Premium or Gold Lotwise tier;
 *  - Category-Specific Outreach: custom score 70 or more and a preferred category that is this
 *    sale's (its category's family, see assessment-model.ts) or one of its lots'.
 * A Suspended bidder is no audience for marketing. Of those matched, bidders who opted out of
 * marketing mail and bidders without an email address are counted, not mailed.
 */

export const PREMIUM_MIN_SCORE = 85;
export const PREMIUM_TIERS: readonly Tier[] = ['Premium', 'Gold'];
export const CATEGORY_MIN_CUSTOM_SCORE = 70;

export const triggers: Record<CampaignKind, string> = {
  premium: `Lotwise Score ${PREMIUM_MIN_SCORE} or more, ${PREMIUM_TIERS.join(' or ')} tier`,
  category: `Custom score ${CATEGORY_MIN_CUSTOM_SCORE} or more and a preferred category this sale offers`,
};

export type Prospect = Pick<
  OutreachFacts,
  'status' | 'email' | 'marketingOptOut' | 'lotwiseScore' | 'customScore' | 'preferredCategories'
>;

/** The bidder's preferred categories that this sale offers. */
export const offeredCategories = (
  bidder: Pick<Prospect, 'preferredCategories'>,
  profile: AuctionProfile,
) =>
  bidder.preferredCategories.filter(
    (name) => profile.family.includes(name) || profile.lotCategories.has(name),
  );

export function triggered(kind: CampaignKind, bidder: Prospect, profile: AuctionProfile) {
  if (bidder.status === 'Suspended') return false;
  if (kind === 'premium') {
    return (
      bidder.lotwiseScore.score >= PREMIUM_MIN_SCORE &&
      PREMIUM_TIERS.includes(bidder.lotwiseScore.tier)
    );
  }
  return (
    bidder.customScore.score >= CATEGORY_MIN_CUSTOM_SCORE &&
    offeredCategories(bidder, profile).length > 0
  );
}

/** The bidders a campaign reaches, those a launch mails, and how many it passes over and why. */
export function audienceOf<T extends Prospect>(
  kind: CampaignKind,
  bidders: readonly T[],
  profile: AuctionProfile,
) {
  const reach = bidders.filter((bidder) => triggered(kind, bidder, profile));
  const optedOut = reach.filter((bidder) => bidder.marketingOptOut).length;
  const withoutEmail = reach.filter((bidder) => !bidder.marketingOptOut && !bidder.email).length;
  const deliverable = reach.filter(
    (bidder): bidder is T & { email: string } => !bidder.marketingOptOut && Boolean(bidder.email),
  );
  return { reach: reach.length, deliverable, optedOut, withoutEmail };
}
