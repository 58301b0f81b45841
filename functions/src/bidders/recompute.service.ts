import type { RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import type { Stored } from '../platform/repo.js';
import type { RecomputeStatus, ScoringRules } from '../scoring/scoring.schema.js';
import { reportRecompute, scoringSettings } from '../scoring/scoring.service.js';
import { derive } from './bidder-model.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';

const PAGE = 500;
const PARALLEL = 16;

async function rescoreOne(
  ctx: RequestContext,
  record: Stored<BidderRecord>,
  settings: ScoringRules,
): Promise<void> {
  let current = record;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (current.customVersion === settings.version) return;
    try {
      await biddersRepo.replace(
        ctx.scope,
        { ...derive(current, settings), accountId: ctx.scope.accountId },
        current._etag,
      );
      return;
    } catch (error) {
      // Someone edited the bidder meanwhile: their save already scored it, or re-read and redo.
      if (!isStale(error)) throw error;
      const fresh = await biddersRepo.find(ctx.scope, record.id);
      if (!fresh) return;
      current = fresh;
    }
  }
}

/**
 * Recalculates every bidder's custom score and automation status with the account's current
 * settings, reporting progress as it goes. It stops as soon as a newer save has made another job
 * the latest: progress is only ever written for the latest job.
 */
export async function recomputeScores(
  ctx: RequestContext,
  jobId: string,
  version: number,
): Promise<void> {
  const settings = await scoringSettings(ctx);
  if (settings.version !== version) return;
  const startedAt = new Date().toISOString();
  const total = await biddersRepo.count(ctx.scope);
  let processed = 0;
  const report = (status: RecomputeStatus['status'], finishedAt: string | null = null) =>
    reportRecompute(ctx, version, {
      jobId,
      status,
      processed: Math.min(processed, total),
      total,
      startedAt,
      finishedAt,
    });
  if (!(await report('running'))) return;
  try {
    let token: string | undefined;
    do {
      const page = await biddersRepo.page(ctx.scope, {
        pageSize: PAGE,
        ...(token ? { continuationToken: token } : {}),
      });
      for (let start = 0; start < page.items.length; start += PARALLEL) {
        await Promise.all(
          page.items
            .slice(start, start + PARALLEL)
            .map((record) => rescoreOne(ctx, record, settings)),
        );
      }
      processed += page.items.length;
      token = page.continuationToken;
      if (!(await report('running'))) return;
    } while (token);
    forgetTotals(ctx.scope.accountId);
    processed = total;
    await report('completed', new Date().toISOString());
  } catch (error) {
    await report('failed', new Date().toISOString());
    throw error;
  }
}
