import type { Readable } from 'node:stream';
import {
  indexOfAccount,
  recordImportMatches,
  writeNewBidders,
  type NewBidder,
} from '../bidders/bidder-import.service.js';
import { columnOf, jsonValues, rowProblem, toInput } from '../bidders/bidder-rows.js';
import type { BidderInput } from '../bidders/bidders.schema.js';
import { buildBidder, firstNoteOf, getBidder } from '../bidders/bidders.service.js';
import type { ImportIndex } from '../bidders/import-index.js';
import { writeAudit } from '../platform/audit.js';
import { deleteBlob, openBlobStream, putBlobStream } from '../platform/blob.js';
import { systemContext, type RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import { AppError } from '../platform/errors.js';
import type { QueueFunction } from '../platform/functions.js';
import { inFlight } from '../platform/in-flight.js';
import type { Stored } from '../platform/repo.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import {
  byteCounter,
  CHECKPOINT_ROWS,
  dataRows,
  doneBefore,
  errorReport,
  fileProblemOf,
  NotAnArray,
  Pacer,
  progressOf,
  rowDocumentId,
  type Checkpoint,
  type RowReading,
} from './upload-processors.js';
import {
  errorReportBlobName,
  findUpload,
  replaceUpload,
  uploadBlobName,
  UPLOADS_BLOB_CONTAINER,
  type UploadRecord,
} from './uploads.repo.js';
import {
  MAX_LISTED_ERRORS,
  PROCESS_QUEUE,
  downloadPath,
  errorReportPath,
  processMessageSchema,
  type UploadError,
  type UploadFile,
  type UploadResults,
} from './uploads.schema.js';

/**
 * The queue-triggered worker that processes an upload whose files are all in Blob Storage.
 *
 * Each file is read as a stream, a row at a time, never whole. Bidders' rows go through the
 * bidder import (checked field by field, exact duplicates skipped, scored, written in batches);
 * the other categories are stored as they are and counted: inventory, auctions and legal too
 * for now, with a note saying their importers come later.
 *
 * Counting: recordsProcessed is the rows read of a CSV, Excel or JSON-array file (a JSON file
 * that is not an array, and any other file: PDF, image, Word, ZIP, dump, text, is 1). For
 * bidders, recordsImported is the bidders written; for the stored categories it is the records
 * of the files read to their end (a file that turns out not to be what it says is still stored,
 * but its records are not counted as imported, and an error names it).
 *
 * A bad row never stops the others: it is an error naming its file, row and field; the record
 * keeps the first MAX_LISTED_ERRORS and the count, and the whole list is a CSV report beside the
 * files. The upload ends `completed`, or `error` only when nothing at all could be read.
 *
 * Resuming: the record is written only at checkpoints (every ~1.5 s and at the end of each
 * file; for bidders also every CHECKPOINT_ROWS rows), after every write for the rows before it
 * has landed, so its counts always match its checkpoint. A message delivered again for an upload
 * still `processing` resumes there. Each row's bidder has a document id derived from (upload,
 * file, row), so a row written after the last checkpoint and written again is refused as
 * already there and counted as imported, not twice. A second worker on the same upload (a
 * message visible again while the first still runs) loses its next checkpoint write to the
 * first and stops.
 */

/** Test hooks. */
export interface ProcessOptions {
  /** Fails (as a crash would, leaving what was written) after this many rows of this run. */
  failAfterRows?: number;
}

const BIDDER_BATCH = 50;
const WRITES_IN_FLIGHT = 2;
const LATER_IMPORTERS: Partial<Record<UploadRecord['category'], string>> = {
  inventory: 'inventory items',
  auctions: 'auctions',
  legal: 'legal cases',
};

/** The upload was deleted, or another worker has it: this run ends without a word. */
class Stopped extends Error {
  constructor(readonly gone: boolean) {
    super(gone ? 'upload deleted' : 'upload taken over');
  }
}

