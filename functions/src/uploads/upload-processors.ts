import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CsvError } from 'csv-parse';
import { AppError } from '../platform/errors.js';
import { csvRows, xlsxRows, type ColumnNamer } from './files.js';
import type { FileFormat, UploadError } from './uploads.schema.js';

/**
 * The pure parts of the upload worker: reading a stored file's rows as they stream in (CSV,
 * Excel, JSON arrays), telling a file's own problem from a failure of the platform, where a
 * resumed run picks up, when the next checkpoint is due, and the error report's CSV lines.
 */

/** Where a run got to: rows up to `row` of file `file` are done, with the counts at that point. */
export interface Checkpoint {
  file: number;
  /** 1-based data row (the header is row 0); 0 before the file's first row. */
  row: number;
  imported: number;
  processed: number;
}

/** Whether a row was done before the checkpoint, so a resumed run skips it. */
export const doneBefore = (checkpoint: Checkpoint | null, file: number, row: number) =>
  checkpoint !== null &&
  (file < checkpoint.file || (file === checkpoint.file && row <= checkpoint.row));

/** At most this many rows between checkpoints: what a resumed run may find written already. */
export const CHECKPOINT_ROWS = 500;
/** At most this long between progress writes while rows are flowing. */
export const CHECKPOINT_MS = 1500;

/** Decides when the next checkpoint (and progress write) is due: every N rows or every ~1.5 s. */
export class Pacer {
  private rows = 0;
  private last: number;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly everyRows = CHECKPOINT_ROWS,
    private readonly everyMs = CHECKPOINT_MS,
  ) {
    this.last = now();
  }

  /** Counts a row; true when a checkpoint is due after it. */
  row(): boolean {
    this.rows += 1;
    return this.rows >= this.everyRows || this.now() - this.last >= this.everyMs;
  }

  /** A checkpoint was written. */
  reset() {
    this.rows = 0;
    this.last = this.now();
  }
}

/** 0-99 while processing (100 is for the finished upload), from the bytes read of all files. */
export function progressOf(bytesRead: number, totalBytes: number): number {
  if (totalBytes <= 0) return 0;
  return Math.max(0, Math.min(99, Math.floor((bytesRead * 100) / totalBytes)));
}

const NAMESPACE = Buffer.from('6f1c2a4e9b3d4c5e8f7a1b2c3d4e5f60', 'hex');

/**
 * The document id of the record an upload's row becomes: a name-based UUID (version 5) of the
 * upload, file and row, so writing the row again (a resumed run) targets the same document and
 * is refused as already there instead of adding a second one.
 */
