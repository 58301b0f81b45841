import type { PatchOperation, SqlParameter } from '@azure/cosmos';
import type { ContainerDefinition } from '../platform/cosmos.js';
import { isNotFound } from '../platform/cosmos-errors.js';
import { MAX_BATCH_OPERATIONS, TenantRepository, type AccountScope } from '../platform/repo.js';
import type { AutoInviteStatus, Tier } from '../scoring/scoring.schema.js';
import {
  bidderListItemSchema,
  bidderSchema,
  keysOf,
  noteSchema,
  pairCandidateSchema,
  type Bidder,
  type BidderListItem,
  type BidderNote,
  type BidderStatus,
  type HistoryEntry,
  type OutreachFacts,
  type PairCandidate,
  type PlatformIdentity,
  type ScoreChange,
  type ScoreType,
} from './bidders.schema.js';

/** A bidder as stored: the contract's fields and what Lotwise keeps beside them. */
export type BidderRecord = Omit<Bidder, 'etag' | 'marketingOptOut' | 'platformIdentities'> & {
  accountId: string;
  /** The same person on bidding platforms; absent on records no platform import touched. */
  platformIdentities?: PlatformIdentity[];
  /** Absent on records written before bidders could opt out: they have not. */
  marketingOptOut?: boolean;
  /** Which settings version the custom score was computed with. */
  customVersion: number;
  history: HistoryEntry[];
  /** Lower-cased name, bidder ID, aliases and email, for case-insensitive search. */
  searchText: string;
  /** Blocking keys for duplicate detection. */
  matchKeys: string[];
  /**
   * The records merged into this one (document ids, never reused): their notes are this
   * bidder's notes. Absent on records written before notes became documents.
   */
  mergedIds?: string[];
  /** Lots bid per auction history entry, so a corrected result swaps its stats exactly. */
  auctionLotsBid?: Record<string, number>;
  /** How each buyer invoice counted in the payment stats (invoice id → outcome), so it counts once. */
  paymentOutcomes?: Record<string, 'on_time' | 'late' | 'overdue'>;
  /**
   * The open legal disputes that name this bidder (case ids), each counted in `stats.disputes`
   * while it is open. Absent on records no case has named.
   */
  legalDisputes?: string[];
  /**
   * Non-paying-bidder cases that hold against this bidder (case ids): open, or lost. Two keep
   * them out of future auctions. Absent on records no such case has named.
   */
  nonPaymentStrikes?: string[];
  /** Notes as records written before notes became documents kept them; never written now. */
  notes?: BidderNote[];
  createdBy: string | null;
};

/** What the scoring settings and the passing of time change on a bidder. */
export type Scores = Pick<
  BidderRecord,
  'lotwiseScore' | 'customScore' | 'customVersion' | 'autoInviteStatus'
>;

/** A note: a document of its own, so adding one never changes the bidder it is about. */
export type NoteRecord = BidderNote & {
  accountId: string;
  /** The id of the bidder document the note was written on. */
  bidder: string;
};

export interface DuplicateRecord {
  id: string;
  accountId: string;
  bidder1Id: string;
  bidder2Id: string;
  confidenceScore: number;
  matchReasons: string[];
  conflicts: { field: string; value1: string; value2: string }[];
  status: 'pending' | 'auto-merged' | 'manually-merged' | 'dismissed';
  /** Kept after a merge, so the pair still reads sensibly. */
  snapshot: { bidder1: Record<string, unknown>; bidder2: Record<string, unknown> } | null;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export const biddersContainer: ContainerDefinition = {
  id: 'bidders',
  partitionKey: '/accountId',
  uniqueKeys: [['/bidderId']],
};

export const duplicatesContainer: ContainerDefinition = {
  id: 'bidderDuplicates',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/status', order: 'ascending' },
      { path: '/confidenceScore', order: 'descending' },
    ],
  ],
};

export const notesContainer: ContainerDefinition = {
  id: 'bidderNotes',
  partitionKey: '/accountId',
};

/** Every change of a bidder's scores, with its cause: a document each, never rewritten. */
export const scoreChangesContainer: ContainerDefinition = {
  id: 'scoreChanges',
  partitionKey: '/accountId',
};
export type ScoreChangeRecord = ScoreChange & { accountId: string; bidderId: string };

