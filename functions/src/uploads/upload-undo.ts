import { closeUploadConflicts } from '../conflicts/conflicts.service.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { inFlight } from '../platform/in-flight.js';
import type { Stored } from '../platform/repo.js';
import type { ImporterDefinition, LedgerEntry } from './importer.js';
import { Cancelled, openRun, RunRecord, withRun } from './run-record.js';
import { Pacer } from './upload-processors.js';
import { ledgerDocuments, notWritten } from './upload-ledger.js';
import {
  markLedgerStarted,
  markLedgerUndone,
  type LedgerRecord,
  type UndoOutcome,
  type UploadRecord,
} from './uploads.repo.js';
import type { UploadRun } from './uploads.schema.js';

/**
 * Undo: takes back every ledger entry of every run of an upload, newest first, through the
 * category importer's `undo` (records created removed, records overwritten put back, records
 * someone changed after the run's write kept). An entry's "changed since" moment is when its
 * write landed, as the run marked it; an entry the run left unmarked (it crashed or was cut
 * short with the write under way) is judged by the run's end. An entry marked not written (the
 * write was refused, or someone's change was read again and the intent recorded anew) is passed
 * by: it touched nothing.
 *
 * Resuming: each ledger document taken back is marked with the undo's run and each entry's
 * outcome, so a message delivered again after a crash goes on with the first unmarked document
 * (the counts are those of the marked documents), and a later undo (after a re-run) passes the
 * marked ones by. Entries of a document cut short are taken back again: the importer answers the
 * same for a record it already put back ('restored'), and 'gone' for one it already removed,
 * which counts as removed since the document says this undo had begun on it (a record someone
 * deleted in the moments before is counted so too).
 *
 * A record written by more than one entry (created by the first run, overwritten by a re-run) is
 * put back entry by entry, newest first: a record kept once stays kept; one put back to a version
 * someone made between the runs is kept as that; otherwise the undo's own write is no change.
 */

/** Entries taken back at once (distinct records; a record of several entries waits its turn). */
const UNDO_IN_FLIGHT = 4;
/** Ledger documents between checkpoints at most (a checkpoint is also due every ~1.5 s). */
const CHECKPOINT_DOCUMENTS = 20;

const keyOf = (entry: LedgerEntry) => `${entry.entity}/${entry.id}`;

/** FNV-1a, twice with different seeds: 52 bits, enough to tell a million keys apart. */
function hashOf(text: string): number {
  let one = 0x811c9dc5;
  let two = 0x01000193;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    one = Math.imul(one ^ code, 0x01000193);
    two = Math.imul(two ^ code, 0x5bd1e995);
  }
  return (one >>> 0) * 0x100000 + ((two >>> 0) & 0xfffff);
}

interface Handled {
  outcome: UndoOutcome;
  /** When this undo took the entry back. */
  at: string;
  /** Put back: when the version put back was last changed (its `updatedAt`), if it says. */
  contentAt: string | null;
}

/** When a record as a ledger entry kept it was last changed, if the record says. */
const updatedAtOf = (before: LedgerEntry['before']) =>
  typeof before?.updatedAt === 'string' ? before.updatedAt : null;

interface Counts {
  removed: number;
  restored: number;
  kept: number;
}

const counted = (counts: Counts, outcome: UndoOutcome, step: 1 | -1) => {
  if (outcome !== 'gone') counts[outcome] += step;
};

class UndoRun extends RunRecord {
  private readonly run: UploadRun;
  private readonly counts: Counts = { removed: 0, restored: 0, kept: 0 };
  /** The outcome so far of each record with more than one entry. */
  private readonly handled = new Map<string, Handled>();
  private readonly pacer = new Pacer(Date.now, CHECKPOINT_DOCUMENTS);
  private entriesThisRun = 0;
  private documents = 0;
  private done = 0;

  constructor(
    ctx: RequestContext,
    record: Stored<UploadRecord>,
    private readonly definition: ImporterDefinition | undefined,
    private readonly failAfter: number | undefined,
  ) {
    super(ctx, record);
    this.run = openRun(record) as UploadRun;
  }

  /** Whether a ledger document is this undo's to take back (not one an earlier undo did). */
  private mine(document: LedgerRecord) {
    return document.undo === null || document.undo.run === this.run.number;
  }

