import { z } from 'zod';
import type { Row } from '../uploads/files.js';
import { pick } from './bidder-model.js';
import { validationError } from '../platform/validation.js';
import { addressSchema, bidderInputSchema, bidderStatsSchema, keysOf } from './bidders.schema.js';

/**
 * Rows of an import file as bidders: which column is which field (the caller's mapping, then
 * the headers Lotwise knows), and each row's cells as a bidder's input, checked field by field.
 */

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

/** Field names the importer knows, by their header with case, spaces and punctuation removed. */
const fieldsByHeader: Record<string, string> = {
  ...Object.fromEntries(keysOf(rowSchema).map((field) => [field.toLowerCase(), field])),
  id: 'bidderId',
  bidder: 'bidderId',
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
};

const normaliseHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The field a column or key names: the caller's mapping first, then the known headers. */
export const knownField = (header: string, mapping: Record<string, string>): string | undefined =>
  mapping[header] ?? fieldsByHeader[normaliseHeader(header)];

const addressFields = keysOf(addressSchema);
const statsFields = keysOf(bidderStatsSchema);

type RowField = keyof typeof rowSchema.shape;
const rowFields = keysOf(rowSchema);
/** Enough for every file's columns; rows of ever new columns (odd JSON) are checked anew. */
const MAX_SCHEMAS = 64;
const schemasByColumns = new Map<string, z.ZodType<Partial<z.infer<typeof rowSchema>>>>();

/**
 * The row schema for just the columns a row has (a file's columns are the same row after row):
 * checking a cell costs a good deal more than copying a default, and most files have a few
 * columns of the many known.
 */
function cellsOf(values: Record<string, unknown>) {
  // In the schema's order, so the first problem named is the one it always was.
  const present = rowFields.filter((field) => field in values);
  const key = present.join();
  let schema = schemasByColumns.get(key);
  if (!schema) {
    if (schemasByColumns.size >= MAX_SCHEMAS) schemasByColumns.clear();
    // A new object of the same field schemas rather than `pick`, whose lazily defined shape zod
    // treats as possibly recursive and memoizes every parse of.
    schema = z.object(
      Object.fromEntries(present.map((field) => [field, rowSchema.shape[field]])),
    ) as unknown as z.ZodType<Partial<z.infer<typeof rowSchema>>>;
    schemasByColumns.set(key, schema);
  }
  return schema.safeParse(values);
}

/** The named fields the row has a column for. */
function present<K extends RowField>(
  row: Partial<z.infer<typeof rowSchema>>,
  fields: readonly K[],
) {
  return pick(
    row,
    fields.filter((field) => field in row),
  );
}

/**
 * A row's cells as a bidder's input, or the first problem with them. Address and stats carry only
 * the columns the file has: the input's defaults (and a new bidder's empty stats) stand for the
 * rest, so a row costs no checks of cells it does not have.
 */
export function toInput(values: Record<string, unknown>) {
  const cells = cellsOf(values);
  if (!cells.success) return cells;
  const row = cells.data;
  const stats = present(row, statsFields);
  if ('totalWinAmount' in stats) stats.totalWinAmount = row.totalWinAmount ?? 0;
  return bidderInputSchema.safeParse(
    {
      bidderId: row.bidderId || undefined,
      firstName: row.firstName ?? '',
      lastName: row.lastName ?? '',
      email: row.email ?? '',
      phone: row.phone ?? '',
      address: Object.assign(present(row, addressFields), { country: row.country || 'USA' }),
      status: row.status || 'Active',
      preferredCategories: row.preferredCategories ?? [],
      preferredPaymentMethod: row.preferredPaymentMethod || 'Credit Card',
      stats,
      initialNote: row.note || undefined,
    },
    { reportInput: true },
  );
}

/** What the first problem of a refused row is called: its field (without address or stats). */
export function rowProblem(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  const field =
    issue?.path
      .filter((part) => part !== 'address' && part !== 'stats')
      .map(String)
      .join('.') || 'row';
  return {
    field,
    message:
      issue?.code === 'invalid_type' && issue.input === undefined
        ? 'is required'
        : (issue?.message ?? 'is not valid'),
  };
}

/** The field a CSV or Excel column holds; a column of no known field keeps its header. */
export const columnOf = (mapping: Record<string, string>) => (header: string) =>
  knownField(header, mapping) ?? `unknown:${header}`;

/** The bidders of a JSON file (an array, or `{ "bidders": [...] }`), address and stats flattened. */
export function* jsonRows(data: Buffer, mapping: Record<string, string>): Generator<Row> {
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
    yield { row: index + 1, values: jsonValues(item, mapping) };
  }
}

/** One bidder of a JSON file as a row's cells: its keys as fields, address and stats flattened. */
export function jsonValues(item: unknown, mapping: Record<string, string>) {
  return Object.fromEntries(
    Object.entries((item ?? {}) as Record<string, unknown>).flatMap(([key, value]) => {
      if ((key === 'address' || key === 'stats') && value && typeof value === 'object')
        return Object.entries(value as Record<string, unknown>);
      return [[knownField(key, mapping) ?? key, value]];
    }),
  );
}
