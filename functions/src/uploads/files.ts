import { Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import Busboy from 'busboy';
import { CsvError, parse as parseCsv } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { AppError, payloadTooLarge } from '../platform/errors.js';
import { validationError } from '../platform/validation.js';

/**
 * Reading uploaded files as they arrive, never the whole upload at once: the multipart form
 * part by part, what each file really is (by its first bytes), and the rows of a CSV or Excel
 * file one at a time. Nothing here knows what the rows mean.
 */

export type FileKind = 'csv' | 'xlsx' | 'json';

/** What the file really is, from its first bytes, whatever its name says. */
export function sniff(head: Buffer): FileKind | 'xls' | 'unknown' {
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (head.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) return 'xls';
  if (head.includes(0)) return 'unknown';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('[') || text.startsWith('{')) return 'json';
  return text.length ? 'csv' : 'unknown';
}

const SNIFF_BYTES = 8192;

const expectedKind: Record<string, FileKind | 'xls'> = {
  csv: 'csv',
  xlsx: 'xlsx',
  xls: 'xls',
  json: 'json',
};

/** The first `bytes` of a stream, and a stream of all of it (those bytes again, then the rest). */
export async function peek(
  stream: Readable,
  bytes: number,
): Promise<{ head: Buffer; all: Readable }> {
  const iterator: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const read = Buffer.concat(chunks);
  async function* replay() {
    yield read;
    while (!done) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: read.subarray(0, bytes), all: Readable.from(replay(), { objectMode: false }) };
}

/**
 * A file checked by content: a name ending .csv, .xlsx or .json must hold that, whatever the
 * browser claimed; legacy .xls is refused with advice (its only readers carry unfixed advisories).
 */
export async function openUpload(
  name: string,
  stream: Readable,
): Promise<{ kind: FileKind; stream: Readable }> {
  const extension = name.split('.').pop()?.toLowerCase() ?? '';
  const expected = expectedKind[extension];
  if (!expected) {
    throw new AppError(
      'unsupported_media_type',
      `${name}: only .csv, .xlsx, .xls and .json files can be imported`,
    );
  }
  const { head, all } = await peek(stream, SNIFF_BYTES);
  const actual = sniff(head);
  if (actual === 'xls' && expected === 'xls') {
    throw new AppError(
      'unsupported_media_type',
      `${name}: legacy Excel (.xls) files cannot be read safely. Save it as .xlsx or CSV and import that.`,
    );
  }
  if (actual === 'xls' || actual === 'unknown' || actual !== expected) {
    throw new AppError(
      'unsupported_media_type',
      `${name} does not contain what a .${extension} file should`,
    );
  }
  return { kind: actual, stream: all };
}

export interface Row {
  /** The row's number in the file as a spreadsheet shows it (the header is row 1). */
  row: number;
  values: Record<string, unknown>;
}

/**
 * The longest row a CSV file may have. The parser copies a record it has not finished once per
 * piece of the file that arrives, so an endless one would cost time growing with its square.
 */
export const MAX_CSV_ROW_CHARS = 256 * 1024;

/**
 * The parser turns all of a chunk into rows at once, and a chunk of the upload can hold a thousand
 * of them, all waiting to be read; fed a few kilobytes at a time, it keeps only the next few.
 */
const CSV_PIECE_BYTES = 4096;

const inPieces = () =>
  new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let start = 0; start < chunk.length; start += CSV_PIECE_BYTES) {
        this.push(chunk.subarray(start, start + CSV_PIECE_BYTES));
      }
      done();
    },
  });

/**
 * Names a file's column from its header (and, if it likes, the header's place among them all);
 * null leaves the column out of the rows.
 */
export type ColumnNamer = (header: string, index: number, headers: string[]) => string | null;

/** The rows of a CSV file, keyed by `columnOf(header)`, as the bytes arrive. */
export async function* csvRows(
  stream: Readable,
  columnOf: ColumnNamer,
  /** The form field the file came in, which a problem with the file names. */
  field = 'files',
): AsyncGenerator<Row> {
  const parser = parseCsv({
    bom: true,
    columns: (headers: string[]) => headers.map(columnOf),
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    max_record_size: MAX_CSV_ROW_CHARS,
  });
  // The file's own failure (too large, cut off) reaches whoever reads the rows.
  stream.on('error', (error) => parser.destroy(error));
  const pieces = inPieces();
  stream.pipe(pieces).pipe(parser);
  let row = 1;
  try {
    for await (const record of parser as AsyncIterable<Record<string, unknown>>) {
      row += 1;
      yield { row, values: record };
    }
  } catch (error) {
    // What is not CSV (a quote left open, say) is the file's fault, not a fault of Lotwise.
    if (!(error instanceof CsvError)) throw error;
    const { code, lines } = error as CsvError & { lines?: unknown };
    // Read to the end first: a file over the size limit is refused as that.
    stream.unpipe(pieces);
    stream.resume();
    await finished(stream);
    throw validationError([
      {
        location: 'body',
        field,
        message:
          code === 'CSV_MAX_RECORD_SIZE'
            ? `row ${String(lines)} is longer than ${MAX_CSV_ROW_CHARS / 1024} KB`
            : `is not valid CSV at line ${String(lines)}: ${error.message.split(':')[0] ?? code}`,
      },
    ]);
  }
}

