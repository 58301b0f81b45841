import { Readable } from 'node:stream';
import Busboy from 'busboy';
import { parse as parseCsv } from 'csv-parse';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import { buildBidder } from '../bidders/bidders.service.js';
import {
  bidderInputSchema,
  bidderStatsSchema,
  type ImportResult,
} from '../bidders/bidders.schema.js';
import type { BidderRecord } from '../bidders/bidders.repo.js';
import {
  importKnownBidders,
  candidateOf,
  recordImportMatches,
  writeImportBatch,
  type PairCandidate,
} from '../bidders/import-support.js';
import { writeAudit } from '../platform/audit.js';
import { AppError, payloadTooLarge } from '../platform/errors.js';
import type { RequestContext } from '../platform/context.js';
import { validationError } from '../platform/validation.js';
import { scoringSettings } from '../scoring/scoring.service.js';

/** The spec's limit for an upload, enforced here rather than only stated. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const BATCH = 100;
const MAX_ERRORS = 1000;

type Kind = 'csv' | 'xlsx' | 'json';
type Row = { row: number; values: Record<string, unknown> };

/** Field names the importer knows, by their header with case, spaces and punctuation removed. */
const fieldsByHeader: Record<string, string> = Object.fromEntries(
  [
    'bidderId',
    'firstName',
    'lastName',
    'email',
    'phone',
    'street',
    'city',
    'state',
    'zip',
    'country',
    'status',
    'preferredCategories',
    'preferredPaymentMethod',
    'note',
    ...Object.keys(bidderStatsSchema.shape),
  ].map((field) => [field.toLowerCase(), field]),
);
Object.assign(fieldsByHeader, {
  id: 'bidderId',
  bidder: 'bidderId',
  bidderid: 'bidderId',
  first: 'firstName',
  last: 'lastName',
  surname: 'lastName',
  emailaddress: 'email',
  phonenumber: 'phone',
  address: 'street',
  postcode: 'zip',
  postalcode: 'zip',
  zipcode: 'zip',
  categories: 'preferredCategories',
  paymentmethod: 'preferredPaymentMethod',
  auctions: 'totalAuctionsBid',
  lots: 'totalLotsBid',
  totalspent: 'totalWinAmount',
});

const normaliseHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The field a column or key names: the caller's mapping first, then the known headers. */
const knownField = (header: string, mapping: Record<string, string>): string | undefined =>
  mapping[header] ?? fieldsByHeader[normaliseHeader(header)];

const numberOrNull = z.preprocess(
  (value) => (value === '' || value === null || value === undefined ? null : Number(value)),
  z.number().finite().nullable(),
);
const count = z.preprocess(
  (value) => (value === '' || value === null || value === undefined ? 0 : Number(value)),
  z.number().int('must be a whole number').min(0),
);
const date = z.preprocess(
  (value) => {
    if (value === '' || value === null || value === undefined) return null;
    const parsed = value instanceof Date ? value : new Date(String(value));
    return Number.isNaN(parsed.getTime()) ? 'invalid' : parsed.toISOString();
  },
  z.iso.datetime({ message: 'is not a date' }).nullable(),
);
const list = z.preprocess(
  (value) =>
    Array.isArray(value)
      ? value
      : String(value ?? '')
          .split(/[;,|]/)
          .map((part) => part.trim())
          .filter(Boolean),
  z.array(z.string()),
);
const optionalText = z.preprocess(
  (value) => (value === null || value === undefined ? '' : String(value).trim()),
  z.string(),
);

/** A row as imported: text cells become the bidder input and the record's facts. */
const rowSchema = z.object({
  bidderId: optionalText,
  firstName: optionalText,
  lastName: optionalText,
  email: optionalText,
  phone: optionalText,
  street: optionalText,
  city: optionalText,
  state: optionalText,
  zip: optionalText,
  country: optionalText,
  status: optionalText,
  preferredCategories: list,
  preferredPaymentMethod: optionalText,
  note: optionalText,
  totalAuctionsBid: count,
  totalLotsBid: count,
  wins: count,
  totalWinAmount: numberOrNull,
  paymentsOnTime: count,
  paymentsLate: count,
  paymentsOverdue: count,
  avgDaysToPay: numberOrNull,
  priorDefaults: count,
  disputes: count,
  referrals: count,
  responseRate: numberOrNull,
  avgResponseHours: numberOrNull,
  firstAuction: date,
  lastAuction: date,
});

