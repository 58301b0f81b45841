import { Readable, Transform } from 'node:stream';
import { blobProperties, isChangedBlob, openBlobStream, readBlobRange } from '../platform/blob.js';
import { conflict } from '../platform/errors.js';
import { inFlight } from '../platform/in-flight.js';
import type { RequestContext } from '../platform/context.js';
import { HEAD_BYTES, recogniseFile } from './content-check.js';
import { csvRows, xlsxRows, type ColumnNamer } from './files.js';
import type { ImporterDefinition } from './importer.js';
import {
  effectiveMapping,
  jsonColumns,
  mappedReading,
  missingRequired,
  savedMappingOf,
} from './mapping.js';
import { dataRows, fileProblemOf, jsonArrayItems } from './upload-processors.js';
import {
  fileVersionOf,
  uploadBlobName,
  UPLOADS_BLOB_CONTAINER,
  type UploadRecord,
} from './uploads.repo.js';
import {
  OVERWRITE_PREVIEW_ROWS,
  PREVIEW_ROWS,
  UPLOAD_FILE_CHANGED,
  type ColumnMapping,
  type FileFormat,
  type OverwritePreview,
  type UploadFile,
  type UploadPreview,
} from './uploads.schema.js';

/**
 * Looking into an upload's files before (or instead of) processing them: each file's first rows
 * and the mapping its columns would get, from its first bytes only; and what a run in `update`
 * mode would overwrite, from its first rows.
 */

/** What a CSV or JSON preview reads of a file: its first bytes, never more. */
export const PREVIEW_BYTES = 256 * 1024;
/**
 * A workbook keeps its text apart from its sheet (often after it), so its first rows may need
 * more of the file: at most this much is read, and a workbook whose first rows lie further on
 * has no preview (it is still read whole when processed).
 */
export const PREVIEW_XLSX_BYTES = 8 * 1024 * 1024;
/** Changes listed by the overwrite preview (it counts them all). */
const LISTED_CHANGES = 50;
const OVERWRITE_CHECKS_IN_FLIGHT = 8;

type Tabular = 'csv' | 'xlsx' | 'json';
const isTabular = (format: FileFormat | null): format is Tabular =>
  format === 'csv' || format === 'xlsx' || format === 'json';

/** A cell as the preview shows it. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean);
}

interface FirstRows {
  columns: string[];
  rows: Record<string, unknown>[];
  problem: string | null;
}

/** Ends a stream after `bytes`, as if the file ended there. */
function firstBytes(bytes: number) {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const room = bytes - passed;
      if (room <= 0) {
        done();
        return;
      }
      passed += chunk.length;
      if (chunk.length >= room) {
        this.push(chunk.subarray(0, room));
        this.push(null);
        done();
        return;
      }
      done(null, chunk);
    },
  });
}

/**
 * The first `count` rows of a tabular file read from its first bytes, by source column: of the
 * version `etag` names, once the upload is complete.
 */
async function firstRows(
  blobName: string,
  format: Tabular,
  jsonKey: string | null,
  saved: ColumnMapping | undefined,
  count: number,
  etag: string | undefined,
): Promise<FirstRows> {
  const columns: string[] = [];
  const rows: Record<string, unknown>[] = [];
  const namer: ColumnNamer = (header, index, headers) => {
    if (index === 0) columns.push(...headers);
    return header;
  };
  if (format === 'xlsx') {
    const source = await openBlobStream(UPLOADS_BLOB_CONTAINER, blobName, { etag });
    if (!source) return { columns, rows, problem: 'is missing from storage' };
    const limited = source.pipe(firstBytes(PREVIEW_XLSX_BYTES));
    try {
      for await (const { values } of xlsxRows(limited, namer)) {
        rows.push(values);
        if (rows.length >= count) break;
      }
    } catch (error) {
      if (rows.length === 0) {
        return {
          columns,
          rows,
          problem:
            'has no rows in its first 8 MB that can be shown here; it is read whole when processed',
        };
      }
    } finally {
      source.destroy();
    }
    return { columns, rows, problem: null };
  }
  const head = await readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, 0, PREVIEW_BYTES, etag);
  const cut = head.length >= PREVIEW_BYTES;
  let problem: string | null = null;
  try {
    if (format === 'csv') {
      for await (const { values } of csvRows(Readable.from([head]), namer, 'file')) {
        rows.push(values);
        if (rows.length > count) break;
      }
    } else {
      for await (const item of jsonArrayItems(Readable.from([head]), jsonKey)) {
        const values = jsonColumns(item, saved);
        for (const key of Object.keys(values)) if (!columns.includes(key)) columns.push(key);
        rows.push(values);
        if (rows.length > count) break;
      }
    }
  } catch (error) {
    // Cut off at the preview's end is expected; anything else is the file's own problem.
    if (!cut) problem = fileProblemOf(error, false) ?? 'could not be read';
  }
  // A CSV row at the very end of what was read may be cut short: it waits for the whole file.
  if (cut && format === 'csv' && rows.length <= count) rows.pop();
  return { columns, rows: rows.slice(0, count), problem };
}

/** The stored file's format: as recognised when it arrived, or (still uploading) from its bytes. */
async function formatOf(
  record: UploadRecord,
  file: UploadFile,
  blobName: string,
): Promise<{ format: FileFormat | null; problem: string | null }> {
  if (file.format) return { format: file.format, problem: null };
  const stored = await blobProperties(UPLOADS_BLOB_CONTAINER, blobName);
  if (!stored) {
    return {
      format: null,
      problem: record.status === 'uploading' ? 'has not arrived yet' : 'is missing from storage',
    };
  }
  const head = await readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, 0, HEAD_BYTES);
  const verdict = await recogniseFile(head, stored.size, (offset, length) =>
    readBlobRange(UPLOADS_BLOB_CONTAINER, blobName, offset, length),
  );
  return verdict.ok
    ? { format: verdict.format, problem: null }
    : { format: null, problem: verdict.reason };
}

