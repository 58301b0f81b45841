import { randomUUID } from 'node:crypto';
import type { ContainerDefinition } from './cosmos.js';
import { container } from './cosmos.js';
import type { TenantScope } from './repo.js';

export const auditContainer: ContainerDefinition = {
  id: 'audit',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/at', order: 'descending' },
      { path: '/id', order: 'descending' },
    ],
  ],
};

export interface AuditEntry {
  id: string;
  accountId: string;
  at: string;
  actor: { userId: string | null; kind: 'user' | 'system' };
  /** `{entity}.{verb}`, for example `bidder.update`. */
  action: string;
  entity: { type: string; id: string };
  before?: unknown;
  after?: unknown;
  correlationId?: string;
}

/** Records who changed what in a tenant, when, and the record before and after. */
export async function writeAudit(
  scope: TenantScope,
  entry: {
    action: string;
    entity: { type: string; id: string };
    before?: unknown;
    after?: unknown;
    correlationId?: string;
  },
): Promise<AuditEntry> {
  const document: AuditEntry = {
    id: randomUUID(),
    accountId: scope.accountId,
    at: new Date().toISOString(),
    actor: scope.userId ? { userId: scope.userId, kind: 'user' } : { userId: null, kind: 'system' },
    ...entry,
  };
  await container(auditContainer.id).items.create(document);
  return document;
}
