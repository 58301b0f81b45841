import type { Readable } from 'node:stream';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isNotFound } from '../platform/cosmos-errors.js';
import { MAX_BATCH_OPERATIONS, type TenantRepository } from '../platform/repo.js';
import { grown, StringTable } from '../platform/string-table.js';
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

/** A new bidder with the note it arrives with, if any. */
export interface NewBidder {
  record: Omit<BidderRecord, 'accountId'>;
  notes: Omit<NoteRecord, 'accountId'>[];
}

/**
 * What an import keeps of every bidder, those there before and those it writes: enough to skip
 * exact duplicates (the same bidder ID or mailbox) without a query per row, and each bidder's
 * blocking keys to find likely duplicates afterwards. Rows themselves are not kept, and what is
 * kept is in string tables and number arrays, a few megabytes for a hundred thousand bidders.
 */
export class ImportIndex {
  /** Bidder IDs and aliases, lower case. */
  private readonly ids = new StringTable();
  private readonly mailboxes = new StringTable();
  /** Document ids, numbered: the account's bidders first, then those this import wrote. */
  private readonly documents = new StringTable();
  /** The number of the first bidder this import wrote, once it has written one. */
  private firstWritten: number | undefined;
  private readonly keys = new StringTable();
  /** Per blocking key: its first member (a node number plus one; 0 for none) and how many. */
  private heads = new Int32Array(1024);
  private sizes = new Int32Array(1024);
  /** Members of the blocks as linked nodes: a bidder's number, and the block's next node. */
  private members = new Int32Array(1024);
  private next = new Int32Array(1024);
  private nodes = 0;
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

  /** A bidder of the account and its blocking keys. */
  place(id: string, keys: readonly string[]) {
    const bidder = this.documents.add(id);
    for (const key of keys) {
      const block = this.keys.add(key);
      this.heads = grown(this.heads, block + 1);
      this.sizes = grown(this.sizes, block + 1);
      this.members = grown(this.members, this.nodes + 1);
      this.next = grown(this.next, this.nodes + 1);
      this.members[this.nodes] = bidder;
      this.next[this.nodes] = this.heads[block] as number;
      this.nodes += 1;
      this.heads[block] = this.nodes;
      this.sizes[block] = (this.sizes[block] as number) + 1;
    }
  }

  wrote(bidders: readonly NewBidder[]) {
    this.firstWritten ??= this.documents.size;
    for (const { record, notes } of bidders) {
      this.place(record.id, record.matchKeys);
      for (const note of notes) this.notes.push(note.id);
    }
  }

  private isWritten(bidder: number) {
    return this.firstWritten !== undefined && bidder >= this.firstWritten;
  }

  /** Whether this import wrote the bidder with this document id. */
  wroteBidder(id: string) {
    return this.isWritten(this.documents.find(id));
  }

  /** The document ids of the bidders this import wrote, in order. */
  writtenIds(): string[] {
    const ids: string[] = [];
    for (
      let bidder = this.firstWritten ?? this.documents.size;
      bidder < this.documents.size;
      bidder += 1
    ) {
      ids.push(this.documents.at(bidder));
    }
    return ids;
  }

  /** The blocks (their bidders' document ids) that can hold a pair with a bidder this import wrote. */
  blocksWithNewBidders(): string[][] {
    const found: string[][] = [];
    for (let block = 0; block < this.keys.size; block += 1) {
      const size = this.sizes[block] as number;
      if (size < 2 || size > MAX_BLOCK) continue;
      const members: number[] = [];
      for (let node = this.heads[block] as number; node; node = this.next[node - 1] as number) {
        members.push(this.members[node - 1] as number);
      }
      if (members.some((bidder) => this.isWritten(bidder))) {
        found.push(members.reverse().map((bidder) => this.documents.at(bidder)));
      }
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
  ).filter((pair) => index.wroteBidder(pair.a) || index.wroteBidder(pair.b));
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
  /** The writes under way (never more than WRITES_IN_FLIGHT), and the first that failed. */
  const writing = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const write = async (bidders: NewBidder[]) => {
    const done = writeNewBidders(ctx, bidders).then(
      ({ written, clashes }) => {
        result.successful += written.length;
        result.duplicates += clashes;
        index.wrote(written);
      },
      (error: unknown) => {
        failure ??= { error };
      },
    );
    writing.add(done);
    void done.then(() => writing.delete(done));
    if (writing.size >= WRITES_IN_FLIGHT) await Promise.race(writing);
    if (failure) throw failure.error;
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
    await Promise.all(writing);
    if (failure) throw failure.error;
  } catch (error) {
    await Promise.all(writing);
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
  return result;
}
