import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import { auditView, derive } from './bidder-model.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';
import { recordScoreChange } from './score-history.service.js';

/**
 * Counts an open legal dispute against a bidder, or stops counting it (closed, or no longer
 * naming them). The case id is kept on the bidder, so doing it twice counts once; the dispute
 * history (`stats.disputes`) and the scores move with it, and the score change names its cause.
 * A bidder no longer there has nothing to count.
 */
export async function countLegalDispute(
  ctx: RequestContext,
  bidderId: string,
  caseId: string,
  open: boolean,
  cause: string,
): Promise<void> {
  const settings = await scoringSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const current = await biddersRepo.find(ctx.scope, bidderId);
    if (!current) return;
    const counted = current.legalDisputes ?? [];
    if (counted.includes(caseId) === open) return;
    const legalDisputes = open ? [...counted, caseId] : counted.filter((id) => id !== caseId);
    const { _etag, _ts, ...record } = current;
    const next: BidderRecord = derive(
      {
        ...record,
        legalDisputes,
        stats: {
          ...record.stats,
          disputes: Math.max(0, record.stats.disputes + (open ? 1 : -1)),
        },
        updatedAt: new Date().toISOString(),
      },
      settings,
    );
    try {
      const saved = await biddersRepo.replace(ctx.scope, next, _etag);
      forgetTotals(ctx.scope.accountId);
      await writeAudit(ctx, {
        action: open ? 'bidder.dispute_opened' : 'bidder.dispute_closed',
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
