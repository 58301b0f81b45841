import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import { inFlight } from '../platform/in-flight.js';
import { MAX_BATCH_OPERATIONS } from '../platform/repo.js';
import type { RecomputeStatus, ScoringRules } from '../scoring/scoring.schema.js';
import { reportRecompute, scoringSettings } from '../scoring/scoring.service.js';
import { scoresOf } from './bidder-model.js';
import {
  biddersRepo,
  countAllBidders,
  countScoredBefore,
  pageScoredBefore,
  patchScores,
  type ScoringFacts,
} from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';

/** Bidders read per page; progress is reported after each. */
const PAGE = 2000;
/** Batches written at once, so the host scores the next while Cosmos writes the last. */
const PARALLEL_BATCHES = 4;

const rescored = (facts: ScoringFacts, settings: ScoringRules) => ({
  id: facts.id,
  etag: facts._etag,
  scores: scoresOf(facts, settings),
});

/** One bidder, re-read when someone changed it meanwhile; skipped once it is current or gone. */
async function rescoreOne(
  ctx: RequestContext,
  facts: ScoringFacts,
  settings: ScoringRules,
): Promise<void> {
  let current: ScoringFacts | undefined = facts;
  for (let attempt = 0; attempt < 3 && current; attempt += 1) {
    // An edit since the save already scored it with these settings (or newer ones).
    if (current.customVersion >= settings.version) return;
    try {
      await patchScores(ctx.scope, [rescored(current, settings)]);
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isStale(error)) throw error;
      current = await biddersRepo.find(ctx.scope, facts.id);
    }
  }
}

/**
 * Up to a hundred bidders' scores patched in one transactional batch, each guarded by the ETag
 * it was read with. When one of them changed or went meanwhile, that batch is done one bidder at
 * a time instead.
 */
async function rescoreBatch(
  ctx: RequestContext,
  batch: ScoringFacts[],
  settings: ScoringRules,
): Promise<void> {
  try {
    await patchScores(
      ctx.scope,
      batch.map((facts) => rescored(facts, settings)),
    );
  } catch (error) {
    if (!isStale(error) && !isNotFound(error)) throw error;
    for (const facts of batch) await rescoreOne(ctx, facts, settings);
  }
}

/**
 * Recalculates the custom score and automation status of every bidder scored with older
 * settings, a page at a time (the next page is read while this one is written), reporting
 * progress after each (the bidders whose batches are written by then). It stops as soon as a newer save has made another job the latest:
 * progress is only ever written for the latest job.
 */
export async function recomputeScores(
  ctx: RequestContext,
  jobId: string,
  version: number,
): Promise<void> {
  const settings = await scoringSettings(ctx);
  if (settings.version !== version) return;
  const startedAt = new Date().toISOString();
  const [total, outdated] = await Promise.all([
    countAllBidders(ctx.scope),
    countScoredBefore(ctx.scope, version),
  ]);
  // Bidders added or edited since the save are already current.
  let processed = total - outdated;
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
  const read = (token: string | undefined) => {
    const page = pageScoredBefore(ctx.scope, version, PAGE, token);
    // Awaited in turn; should the job stop first, its failure must not count as unhandled.
    page.catch(() => undefined);
    return page;
  };
  const writes = inFlight(PARALLEL_BATCHES);
  const rescore = (batch: ScoringFacts[]) =>
    writes.add(
      rescoreBatch(ctx, batch, settings).then(() => {
        processed += batch.length;
      }),
    );
  try {
    let reading = read(undefined);
    for (;;) {
      const page = await reading;
      const token = page.continuationToken;
      // Pages resume after the last bidder read, so rescoring this one does not move the next.
      if (token) reading = read(token);
      for (let start = 0; start < page.items.length; start += MAX_BATCH_OPERATIONS) {
        await rescore(page.items.slice(start, start + MAX_BATCH_OPERATIONS));
      }
      // The batches still being written carry on meanwhile.
      if (!(await report('running'))) {
        await writes.settle();
        return;
      }
      if (!token) break;
    }
    await writes.finish();
    forgetTotals(ctx.scope.accountId);
    processed = total;
    await report('completed', new Date().toISOString());
  } catch (error) {
    await writes.settle();
    await report('failed', new Date().toISOString());
    throw error;
  }
}
