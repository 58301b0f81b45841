import { listAuctions } from '../auctions/auctions.service.js';
import { listBidders } from '../bidders/bidders.service.js';
import type { RequestContext, UserActor } from '../platform/context.js';
import type { CaseInput, CaseStatus } from '../legal/legal.schema.js';
import { changeStatus, createCase, updateCase, caseEtag } from '../legal/legal.service.js';

interface CasePlan {
  input: Omit<CaseInput, 'auctionId' | 'bidderId' | 'assignedTo' | 'currency'>;
  /** Index of the demo auction and bidder it names, if any. */
  auction?: number;
  bidder?: number;
  assign: boolean;
  /** The moves it has made since filing, each with its reason. */
  moves: [CaseStatus, string, number?][];
  /** A settlement a colleague asked for that waits for the owner's approval. */
  settlementForApproval?: number;
}

const dollars = (amount: number) => amount * 100;
const party = (name: string, type: CaseInput['plaintiff']['type'], email = '') => ({
  name,
  type,
  email,
});
const HOUSE = party('Harborview Auctions', 'business', 'legal@harborview.demo');

const plans: CasePlan[] = [
  {
    input: {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'high',
      title: 'Unpaid invoice for lot 14',
      description: 'The winning bidder has not paid 21 days after the sale despite two reminders.',
      jurisdiction: 'Massachusetts',
      claimAmount: dollars(12_400),
      plaintiff: HOUSE,
      defendant: party('', 'individual'),
    },
    auction: 0,
    bidder: 0,
    assign: true,
    moves: [['IN REVIEW', 'Invoice and reminders verified; opening an investigation']],
  },
  {
    input: {
      caseType: 'authenticity_claim',
      category: 'post_sale',
      priority: 'critical',
      title: 'Buyer disputes attribution of a landscape',
      description: 'The buyer’s expert questions the attribution printed in the catalogue.',
      jurisdiction: 'New York',
      claimAmount: dollars(85_000),
      plaintiff: party('Whitcombe Collection LLC', 'business', 'counsel@whitcombe.example'),
      defendant: HOUSE,
    },
    auction: 1,
    assign: true,
    moves: [
      ['IN REVIEW', 'Expert report received'],
      ['LITIGATION', 'Complaint filed in the Supreme Court of New York'],
    ],
  },
  {
    input: {
      caseType: 'condition_dispute',
      category: 'post_sale',
      priority: 'medium',
      title: 'Frame damaged in shipping',
      description: 'The buyer reports a cracked frame on delivery; photos attached by e-mail.',
      jurisdiction: 'Massachusetts',
      claimAmount: dollars(1_850),
      plaintiff: party('', 'individual'),
      defendant: HOUSE,
    },
    bidder: 1,
    assign: false,
    moves: [],
  },
  {
    input: {
      caseType: 'title_dispute',
      category: 'pre_sale',
      priority: 'high',
      title: 'Heir claims ownership of consigned silver',
      description: 'A family member says the consignor had no right to sell the tea service.',
      jurisdiction: 'Rhode Island',
      claimAmount: dollars(9_600),
      plaintiff: party('Margaret Ellery', 'individual', 'mellery@example.com'),
      defendant: HOUSE,
    },
    auction: 2,
    assign: true,
    moves: [
      ['IN REVIEW', 'Provenance file requested from the consignor'],
      ['MEDIATION', 'Both parties agreed to mediation'],
    ],
  },
  {
    input: {
      caseType: 'consigner_dispute',
      category: 'administrative',
      priority: 'low',
      title: 'Commission rate questioned by consignor',
      description: 'The consignor expected 10% commission instead of the 15% in the agreement.',
      jurisdiction: 'Massachusetts',
      claimAmount: dollars(640),
      plaintiff: party('Peter Haskell', 'individual'),
      defendant: HOUSE,
    },
    assign: true,
    moves: [
      ['IN REVIEW', 'Agreement retrieved'],
      ['RESOLVED', 'Signed agreement shows 15%; consignor accepted'],
    ],
  },
  {
    input: {
      caseType: 'bidder_complaint',
      category: 'during_sale',
      priority: 'low',
      title: 'Absentee bid not executed',
      description: 'A bidder says their absentee bid was not placed on lot 31.',
      jurisdiction: 'Massachusetts',
      claimAmount: 0,
      plaintiff: party('', 'individual'),
      defendant: HOUSE,
    },
    bidder: 2,
    assign: false,
    moves: [['DISMISSED', 'The bid arrived after the lot closed']],
  },
  {
    input: {
      caseType: 'contract_breach',
      category: 'post_sale',
      priority: 'medium',
      title: 'Shipper missed the delivery window',
      description: 'The contracted shipper delivered a sculpture three weeks late.',
      jurisdiction: 'Connecticut',
      claimAmount: dollars(22_000),
      plaintiff: HOUSE,
      defendant: party('Coastline Fine Art Shipping', 'business', 'claims@coastline.example'),
    },
    assign: true,
    moves: [
      ['IN REVIEW', 'Contract and tracking records gathered'],
      ['MEDIATION', 'Shipper proposed mediation'],
      ['SETTLED', 'Shipper agreed to refund the fee and pay damages', dollars(18_500)],
    ],
  },
  {
    input: {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'critical',
      title: 'Chargeback on a vehicle purchase',
      description: 'The buyer’s bank reversed the card payment for a 1967 roadster.',
      jurisdiction: 'Massachusetts',
      claimAmount: dollars(72_000),
      plaintiff: HOUSE,
      defendant: party('', 'individual'),
    },
    auction: 3,
    bidder: 3,
    assign: true,
    moves: [
      ['IN REVIEW', 'Bank’s chargeback notice received'],
      ['MEDIATION', 'Buyer agreed to mediate'],
    ],
    settlementForApproval: dollars(62_000),
  },
];

