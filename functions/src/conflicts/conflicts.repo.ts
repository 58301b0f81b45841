import { createHash } from 'node:crypto';
import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Page, type Stored } from '../platform/repo.js';
import type { Conflict, ConflictCounts, ConflictStatus, ConflictType } from './conflicts.schema.js';

/**
 * One document per conflict in the account's partition, listed newest first. Its id is derived
 * from the recorder's key, so an import resumed or a sync run again records it only once.
 */
export const conflictsContainer: ContainerDefinition = {
  id: 'conflicts',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/createdAt', order: 'descending' },
      { path: '/id', order: 'descending' },
    ],
  ],
};

/** The real record(s) a conflict is about, as the feature owning them names them. */
export type ConflictSubject =
  /** A pending duplicate pair (Bidders › Duplicates) of an imported bidder and one on file. */
  | { type: 'bidder'; matchId: string; existingId: string; importedId: string }
  /** An imported legal case matching one on file; `imported` as caseInputSchema names its fields. */
  | { type: 'legal'; existingId: string; imported: Record<string, unknown> }
  /**
   * A platform auction: `localId` the Lotwise auction it collides with (its twin for a duplicate,
   * its linked one for a mismatch); `imported` the platform's values in Lotwise's field names;
   * `platformUpdatedAt` the platform's change time, so settling the link marks that change seen.
   */
  | {
      type: 'auction';
      platform: string;
      externalId: string;
      localId: string | null;
      imported: Record<string, unknown>;
      platformUpdatedAt?: string;
    };

export interface ConflictRecord extends Omit<Conflict, 'etag'> {
  accountId: string;
  kind: 'conflict';
  /** The recorder's idempotency key. */
  key: string;
  subject: ConflictSubject;
  /**
   * The ETag (or revision tag) of the record on file, and of the imported record when it is one
   * (a bidder), as the conflict shows them: a resolve applies only over these.
   */
  guard: { existing: string | null; imported: string | null };
  /** A resolve under way: another waits until it ends (or its claim lapses). */
  claim: { by: string; until: string } | null;
  updatedAt: string;
}

const conflicts = new TenantRepository<ConflictRecord>(conflictsContainer.id);

/** The conflict id for a recorder's key: the same key always names the same conflict. */
export const conflictIdOf = (key: string) =>
  `cf-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;

export async function findConflict(
  scope: AccountScope,
  id: string,
): Promise<Stored<ConflictRecord> | undefined> {
  const found = await conflicts.find(scope, id);
  return found?.kind === 'conflict' ? found : undefined;
}

/** Creates a conflict; a raw 409 when its key was recorded before (check with `isConflict`). */
export function createConflict(
  scope: AccountScope,
  record: Omit<ConflictRecord, 'accountId'>,
): Promise<Stored<ConflictRecord>> {
  return conflicts.create(scope, record);
}

/** Replaces only over `etag`; a raw 412 otherwise (check with `isStale`). */
export function replaceConflict(
  scope: AccountScope,
  record: ConflictRecord,
  etag: string,
): Promise<Stored<ConflictRecord>> {
  return conflicts.replace(scope, record, etag);
}

export interface ConflictFilters {
  type?: ConflictType;
  status?: ConflictStatus;
  uploadId?: string;
}

function whereOf(filters: ConflictFilters) {
  const clauses = ["c.kind = 'conflict'"];
  const parameters: { name: string; value: string }[] = [];
  if (filters.type) {
    clauses.push('c.type = @type');
    parameters.push({ name: '@type', value: filters.type });
  }
  if (filters.status) {
    clauses.push('c.status = @status');
    parameters.push({ name: '@status', value: filters.status });
  }
  if (filters.uploadId) {
    clauses.push('c.uploadId = @uploadId');
    parameters.push({ name: '@uploadId', value: filters.uploadId });
  }
  return { where: clauses.join(' AND '), parameters };
}

const NEWEST_FIRST = 'c.createdAt DESC, c.id DESC';

/** One page of the account's conflicts, newest first. */
export function pageConflicts(
  scope: AccountScope,
  filters: ConflictFilters,
  pageSize: number,
  continuationToken?: string,
): Promise<Page<Stored<ConflictRecord>>> {
  return conflicts.page(scope, {
    ...whereOf(filters),
    orderBy: NEWEST_FIRST,
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  });
}

/** The ids of the first `limit` conflicts matching, newest first. */
export function conflictIds(
  scope: AccountScope,
  filters: ConflictFilters,
  limit: number,
): Promise<{ id: string }[]> {
  return conflicts.firstRows<{ id: string }>(
    scope,
    { ...whereOf(filters), select: 'c.id', orderBy: NEWEST_FIRST },
    limit,
  );
}

export const countConflicts = (scope: AccountScope, filters: ConflictFilters) =>
  conflicts.count(scope, whereOf(filters));

/**
 * The six counters of the account (the emulator has no GROUP BY, so one COUNT per figure; legal
 * is what the other two types leave). `resolved` counts status resolved only, as its filter does.
 */
export async function conflictCounts(scope: AccountScope): Promise<ConflictCounts> {
  const [total, pending, resolved, bidders, auctions] = await Promise.all([
    countConflicts(scope, {}),
    countConflicts(scope, { status: 'pending' }),
    countConflicts(scope, { status: 'resolved' }),
    countConflicts(scope, { type: 'bidder' }),
    countConflicts(scope, { type: 'auction' }),
  ]);
  return { total, pending, resolved, bidders, auctions, legal: total - bidders - auctions };
}
