import { writeAudit } from '../platform/audit.js';
import { asSystem, type RequestContext } from '../platform/context.js';
import { isConflict, isNotFound, isStale } from '../platform/cosmos-errors.js';
import { AppError, badRequest, conflict, preconditionFailed } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import {
  mergeableFields,
  type DuplicateView,
  type MergeableField,
  type PairCandidate,
} from './bidders.schema.js';
import {
  biddersRepo,
  candidatesSharingKeys,
  duplicatesRepo,
  eachCandidatePage,
  pairCounts,
  pairsInStatus,
  pendingPairsNaming,
  pendingPairsNamingAny,
  type BidderRecord,
  type DuplicateRecord,
} from './bidders.repo.js';
import { emitEvent } from '../webhooks/deliveries.service.js';
import { derive, identitiesOf, toBidder, toListItem } from './bidder-model.js';
import { findDuplicates, type DuplicatePair } from './duplicate-matcher.js';
import { forgetTotals } from './list-totals.js';

export type { PairCandidate };

/** What a reviewer is told when a bidder changed after they looked at the pair. */
export const CHANGED_MEANWHILE =
  'One of the two bidders changed meanwhile. Reload and review the pair again.';

const pairId = (a: string, b: string) => (a < b ? `${a}~${b}` : `${b}~${a}`);

/**
 * Finds the likely duplicates of bidders just added or changed, among everyone in the account
 * (and among themselves). Pairs at or above the auto-merge threshold are merged at once, older
 * record first; the rest wait for review. Returns how many of each.
 */
export async function recordMatchesFor(
  ctx: RequestContext,
  records: BidderRecord[],
  autoMergeThreshold: number,
) {
  if (!records.length) return noMatches();
  const fresh = new Set(records.map((record) => record.id));
  const keys = [...new Set(records.flatMap((record) => record.matchKeys))];
  const pool = new Map<string, PairCandidate>(
    (await candidatesSharingKeys(ctx.scope, keys)).map((record) => [record.id, record]),
  );
  for (const record of records) pool.set(record.id, record);
  const pairs = findDuplicates([...pool.values()]).filter(
    (pair) => fresh.has(pair.a) || fresh.has(pair.b),
  );
  return recordPairs(ctx, pairs, pool, autoMergeThreshold);
}

/** A merge made on arrival: which record went into which, and why they are the same bidder. */
export interface AutoMerge {
  survivorId: string;
  mergedId: string;
  reasons: string[];
}

export interface MatchOutcome {
  pending: number;
  autoMerged: number;
  merges: AutoMerge[];
}

export const noMatches = (): MatchOutcome => ({ pending: 0, autoMerged: 0, merges: [] });

/**
 * Told around each automatic merge, by a caller that keeps its own account of what it changed
 * (an upload's ledger, for undo): `before` as the merge is about to change the surviving bidder
 * (awaited first), `after` once it has (`merged`) or has not.
 */
export interface MergeWatcher {
  before(survivorId: string): Promise<void>;
  after(survivorId: string, merged: boolean): void;
}

/** Saves pairs for review, or merges them at once when at or above the auto-merge threshold. */
export async function recordPairs(
  ctx: RequestContext,
  pairs: DuplicatePair[],
  pool: Map<string, PairCandidate>,
  autoMergeThreshold: number,
  watcher?: MergeWatcher,
): Promise<MatchOutcome> {
  let pending = 0;
  let autoMerged = 0;
  const merges: AutoMerge[] = [];
  const merged = new Set<string>();
  for (const pair of pairs) {
    if (merged.has(pair.a) || merged.has(pair.b)) continue;
    const id = pairId(pair.a, pair.b);
    const existing = await duplicatesRepo.find(ctx.scope, id);
    if (existing && existing.status !== 'pending') continue;
    const one = pool.get(pair.a) as PairCandidate;
    const two = pool.get(pair.b) as PairCandidate;
    if (pair.confidence >= autoMergeThreshold) {
      const [primary, secondary] =
        Date.parse(one.createdAt) <= Date.parse(two.createdAt) ? [one, two] : [two, one];
      const resolved = Object.fromEntries(
        pair.conflicts.map((item) => {
          const primaryValue = pair.a === primary.id ? item.value1 : item.value2;
          const secondaryValue = pair.a === primary.id ? item.value2 : item.value1;
          return [item.field, primaryValue || secondaryValue];
        }),
      );
      await watcher?.before(primary.id);
      try {
        await merge(asSystem(ctx), primary.id, secondary.id, resolved, 'auto-merged', {
          confidenceScore: pair.confidence,
          matchReasons: pair.reasons,
          conflicts: pair.conflicts,
        });
        watcher?.after(primary.id, true);
        merged.add(secondary.id);
        merges.push({ survivorId: primary.id, mergedId: secondary.id, reasons: pair.reasons });
        autoMerged += 1;
      } catch (error) {
        // Someone changed or removed one of the two meanwhile: leave the pair for review instead.
        const changed =
          isNotFound(error) ||
          isConflict(error) ||
          isStale(error) ||
          (error instanceof AppError && [404, 409, 412].includes(error.status));
        if (!changed) throw error;
        watcher?.after(primary.id, false);
        await savePending(ctx, id, pair, existing);
        pending += 1;
      }
    } else {
      await savePending(ctx, id, pair, existing);
      pending += 1;
    }
  }
  return { pending, autoMerged, merges };
}

