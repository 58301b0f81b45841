import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository } from '../platform/repo.js';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  permissions: string[];
  /** sha256 of the whole key: the key itself is never stored. */
  hash: string;
  prefix: string;
  lastFour: string;
  createdAt: string;
  createdBy: { userId: string; name: string };
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: { userId: string; name: string } | null;
}

export const apiKeysContainer: ContainerDefinition = {
  id: 'apiKeys',
  partitionKey: '/accountId',
};

export const apiKeysRepo = new TenantRepository<ApiKeyRecord>(apiKeysContainer.id);
