import type { AccountScope, Stored } from '../platform/repo.js';
import type { Ledger, LedgerEntity, LedgerEntry } from './importer.js';
import {
  createLedgerBatch,
  markLedgerLanded,
  pageLedger,
  type LandedMark,
  type LedgerRecord,
} from './uploads.repo.js';

/**
 * The ledger a run's importer records its intents in before it writes: one document per batch
 * of entries (an importer's write batch), never one per row.
 */

/** Entries per ledger document, and the most JSON one holds (Cosmos takes 2 MB a document). */
const MAX_ENTRIES = 100;
const MAX_DOCUMENT_CHARS = 1024 * 1024;
/** Ledger documents read at a time by an undo. */
const LEDGER_PAGE = 20;

let lastSeq = 0;

/**
 * Rising numbers in the order documents are written, also across a crash and the resumed run
 * (microseconds of the clock, never the same twice in a process).
 */
function nextSeq() {
  lastSeq = Math.max(Date.now() * 1000, lastSeq + 1);
  return lastSeq;
}

/** Entries in documents of at most MAX_ENTRIES and about MAX_DOCUMENT_CHARS each. */
function* batchesOf(entries: LedgerEntry[]): Generator<LedgerEntry[]> {
  let batch: LedgerEntry[] = [];
  let chars = 0;
  for (const entry of entries) {
    const size = entry.before === null ? 100 : JSON.stringify(entry).length;
    if (batch.length && (batch.length >= MAX_ENTRIES || chars + size > MAX_DOCUMENT_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(entry);
    chars += size;
  }
  if (batch.length) yield batch;
}

const keyOf = (entity: LedgerEntity, id: string) => `${entity}/${id}`;

/**
 * A run's ledger. What became of each write is told as it happens and kept in memory, then
 * stored with its document by `commit` (at each checkpoint, after the importer has landed every
 * write it started): one patch per document, not one per row. A crash loses only the marks since
 * the last checkpoint; their entries stay unmarked, and an undo judges them by the run's end.
 */
export class RunLedger implements Ledger {
  /** Each record's intents not yet marked, oldest first: the document and the entry's place. */
  private readonly open = new Map<string, { document: string; index: number }[]>();
  /** The marks of documents written or marked since the last commit. */
  private readonly marks = new Map<string, LandedMark[]>();
  private readonly changed = new Set<string>();

  constructor(
    private readonly scope: AccountScope,
    private readonly uploadId: string,
    private readonly run: number,
  ) {}

  async intend(entries: LedgerEntry[]): Promise<void> {
    for (const batch of batchesOf(entries)) {
      const seq = nextSeq();
      const id = `${this.uploadId}:${this.run}:${seq}`;
      await createLedgerBatch(this.scope, {
        id,
        uploadId: this.uploadId,
        run: this.run,
        seq,
        entries: batch,
        createdAt: new Date().toISOString(),
        undo: null,
      });
      this.marks.set(id, new Array<LandedMark>(batch.length).fill(null));
      batch.forEach((entry, index) => {
        const key = keyOf(entry.entity, entry.id);
        const open = this.open.get(key);
        if (open) open.push({ document: id, index });
        else this.open.set(key, [{ document: id, index }]);
      });
    }
  }

  landed(entity: LedgerEntity, id: string) {
    this.mark(entity, id, new Date().toISOString());
  }

  skipped(entity: LedgerEntity, id: string) {
    this.mark(entity, id, false);
  }

  private mark(entity: LedgerEntity, id: string, mark: LandedMark) {
    const key = keyOf(entity, id);
    const open = this.open.get(key);
    const place = open?.shift();
    if (!place) return;
    if (open?.length === 0) this.open.delete(key);
    const marks = this.marks.get(place.document);
    if (!marks) return;
    marks[place.index] = mark;
    this.changed.add(place.document);
  }

  /** The intents this run stored before it was stopped and resumed (but not those not written). */
  async *earlier(): AsyncGenerator<LedgerEntry> {
    for await (const document of ledgerDocuments(this.scope, this.uploadId)) {
      // Newest run first: the documents of this run come before all others.
      if (document.run < this.run) return;
      if (document.run !== this.run) continue;
      for (const [index, entry] of document.entries.entries()) {
        if (!notWritten(document, index)) yield entry;
      }
    }
  }

  /** Stores the marks told since the last commit; intents still open stay unmarked. */
  async commit(): Promise<void> {
    for (const document of this.changed) {
      await markLedgerLanded(this.scope, document, this.marks.get(document) ?? []);
    }
    this.changed.clear();
    this.marks.clear();
    this.open.clear();
  }
}

/** Whether a document's entry was marked as not written (its write was refused or not made). */
export const notWritten = (document: LedgerRecord, index: number) =>
  document.landed?.[index] === false;

/** An upload's ledger documents, newest first, a page at a time. */
export async function* ledgerDocuments(
  scope: AccountScope,
  uploadId: string,
): AsyncGenerator<Stored<LedgerRecord>> {
  let continuationToken: string | undefined;
  do {
    const page = await pageLedger(scope, uploadId, LEDGER_PAGE, continuationToken);
    yield* page.items;
    continuationToken = page.continuationToken;
  } while (continuationToken);
}
