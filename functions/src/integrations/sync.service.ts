import { randomUUID } from 'node:crypto';
import { getAuction } from '../auctions/auctions.service.js';
import type { Logger } from '../platform/logging.js';
import { systemContext, type RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { AppError, conflict, notFound, serviceUnavailable } from '../platform/errors.js';
import { enqueue } from '../platform/queue.js';
import type { Stored } from '../platform/repo.js';
import {
  applyPlatformAuction,
  linkOfAuction,
  pushAuction,
  twoWay,
  writeLots,
  type SyncScope,
} from './auction-sync.js';
import { applyPlatformBidders } from './bidder-sync.js';
import { PlatformError, type PlatformBidder } from './connectors/connector.js';
import {
  connectionsDue,
  connectionId,
  findConnection,
  findLink,
  integrations,
  linkId,
  linksOfExternal,
  linksOfLocal,
  runsPage,
  unfinishedRuns,
  type ConnectionRecord,
  type LinkRecord,
  type RunRecord,
} from './integrations.repo.js';
import {
  syncRunSchema,
  type Platform,
  type SyncChange,
  type SyncDirection,
  type SyncRun,
} from './integrations.schema.js';
import {
  connectedPlatform,
  connectorOf,
  failureMessage,
  nextSyncAfter,
  readSyncSettings,
} from './integrations.service.js';

export const SYNC_QUEUE = 'platform-sync';
/** Real-time sync: one linked auction sent to one platform after an edit in Lotwise. */
export const PUSH_QUEUE = 'platform-push';
/** A sync holds its platform this long past its last sign of life; a cut-off one frees it then. */
const LEASE_MS = 5 * 60_000;
/** The changes a run keeps in full; its counts cover all of them. */
const CHANGES_KEPT = 200;

export interface PushMessage {
  accountId: string;
  platform: Platform;
  auctionId: string;
  by: string;
}

export interface SyncMessage {
  accountId: string;
  platform: Platform;
  runId: string;
}

const emptyCounts = (): SyncRun['counts'] => ({
  created: 0,
  updated: 0,
  unchanged: 0,
  skipped: 0,
  conflicts: 0,
  failed: 0,
});

const countKey: Record<SyncChange['action'], keyof SyncRun['counts']> = {
  created: 'created',
  updated: 'updated',
  pushed: 'updated',
  unchanged: 'unchanged',
  skipped: 'skipped',
  conflict: 'conflicts',
  failed: 'failed',
};

/** A run's record as it is being written. */
export class RunLog {
  /** Records this run made, by kind: the connection's imported counts grow by these. */
  readonly made = { auctions: 0, bidders: 0 };
  constructor(readonly record: RunRecord) {}
  add(entry: SyncChange) {
    this.record.counts[countKey[entry.action]] += 1;
    if (entry.action === 'created') {
      if (entry.entity === 'bidder') this.made.bidders += 1;
      else this.made.auctions += 1;
    }
    // Unchanged records are counted, not listed: a no-change sync's log stays readable.
    if (entry.action !== 'unchanged' && this.record.changes.length < CHANGES_KEPT) {
      this.record.changes.push(entry);
    }
  }
  async save(ctx: Pick<RequestContext, 'scope'>) {
    const { _etag, _ts, ...document } = this.record as RunRecord & { _etag?: string; _ts?: number };
    await integrations.upsert(ctx.scope, document);
  }
}

export function newRun(
  ctx: RequestContext,
  platform: Platform,
  trigger: SyncRun['trigger'],
  direction: SyncDirection,
  auctionId: string | null,
): RunRecord {
  return {
    id: `run:${randomUUID()}`,
    kind: 'run',
    accountId: ctx.scope.accountId,
    platform,
    trigger,
    direction,
    auctionId,
    status: trigger === 'manual' || trigger === 'schedule' ? 'queued' : 'running',
    startedAt: new Date().toISOString(),
    finishedAt: null,
    by: ctx.actor.name,
    counts: emptyCounts(),
    changes: [],
    error: null,
  };
}

/** A run as the routes answer it: its contract's fields, none of the store's. */
export const toRun = (record: RunRecord): SyncRun => syncRunSchema.parse(record);

const leaseHeld = (connection: ConnectionRecord, now: number) =>
  connection.syncing !== null && Date.parse(connection.syncing.leaseUntil) > now;

/**
 * Starts a full sync of a platform as a queued job. One at a time per platform: while one runs
 * (its lease held) another is refused with 409 naming the running one.
 */
export async function startSync(
  ctx: RequestContext,
  platform: Platform,
  trigger: 'manual' | 'schedule',
): Promise<SyncRun> {
  const connection = await connectedPlatform(ctx, platform);
  const now = Date.now();
  if (leaseHeld(connection, now)) {
    throw conflict(`A sync of ${platform} is already running`, {
      runId: connection.syncing?.runId,
    });
  }
  const settings = await readSyncSettings(ctx);
  const run = newRun(ctx, platform, trigger, 'pull', null);
  const { _etag, _ts, ...stored } = connection;
  try {
    await integrations.replace(
      ctx.scope,
      {
        ...stored,
        syncing: { runId: run.id, leaseUntil: new Date(now + LEASE_MS).toISOString() },
        nextSyncAt: nextSyncAfter(settings.frequency, now),
      },
      _etag,
    );
  } catch (error) {
    if (isStale(error)) throw conflict(`A sync of ${platform} has just started`);
    throw error;
  }
  // Runs a cut-off sync left open end here: this one carries on from their last checkpoint.
  for (const open of await unfinishedRuns(ctx.scope, platform)) {
    await new RunLog({
      ...open,
      status: 'failed',
      finishedAt: new Date().toISOString(),
      error: 'Cut off before it finished; the next sync carried on from its last checkpoint',
    }).save(ctx);
  }
  await integrations.create(ctx.scope, run);
  try {
    await enqueue(SYNC_QUEUE, {
      accountId: ctx.scope.accountId,
      platform,
      runId: run.id,
    } satisfies SyncMessage);
  } catch (error) {
    await release(ctx, platform, run.id, {});
    await integrations.delete(ctx.scope, run.id);
    throw error;
  }
  return toRun(run);
}

/** Frees the platform after a run, with what the run found out about the connection. */
async function release(
  ctx: Pick<RequestContext, 'scope'>,
  platform: Platform,
  runId: string,
  outcome: Partial<Pick<ConnectionRecord, 'status' | 'message' | 'lastSync'>>,
) {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await findConnection(ctx.scope, platform);
    if (!current || current.syncing?.runId !== runId) return;
    const { _etag, _ts, ...stored } = current;
    try {
      await integrations.replace(
        ctx.scope,
        {
          ...stored,
          ...outcome,
          // A disconnect meanwhile stands.
          status:
            stored.status === 'Disconnected' ? 'Disconnected' : (outcome.status ?? stored.status),
          syncing: null,
        },
        _etag,
      );
      return;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
}

/**
 * Moves the checkpoint and renews the lease after a page: answers false when the run no longer
 * holds the platform (disconnected, or a newer run took over), and the run stops.
 */
async function checkpoint(
  ctx: Pick<RequestContext, 'scope'>,
  platform: Platform,
  runId: string,
  fields: Partial<Pick<ConnectionRecord, 'auctionsSince' | 'biddersSince'>>,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await findConnection(ctx.scope, platform);
    if (!current || current.syncing?.runId !== runId || current.status === 'Disconnected') {
      return false;
    }
    const { _etag, _ts, ...stored } = current;
    try {
      await integrations.replace(
        ctx.scope,
        {
          ...stored,
          ...fields,
          syncing: { runId, leaseUntil: new Date(Date.now() + LEASE_MS).toISOString() },
        },
        _etag,
      );
      return true;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
  return false;
}

/** Just before the latest change a page applied: the next sync asks again from there. */
const sinceOf = (updatedAt: string[]) => {
  const latest = Math.max(...updatedAt.map((value) => Date.parse(value)));
  // Changes in the same millisecond on the next page are asked for again (applying one twice is a no-op).
  return new Date(latest - 1).toISOString();
};

/** Applies one platform auction, logging a failure of its own and going on; a platform failure stops the run. */
async function applyLogged(
  scope: SyncScope,
  log: RunLog,
  externalId: string,
  options: Parameters<typeof applyPlatformAuction>[2],
) {
  try {
    log.add(await applyPlatformAuction(scope, externalId, options));
  } catch (error) {
    if (error instanceof PlatformError && error.failure !== 'not_found') throw error;
    if (!(error instanceof PlatformError) && !(error instanceof AppError)) throw error;
    log.add({
      entity: 'auction',
      externalId,
      localId: null,
      title: options.title ?? externalId,
      action: 'failed',
      fields: [],
      message: error instanceof PlatformError ? failureMessage(error) : error.message,
    });
  }
}

/**
 * The queued sync: every auction the platform changed since the checkpoint, a page at a time,
 * each imported or updated by the house's rules. A platform failure ends the run with the
 * reason on the connection; what was applied stays, and the next sync goes on from the last page.
 */
export async function runSync(message: SyncMessage, log: Logger): Promise<void> {
  const ctx = systemContext(message.accountId, message.runId);
  const connection = await findConnection(ctx.scope, message.platform);
  if (!connection || connection.syncing?.runId !== message.runId || !connection.sealedKey) return;
  const stored = (await integrations.find(ctx.scope, message.runId)) as
    Stored<RunRecord> | undefined;
  if (!stored) return;
  const run = new RunLog({ ...stored, status: 'running' });
  await run.save(ctx);
  const settings = await readSyncSettings(ctx);
  const scope: SyncScope = {
    ctx: { ...ctx, actor: { ...ctx.actor, name: stored.by } },
    connection,
    connector: connectorOf(connection),
    settings,
    runId: message.runId,
  };
  const finish = async (
    status: SyncRun['status'],
    outcome: Parameters<typeof release>[3],
    error: string | null,
  ) => {
    run.record.status = status;
    run.record.finishedAt = new Date().toISOString();
    run.record.error = error;
    await run.save(ctx);
    await countImported(ctx, message.platform, run);
    await release(ctx, message.platform, message.runId, {
      ...outcome,
      lastSync: run.record.finishedAt,
    });
  };
  try {
    let cursor: string | null = null;
    const since = connection.auctionsSince;
    do {
      const page = await scope.connector.listAuctions(cursor, since);
      for (const summary of page.items) {
        await applyLogged(scope, run, summary.externalId, {
          summaryUpdatedAt: summary.updatedAt,
          title: summary.title,
          explicit: false,
        });
      }
      await run.save(ctx);
      const held = await checkpoint(
        ctx,
        message.platform,
        message.runId,
        page.items.length
          ? { auctionsSince: sinceOf(page.items.map((item) => item.updatedAt)) }
          : {},
      );
      if (!held) {
        await stopped(ctx, run);
        return;
      }
      cursor = page.next;
    } while (cursor);
    if (settings.bidderDataSync && !(await syncBidders(scope, run, connection.biddersSince))) {
      return;
    }
    await finish(
      run.record.counts.failed ? 'partial' : 'completed',
      { status: 'Connected', message: null },
      null,
    );
  } catch (error) {
    if (!(error instanceof PlatformError)) {
      await finish('failed', {}, 'Lotwise could not finish this sync; the next one carries on');
      throw error;
    }
    log.warn('platform sync failed', { platform: message.platform, failure: error.failure });
    const reason = failureMessage(error);
    await finish('failed', { status: 'Error', message: reason }, reason);
  }
}

/** The connection's imported counts grow by what a run made, and its last sync is the run's. */
async function countImported(ctx: Pick<RequestContext, 'scope'>, platform: Platform, run: RunLog) {
  await integrations.patch(ctx.scope, connectionId(platform), [
    { op: 'incr', path: '/auctionsImported', value: run.made.auctions },
    { op: 'incr', path: '/biddersImported', value: run.made.bidders },
    { op: 'set', path: '/lastSync', value: run.record.finishedAt ?? new Date().toISOString() },
  ]);
}

/** A run that lost its platform (disconnected, or a newer run took over) ends there. */
async function stopped(ctx: Pick<RequestContext, 'scope'>, run: RunLog) {
  run.record.status = 'failed';
  run.record.error = 'Stopped: the platform was disconnected or another sync took over';
  run.record.finishedAt = new Date().toISOString();
  await run.save(ctx);
  await countImported(ctx, run.record.platform, run);
}

/** Applies a page of platform bidders: a record that cannot be written is logged, not fatal. */
async function applyBidders(scope: SyncScope, run: RunLog, bidders: PlatformBidder[]) {
  for (const entry of await applyPlatformBidders(scope, bidders)) run.add(entry);
}

/**
 * Bidder data sync: every platform bidder changed since the checkpoint, a page at a time;
 * false once the run lost its platform.
 */
async function syncBidders(scope: SyncScope, run: RunLog, since: string | null) {
  const { ctx } = scope;
  let cursor: string | null = null;
  do {
    const page = await scope.connector.listBidders(cursor, since);
    await applyBidders(scope, run, page.items);
    await run.save(ctx);
    const held = await checkpoint(
      ctx,
      scope.connection.platform,
      scope.runId,
      page.items.length ? { biddersSince: sinceOf(page.items.map((item) => item.updatedAt)) } : {},
    );
    if (!held) {
      await stopped(ctx, run);
      return false;
    }
    cursor = page.next;
  } while (cursor);
  return true;
}

/** Which of these platform records are already in Lotwise, and as what. */
async function linkedIds(
  ctx: RequestContext,
  platform: Platform,
  entity: 'auction' | 'bidder',
  items: { externalId: string }[],
) {
  const links = await linksOfExternal(
    ctx.scope,
    platform,
    entity,
    items.map((item) => item.externalId),
  );
  return new Map(
    links.filter((link) => link.state === 'synced').map((link) => [link.externalId, link.localId]),
  );
}

/** The platform's auctions, a page at a time, each with the Lotwise auction it already is. */
export async function platformAuctionChoices(
  ctx: RequestContext,
  platform: Platform,
  cursor: string | null,
) {
  const connection = await connectedPlatform(ctx, platform);
  try {
    const page = await connectorOf(connection).listAuctions(cursor, null);
    const linked = await linkedIds(ctx, platform, 'auction', page.items);
    return {
      auctions: page.items.map((item) => ({
        externalId: item.externalId,
        title: item.title,
        status: item.status,
        startsAt: item.startsAt,
        endsAt: item.endsAt,
        lotCount: item.lotCount,
        auctionId: linked.get(item.externalId) ?? null,
      })),
      next: page.next,
    };
  } catch (error) {
    throw error instanceof PlatformError ? platformRefusal(error) : error;
  }
}

/** The platform's bidders, a page at a time, each with the Lotwise bidder it is linked to. */
export async function platformBidderChoices(
  ctx: RequestContext,
  platform: Platform,
  cursor: string | null,
) {
  const connection = await connectedPlatform(ctx, platform);
  try {
    const page = await connectorOf(connection).listBidders(cursor, null);
    const linked = await linkedIds(ctx, platform, 'bidder', page.items);
    return {
      bidders: page.items.map(({ updatedAt: _updatedAt, ...bidder }) => ({
        ...bidder,
        bidderId: linked.get(bidder.externalId) ?? null,
      })),
      next: page.next,
    };
  } catch (error) {
    throw error instanceof PlatformError ? platformRefusal(error) : error;
  }
}

/**
 * Imports the chosen platform bidders (the Import Bidders dialog's Platform Import): the
 * platform's list is read until each is found, and each goes through duplicate detection.
 */
export async function importBidders(
  ctx: RequestContext,
  platform: Platform,
  externalIds: string[],
) {
  const connection = await connectedPlatform(ctx, platform);
  const run = new RunLog(newRun(ctx, platform, 'import', 'pull', null));
  const scope: SyncScope = {
    ctx,
    connection,
    connector: connectorOf(connection),
    settings: await readSyncSettings(ctx),
    runId: run.record.id,
  };
  const wanted = new Set(externalIds);
  try {
    let cursor: string | null = null;
    do {
      const page = await scope.connector.listBidders(cursor, null);
      await applyBidders(
        scope,
        run,
        page.items.filter((bidder) => wanted.delete(bidder.externalId)),
      );
      cursor = wanted.size ? page.next : null;
    } while (cursor);
    for (const externalId of wanted) {
      run.add({
        entity: 'bidder',
        externalId,
        localId: null,
        title: externalId,
        action: 'failed',
        fields: [],
        message: `${platform} has no such bidder`,
      });
    }
    run.record.status = run.record.counts.failed ? 'partial' : 'completed';
    return toRun(run.record);
  } catch (error) {
    run.record.status = 'failed';
    run.record.error = error instanceof PlatformError ? failureMessage(error) : 'Import failed';
    throw error instanceof PlatformError ? platformRefusal(error) : error;
  } finally {
    run.record.finishedAt = new Date().toISOString();
    await run.save(ctx);
    await countImported(ctx, platform, run);
  }
}

/** Imports one platform auction now (the Import Auctions dialog), whatever Auto import says. */
export async function importAuction(ctx: RequestContext, platform: Platform, externalId: string) {
  const connection = await connectedPlatform(ctx, platform);
  const run = new RunLog(newRun(ctx, platform, 'import', 'pull', null));
  const scope: SyncScope = {
    ctx,
    connection,
    connector: connectorOf(connection),
    settings: await readSyncSettings(ctx),
    runId: run.record.id,
  };
  try {
    const entry = await applyPlatformAuction(scope, externalId, { explicit: true });
    run.add(entry);
    run.record.auctionId = entry.localId;
    run.record.status = entry.action === 'failed' ? 'failed' : 'completed';
    return { change: entry, run: toRun(run.record) };
  } catch (error) {
    run.record.status = 'failed';
    run.record.error = error instanceof PlatformError ? failureMessage(error) : 'Import failed';
    throw error instanceof PlatformError ? platformRefusal(error) : error;
  } finally {
    run.record.finishedAt = new Date().toISOString();
    await run.save(ctx);
    await countImported(ctx, platform, run);
  }
}

/** A platform failure as the house is answered: 404 for a record the platform lacks, else 503. */
function platformRefusal(error: PlatformError) {
  if (error.failure === 'not_found') return notFound(failureMessage(error));
  return serviceUnavailable(failureMessage(error), { failure: error.failure });
}

/** `PUT /auctions/{id}/sync/{platform}`: push, pull or two-way, now, recorded in its Sync History. */
export async function syncAuction(
  ctx: RequestContext,
  auctionId: string,
  platform: Platform,
  direction: SyncDirection,
) {
  await getAuction(ctx, auctionId);
  const connection = await connectedPlatform(ctx, platform);
  const run = new RunLog(newRun(ctx, platform, 'auction', direction, auctionId));
  const scope: SyncScope = {
    ctx,
    connection,
    connector: connectorOf(connection),
    settings: await readSyncSettings(ctx),
    runId: run.record.id,
  };
  try {
    if (direction === 'push') run.add(await pushAuction(scope, auctionId));
    else if (direction === 'two-way') run.add(await twoWay(scope, auctionId));
    else {
      const link = await linkOfAuction(scope, auctionId);
      if (!link) throw conflict(`This auction is not on ${platform}: push it there first`);
      run.add(await applyPlatformAuction(scope, link.externalId, { explicit: true, force: true }));
    }
    run.record.status = 'completed';
    return toRun(run.record);
  } catch (error) {
    run.record.status = 'failed';
    run.record.error =
      error instanceof PlatformError
        ? failureMessage(error)
        : error instanceof AppError
          ? error.message
          : 'Sync failed';
    throw error instanceof PlatformError ? platformRefusal(error) : error;
  } finally {
    run.record.finishedAt = new Date().toISOString();
    await run.save(ctx);
  }
}

export async function listRuns(
  ctx: RequestContext,
  filter: { platform?: Platform; auctionId?: string },
  limit: number,
  continuationToken: string | undefined,
) {
  if (filter.auctionId) await getAuction(ctx, filter.auctionId);
  const page = await runsPage(ctx.scope, filter, limit, continuationToken);
  return { runs: page.items.map(toRun), continuationToken: page.continuationToken ?? null };
}

/** The timer: every connected platform whose scheduled sync is due gets one. */
export async function syncDue(log: Logger, now = new Date()): Promise<number> {
  let started = 0;
  for (const { accountId, platform } of await connectionsDue(now.toISOString())) {
    try {
      await startSync(systemContext(accountId), platform, 'schedule');
      started += 1;
    } catch (error) {
      // Already running, or disconnected meanwhile: the schedule tries again next time.
      log.info('scheduled sync not started', { accountId, platform, error: String(error) });
    }
  }
  return started;
}

/**
 * Real-time sync: after the house edits an auction linked to platforms, each connected one is
 * sent it by a queued job (so the edit is answered at once). Nothing is queued with real-time
 * sync off, or for an auction on no platform. A failure to queue is logged, not the edit's.
 */
export async function queuePushes(ctx: RequestContext, auctionId: string, log: Logger) {
  try {
    const settings = await readSyncSettings(ctx);
    if (!settings.realTimeSync) return;
    const links = await linksOfLocal(ctx.scope, 'auction', [auctionId]);
    for (const link of links.filter((entry) => entry.state === 'synced')) {
      const connection = await findConnection(ctx.scope, link.platform);
      if (!connection?.sealedKey || connection.status === 'Disconnected') continue;
      await enqueue(PUSH_QUEUE, {
        accountId: ctx.scope.accountId,
        platform: link.platform,
        auctionId,
        by: ctx.actor.name,
      } satisfies PushMessage);
    }
  } catch (error) {
    log.warn('real-time sync was not queued', { auctionId, error: String(error) });
  }
}

/** The queued push of real-time sync, recorded in the auction's Sync History. */
export async function runPush(message: PushMessage): Promise<void> {
  const system = systemContext(message.accountId);
  const ctx = { ...system, actor: { ...system.actor, name: message.by } };
  const connection = await findConnection(ctx.scope, message.platform);
  if (!connection?.sealedKey || connection.status === 'Disconnected') return;
  const run = new RunLog(newRun(ctx, message.platform, 'auction', 'push', message.auctionId));
  const scope: SyncScope = {
    ctx,
    connection,
    connector: connectorOf(connection),
    settings: await readSyncSettings(ctx),
    runId: run.record.id,
  };
  try {
    run.add(await pushAuction(scope, message.auctionId));
    run.record.status = 'completed';
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return;
    run.record.status = 'failed';
    run.record.error =
      error instanceof PlatformError ? failureMessage(error) : 'Lotwise could not send the auction';
    if (!(error instanceof PlatformError)) throw error;
  } finally {
    run.record.finishedAt = new Date().toISOString();
    await run.save(ctx);
  }
}

const later = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a;

/**
 * Settles a platform auction's link once a person resolved its conflict (Data Processing Center ›
 * Conflict Resolution), so the next sync does not raise the same change again: the platform's
 * change up to `platformUpdatedAt` counts as seen. With `housePending`, some of the house's
 * values differ from the platform's and count as edits not yet sent (a two-way sync sends them);
 * otherwise the auction is in step at `revision`. A duplicate the house typed by hand is linked
 * here. `withLots`: the platform's lots are brought into the auction while it is open (a lot the
 * platform cannot give now is named in the note; the link stands either way).
 */
/**
 * Refuses (409) to link a platform auction to a Lotwise one when either is linked to another;
 * answers the platform auction's link as it is. Checked before a conflict's values are applied,
 * so a refusal leaves the auction as it was.
 */
export async function linkableAuction(
  ctx: RequestContext,
  input: { platform: Platform; externalId: string; localId: string },
) {
  const { platform, externalId, localId } = input;
  const linkedElsewhere = (await linksOfLocal(ctx.scope, 'auction', [localId])).some(
    (link) =>
      link.platform === platform && link.externalId !== externalId && link.state === 'synced',
  );
  if (linkedElsewhere) {
    throw conflict(`This Lotwise auction is already linked to another ${platform} auction`);
  }
  const existing = await findLink(ctx.scope, platform, 'auction', externalId);
  if (existing?.state === 'synced' && existing.localId !== localId) {
    throw conflict(`This ${platform} auction is already linked to another Lotwise auction`);
  }
  return existing;
}

export async function settleAuctionLink(
  ctx: RequestContext,
  input: {
    platform: Platform;
    externalId: string;
    localId: string;
    platformUpdatedAt: string | null;
    revision: number;
    housePending: boolean;
    withLots: boolean;
  },
): Promise<{ note: string | null }> {
  const { platform, externalId, localId } = input;
  const existing = await linkableAuction(ctx, input);
  const before = input.revision - 1;
  const link: LinkRecord = {
    id: linkId(platform, 'auction', externalId),
    kind: 'link',
    accountId: ctx.scope.accountId,
    platform,
    entity: 'auction',
    externalId,
    localId,
    state: 'synced',
    // A later sync may have seen a newer change already: that one stands.
    platformUpdatedAt: later(existing?.platformUpdatedAt ?? null, input.platformUpdatedAt),
    localRevision: input.housePending
      ? Math.min(existing?.localRevision ?? before, before)
      : input.revision,
    syncedAt: new Date().toISOString(),
  };
  await integrations.upsert(ctx.scope, link);
  if (!input.withLots) return { note: null };
  const auction = await getAuction(ctx, localId);
  if (auction.status === 'Completed' || auction.status === 'Cancelled') return { note: null };
  try {
    const connection = await connectedPlatform(ctx, platform);
    const platformAuction = await connectorOf(connection).fetchAuction(externalId);
    const lots = await writeLots(
      { ctx, connection, runId: ctx.correlationId },
      localId,
      platformAuction.lots,
    );
    return {
      note:
        lots.created.length || lots.problems.length
          ? [`${lots.created.length} new lots`, ...lots.problems].join('; ')
          : null,
    };
  } catch (error) {
    if (error instanceof PlatformError) {
      return { note: `Lots not brought over: ${failureMessage(error)}` };
    }
    if (error instanceof AppError) return { note: `Lots not brought over: ${error.message}` };
    throw error;
  }
}