function toInput(values: Record<string, unknown>) {
  const cells = rowSchema.safeParse(values);
  if (!cells.success) return cells;
  const row = cells.data;
  return bidderInputSchema.safeParse(
    {
      ...(row.bidderId ? { bidderId: row.bidderId } : {}),
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phone: row.phone,
      address: {
        street: row.street,
        city: row.city,
        state: row.state,
        zip: row.zip,
        country: row.country || 'USA',
      },
      status: row.status || 'Active',
      preferredCategories: row.preferredCategories,
      preferredPaymentMethod: row.preferredPaymentMethod || 'Credit Card',
      stats: {
        totalAuctionsBid: row.totalAuctionsBid,
        totalLotsBid: row.totalLotsBid,
        wins: row.wins,
        totalWinAmount: row.totalWinAmount ?? 0,
        paymentsOnTime: row.paymentsOnTime,
        paymentsLate: row.paymentsLate,
        paymentsOverdue: row.paymentsOverdue,
        avgDaysToPay: row.avgDaysToPay,
        priorDefaults: row.priorDefaults,
        disputes: row.disputes,
        referrals: row.referrals,
        responseRate: row.responseRate,
        avgResponseHours: row.avgResponseHours,
        firstAuction: row.firstAuction,
        lastAuction: row.lastAuction,
      },
      ...(row.note ? { initialNote: row.note } : {}),
    },
    { reportInput: true },
  );
}

/** What the file really is, from its first bytes, whatever its name says. */
export function sniff(head: Buffer): Kind | 'xls' | 'unknown' {
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

const expectedKind: Record<string, Kind | 'xls'> = {
  csv: 'csv',
  xlsx: 'xlsx',
  xls: 'xls',
  json: 'json',
};

async function* csvRows(data: Buffer, mapping: Record<string, string>): AsyncGenerator<Row> {
  const parser = Readable.from([data]).pipe(
    parseCsv({
      bom: true,
      columns: (headers: string[]) =>
        headers.map((header) => knownField(header, mapping) ?? `unknown:${header}`),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    }),
  );
  let row = 1;
  for await (const record of parser as AsyncIterable<Record<string, unknown>>) {
    row += 1;
    yield { row, values: record };
  }
}

async function* xlsxRows(data: Buffer, mapping: Record<string, string>): AsyncGenerator<Row> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Without the styles a date cell reads as its serial number, not as a date.
    styles: 'cache',
  });
  for await (const sheet of reader) {
    let headers: string[] | undefined;
    for await (const sheetRow of sheet) {
      const cells = (sheetRow.values as unknown[])
        .slice(1)
        .map((cell) =>
          cell && typeof cell === 'object' && 'text' in cell
            ? (cell as { text: unknown }).text
            : cell,
        );
      if (!headers) {
        headers = cells.map((cell) => {
          const header = String(cell ?? '');
          return knownField(header, mapping) ?? `unknown:${header}`;
        });
        continue;
      }
      yield {
        row: sheetRow.number,
        values: Object.fromEntries(headers.map((header, index) => [header, cells[index] ?? ''])),
      };
    }
    break;
  }
}

async function* jsonRows(data: Buffer, mapping: Record<string, string>): AsyncGenerator<Row> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw validationError([{ location: 'body', field: 'files', message: 'is not valid JSON' }]);
  }
  const items = Array.isArray(parsed) ? parsed : (parsed as { bidders?: unknown }).bidders;
  if (!Array.isArray(items)) {
    throw validationError([
      {
        location: 'body',
        field: 'files',
        message: 'must hold an array of bidders (or { "bidders": [...] })',
      },
    ]);
  }
  for (const [index, item] of items.entries()) {
    const values = Object.fromEntries(
      Object.entries((item ?? {}) as Record<string, unknown>).flatMap(([key, value]) => {
        if (key === 'address' && value && typeof value === 'object')
          return Object.entries(value as Record<string, unknown>);
        if (key === 'stats' && value && typeof value === 'object')
          return Object.entries(value as Record<string, unknown>);
        return [[knownField(key, mapping) ?? key, value]];
      }),
    );
    yield { row: index + 1, values };
  }
}

interface UploadedFile {
  name: string;
  data: Buffer;
}

