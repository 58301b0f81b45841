import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import { MAX_BATCH_OPERATIONS, type Stored } from '../platform/repo.js';
import type { RecomputeStatus, ScoringRules } from '../scoring/scoring.schema.js';
import { reportRecompute, scoringSettings } from '../scoring/scoring.service.js';
import { derive } from './bidder-model.js';
import {
  biddersRepo,
  countAllBidders,
  countScoredBefore,
  pageScoredBefore,
  type BidderRecord,
} from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';

/** Bidders read per page; progress is reported after each. */
const PAGE = 1000;
/** Batches written at once, so the host scores the next while Cosmos writes the last. */
const PARALLEL_BATCHES = 4;

/** One bidder, re-read when someone changed it meanwhile; skipped once it is current or gone. */
async function rescoreOne(
  ctx: RequestContext,
  record: Stored<BidderRecord>,
  settings: ScoringRules,
): Promise<void> {
  let current = record;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // An edit since the save already scored it with these settings (or newer ones).
    if (current.customVersion >= settings.version) return;
    try {
      await biddersRepo.replace(
        ctx.scope,
        { ...derive(current, settings), accountId: ctx.scope.accountId },
        current._etag,
      );
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isStale(error)) throw error;
      const fresh = await biddersRepo.find(ctx.scope, record.id);
      if (!fresh) return;
      current = fresh;
    }
  }
}

/**
 * Up to a hundred bidders in one transactional batch, each guarded by the ETag it was read with.
 * When one of them changed or went meanwhile, that batch is done one bidder at a time instead.
 */
async function rescoreBatch(
  ctx: RequestContext,
  records: Stored<BidderRecord>[],
  settings: ScoringRules,
): Promise<void> {
  try {
    await biddersRepo.batch(
      ctx.scope,
      records.map((record) => ({
        op: 'replace' as const,
        document: derive(record, settings),
        etag: record._etag,
      })),
    );
  } catch (error) {
    if (!isStale(error) && !isNotFound(error)) throw error;
    for (const record of records) await rescoreOne(ctx, record, settings);
  }
}

async function rescorePage(
  ctx: RequestContext,
  records: Stored<BidderRecord>[],
  settings: ScoringRules,
): Promise<void> {
  const batches: Stored<BidderRecord>[][] = [];
  for (let start = 0; start < records.length; start += MAX_BATCH_OPERATIONS) {
    batches.push(records.slice(start, start + MAX_BATCH_OPERATIONS));
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, async () => {
      while (next < batches.length) {
        const batch = batches[next] as Stored<BidderRecord>[];
        next += 1;
        await rescoreBatch(ctx, batch, settings);
      }
    }),
  );
}

/**
 * Recalculates the custom score and automation status of every bidder scored with older
 * settings, reporting progress after each page. It stops as soon as a newer save has made another
 * job the latest: progress is only ever written for the latest job.
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
  try {
    let token: string | undefined;
    do {
      const page = await pageScoredBefore(ctx.scope, version, PAGE, token);
      await rescorePage(ctx, page.items, settings);
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
