import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import { preconditionFailed } from '../platform/errors.js';
import { enqueue } from '../platform/queue.js';
import type { BatchOperation, Stored } from '../platform/repo.js';
import {
  AUTO_MERGE_DEFAULT,
  DEFAULT_AUTOMATION,
  DEFAULT_CUSTOM_TIERS,
  DEFAULT_CUSTOM_WEIGHTS,
  DEFAULT_REGISTRATION_RULES,
  type RecomputeMessage,
  type RecomputeStatus,
  type ScoringRules,
  type ScoringSettings,
  type ScoringSettingsView,
} from './scoring.schema.js';
import {
  findRecompute,
  findSettings,
  scoringRepo,
  type RecomputeRecord,
  type ScoringDocument,
  type ScoringSettingsRecord,
} from './scoring.repo.js';

export const RECOMPUTE_QUEUE = 'scoring-recompute';

/** The ETag of the built-in defaults, before a house saves settings of its own. */
export const DEFAULTS_ETAG = 'defaults';

export const defaultScoringSettings = (): ScoringSettings => ({
  customWeights: { ...DEFAULT_CUSTOM_WEIGHTS },
  customTiers: { ...DEFAULT_CUSTOM_TIERS },
  automation: structuredClone(DEFAULT_AUTOMATION),
  registration: structuredClone(DEFAULT_REGISTRATION_RULES),
  autoMergeThreshold: AUTO_MERGE_DEFAULT,
  version: 0,
  updatedAt: null,
  recompute: null,
});

const rulesOf = (record: ScoringSettingsRecord): ScoringRules => ({
  customWeights: record.customWeights,
  customTiers: record.customTiers,
  automation: record.automation,
  // Settings saved before registrations existed take the defaults.
  registration: record.registration ?? structuredClone(DEFAULT_REGISTRATION_RULES),
  autoMergeThreshold: record.autoMergeThreshold,
  version: record.version,
  updatedAt: record.updatedAt,
});

const statusOf = (record: RecomputeRecord | undefined): RecomputeStatus | null =>
  record
    ? {
        jobId: record.jobId,
        status: record.status,
        processed: record.processed,
        total: record.total,
        startedAt: record.startedAt,
        finishedAt: record.finishedAt,
      }
    : null;

/** The house's scoring rules, or the defaults until it saves its own. */
export async function scoringSettings(ctx: Pick<RequestContext, 'scope'>): Promise<ScoringRules> {
  const stored = await findSettings(ctx.scope);
  if (!stored) {
    const { recompute: _recompute, ...defaults } = defaultScoringSettings();
    return defaults;
  }
  return rulesOf(stored);
}

/** The settings as the screens show them: the rules, the latest recalculation and the ETag. */
export async function scoringSettingsView(
  ctx: Pick<RequestContext, 'scope'>,
): Promise<ScoringSettingsView> {
  const [stored, recompute] = await Promise.all([
    findSettings(ctx.scope),
    findRecompute(ctx.scope),
  ]);
  const rules = stored ? rulesOf(stored) : defaultScoringSettings();
  return {
    ...rules,
    recompute: stored ? statusOf(recompute) : null,
    etag: stored?._etag ?? DEFAULTS_ETAG,
  };
}

const editable = (settings: ScoringRules) => ({
  customWeights: settings.customWeights,
  customTiers: settings.customTiers,
  automation: settings.automation,
  registration: settings.registration,
  autoMergeThreshold: settings.autoMergeThreshold,
});

/** Puts documents back as they were; what was not there before is removed. */
function restoreOperations(
  written: Stored<ScoringDocument>[],
  previous: Map<string, Stored<ScoringDocument> | undefined>,
): BatchOperation<ScoringDocument>[] {
  return written.map((document) => {
    const before = previous.get(document.id);
    return before
      ? { op: 'replace', document: before, etag: document._etag }
      : { op: 'delete', id: document.id, etag: document._etag };
  });
}

