import { describe, expect, it } from 'vitest';
import {
  clippedMessage,
  errorBatches,
  errorBatchSeq,
  MAX_ERROR_MESSAGE_CHARS,
  mergedErrors,
} from './upload-errors.js';
import type { StoredUploadError } from './uploads.repo.js';

const error = (file: number, row: number | null, message = 'is required'): StoredUploadError => ({
  file,
  row,
  field: row === null ? null : 'title',
  message,
});

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

async function* stream<T>(items: T[]) {
  for (const item of items) yield await Promise.resolve(item);
}

describe('errorBatches', () => {
  it('orders a checkpoint’s errors by file and row, a file’s own problem after its rows', () => {
    const [batch, ...others] = errorBatches(
      [error(1, 4), error(0, null), error(0, 9), error(1, 2), error(0, 3)],
      { id: 'u1', run: 2 },
      { file: 1, row: 4 },
      '2026-01-01T00:00:00.000Z',
    );
    expect(others).toEqual([]);
    expect(batch?.errors.map((found) => [found.file, found.row])).toEqual([
      [0, 3],
      [0, 9],
      [0, null],
      [1, 2],
      [1, 4],
    ]);
    expect(batch).toMatchObject({ kind: 'upload-errors', uploadId: 'u1', run: 2 });
    expect(batch?.id).toBe(`u1:errors:2:${batch?.seq}`);
  });

  it('cuts long lists into parts whose places follow one another, and writes nothing for none', () => {
    const long = 'x'.repeat(MAX_ERROR_MESSAGE_CHARS);
    const errors = Array.from({ length: 600 }, (_, index) => error(0, index + 1, long));
    const batches = errorBatches(errors, { id: 'u1', run: 1 }, { file: 0, row: 600 }, 'now');
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flatMap((batch) => batch.errors)).toEqual(errors);
    const seqs = batches.map((batch) => batch.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(batches.map((batch) => batch.id)).size).toBe(batches.length);
    expect(errorBatches([], { id: 'u1', run: 1 }, { file: 0, row: 1 }, 'now')).toEqual([]);
  });

  it('places a later checkpoint after an earlier one, across files and rows', () => {
    const places = [
      errorBatchSeq({ file: 0, row: 500 }, 3),
      errorBatchSeq({ file: 0, row: 501 }, 0),
      errorBatchSeq({ file: 1, row: 0 }, 0),
      errorBatchSeq({ file: 1, row: 200_000 }, 0),
      errorBatchSeq({ file: 50, row: 0 }, 0),
    ];
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(Number.isSafeInteger(errorBatchSeq({ file: 50, row: 2 ** 31 - 1 }, 1023))).toBe(true);
  });
});

describe('mergedErrors', () => {
  it('gives each error of the list and of the batches once, in the order of files and rows', async () => {
    const listed = [error(0, 7), error(0, 2), error(1, 1)];
    const later = [error(0, 3), error(0, 9), error(1, 5), error(1, null), error(2, 1)];
    const merged = await all(mergedErrors(listed, stream(later)));
    expect(merged.map((found) => [found.file, found.row])).toEqual([
      [0, 2],
      [0, 3],
      [0, 7],
      [0, 9],
      [1, 1],
      [1, 5],
      [1, null],
      [2, 1],
    ]);
  });

  it('gives the list alone when nothing was stored, and the batches alone with no list', async () => {
    expect(await all(mergedErrors([error(0, 2), error(0, 1)], stream([])))).toEqual([
      error(0, 1),
      error(0, 2),
    ]);
    expect(await all(mergedErrors([], stream([error(0, 1)])))).toEqual([error(0, 1)]);
  });
});

describe('clippedMessage', () => {
  it('keeps a message up to the limit and cuts a longer one', () => {
    const exact = 'm'.repeat(MAX_ERROR_MESSAGE_CHARS);
    expect(clippedMessage(exact)).toBe(exact);
    const cut = clippedMessage(`"${'a'.repeat(5000)}" is not a category`);
    expect(cut).toHaveLength(MAX_ERROR_MESSAGE_CHARS);
    expect(cut.endsWith('…')).toBe(true);
  });
});