export const biddersRepo = new TenantRepository<BidderRecord>(biddersContainer.id);
export const scoreChangesRepo = new TenantRepository<ScoreChangeRecord>(scoreChangesContainer.id);
export const duplicatesRepo = new TenantRepository<DuplicateRecord>(duplicatesContainer.id);
export const notesRepo = new TenantRepository<NoteRecord>(notesContainer.id);

const select = (fields: readonly string[]) => fields.map((field) => `c.${field}`).join(', ');

/** The list's columns, as the list contract names them (its `etag` is the document's). */
export const LIST_FIELDS = [
  ...keysOf(bidderListItemSchema).filter((field) => field !== 'etag'),
  '_etag',
] as const;

export type BidderListRecord = Pick<BidderRecord, Exclude<keyof BidderListItem, 'etag'>> & {
  _etag: string;
};

/** Which bidders a list, count or candidate search wants; the repository writes the SQL. */
export interface BidderFilter {
  /** The score that `tier`, `minScore` and `maxScore` (and the order) are about. */
  scoreType: ScoreType;
  tier?: Tier | undefined;
  status?: BidderStatus | undefined;
  autoInvite?: AutoInviteStatus | undefined;
  /** Leaves out bidders with this automation status. */
  notAutoInvite?: AutoInviteStatus | undefined;
  minScore?: number | undefined;
  maxScore?: number | undefined;
  /** Case-insensitive, in the name, bidder ID, aliases and email. */
  search?: string | undefined;
}

const scorePath = (scoreType: ScoreType) =>
  scoreType === 'custom' ? 'c.customScore' : 'c.lotwiseScore';

function whereOf(filter: BidderFilter): { where: string; parameters: SqlParameter[] } {
  const score = scorePath(filter.scoreType);
  const clauses: string[] = [];
  const parameters: SqlParameter[] = [];
  const add = (clause: string, name: string, value: string | number) => {
    clauses.push(clause);
    parameters.push({ name, value });
  };
  if (filter.tier) add(`${score}.tier = @tier`, '@tier', filter.tier);
  if (filter.status) add('c.status = @status', '@status', filter.status);
  if (filter.autoInvite) add('c.autoInviteStatus = @autoInvite', '@autoInvite', filter.autoInvite);
  if (filter.notAutoInvite)
    add('c.autoInviteStatus != @notAutoInvite', '@notAutoInvite', filter.notAutoInvite);
  if (filter.minScore !== undefined)
    add(`${score}.score >= @minScore`, '@minScore', filter.minScore);
  if (filter.maxScore !== undefined)
    add(`${score}.score <= @maxScore`, '@maxScore', filter.maxScore);
  if (filter.search) add('CONTAINS(c.searchText, @search)', '@search', filter.search.toLowerCase());
  return { where: clauses.join(' AND ') || 'true', parameters };
}

/** One page of list rows by the filter's score, reading only the list's columns. */
export function pageBidders(
  scope: AccountScope,
  filter: BidderFilter,
  page: { sort: 'asc' | 'desc'; pageSize: number; continuationToken?: string | undefined },
) {
  return biddersRepo.page(scope, {
    ...whereOf(filter),
    select: select(LIST_FIELDS),
    orderBy: `${scorePath(filter.scoreType)}.score ${page.sort === 'asc' ? 'ASC' : 'DESC'}`,
    pageSize: page.pageSize,
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  }) as Promise<{ items: BidderListRecord[]; continuationToken?: string }>;
}

export const countBidders = (scope: AccountScope, filter: BidderFilter) =>
  biddersRepo.count(scope, whereOf(filter));

/**
 * How many bidders have been at a house's own sales. History names the house (its name when the
 * sale ran), not its id, so that is what is matched.
 */
export const countBiddersAtHouse = (scope: AccountScope, houseName: string) =>
  biddersRepo.count(scope, {
    where: 'ARRAY_CONTAINS(c.history, @entry, true)',
    parameters: [{ name: '@entry', value: { isInternal: true, auctionHouse: houseName } }],
  });