export function rowDocumentId(uploadId: string, file: number, row: number): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${uploadId}/${file}/${row}`).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A file's content is not what it should be; the message names the problem. */
export class FileProblem extends Error {}

/** The file is JSON but not an array (nor an object holding the array asked for). */
export class NotAnArray extends FileProblem {}

/** The longest JSON item read: one beyond it would be held whole only to be refused. */
export const MAX_JSON_ITEM_CHARS = 1024 * 1024;

const isSpace = (char: string) => char === ' ' || char === '\n' || char === '\r' || char === '\t';

/**
 * The items of a JSON array as the file streams in, parsed one at a time: the file's root array,
 * or (for `key`) the array under that key of the root object. Never holds more than one item.
 */
export async function* jsonArrayItems(
  stream: AsyncIterable<Buffer | string>,
  key: string | null = null,
  maxItemChars = MAX_JSON_ITEM_CHARS,
): AsyncGenerator<unknown> {
  const decoder = new StringDecoder('utf8');
  let root: '[' | '{' | null = null;
  let rootClosed = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** The depth at which the target array's items start; 0 when not inside it. */
  let itemDepth = 0;
  let arrayFound = false;
  let arrayDone = false;
  let item: string[] = [];
  let itemChars = 0;
  let inItem = false;
  let items = 0;
  /** A string at the root object's own level: its last one is the key a value belongs to. */
  let keyParts: string[] | null = null;
  let lastKey: string | null = null;
  let started = false;

  const emit = (text: string) => {
    items += 1;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new FileProblem(`is not valid JSON (item ${items})`);
    }
  };

  for await (const chunk of stream) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (!started && text.length) {
      text = text.replace(/^\uFEFF/, '');
      started = true;
    }
    let itemStart = inItem ? 0 : -1;
    let keyStart = keyParts ? 0 : -1;
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index] as string;
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') {
          inString = false;
          if (keyParts) {
            keyParts.push(text.slice(keyStart, index));
            lastKey = keyParts.join('');
            keyParts = null;
            keyStart = -1;
          }
        }
        continue;
      }
      if (isSpace(char)) continue;
      if (depth === 0) {
        if (rootClosed || root) throw new FileProblem('is not valid JSON');
        if (char === '[') {
          root = '[';
          depth = 1;
          itemDepth = 1;
          arrayFound = true;
          continue;
        }
        if (char === '{') {
          root = '{';
          depth = 1;
          continue;
        }
        throw new NotAnArray('is JSON but not an array');
      }
      if (itemDepth && depth === itemDepth) {
        if (!inItem) {
          if (char === ']') {
            depth -= 1;
            itemDepth = 0;
            arrayDone = true;
            if (depth === 0) rootClosed = true;
            continue;
          }
          if (char === ',') continue;
          inItem = true;
          itemStart = index;
        } else if (char === ',' || char === ']') {
          item.push(text.slice(itemStart, index));
          const value = emit(item.join(''));
          item = [];
          itemChars = 0;
          inItem = false;
          itemStart = -1;
          yield value;
          if (char === ']') {
            depth -= 1;
            itemDepth = 0;
            arrayDone = true;
            if (depth === 0) rootClosed = true;
          }
          continue;
        }
      }
      if (char === '"') {
        inString = true;
        if (root === '{' && depth === 1) {
          keyParts = [];
          keyStart = index + 1;
        }
        continue;
      }
      if (char === '{' || char === '[') {
        if (
          char === '[' &&
          root === '{' &&
          depth === 1 &&
          key !== null &&
          lastKey === key &&
          !arrayFound
        ) {
          arrayFound = true;
          depth = 2;
          itemDepth = 2;
          continue;
        }
        depth += 1;
        continue;
      }
      if (char === '}' || char === ']') {
        depth -= 1;
        if (depth === 0) rootClosed = true;
        continue;
      }
      if (char === ',' && root === '{' && depth === 1) lastKey = null;
    }
    if (inItem) {
      const rest = text.slice(itemStart);
      item.push(rest);
      itemChars += rest.length;
      if (itemChars > maxItemChars) {
        throw new FileProblem(`item ${items + 1} is longer than ${maxItemChars / 1024} KB`);
      }
    }
    if (keyParts) keyParts.push(text.slice(keyStart));
  }
  if (inString || depth > 0 || inItem) throw new FileProblem('is not valid JSON (it is cut off)');
  if (!root) throw new FileProblem('is empty');
  if (!arrayFound || !arrayDone) {
    throw new NotAnArray(
      key ? `must hold an array (or { "${key}": [...] })` : 'is JSON but not an array',
    );
  }
}

/** A data row of a file: 1-based (the header is row 0), its cells by field. */
export interface DataRow {
  row: number;
  values: Record<string, unknown>;
}

/** How a file's rows are read: its columns' fields, a JSON item's cells, the JSON array's key. */
export interface RowReading {
  columnOf: ColumnNamer;
  jsonValues: (item: unknown) => Record<string, unknown>;
  jsonKey: string | null;
}

export const tabularFormats: readonly FileFormat[] = ['csv', 'xlsx', 'json'];

/**
 * The data rows of a CSV, Excel or JSON file as it streams in. CSV and Excel number rows as a
 * spreadsheet shows them (the header is row 1); a data row is one less, so the header is row 0.
 */
export async function* dataRows(
  format: 'csv' | 'xlsx' | 'json',
  stream: Readable,
  reading: RowReading,
): AsyncGenerator<DataRow> {
  if (format === 'json') {
    let row = 0;
    for await (const item of jsonArrayItems(stream, reading.jsonKey)) {
      row += 1;
      yield { row, values: reading.jsonValues(item) };
    }
    return;
  }
  const rows =
    format === 'csv'
      ? csvRows(stream, reading.columnOf, 'file')
      : xlsxRows(stream, reading.columnOf);
  for await (const { row, values } of rows) yield { row: row - 1, values };
}

/**
 * What is wrong with the file, from an error reading its rows: the file's own fault (not CSV,
 * not JSON, a corrupt workbook) unless the blob itself could not be read or the platform failed,
 * which answers null: the work is tried again.
 */
export function fileProblemOf(error: unknown, sourceFailed: boolean): string | null {
  if (sourceFailed) return null;
  if (error instanceof FileProblem) return error.message;
  if (error instanceof CsvError) return `is not valid CSV: ${error.message}`;
  if (error instanceof AppError) {
    if (error.status >= 500) return null;
    const fields = (error.details as { fields?: { message: string }[] } | undefined)?.fields;
    return fields?.[0]?.message ?? error.message;
  }
  // The Excel reader's complaints (a corrupt zip, a broken sheet) come as plain errors.
  return `could not be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** Counts the bytes that pass, for progress by bytes read. */
export function byteCounter(onBytes: (bytes: number) => void) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/** The error report's columns. */
export const ERROR_REPORT_HEADER = 'file,row,field,message\r\n';

/**
 * A CSV cell: quoted when it holds a comma, quote or line break, and a leading =, +, - or @
 * made inert so that a spreadsheet opening the report never runs it as a formula.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const errorReportLine = (error: UploadError) =>
  `${[error.file, error.row, error.field, error.message].map(csvCell).join(',')}\r\n`;

/**
 * The error report as a stream of CSV lines from errors as they come (the record's list merged
 * with those stored at checkpoints, `upload-errors.ts`), in chunks of a few hundred lines.
 */
export function errorReport(errors: AsyncIterable<UploadError>): Readable {
  async function* lines() {
    yield ERROR_REPORT_HEADER;
    let chunk: string[] = [];
    for await (const error of errors) {
      chunk.push(errorReportLine(error));
      if (chunk.length >= 500) {
        yield chunk.join('');
        chunk = [];
      }
    }
    if (chunk.length) yield chunk.join('');
  }
  return Readable.from(lines(), { objectMode: false });
}
