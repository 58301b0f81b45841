import type { Readable } from 'node:stream';
import { writeAudit } from '../platform/audit.js';
import {
  deleteBlob,
  isChangedBlob,
  openBlobStream,
  putBlobStream,
  readBlobRange,
} from '../platform/blob.js';
import { systemContext, type RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { AppError } from '../platform/errors.js';
import type { QueueFunction } from '../platform/functions.js';
import type { Stored } from '../platform/repo.js';
import { workbookTextProblem } from './content-check.js';
import { csvRows } from './files.js';
import type {
  ImporterDefinition,
  ImportSink,
  LedgerEntry,
  RowImporter,
  RowProblem,
} from './importer.js';
import { importerFor } from './importers/index.js';
import { mappedReading, savedMappingOf } from './mapping.js';
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
  clippedMessage,
  ERROR_CHECKPOINT_CHARS,
  errorBatches,
  errorChars,
  laterErrors,
  mergedErrors,
} from './upload-errors.js';
import { RunLedger } from './upload-ledger.js';
import { undoUpload } from './upload-undo.js';
import {
  deleteUploadErrorsOf,
  errorReportBlobName,
  failedRowsBlobName,
  fileVersionOf,
  findUpload,
  replaceUpload,
  uploadBlobName,
  UPLOADS_BLOB_CONTAINER,
  type StoredUploadError,
  type UploadRecord,
} from './uploads.repo.js';
import { Cancelled, newRun, openRun, RunRecord, Stopped, withRun } from './run-record.js';
import {
  MAX_LISTED_ERRORS,
  PROCESS_QUEUE,
  UPLOAD_FILE_CHANGED,
  downloadPath,
  errorReportPath,
  processMessageSchema,
  type UploadError,
  type UploadFile,
  type UploadResults,
  type UploadRun as RunEntry,
} from './uploads.schema.js';

/**
 * The queue-triggered worker that processes an upload whose files are all in Blob Storage.
 *
 * Each file is read as a stream, a row at a time, never whole. A category with an importer
 * (`importerFor`) has each file's columns mapped to the importer's fields (the user's mapping,
 * else the detected one) and every row handed to the importer, which checks it, writes it through
 * its own feature's service (recording its intent in the upload's ledger first, for undo) and
 * says what became of it. The other categories are stored as they are and counted.
 *
 * A run has a mode: `new` (the first run) imports rows whose key is not on file; `failed` only the
 * rows the last run's error report lists; `update` also overwrites the records on file. An undo
 * (`upload-undo.ts`) is a run of its own.
 *
 * Counting: recordsProcessed is the rows read of a CSV, Excel or JSON-array file (a JSON file
 * that is not an array, and any other file: PDF, image, Word, ZIP, dump, text, is 1). For an
 * import, recordsImported is the records created and updated; for the stored categories it is
 * the records of the files read to their end (a file that turns out not to be what it says is
 * still stored, but its records are not counted as imported, and an error names it). `results`
 * describe the last run; `runs` keep each run's figures.
 *
 * A bad row never stops the others: it is an error naming its file, row and field; the record
 * keeps the first MAX_LISTED_ERRORS and the count, the later ones are stored with each checkpoint
 * (`upload-errors.ts`), and the whole list is a CSV report beside the files. The upload ends
 * `completed`, or `error` when nothing at all could be read, the importer refused the upload as a
 * whole (each file then names why), or the run was cancelled.
 *
 * Resuming: the record is written only at checkpoints (every ~1.5 s and at the end of each
 * file; for an import also every CHECKPOINT_ROWS rows), after every write for the rows before it
 * has landed, so its counts always match its checkpoint. A message delivered again for an upload
 * still `processing` resumes there. A row creating a record uses a document id derived from
 * (upload, file, row), so a row written after the last checkpoint and written again is refused as
 * already there and counted once. A second worker on the same upload (a message visible again
 * while the first still runs) loses its next checkpoint write to the first and stops. A cancel
 * asked for is seen at the next checkpoint (after a crash, the resumed run's first, by when what
 * the crashed run wrote is counted again).
 */

