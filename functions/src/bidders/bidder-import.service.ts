import type { Readable } from 'node:stream';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isNotFound } from '../platform/cosmos-errors.js';
import { MAX_BATCH_OPERATIONS, type TenantRepository } from '../platform/repo.js';
import { inFlight } from '../platform/in-flight.js';
import { validationError } from '../platform/validation.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import { csvRows, openUpload, readAll, xlsxRows, type Row } from '../uploads/files.js';
import { columnOf, jsonRows, rowProblem, toInput } from './bidder-rows.js';
import type {
  BidderInput,
  ImportResult,
  PairCandidate,
  PlatformIdentity,
} from './bidders.schema.js';
import {
  biddersRepo,
  candidatesByIds,
  eachKnownBidderPage,
  notesRepo,
  type BidderRecord,
} from './bidders.repo.js';
import { buildBidder, firstNoteOf } from './bidders.service.js';
import { pairsInBlocks } from './duplicate-matcher.js';
import { ImportIndex, type NewBidder } from './import-index.js';

export type { NewBidder };
import {
  noMatches,
  recordMatchesFor,
  recordPairs,
  type MergeWatcher,
} from './duplicates.service.js';
import { forgetTotals } from './list-totals.js';

/** The spec's limit for an upload, enforced here rather than only stated. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const KNOWN_PAGE = 5000;
/**
 * Bidders per write. Under Cosmos's 100, so that a batch's request (about 1.5 KB a bidder) stays
 * small enough to be young garbage: a string over 128 KB goes straight to the long-lived heap,
 * which is collected far less often (batches of 100 peaked higher in `npm run bench`).
 */
const IMPORT_BATCH = 50;
const MAX_ERRORS = 1000;
/** Batches written at once, so the next rows are read while Cosmos writes the last ones. */
const WRITES_IN_FLIGHT = 2;

/** A file of the upload as it arrives, and the column mapping sent before it. */
export interface ImportFile {
  name: string;
  stream: Readable;
  mapping: Record<string, string>;
}

/** What an import knows of the account's bidders before it writes any (the upload worker's too). */
export async function indexOfAccount(ctx: RequestContext) {
  const index = new ImportIndex();
  for await (const page of eachKnownBidderPage(ctx.scope, KNOWN_PAGE)) {
    for (const bidder of page) {
      index.claim(bidder.bidderId, bidder.aliases ?? [], bidder.email);
      index.place(bidder.id, bidder.matchKeys ?? []);
    }
  }
  return index;
}

/** Writes documents a hundred at a time, all or nothing each. */
async function createAll<T extends { id: string; accountId: string }>(
  ctx: RequestContext,
  repo: TenantRepository<T>,
  documents: Omit<T, 'accountId'>[],
) {
  for (let start = 0; start < documents.length; start += MAX_BATCH_OPERATIONS) {
    await repo.writeBatch(
      ctx.scope,
      documents
        .slice(start, start + MAX_BATCH_OPERATIONS)
        .map((document) => ({ op: 'create' as const, document })),
    );
  }
}

/**
 * Writes up to a hundred new bidders all-or-nothing, then their notes. When the batch is refused
 * (a bidder ID taken meanwhile), its bidders are written one by one so one clash does not cost
 * the others. Answers the bidders written and how many clashed.
 */
export async function writeNewBidders(ctx: RequestContext, bidders: NewBidder[]) {
  let written = bidders;
  let clashes = 0;
  try {
    await biddersRepo.writeBatch(
      ctx.scope,
      bidders.map(({ record }) => ({ op: 'create' as const, document: record })),
    );
  } catch (error) {
    if (!isConflict(error)) throw error;
    written = [];
    for (const bidder of bidders) {
      try {
        await biddersRepo.create(ctx.scope, bidder.record);
        written.push(bidder);
      } catch (failure) {
        if (!isConflict(failure)) throw failure;
        clashes += 1;
      }
    }
  } finally {
    forgetTotals(ctx.scope.accountId);
  }
  await createAll(
    ctx,
    notesRepo,
    written.flatMap(({ notes }) => notes),
  );
  return { written, clashes };
}