/** How one file is read: its rows, as one record, or refused with a reason. */
type Reading =
  | { kind: 'rows'; format: 'csv' | 'xlsx' | 'json'; reading: RowReading }
  | { kind: 'whole' }
  | { kind: 'refused'; message: string };

interface Tally {
  processed: number;
  imported: number;
  duplicates: number;
  errors: UploadError[];
  errorCount: number;
  notes: { file: string | null; message: string }[];
}

/** What a category does with rows. */
interface Processor {
  reading(file: UploadFile): Reading;
  /** The row's problem, or null: the same answer on every run (the error report reads it again). */
  check(values: Record<string, unknown>): { field: string; message: string } | null;
  /** A row to process (not done before the checkpoint). */
  row(file: number, row: number, values: Record<string, unknown>): Promise<void>;
  /** A row done before the checkpoint, read past on resuming. */
  skipped(): void;
  /** The file was read to its end (`whole`), or stopped at a problem. */
  endFile(whole: boolean): void;
  /** Lands every write started; the tally is then right for a checkpoint. */
  flush(): Promise<void>;
  /** Waits for the writes under way, starting none (what a crash leaves is what they wrote). */
  settle(): Promise<void>;
  /** After the last file: what the audit entry adds. */
  finish(): Promise<unknown>;
}

const isTabular = (format: UploadFile['format']): format is 'csv' | 'xlsx' | 'json' =>
  format === 'csv' || format === 'xlsx' || format === 'json';

/** Files of the stored categories: counted, kept as they are. */
class StoredFiles implements Processor {
  private fileRows = 0;

  constructor(private readonly tally: Tally) {}

  reading(file: UploadFile): Reading {
    if (!isTabular(file.format)) return { kind: 'whole' };
    return {
      kind: 'rows',
      format: file.format,
      reading: { columnOf: (header) => header, jsonValues: () => ({}), jsonKey: null },
    };
  }

  check() {
    return null;
  }

  row() {
    this.fileRows += 1;
    return Promise.resolve();
  }

  skipped() {
    this.fileRows += 1;
  }

  endFile(whole: boolean) {
    if (whole) this.tally.imported += this.fileRows;
    this.fileRows = 0;
  }

  flush() {
    return Promise.resolve();
  }

  settle() {
    return Promise.resolve();
  }

  finish() {
    return Promise.resolve(null);
  }
}

/** Rows of a bidders upload, through the bidder import. */
/** Tries at a fresh bidder ID for a row that brought none, when the one drawn was taken. */
const BIDDER_ID_DRAWS = 3;

class BidderRows implements Processor {
  private pending: NewBidder[] = [];
  /** The input of each pending row that brought no bidder ID, by its document id. */
  private drawn = new Map<string, BidderInput>();
  private readonly writes = inFlight(WRITES_IN_FLIGHT);

  private constructor(
    private readonly run: UploadRun,
    private readonly settings: Awaited<ReturnType<typeof scoringSettings>>,
    private readonly index: ImportIndex,
  ) {}

  static async start(run: UploadRun) {
    const [settings, index] = await Promise.all([
      scoringSettings(run.ctx),
      indexOfAccount(run.ctx),
    ]);
    return new BidderRows(run, settings, index);
  }

  reading(file: UploadFile): Reading {
    if (file.format === 'xls') {
      return {
        kind: 'refused',
        message:
          'is a legacy Excel (.xls) file, which cannot be read safely. Save it as .xlsx or CSV and upload that.',
      };
    }
    if (!isTabular(file.format)) {
      return { kind: 'refused', message: 'only CSV, Excel (.xlsx) and JSON files hold bidders' };
    }
    return {
      kind: 'rows',
      format: file.format,
      reading: {
        columnOf: columnOf({}),
        jsonValues: (item) => jsonValues(item, {}),
        jsonKey: 'bidders',
      },
    };
  }

