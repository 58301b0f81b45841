import { bidderInputSchema, type PlatformIdentity } from '../bidders/bidders.schema.js';
import { importPlatformBidders, type PlatformNewcomer } from '../bidders/bidder-import.service.js';
import {
  biddersWithEmails,
  bidderWithEmail,
  createBidder,
  linkPlatformIdentity,
} from '../bidders/bidders.service.js';
import { pendingPairsOf } from '../bidders/duplicates.service.js';
import { importedSide, recordBidderPair } from '../conflicts/conflicts.service.js';
import { isConflict } from '../platform/cosmos-errors.js';
import { AppError } from '../platform/errors.js';
import { MAX_BATCH_OPERATIONS, type Stored } from '../platform/repo.js';
import { randomUUID } from 'node:crypto';
import type { RecordScope } from './auction-sync.js';
import type { PlatformBidder } from './connectors/connector.js';
import {
  findLink,
  integrations,
  linkId,
  linksOfExternal,
  type LinkRecord,
} from './integrations.repo.js';
import type { SyncChange } from './integrations.schema.js';

const identityOf = (scope: RecordScope, bidder: PlatformBidder): PlatformIdentity => {
  const now = new Date().toISOString();
  return {
    platform: scope.connection.platform,
    externalId: bidder.externalId,
    email: bidder.email,
    totalBids: bidder.totalBids,
    totalWins: bidder.totalWins,
    totalSpent: bidder.totalSpent,
    currency: bidder.currency,
    lastActive: bidder.lastActive,
    linkedAt: now,
    updatedAt: bidder.updatedAt,
  };
};

const change = (
  bidder: PlatformBidder,
  localId: string | null,
  action: SyncChange['action'],
  message: string | null = null,
): SyncChange => ({
  entity: 'bidder',
  externalId: bidder.externalId,
  localId,
  title: `${bidder.firstName} ${bidder.lastName}`.trim(),
  action,
  fields: [],
  message,
});

async function saveLink(scope: RecordScope, link: LinkRecord) {
  const { _etag, _ts, ...document } = link as LinkRecord & { _etag?: string; _ts?: number };
  await integrations.upsert(scope.ctx.scope, document);
}

/** The link of a platform bidder, made `pending` with a new local id when there is none. */
async function linkFor(scope: RecordScope, externalId: string) {
  const { platform } = scope.connection;
  const existing = await findLink(scope.ctx.scope, platform, 'bidder', externalId);
  if (existing) return existing;
  const link: LinkRecord = {
    id: linkId(platform, 'bidder', externalId),
    kind: 'link',
    accountId: scope.ctx.scope.accountId,
    platform,
    entity: 'bidder',
    externalId,
    localId: randomUUID(),
    state: 'pending',
    platformUpdatedAt: null,
    localRevision: null,
    syncedAt: null,
  };
  try {
    return (await integrations.create(scope.ctx.scope, link)) as Stored<LinkRecord>;
  } catch (error) {
    if (!isConflict(error)) throw error;
    return (await findLink(scope.ctx.scope, platform, 'bidder', externalId)) as Stored<LinkRecord>;
  }
}

/**
 * Brings one platform bidder into Lotwise through duplicate detection: a person Lotwise already
 * knows (by the matcher's rules) becomes that bidder with one more platform identity, a new one
 * is added; a linked one has its platform figures brought up to date.
 */