/** Test hooks. */
export interface ProcessOptions {
  /** Fails (as a crash would, leaving what was written) after this many rows (or undo entries). */
  failAfterRows?: number;
}

/** How one file is read: its rows, as one record, or refused with a reason. */
type Reading =
  | { kind: 'rows'; format: 'csv' | 'xlsx' | 'json'; reading: RowReading }
  | { kind: 'whole' }
  | { kind: 'refused'; message: string };

interface Tally {
  processed: number;
  imported: number;
  created: number;
  updated: number;
  duplicates: number;
  conflicts: number;
  errors: UploadError[];
  errorCount: number;
  notes: { file: string | null; message: string }[];
}

/** What a category does with rows. */
interface Processor {
  reading(file: UploadFile): Reading;
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
  finish(): Promise<Record<string, unknown> | null>;
}

async function* noIntents(): AsyncGenerator<LedgerEntry> {}

const isTabular = (format: UploadFile['format']): format is 'csv' | 'xlsx' | 'json' =>
  format === 'csv' || format === 'xlsx' || format === 'json';

/** A processor that writes no records: nothing to land, wait for or sum up. */
abstract class WritesNothing {
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

/** Files of the stored categories: counted, kept as they are. */
class StoredFiles extends WritesNothing implements Processor {
  private fileRows = 0;

  constructor(private readonly tally: Tally) {
    super();
  }

  reading(file: UploadFile): Reading {
    if (!isTabular(file.format)) return { kind: 'whole' };
    return {
      kind: 'rows',
      format: file.format,
      reading: { columnOf: (header) => header, jsonValues: () => ({}), jsonKey: null },
    };
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
}

/** Rows of a category with an importer: mapped to its fields, then handed to it. */
class ImportedRows implements Processor {
  private constructor(
    private readonly run: UploadRun,
    private readonly definition: ImporterDefinition,
    private readonly importer: RowImporter,
  ) {}

  static async start(run: UploadRun, definition: ImporterDefinition, ledger: RunLedger) {
    const { record } = run;
    const importer = await definition.start({
      ctx: run.ctx,
      upload: { id: record.id, name: record.name, auctionId: record.auctionId },
      mode: run.mode,
      sink: run.sink,
      ledger,
      replaying: () => run.replaying(),
      wroteBeforeCrash: (written) => run.replaying() && written.createdAt >= run.startedAt,
      earlierIntents: () => (run.resumed ? ledger.earlier() : noIntents()),
    });
    return new ImportedRows(run, definition, importer);
  }

  reading(file: UploadFile): Reading {
    const refusal = this.definition.refuses(file.format);
    if (refusal !== null) return { kind: 'refused', message: refusal };
    if (!isTabular(file.format)) {
      return { kind: 'refused', message: 'holds no rows that can be imported' };
    }
    return {
      kind: 'rows',
      format: file.format,
      reading: mappedReading(
        this.definition.fields,
        savedMappingOf(this.run.record.mappings, file.index),
        this.definition.jsonKey,
      ),
    };
  }

  row(file: number, row: number, values: Record<string, unknown>) {
    const fileName = this.run.record.files[file]?.name ?? `file_${file}`;
    return this.importer.row(
      { file, fileName, row },
      rowDocumentId(this.run.record.id, file, row),
      values,
    );
  }

  skipped() {}

  endFile() {}

  flush() {
    return this.importer.flush();
  }

  settle() {
    return this.importer.settle();
  }

  async finish() {
    await this.importer.flush();
    return this.importer.finish();
  }
}

/**
 * The files of an upload its importer refused as a whole (inventory without its add-on, the
 * upload's auction gone or closed): each is refused with the importer's reason, no row is read.
 */
class RefusedFiles extends WritesNothing implements Processor {
  constructor(private readonly message: string) {
    super();
  }

  reading(): Reading {
    return { kind: 'refused', message: this.message };
  }

  row() {
    return Promise.resolve();
  }

  skipped() {}