/** How many bidders the account has in all, and by what the analytics break them down. */
export async function bidderCounts(
  scope: AccountScope,
  scoreType: ScoreType,
  breakdown: { tiers: readonly Tier[]; autoInvite: readonly AutoInviteStatus[] },
) {
  const count = (filter: Omit<BidderFilter, 'scoreType'>) =>
    countBidders(scope, { scoreType, ...filter });
  const [total, active, averageScore, byTier, byAutoInvite] = await Promise.all([
    count({}),
    count({ status: 'Active' }),
    biddersRepo.average(scope, `${scorePath(scoreType)}.score`),
    Promise.all(breakdown.tiers.map((tier) => count({ tier }))),
    Promise.all(breakdown.autoInvite.map((autoInvite) => count({ autoInvite }))),
  ]);
  return { total, active, averageScore, byTier, byAutoInvite };
}

const candidateSelect = select(keysOf(pairCandidateSchema));

/** The match fields of every bidder sharing a blocking key with the given ones. */
export async function candidatesSharingKeys(
  scope: AccountScope,
  keys: string[],
): Promise<PairCandidate[]> {
  const found = new Map<string, PairCandidate>();
  for (let start = 0; start < keys.length; start += KEY_CHUNK) {
    const matches = (await biddersRepo.all(scope, {
      select: candidateSelect,
      where: 'EXISTS(SELECT VALUE k FROM k IN c.matchKeys WHERE ARRAY_CONTAINS(@keys, k))',
      parameters: [{ name: '@keys', value: keys.slice(start, start + KEY_CHUNK) }],
    })) as unknown as PairCandidate[];
    for (const match of matches) found.set(match.id, match);
  }
  return [...found.values()];
}

const KEY_CHUNK = 500;

/** The match fields of the bidders with these ids (those still there). */
export async function candidatesByIds(
  scope: AccountScope,
  ids: string[],
): Promise<PairCandidate[]> {
  const found: PairCandidate[] = [];
  for (let start = 0; start < ids.length; start += KEY_CHUNK) {
    found.push(
      ...((await biddersRepo.all(scope, {
        select: candidateSelect,
        where: 'ARRAY_CONTAINS(@ids, c.id)',
        parameters: [{ name: '@ids', value: ids.slice(start, start + KEY_CHUNK) }],
      })) as unknown as PairCandidate[]),
    );
  }
  return found;
}

/** Every bidder's match fields, a page at a time. */
export async function* eachCandidatePage(scope: AccountScope, pageSize: number) {
  let continuationToken: string | undefined;
  do {
    const page = await biddersRepo.page(scope, {
      select: candidateSelect,
      pageSize,
      ...(continuationToken ? { continuationToken } : {}),
    });
    yield page.items as unknown as PairCandidate[];
    continuationToken = page.continuationToken;
  } while (continuationToken);
}

/** What an import needs to know of each bidder already there. */
export type KnownBidder = Pick<BidderRecord, 'id' | 'bidderId' | 'aliases' | 'email' | 'matchKeys'>;

/** Every bidder's IDs, email and blocking keys, a page at a time. */
export async function* eachKnownBidderPage(scope: AccountScope, pageSize: number) {
  let continuationToken: string | undefined;
  do {
    const page = await biddersRepo.page(scope, {
      select: select(['id', 'bidderId', 'aliases', 'email', 'matchKeys']),
      pageSize,
      ...(continuationToken ? { continuationToken } : {}),
    });
    yield page.items as unknown as KnownBidder[];
    continuationToken = page.continuationToken;
  } while (continuationToken);
}

/** The outreach facts, each as the record holds it (see `outreachFactsSchema`). */
const outreachSelect: Record<keyof OutreachFacts, string> = {
  id: 'c.id',
  bidderId: 'c.bidderId',
  firstName: 'c.firstName',
  lastName: 'c.lastName',
  email: 'c.email',
  status: 'c.status',
  preferredCategories: 'c.preferredCategories',
  autoInviteStatus: 'c.autoInviteStatus',
  stats: 'c.stats',
  marketingOptOut: 'c.marketingOptOut ?? false',
  lotwiseScore: '{ "score": c.lotwiseScore.score, "tier": c.lotwiseScore.tier }',
  customScore: '{ "score": c.customScore.score, "tier": c.customScore.tier }',
  historyCategories: 'ARRAY(SELECT VALUE h.generalCategory FROM h IN c.history)',
};

