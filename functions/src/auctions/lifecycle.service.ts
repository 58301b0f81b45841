import { recordAuctionOutcome } from '../bidders/auction-results.service.js';
import { accountPlanOf } from '../identity/accounts/accounts.service.js';
import { inventoryAfterClose } from '../inventory/inventory.service.js';
import { invoicesAfterClose } from '../payments/payments.service.js';
import type { HistoryEntry } from '../bidders/bidders.schema.js';
import { systemContext, type RequestContext } from '../platform/context.js';
import { AppError, conflict } from '../platform/errors.js';
import { inFlight } from '../platform/in-flight.js';
import type { Logger } from '../platform/logging.js';
import {
  dueToGoLive,
  lotsOf,
  registrationsOf,
  type AuctionRecord,
  type LotRecord,
} from './auctions.repo.js';
import { auctionCategoryLabels, currencyExponent } from './auctions.schema.js';
import { moveAuction } from './auctions.service.js';

/** Minor units as the major-unit amounts a bidder's history and stats hold. */
const major = (auction: AuctionRecord, minor: number) =>
  minor / 10 ** currencyExponent[auction.currency];

/**
 * When the sale took place, for the bidders' records: its scheduled start, unless it was run and
 * closed before that (a record never holds an auction in its future).
 */
function ranOn(auction: AuctionRecord): string {
  const closed = auction.closedAt ? Date.parse(auction.closedAt) : Date.now();
  return closed < Date.parse(auction.startsAt) ? new Date(closed).toISOString() : auction.startsAt;
}

/** Each participant's part in a sale: the lots they bid on and the lots they won. */
export function participationsOf(auction: AuctionRecord, lots: LotRecord[]) {
  const byBidder = new Map<string, { bid: Set<string>; won: LotRecord[] }>();
  const of = (bidderId: string) => {
    let entry = byBidder.get(bidderId);
    if (!entry) {
      entry = { bid: new Set(), won: [] };
      byBidder.set(bidderId, entry);
    }
    return entry;
  };
  for (const lot of lots) {
    if (!lot.result) continue;
    for (const underbidder of lot.result.underbidders) of(underbidder).bid.add(lot.id);
    if (lot.result.outcome === 'sold' && lot.result.buyerId) {
      const buyer = of(lot.result.buyerId);
      buyer.bid.add(lot.id);
      buyer.won.push(lot);
    }
  }
  return new Map(
    [...byBidder].map(([bidderId, { bid, won }]) => {
      const spent = won.reduce((sum, lot) => sum + (lot.result?.hammer ?? 0), 0);
      const highest = won.reduce((max, lot) => Math.max(max, lot.result?.hammer ?? 0), 0);
      const entry: HistoryEntry = {
        id: `auction:${auction.id}`,
        isInternal: true,
        auctionTitle: auction.title,
        generalCategory: auctionCategoryLabels[auction.category],
        auctionHouse: auction.company,
        auctionDate: ranOn(auction),
        totalSpent: major(auction, spent),
        totalBids: bid.size,
        wonItems: won.length,
        highestBid: won.length ? major(auction, highest) : null,
        lotNumbers: won.map((lot) => lot.lotNumber),
        paymentStatus: won.length ? 'Pending' : 'Not applicable',
        pickupStatus: won.length ? 'Pending' : 'Not applicable',
        specialNotes: null,
      };
      return [bidderId, { entry, lotsBid: bid.size }] as const;
    }),
  );
}

/**
 * Writes a closed auction's outcome into the named bidders' records and rescores them. Each
 * bidder's entry replaces the one this auction wrote before, so running it again (a retried
 * close, a corrected result) is safe.
 */
export async function applyAuctionResults(
  ctx: RequestContext,
  auction: AuctionRecord,
  bidderIds: string[],
  cause: string,
): Promise<void> {
  const participations = participationsOf(auction, await lotsOf(ctx.scope, auction.id));
  const writes = inFlight(4);
  for (const bidderId of bidderIds) {
    const participation = participations.get(bidderId) ?? {
      entry: emptyEntry(auction),
      lotsBid: 0,
    };
    await writes.add(
      recordAuctionOutcome(ctx, bidderId, participation, cause).catch((error: unknown) => {
        // A bidder deleted since the sale has no record left to write to.
        if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      }),
    );
  }
  await writes.finish();
}

/** An approved bidder who bid on nothing (or whom a correction removed) still attended. */
const emptyEntry = (auction: AuctionRecord): HistoryEntry => ({
  id: `auction:${auction.id}`,
  isInternal: true,
  auctionTitle: auction.title,
  generalCategory: auctionCategoryLabels[auction.category],
  auctionHouse: auction.company,
  auctionDate: ranOn(auction),
  totalSpent: 0,
  totalBids: 0,
  wonItems: 0,
  highestBid: null,
  lotNumbers: [],
  paymentStatus: 'Not applicable',
  pickupStatus: 'Not applicable',
  specialNotes: null,
});

/**
 * What a sale's results mean beyond the bidders: each sold or returned inventory item, and with
 * the Payments add-on an invoice for each buyer. Both are idempotent, so a close that is run
 * again, or a result corrected afterwards, writes only what is missing.
 */
export async function afterSale(ctx: RequestContext, auction: AuctionRecord, lots: LotRecord[]) {
  await inventoryAfterClose(ctx, auction.id, lots);
  const plan = await accountPlanOf(ctx.scope.accountId);
  if (plan.addOns.payments) await invoicesAfterClose(ctx, auction.id);
}

/**
 * Closes an Active auction once every lot is clerked, after writing each participant's outcome
 * and new scores (the help's promise: scores are recalculated after each auction completes), and
 * what the sale means for inventory and invoices. A close cut short leaves the auction Active and
 * is simply run again.
 */
export async function closeAuction(ctx: RequestContext, id: string) {
  return moveAuction(ctx, id, 'Completed', {
    before: async (auction) => {
      const lots = await lotsOf(ctx.scope, auction.id);
      const unclerked = lots.filter((lot) => !lot.result).map((lot) => lot.lotNumber);
      if (unclerked.length) {
        throw conflict(
          `Clerk every lot before closing: ${unclerked.length} without a result (${unclerked
            .slice(0, 10)
            .join(', ')}${unclerked.length > 10 ? ', ...' : ''})`,
          { unclerked },
        );
      }
      const registrations = await registrationsOf(ctx.scope, auction.id);
      const participants = new Set([
        ...participationsOf(auction, lots).keys(),
        ...registrations.filter((row) => row.status === 'approved').map((row) => row.bidderId),
      ]);
      await applyAuctionResults(
        ctx,
        auction,
        [...participants],
        `Auction closed: ${auction.title}`,
      );
      await afterSale(ctx, auction, lots);
    },
  });
}

/** Takes every Upcoming auction whose start has come live; each on its own, as Lotwise. */
export async function goLiveDue(log: Logger, now = new Date()): Promise<number> {
  const due = await dueToGoLive(now.toISOString());
  let moved = 0;
  for (const { id, accountId } of due) {
    try {
      await moveAuction(systemContext(accountId), id, 'Active');
      moved += 1;
    } catch (error) {
      // Moved by someone else meanwhile (taken live by hand, cancelled): nothing to do.
      log.warn('auction did not go live', { auctionId: id, error: String(error) });
    }
  }
  return moved;
}