  endFile() {}
}

/** Which rows a run of failed rows takes, per file: those listed, or all of a file that failed. */
type FailedRows = Map<number, Set<number> | 'all'>;

/** The rows the last run's error report lists (its copy made when the re-run was asked for). */
async function failedRowsOf(ctx: RequestContext, record: UploadRecord): Promise<FailedRows> {
  const failed: FailedRows = new Map();
  const source = await openBlobStream(
    UPLOADS_BLOB_CONTAINER,
    failedRowsBlobName(ctx.scope.accountId, record.id),
  );
  if (!source) return failed;
  const indexesOf = (name: string) =>
    record.files.filter((file) => file.name === name).map((file) => file.index);
  for await (const { values } of csvRows(source, (header) => header, 'report')) {
    const row = Number(values.row);
    // The report makes a name starting like a formula inert with a quote: that is taken off.
    const name = String(values.file ?? '').replace(/^'(?=[=+\-@\t\r])/, '');
    for (const file of indexesOf(name)) {
      const known = failed.get(file);
      if (values.row === '' || !Number.isInteger(row)) failed.set(file, 'all');
      else if (known === undefined) failed.set(file, new Set([row]));
      else if (known !== 'all') known.add(row);
    }
  }
  return failed;
}

class UploadRun extends RunRecord {
  readonly tally: Tally;
  readonly sink: ImportSink;
  private readonly resumeFrom: Checkpoint | null;
  private readonly pacer: Pacer;
  private current: RunEntry;
  private readonly ledger: RunLedger;
  private failed: FailedRows | null = null;
  /** Errors beyond the listed ones since the last checkpoint, which stores them (upload-errors). */
  private waiting: StoredUploadError[] = [];
  private waitingChars = 0;
  private rowsThisRun = 0;
  private bytesRead = 0;
  /** Progress never goes back: a resumed run reads its file again from the start. */
  private progress: number;

  constructor(
    ctx: RequestContext,
    record: Stored<UploadRecord>,
    private readonly definition: ImporterDefinition | undefined,
    private readonly options: ProcessOptions,
  ) {
    super(ctx, record);
    this.resumeFrom = record.checkpoint;
    // Stored files write nothing per row: their checkpoints are only for progress, by time.
    this.pacer = new Pacer(Date.now, definition ? CHECKPOINT_ROWS : Number.POSITIVE_INFINITY);
    this.progress = record.checkpoint ? record.progress : 0;
    // A record queued before runs were kept (or put in place by hand) starts its first here.
    this.current = openRun(record) ?? newRun(record, 'import', 'new', record.uploadedBy);
    this.ledger = new RunLedger(ctx.scope, record.id, this.current.number);
    const results = record.results;
    this.tally = record.checkpoint
      ? {
          processed: results.recordsProcessed,
          imported: results.recordsImported,
          created: this.current.created,
          updated: this.current.updated,
          duplicates: results.duplicates ?? 0,
          conflicts: 0,
          errors: [...results.errors],
          errorCount: results.errorCount,
          notes: [...(results.notes ?? [])],
        }
      : {
          processed: 0,
          imported: 0,
          created: 0,
          updated: 0,
          duplicates: 0,
          conflicts: 0,
          errors: [],
          errorCount: 0,
          notes: [],
        };
    const { tally } = this;
    this.sink = {
      created: () => {
        tally.imported += 1;
        tally.created += 1;
      },
      updated: () => {
        tally.imported += 1;
        tally.updated += 1;
      },
      duplicate: () => {
        tally.duplicates += 1;
      },
      conflict: () => {
        tally.conflicts += 1;
      },
      error: (ref, problem) => this.rowError(ref.file, ref.row, problem),
    };
  }

  get mode() {
    return this.current.mode ?? 'new';
  }

  get startedAt() {
    return this.current.startedAt;
  }

  /** Whether this run goes on from a checkpoint of the same run that crashed. */
  get resumed() {
    return this.resumeFrom !== null;
  }

  /** Whether a row now may have been written by the run that crashed (see CHECKPOINT_ROWS). */
  replaying() {
    return this.resumeFrom !== null && this.rowsThisRun < CHECKPOINT_ROWS;
  }

  /** A row's (or a file's) error: listed on the record while it lists fewer than the most. */
  rowError(file: number, row: number | null, problem: RowProblem) {
    const message = clippedMessage(problem.message);
    this.tally.errorCount += 1;
    if (this.tally.errors.length < MAX_LISTED_ERRORS) {
      this.tally.errors.push({ file: this.fileName(file), row, field: problem.field, message });
      return;
    }
    const error = { file, row, field: problem.field, message };
    this.waiting.push(error);
    this.waitingChars += errorChars(error);
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
      downloadUrl: this.record.files.length ? downloadPath(this.record.id) : null,
      errorReportUrl,
      duplicates: tally.duplicates,
      notes: tally.notes,
    };
  }

  private runNow(): RunEntry {
    return { ...this.current, created: this.tally.created, updated: this.tally.updated };
  }

  private async checkpoint(processor: Processor, file: number, row: number) {
    await processor.flush();
    await this.ledger.commit();
    const checkpoint = {
      file,
      row,
      imported: this.tally.imported,
      processed: this.tally.processed,
    };
    this.progress = Math.max(this.progress, progressOf(this.bytesRead, this.totalBytes()));
    const { progress } = this;
    const results = this.results();
    const run = this.runNow();
    const at = new Date().toISOString();
    const batches = errorBatches(
      this.waiting,
      { id: this.record.id, run: run.number },
      checkpoint,
      at,
    );
    await this.save(
      (record) => ({
        ...withRun(record, run),
        progress,
        checkpoint,
        results,
        revision: record.revision + 1,
        updatedAt: at,
      }),
      batches,
    );
    this.waiting = [];
    this.waitingChars = 0;
    this.pacer.reset();
    if (this.record.cancelRequested) throw new Cancelled();
  }

  private totalBytes() {
    return this.record.totalBytes || this.record.files.reduce((sum, file) => sum + file.size, 0);
  }

  /**
   * A file's rows from Blob Storage as they stream in, of the version `complete` checked; a
   * failure of the blob marks itself. A problem naming the file when it cannot be read.
   */
  private async open(file: UploadFile) {
    const blobName = uploadBlobName(this.ctx.scope.accountId, this.record.id, file.index);
    const etag = fileVersionOf(this.record, file.index);
    let source: Readable | undefined;
    try {
      if (file.format === 'xlsx') {
        const problem = await workbookTextProblem(file.size, (offset, length) =>
          readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, offset, length, etag),
        );
        if (problem) return { problem };
      }
      source = await openBlobStream(UPLOADS_BLOB_CONTAINER, blobName, { etag });
    } catch (error) {
      if (isChangedBlob(error)) return { problem: UPLOAD_FILE_CHANGED };
      throw error;
    }
    if (!source) return { problem: 'is missing from storage' };
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

  /** Whether this run takes the row: every row, or (a run of failed rows) those listed. */
  private takes(file: number, row: number) {
    if (!this.failed) return true;
    const rows = this.failed.get(file);
    return rows === 'all' || (rows !== undefined && rows.has(row));
  }

  /**
   * Reads one file, each row to the processor; its own problems are errors naming it. On
   * resuming, the rows up to the checkpoint are read past (files before it are not read at all).
   */
  private async processFile(processor: Processor, file: number) {
    const upload = this.record.files[file] as UploadFile;
    if (this.failed && !this.failed.has(file)) {
      this.bytesRead += upload.size;
      return;
    }
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
    if (opened.problem !== undefined) {
      this.rowError(file, null, { field: null, message: opened.problem });
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
        if (!this.takes(file, row)) continue;
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
        const due = this.pacer.row();
        if (due || this.waitingChars >= ERROR_CHECKPOINT_CHARS) {
          await this.checkpoint(processor, file, row);
        }
      }
    } finally {
      opened.source.destroy();
      await rows.return(undefined).catch(() => undefined);
    }
    processor.endFile(whole);
  }