async function savePending(
  ctx: RequestContext,
  id: string,
  pair: DuplicatePair,
  existing: Stored<DuplicateRecord> | undefined,
) {
  const record: Omit<DuplicateRecord, 'accountId'> = {
    id,
    bidder1Id: pair.a,
    bidder2Id: pair.b,
    confidenceScore: pair.confidence,
    matchReasons: pair.reasons,
    conflicts: pair.conflicts,
    status: 'pending',
    snapshot: null,
    createdAt: existing?.createdAt ?? new Date().toISOString(),
    resolvedAt: null,
    resolvedBy: null,
  };
  await duplicatesRepo.upsert(ctx.scope, record);
}

const sum = (a: number, b: number) => a + b;
const earliest = (a: string | null, b: string | null) => (!a ? b : !b ? a : a < b ? a : b);
const latest = (a: string | null, b: string | null) => (!a ? b : !b ? a : a > b ? a : b);
const meanOf = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : (a + b) / 2;

function combine(
  primary: BidderRecord,
  secondary: BidderRecord,
  resolved: Partial<Record<MergeableField, string>>,
): Omit<BidderRecord, 'accountId'> {
  const stats = {
    totalAuctionsBid: sum(primary.stats.totalAuctionsBid, secondary.stats.totalAuctionsBid),
    totalLotsBid: sum(primary.stats.totalLotsBid, secondary.stats.totalLotsBid),
    wins: sum(primary.stats.wins, secondary.stats.wins),
    totalWinAmount: sum(primary.stats.totalWinAmount, secondary.stats.totalWinAmount),
    paymentsOnTime: sum(primary.stats.paymentsOnTime, secondary.stats.paymentsOnTime),
    paymentsLate: sum(primary.stats.paymentsLate, secondary.stats.paymentsLate),
    paymentsOverdue: sum(primary.stats.paymentsOverdue, secondary.stats.paymentsOverdue),
    avgDaysToPay: meanOf(primary.stats.avgDaysToPay, secondary.stats.avgDaysToPay),
    priorDefaults: sum(primary.stats.priorDefaults, secondary.stats.priorDefaults),
    disputes: sum(primary.stats.disputes, secondary.stats.disputes),
    referrals: sum(primary.stats.referrals, secondary.stats.referrals),
    responseRate: meanOf(primary.stats.responseRate, secondary.stats.responseRate),
    avgResponseHours: meanOf(primary.stats.avgResponseHours, secondary.stats.avgResponseHours),
    firstAuction: earliest(primary.stats.firstAuction, secondary.stats.firstAuction),
    lastAuction: latest(primary.stats.lastAuction, secondary.stats.lastAuction),
  };
  const pick = (field: MergeableField, fallback: string) => resolved[field] ?? fallback;
  const { accountId: _accountId, ...base } = primary;
  return {
    ...base,
    firstName: pick('firstName', primary.firstName),
    lastName: pick('lastName', primary.lastName),
    email: pick('email', primary.email ?? '') || null,
    phone: pick('phone', primary.phone ?? '') || null,
    address: {
      street: pick('street', primary.address.street),
      city: pick('city', primary.address.city),
      state: pick('state', primary.address.state),
      zip: pick('zip', primary.address.zip),
      country: pick('country', primary.address.country),
    },
    status: pick('status', primary.status) as BidderRecord['status'],
    aliases: [...new Set([...primary.aliases, secondary.bidderId, ...secondary.aliases])],
    preferredCategories: [
      ...new Set([...primary.preferredCategories, ...secondary.preferredCategories]),
    ],
    stats,
    // Either record's request for no marketing mail stands for the person.
    marketingOptOut: Boolean(primary.marketingOptOut || secondary.marketingOptOut),
    // The secondary's notes (documents written on it or on what was merged into it) are the
    // primary's from now on, in the same write that removes the secondary.
    mergedIds: [...(primary.mergedIds ?? []), secondary.id, ...(secondary.mergedIds ?? [])],
    ...(primary.notes || secondary.notes
      ? {
          notes: [...(primary.notes ?? []), ...(secondary.notes ?? [])].sort((x, y) =>
            y.date.localeCompare(x.date),
          ),
        }
      : {}),
    history: [
      ...primary.history,
      ...secondary.history.filter((entry) => !primary.history.some((own) => own.id === entry.id)),
    ].sort((x, y) => y.auctionDate.localeCompare(x.auctionDate)),
    invitations: [...primary.invitations, ...secondary.invitations].sort((x, y) =>
      y.at.localeCompare(x.at),
    ),
    // One person: the platform identities of both, the newest figures of each.
    ...(primary.platformIdentities || secondary.platformIdentities
      ? {
          platformIdentities: identitiesOf([
            ...(primary.platformIdentities ?? []),
            ...(secondary.platformIdentities ?? []),
          ]),
        }
      : {}),
    createdAt: earliest(primary.createdAt, secondary.createdAt) as string,
    updatedAt: new Date().toISOString(),
  };
}