/**
 * The demo tenant's legal cases, filed and moved by its people through the legal service, so
 * each has its number, timeline and audit as a real one would. One settlement waits for the
 * owner's approval (asked for by `colleague`), so the bell has something to act on.
 */
export async function seedDemoCases(
  ctx: RequestContext,
  owner: { userId: string; name: string; email: string },
  colleague: { userId: string; name: string; email: string },
): Promise<void> {
  const as = (person: typeof owner, role: UserActor['role']): RequestContext => ({
    ...ctx,
    actor: { kind: 'user', ...person, role, sessionId: 'demo-seed' },
  });
  const filer = as(owner, 'owner');
  const asker = as(colleague, 'admin');
  const [auctions, bidders] = await Promise.all([
    listAuctions(ctx, {
      page: 1,
      limit: 10,
      sortBy: 'startsAt',
      sortOrder: 'desc',
    }),
    listBidders(ctx, { scoreType: 'lotwise', sort: 'desc', limit: 10 }),
  ]);
  for (const plan of plans) {
    const auction = plan.auction === undefined ? undefined : auctions.auctions[plan.auction];
    const bidder = plan.bidder === undefined ? undefined : bidders.bidders[plan.bidder];
    const bidderName = bidder ? `${bidder.firstName} ${bidder.lastName}` : '';
    const input: CaseInput = {
      ...plan.input,
      defendant:
        plan.input.defendant.name === '' && bidder
          ? party(bidderName, 'individual', bidder.email ?? '')
          : plan.input.defendant,
      plaintiff:
        plan.input.plaintiff.name === '' && bidder
          ? party(bidderName, 'individual', bidder.email ?? '')
          : plan.input.plaintiff,
      currency: 'USD',
      auctionId: auction?.id ?? null,
      bidderId: bidder?.id ?? null,
      assignedTo: null,
    };
    let record = await createCase(filer, input);
    if (plan.assign) {
      record = await updateCase(filer, record.id, caseEtag(record), { assignedTo: owner.userId });
    }
    for (const [to, reason, settlementAmount] of plan.moves) {
      record = await changeStatus(filer, record.id, {
        to,
        reason,
        ...(settlementAmount === undefined ? {} : { settlementAmount }),
      });
    }
    if (plan.settlementForApproval !== undefined) {
      await changeStatus(asker, record.id, {
        to: 'SETTLED',
        reason: 'Buyer offers to pay most of the price to end the dispute',
        settlementAmount: plan.settlementForApproval,
      });
    }
  }
}
