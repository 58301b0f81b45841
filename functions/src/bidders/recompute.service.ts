import type { Stored, TenantScope } from '../platform/repo.js';
import type { ScoringSettings } from '../scoring/scoring.schema.js';
import { reportRecompute, scoringSettings } from '../scoring/scoring.service.js';
import { derive } from './bidder-model.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
import { forgetTotals } from './list-totals.js';

const PAGE = 500;
const PARALLEL = 16;

async function rescoreOne(
  scope: TenantScope,
  record: Stored<BidderRecord>,
  settings: ScoringSettings,
): Promise<void> {
  let current = record;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (current.customVersion === settings.version) return;
    try {
      await biddersRepo.replace(
        scope,
        { ...derive(current, settings), accountId: scope.accountId },
        current._etag,
      );
      return;
    } catch (error) {
      // Someone edited the bidder meanwhile: their save already scored it, or re-read and redo.
      if ((error as { code?: unknown }).code !== 412) throw error;
      const fresh = await biddersRepo.find(scope, record.id);
      if (!fresh) return;
      current = fresh;
    }
  }
}

/**
 * Recalculates every bidder's custom score and automation status with the account's current
 * settings, reporting progress on the settings as it goes. A newer save supersedes this run.
 */
export async function recomputeScores(
  scope: TenantScope,
  jobId: string,
  version: number,
): Promise<void> {
  const settings = await scoringSettings(scope);
  if (settings.version !== version || settings.recompute?.jobId !== jobId) return;
  const startedAt = new Date().toISOString();
  const total = await biddersRepo.count(scope);
  let processed = 0;
  await reportRecompute(scope, {
    jobId,
    status: 'running',
    processed,
    total,
    startedAt,
    finishedAt: null,
  });
  try {
    let token: string | undefined;
    do {
      const page = await biddersRepo.page(scope, {
        pageSize: PAGE,
        ...(token ? { continuationToken: token } : {}),
      });
      for (let start = 0; start < page.items.length; start += PARALLEL) {
        await Promise.all(
          page.items
            .slice(start, start + PARALLEL)
            .map((record) => rescoreOne(scope, record, settings)),
        );
      }
      processed += page.items.length;
      token = page.continuationToken;
      const latest = await scoringSettings(scope);
      if (latest.version !== version) return;
      await reportRecompute(scope, {
        jobId,
        status: 'running',
        processed: Math.min(processed, total),
        total,
        startedAt,
        finishedAt: null,
      });
    } while (token);
    forgetTotals(scope.accountId);
    await reportRecompute(scope, {
      jobId,
      status: 'completed',
      processed: total,
      total,
      startedAt,
      finishedAt: new Date().toISOString(),
    });
  } catch (error) {
    await reportRecompute(scope, {
      jobId,
      status: 'failed',
      processed,
      total,
      startedAt,
      finishedAt: new Date().toISOString(),
    });
    throw error;
  }
}