  check(values: Record<string, unknown>) {
    const parsed = toInput(values);
    return parsed.success ? null : rowProblem(parsed.error);
  }

  /** The bidder an earlier run wrote for this row, if it did. */
  private async earlier(id: string) {
    try {
      return await getBidder(this.run.ctx, id);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return undefined;
      throw error;
    }
  }

  async row(file: number, row: number, values: Record<string, unknown>) {
    const { ctx, tally } = this.run;
    const parsed = toInput(values);
    if (!parsed.success) {
      this.run.rowError(file, row, rowProblem(parsed.error));
      return;
    }
    const input = parsed.data;
    const id = rowDocumentId(this.run.uploadId, file, row);
    if (this.index.has(input.bidderId, input.email)) {
      // Just after resuming, the bidder on file may be the one this row wrote before the crash.
      const earlier = this.run.replaying() ? await this.earlier(id) : undefined;
      if (earlier) {
        tally.imported += 1;
        this.index.wrote([{ record: earlier, notes: [] }]);
      } else {
        tally.duplicates += 1;
      }
      return;
    }
    const record = buildBidder(ctx, input, this.settings, new Date(), id);
    this.index.claim(record.bidderId, [], record.email);
    if (input.bidderId === undefined) this.drawn.set(id, input);
    const note = firstNoteOf(ctx, input, record);
    this.pending.push({ record, notes: note ? [note] : [] });
    if (this.pending.length >= BIDDER_BATCH) await this.write();
  }

  private write() {
    const batch = this.pending;
    const drawn = this.drawn;
    this.pending = [];
    this.drawn = new Map();
    const { ctx, tally } = this.run;
    return this.writes.add(
      writeNewBidders(ctx, batch).then(async ({ written }) => {
        tally.imported += written.length;
        this.index.wrote(written);
        const landed = new Set(written.map(({ record }) => record.id));
        // A clash is this row's own bidder from an earlier run, or a bidder ID taken meanwhile.
        for (const bidder of batch) {
          if (landed.has(bidder.record.id)) continue;
          const earlier = await this.earlier(bidder.record.id);
          if (earlier) {
            tally.imported += 1;
            this.index.wrote([{ record: earlier, notes: [] }]);
          } else if (await this.redrawn(bidder, drawn.get(bidder.record.id))) {
            tally.imported += 1;
          } else {
            tally.duplicates += 1;
          }
        }
      }),
    );
  }

  /** A row that brought no bidder ID, whose drawn one was taken, written with a fresh one. */
  private async redrawn(bidder: NewBidder, input: BidderInput | undefined) {
    if (!input) return false;
    for (let draw = 0; draw < BIDDER_ID_DRAWS; draw += 1) {
      const record = buildBidder(this.run.ctx, input, this.settings, new Date(), bidder.record.id);
      const { written } = await writeNewBidders(this.run.ctx, [{ record, notes: bidder.notes }]);
      if (written.length) {
        this.index.claim(record.bidderId, [], record.email);
        this.index.wrote(written);
        return true;
      }
    }
    return false;
  }

  skipped() {}

  endFile() {}

  async flush() {
    if (this.pending.length) await this.write();
    await this.writes.finish();
  }

  settle() {
    return this.writes.settle();
  }

  async finish() {
    await this.flush();
    return recordImportMatches(this.run.ctx, this.index, this.settings.autoMergeThreshold);
  }
}

class UploadRun {
  readonly uploadId: string;
  readonly tally: Tally;
  private readonly resumeFrom: Checkpoint | null;
  private readonly pacer: Pacer;
  private rowsThisRun = 0;
  private bytesRead = 0;
  /** Progress never goes back: a resumed run reads its file again from the start. */
  private progress: number;

