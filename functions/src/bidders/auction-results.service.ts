import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import { auditView, derive } from './bidder-model.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
import type { BidderStats, HistoryEntry } from './bidders.schema.js';
import { getBidder } from './bidders.service.js';
import { forgetTotals } from './list-totals.js';
import { recordScoreChange } from './score-history.service.js';

/** What one auction meant for one bidder, as the auctions service tallies it after the sale. */
export interface AuctionParticipation {
  entry: HistoryEntry;
  /** Lots the bidder bid on (won or not). */
  lotsBid: number;
}

/** The stats an auction history entry contributes: added for a new entry, swapped for a changed one. */
function contribution(participation: AuctionParticipation | undefined) {
  if (!participation) return { auctions: 0, lots: 0, wins: 0, spent: 0 };
  return {
    auctions: 1,
    lots: participation.lotsBid,
    wins: participation.entry.wonItems,
    spent: participation.entry.totalSpent,
  };
}

/**
 * Writes an auction's outcome into a bidder's record: the history entry (one per auction, so
 * closing twice or correcting a result replaces it, never counts it twice), the stats the scores
 * read, and the scores recomputed, with the change kept and its cause named. The bidder's own
 * ETag guards the write; an edit made meanwhile is re-read and the outcome applied again.
 */
export async function recordAuctionOutcome(
  ctx: RequestContext,
  bidderId: string,
  participation: AuctionParticipation,
  cause: string,
): Promise<void> {
  const settings = await scoringSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const current = await getBidder(ctx, bidderId);
    const previousEntry = current.history.find((entry) => entry.id === participation.entry.id);
    const before = contribution(
      previousEntry
        ? {
            entry: previousEntry,
            lotsBid:
              (current.auctionLotsBid ?? {})[participation.entry.id] ?? previousEntry.totalBids,
          }
        : undefined,
    );
    const after = contribution(participation);
    const stats: BidderStats = {
      ...current.stats,
      totalAuctionsBid: current.stats.totalAuctionsBid - before.auctions + after.auctions,
      totalLotsBid: Math.max(0, current.stats.totalLotsBid - before.lots + after.lots),
      wins: Math.max(0, current.stats.wins - before.wins + after.wins),
      totalWinAmount: Math.max(0, current.stats.totalWinAmount - before.spent + after.spent),
      firstAuction: earliest(current.stats.firstAuction, participation.entry.auctionDate),
      lastAuction: latest(current.stats.lastAuction, participation.entry.auctionDate),
    };
    const { _etag, _ts, ...record } = current;
    const next: BidderRecord = derive(
      {
        ...record,
        stats,
        history: [
          ...current.history.filter((entry) => entry.id !== participation.entry.id),
          participation.entry,
        ],
        auctionLotsBid: {
          ...(current.auctionLotsBid ?? {}),
          [participation.entry.id]: participation.lotsBid,
        },
        updatedAt: new Date().toISOString(),
      },
      settings,
    );
    try {
      const saved = await biddersRepo.replace(ctx.scope, next, _etag);
      forgetTotals(ctx.scope.accountId);
      await writeAudit(ctx, {
        action: 'bidder.auction_outcome',
        entity: { type: 'bidder', id: bidderId },
        before: auditView(current),
        after: auditView(saved),
      });
      await recordScoreChange(ctx, current, saved, cause);
      return;
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}

const earliest = (a: string | null, b: string) => (a && a < b ? a : b);
const latest = (a: string | null, b: string) => (a && a > b ? a : b);