/** Reads the multipart form: its fields and its files, refusing more than 10 MB in all. */
export async function readImportForm(body: Buffer, contentType: string) {
  return new Promise<{ fields: Record<string, string>; files: UploadedFile[] }>(
    (resolve, reject) => {
      const fields: Record<string, string> = {};
      const files: UploadedFile[] = [];
      let total = 0;
      let parser: Busboy.Busboy;
      const malformed = () =>
        validationError([{ location: 'body', field: 'files', message: 'The upload is malformed' }]);
      try {
        parser = Busboy({
          headers: { 'content-type': contentType },
          // Busboy reports the limit once a file reaches it, so allow one byte more: a file of
          // exactly 10 MB is within the limit.
          limits: { fileSize: MAX_IMPORT_BYTES + 1, files: 10, fields: 20 },
        });
      } catch {
        reject(
          validationError([
            { location: 'body', field: 'files', message: 'Send the files as multipart/form-data' },
          ]),
        );
        return;
      }
      parser.on('field', (name, value) => {
        fields[name] = value;
      });
      parser.on('file', (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          chunks.push(chunk);
        });
        stream.on('limit', () => reject(payloadTooLarge('Files must be 10 MB or smaller')));
        // A form cut off inside a file fails the file's stream too; unheard, that error would
        // be uncaught and take the host down.
        stream.on('error', () => reject(malformed()));
        stream.on('end', () =>
          files.push({ name: info.filename ?? 'upload', data: Buffer.concat(chunks) }),
        );
      });
      parser.on('error', () => reject(malformed()));
      parser.on('close', () =>
        total > MAX_IMPORT_BYTES
          ? reject(payloadTooLarge('Files must be 10 MB or smaller in all'))
          : resolve({ fields, files }),
      );
      Readable.from([body]).pipe(parser);
    },
  );
}

function rowsOf(file: UploadedFile, mapping: Record<string, string>): AsyncGenerator<Row> {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const expected = expectedKind[extension];
  if (!expected) {
    throw new AppError(
      'unsupported_media_type',
      `${file.name}: only .csv, .xlsx, .xls and .json files can be imported`,
    );
  }
  const actual = sniff(file.data.subarray(0, 8192));
  if (actual === 'xls' && expected === 'xls') {
    throw new AppError(
      'unsupported_media_type',
      `${file.name}: legacy Excel (.xls) files cannot be read safely. Save it as .xlsx or CSV and import that.`,
    );
  }
  if (actual !== expected) {
    throw new AppError(
      'unsupported_media_type',
      `${file.name} does not contain what a .${extension} file should`,
    );
  }
  return actual === 'csv'
    ? csvRows(file.data, mapping)
    : actual === 'xlsx'
      ? xlsxRows(file.data, mapping)
      : jsonRows(file.data, mapping);
}

/**
 * Imports bidders row by row: each row validated on its own, exact duplicates (same bidder ID or
 * email, in the account or earlier in the file) skipped, the rest scored and written in batches
 * that are all-or-nothing, and likely duplicates recorded for review.
 */
export async function importBidders(
  ctx: RequestContext,
  files: UploadedFile[],
  mapping: Record<string, string>,
): Promise<ImportResult> {
  if (!files.length)
    throw validationError([
      { location: 'body', field: 'files', message: 'Choose at least one file' },
    ]);
  const settings = await scoringSettings(ctx);
  const known = await importKnownBidders(ctx);
  const result: ImportResult = {
    totalProcessed: 0,
    successful: 0,
    failed: 0,
    duplicates: 0,
    errors: [],
  };
  const created: PairCandidate[] = [];
  let pending: BidderRecord[] = [];
  const fail = (row: number, field: string, message: string) => {
    result.failed += 1;
    if (result.errors.length < MAX_ERRORS) result.errors.push({ row, field, message });
  };

  const flush = async () => {
    const batch = pending;
    pending = [];
    const { written, clashes } = await writeImportBatch(ctx, batch);
    result.successful += written.length;
    result.duplicates += clashes;
    created.push(...written.map(candidateOf));
  };

  for (const file of files) {
    for await (const { row, values } of rowsOf(file, mapping)) {
      result.totalProcessed += 1;
      const parsed = toInput(values);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field =
          issue?.path
            .filter((part) => part !== 'address' && part !== 'stats')
            .map(String)
            .join('.') || 'row';
        fail(
          row,
          field,
          issue?.code === 'invalid_type' && issue.input === undefined
            ? 'is required'
            : (issue?.message ?? 'is not valid'),
        );
        continue;
      }
      const input = parsed.data;
      if (known.has(input.bidderId, input.email)) {
        result.duplicates += 1;
        continue;
      }
      const record = { ...buildBidder(input, ctx.actor, settings), accountId: ctx.scope.accountId };
      known.add(record.bidderId, record.email);
      pending.push(record);
      if (pending.length >= BATCH) await flush();
    }
  }
  await flush();
  const matches = await recordImportMatches(
    ctx,
    known.existing,
    created,
    settings.autoMergeThreshold,
  );
  await writeAudit(ctx, {
    action: 'bidder.import',
    entity: { type: 'import', id: ctx.correlationId },
    after: {
      files: files.map((file) => file.name),
      ...result,
      errors: result.errors.length,
      possibleDuplicates: matches,
    },
  });
  return result;
}
