import type { Readable } from 'node:stream';
import v8 from 'node:v8';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isNotFound } from '../platform/cosmos-errors.js';
import { MAX_BATCH_OPERATIONS, type TenantRepository } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import { csvRows, openUpload, readAll, xlsxRows, type Row } from '../uploads/files.js';
import { columnOf, jsonRows, rowProblem, toInput } from './bidder-rows.js';
import type { ImportResult, PairCandidate } from './bidders.schema.js';
import {
  biddersRepo,
  candidatesByIds,
  eachKnownBidderPage,
  notesRepo,
  type BidderRecord,
  type NoteRecord,
} from './bidders.repo.js';
import { buildBidder, firstNoteOf } from './bidders.service.js';
import { MAX_BLOCK, normaliseEmail, pairsInBlocks } from './duplicate-matcher.js';
import { recordPairs } from './duplicates.service.js';
import { forgetTotals } from './list-totals.js';

/** The spec's limit for an upload, enforced here rather than only stated. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const KNOWN_PAGE = 5000;
/**
 * Bidders per write. Under Cosmos's 100, so that a batch's request and reply (about 1.5 KB a
 * bidder each way) stay small enough to be young garbage: larger strings go straight to the
 * long-lived heap, which the host then grows to hundreds of megabytes before collecting them.
 */
const IMPORT_BATCH = Number(process.env.DBG_BATCH ?? 50);
const MAX_ERRORS = 1000;
/** Batches written at once, so the next rows are read while Cosmos writes the last ones. */
const WRITES_IN_FLIGHT = 2;

/** A file of the upload as it arrives, and the column mapping sent before it. */
export interface ImportFile {
  name: string;
  stream: Readable;
  mapping: Record<string, string>;
}

/** A new bidder with the note it arrives with, if any. */
export interface NewBidder {
  record: Omit<BidderRecord, 'accountId'>;
  notes: Omit<NoteRecord, 'accountId'>[];
}

/**
 * What an import keeps of every bidder, those there before and those it writes: enough to skip
 * exact duplicates (the same bidder ID or mailbox) without a query per row, and each bidder's
 * blocking keys to find likely duplicates afterwards. Rows themselves are not kept.
 */
class ImportIndex {
  /** Bidder IDs and aliases, lower case. */
  private readonly ids = new Set<string>();
  private readonly mailboxes = new Set<string>();
  /** Each blocking key's bidders (document ids): one, or several. */
  private readonly blocks = new Map<string, string | string[]>();
  /** The bidders this import wrote, in order. */
  readonly written = new Set<string>();
  readonly notes: string[] = [];

  has(bidderId: string | undefined, email: string | null | undefined) {
    const mailbox = normaliseEmail(email);
    return (
      (bidderId !== undefined && this.ids.has(bidderId.toLowerCase())) ||
      (mailbox !== null && this.mailboxes.has(mailbox))
    );
  }

  /** Takes a bidder ID, its aliases and email, so later rows with them are duplicates. */
  claim(bidderId: string, aliases: readonly string[], email: string | null) {
    this.ids.add(bidderId.toLowerCase());
    for (const alias of aliases) this.ids.add(alias.toLowerCase());
    const mailbox = normaliseEmail(email);
    if (mailbox) this.mailboxes.add(mailbox);
  }

  place(id: string, keys: readonly string[]) {
    for (const key of keys) {
      const members = this.blocks.get(key);
      if (members === undefined) this.blocks.set(key, id);
      else if (typeof members === 'string') this.blocks.set(key, [members, id]);
      else members.push(id);
    }
  }

  wrote(bidders: readonly NewBidder[]) {
    for (const { record, notes } of bidders) {
      this.written.add(record.id);
      this.place(record.id, record.matchKeys);
      for (const note of notes) this.notes.push(note.id);
    }
  }

  /** The blocks that can hold a pair with a bidder this import wrote. */
  blocksWithNewBidders(): string[][] {
    const found: string[][] = [];
    for (const members of this.blocks.values()) {
      if (typeof members === 'string' || members.length > MAX_BLOCK) continue;
      if (members.some((id) => this.written.has(id))) found.push(members);
    }
    return found;
  }
}

async function indexOfAccount(ctx: RequestContext) {
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
    await repo.batch(
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
    await biddersRepo.batch(
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
        .batch(
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
  await removeAll(biddersRepo, [...index.written]);
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
async function recordImportMatches(
  ctx: RequestContext,
  index: ImportIndex,
  autoMergeThreshold: number,
) {
  const blocks = index.blocksWithNewBidders();
  if (!blocks.length) return { pending: 0, autoMerged: 0 };
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
  ).filter((pair) => index.written.has(pair.a) || index.written.has(pair.b));
  return recordPairs(ctx, pairs, pool, autoMergeThreshold);
}

/**
 * Imports bidders as the upload arrives, row by row: each row validated on its own, exact
 * duplicates (same bidder ID or mailbox, in the account or earlier in the upload) skipped, the
 * rest scored and written in batches that are all-or-nothing, and likely duplicates recorded
 * for review. An upload refused part way (too large, cut off, a file that is not what it says)
 * takes back what it wrote.
 */
export async function importBidders(
  ctx: RequestContext,
  files: AsyncIterable<ImportFile>,
): Promise<ImportResult> {
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
  const dbg = setInterval(() => { const m = process.memoryUsage(); process.stderr.write(`DBG rss=${(m.rss/1048576).toFixed(0)} heap=${(m.heapUsed/1048576).toFixed(0)}/${(m.heapTotal/1048576).toFixed(0)} ext=${(m.external/1048576).toFixed(0)} ab=${(m.arrayBuffers/1048576).toFixed(0)} rows=${result.totalProcessed} ${v8.getHeapSpaceStatistics().map((x) => `${x.space_name.replace('_space','')}=${(x.space_used_size/1048576).toFixed(0)}`).join(' ')}\n`); }, 2000);
  const writes: Promise<void>[] = [];
  const write = async (bidders: NewBidder[]) => {
    const writing = writeNewBidders(ctx, bidders).then(({ written, clashes }) => {
      result.successful += written.length;
      result.duplicates += clashes;
      index.wrote(written);
    });
    // Awaited below; until then its failure must not count as unhandled.
    writing.catch(() => undefined);
    writes.push(writing);
    if (writes.length >= WRITES_IN_FLIGHT) await writes[writes.length - WRITES_IN_FLIGHT];
  };
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
        const record = buildBidder(input, ctx.actor, settings);
        index.claim(record.bidderId, [], record.email);
        const note = firstNoteOf(input, record, ctx.actor);
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
    await Promise.all(writes);
  } catch (error) {
    await Promise.allSettled(writes);
    // Should even that fail, the upload's own failure is still what the caller needs to hear.
    await undo(ctx, index).catch(() => undefined);
    throw error;
  }
  clearInterval(dbg);
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
  return result;
}
