import type { RequestContext } from '../platform/context.js';
import type { FileFormat, ImportField, ImportMode, UploadCategory } from './uploads.schema.js';

/**
 * What the upload worker asks of a category's importer. The worker reads each file as a stream,
 * maps its columns (the user's mapping, else the detected one) to the importer's fields and hands
 * over one row at a time; the importer checks it, writes it (in batches if it likes) through its
 * own feature's service, and tells the run what became of it through the sink.
 *
 * Undo: before an importer writes a record it records the intent in the ledger (what it is about
 * to create, or the record as it was before an overwrite), and waits for that to be stored. So an
 * undo after a crash finds every record the run may have touched. Once the write has landed (or
 * was refused) the importer says so, and the moment is kept with the entry: `undo` then removes
 * or puts back each record unless someone changed it after the run's own write, and passes by an
 * entry whose write never happened.
 */

/** The kinds of record an importer writes (a ledger entry's `entity`). */
export type LedgerEntity = 'bidder' | 'inventory-item' | 'auction' | 'lot' | 'legal-case';

export interface LedgerEntry {
  entity: LedgerEntity;
  /** The record's id (for a lot: `${auctionId}/${lotId}` or whatever its importer reads back). */
  id: string;
  /** null: the run creates it. Otherwise the stored record as it was before the run overwrote it. */
  before: Record<string, unknown> | null;
}

export interface Ledger {
  /** Stores the entries before the records are written; resolves once they are stored. */
  intend(entries: LedgerEntry[]): Promise<void>;
  /** The write of the oldest open intent for this record has landed (call it just after). */
  landed(entity: LedgerEntity, id: string): void;
  /** The oldest open intent for this record was not written (refused, or left as it was). */
  skipped(entity: LedgerEntity, id: string): void;
}

/** Where a row is: its file (index and name) and its 1-based data row. */
export interface RowRef {
  file: number;
  fileName: string;
  row: number;
}

export type RowProblem = { field: string | null; message: string };

/** What became of a row, reported when its write has landed (so possibly after `row` returned). */
export interface ImportSink {
  created(entity: LedgerEntity, id: string): void;
  updated(entity: LedgerEntity, id: string): void;
  /** Its key is on file and the mode does not update: left as it is ("Already on file"). */
  duplicate(): void;
  /** Kept for a person to decide (the importer called `recordConflict`). */
  conflict(): void;
  error(ref: RowRef, problem: RowProblem): void;
}

/** What `update` would change for one row. */
export interface Overwrite {
  entity: LedgerEntity;
  recordId: string;
  title: string;
  fields: { field: string; existing: unknown; imported: unknown }[];
}

export interface ImporterContext {
  ctx: RequestContext;
  upload: { id: string; name: string; auctionId: string | null };
  mode: ImportMode;
  sink: ImportSink;
  ledger: Ledger;
  /**
   * True just after resuming a crashed run, for a record created since this run began: the row
   * may be finding the record it wrote before the crash (one an earlier run created is not).
   */
  wroteBeforeCrash(record: { createdAt: string }): boolean;
  /** True just after resuming a crashed run (a row's record may be its own, written before). */
  replaying(): boolean;
  /** What this run recorded in its ledger before it crashed and was resumed (nothing if not). */
  earlierIntents(): AsyncIterable<LedgerEntry>;
}

export interface RowImporter {
  /**
   * Processes a row whose values are keyed by field (after mapping). `id` is a document id
   * derived from (upload, file, row): a row creating a record uses it, so a resumed run that
   * writes the row again is refused as already there rather than adding a second record.
   */
  row(ref: RowRef, id: string, values: Record<string, unknown>): Promise<void>;
  /** Lands every write started and reports each; the tally is then right for a checkpoint. */
  flush(): Promise<void>;
  /** Waits for the writes under way, starting none (what a crash leaves is what they wrote). */
  settle(): Promise<void>;
  /** After the last file: what the run's audit entry adds (null for nothing). */
  finish(): Promise<Record<string, unknown> | null>;
}

/** A category's importer: its fields, the formats it reads, and how it starts and undoes. */
export interface ImporterDefinition {
  category: UploadCategory;
  /** The fields in the order the mapping screen lists them; `aliases` help detect columns. */
  fields: readonly (ImportField & { aliases: readonly string[] })[];
  /** For a JSON object file: the key whose array holds the rows ("bidders", "items"...). */
  jsonKey: string | null;
  /** Why a file of this format cannot hold its rows, or null when it can. */
  refuses(format: FileFormat | null): string | null;
  /** The row's problem (values keyed by field), or null: the same answer on every run. */
  check(values: Record<string, unknown>): RowProblem | null;
  /** The row's stable key: rows with the same key are the same record, in any upload. */
  keyOf(values: Record<string, unknown>): string | null;
  /**
   * Starts a run. An AppError below 500 thrown here refuses the whole upload before any row is
   * read (inventory without its add-on, the upload's auction closed or gone): each file gets its
   * message as a file-level error and the run ends `error`; anything else is a platform failure.
   */
  start(context: ImporterContext): Promise<RowImporter>;
  /** What `update` would overwrite for this row, or null when it would create or change nothing. */
  overwrite(
    ctx: RequestContext,
    values: Record<string, unknown>,
    auctionId: string | null,
  ): Promise<Overwrite | null>;
  /**
   * Takes back one ledger entry: removes what it created, puts back what it overwrote, but keeps
   * a record changed after `since` (by anyone; the moment the entry's write landed).
   */
  undo(
    ctx: RequestContext,
    entry: LedgerEntry,
    since: string,
  ): Promise<'removed' | 'restored' | 'kept' | 'gone'>;
}
