import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import { auditView, derive } from './bidder-model.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';
import { recordScoreChange } from './score-history.service.js';

/** Where a legal case leaves the bidder it names. */
export interface CaseStanding {
  /** An open payment dispute: it counts in their dispute history (and the scores). */
  disputed: boolean;
  /** A non-paying-bidder strike: open, or lost (ended unpaid and not dismissed). */
  strike: boolean;
}

const toggled = (ids: string[], id: string, on: boolean) =>
  on ? (ids.includes(id) ? ids : [...ids, id]) : ids.filter((other) => other !== id);

/**
 * Records where a legal case leaves a bidder: an open dispute counted in their dispute history
 * (`stats.disputes`, so the scores move and the change names its cause), and a non-paying-bidder
 * strike the registration rules count. The case id is kept on the bidder, so doing it twice
 * counts once. A bidder no longer there has nothing to count.
 */
export async function recordCaseStanding(
  ctx: RequestContext,
  bidderId: string,
  caseId: string,
  standing: CaseStanding,
  cause: string,
): Promise<void> {
  const settings = await scoringSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const current = await biddersRepo.find(ctx.scope, bidderId);
    if (!current) return;
    const disputes = current.legalDisputes ?? [];
    const strikes = current.nonPaymentStrikes ?? [];
    const wasDisputed = disputes.includes(caseId);
    if (wasDisputed === standing.disputed && strikes.includes(caseId) === standing.strike) return;
    const { _etag, _ts, ...record } = current;
    const next: BidderRecord = derive(
      {
        ...record,
        legalDisputes: toggled(disputes, caseId, standing.disputed),
        nonPaymentStrikes: toggled(strikes, caseId, standing.strike),
        stats: {
          ...record.stats,
          disputes: Math.max(
            0,
            record.stats.disputes + Number(standing.disputed) - Number(wasDisputed),
          ),
        },
        updatedAt: new Date().toISOString(),
      },
      settings,
    );
    try {
      const saved = await biddersRepo.replace(ctx.scope, next, _etag);
      forgetTotals(ctx.scope.accountId);
      await writeAudit(ctx, {
        action:
          wasDisputed === standing.disputed
            ? standing.strike
              ? 'bidder.strike_added'
              : 'bidder.strike_cleared'
            : standing.disputed
              ? 'bidder.dispute_opened'
              : 'bidder.dispute_closed',
        entity: { type: 'bidder', id: bidderId },
        before: auditView(current),
        after: auditView(saved),
      });
      await recordScoreChange(ctx, current, saved, cause);
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}