const FILES_PREVIEWED_AT_ONCE = 4;

/** Each file's first rows, columns and the mapping they would be read with. */
export async function previewOf(
  record: UploadRecord,
  definition: ImporterDefinition | undefined,
): Promise<UploadPreview> {
  const fields = definition?.fields ?? [];
  const previewFile = async (file: UploadRecord['files'][number]) => {
    const blobName = uploadBlobName(record.accountId, record.id, file.index);
    const base = { index: file.index, name: file.name };
    const empty = { columns: [], rows: [], mapping: {}, missingRequired: [] };
    if (record.status !== 'uploading' && !file.received) {
      return { ...base, format: file.format, ...empty, problem: 'was not received' };
    }
    const { format, problem } = await formatOf(record, file, blobName);
    const refusal = problem ?? definition?.refuses(format) ?? null;
    if (refusal !== null || !isTabular(format)) {
      return { ...base, format, ...empty, problem: refusal ?? 'holds no rows to preview' };
    }
    const saved = savedMappingOf(record.mappings, file.index);
    const read = await firstRows(
      blobName,
      format,
      definition?.jsonKey ?? null,
      saved,
      PREVIEW_ROWS,
      fileVersionOf(record, file.index),
    ).catch((error: unknown): FirstRows => {
      if (!isChangedBlob(error)) throw error;
      return { columns: [], rows: [], problem: UPLOAD_FILE_CHANGED };
    });
    const mapping = effectiveMapping(fields, read.columns, saved);
    return {
      ...base,
      format,
      columns: read.columns,
      rows: read.rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([key, value]) => [key, cellText(value)])),
      ),
      mapping,
      missingRequired: fields.length && read.columns.length ? missingRequired(fields, mapping) : [],
      problem: read.problem,
    };
  };
  // A few files at a time: each may hold up to a workbook's worth of bytes while it is read.
  const files: UploadPreview['files'] = [];
  for (let start = 0; start < record.files.length; start += FILES_PREVIEWED_AT_ONCE) {
    const batch = record.files.slice(start, start + FILES_PREVIEWED_AT_ONCE);
    files.push(...(await Promise.all(batch.map(previewFile))));
  }
  return {
    uploadId: record.id,
    category: record.category,
    fields: fields.map(({ key, label, required }) => ({ key, label, required })),
    files,
  };
}

/**
 * What a run in `update` mode would do with the first OVERWRITE_PREVIEW_ROWS rows: records on
 * file it would change (the first LISTED_CHANGES listed with the fields that differ), and rows
 * that would be new. Rows with a problem are read but neither. An importer answers null for a
 * row that would be new, and the record with no field for one on file that would not change:
 * that row is neither.
 */
export async function overwritesOf(
  ctx: RequestContext,
  record: UploadRecord,
  definition: ImporterDefinition,
): Promise<OverwritePreview> {
  let rowsRead = 0;
  let wouldUpdate = 0;
  let wouldCreate = 0;
  let complete = true;
  const changes: OverwritePreview['changes'] = [];
  const checks = inFlight(OVERWRITE_CHECKS_IN_FLIGHT);
  for (const file of record.files) {
    if (!file.received || definition.refuses(file.format) !== null || !isTabular(file.format)) {
      continue;
    }
    if (rowsRead >= OVERWRITE_PREVIEW_ROWS) {
      complete = false;
      break;
    }
    const source = await openBlobStream(
      UPLOADS_BLOB_CONTAINER,
      uploadBlobName(record.accountId, record.id, file.index),
      { etag: fileVersionOf(record, file.index) },
    ).catch((error: unknown) => {
      if (isChangedBlob(error)) throw conflict(`${file.name} ${UPLOAD_FILE_CHANGED}`);
      throw error;
    });
    if (!source) continue;
    const rows = dataRows(
      file.format,
      source,
      mappedReading(
        definition.fields,
        savedMappingOf(record.mappings, file.index),
        definition.jsonKey,
      ),
    );
    try {
      for await (const { row, values } of rows) {
        if (rowsRead >= OVERWRITE_PREVIEW_ROWS) {
          complete = false;
          break;
        }
        rowsRead += 1;
        if (definition.check(values)) continue;
        await checks.add(
          definition.overwrite(ctx, values, record.auctionId).then((overwrite) => {
            if (!overwrite) {
              wouldCreate += 1;
              return;
            }
            if (!overwrite.fields.length) return;
            wouldUpdate += 1;
            changes.push({ file: file.name, row, ...overwrite });
          }),
        );
      }
    } catch (error) {
      // A file that cannot be read to the end previews what it could read.
      if (fileProblemOf(error, false) === null) throw error;
    } finally {
      source.destroy();
    }
  }
  await checks.finish();
  const order = new Map(record.files.map((file) => [file.name, file.index]));
  changes.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.row - b.row);
  return {
    rowsRead,
    complete,
    wouldUpdate,
    wouldCreate,
    changes: changes.slice(0, LISTED_CHANGES).map((change) => ({
      file: change.file,
      row: change.row,
      entity: change.entity,
      recordId: change.recordId,
      title: change.title,
      fields: change.fields,
    })),
  };
}
