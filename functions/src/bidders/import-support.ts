import type { JSONObject, OperationInput } from '@azure/cosmos';
import type { TenantScope } from '../platform/repo.js';
import { biddersContainerClient, biddersRepo, type BidderRecord } from './bidders.repo.js';
import { findDuplicates, normaliseEmail } from './duplicate-matcher.js';
import { recordPairs, type PairCandidate } from './duplicates.service.js';

export type { PairCandidate };
import { forgetTotals } from './list-totals.js';

const KNOWN_PAGE = 5000;

/** What an import keeps of each bidder: enough to match duplicates, not the whole record. */
export const candidateOf = (record: BidderRecord): PairCandidate => ({
  id: record.id,
  firstName: record.firstName,
  lastName: record.lastName,
  email: record.email,
  phone: record.phone,
  address: record.address,
  status: record.status,
  createdAt: record.createdAt,
});

/**
 * The account's bidders as an import needs them, read once: their IDs and e-mail addresses, so
 * exact duplicates (of the account, or of an earlier row) are skipped without a query per row,
 * and their match fields, for finding likely duplicates afterwards.
 */
export async function importKnownBidders(scope: TenantScope) {
  const ids = new Set<string>();
  const emails = new Set<string>();
  const existing: PairCandidate[] = [];
  let token: string | undefined;
  do {
    const page = await biddersRepo.page(scope, {
      select:
        'c.id, c.bidderId, c.aliases, c.firstName, c.lastName, c.email, c.phone, c.address, c.status, c.createdAt',
      pageSize: KNOWN_PAGE,
      ...(token ? { continuationToken: token } : {}),
    });
    for (const item of page.items as unknown as (PairCandidate &
      Pick<BidderRecord, 'bidderId' | 'aliases'>)[]) {
      ids.add(item.bidderId.toLowerCase());
      for (const alias of item.aliases ?? []) ids.add(alias.toLowerCase());
      const email = normaliseEmail(item.email);
      if (email) emails.add(email);
      const { bidderId: _bidderId, aliases: _aliases, ...candidate } = item;
      existing.push(candidate);
    }
    token = page.continuationToken;
  } while (token);
  return {
    existing,
    has(bidderId: string | undefined, email: string | null | undefined) {
      const normalised = normaliseEmail(email);
      return (
        (bidderId !== undefined && ids.has(bidderId.toLowerCase())) ||
        (normalised !== null && emails.has(normalised))
      );
    },
    add(bidderId: string, email: string | null) {
      ids.add(bidderId.toLowerCase());
      const normalised = normaliseEmail(email);
      if (normalised) emails.add(normalised);
    },
  };
}

/**
 * Writes a batch of imported bidders all-or-nothing. When the batch is refused (a bidder ID taken
 * meanwhile), its rows are written one by one so one clash does not cost the others. Answers the
 * records written and how many clashed.
 */
export async function writeImportBatch(scope: TenantScope, batch: BidderRecord[]) {
  if (!batch.length) return { written: [] as BidderRecord[], clashes: 0 };
  const client = biddersContainerClient();
  const response = await client.items.batch(
    batch.map((record): OperationInput => ({
      operationType: 'Create',
      resourceBody: { ...record, accountId: scope.accountId } as unknown as JSONObject,
    })),
    scope.accountId,
  );
  forgetTotals(scope.accountId);
  if (!response.result?.some((entry) => entry.statusCode >= 400))
    return { written: batch, clashes: 0 };
  const written: BidderRecord[] = [];
  let clashes = 0;
  for (const record of batch) {
    try {
      await client.items.create({ ...record, accountId: scope.accountId });
      written.push(record);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 409) throw error;
      clashes += 1;
    }
  }
  return { written, clashes };
}

/**
 * Finds likely duplicates of the bidders an import created, among the whole account as read
 * before the import and the import itself: the blocking-key matcher in memory, keeping only pairs
 * that involve a new bidder.
 */
export async function recordImportMatches(
  scope: TenantScope,
  existing: PairCandidate[],
  created: PairCandidate[],
  autoMergeThreshold: number,
) {
  if (!created.length) return { pending: 0, autoMerged: 0 };
  const fresh = new Set(created.map((record) => record.id));
  const candidates = [...existing, ...created];
  const pairs = findDuplicates(candidates).filter((pair) => fresh.has(pair.a) || fresh.has(pair.b));
  return recordPairs(
    scope,
    pairs,
    new Map(candidates.map((record) => [record.id, record])),
    autoMergeThreshold,
  );
}