  /** The records with more than one entry to take back, and how many documents there are. */
  private async survey(): Promise<Set<string>> {
    const seen = new Set<number>();
    const repeated = new Set<string>();
    for await (const document of ledgerDocuments(this.ctx.scope, this.record.id)) {
      if (!this.mine(document)) continue;
      this.documents += 1;
      for (const entry of document.entries) {
        const key = keyOf(entry);
        const hash = hashOf(key);
        if (seen.has(hash)) repeated.add(key);
        else seen.add(hash);
      }
    }
    return repeated;
  }

  /** When the run that wrote a document finished (the "changed since" moment of unmarked entries). */
  private finishedAtOf(document: LedgerRecord) {
    const run = this.record.runs.find((candidate) => candidate.number === document.run);
    return run?.finishedAt ?? this.run.startedAt;
  }

  /** An entry's "changed since" moment: when its write landed, else when its run ended. */
  private static sinceOf(document: LedgerRecord, index: number, finishedAt: string) {
    return document.landed?.[index] || finishedAt;
  }

  private remember(key: string, entry: LedgerEntry, outcome: UndoOutcome, at: string) {
    const earlier = this.handled.get(key);
    // Gone because this undo removed it (a row written twice, as a resumed run does).
    if (outcome === 'gone' && earlier?.outcome === 'removed') return;
    // The record's last outcome is what it comes to: the count moves from the earlier one.
    if (earlier) counted(this.counts, earlier.outcome, -1);
    counted(this.counts, outcome, 1);
    const contentAt = outcome === 'restored' ? updatedAtOf(entry.before) : null;
    this.handled.set(key, { outcome, at, contentAt });
  }

  /**
   * The "changed since" moment for an older entry of a record this undo has already taken back
   * once: a record kept stays kept; one put back to a version that was itself changed after the
   * older entry's write landed (someone edited it between the runs) is kept too; otherwise the
   * undo's own write is not a change.
   */
  private since(earlier: Handled | undefined, landedAt: string): string | 'kept' {
    if (!earlier) return landedAt;
    if (earlier.outcome === 'kept') return 'kept';
    if (earlier.outcome !== 'restored') return landedAt;
    if (earlier.contentAt !== null && earlier.contentAt > landedAt) return landedAt;
    return earlier.at > landedAt ? earlier.at : landedAt;
  }

  private async takeBack(entry: LedgerEntry, since: string): Promise<UndoOutcome> {
    if (!this.definition) return 'gone';
    this.entriesThisRun += 1;
    if (this.failAfter !== undefined && this.entriesThisRun > this.failAfter) {
      throw new Error(`Injected failure after ${this.failAfter} rows`);
    }
    return this.definition.undo(this.ctx, entry, since);
  }

  /**
   * Takes back one document's entries, newest first; answers each entry's outcome. `resumed`: this
   * undo began on the document before a crash, so a record it created that is gone, it removed.
   */
  private async undoDocument(document: LedgerRecord, repeated: Set<string>, resumed: boolean) {
    const outcomes: UndoOutcome[] = new Array<UndoOutcome>(document.entries.length).fill('gone');
    const finishedAt = this.finishedAtOf(document);
    const writes = inFlight(UNDO_IN_FLIGHT);
    const takeBack = async (entry: LedgerEntry, since: string) => {
      const outcome = await this.takeBack(entry, since);
      return resumed && outcome === 'gone' && entry.before === null ? 'removed' : outcome;
    };
    for (let index = document.entries.length - 1; index >= 0; index -= 1) {
      const entry = document.entries[index] as LedgerEntry;
      const key = keyOf(entry);
      if (notWritten(document, index)) continue;
      const landedAt = UndoRun.sinceOf(document, index, finishedAt);
      if (!repeated.has(key)) {
        await writes.add(
          takeBack(entry, landedAt).then((outcome) => {
            outcomes[index] = outcome;
            counted(this.counts, outcome, 1);
          }),
        );
        continue;
      }
      await writes.finish();
      const since = this.since(this.handled.get(key), landedAt);
      const outcome = since === 'kept' ? 'kept' : await takeBack(entry, since);
      outcomes[index] = outcome;
      this.remember(key, entry, outcome, new Date().toISOString());
    }
    await writes.finish();
    return outcomes;
  }

