import type { AccountScope, Stored } from '../platform/repo.js';
import type { Ledger, LedgerEntry } from './importer.js';
import { createLedgerBatch, pageLedger, type LedgerRecord } from './uploads.repo.js';

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

export class RunLedger implements Ledger {
  constructor(
    private readonly scope: AccountScope,
    private readonly uploadId: string,
    private readonly run: number,
  ) {}

  async intend(entries: LedgerEntry[]): Promise<void> {
    for (const batch of batchesOf(entries)) {
      const seq = nextSeq();
      await createLedgerBatch(this.scope, {
        id: `${this.uploadId}:${this.run}:${seq}`,
        uploadId: this.uploadId,
        run: this.run,
        seq,
        entries: batch,
        createdAt: new Date().toISOString(),
        undo: null,
      });
    }
  }
}

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
