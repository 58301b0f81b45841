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
  scoreChangesRepo,
  countScoredBefore,
  pageScoredBefore,
  patchScores,
  type ScoringFacts,
} from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';
import { scoreChangeOf } from './score-history.service.js';

/** Bidders read per page; progress is reported after each. */
const PAGE = 2000;
/** Batches written at once, so the host scores the next while Cosmos writes the last. */
const PARALLEL_BATCHES = 4;

/** What a recalculation is about: the settings, and who saved them. */
interface Recalculation {
  settings: ScoringRules;
  savedBy: string;
}

/** A recalculation's change to one bidder has one id, so writing it again replaces it. */
const changeId = (bidderId: string, version: number) => `${bidderId}:v${version}`;

function rescored(facts: ScoringFacts, { settings, savedBy }: Recalculation) {
  const scores = scoresOf(facts, settings);
  const change = scoreChangeOf(
    facts,
    { id: facts.id, ...scores },
    { id: changeId(facts.id, settings.version), cause: 'Scoring settings changed', by: savedBy },
  );
  return { id: facts.id, etag: facts._etag, scores, change };
}

/**
 * The score changes of a batch are written before its scores: should the job fail between the
 * two, the bidders are still outdated and a rerun writes the same changes again, by id.
 */
async function writeChanges(ctx: RequestContext, batch: ReturnType<typeof rescored>[]) {
  const changes = batch.flatMap(({ change }) => (change ? [change] : []));
  if (changes.length === 0) return;
  await scoreChangesRepo.writeBatch(
    ctx.scope,
    changes.map((document) => ({ op: 'upsert' as const, document })),
  );
}

/** Takes back a change written ahead of a rescore that did not happen as written. */
async function forgetChange(ctx: RequestContext, bidderId: string, version: number) {
  await scoreChangesRepo.delete(ctx.scope, changeId(bidderId, version)).catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  });
}

/**
 * One bidder, re-read when someone changed it meanwhile; skipped once it is current or gone. The
 * change its batch wrote ahead is rewritten from what was re-read, or taken back.
 */
async function rescoreOne(
  ctx: RequestContext,
  facts: ScoringFacts,
  job: Recalculation,
): Promise<void> {
  const { version } = job.settings;
  let current: ScoringFacts | undefined = facts;
  for (let attempt = 0; attempt < 3 && current; attempt += 1) {
    // An edit since the save already scored it with these settings (or newer ones).
    if (current.customVersion >= version) break;
    const update = rescored(current, job);
    try {
      // Its batch already wrote the change of the version it read; a re-read one needs its own.
      if (current !== facts) {
        if (update.change) await writeChanges(ctx, [update]);
        else await forgetChange(ctx, current.id, version);
      }
      await patchScores(ctx.scope, [update]);
      return;
    } catch (error) {
      if (!isStale(error) && !isNotFound(error)) throw error;
      current = await biddersRepo.find(ctx.scope, facts.id);
    }
  }
  // Not rescored here: the edit (or nothing) tells of its move.
  await forgetChange(ctx, facts.id, version);
}

/**
 * Up to a hundred bidders' scores patched in one transactional batch, each guarded by the ETag
 * it was read with. When one of them changed or went meanwhile, that batch is done one bidder at
 * a time instead.
 */
async function rescoreBatch(
  ctx: RequestContext,
  batch: ScoringFacts[],
  job: Recalculation,
): Promise<void> {
  const updates = batch.map((facts) => rescored(facts, job));
  await writeChanges(ctx, updates);
  try {
    await patchScores(ctx.scope, updates);
  } catch (error) {
    if (!isStale(error) && !isNotFound(error)) throw error;
    for (const facts of batch) await rescoreOne(ctx, facts, job);
  }
}

/**
 * Recalculates the custom score and automation status of every bidder scored with older
 * settings, a page at a time (the next page is read while this one is written), reporting
 * progress after each (the bidders whose batches are written by then), and keeping each bidder's
 * score change as caused by the save of `savedBy`. It stops as soon as a newer save has made
 * another job the latest: progress is only ever written for the latest job.
 */
export async function recomputeScores(
  ctx: RequestContext,
  jobId: string,
  version: number,
  savedBy: string,
): Promise<void> {
  const settings = await scoringSettings(ctx);
  if (settings.version !== version) return;
  const job: Recalculation = { settings, savedBy };
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
      rescoreBatch(ctx, batch, job).then(() => {
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