  /**
   * Every error of the run in the order of files and rows: those listed on the record merged
   * with those stored at its checkpoints (and any since the last), never more than a few
   * batches in memory.
   */
  private async *allErrors(): AsyncGenerator<UploadError> {
    const indexes = new Map<string, number>();
    this.record.files.forEach((file, index) => {
      if (!indexes.has(file.name)) indexes.set(file.name, index);
    });
    const listed = this.tally.errors.map((error) => ({
      ...error,
      file: indexes.get(error.file ?? '') ?? 0,
    }));
    // With no more errors than the list holds, nothing was stored: nothing to read back.
    const later =
      this.tally.errorCount > this.tally.errors.length
        ? laterErrors(
            this.ctx.scope,
            { id: this.record.id, run: this.current.number },
            this.waiting,
          )
        : [];
    for await (const error of mergedErrors(listed, later)) {
      yield { ...error, file: this.fileName(error.file) };
    }
  }

  /**
   * What reads the files: the category's importer, started; every file refused when the importer
   * refuses the upload itself (an AppError below 500; the run then ends `error` having written
   * nothing); the files stored as they are for a category without one.
   */
  private async processor(ledger: RunLedger): Promise<Processor> {
    const { definition } = this;
    if (!definition) return new StoredFiles(this.tally);
    try {
      return await ImportedRows.start(this, definition, ledger);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return new RefusedFiles(error.message);
    }
  }