export async function applyPlatformBidder(
  scope: RecordScope,
  bidder: PlatformBidder,
): Promise<SyncChange> {
  const identity = identityOf(scope, bidder);
  const link = await linkFor(scope, bidder.externalId);
  if (link.state === 'synced') {
    try {
      const linked = await linkPlatformIdentity(scope.ctx, link.localId, identity);
      if (linked.bidder.id !== link.localId)
        await saveLink(scope, { ...link, localId: linked.bidder.id });
      return change(bidder, linked.bidder.id, linked.changed ? 'updated' : 'unchanged');
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        return change(bidder, link.localId, 'skipped', 'Deleted in Lotwise; not imported again');
      }
      throw error;
    }
  }
  const input = bidderInputSchema.safeParse({
    firstName: bidder.firstName,
    lastName: bidder.lastName,
    email: bidder.email ?? '',
    phone: bidder.phone ?? '',
    status: bidder.status,
  });
  if (!input.success) {
    const issue = input.error.issues[0];
    return change(
      bidder,
      null,
      'failed',
      `${issue?.path.join('.') ?? 'record'}: ${issue?.message ?? 'is not valid'}`,
    );
  }
  // A platform knows its bidders by e-mail: the same address is the same person, linked as is.
  const known = input.data.email ? await bidderWithEmail(scope.ctx, input.data.email) : undefined;
  if (known) {
    const linked = await linkPlatformIdentity(scope.ctx, known.id, identity);
    await saveLink(scope, {
      ...link,
      localId: linked.bidder.id,
      state: 'synced',
      platformUpdatedAt: bidder.updatedAt,
      syncedAt: new Date().toISOString(),
    });
    return change(
      bidder,
      linked.bidder.id,
      'updated',
      `The same person as ${known.firstName} ${known.lastName} (${known.bidderId}): same e-mail`,
    );
  }
  const outcome = await createBidder(scope.ctx, input.data, { id: link.localId });
  const linked = await linkPlatformIdentity(scope.ctx, outcome.bidder.id, identity);
  await saveLink(scope, {
    ...link,
    localId: linked.bidder.id,
    state: 'synced',
    platformUpdatedAt: bidder.updatedAt,
    syncedAt: new Date().toISOString(),
  });
  if (outcome.mergedBecause) {
    return change(
      bidder,
      linked.bidder.id,
      'updated',
      `The same person as ${linked.bidder.firstName} ${linked.bidder.lastName} (${linked.bidder.bidderId}): ${outcome.mergedBecause.join(', ')}`,
    );
  }
  return change(
    bidder,
    linked.bidder.id,
    'created',
    outcome.possibleDuplicates
      ? `${outcome.possibleDuplicates} possible duplicates to review`
      : null,
  );
}

const pendingLink = (scope: RecordScope, externalId: string): LinkRecord => ({
  id: linkId(scope.connection.platform, 'bidder', externalId),
  kind: 'link',
  accountId: scope.ctx.scope.accountId,
  platform: scope.connection.platform,
  entity: 'bidder',
  externalId,
  localId: randomUUID(),
  state: 'pending',
  platformUpdatedAt: null,
  localRevision: null,
  syncedAt: null,
});

async function upsertLinks(scope: RecordScope, links: LinkRecord[]) {
  for (let start = 0; start < links.length; start += MAX_BATCH_OPERATIONS) {
    await integrations.writeBatch(
      scope.ctx.scope,
      links.slice(start, start + MAX_BATCH_OPERATIONS).map((link) => {
        const { _etag, _ts, ...document } = link as LinkRecord & { _etag?: string; _ts?: number };
        return { op: 'upsert' as const, document };
      }),
    );
  }
}

/**
 * A page of platform bidders at once, with the outcome `applyPlatformBidder` gives each: the
 * page's links and the e-mail addresses Lotwise knows are read in one query each, the pending
 * links of the newcomers written before them, and the newcomers added and matched together.
 * Linked bidders, those known by e-mail and a newcomer whose id a cut-short sync already used
 * go one by one, as they are few; a record that cannot be written is logged as failed.
 */
