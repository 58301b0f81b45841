import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { csvRows, openUpload, readAll, readForm, sniff, type FormPart } from './files.js';

const MB = 1024 * 1024;

describe('sniff', () => {
  it('knows an .xlsx (a zip) and a legacy .xls (OLE) by their first bytes', () => {
    expect(sniff(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toBe('xlsx');
    expect(sniff(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe('xls');
  });

  it('takes text opening with [ or { as JSON, past a byte-order mark and blank space', () => {
    expect(sniff(Buffer.from('[{"firstName":"Ann"}]'))).toBe('json');
    expect(sniff(Buffer.from('\uFEFF  \n {"bidders": []}'))).toBe('json');
  });

  it('takes other text as CSV', () => {
    expect(sniff(Buffer.from('firstName,lastName,email\nAnn,Lee,ann@example.com\n'))).toBe('csv');
    expect(sniff(Buffer.from('\uFEFFfirstName;lastName'))).toBe('csv');
  });

  it('refuses binary and empty content', () => {
    expect(sniff(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]))).toBe('unknown');
    expect(sniff(Buffer.from('name,email\nAnn\u0000,x'))).toBe('unknown');
    expect(sniff(Buffer.alloc(0))).toBe('unknown');
    expect(sniff(Buffer.from('   \n\t'))).toBe('unknown');
    // A zip that is not a local file header is not an .xlsx.
    expect(sniff(Buffer.from([0x50, 0x4b, 0x05, 0x06, 0x00]))).toBe('unknown');
  });
});

/** A stream that hands over `data` in small pieces, as a network would. */
const trickle = (data: Buffer, piece = 1000) =>
  Readable.from(
    (function* () {
      for (let start = 0; start < data.length; start += piece)
        yield data.subarray(start, start + piece);
    })(),
    { objectMode: false },
  );

describe('openUpload', () => {
  it('answers the kind and the whole file, the bytes it looked at included', async () => {
    const text = `firstName,lastName\n${'Ann,Lee\n'.repeat(5000)}`;
    const file = await openUpload('people.csv', trickle(Buffer.from(text)));
    expect(file.kind).toBe('csv');
    expect((await readAll(file.stream)).toString()).toBe(text);
  });

  it('refuses a name it does not read, content unlike the name, and legacy .xls', async () => {
    const failure = (name: string, data: Buffer) =>
      openUpload(name, trickle(data)).then(
        () => undefined,
        (error: unknown) => error as AppError,
      );
    const txt = await failure('a.txt', Buffer.from('a,b\n'));
    expect([txt?.status, txt?.message]).toEqual([
      415,
      'a.txt: only .csv, .xlsx, .xls and .json files can be imported',
    ]);
    const renamed = await failure('a.xlsx', Buffer.from('a,b\n'));
    expect([renamed?.status, renamed?.message]).toEqual([
      415,
      'a.xlsx does not contain what a .xlsx file should',
    ]);
    const xls = await failure('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]));
    expect(xls?.status).toBe(415);
    expect(xls?.message).toMatch(/^old\.xls: legacy Excel/);
  });
});

describe('csvRows', () => {
  it('yields each row as it is read, numbered as a spreadsheet numbers it', async () => {
    const rows = [];
    for await (const row of csvRows(
      trickle(Buffer.from('First,Last\nAnn,Lee\n\nBo,Ng\n'), 3),
      (header) => header.toLowerCase(),
    )) {
      rows.push(row);
    }
    expect(rows).toEqual([
      { row: 2, values: { first: 'Ann', last: 'Lee' } },
      { row: 3, values: { first: 'Bo', last: 'Ng' } },
    ]);
  });

  it('refuses a row longer than 256 KB quickly, naming it', async () => {
    const started = performance.now();
    const rows = csvRows(
      trickle(Buffer.from(`a,b\n1,2\n3,${'x'.repeat(2 * MB)}\n`), 16 * 1024),
      (header) => header,
    );
    const error = await (async () => {
      for await (const _row of rows);
    })().then(
      () => undefined,
      (failure: unknown) => failure as AppError,
    );
    expect([error?.status, error?.message]).toEqual([400, 'files: row 3 is longer than 256 KB']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses what is not CSV as a fault of the file (400), naming the line and the field', async () => {
    const rows = csvRows(trickle(Buffer.from('a,b\n1,2\n"x"y,3\n4,5\n')), (h) => h, 'file');
    const error = await (async () => {
      for await (const _row of rows);
    })().then(
      () => undefined,
      (failure: unknown) => failure as AppError,
    );
    expect([error?.status, error?.message]).toEqual([
      400,
      'file: is not valid CSV at line 3: Invalid Closing Quote',
    ]);
  });

  it('fails with the failure of what it reads', async () => {
    const source = new Readable({ read() {} });
    // The parser hands over a row once the next one begins.
    source.push('a,b\n1,2\n3,4\n');
    const rows = csvRows(source, (header) => header);
    await expect(rows.next()).resolves.toMatchObject({ value: { values: { a: '1', b: '2' } } });
    source.destroy(new AppError('payload_too_large', 'too much'));
    await expect(rows.next()).rejects.toThrow('too much');
  });
});

/** A real multipart body and its content type, as a browser would send them. */
async function multipart(
  fields: Record<string, string>,
  files: { name: string; data: Buffer | string }[],
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('files', new Blob([file.data]), file.name);
  const request = new Request('http://localhost/upload', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') as string,
  };
}

const limits = { maxBytes: 10 * MB, files: 10, fields: 20 };

/** Every part of a form, each file read whole, as a reader that keeps up would. */
async function partsOf(body: Buffer, contentType: string) {
  const parts: (
    Exclude<FormPart, { kind: 'file' }> | { kind: 'file'; name: string; data: string }
  )[] = [];
  for await (const part of readForm(trickle(body, 64 * 1024), contentType, limits)) {
    parts.push(
      part.kind === 'file'
        ? { kind: 'file', name: part.name, data: (await readAll(part.stream)).toString() }
        : part,
    );
  }
  return parts;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the form to be refused');
    },
    (error: unknown) => error as AppError,
  );

describe('readForm', () => {
  it('hands over the fields and each file in the order they come', async () => {
    const { body, contentType } = await multipart(
      { importType: 'bidders', csvMapping: '{"Surname":"lastName"}' },
      [
        { name: 'a.csv', data: 'firstName,Surname\nAnn,Lee\n' },
        { name: 'b.json', data: '[]' },
      ],
    );
    expect(await partsOf(body, contentType)).toEqual([
      { kind: 'field', name: 'importType', value: 'bidders' },
      { kind: 'field', name: 'csvMapping', value: '{"Surname":"lastName"}' },
      { kind: 'file', name: 'a.csv', data: 'firstName,Surname\nAnn,Lee\n' },
      { kind: 'file', name: 'b.json', data: '[]' },
    ]);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const { body, contentType } = await multipart({}, [
      { name: 'big.csv', data: Buffer.alloc(10 * MB, 0x61) },
    ]);
    const [file] = await partsOf(body, contentType);
    expect(file?.kind === 'file' && file.data.length).toBe(10 * MB);
  });

  it('fails a file over 10 MB with 413 as it passes the limit', async () => {
    const { body, contentType } = await multipart({}, [
      { name: 'big.csv', data: Buffer.alloc(10 * MB + 1, 0x61) },
    ]);
    const error = await failureOf(partsOf(body, contentType));
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(413);
    expect(error.message).toBe('Files must be 10 MB or smaller');
  });

  it('fails files over 10 MB in all with 413, though each is under', async () => {
    const half = Buffer.alloc(5 * MB + 1, 0x61);
    const { body, contentType } = await multipart({}, [
      { name: 'one.csv', data: half },
      { name: 'two.csv', data: half },
    ]);
    const error = await failureOf(partsOf(body, contentType));
    expect(error.status).toBe(413);
    expect(error.message).toBe('Files must be 10 MB or smaller in all');
  });

  it('refuses more files than the limit rather than dropping the rest', async () => {
    const { body, contentType } = await multipart(
      {},
      Array.from({ length: limits.files + 1 }, (_, index) => ({
        name: `${index}.csv`,
        data: 'a\n',
      })),
    );
    const error = await failureOf(partsOf(body, contentType));
    expect(error.status).toBe(400);
    expect(error.message).toBe('files: Send at most 10 files at once');
  });

  it('refuses a body that is not multipart, naming files', async () => {
    const error = await failureOf(partsOf(Buffer.from('{}'), 'application/json'));
    expect(error.status).toBe(400);
    expect(error.message).toBe('files: Send the files as multipart/form-data');
  });

  it('refuses a form cut off before its end, naming files', async () => {
    const { body, contentType } = await multipart({}, [{ name: 'a.csv', data: 'a,b\n1,2\n' }]);
    const error = await failureOf(partsOf(body.subarray(0, body.length - 40), contentType));
    expect(error.status).toBe(400);
    expect(error.message).toBe('files: The upload is malformed');
  });

  it('lets go of the rest of the body when its reader stops early', async () => {
    const { body, contentType } = await multipart({}, [
      { name: 'a.csv', data: Buffer.alloc(2 * MB, 0x61) },
      { name: 'b.csv', data: 'x' },
    ]);
    const source = trickle(body, 64 * 1024);
    for await (const part of readForm(source, contentType, limits)) {
      expect(part.kind).toBe('file');
      break;
    }
    await new Promise<void>((resolve) => source.once('end', resolve));
    expect(source.readableEnded).toBe(true);
  });
});
