import type { ContainerDefinition } from '../platform/cosmos.js';
import { container } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type { Platform, PlatformStatus, SyncRun, SyncSettings } from './integrations.schema.js';

/**
 * One container per account's integrations: a connection per platform, the Sync settings, the
 * sync runs, and the links between platform records and Lotwise's (conflicts a sync keeps for
 * review are Conflict Resolution's, in `conflicts`).
 */
export const integrationsContainer: ContainerDefinition = {
  id: 'integrations',
  partitionKey: '/accountId',
};

/** A platform's connection, with the sync's checkpoints and who holds the sync now. */
export interface ConnectionRecord {
  id: `connection:${string}`;
  kind: 'connection';
  accountId: string;
  platform: Platform;
  /** The key, sealed (AES-256-GCM); never returned by any route. */
  sealedKey: string | null;
  keyLast4: string | null;
  accountName: string | null;
  status: Exclude<PlatformStatus, 'Syncing'>;
  message: string | null;
  lastSync: string | null;
  connectedAt: string | null;
  connectedBy: string | null;
  auctionHouseId: string | null;
  auctionsImported: number;
  biddersImported: number;
  /** Platform changes up to here are applied (the next sync asks only for later ones). */
  auctionsSince: string | null;
  biddersSince: string | null;
  /** When the schedule runs the next sync; null when it is manual or disconnected. */
  nextSyncAt: string | null;
  /** The sync running now; a lease, so a sync cut off frees the platform when it lapses. */
  syncing: { runId: string; leaseUntil: string } | null;
}

export interface SyncSettingsRecord extends SyncSettings {
  id: 'sync-settings';
  kind: 'sync-settings';
  accountId: string;
  updatedAt: string;
  updatedBy: string;
}

export type RunRecord = SyncRun & { kind: 'run'; accountId: string };

export type LinkedEntity = 'auction' | 'bidder';

/**
 * A platform record and the Lotwise record it is, by a deterministic id: importing the same one
 * again finds the link instead of making a second record. `pending` until the record is written,
 * so an import cut short resumes with the same local id.
 */
export interface LinkRecord {
  id: string;
  kind: 'link';
  accountId: string;
  platform: Platform;
  entity: LinkedEntity;
  externalId: string;
  localId: string;
  state: 'pending' | 'synced';
  /** The platform's change time of what was last applied or pushed. */
  platformUpdatedAt: string | null;
  /** The Lotwise revision after the last sync: a later one means the house edited it since. */
  localRevision: number | null;
  syncedAt: string | null;
}

export type IntegrationDocument = ConnectionRecord | SyncSettingsRecord | RunRecord | LinkRecord;

export const integrations = new TenantRepository<IntegrationDocument>(integrationsContainer.id);

export const connectionId = (platform: Platform) => `connection:${platform}` as const;
export const linkId = (platform: Platform, entity: LinkedEntity, externalId: string) =>
  `link:${platform}:${entity}:${encodeURIComponent(externalId)}`;

export const findConnection = (scope: AccountScope, platform: Platform) =>
  integrations.find(scope, connectionId(platform)) as Promise<Stored<ConnectionRecord> | undefined>;

export async function connectionsOf(scope: AccountScope) {
  return (await integrations.all(scope, {
    where: "c.kind = 'connection'",
  })) as Stored<ConnectionRecord>[];
}

export const findLink = (
  scope: AccountScope,
  platform: Platform,
  entity: LinkedEntity,
  externalId: string,
) =>
  integrations.find(scope, linkId(platform, entity, externalId)) as Promise<
    Stored<LinkRecord> | undefined
  >;

/** The links of some Lotwise records, to show where each came from. */
export async function linksOfLocal(scope: AccountScope, entity: LinkedEntity, localIds: string[]) {
  if (localIds.length === 0) return [];
  return (await integrations.all(scope, {
    where: "c.kind = 'link' AND c.entity = @entity AND ARRAY_CONTAINS(@ids, c.localId)",
    parameters: [
      { name: '@entity', value: entity },
      { name: '@ids', value: localIds },
    ],
  })) as Stored<LinkRecord>[];
}

/** The links of a platform's records among some external ids. */
export async function linksOfExternal(
  scope: AccountScope,
  platform: Platform,
  entity: LinkedEntity,
  externalIds: string[],
) {
  if (externalIds.length === 0) return [];
  return (await integrations.all(scope, {
    where:
      "c.kind = 'link' AND c.platform = @platform AND c.entity = @entity AND ARRAY_CONTAINS(@ids, c.externalId)",
    parameters: [
      { name: '@platform', value: platform },
      { name: '@entity', value: entity },
      { name: '@ids', value: externalIds },
    ],
  })) as Stored<LinkRecord>[];
}

export async function runsPage(
  scope: AccountScope,
  filter: { platform?: Platform; auctionId?: string },
  pageSize: number,
  continuationToken: string | undefined,
) {
  const clauses = ["c.kind = 'run'"];
  const parameters = [];
  if (filter.platform) {
    clauses.push('c.platform = @platform');
    parameters.push({ name: '@platform', value: filter.platform });
  }
  if (filter.auctionId) {
    clauses.push('c.auctionId = @auctionId');
    parameters.push({ name: '@auctionId', value: filter.auctionId });
  }
  return integrations.page(scope, {
    where: clauses.join(' AND '),
    parameters,
    orderBy: 'c.startedAt DESC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  }) as Promise<{ items: Stored<RunRecord>[]; continuationToken?: string }>;
}

/** Runs left `running` by a sync that was cut off (its lease lapsed). */
export async function unfinishedRuns(scope: AccountScope, platform: Platform) {
  return (await integrations.all(scope, {
    where:
      "c.kind = 'run' AND c.platform = @platform AND (c.status = 'running' OR c.status = 'queued')",
    parameters: [{ name: '@platform', value: platform }],
  })) as Stored<RunRecord>[];
}

/** Every account's connections whose scheduled sync is due (the timer's one cross-account read). */
export async function connectionsDue(now: string) {
  const { resources } = await container(integrationsContainer.id)
    .items.query<{ accountId: string; platform: Platform }>({
      query:
        "SELECT c.accountId, c.platform FROM c WHERE c.kind = 'connection' AND c.status != 'Disconnected' AND IS_STRING(c.nextSyncAt) AND c.nextSyncAt <= @now",
      parameters: [{ name: '@now', value: now }],
    })
    .fetchAll();
  return resources;
}

export async function integrationsStore(abortSignal: AbortSignal) {
  await container(integrationsContainer.id).read({ abortSignal });
}