  constructor(
    readonly ctx: RequestContext,
    private record: Stored<UploadRecord>,
    private readonly options: ProcessOptions,
  ) {
    this.uploadId = record.id;
    this.resumeFrom = record.checkpoint;
    // Stored files write nothing per row: their checkpoints are only for progress, by time.
    this.pacer = new Pacer(
      Date.now,
      record.category === 'bidders' ? CHECKPOINT_ROWS : Number.POSITIVE_INFINITY,
    );
    this.progress = record.checkpoint ? record.progress : 0;
    const results = record.results;
    this.tally = record.checkpoint
      ? {
          processed: results.recordsProcessed,
          imported: results.recordsImported,
          duplicates: results.duplicates ?? 0,
          errors: [...results.errors],
          errorCount: results.errorCount,
          notes: [...(results.notes ?? [])],
        }
      : { processed: 0, imported: 0, duplicates: 0, errors: [], errorCount: 0, notes: [] };
  }

  /** Whether a row now may have been written by the run that crashed (see CHECKPOINT_ROWS). */
  replaying() {
    return this.resumeFrom !== null && this.rowsThisRun < CHECKPOINT_ROWS;
  }

  rowError(file: number, row: number | null, problem: { field: string | null; message: string }) {
    this.addError({
      file: this.fileName(file),
      row,
      field: problem.field,
      message: problem.message,
    });
  }

  private addError(error: UploadError) {
    this.tally.errorCount += 1;
    if (this.tally.errors.length < MAX_LISTED_ERRORS) this.tally.errors.push(error);
  }

  private fileName(file: number) {
    return this.record.files[file]?.name ?? `file_${file}`;
  }

  private note(file: string | null, message: string) {
    if (!this.tally.notes.some((note) => note.file === file && note.message === message)) {
      this.tally.notes.push({ file, message });
    }
  }

  private results(errorReportUrl: string | null = null): UploadResults {
    const { tally } = this;
    return {
      recordsProcessed: tally.processed,
      recordsImported: tally.imported,
      errors: tally.errors,
      errorCount: tally.errorCount,
      downloadUrl: this.record.files.length ? downloadPath(this.uploadId) : null,
      errorReportUrl,
      duplicates: tally.duplicates,
      notes: tally.notes,
    };
  }