  private async checkpoint() {
    const run = { ...this.run, ...this.counts };
    const progress = this.documents
      ? Math.min(99, Math.floor((this.done * 100) / this.documents))
      : 0;
    const checkpoint = { file: this.done, row: 0, imported: 0, processed: this.done };
    await this.save((record) => ({
      ...withRun(record, run),
      progress,
      checkpoint,
      revision: record.revision + 1,
      updatedAt: new Date().toISOString(),
    }));
    this.pacer.reset();
    if (this.record.cancelRequested) throw new Cancelled();
  }

  async undo() {
    const repeated = await this.survey();
    let cancelled = false;
    try {
      // Marks the undo as started (and sees a cancel asked for before it began).
      await this.checkpoint();
      for await (const document of ledgerDocuments(this.ctx.scope, this.record.id)) {
        if (!this.mine(document)) continue;
        if (document.undo) {
          // Taken back before a crash: its outcomes count, and tell later entries of its records.
          document.entries.forEach((entry, index) => {
            if (notWritten(document, index)) return;
            const outcome = document.undo?.outcomes[index] ?? 'gone';
            const key = keyOf(entry);
            if (repeated.has(key)) this.remember(key, entry, outcome, document.undo?.at ?? '');
            else counted(this.counts, outcome, 1);
          });
        } else {
          const resumed = document.undoStarted?.run === this.run.number;
          if (!resumed) {
            await markLedgerStarted(this.ctx.scope, document.id, {
              run: this.run.number,
              at: new Date().toISOString(),
            });
          }
          const outcomes = await this.undoDocument(document, repeated, resumed);
          await markLedgerUndone(this.ctx.scope, document.id, {
            run: this.run.number,
            at: new Date().toISOString(),
            outcomes,
          });
        }
        this.done += 1;
        if (this.pacer.row()) await this.checkpoint();
      }
    } catch (error) {
      if (!(error instanceof Cancelled)) throw error;
      cancelled = true;
    }
    await this.end(cancelled);
  }

  private async end(cancelled: boolean) {
    const at = new Date().toISOString();
    const run: UploadRun = { ...this.run, ...this.counts, finishedAt: at, cancelled };
    const { removed, restored, kept } = this.counts;
    const told = `${removed} record${removed === 1 ? '' : 's'} removed, ${restored} put back, ${kept} kept because ${kept === 1 ? 'it was' : 'they were'} changed after the import`;
    // What the upload's imports left waiting for a decision can no longer be decided for them.
    const conflictsClosed = cancelled
      ? 0
      : await closeUploadConflicts(this.ctx, this.record.id, this.run.by);
    const closed =
      conflictsClosed === 0
        ? ''
        : ` ${conflictsClosed} conflict${conflictsClosed === 1 ? '' : 's'} it left for a decision ${conflictsClosed === 1 ? 'was' : 'were'} closed.`;
    const note = cancelled
      ? `The undo was cancelled part way (${told}); Undo again to take back the rest.`
      : `Undone: ${told}.${closed}`;
    await writeAudit(this.ctx, {
      action: cancelled ? 'upload.undo-cancel' : 'upload.undo',
      entity: { type: 'upload', id: this.record.id },
      before: { status: 'processing' },
      after: { run: run.number, removed, restored, kept, cancelled, conflictsClosed },
    });
    await this.save((record) => ({
      ...withRun(record, run),
      status: cancelled ? 'error' : 'completed',
      progress: 100,
      completedDate: at,
      undone: !cancelled,
      cancelRequested: false,
      results: {
        ...record.results,
        notes: [
          ...(record.results.notes ?? []).filter((existing) => existing.kind !== 'undo'),
          { file: null, message: note, kind: 'undo' as const },
        ],
      },
      checkpoint: { file: this.done, row: 0, imported: 0, processed: this.done },
      revision: record.revision + 1,
      updatedAt: at,
    }));
  }
}

/** Undoes an upload whose run under way is an undo (see the top of this file). */
export async function undoUpload(
  ctx: RequestContext,
  record: Stored<UploadRecord>,
  definition: ImporterDefinition | undefined,
  options: { failAfterRows?: number } = {},
): Promise<void> {
  await new UndoRun(ctx, record, definition, options.failAfterRows).undo();
}
