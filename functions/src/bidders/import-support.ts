import type { JSONObject, OperationInput } from '@azure/cosmos';
import type { TenantScope } from '../platform/repo.js';
import { biddersContainerClient, biddersRepo, type BidderRecord } from './bidders.repo.js';
import { findDuplicates, normaliseEmail } from './duplicate-matcher.js';
import { pairCandidates, recordPairs } from './duplicates.service.js';
import { forgetTotals } from './list-totals.js';

const KNOWN_PAGE = 2000;

/**
 * The bidder IDs and e-mail addresses already in the account, so an import can skip exact
 * duplicates (of the account, or of an earlier row) without a query per row.
 */
export async function importKnownBidders(scope: TenantScope) {
  const ids = new Set<string>();
  const emails = new Set<string>();
  let token: string | undefined;
  do {
    const page = await biddersRepo.page(scope, {
      select: 'c.bidderId, c.aliases, c.email',
      pageSize: KNOWN_PAGE,
      ...(token ? { continuationToken: token } : {}),
    });
    for (const item of page.items as unknown as Pick<
      BidderRecord,
      'bidderId' | 'aliases' | 'email'
    >[]) {
      ids.add(item.bidderId.toLowerCase());
      for (const alias of item.aliases ?? []) ids.add(alias.toLowerCase());
      const email = normaliseEmail(item.email);
      if (email) emails.add(email);
    }
    token = page.continuationToken;
  } while (token);
  return {
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
 * Finds likely duplicates of the bidders an import created, among the whole account: one read of
 * everyone's match fields, then the blocking-key matcher in memory, keeping only pairs that
 * involve a new bidder.
 */
export async function recordImportMatches(
  scope: TenantScope,
  created: BidderRecord[],
  autoMergeThreshold: number,
) {
  if (!created.length) return { pending: 0, autoMerged: 0 };
  const fresh = new Set(created.map((record) => record.id));
  const candidates = await pairCandidates(scope);
  const pairs = findDuplicates(candidates).filter((pair) => fresh.has(pair.a) || fresh.has(pair.b));
  return recordPairs(
    scope,
    pairs,
    new Map(candidates.map((record) => [record.id, record])),
    autoMergeThreshold,
  );
}
