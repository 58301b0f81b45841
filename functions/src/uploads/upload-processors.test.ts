import { Readable } from 'node:stream';
import { CsvError } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { validationError } from '../platform/validation.js';
import {
  csvCell,
  dataRows,
  doneBefore,
  errorReport,
  errorReportLine,
  FileProblem,
  fileProblemOf,
  jsonArrayItems,
  NotAnArray,
  Pacer,
  progressOf,
  rowDocumentId,
} from './upload-processors.js';

/** A text in pieces of `size` bytes, as a blob's stream may cut it (even inside a character). */
function pieces(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size)
    chunks.push(bytes.subarray(start, start + size));
  return Readable.from(chunks);
}

async function items(text: string, key: string | null = null, size = 3, max?: number) {
  const found: unknown[] = [];
  for await (const item of jsonArrayItems(pieces(text, size), key, max)) found.push(item);
  return found;
}

describe('jsonArrayItems', () => {
  const document = [
    { name: 'Ana "the [best]"', tags: ['a,b', '}'], address: { city: 'Zürich' } },
    7,
    'text, with ] and \\ and "',
    null,
    [1, [2, 3]],
  ];

  it('reads a root array item by item, whatever the pieces the bytes arrive in', async () => {
    const text = `\uFEFF  ${JSON.stringify(document, null, 2)}\n`;
    for (const size of [1, 2, 5, 64, 100_000]) {
      expect(await items(text, null, size)).toEqual(document);
    }
  });

  it('reads the array under a key of the root object, past other keys', async () => {
    const text = JSON.stringify({
      meta: { bidders: 'not this', list: [1] },
      note: 'bidders',
      bidders: document,
      after: [9],
    });
    expect(await items(text, 'bidders', 4)).toEqual(document);
    await expect(items(text, 'other')).rejects.toBeInstanceOf(NotAnArray);
  });

  it('answers nothing for an empty array', async () => {
    expect(await items('[ ]')).toEqual([]);
    expect(await items('{"bidders": []}', 'bidders')).toEqual([]);
  });

  it('tells a JSON that is not an array from a file that is not JSON', async () => {
    await expect(items('{"a": 1}')).rejects.toBeInstanceOf(NotAnArray);
    await expect(items('42')).rejects.toBeInstanceOf(NotAnArray);
    await expect(items('[{"a": 1}, {"a" 2}]')).rejects.toThrow('is not valid JSON (item 2)');
    await expect(items('[{"a": 1}, {"a": 2')).rejects.toThrow('cut off');
    await expect(items('[1] [2]')).rejects.toThrow('is not valid JSON');
    await expect(items('')).rejects.toThrow('is empty');
    const problem = await items('[1,', null).catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(FileProblem);
    expect(problem).not.toBeInstanceOf(NotAnArray);
  });

  it('refuses an item longer than the limit instead of holding it', async () => {
    const long = JSON.stringify([{ a: 'x'.repeat(5000) }]);
    await expect(items(long, null, 100, 1024)).rejects.toThrow('item 1 is longer than 1 KB');
  });
});

describe('dataRows', () => {
  const reading = {
    columnOf: (header: string) => header.toLowerCase(),
    jsonValues: (item: unknown) => item as Record<string, unknown>,
    jsonKey: null,
  };

  it('numbers data rows from 1, the header being row 0', async () => {
    const rows = [];
    for await (const row of dataRows('csv', pieces('Name,City\nAna,Oslo\n\nBo,Rome\n', 5), reading))
      rows.push(row);
    expect(rows).toEqual([
      { row: 1, values: { name: 'Ana', city: 'Oslo' } },
      { row: 2, values: { name: 'Bo', city: 'Rome' } },
    ]);
    const json = [];
    for await (const row of dataRows('json', pieces('[{"a":1},{"a":2}]', 4), reading))
      json.push(row);
    expect(json).toEqual([
      { row: 1, values: { a: 1 } },
      { row: 2, values: { a: 2 } },
    ]);
  });
});

describe('checkpoints', () => {
  it('skips only the rows done before the checkpoint', () => {
    const checkpoint = { file: 1, row: 40, imported: 30, processed: 140 };
    expect(doneBefore(null, 0, 1)).toBe(false);
    expect(doneBefore(checkpoint, 0, 999)).toBe(true);
    expect(doneBefore(checkpoint, 1, 40)).toBe(true);
    expect(doneBefore(checkpoint, 1, 41)).toBe(false);
    expect(doneBefore(checkpoint, 2, 1)).toBe(false);
  });

  it('is due every N rows or after the interval, whichever comes first', () => {
    let now = 0;
    const pacer = new Pacer(() => now, 3, 1000);
    expect([pacer.row(), pacer.row(), pacer.row()]).toEqual([false, false, true]);
    pacer.reset();
    expect(pacer.row()).toBe(false);
    now = 1000;
    expect(pacer.row()).toBe(true);
    pacer.reset();
    expect(pacer.row()).toBe(false);
  });

  it('reports progress by bytes, below 100 until the upload is finished', () => {
    expect(progressOf(0, 0)).toBe(0);
    expect(progressOf(50, 200)).toBe(25);
    expect(progressOf(200, 200)).toBe(99);
    expect(progressOf(300, 200)).toBe(99);
  });

  it('gives each row of an upload its own stable document id', () => {
    const id = rowDocumentId('upload-1', 0, 7);
    expect(id).toBe(rowDocumentId('upload-1', 0, 7));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(
      new Set([
        id,
        rowDocumentId('upload-1', 0, 8),
        rowDocumentId('upload-1', 1, 7),
        rowDocumentId('upload-2', 0, 7),
      ]).size,
    ).toBe(4);
  });
});

describe('file problems', () => {
  it('blames the file for its content and the platform for a failed read', () => {
    expect(fileProblemOf(new FileProblem('is not valid JSON'), false)).toBe('is not valid JSON');
    expect(
      fileProblemOf(
        validationError([{ location: 'body', field: 'file', message: 'row 3 is too long' }]),
        false,
      ),
    ).toBe('row 3 is too long');
    expect(fileProblemOf(new CsvError('CSV_QUOTE_NOT_CLOSED', 'Quote Not Closed'), false)).toMatch(
      /^is not valid CSV/,
    );
    expect(fileProblemOf(new Error('corrupted zip'), false)).toBe(
      'could not be read: corrupted zip',
    );
    expect(fileProblemOf(new Error('socket hang up'), true)).toBeNull();
    expect(fileProblemOf(new AppError('service_unavailable', 'down'), false)).toBeNull();
  });
});

describe('error report', () => {
  it('writes one CSV line per error, quoted where needed and never a formula', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(
      errorReportLine({ file: 'b.csv', row: 4, field: 'email', message: 'Invalid email, sorry' }),
    ).toBe('b.csv,4,email,"Invalid email, sorry"\r\n');
    expect(errorReportLine({ file: 'x.pdf', row: null, field: null, message: 'gone' })).toBe(
      'x.pdf,,,gone\r\n',
    );
  });

  it('streams any number of errors in chunks', async () => {
    async function* many() {
      for (let row = 1; row <= 1200; row += 1)
        yield { file: 'f.csv', row, field: 'email', message: 'bad' };
    }
    const chunks: string[] = [];
    for await (const chunk of errorReport(many())) chunks.push(String(chunk));
    const lines = chunks.join('').split('\r\n');
    expect(lines[0]).toBe('file,row,field,message');
    expect(lines[1200]).toBe('f.csv,1200,email,bad');
    expect(lines).toHaveLength(1202);
    expect(chunks.length).toBeGreaterThan(2);
  });
});
