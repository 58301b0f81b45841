import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { MAX_IMPORT_BYTES, readImportForm, sniff } from './bidder-import.service.js';

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

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the form to be refused');
    },
    (error: unknown) => error as AppError,
  );

describe('readImportForm', () => {
  it('reads the fields and every file with its name and bytes', async () => {
    const { body, contentType } = await multipart(
      { importType: 'bidders', csvMapping: '{"Surname":"lastName"}' },
      [
        { name: 'a.csv', data: 'firstName,Surname\nAnn,Lee\n' },
        { name: 'b.json', data: '[]' },
      ],
    );
    const form = await readImportForm(body, contentType);
    expect(form.fields).toEqual({ importType: 'bidders', csvMapping: '{"Surname":"lastName"}' });
    expect(form.files.map((file) => [file.name, file.data.toString()])).toEqual([
      ['a.csv', 'firstName,Surname\nAnn,Lee\n'],
      ['b.json', '[]'],
    ]);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const { body, contentType } = await multipart({}, [
      { name: 'big.csv', data: Buffer.alloc(MAX_IMPORT_BYTES, 0x61) },
    ]);
    const form = await readImportForm(body, contentType);
    expect(form.files[0]?.data.length).toBe(MAX_IMPORT_BYTES);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const { body, contentType } = await multipart({}, [
      { name: 'big.csv', data: Buffer.alloc(MAX_IMPORT_BYTES + 1, 0x61) },
    ]);
    const error = await failureOf(readImportForm(body, contentType));
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(413);
    expect(error.message).toBe('Files must be 10 MB or smaller');
  });

  it('refuses files over 10 MB in all with 413, though each is under', async () => {
    const half = Buffer.alloc(MAX_IMPORT_BYTES / 2 + 1, 0x61);
    const { body, contentType } = await multipart({}, [
      { name: 'one.csv', data: half },
      { name: 'two.csv', data: half },
    ]);
    const error = await failureOf(readImportForm(body, contentType));
    expect(error.status).toBe(413);
    expect(error.message).toBe('Files must be 10 MB or smaller in all');
  });

  it('refuses a body that is not multipart, naming files', async () => {
    const error = await failureOf(readImportForm(Buffer.from('{}'), 'application/json'));
    expect(error.status).toBe(400);
    expect(error.message).toBe('files: Send the files as multipart/form-data');
  });

  it('refuses a malformed multipart body, naming files', async () => {
    const { body, contentType } = await multipart({}, [{ name: 'a.csv', data: 'a,b\n1,2\n' }]);
    // Cut off before the closing boundary.
    const error = await failureOf(readImportForm(body.subarray(0, body.length - 40), contentType));
    expect(error.status).toBe(400);
    expect(error.message).toBe('files: The upload is malformed');
  });
});
