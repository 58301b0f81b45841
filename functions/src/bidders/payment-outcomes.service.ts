import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import { auditView, derive } from './bidder-model.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
import type { BidderStats } from './bidders.schema.js';
import { getBidder } from './bidders.service.js';
import { forgetTotals } from './list-totals.js';
import { recordScoreChange } from './score-history.service.js';

export type PaymentOutcome = 'on_time' | 'late' | 'overdue';

export interface PaymentFact {
  auctionId: string | null;
  invoiceId: string;
  outcome: PaymentOutcome;
  /** Days from the invoice to its payment; null for an overdue one. */
  daysToPay: number | null;
}

const HISTORY_STATUS: Record<PaymentOutcome, string> = {
  on_time: 'Paid',
  late: 'Paid',
  overdue: 'Overdue',
};

/**
 * The payment stats a new outcome of one invoice makes: each invoice counts once, an overdue one
 * that is paid after all moves from overdue to late, and the time to pay is a running mean.
 */
export function paymentStats(
  stats: BidderStats,
  previous: PaymentOutcome | undefined,
  fact: PaymentFact,
): BidderStats | undefined {
  if (previous === fact.outcome) return undefined;
  if (previous && previous !== 'overdue') return undefined;
  if (previous === 'overdue' && fact.outcome === 'overdue') return undefined;
  const next = { ...stats };
  if (previous === 'overdue') next.paymentsOverdue = Math.max(0, next.paymentsOverdue - 1);
  if (fact.outcome === 'overdue') next.paymentsOverdue += 1;
  if (fact.outcome !== 'overdue') {
    const paid = stats.paymentsOnTime + stats.paymentsLate;
    if (fact.daysToPay !== null) {
      const days = Math.min(3650, Math.max(0, fact.daysToPay));
      next.avgDaysToPay =
        Math.round((((stats.avgDaysToPay ?? days) * paid + days) / (paid + 1)) * 10) / 10;
    }
    if (fact.outcome === 'on_time') next.paymentsOnTime += 1;
    else next.paymentsLate += 1;
  }
  return next;
}

/**
 * Records how a buyer invoice was paid (on time, late) or that it went overdue: the auction's
 * history entry (`auction:{auctionId}`) shows it, the payment stats count it once per invoice,
 * and the scores are recomputed with the cause kept. The bidder's ETag guards the write.
 */
export async function recordPaymentOutcome(
  ctx: RequestContext,
  bidderId: string,
  fact: PaymentFact,
): Promise<boolean> {
  const settings = await scoringSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const current = await getBidder(ctx, bidderId);
    const previous = (current.paymentOutcomes ?? {})[fact.invoiceId];
    const stats = paymentStats(current.stats, previous, fact);
    if (!stats) return false;
    const entryId = fact.auctionId ? `auction:${fact.auctionId}` : null;
    const { _etag, _ts, ...record } = current;
    const next: BidderRecord = derive(
      {
        ...record,
        stats,
        history: current.history.map((entry) =>
          entry.id === entryId ? { ...entry, paymentStatus: HISTORY_STATUS[fact.outcome] } : entry,
        ),
        paymentOutcomes: { ...(current.paymentOutcomes ?? {}), [fact.invoiceId]: fact.outcome },
        updatedAt: new Date().toISOString(),
      },
      settings,
    );
    try {
      const saved = await biddersRepo.replace(ctx.scope, next, _etag);
      forgetTotals(ctx.scope.accountId);
      await writeAudit(ctx, {
        action: 'bidder.payment_outcome',
        entity: { type: 'bidder', id: bidderId },
        before: auditView(current),
        after: auditView(saved),
      });
      await recordScoreChange(
        ctx,
        current,
        saved,
        fact.outcome === 'overdue'
          ? 'Invoice overdue'
          : `Invoice paid ${fact.outcome === 'late' ? 'late' : 'on time'}`,
      );
      return true;
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}
