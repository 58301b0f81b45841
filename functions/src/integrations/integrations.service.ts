import { housesOf } from '../identity/accounts/accounts.service.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import { conflict, notFound, preconditionFailed, serviceUnavailable } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import { decryptSecret, encryptSecret } from '../platform/secrets.js';
import { settings } from '../platform/settings.js';
import { validationError } from '../platform/validation.js';
import { connectorFor, platformBaseUrl } from './connectors/index.js';
import { PlatformError } from './connectors/connector.js';
import {
  connectionId,
  connectionsOf,
  findConnection,
  integrations,
  type ConnectionRecord,
  type SyncSettingsRecord,
} from './integrations.repo.js';
import {
  DEFAULT_SYNC_SETTINGS,
  KEY_EXPIRED_MESSAGE,
  platformFeatures,
  platforms,
  syncFrequencyMinutes,
  type Platform,
  type PlatformConnection,
  type SyncFrequency,
  type SyncSettings,
} from './integrations.schema.js';

const KEY_PURPOSE = 'platform-credentials';

/** What the house is told when a platform call fails, by why it failed. */
export function failureMessage(error: PlatformError): string {
  switch (error.failure) {
    case 'key_expired':
      return KEY_EXPIRED_MESSAGE;
    case 'key_invalid':
      return `Connection error: ${error.platform} refused the API key. Please update credentials.`;
    case 'timeout':
      return `Connection error: ${error.platform} did not answer in time. Lotwise will try again at the next sync.`;
    case 'rate_limited':
      return `${error.platform} asked Lotwise to slow down. Lotwise will try again at the next sync.`;
    case 'not_found':
      return `${error.platform} no longer has that record.`;
    case 'bad_response':
      return `${error.platform} answered with data Lotwise could not read. Lotwise will try again at the next sync.`;
    default:
      return `Connection error: ${error.platform} is not answering. Lotwise will try again at the next sync.`;
  }
}

export function connectorOf(connection: Pick<ConnectionRecord, 'platform' | 'sealedKey'>) {
  if (!connection.sealedKey) throw conflict(`${connection.platform} is not connected`);
  const baseUrl = platformBaseUrl(connection.platform);
  if (!baseUrl) {
    throw serviceUnavailable(`${connection.platform} is not configured on this Lotwise server`);
  }
  return connectorFor(connection.platform, {
    baseUrl,
    credentials: { apiKey: decryptSecret(connection.sealedKey, KEY_PURPOSE) },
    timeoutMs: settings().PLATFORM_TIMEOUT_MS,
  });
}

const disconnected = (accountId: string, platform: Platform): ConnectionRecord => ({
  id: connectionId(platform),
  kind: 'connection',
  accountId,
  platform,
  sealedKey: null,
  keyLast4: null,
  accountName: null,
  status: 'Disconnected',
  message: null,
  lastSync: null,
  connectedAt: null,
  connectedBy: null,
  auctionHouseId: null,
  auctionsImported: 0,
  biddersImported: 0,
  auctionsSince: null,
  biddersSince: null,
  nextSyncAt: null,
  syncing: null,
});

export function toConnection(record: ConnectionRecord, now = Date.now()): PlatformConnection {
  const syncing = record.syncing !== null && Date.parse(record.syncing.leaseUntil) > now;
  return {
    platform: record.platform,
    connected: record.status !== 'Disconnected',
    status: syncing ? 'Syncing' : record.status,
    lastSync: record.lastSync,
    message: record.message,
    accountName: record.accountName,
    keyLast4: record.keyLast4,
    auctionsImported: record.auctionsImported,
    biddersImported: record.biddersImported,
    features: [...platformFeatures],
    connectedAt: record.connectedAt,
    connectedBy: record.connectedBy,
    auctionHouseId: record.auctionHouseId,
  };
}

/** Every platform, connected or not, in the spec's order. */
export async function listPlatforms(ctx: RequestContext) {
  const stored = new Map((await connectionsOf(ctx.scope)).map((row) => [row.platform, row]));
  return platforms.map((platform) =>
    toConnection(stored.get(platform) ?? disconnected(ctx.scope.accountId, platform)),
  );
}

export async function platformStatus(ctx: RequestContext, platform: Platform) {
  return toConnection(
    (await findConnection(ctx.scope, platform)) ?? disconnected(ctx.scope.accountId, platform),
  );
}

export async function connectedPlatform(ctx: Pick<RequestContext, 'scope'>, platform: Platform) {
  const connection = await findConnection(ctx.scope, platform);
  if (!connection || connection.status === 'Disconnected' || !connection.sealedKey) {
    throw conflict(`${platform} is not connected. Connect it in Account Settings › APIs first.`, {
      platform,
    });
  }
  return connection;
}

/** When the schedule next syncs, from now; null when the house syncs by hand. */
export function nextSyncAfter(frequency: SyncFrequency, from = Date.now()): string | null {
  const minutes = syncFrequencyMinutes[frequency];
  return minutes === null ? null : new Date(from + minutes * 60_000).toISOString();
}

async function houseFor(ctx: RequestContext, auctionHouseId: string | null) {
  const houses = await housesOf(ctx.scope);
  if (auctionHouseId === null) return houses[0]?.id ?? null;
  if (!houses.some((house) => house.id === auctionHouseId)) {
    throw validationError([
      { location: 'body', field: 'auctionHouseId', message: 'is not a house of this account' },
    ]);
  }
  return auctionHouseId;
}

/**
 * Connects a platform with the house's key, once the platform accepts it: a key it refuses is a
 * 400 naming `apiKey` and nothing is saved. Connecting again replaces the key and keeps the
 * checkpoints, so nothing is imported twice.
 */
