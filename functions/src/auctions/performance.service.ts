import type { RequestContext } from '../platform/context.js';
import { lotsOf, registrationsOf } from './auctions.repo.js';
import type { Performance } from './auctions.schema.js';
import { getAuction } from './auctions.service.js';

/** Premium on a hammer at the auction's percentage, rounded to the minor unit. */
export const premiumOn = (hammer: number, percent: number) => Math.round((hammer * percent) / 100);

/** How an auction did: registrations by outcome, bidding, lots sold, money and bidder quality. */
export async function auctionPerformance(ctx: RequestContext, id: string): Promise<Performance> {
  const auction = await getAuction(ctx, id);
  const [lots, registrations] = await Promise.all([
    lotsOf(ctx.scope, id),
    registrationsOf(ctx.scope, id),
  ]);
  const count = (status: string) => registrations.filter((row) => row.status === status).length;
  const approved = registrations.filter((row) => row.status === 'approved');
  const sold = lots.filter((lot) => lot.result?.outcome === 'sold');
  const hammerTotal = sold.reduce((sum, lot) => sum + (lot.result?.hammer ?? 0), 0);
  const buyersPremiumTotal = sold.reduce(
    (sum, lot) => sum + premiumOn(lot.result?.hammer ?? 0, auction.buyersPremium),
    0,
  );
  return {
    auctionId: id,
    currency: auction.currency,
    registered: registrations.filter((row) => row.registeredAt !== null).length,
    approved: approved.length,
    pending: count('pending'),
    denied: count('denied'),
    invited: registrations.filter((row) => row.invitedAt !== null).length,
    bids: lots.reduce((sum, lot) => sum + (lot.result?.bidCount ?? 0), 0),
    lotsOffered: lots.length,
    lotsSold: sold.length,
    lotsClerked: lots.filter((lot) => lot.result !== null).length,
    sellThroughRate: lots.length ? sold.length / lots.length : null,
    hammerTotal,
    buyersPremiumTotal,
    averageBidderScore: approved.length
      ? Math.round(approved.reduce((sum, row) => sum + row.lotwiseScore, 0) / approved.length)
      : null,
  };
}
