import { randomUUID } from 'node:crypto';
import type { ContainerDefinition } from './cosmos.js';
import { container } from './cosmos.js';
import type { AccountScope, ApiKeyActor, SystemActor, UserActor } from './context.js';

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
  /** A person, Lotwise itself, or one of the house's systems by its API key (`keyId`). */
  actor: {
    userId: string | null;
    kind: 'user' | 'system' | 'api_key';
    name?: string;
    keyId?: string;
  };
  /** `{entity}.{verb}`, for example `bidder.update`. */
  action: string;
  entity: { type: string; id: string };
  before?: unknown;
  after?: unknown;
  correlationId?: string;
}

/** Who changed something where: a request's context, or a person acting outside one (joining). */
export interface AuditContext {
  readonly scope: AccountScope;
  readonly actor:
    | Pick<UserActor, 'kind' | 'userId' | 'name'>
    | Pick<SystemActor, 'kind' | 'userId' | 'name'>
    | Pick<ApiKeyActor, 'kind' | 'userId' | 'name' | 'keyId'>;
  readonly correlationId?: string;
}

function auditActor(actor: AuditContext['actor']): AuditEntry['actor'] {
  switch (actor.kind) {
    case 'user':
      return { userId: actor.userId, kind: 'user', name: actor.name };
    case 'api_key':
      return { userId: null, kind: 'api_key', name: actor.name, keyId: actor.keyId };
    case 'system':
      return { userId: null, kind: 'system' };
  }
}

/** Records who changed what in a tenant, when, and the record before and after. */
export async function writeAudit(
  ctx: AuditContext,
  entry: {
    action: string;
    entity: { type: string; id: string };
    before?: unknown;
    after?: unknown;
  },
): Promise<AuditEntry> {
  const document: AuditEntry = {
    id: randomUUID(),
    accountId: ctx.scope.accountId,
    at: new Date().toISOString(),
    actor: auditActor(ctx.actor),
    ...entry,
    ...(ctx.correlationId ? { correlationId: ctx.correlationId } : {}),
  };
  await container(auditContainer.id).items.create(document);
  return document;
}

/** A person's entries in one tenant since a moment, newest first. */
export async function auditByActor(
  scope: AccountScope,
  userId: string,
  since: Date,
  limit: number,
): Promise<AuditEntry[]> {
  const { resources } = await container(auditContainer.id)
    .items.query<AuditEntry>(
      {
        query:
          'SELECT TOP @limit * FROM c WHERE c.accountId = @accountId AND c.actor.userId = @userId AND c.at >= @since ORDER BY c.at DESC',
        parameters: [
          { name: '@limit', value: limit },
          { name: '@accountId', value: scope.accountId },
          { name: '@userId', value: userId },
          { name: '@since', value: since.toISOString() },
        ],
      },
      { partitionKey: scope.accountId },
    )
    .fetchAll();
  return resources;
}
