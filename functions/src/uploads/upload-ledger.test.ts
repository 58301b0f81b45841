import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LandedMark } from './uploads.repo.js';

const store = vi.hoisted(() => ({
  created: [] as { id: string; entries: { id: string }[] }[],
  marked: new Map<string, LandedMark[]>(),
  pages: [] as { run: number; entries: { id: string }[]; landed?: LandedMark[] }[],
}));

vi.mock('./uploads.repo.js', () => ({
  createLedgerBatch: (_scope: unknown, document: { id: string; entries: { id: string }[] }) => {
    store.created.push(document);
    return Promise.resolve(document);
  },
  markLedgerLanded: (_scope: unknown, id: string, landed: LandedMark[]) => {
    store.marked.set(id, [...landed]);
    return Promise.resolve();
  },
  pageLedger: () => Promise.resolve({ items: store.pages }),
}));

const { RunLedger } = await import('./upload-ledger.js');

const bidder = (id: string) => ({ entity: 'bidder' as const, id, before: null });

describe('RunLedger', () => {
  beforeEach(() => {
    store.created = [];
    store.marked.clear();
  });

  it("marks each record's oldest open intent, and stores the marks once per document", async () => {
    const ledger = new RunLedger({ accountId: 'a1' }, 'u1', 1);
    await ledger.intend([bidder('x'), bidder('y'), bidder('z')]);
    // The update of x was refused over its version and its intent recorded anew.
    await ledger.intend([bidder('x')]);
    const [first, second] = store.created.map((document) => document.id);
    ledger.skipped('bidder', 'x');
    ledger.landed('bidder', 'x');
    ledger.landed('bidder', 'y');
    // A mark for a record with no open intent changes nothing.
    ledger.landed('bidder', 'nobody');
    expect(store.marked.size).toBe(0);
    await ledger.commit();

    const firstMarks = store.marked.get(first as string) ?? [];
    expect(firstMarks[0]).toBe(false);
    expect(typeof firstMarks[1]).toBe('string');
    // z's write was never told of (the run stopped with it under way): it stays unmarked.
    expect(firstMarks[2]).toBeNull();
    expect(store.marked.get(second as string)).toEqual([expect.any(String)]);

    // A commit with nothing new writes nothing; intents left open are not marked later.
    store.marked.clear();
    ledger.landed('bidder', 'z');
    await ledger.commit();
    expect(store.marked.size).toBe(0);
  });

  it('answers what this run recorded before it was resumed, without the intents not written', async () => {
    store.pages = [
      { run: 2, entries: [bidder('a'), bidder('b')], landed: ['2026-11-25T10:00:00.000Z', false] },
      { run: 2, entries: [bidder('c')] },
      { run: 1, entries: [bidder('old')] },
    ];
    const seen: string[] = [];
    for await (const entry of new RunLedger({ accountId: 'a1' }, 'u1', 2).earlier()) {
      seen.push(entry.id);
    }
    expect(seen).toEqual(['a', 'c']);
  });
});
