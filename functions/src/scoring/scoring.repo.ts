import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository } from '../platform/repo.js';
import type { ScoringSettings } from './scoring.schema.js';

export interface ScoringSettingsRecord extends ScoringSettings {
  id: 'scoring';
  accountId: string;
}

export const scoringContainer: ContainerDefinition = {
  id: 'scoringSettings',
  partitionKey: '/accountId',
};

export const scoringRepo = new TenantRepository<ScoringSettingsRecord>(scoringContainer.id);