/**
 * Saves what changed, against the version the caller read (`etag`; the defaults' is `defaults`).
 * A change to what the custom score or the automation depend on also makes a new recalculation
 * the latest one, in the same transactional batch, and queues it; if it cannot be queued, both
 * documents are put back, so a failed save changes nothing.
 */
export async function saveScoringSettings(
  ctx: RequestContext,
  etag: string,
  changes: Partial<Omit<ScoringSettings, 'version' | 'updatedAt' | 'recompute'>>,
): Promise<ScoringSettingsView> {
  for (;;) {
    const [stored, recompute] = await Promise.all([
      findSettings(ctx.scope),
      findRecompute(ctx.scope),
    ]);
    if ((stored?._etag ?? DEFAULTS_ETAG) !== etag) throw preconditionFailed();
    const { recompute: _none, ...defaults } = defaultScoringSettings();
    const current: ScoringRules = stored ? rulesOf(stored) : defaults;
    const next: ScoringSettingsRecord = {
      ...current,
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      id: 'scoring',
      accountId: ctx.scope.accountId,
      updatedAt: new Date().toISOString(),
    };
    const rescore =
      JSON.stringify([next.customWeights, next.customTiers, next.automation]) !==
      JSON.stringify([current.customWeights, current.customTiers, current.automation]);
    const operations: BatchOperation<ScoringDocument>[] = [
      stored ? { op: 'replace', document: next, etag } : { op: 'create', document: next },
    ];
    let job: RecomputeRecord | undefined;
    if (rescore) {
      next.version = current.version + 1;
      job = {
        id: 'recompute',
        accountId: ctx.scope.accountId,
        version: next.version,
        jobId: randomUUID(),
        status: 'queued',
        processed: 0,
        total: 0,
        startedAt: null,
        finishedAt: null,
      };
      operations.push(
        recompute
          ? { op: 'replace', document: job, etag: recompute._etag }
          : { op: 'create', document: job },
      );
    }
    let written: Stored<ScoringDocument>[];
    try {
      written = await scoringRepo.batch(ctx.scope, operations);
    } catch (error) {
      // The settings changed (someone saved first), or only the running job reported progress.
      if (isStale(error) || isConflict(error)) continue;
      throw error;
    }
    if (job) {
      try {
        await enqueue(RECOMPUTE_QUEUE, {
          accountId: ctx.scope.accountId,
          jobId: job.jobId,
          version: job.version,
          savedBy: ctx.actor.name,
        } satisfies RecomputeMessage);
      } catch (error) {
        const previous = new Map<string, Stored<ScoringDocument> | undefined>([
          ['scoring', stored],
          ['recompute', recompute],
        ]);
        // A newer save may already have replaced both; then it is theirs that stands.
        await scoringRepo
          .batch(ctx.scope, restoreOperations(written, previous))
          .catch((restoreError: unknown) => {
            if (!isStale(restoreError)) throw restoreError;
          });
        throw error;
      }
    }
    await writeAudit(ctx, {
      action: 'scoring.settings-update',
      entity: { type: 'scoringSettings', id: 'scoring' },
      before: editable(current),
      after: editable(rulesOf(next)),
    });
    const saved = written[0] as Stored<ScoringSettingsRecord>;
    const latest = job ? (written[1] as Stored<RecomputeRecord>) : recompute;
    return { ...rulesOf(saved), recompute: statusOf(latest), etag: saved._etag };
  }
}

/**
 * Progress of a recalculation, written by its worker only while it is still the latest job:
 * answers false once a newer save has superseded it, and the worker stops.
 */
export async function reportRecompute(
  ctx: Pick<RequestContext, 'scope'>,
  version: number,
  status: RecomputeStatus,
): Promise<boolean> {
  for (;;) {
    const current = await findRecompute(ctx.scope);
    if (!current || current.version !== version || current.jobId !== status.jobId) return false;
    try {
      await scoringRepo.replace(ctx.scope, { ...current, ...status }, current._etag);
      return true;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
}