  async run() {
    const { record, definition } = this;
    const processor = await this.processor(this.ledger);
    if (definition && this.mode === 'failed') this.failed = await failedRowsOf(this.ctx, record);
    const start = this.resumeFrom?.file ?? 0;
    for (let file = 0; file < start; file += 1) this.bytesRead += record.files[file]?.size ?? 0;
    let cancelled = false;
    try {
      // Marks the run as started, so a message delivered again knows it resumes.
      if (!this.resumeFrom) await this.checkpoint(processor, 0, 0);
      for (let file = start; file < record.files.length; file += 1) {
        await this.processFile(processor, file);
        await this.checkpoint(processor, file + 1, 0);
      }
    } catch (error) {
      if (!(error instanceof Cancelled)) throw error;
      cancelled = true;
    }
    const summary = await processor.finish();
    await this.ledger.commit();
    const { conflicts } = this.tally;
    if (conflicts > 0) {
      this.note(
        null,
        conflicts === 1
          ? '1 possible duplicate waits for a decision under Conflict Resolution.'
          : `${conflicts} possible duplicates wait for a decision under Conflict Resolution.`,
      );
    }
    if (cancelled) {
      const { imported } = this.tally;
      this.note(
        null,
        imported === 0
          ? 'Cancelled before it imported any records.'
          : `Cancelled: the ${imported} record${imported === 1 ? '' : 's'} it imported before stopping stay; Undo removes them.`,
      );
    }
    await this.end(cancelled, summary);
  }