const snapshotOf = (record: BidderRecord) =>
  toListItem({ ...record, _etag: '', _ts: 0 } as Stored<BidderRecord>) as unknown as Record<
    string,
    unknown
  >;

/** The ETags of the two records as the one merging saw them. */
interface SeenVersions {
  primaryEtag: string;
  secondaryEtag: string;
}

/**
 * Merges the secondary bidder into the primary: the chosen value for each field, history, notes
 * and invitations combined, the secondary's bidder ID kept as an alias. The primary's new version
 * and the secondary's removal are one transactional batch, so a failure changes nothing. With
 * `seen`, only the versions the reviewer looked at are merged; otherwise (automatic merges) the
 * current ones.
 */
async function merge(
  ctx: RequestContext,
  primaryId: string,
  secondaryId: string,
  resolved: Record<string, string>,
  status: 'auto-merged' | 'manually-merged',
  pair: Pick<DuplicateRecord, 'confidenceScore' | 'matchReasons' | 'conflicts'>,
  seen?: SeenVersions,
) {
  if (primaryId === secondaryId) throw badRequest('primaryId: must differ from secondaryId');
  const unknown = Object.keys(resolved).filter(
    (field) => !(mergeableFields as readonly string[]).includes(field),
  );
  if (unknown.length) throw badRequest(`resolved: ${unknown.join(', ')} cannot be merged`);
  const [primary, secondary] = await Promise.all([
    biddersRepo.get(ctx.scope, primaryId, 'Bidder'),
    biddersRepo.get(ctx.scope, secondaryId, 'Bidder'),
  ]);
  const guard = seen ?? { primaryEtag: primary._etag, secondaryEtag: secondary._etag };
  if (primary._etag !== guard.primaryEtag || secondary._etag !== guard.secondaryEtag) {
    throw preconditionFailed(CHANGED_MEANWHILE);
  }
  const settings = await scoringSettings(ctx);
  const merged = derive(
    combine(primary, secondary, resolved as Partial<Record<MergeableField, string>>),
    settings,
  );
  try {
    await biddersRepo.batch(ctx.scope, [
      { op: 'replace', document: merged, etag: guard.primaryEtag },
      { op: 'delete', id: secondary.id, etag: guard.secondaryEtag },
    ]);
  } catch (error) {
    if (isStale(error)) throw preconditionFailed(CHANGED_MEANWHILE);
    throw error;
  }
  forgetTotals(ctx.scope.accountId);
  const now = new Date().toISOString();
  await duplicatesRepo.upsert(ctx.scope, {
    id: pairId(primaryId, secondaryId),
    bidder1Id: primaryId,
    bidder2Id: secondaryId,
    confidenceScore: pair.confidenceScore,
    matchReasons: pair.matchReasons,
    conflicts: pair.conflicts,
    status,
    snapshot: { bidder1: snapshotOf(primary), bidder2: snapshotOf(secondary) },
    createdAt: now,
    resolvedAt: now,
    resolvedBy: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
  });
  // Pairs that named the merged-away bidder no longer mean anything.
  for (const stale of await pendingPairsNaming(ctx.scope, secondaryId)) {
    await duplicatesRepo.delete(ctx.scope, stale.id);
  }
  await writeAudit(ctx, {
    action: status === 'auto-merged' ? 'bidder.auto-merge' : 'bidder.merge',
    entity: { type: 'bidder', id: primaryId },
    before: { primary: snapshotOf(primary), secondary: snapshotOf(secondary) },
    after: snapshotOf({ ...merged, accountId: ctx.scope.accountId }),
  });
  const survivor = await biddersRepo.get(ctx.scope, primaryId, 'Bidder');
  await emitEvent(ctx, 'bidder.merged', {
    bidder: toBidder(survivor),
    mergedBidderId: secondary.id,
    mergedBidderNumber: secondary.bidderId,
    automatic: status === 'auto-merged',
  });
  return survivor;
}

