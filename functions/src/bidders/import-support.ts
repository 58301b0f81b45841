import type { RequestContext } from '../platform/context.js';
import { isConflict } from '../platform/cosmos-errors.js';
import { biddersRepo, type BidderRecord } from './bidders.repo.js';
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
export async function importKnownBidders(ctx: RequestContext) {
  const ids = new Set<string>();
  const emails = new Set<string>();
  const existing: PairCandidate[] = [];
  let token: string | undefined;
  do {
    const page = await biddersRepo.page(ctx.scope, {
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
export async function writeImportBatch(ctx: RequestContext, batch: BidderRecord[]) {
  if (!batch.length) return { written: [] as BidderRecord[], clashes: 0 };
  try {
    await biddersRepo.batch(
      ctx.scope,
      batch.map((document) => ({ op: 'create' as const, document })),
    );
    return { written: batch, clashes: 0 };
  } catch (error) {
    if (!isConflict(error)) throw error;
  } finally {
    forgetTotals(ctx.scope.accountId);
  }
  const written: BidderRecord[] = [];
  let clashes = 0;
  for (const record of batch) {
    try {
      await biddersRepo.create(ctx.scope, record);
      written.push(record);
    } catch (error) {
      if (!isConflict(error)) throw error;
      clashes += 1;
    }
  }
  forgetTotals(ctx.scope.accountId);
  return { written, clashes };
}

/**
 * Finds likely duplicates of the bidders an import created, among the whole account as read
 * before the import and the import itself: the blocking-key matcher in memory, keeping only pairs
 * that involve a new bidder.
 */
export async function recordImportMatches(
  ctx: RequestContext,
  existing: PairCandidate[],
  created: PairCandidate[],
  autoMergeThreshold: number,
) {
  if (!created.length) return { pending: 0, autoMerged: 0 };
  const fresh = new Set(created.map((record) => record.id));
  const candidates = [...existing, ...created];
  const pairs = findDuplicates(candidates).filter((pair) => fresh.has(pair.a) || fresh.has(pair.b));
  return recordPairs(
    ctx,
    pairs,
    new Map(candidates.map((record) => [record.id, record])),
    autoMergeThreshold,
  );
}