  private async end(cancelled: boolean, summary: Record<string, unknown> | null) {
    const { record } = this;
    let errorReportUrl: string | null = null;
    const reportName = errorReportBlobName(this.ctx.scope.accountId, record.id);
    if (this.tally.errorCount > 0) {
      await putBlobStream(
        UPLOADS_BLOB_CONTAINER,
        reportName,
        errorReport(this.allErrors()),
        'text/csv',
      );
      errorReportUrl = errorReportPath(record.id);
    } else {
      // The last run's report goes with it: a later run of failed rows reads this run's.
      await deleteBlob(UPLOADS_BLOB_CONTAINER, reportName).catch(() => undefined);
    }
    const status =
      cancelled || (this.tally.processed === 0 && this.tally.errorCount > 0)
        ? 'error'
        : 'completed';
    const results = this.results(errorReportUrl);
    const at = new Date().toISOString();
    const run: RunEntry = { ...this.runNow(), finishedAt: at, cancelled };
    await writeAudit(this.ctx, {
      action: cancelled ? 'upload.cancel' : 'upload.process',
      entity: { type: 'upload', id: record.id },
      before: { status: 'processing' },
      after: {
        status,
        category: record.category,
        run: run.number,
        mode: run.mode,
        files: record.files.map((file) => file.name),
        recordsProcessed: results.recordsProcessed,
        recordsImported: results.recordsImported,
        created: run.created,
        updated: run.updated,
        duplicates: results.duplicates,
        errorCount: results.errorCount,
        ...(summary ?? {}),
      },
    });
    try {
      await this.save((current) => ({
        ...withRun(current, run),
        status,
        progress: 100,
        completedDate: at,
        results,
        cancelRequested: false,
        undone: false,
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
    // The report holds them now. Left by a failure here, a later run's end or the upload's
    // deletion removes them (each run reads only its own).
    if (this.tally.errorCount > MAX_LISTED_ERRORS) {
      await deleteUploadErrorsOf(this.ctx.scope, record.id).catch(() => undefined);
    }
  }
}

/**
 * Processes an upload whose files are all stored (status `processing`), or undoes it when its
 * run under way is an undo: a deleted upload, or one already finished (a message delivered
 * twice), is left as it is. A failure of the platform throws, so the queue delivers the message
 * again and the next run resumes at the checkpoint.
 */
export async function processUpload(
  ctx: RequestContext,
  uploadId: string,
  options: ProcessOptions = {},
): Promise<void> {
  const record = await findUpload(ctx.scope, uploadId);
  if (!record || record.status !== 'processing') return;
  const definition = importerFor(record.category);
  try {
    if (openRun(record)?.kind === 'undo') await undoUpload(ctx, record, definition, options);
    else await new UploadRun(ctx, record, definition, options).run();
  } catch (error) {
    if (error instanceof Stopped) return;
    throw error;
  }
}

/** What an upload's history says of a run the queue gave up on. */
function abandonedNote(run: RunEntry | undefined, imported: number) {
  if (run?.kind === 'undo') {
    return 'Undo stopped: it failed again each time it was tried. Undo again to finish it.';
  }
  return imported === 0
    ? 'Stopped: processing failed again each time it was tried, before it imported any records. Run it again, or upload the files anew.'
    : `Stopped: processing failed again each time it was tried. The ${imported} record${imported === 1 ? '' : 's'} it imported before stopping stay; Undo removes them.`;
}

/**
 * After the queue gave up on an upload's message (each of its tries failed, and it went to the
 * poison queue): the run under way ends in error at its last checkpoint, so the upload is no
 * longer "processing" for good, and what the run wrote before stays in the ledger for Undo.
 */
export async function abandonUpload(ctx: RequestContext, uploadId: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const record = await findUpload(ctx.scope, uploadId);
    if (!record || record.status !== 'processing') return;
    const run = openRun(record);
    const at = new Date().toISOString();
    const message = abandonedNote(run, record.checkpoint?.imported ?? 0);
    const notes = (record.results.notes ?? []).filter((note) => note.message !== message);
    try {
      await replaceUpload(
        ctx.scope,
        {
          ...(run ? withRun(record, { ...run, finishedAt: at, stopped: true }) : record),
          status: 'error',
          completedDate: at,
          results: { ...record.results, notes: [...notes, { file: null, message }] },
          revision: record.revision + 1,
          updatedAt: at,
        },
        record._etag,
      );
    } catch (error) {
      // A worker (or the user) moved it on meanwhile: read it again.
      if (isStale(error) && attempt < 4) continue;
      throw error;
    }
    await writeAudit(ctx, {
      action: 'upload.abandon',
      entity: { type: 'upload', id: uploadId },
      before: { status: 'processing' },
      after: { status: 'error', run: run?.number ?? null, kind: run?.kind ?? null },
    });
    return;
  }
}

/** The queue trigger: one message per upload whose files have all arrived, or to undo. */
export const uploadWorkerFunction: QueueFunction = {
  kind: 'queue',
  name: 'data-upload-process',
  queueName: PROCESS_QUEUE,
  handler: async (message) => {
    // The record's run under way says whether to process or undo; the message's action agrees.
    const { accountId, uploadId } = processMessageSchema.parse(message);
    await processUpload(systemContext(accountId), uploadId);
  },
};

/** The messages the queue gave up on (moved to its poison queue after their last try). */
export const uploadAbandonedFunction: QueueFunction = {
  kind: 'queue',
  name: 'data-upload-abandoned',
  queueName: `${PROCESS_QUEUE}-poison`,
  handler: async (message) => {
    const { accountId, uploadId } = processMessageSchema.parse(message);
    await abandonUpload(systemContext(accountId), uploadId);
  },
};
