import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type { RecomputeStatus, ScoringSettings } from './scoring.schema.js';

/** The house's own settings; changed only when someone saves them. */
export interface ScoringSettingsRecord extends Omit<ScoringSettings, 'recompute' | 'registration'> {
  id: 'scoring';
  /** Absent on settings saved before auction registrations existed. */
  registration?: ScoringSettings['registration'];
  accountId: string;
}

/**
 * The progress of the latest recalculation, apart from the settings so that the worker's progress
 * never makes the ETag someone is editing against stale. `version` is the settings version the job
 * applies.
 */
export interface RecomputeRecord extends RecomputeStatus {
  id: 'recompute';
  accountId: string;
  version: number;
}

export type ScoringDocument = ScoringSettingsRecord | RecomputeRecord;

export const scoringContainer: ContainerDefinition = {
  id: 'scoringSettings',
  partitionKey: '/accountId',
};

/** Both documents of an account live in its partition, so one batch can write them together. */
export const scoringRepo = new TenantRepository<ScoringDocument>(scoringContainer.id);

export const findSettings = (scope: AccountScope) =>
  scoringRepo.find(scope, 'scoring') as Promise<Stored<ScoringSettingsRecord> | undefined>;

export const findRecompute = (scope: AccountScope) =>
  scoringRepo.find(scope, 'recompute') as Promise<Stored<RecomputeRecord> | undefined>;