/** The rows of an Excel workbook's first sheet, keyed by `columnOf(header)` of its first row. */
export async function* xlsxRows(stream: Readable, columnOf: ColumnNamer): AsyncGenerator<Row> {
  // The reader does not pass on a failure of what it reads, so it is watched beside it.
  const failed = finished(stream).then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => Promise.reject(error),
  );
  failed.catch(() => undefined);
  // Loaded when a workbook arrives: the reader is large, and most imports are CSV.
  const { default: excel } = await import('exceljs');
  const reader = new excel.stream.xlsx.WorkbookReader(stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Without the styles a date cell reads as its serial number, not as a date.
    styles: 'cache',
  });
  const raced = <T>(next: Promise<T>) => Promise.race([next, failed]);
  const sheets = reader[Symbol.asyncIterator]();
  const first = await raced(sheets.next());
  if (first.done) return;
  const rows = (first.value as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
  let headers: (string | null)[] | undefined;
  for (;;) {
    const next = await raced(rows.next());
    if (next.done) break;
    const sheetRow = next.value;
    const cells = (sheetRow.values as unknown[])
      .slice(1)
      .map((cell) =>
        cell && typeof cell === 'object' && 'text' in cell
          ? (cell as { text: unknown }).text
          : cell,
      );
    if (!headers) {
      headers = cells.map((cell) => String(cell ?? '')).map(columnOf);
      continue;
    }
    const values: Record<string, unknown> = {};
    headers.forEach((header, index) => {
      if (header !== null) values[header] = cells[index] ?? '';
    });
    yield { row: sheetRow.number, values };
  }
  // Only the first sheet is read; the rest of the file is read and dropped.
  stream.unpipe();
  stream.resume();
}

/** All of a (size-limited) file, for formats that cannot be read a piece at a time. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface FormLimits {
  /** The most any one file may hold, and all of them together. */
  maxBytes: number;
  files: number;
  fields: number;
  /** The form field the files come in, which a problem with the form names; `files` by default. */
  field?: string;
}

export type FormPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; field: string; name: string; stream: Readable };

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * A multipart form's parts in the order they arrive. Each file is a stream that must be read (or
 * let go) before the next part comes; one that grows past the limit, alone or with the files
 * before it, fails with 413 as soon as it does, and a form cut off fails with 400.
 */
export async function* readForm(
  body: Readable,
  contentType: string,
  limits: FormLimits,
): AsyncGenerator<FormPart> {
  const field = limits.field ?? 'files';
  const malformed = () =>
    validationError([{ location: 'body', field, message: 'The upload is malformed' }]);
  let parser: Busboy.Busboy;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      // One byte beyond the limit, so that a file of exactly the limit passes and a larger one
      // is seen to be larger.
      limits: { fileSize: limits.maxBytes + 1, files: limits.files, fields: limits.fields },
    });
  } catch {
    throw validationError([
      { location: 'body', field, message: 'Send the files as multipart/form-data' },
    ]);
  }
  const parts: FormPart[] = [];
  let failure: unknown;
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  let total = 0;
  parser.on('field', (name, value) => {
    parts.push({ kind: 'field', name, value });
    notify();
  });
  parser.on('file', (name, file, info) => {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        total += chunk.length;
        if (size > limits.maxBytes) {
          done(payloadTooLarge(`Files must be ${megabytes(limits.maxBytes)} or smaller`));
        } else if (total > limits.maxBytes) {
          done(payloadTooLarge(`Files must be ${megabytes(limits.maxBytes)} or smaller in all`));
        } else {
          done(null, chunk);
        }
      },
    });
    // A form cut off inside a file fails the file's stream too: its reader hears why.
    file.on('error', () => counted.destroy(malformed()));
    file.pipe(counted);
    // Whoever reads the file hears its failure; this only keeps one nobody reads any more from
    // taking the host down.
    counted.on('error', (error) => {
      failure ??= error;
      notify();
    });
    parts.push({ kind: 'file', field: name, name: info.filename ?? 'upload', stream: counted });
    notify();
  });
  // Busboy drops the files past its limit without a word: refuse the form instead.
  parser.on('filesLimit', () => {
    failure ??= validationError([
      { location: 'body', field, message: `Send at most ${limits.files} files at once` },
    ]);
    notify();
  });
  parser.on('error', () => {
    failure ??= malformed();
    notify();
  });
  parser.on('close', () => {
    closed = true;
    notify();
  });
  body.on('error', () => {
    failure ??= malformed();
    notify();
  });
  body.pipe(parser);
  try {
    for (;;) {
      const next = parts.shift();
      if (next) {
        yield next;
        continue;
      }
      if (failure) throw failure;
      if (closed) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    // Whatever is left of the body is read and dropped, so the reply can still be sent.
    body.unpipe(parser);
    body.resume();
  }
}