export const outreachFactsQuery = Object.entries(outreachSelect)
  .map(([field, path]) => `${path} AS ${field}`)
  .join(', ');

/** Every bidder's outreach facts: a few hundred bytes each, whatever the history and notes. */
export const allOutreachFacts = (scope: AccountScope) =>
  biddersRepo.all(scope, { select: outreachFactsQuery }) as unknown as Promise<OutreachFacts[]>;

/** The bidder that carries this bidder ID as an alias: the one it was merged into. */
export async function findByAlias(scope: AccountScope, bidderId: string) {
  const [survivor] = await biddersRepo.all(scope, {
    where: 'ARRAY_CONTAINS(c.aliases, @bidderId)',
    parameters: [{ name: '@bidderId', value: bidderId }],
  });
  return survivor;
}

/** The bidder with this bidder ID, or the one carrying it as an alias since a merge. */
export async function findByBidderId(scope: AccountScope, bidderId: string) {
  const [found] = await biddersRepo.all(scope, {
    where: 'c.bidderId = @bidderId OR ARRAY_CONTAINS(c.aliases, @bidderId)',
    parameters: [{ name: '@bidderId', value: bidderId }],
  });
  return found;
}

/** The bidders whose own bidder ID is any of these (not those carrying one as an alias). */
export async function findByBidderIds(scope: AccountScope, bidderIds: string[]) {
  if (bidderIds.length === 0) return [];
  return biddersRepo.all(scope, {
    where: 'ARRAY_CONTAINS(@bidderIds, c.bidderId)',
    parameters: [{ name: '@bidderIds', value: bidderIds }],
  });
}

/** The bidders with any of these (lower-cased) e-mail addresses, longest-known first. */
export async function findByEmails(scope: AccountScope, emails: string[]) {
  if (emails.length === 0) return [];
  return biddersRepo.all(scope, {
    where: 'ARRAY_CONTAINS(@emails, c.email)',
    parameters: [{ name: '@emails', value: emails }],
    orderBy: 'c.createdAt ASC',
  });
}

/** The longest-known bidder with this (lower-cased) e-mail address, if any. */
export async function findByEmail(scope: AccountScope, email: string) {
  const [first] = await biddersRepo.all(scope, {
    where: 'c.email = @email',
    parameters: [{ name: '@email', value: email }],
    orderBy: 'c.createdAt ASC',
  });
  return first;
}

/** The bidder a record with this document id was merged into, if it was. */
export async function findMergedInto(scope: AccountScope, id: string) {
  const [survivor] = await biddersRepo.all(scope, {
    where: 'ARRAY_CONTAINS(c.mergedIds, @id)',
    parameters: [{ name: '@id', value: id }],
  });
  return survivor;
}

const scoredBefore = (version: number) => ({
  where: 'c.customVersion < @version',
  parameters: [{ name: '@version', value: version }],
});

export const countScoredBefore = (scope: AccountScope, version: number) =>
  biddersRepo.count(scope, scoredBefore(version));

/** What a bidder's scores are computed from, and which settings version scored it last. */
/** What a recalculation reads of a bidder: the facts it scores, and the scores it replaces. */
export type ScoringFacts = Pick<
  BidderRecord,
  'id' | 'stats' | 'createdAt' | 'customVersion' | 'lotwiseScore' | 'customScore'
> & {
  _etag: string;
};
const SCORING_FIELDS = [
  ...keysOf(
    bidderSchema.pick({
      id: true,
      stats: true,
      createdAt: true,
      lotwiseScore: true,
      customScore: true,
    }),
  ),
  'customVersion',
  '_etag',
] as const satisfies readonly (keyof ScoringFacts)[];

/**
 * A page of the facts of the bidders whose custom score predates the settings `version`. Pages
 * resume after the last one read, so bidders rescored meanwhile (no longer matching) do not shift
 * the next page.
 */