/** Removes what a failed import wrote, so a refused upload leaves the account as it was. */
async function undo(ctx: RequestContext, index: ImportIndex) {
  const removeAll = async <T extends { id: string; accountId: string }>(
    repo: TenantRepository<T>,
    ids: string[],
  ) => {
    for (let start = 0; start < ids.length; start += MAX_BATCH_OPERATIONS) {
      const chunk = ids.slice(start, start + MAX_BATCH_OPERATIONS);
      await repo
        .writeBatch(
          ctx.scope,
          chunk.map((id) => ({ op: 'delete' as const, id })),
        )
        .catch(async (error: unknown) => {
          // One was merged or removed meanwhile: the rest one by one.
          if (!isNotFound(error)) throw error;
          for (const id of chunk) {
            await repo.delete(ctx.scope, id).catch((failure: unknown) => {
              if (!isNotFound(failure)) throw failure;
            });
          }
        });
    }
  };
  await removeAll(notesRepo, index.notes);
  await removeAll(biddersRepo, index.writtenIds());
  forgetTotals(ctx.scope.accountId);
}

async function* rowsOf(file: ImportFile): AsyncGenerator<Row> {
  const { kind, stream } = await openUpload(file.name, file.stream);
  if (kind === 'csv') yield* csvRows(stream, columnOf(file.mapping));
  else if (kind === 'xlsx') yield* xlsxRows(stream, columnOf(file.mapping));
  else yield* jsonRows(await readAll(stream), file.mapping);
}

/**
 * Finds likely duplicates of the bidders the import wrote, among the whole account and the
 * import itself: only the bidders sharing a blocking key with a new one are read back.
 */
export async function recordImportMatches(
  ctx: RequestContext,
  index: ImportIndex,
  autoMergeThreshold: number,
  watcher?: MergeWatcher,
) {
  const blocks = index.blocksWithNewBidders();
  if (!blocks.length) return noMatches();
  const pool = new Map<string, PairCandidate>(
    (await candidatesByIds(ctx.scope, [...new Set(blocks.flat())])).map((record) => [
      record.id,
      record,
    ]),
  );
  const pairs = pairsInBlocks(
    blocks.map((members) =>
      members.flatMap((id) => {
        const record = pool.get(id);
        return record ? [record] : [];
      }),
    ),
  ).filter((pair) => index.wroteBidder(pair.a) || index.wroteBidder(pair.b));
  return recordPairs(ctx, pairs, pool, autoMergeThreshold, watcher);
}

/**
 * Imports bidders as the upload arrives, row by row: each row validated on its own, exact
 * duplicates (same bidder ID or mailbox, in the account or earlier in the upload) skipped, the
 * rest scored and written in batches that are all-or-nothing, and likely duplicates recorded
 * for review. An upload refused part way (too large, cut off, a file that is not what it says)
 * takes back what it wrote. Answers the result and the document ids of the bidders it wrote.
 */
export async function importBidders(
  ctx: RequestContext,
  files: AsyncIterable<ImportFile>,
): Promise<{ result: ImportResult; writtenIds: string[] }> {
  const settings = await scoringSettings(ctx);
  const index = await indexOfAccount(ctx);
  const result: ImportResult = {
    totalProcessed: 0,
    successful: 0,
    failed: 0,
    duplicates: 0,
    errors: [],
  };
  const names: string[] = [];
  const writes = inFlight(WRITES_IN_FLIGHT);
  const write = (bidders: NewBidder[]) =>
    writes.add(
      writeNewBidders(ctx, bidders).then(({ written, clashes }) => {
        result.successful += written.length;
        result.duplicates += clashes;
        index.wrote(written);
      }),
    );
  try {
    let pending: NewBidder[] = [];
    for await (const file of files) {
      names.push(file.name);
      for await (const { row, values } of rowsOf(file)) {
        result.totalProcessed += 1;
        const parsed = toInput(values);
        if (!parsed.success) {
          result.failed += 1;
          if (result.errors.length < MAX_ERRORS) {
            result.errors.push({ row, ...rowProblem(parsed.error) });
          }
          continue;
        }
        const input = parsed.data;
        if (index.has(input.bidderId, input.email)) {
          result.duplicates += 1;
          continue;
        }
        const record = buildBidder(ctx, input, settings);
        index.claim(record.bidderId, [], record.email);
        const note = firstNoteOf(ctx, input, record);
        pending.push({ record, notes: note ? [note] : [] });
        if (pending.length >= IMPORT_BATCH) {
          await write(pending);
          pending = [];
        }
      }
    }
    if (!names.length) {
      throw validationError([
        { location: 'body', field: 'files', message: 'Choose at least one file' },
      ]);
    }
    if (pending.length) await write(pending);
    await writes.finish();
  } catch (error) {
    await writes.settle();
    // Should even that fail, the upload's own failure is still what the caller needs to hear.
    await undo(ctx, index).catch(() => undefined);
    throw error;
  }
  const matches = await recordImportMatches(ctx, index, settings.autoMergeThreshold);
  await writeAudit(ctx, {
    action: 'bidder.import',
    entity: { type: 'import', id: ctx.correlationId },
    after: {
      files: names,
      ...result,
      errors: result.errors.length,
      possibleDuplicates: matches,
    },
  });
  return { result, writtenIds: index.writtenIds() };
}

