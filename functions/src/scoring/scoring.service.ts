import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { container } from '../platform/cosmos.js';
import { enqueue } from '../platform/queue.js';
import type { TenantScope } from '../platform/repo.js';
import {
  AUTO_MERGE_DEFAULT,
  DEFAULT_AUTOMATION,
  DEFAULT_CUSTOM_TIERS,
  DEFAULT_CUSTOM_WEIGHTS,
  DEFAULT_INVITATION_THRESHOLDS,
  type RecomputeStatus,
  type ScoringSettings,
} from './scoring.schema.js';
import { scoringContainer, scoringRepo, type ScoringSettingsRecord } from './scoring.repo.js';

export const RECOMPUTE_QUEUE = 'scoring-recompute';

export interface RecomputeMessage {
  accountId: string;
  jobId: string;
  version: number;
}

export const defaultScoringSettings = (): ScoringSettings => ({
  customWeights: { ...DEFAULT_CUSTOM_WEIGHTS },
  customTiers: { ...DEFAULT_CUSTOM_TIERS },
  automation: structuredClone(DEFAULT_AUTOMATION),
  invitationThresholds: { ...DEFAULT_INVITATION_THRESHOLDS },
  autoMergeThreshold: AUTO_MERGE_DEFAULT,
  version: 0,
  updatedAt: null,
  recompute: null,
});

/** The house's scoring settings, or the defaults until it saves its own. */
export async function scoringSettings(scope: TenantScope): Promise<ScoringSettings> {
  const stored = await scoringRepo.find(scope, 'scoring');
  if (!stored) return defaultScoringSettings();
  const { id: _id, accountId: _accountId, _etag, _ts, ...settings } = stored;
  return settings;
}

/**
 * Saves what changed. A change to what the custom score or the automation depend on starts a
 * background recalculation of every bidder, whose progress is kept on the settings.
 */
export async function saveScoringSettings(
  scope: TenantScope,
  changes: Partial<Omit<ScoringSettings, 'version' | 'updatedAt' | 'recompute'>>,
  correlationId: string,
): Promise<ScoringSettings> {
  const stored = await scoringRepo.find(scope, 'scoring');
  const current = stored ?? {
    ...defaultScoringSettings(),
    id: 'scoring' as const,
    accountId: scope.accountId,
  };
  const next: ScoringSettingsRecord = {
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    id: 'scoring',
    accountId: scope.accountId,
    updatedAt: new Date().toISOString(),
  };
  const rescore =
    JSON.stringify([next.customWeights, next.customTiers, next.automation]) !==
    JSON.stringify([current.customWeights, current.customTiers, current.automation]);
  let message: RecomputeMessage | undefined;
  if (rescore) {
    next.version = current.version + 1;
    const jobId = randomUUID();
    next.recompute = {
      jobId,
      status: 'queued',
      processed: 0,
      total: 0,
      startedAt: null,
      finishedAt: null,
    };
    message = { accountId: scope.accountId, jobId, version: next.version };
  }
  const saved = stored
    ? await scoringRepo.replace(scope, next, stored._etag)
    : await scoringRepo.create(scope, next);
  if (message) await enqueue(RECOMPUTE_QUEUE, message);
  const editable = (settings: ScoringSettings) => ({
    customWeights: settings.customWeights,
    customTiers: settings.customTiers,
    automation: settings.automation,
    invitationThresholds: settings.invitationThresholds,
    autoMergeThreshold: settings.autoMergeThreshold,
  });
  await writeAudit(scope, {
    action: 'scoring.settings-update',
    entity: { type: 'scoringSettings', id: 'scoring' },
    before: editable(current),
    after: editable(next),
    correlationId,
  });
  const { id: _savedId, accountId: _savedAccount, _etag, _ts, ...settings } = saved;
  return settings;
}

/** Progress of a recalculation, written by the worker without touching the rest of the settings. */
export async function reportRecompute(scope: TenantScope, status: RecomputeStatus): Promise<void> {
  await container(scoringContainer.id)
    .item('scoring', scope.accountId)
    .patch([{ op: 'set', path: '/recompute', value: status }]);
}