/** A reviewer's merge of a pending pair, of the two versions the review showed. */
export async function mergePair(
  ctx: RequestContext,
  id: string,
  request: {
    primaryId: string;
    secondaryId: string;
    resolved: Record<string, string>;
  } & SeenVersions,
) {
  const pair = await duplicatesRepo.get(ctx.scope, id, 'Duplicate match');
  if (pair.status !== 'pending') throw conflict('This pair has already been resolved');
  const members = [pair.bidder1Id, pair.bidder2Id].sort();
  if (members.join() !== [request.primaryId, request.secondaryId].sort().join()) {
    throw badRequest(
      'primaryId: must be one of the two bidders of this pair, and secondaryId the other',
    );
  }
  return merge(
    ctx,
    request.primaryId,
    request.secondaryId,
    request.resolved,
    'manually-merged',
    pair,
    { primaryEtag: request.primaryEtag, secondaryEtag: request.secondaryEtag },
  );
}

export async function dismissPair(ctx: RequestContext, id: string) {
  const pair = await duplicatesRepo.get(ctx.scope, id, 'Duplicate match');
  if (pair.status !== 'pending') throw conflict('This pair has already been resolved');
  await duplicatesRepo.replace(
    ctx.scope,
    {
      ...pair,
      status: 'dismissed',
      resolvedAt: new Date().toISOString(),
      resolvedBy: ctx.actor.userId,
    },
    pair._etag,
  );
  await writeAudit(ctx, { action: 'duplicate.dismiss', entity: { type: 'duplicate', id } });
}

/** A pair's status, or undefined when it is gone (a merge drops the pairs of a merged-away bidder). */
export async function pairStatus(ctx: RequestContext, id: string) {
  return (await duplicatesRepo.find(ctx.scope, id))?.status;
}

export async function listDuplicates(
  ctx: RequestContext,
  status: DuplicateRecord['status'] | undefined,
): Promise<DuplicateView[]> {
  return viewsOf(ctx, await pairsInStatus(ctx.scope, status));
}

/** Bidder ids asked about at a time by `pendingPairsOf`. */
const PAIR_LOOKUP_IDS = 100;

/**
 * The pairs waiting for review that name any of these bidders (those an import wrote, say), each
 * once, as `listDuplicates` shows them: read by the bidders' ids, never the account's every pair.
 */
export async function pendingPairsOf(
  ctx: RequestContext,
  bidderIds: readonly string[],
): Promise<DuplicateView[]> {
  const seen = new Set<string>();
  const views: DuplicateView[] = [];
  for (let start = 0; start < bidderIds.length; start += PAIR_LOOKUP_IDS) {
    const pairs = await pendingPairsNamingAny(
      ctx.scope,
      bidderIds.slice(start, start + PAIR_LOOKUP_IDS),
    );
    const unseen = pairs.filter((pair) => !seen.has(pair.id));
    for (const pair of unseen) seen.add(pair.id);
    views.push(...(await viewsOf(ctx, unseen)));
  }
  return views;
}

/** Pairs as Bidders › Duplicates shows them (a pair missing one of its bidders is left out). */
async function viewsOf(
  ctx: RequestContext,
  pairs: Stored<DuplicateRecord>[],
): Promise<DuplicateView[]> {
  const views: DuplicateView[] = [];
  for (const pair of pairs) {
    const [one, two] = pair.snapshot
      ? [pair.snapshot.bidder1, pair.snapshot.bidder2]
      : await Promise.all([
          biddersRepo.find(ctx.scope, pair.bidder1Id),
          biddersRepo.find(ctx.scope, pair.bidder2Id),
        ]).then((found) => found.map((record) => (record ? toListItem(record) : undefined)));
    if (!one || !two) continue;
    views.push({
      id: pair.id,
      bidder1: one as DuplicateView['bidder1'],
      bidder2: two as DuplicateView['bidder2'],
      confidenceScore: pair.confidenceScore,
      matchReasons: pair.matchReasons,
      conflicts: pair.conflicts,
      status: pair.status,
      createdAt: pair.createdAt,
      resolvedAt: pair.resolvedAt,
    });
  }
  return views;
}

export const duplicateSummary = (ctx: RequestContext) => pairCounts(ctx.scope);

const SCAN_PAGE = 1000;

/** Looks for duplicates across the whole account, as when bidders arrived before matching did. */
export async function scanDuplicates(ctx: RequestContext) {
  const settings = await scoringSettings(ctx);
  const records: PairCandidate[] = [];
  for await (const page of eachCandidatePage(ctx.scope, SCAN_PAGE)) records.push(...page);
  const pairs = findDuplicates(records);
  const pool = new Map(records.map((record) => [record.id, record]));
  const { pending, autoMerged } = await recordPairs(ctx, pairs, pool, settings.autoMergeThreshold);
  return { scanned: records.length, pending, autoMerged };
}