export async function applyPlatformBidders(
  scope: RecordScope,
  bidders: PlatformBidder[],
): Promise<SyncChange[]> {
  const { platform } = scope.connection;
  const links = new Map(
    (
      await linksOfExternal(
        scope.ctx.scope,
        platform,
        'bidder',
        bidders.map((bidder) => bidder.externalId),
      )
    ).map((link) => [link.externalId, link]),
  );
  const inputs = new Map(
    bidders.map((bidder) => [
      bidder.externalId,
      bidderInputSchema.safeParse({
        firstName: bidder.firstName,
        lastName: bidder.lastName,
        email: bidder.email ?? '',
        phone: bidder.phone ?? '',
        status: bidder.status,
      }),
    ]),
  );
  const known = await biddersWithEmails(
    scope.ctx,
    bidders.flatMap((bidder) => {
      const input = inputs.get(bidder.externalId);
      return !links.has(bidder.externalId) && input?.success && input.data.email
        ? [input.data.email]
        : [];
    }),
  );
  const candidates = bidders.flatMap((bidder) => {
    const input = inputs.get(bidder.externalId);
    if (links.has(bidder.externalId) || !input?.success) return [];
    if (input.data.email && known.has(input.data.email.toLowerCase())) return [];
    return [{ bidder, input: input.data }];
  });
  // The newcomers' links are written before their bidders, so a sync cut off between the two
  // finds the ids it chose. A batch another import got to first goes one by one instead.
  const newcomers: typeof candidates = [];
  const fresh: LinkRecord[] = [];
  for (let start = 0; start < candidates.length; start += MAX_BATCH_OPERATIONS) {
    const chunk = candidates.slice(start, start + MAX_BATCH_OPERATIONS);
    const chunkLinks = chunk.map(({ bidder }) => pendingLink(scope, bidder.externalId));
    try {
      await integrations.writeBatch(
        scope.ctx.scope,
        chunkLinks.map((document) => ({ op: 'create' as const, document })),
      );
      newcomers.push(...chunk);
      fresh.push(...chunkLinks);
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
  const { outcomes } = await importPlatformBidders(
    scope.ctx,
    newcomers.map(({ bidder, input }, index): PlatformNewcomer => ({
      id: (fresh[index] as LinkRecord).localId,
      input,
      identity: identityOf(scope, bidder),
    })),
  );
  const syncedAt = new Date().toISOString();
  const made: { link: LinkRecord; change: SyncChange }[] = [];
  newcomers.forEach(({ bidder }, index) => {
    const link = fresh[index] as LinkRecord;
    const outcome = outcomes.get(link.localId);
    if (!outcome) return;
    const merged = outcome.mergedInto;
    made.push({
      link: {
        ...link,
        localId: outcome.bidderId,
        state: 'synced',
        platformUpdatedAt: bidder.updatedAt,
        syncedAt,
      },
      change: merged
        ? change(
            bidder,
            outcome.bidderId,
            'updated',
            `The same person as ${merged.name} (${merged.bidderId}): ${merged.reasons.join(', ')}`,
          )
        : change(bidder, outcome.bidderId, 'created'),
    });
  });
  await upsertLinks(
    scope,
    made.map((entry) => entry.link),
  );
  const changes = new Map(made.map((entry) => [entry.link.externalId, entry.change]));
  const results: SyncChange[] = [];
  for (const bidder of bidders) {
    const done = changes.get(bidder.externalId);
    if (done) {
      results.push(done);
      continue;
    }
    try {
      results.push(await applyPlatformBidder(scope, bidder));
    } catch (error) {
      // A record that cannot be written is logged, not fatal.
      if (!(error instanceof AppError)) throw error;
      results.push(change(bidder, null, 'failed', error.message));
    }
  }
  await recordSyncConflicts(scope, results);
  return results;
}

/**
 * The bidders a sync brought in that may be someone already on file (a pending duplicate pair,
 * below the auto-merge threshold), each pair as a conflict for a person to decide under Conflict
 * Resolution, the platform's bidder as the imported side. Recorded once per pair, however often
 * the platform sends the bidder.
 */
export async function recordSyncConflicts(scope: RecordScope, changes: readonly SyncChange[]) {
  const externalOf = new Map(
    changes.flatMap((entry) =>
      entry.action === 'created' && entry.localId ? [[entry.localId, entry.externalId]] : [],
    ),
  );
  if (externalOf.size === 0) return;
  const { platform } = scope.connection;
  for (const pair of await pendingPairsOf(scope.ctx, [...externalOf.keys()])) {
    const importedId = importedSide(pair, (id) => externalOf.has(id));
    await recordBidderPair(scope.ctx, pair, importedId, {
      key: `sync:${platform}:bidder-pair:${pair.id}`,
      source: {
        kind: 'sync',
        platform,
        runId: scope.runId,
        externalId: externalOf.get(importedId) as string,
      },
      uploadName: `${platform} sync`,
    });
  }
}