export async function connectPlatform(
  ctx: RequestContext,
  platform: Platform,
  body: { apiKey: string; auctionHouseId: string | null },
) {
  const auctionHouseId = await houseFor(ctx, body.auctionHouseId);
  const sealedKey = encryptSecret(body.apiKey, KEY_PURPOSE);
  let accountName: string;
  try {
    ({ accountName } = await connectorOf({ platform, sealedKey }).testCredentials());
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    throw validationError([{ location: 'body', field: 'apiKey', message: failureMessage(error) }]);
  }
  const syncSettings = await readSyncSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const current = await findConnection(ctx.scope, platform);
    const now = new Date().toISOString();
    const next: ConnectionRecord = {
      ...(current ?? disconnected(ctx.scope.accountId, platform)),
      sealedKey,
      keyLast4: body.apiKey.slice(-4),
      accountName,
      status: 'Connected',
      message: null,
      connectedAt:
        current?.connectedAt && current.status !== 'Disconnected' ? current.connectedAt : now,
      connectedBy: ctx.actor.name,
      auctionHouseId,
      // The first sync runs at once, unless the house syncs by hand.
      nextSyncAt: syncFrequencyMinutes[syncSettings.frequency] === null ? null : now,
    };
    try {
      const saved = current
        ? await integrations.replace(ctx.scope, strip(next), current._etag)
        : await integrations.create(ctx.scope, next);
      await writeAudit(ctx, {
        action: 'integration.connect',
        entity: { type: 'platform', id: platform },
        after: { platform, accountName, keyLast4: next.keyLast4, auctionHouseId },
      });
      return toConnection(saved as ConnectionRecord);
    } catch (error) {
      if (!(isStale(error) || isConflict(error)) || attempt >= 3) throw error;
    }
  }
}

const strip = <T extends object>(record: T) => {
  const { _etag, _ts, ...rest } = record as T & { _etag?: string; _ts?: number };
  return rest as T;
};

/** Forgets the key; what was imported stays, with its links, for a later reconnect. */
export async function disconnectPlatform(ctx: RequestContext, platform: Platform) {
  const current = await findConnection(ctx.scope, platform);
  if (!current || current.status === 'Disconnected') throw notFound(`${platform} is not connected`);
  const next: ConnectionRecord = {
    ...strip(current),
    sealedKey: null,
    keyLast4: null,
    status: 'Disconnected',
    message: null,
    nextSyncAt: null,
    syncing: null,
  };
  const saved = await integrations
    .replace(ctx.scope, next, current._etag)
    .catch((error: unknown) => {
      if (isStale(error)) throw preconditionFailed('The connection changed meanwhile; try again');
      throw error;
    });
  await writeAudit(ctx, {
    action: 'integration.disconnect',
    entity: { type: 'platform', id: platform },
    before: { keyLast4: current.keyLast4, accountName: current.accountName },
  });
  return toConnection(saved as ConnectionRecord);
}

/** Settings › Sync, or the spec's defaults until the house saves its own. */
export async function readSyncSettings(ctx: Pick<RequestContext, 'scope'>) {
  const stored = (await integrations.find(ctx.scope, 'sync-settings')) as
    Stored<SyncSettingsRecord> | undefined;
  const values: SyncSettings = { ...DEFAULT_SYNC_SETTINGS };
  if (stored) {
    for (const key of Object.keys(values) as (keyof SyncSettings)[]) {
      Object.assign(values, { [key]: stored[key] });
    }
  }
  return { ...values, etag: stored?._etag ?? 'defaults', updatedAt: stored?.updatedAt ?? null };
}

/**
 * Saves what changed against the version read. A new frequency reschedules every connected
 * platform's next sync from now.
 */
export async function saveSyncSettings(
  ctx: RequestContext,
  etag: string,
  changes: Partial<SyncSettings>,
) {
  const current = await readSyncSettings(ctx);
  if (current.etag !== etag) throw preconditionFailed();
  const { etag: _e, updatedAt: _u, ...before } = current;
  const next: SyncSettingsRecord = {
    ...before,
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    id: 'sync-settings',
    kind: 'sync-settings',
    accountId: ctx.scope.accountId,
    updatedAt: new Date().toISOString(),
    updatedBy: ctx.actor.name,
  };
  try {
    if (etag === 'defaults') await integrations.create(ctx.scope, next);
    else await integrations.replace(ctx.scope, next, etag);
  } catch (error) {
    if (isStale(error) || isConflict(error)) throw preconditionFailed();
    throw error;
  }
  // A new frequency reschedules; turning auto import or bidder data sync on asks the platforms
  // again from the start, for what was passed over while it was off (linked records are cheap).
  const reschedule = next.frequency !== before.frequency;
  const auctionsAgain = next.autoImport && !before.autoImport;
  const biddersAgain = next.bidderDataSync && !before.bidderDataSync;
  if (reschedule || auctionsAgain || biddersAgain) {
    for (const connection of await connectionsOf(ctx.scope)) {
      const operations = [
        ...(reschedule && connection.status !== 'Disconnected'
          ? [{ op: 'set' as const, path: '/nextSyncAt', value: nextSyncAfter(next.frequency) }]
          : []),
        ...(auctionsAgain ? [{ op: 'set' as const, path: '/auctionsSince', value: null }] : []),
        ...(biddersAgain ? [{ op: 'set' as const, path: '/biddersSince', value: null }] : []),
      ];
      if (operations.length) await integrations.patch(ctx.scope, connection.id, operations);
    }
  }
  await writeAudit(ctx, {
    action: 'integration.sync-settings',
    entity: { type: 'syncSettings', id: 'sync-settings' },
    before,
    after: changes,
  });
  return readSyncSettings(ctx);
}