  /**
   * Replaces the record over its ETag. When it changed meanwhile, it is read again: gone, no
   * longer processing, or moved on by another worker, and this run stops; otherwise (something
   * else about it changed) the write is made again over the new ETag.
   */
  private async save(change: (record: UploadRecord) => UploadRecord) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        this.record = await replaceUpload(this.ctx.scope, change(this.record), this.record._etag);
        return;
      } catch (error) {
        if (isNotFound(error)) throw new Stopped(true);
        if (!isStale(error) || attempt >= 4) throw error;
      }
      const fresh = await findUpload(this.ctx.scope, this.uploadId);
      if (!fresh) throw new Stopped(true);
      if (
        fresh.status !== 'processing' ||
        JSON.stringify(fresh.checkpoint) !== JSON.stringify(this.record.checkpoint)
      ) {
        throw new Stopped(false);
      }
      this.record = fresh;
    }
  }

  private async checkpoint(processor: Processor, file: number, row: number) {
    await processor.flush();
    const checkpoint = {
      file,
      row,
      imported: this.tally.imported,
      processed: this.tally.processed,
    };
    this.progress = Math.max(this.progress, progressOf(this.bytesRead, this.totalBytes()));
    const { progress } = this;
    const results = this.results();
    await this.save((record) => ({
      ...record,
      progress,
      checkpoint,
      results,
      revision: record.revision + 1,
      updatedAt: new Date().toISOString(),
    }));
    this.pacer.reset();
  }

  private totalBytes() {
    return this.record.totalBytes || this.record.files.reduce((sum, file) => sum + file.size, 0);
  }

  /** A file's rows from Blob Storage as they stream in; a failure of the blob marks itself. */
  private async open(file: UploadFile) {
    const source = await openBlobStream(
      UPLOADS_BLOB_CONTAINER,
      uploadBlobName(this.ctx.scope.accountId, this.uploadId, file.index),
    );
    if (!source) return undefined;
    const state = { sourceFailed: false };
    const counted = byteCounter((bytes) => {
      this.bytesRead += bytes;
    });
    source.on('error', (error) => {
      state.sourceFailed = true;
      counted.destroy(error);
    });
    source.pipe(counted);
    return { source, counted, state };
  }

  /**
   * Reads one file, each row to the processor; its own problems are errors naming it. On
   * resuming, the rows up to the checkpoint are read past (files before it are not read at all).
   */
  private async processFile(processor: Processor, file: number) {
    const upload = this.record.files[file] as UploadFile;
    const reading = processor.reading(upload);
    if (!upload.received) {
      this.rowError(file, null, { field: null, message: 'was not received' });
      return;
    }
    if (reading.kind !== 'rows') {
      this.bytesRead += upload.size;
      if (reading.kind === 'refused') {
        this.rowError(file, null, { field: null, message: reading.message });
      } else {
        this.tally.processed += 1;
        this.tally.imported += 1;
      }
      return;
    }
    const opened = await this.open(upload);
    if (!opened) {
      this.rowError(file, null, { field: null, message: 'is missing from storage' });
      return;
    }
    const rows = dataRows(reading.format, opened.counted as Readable, reading.reading);
    let whole = true;
    try {
      for (;;) {
        let next: IteratorResult<{ row: number; values: Record<string, unknown> }>;
        try {
          next = await rows.next();
        } catch (error) {
          if (error instanceof NotAnArray && processor instanceof StoredFiles) {
            // A JSON document that is not a list of records is one record.
            this.tally.processed += 1;
            await processor.row();
            break;
          }
          const problem = fileProblemOf(error, opened.state.sourceFailed);
          if (problem === null) throw error;
          this.rowError(file, null, { field: null, message: problem });
          whole = false;
          break;
        }
        if (next.done) break;
        const { row, values } = next.value;
        if (doneBefore(this.resumeFrom, file, row)) {
          processor.skipped();
          continue;
        }
        this.tally.processed += 1;
        await processor.row(file, row, values);
        this.rowsThisRun += 1;
        if (
          this.options.failAfterRows !== undefined &&
          this.rowsThisRun >= this.options.failAfterRows
        ) {
          await processor.settle();
          throw new Error(`Injected failure after ${this.rowsThisRun} rows`);
        }
        if (this.pacer.row()) await this.checkpoint(processor, file, row);
      }
    } finally {
      opened.source.destroy();
      await rows.return(undefined).catch(() => undefined);
    }
    processor.endFile(whole);
  }

  /** Every error of the upload again, from the files: for a report longer than the list kept. */
  private async *allErrors(processor: Processor): AsyncGenerator<UploadError> {
    for (let file = 0; file < this.record.files.length; file += 1) {
      const upload = this.record.files[file] as UploadFile;
      const name = this.fileName(file);
      const fileError = (message: string): UploadError => ({
        file: name,
        row: null,
        field: null,
        message,
      });
      if (!upload.received) {
        yield fileError('was not received');
        continue;
      }
      const reading = processor.reading(upload);
      if (reading.kind === 'refused') yield fileError(reading.message);
      if (reading.kind !== 'rows') continue;
      const opened = await this.open(upload);
      if (!opened) {
        yield fileError('is missing from storage');
        continue;
      }
      const rows = dataRows(reading.format, opened.counted as Readable, reading.reading);
      try {
        for (;;) {
          let next: IteratorResult<{ row: number; values: Record<string, unknown> }>;
          try {
            next = await rows.next();
          } catch (error) {
            if (error instanceof NotAnArray && processor instanceof StoredFiles) break;
            const problem = fileProblemOf(error, opened.state.sourceFailed);
            if (problem === null) throw error;
            yield fileError(problem);
            break;
          }
          if (next.done) break;
          const problem = processor.check(next.value.values);
          if (problem) yield { file: name, row: next.value.row, ...problem };
        }
      } finally {
        opened.source.destroy();
        await rows.return(undefined).catch(() => undefined);
      }
    }
  }

  async run() {
    const { record } = this;
    const processor: Processor =
      record.category === 'bidders' ? await BidderRows.start(this) : new StoredFiles(this.tally);
    const later = LATER_IMPORTERS[record.category];
    for (const file of later ? record.files : []) {
      this.note(
        file.name,
        `Importing ${later ?? ''} from files comes in a later release: this file is stored, counted and searchable by name.`,
      );
    }
    const start = this.resumeFrom?.file ?? 0;
    for (let file = 0; file < start; file += 1) this.bytesRead += record.files[file]?.size ?? 0;
    // Marks the run as started, so a message delivered again knows it resumes.
    if (!this.resumeFrom) await this.checkpoint(processor, 0, 0);
    for (let file = start; file < record.files.length; file += 1) {
      await this.processFile(processor, file);
      await this.checkpoint(processor, file + 1, 0);
    }
    const matches = await processor.finish();
    let errorReportUrl: string | null = null;
    const reportName = errorReportBlobName(this.ctx.scope.accountId, this.uploadId);
    if (this.tally.errorCount > 0) {
      const listed = this.tally.errors;
      const errors =
        this.tally.errorCount > listed.length
          ? this.allErrors(processor)
          : (async function* () {
              yield* listed;
            })();
      await putBlobStream(UPLOADS_BLOB_CONTAINER, reportName, errorReport(errors), 'text/csv');
      errorReportUrl = errorReportPath(this.uploadId);
    }
    const status = this.tally.processed === 0 && this.tally.errorCount > 0 ? 'error' : 'completed';
    const results = this.results(errorReportUrl);
    await writeAudit(this.ctx, {
      action: 'upload.process',
      entity: { type: 'upload', id: this.uploadId },
      before: { status: 'processing' },
      after: {
        status,
        category: record.category,
        files: record.files.map((file) => file.name),
        recordsProcessed: results.recordsProcessed,
        recordsImported: results.recordsImported,
        duplicates: results.duplicates,
        errorCount: results.errorCount,
        ...(matches ? { possibleDuplicates: matches } : {}),
      },
    });
    const at = new Date().toISOString();
    try {
      await this.save((current) => ({
        ...current,
        status,
        progress: 100,
        completedDate: at,
        results,
        checkpoint: {
          file: current.files.length,
          row: 0,
          imported: results.recordsImported,
          processed: results.recordsProcessed,
        },
        revision: current.revision + 1,
        updatedAt: at,
      }));
    } catch (error) {
      // Deleted meanwhile: its report is not left behind with nothing pointing to it.
      if (error instanceof Stopped && error.gone && errorReportUrl) {
        await deleteBlob(UPLOADS_BLOB_CONTAINER, reportName).catch(() => undefined);
      }
      throw error;
    }
  }
}

/**
 * Processes an upload whose files are all stored (status `processing`): a deleted upload, or
 * one already finished (a message delivered twice), is left as it is. A failure of the platform
 * throws, so the queue delivers the message again and the next run resumes at the checkpoint.
 */
export async function processUpload(
  ctx: RequestContext,
  uploadId: string,
  options: ProcessOptions = {},
): Promise<void> {
  const record = await findUpload(ctx.scope, uploadId);
  if (!record || record.status !== 'processing') return;
  try {
    await new UploadRun(ctx, record, options).run();
  } catch (error) {
    if (error instanceof Stopped) return;
    throw error;
  }
}

/** The queue trigger: one message per upload whose files have all arrived. */
export const uploadWorkerFunction: QueueFunction = {
  kind: 'queue',
  name: 'data-upload-process',
  queueName: PROCESS_QUEUE,
  handler: async (message) => {
    const { accountId, uploadId } = processMessageSchema.parse(message);
    await processUpload(systemContext(accountId), uploadId);
  },
};