export function pageScoredBefore(
  scope: AccountScope,
  version: number,
  pageSize: number,
  continuationToken: string | undefined,
) {
  return biddersRepo.page(scope, {
    ...scoredBefore(version),
    select: select(SCORING_FIELDS),
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  }) as Promise<{ items: ScoringFacts[]; continuationToken?: string }>;
}

const scorePatch = (scores: Scores): PatchOperation[] =>
  (Object.keys(scores) as (keyof Scores)[]).map((field) => ({
    op: 'set',
    path: `/${field}`,
    value: scores[field],
  }));

/**
 * New scores for up to a hundred bidders, all or none, each only if it is still the version read
 * (`etag`): a patch of the scores alone, not a rewrite of the bidder.
 */
export async function patchScores(
  scope: AccountScope,
  updates: readonly { id: string; etag: string; scores: Scores }[],
) {
  await biddersRepo.writeBatch(
    scope,
    updates.map(({ id, etag, scores }) => ({
      op: 'patch' as const,
      id,
      operations: scorePatch(scores),
      etag,
    })),
  );
}

export const countAllBidders = (scope: AccountScope) => biddersRepo.count(scope);

/** The pairs in a status (all by default), surest first. */
export const pairsInStatus = (scope: AccountScope, status: DuplicateRecord['status'] | undefined) =>
  duplicatesRepo.all(scope, {
    ...(status
      ? { where: 'c.status = @status', parameters: [{ name: '@status', value: status }] }
      : {}),
    orderBy: 'c.confidenceScore DESC',
  });

/** The pairs still waiting for review that name this bidder. */
export const pendingPairsNaming = (scope: AccountScope, bidderId: string) =>
  duplicatesRepo.all(scope, {
    where: "c.status = 'pending' AND (c.bidder1Id = @id OR c.bidder2Id = @id)",
    parameters: [{ name: '@id', value: bidderId }],
  });

/** The pairs still waiting for review that name any of these bidders (a batch of ids). */
export function pendingPairsNamingAny(scope: AccountScope, bidderIds: readonly string[]) {
  const names = bidderIds.map((_, index) => `@id${index}`).join(', ');
  return duplicatesRepo.all(scope, {
    where: `c.status = 'pending' AND (c.bidder1Id IN (${names}) OR c.bidder2Id IN (${names}))`,
    parameters: bidderIds.map((value, index) => ({ name: `@id${index}`, value })),
  });
}

export async function pairCounts(scope: AccountScope) {
  const count = (where: string) => duplicatesRepo.count(scope, { where });
  const [pending, autoMerged, resolved, total] = await Promise.all([
    count("c.status = 'pending'"),
    count("c.status = 'auto-merged'"),
    count("c.status = 'manually-merged' OR c.status = 'dismissed'"),
    count('true'),
  ]);
  return { pending, autoMerged, resolved, total };
}

const noteSelect = select(keysOf(noteSchema));

/** The notes written on these bidder documents, newest first. */
export const notesOn = (scope: AccountScope, bidderIds: string[]) =>
  notesRepo.all(scope, {
    select: noteSelect,
    where: 'ARRAY_CONTAINS(@ids, c.bidder)',
    parameters: [{ name: '@ids', value: bidderIds }],
    orderBy: 'c.date DESC',
  }) as unknown as Promise<BidderNote[]>;

/** Removes the notes written on these bidder documents, a hundred at a time. */
export async function deleteNotesOn(scope: AccountScope, bidderIds: string[]) {
  const notes = await notesRepo.all(scope, {
    select: 'c.id',
    where: 'ARRAY_CONTAINS(@ids, c.bidder)',
    parameters: [{ name: '@ids', value: bidderIds }],
  });
  for (let start = 0; start < notes.length; start += MAX_BATCH_OPERATIONS) {
    const chunk = notes.slice(start, start + MAX_BATCH_OPERATIONS);
    try {
      await notesRepo.writeBatch(
        scope,
        chunk.map((note) => ({ op: 'delete' as const, id: note.id })),
      );
    } catch (error) {
      // Someone removed one of them meanwhile: remove the rest one by one.
      if (!isNotFound(error)) throw error;
      for (const note of chunk) {
        await notesRepo.delete(scope, note.id).catch((failure: unknown) => {
          if (!isNotFound(failure)) throw failure;
        });
      }
    }
  }
}
