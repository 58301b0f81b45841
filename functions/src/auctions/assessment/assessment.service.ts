import { outreachFacts } from '../../bidders/bidders.service.js';
import type { OutreachFacts } from '../../bidders/bidders.schema.js';
import type { RequestContext } from '../../platform/context.js';
import { AppError, conflict } from '../../platform/errors.js';
import { lotsOf, registrationsOf, type RegistrationRecord } from '../auctions.repo.js';
import { getAuction } from '../auctions.service.js';
import { inviteBidders } from '../registrations/registrations.service.js';
import { assess, byRank, profileOf, type Assessment } from './assessment-model.js';
import type {
  AssessmentInviteResult,
  AssessmentItem,
  AssessmentQuery,
  AssessmentView,
} from './assessment.schema.js';

interface Assessed {
  bidder: OutreachFacts;
  assessment: Assessment;
}

/** Every bidder of the account assessed for the auction, and who is already invited to it. */
async function assessAll(ctx: RequestContext, auctionId: string) {
  const auction = await getAuction(ctx, auctionId);
  const [lots, registrations, bidders] = await Promise.all([
    lotsOf(ctx.scope, auctionId),
    registrationsOf(ctx.scope, auctionId),
    outreachFacts(ctx),
  ]);
  const profile = profileOf(auction, lots);
  const assessed: Assessed[] = bidders.map((bidder) => ({
    bidder,
    assessment: assess(bidder, profile),
  }));
  return {
    auction,
    assessed,
    registrations: new Map(registrations.map((row) => [row.bidderId, row])),
  };
}

const itemOf = ({ bidder, assessment }: Assessed, invited: boolean): AssessmentItem => ({
  bidder: {
    id: bidder.id,
    bidderId: bidder.bidderId,
    firstName: bidder.firstName,
    lastName: bidder.lastName,
    email: bidder.email,
    preferredCategories: bidder.preferredCategories,
    lotwiseScore: bidder.lotwiseScore,
  },
  recommendation: assessment.recommendation,
  matchScore: assessment.matchScore,
  riskLevel: assessment.riskLevel,
  aiInsights: assessment.aiInsights,
  reasons: assessment.reasons,
  breakdown: assessment.breakdown,
  invited,
});

/**
 * Ranks the account's bidders for an auction (see assessment-model.ts for the formula): the
 * counts cover every bidder, the items are the best of the recommendation asked for.
 */
export async function assessAuction(
  ctx: RequestContext,
  auctionId: string,
  query: AssessmentQuery,
): Promise<AssessmentView> {
  const { auction, assessed, registrations } = await assessAll(ctx, auctionId);
  const count = (recommendation: Assessment['recommendation']) =>
    assessed.filter((entry) => entry.assessment.recommendation === recommendation).length;
  const items = assessed
    .filter(
      (entry) => !query.recommendation || entry.assessment.recommendation === query.recommendation,
    )
    .sort(byRank)
    .slice(0, query.limit)
    .map((entry) => itemOf(entry, registrations.has(entry.bidder.id)));
  return {
    auctionId: auction.id,
    items,
    counts: {
      autoInvite: count('Auto-Invite'),
      consider: count('Consider'),
      review: count('Review'),
      skip: count('Skip'),
      totalAnalysed: assessed.length,
      autoInviteNotInvited: assessed.filter(
        (entry) =>
          entry.assessment.recommendation === 'Auto-Invite' && !registrations.has(entry.bidder.id),
      ).length,
    },
    analysedAt: new Date().toISOString(),
  };
}

const alreadyReason = (registration: RegistrationRecord) =>
  registration.registeredAt
    ? `Already registered (${registration.status})`
    : `Already invited${registration.invitedBy ? ` by ${registration.invitedBy}` : ''}`;

/** Invitations go out in rounds of this many bidders. */
const INVITE_ROUND = 100;

/**
 * Sends the invitations the assessment panel asks for: the bidders chosen, or every Auto-Invite
 * bidder. Bidders already invited or registered are passed over with the reason, not a refusal
 * of the others, also when someone invites them meanwhile.
 */
export async function inviteFromAssessment(
  ctx: RequestContext,
  auctionId: string,
  input: {
    bidderIds?: string[] | undefined;
    all?: 'Auto-Invite' | undefined;
    message?: string | undefined;
  },
): Promise<AssessmentInviteResult> {
  const auction = await getAuction(ctx, auctionId);
  if (auction.status === 'Completed' || auction.status === 'Cancelled') {
    throw conflict(`Invitations to a ${auction.status} auction cannot be sent`);
  }
  const wanted = input.all
    ? (await assessAll(ctx, auctionId)).assessed
        .filter((entry) => entry.assessment.recommendation === input.all)
        .sort(byRank)
        .map((entry) => entry.bidder.id)
    : [...new Set(input.bidderIds ?? [])];
  const result: AssessmentInviteResult = { invited: 0, withoutEmail: [], skipped: [] };
  const passOver = async (ids: Set<string>) => {
    const registrations = new Map(
      (await registrationsOf(ctx.scope, auctionId)).map((row) => [row.bidderId, row]),
    );
    const kept: string[] = [];
    for (const id of ids) {
      const registration = registrations.get(id);
      if (registration) {
        result.skipped.push({
          bidderId: id,
          name: registration.bidderName,
          reason: alreadyReason(registration),
        });
      } else {
        kept.push(id);
      }
    }
    return kept;
  };
  const pending = await passOver(new Set(wanted));
  for (let start = 0; start < pending.length; start += INVITE_ROUND) {
    let round = pending.slice(start, start + INVITE_ROUND);
    for (let attempt = 0; round.length; attempt += 1) {
      try {
        const sent = await inviteBidders(
          ctx,
          auctionId,
          { bidderIds: round, message: input.message },
          auction.auctionHouseName,
        );
        result.invited += sent.invited;
        result.withoutEmail.push(...sent.withoutEmail);
        break;
      } catch (error) {
        // Invited by someone else between the check and the round: those are passed over.
        const taken = (error as AppError).details as { bidderIds?: string[] } | undefined;
        if (
          !(error instanceof AppError) ||
          error.code !== 'conflict' ||
          !taken?.bidderIds ||
          attempt >= 5
        ) {
          throw error;
        }
        const refused = new Set(taken.bidderIds);
        const stillFree = await passOver(refused);
        round = round.filter((id) => !refused.has(id) || stillFree.includes(id));
      }
    }
  }
  return result;
}