/** A platform bidder new to Lotwise: its input, its identity there, and the id chosen for it. */
export interface PlatformNewcomer {
  id: string;
  input: BidderInput;
  identity: PlatformIdentity;
}

/** What became of a newcomer: the bidder it is after matching, and why when merged into another. */
export interface NewcomerOutcome {
  bidderId: string;
  mergedInto: { name: string; bidderId: string; reasons: string[] } | null;
}

/**
 * Adds platform bidders new to Lotwise as an import adds rows: scored, written with their
 * platform identity in all-or-nothing batches, then matched against the account and each other
 * in one pass (merged on arrival at the auto-merge threshold, set for review below it). A
 * newcomer whose id is already taken (a sync cut short and repeated) or whose batch clashed is
 * left out, for the caller to bring in one by one. Answers the outcome of each one written.
 */
export async function importPlatformBidders(
  ctx: RequestContext,
  newcomers: PlatformNewcomer[],
): Promise<{ outcomes: Map<string, NewcomerOutcome>; possibleDuplicates: number }> {
  const outcomes = new Map<string, NewcomerOutcome>();
  if (!newcomers.length) return { outcomes, possibleDuplicates: 0 };
  const settings = await scoringSettings(ctx);
  const now = new Date();
  const written: BidderRecord[] = [];
  for (let start = 0; start < newcomers.length; start += IMPORT_BATCH) {
    const batch = newcomers.slice(start, start + IMPORT_BATCH).map(({ id, input, identity }) => ({
      record: { ...buildBidder(ctx, input, settings, now, id), platformIdentities: [identity] },
      notes: [],
    }));
    for (const { record } of (await writeNewBidders(ctx, batch)).written) {
      written.push(record as BidderRecord);
    }
  }
  const matches = await recordMatchesFor(ctx, written, settings.autoMergeThreshold);
  const survivorOf = new Map(matches.merges.map((merge) => [merge.mergedId, merge]));
  for (const record of written) {
    let merge = survivorOf.get(record.id);
    const reasons = merge?.reasons ?? [];
    // A newcomer merged into another newcomer merged in turn ends with the last survivor.
    while (merge && survivorOf.has(merge.survivorId)) merge = survivorOf.get(merge.survivorId);
    if (!merge) {
      outcomes.set(record.id, { bidderId: record.id, mergedInto: null });
      continue;
    }
    const survivor = await biddersRepo.find(ctx.scope, merge.survivorId);
    outcomes.set(record.id, {
      bidderId: merge.survivorId,
      mergedInto: survivor
        ? {
            name: `${survivor.firstName} ${survivor.lastName}`,
            bidderId: survivor.bidderId,
            reasons,
          }
        : null,
    });
  }
  await writeAudit(ctx, {
    action: 'bidder.import',
    entity: { type: 'import', id: ctx.correlationId },
    after: {
      source: newcomers[0]?.identity.platform,
      successful: written.length,
      possibleDuplicates: matches,
    },
  });
  return { outcomes, possibleDuplicates: matches.pending };
}
