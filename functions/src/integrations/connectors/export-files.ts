import { Readable } from 'node:stream';
import { DateTime } from 'luxon';
import { cellText, moneyOf } from '../../auctions/lots/catalogue-rows.js';
import {
  currencies,
  currencyExponent,
  type Currency,
  type Platform,
} from '../../auctions/auctions.schema.js';
import { AppError } from '../../platform/errors.js';
import { validationError } from '../../platform/validation.js';
import { csvRows, openUpload, xlsxRows, type Row } from '../../uploads/files.js';
import type { PlatformBidder, PlatformLot } from './connector.js';

/**
 * The bidder and catalogue exports a house downloads from each platform (CSV or Excel), read
 * into the connector's shapes. Every platform names its columns its own way and writes dates and
 * money its own way; the tables below are those exports as the platforms write them. A cell that
 * cannot be read is reported by its row (as a spreadsheet numbers it, the header being row 1) and
 * its column header; the rest of the row is dropped, the rest of the file is read.
 */

type BidderColumn =
  | 'externalId'
  | 'firstName'
  | 'lastName'
  /** "Last, First" in one column. */
  | 'fullName'
  | 'email'
  | 'phone'
  | 'status'
  | 'lastActive'
  | 'totalBids'
  | 'totalWins'
  | 'totalSpent'
  | 'currency'
  | 'updatedAt';

type LotColumn =
  | 'auctionExternalId'
  | 'externalId'
  | 'lotNumber'
  | 'title'
  | 'description'
  | 'category'
  | 'estimateLow'
  | 'estimateHigh'
  /** "1,200 - 1,800" in one column. */
  | 'estimateRange'
  | 'reserve'
  | 'consignor'
  | 'outcome'
  | 'hammer'
  | 'buyerExternalId'
  | 'currency';

interface ExportLayout {
  /** How the CSV writes a date and time (a workbook's date cells need no format). */
  date: { format: string; zone: string } | 'iso';
  /** Major units as written ("$1,250.00", 1250.5), or whole cents. */
  money: 'major' | 'cents';
  bidders: Record<string, BidderColumn>;
  /** The status words, as active or not. */
  active: Record<string, boolean>;
  catalogue: Record<string, LotColumn>;
  /** The result words; a word for "no result yet" is null. */
  outcomes: Record<string, 'sold' | 'passed' | null>;
}

export const exportLayouts: Record<Platform, ExportLayout> = {
  ProxyBid: {
    date: { format: 'MM/dd/yyyy hh:mm a', zone: 'America/Chicago' },
    money: 'major',
    bidders: {
      'Bidder ID': 'externalId',
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Email: 'email',
      Phone: 'phone',
      Status: 'status',
      'Last Activity': 'lastActive',
      'Bids Placed': 'totalBids',
      'Lots Won': 'totalWins',
      'Total Purchases': 'totalSpent',
      Currency: 'currency',
      'Last Modified': 'updatedAt',
    },
    active: { Active: true, Disabled: false },
    catalogue: {
      'Auction ID': 'auctionExternalId',
      'Lot ID': 'externalId',
      'Lot Number': 'lotNumber',
      Title: 'title',
      Description: 'description',
      Category: 'category',
      'Low Estimate': 'estimateLow',
      'High Estimate': 'estimateHigh',
      Reserve: 'reserve',
      Consignor: 'consignor',
      Status: 'outcome',
      'Hammer Price': 'hammer',
      'Winning Bidder ID': 'buyerExternalId',
      Currency: 'currency',
    },
    outcomes: { Sold: 'sold', Passed: 'passed' },
  },
  BidWrangler: {
    date: 'iso',
    money: 'cents',
    bidders: {
      id: 'externalId',
      first_name: 'firstName',
      last_name: 'lastName',
      email: 'email',
      phone_e164: 'phone',
      active: 'status',
      last_seen_at: 'lastActive',
      bid_count: 'totalBids',
      win_count: 'totalWins',
      spent_cents: 'totalSpent',
      currency: 'currency',
      updated_at: 'updatedAt',
    },
    active: { true: true, false: false },
    catalogue: {
      auction_id: 'auctionExternalId',
      lot_id: 'externalId',
      number: 'lotNumber',
      name: 'title',
      details: 'description',
      category_slug: 'category',
      low_estimate_cents: 'estimateLow',
      high_estimate_cents: 'estimateHigh',
      reserve_cents: 'reserve',
      consignor_name: 'consignor',
      outcome: 'outcome',
      hammer_cents: 'hammer',
      buyer_id: 'buyerExternalId',
      currency: 'currency',
    },
    outcomes: { sold: 'sold', unsold: 'passed' },
  },
  Invaluable: {
    // Day first, in UTC.
    date: { format: 'dd/MM/yyyy HH:mm', zone: 'UTC' },
    money: 'major',
    bidders: {
      'Bidder Ref': 'externalId',
      Forename: 'firstName',
      Surname: 'lastName',
      'Email Address': 'email',
      Telephone: 'phone',
      Active: 'status',
      'Last Bid Date': 'lastActive',
      'No. of Bids': 'totalBids',
      'Lots Won': 'totalWins',
      'Total Spend': 'totalSpent',
      Currency: 'currency',
      'Last Modified': 'updatedAt',
    },
    active: { Y: true, N: false },
    catalogue: {
      'Catalog Ref': 'auctionExternalId',
      'Lot Ref': 'externalId',
      'Lot No': 'lotNumber',
      'Lot Title': 'title',
      'Lot Description': 'description',
      Department: 'category',
      'Estimate Low': 'estimateLow',
      'Estimate High': 'estimateHigh',
      Reserve: 'reserve',
      Consignor: 'consignor',
      Sold: 'outcome',
      Hammer: 'hammer',
      'Buyer Ref': 'buyerExternalId',
      Currency: 'currency',
    },
    outcomes: { Y: 'sold', N: 'passed' },
  },
  'Auction.zip': {
    date: { format: 'yyyy-MM-dd HH:mm:ss', zone: 'UTC' },
    money: 'major',
    bidders: {
      BIDDER_ID: 'externalId',
      FIRST_NAME: 'firstName',
      LAST_NAME: 'lastName',
      EMAIL: 'email',
      PHONE: 'phone',
      STATUS: 'status',
      LAST_LOGIN: 'lastActive',
      BIDS: 'totalBids',
      WINS: 'totalWins',
      TOTAL_SPENT: 'totalSpent',
      CURRENCY: 'currency',
      UPDATED_AT: 'updatedAt',
    },
    active: { active: true, inactive: false },
    catalogue: {
      AUCTION_ID: 'auctionExternalId',
      LOT_ID: 'externalId',
      LOT_NUMBER: 'lotNumber',
      LOT_TITLE: 'title',
      LOT_DESCRIPTION: 'description',
      CATEGORY: 'category',
      LOW_ESTIMATE: 'estimateLow',
      HIGH_ESTIMATE: 'estimateHigh',
      RESERVE: 'reserve',
      CONSIGNOR: 'consignor',
      STATUS: 'outcome',
      HAMMER_PRICE: 'hammer',
      BUYER_ID: 'buyerExternalId',
      CURRENCY: 'currency',
    },
    outcomes: { sold: 'sold', passed: 'passed', open: null },
  },
  LiveAuctioneers: {
    date: { format: 'yyyy-MM-dd HH:mm', zone: 'UTC' },
    money: 'major',
    bidders: {
      'Bidder Id': 'externalId',
      'Bidder Name': 'fullName',
      Email: 'email',
      Phone: 'phone',
      Status: 'status',
      'Last Active': 'lastActive',
      Bids: 'totalBids',
      Wins: 'totalWins',
      Spent: 'totalSpent',
      Currency: 'currency',
      Updated: 'updatedAt',
    },
    active: { active: true, blocked: false },
    catalogue: {
      'Catalog Id': 'auctionExternalId',
      'Lot Id': 'externalId',
      'Lot #': 'lotNumber',
      Title: 'title',
      Description: 'description',
      Category: 'category',
      Estimate: 'estimateRange',
      Reserve: 'reserve',
      Consignor: 'consignor',
      Result: 'outcome',
      'Sold Price': 'hammer',
      'Buyer Id': 'buyerExternalId',
      Currency: 'currency',
    },
    outcomes: { sold: 'sold', unsold: 'passed' },
  },
  BidSquare: {
    date: { format: 'M/d/yyyy h:mm:ss a', zone: 'America/New_York' },
    money: 'major',
    bidders: {
      BidderId: 'externalId',
      FirstName: 'firstName',
      LastName: 'lastName',
      Email: 'email',
      Phone: 'phone',
      IsActive: 'status',
      LastActivityDate: 'lastActive',
      TotalBids: 'totalBids',
      TotalWins: 'totalWins',
      TotalSpent: 'totalSpent',
      CurrencyCode: 'currency',
      ModifiedOn: 'updatedAt',
    },
    active: { True: true, False: false },
    catalogue: {
      SaleId: 'auctionExternalId',
      LotId: 'externalId',
      LotNumber: 'lotNumber',
      Title: 'title',
      Description: 'description',
      CategoryName: 'category',
      LowEstimate: 'estimateLow',
      HighEstimate: 'estimateHigh',
      Reserve: 'reserve',
      ConsignorName: 'consignor',
      Outcome: 'outcome',
      Hammer: 'hammer',
      BuyerId: 'buyerExternalId',
      CurrencyCode: 'currency',
    },
    outcomes: { Sold: 'sold', Passed: 'passed' },
  },
};

export interface ExportFileError {
  row: number;
  /** The column's header as the file has it. */
  field: string;
  message: string;
}

export interface CatalogueExportLot extends PlatformLot {
  /** The platform's id of the sale the lot is in, where the export says. */
  auctionExternalId: string | null;
}

export interface ExportFileOptions {
  /** The money of a file without a currency column. */
  currency?: Currency;
}

type ExportFile = { name: string; bytes: Buffer };

/** Case, spaces and signs do not tell headers apart ("Lot #" is "lot"). */
const normalise = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const wordMap = <T>(words: Record<string, T>) =>
  new Map(Object.entries(words).map(([word, value]) => [word.toLowerCase(), value]));

class CellProblem extends Error {}

/** How a layout writes 1 May 2026, 14:00 UTC, for a message about a date it cannot read. */
const dateExample = (date: ExportLayout['date']) =>
  date === 'iso'
    ? '2026-05-01T14:00:00Z'
    : DateTime.fromISO('2026-05-01T14:00:00Z').setZone(date.zone).toFormat(date.format);

/** One row's cells by column, each read by the platform's rules; a problem names its column. */
function reader(layout: ExportLayout, { row, values }: Row, headers: Map<string, string>) {
  const raw = (column: string) => values[column];
  const text = (column: string) => {
    const value = raw(column);
    return value instanceof Date ? value.toISOString() : cellText(value);
  };
  const optional = (column: string) => text(column) || null;
  const required = (column: string) => {
    const value = text(column);
    if (!value) throw new CellProblem('is required');
    return value;
  };
  const count = (column: string) => {
    const value = raw(column);
    const number = typeof value === 'number' ? value : Number(cellText(value) || '0');
    if (!Number.isInteger(number) || number < 0) throw new CellProblem('is not a whole number');
    return number;
  };
  const date = (column: string): string | null => {
    const value = raw(column);
    if (value instanceof Date) return value.toISOString();
    const written = cellText(value);
    if (!written) return null;
    const parsed =
      layout.date === 'iso'
        ? DateTime.fromISO(written, { zone: 'UTC' })
        : DateTime.fromFormat(written, layout.date.format, { zone: layout.date.zone });
    if (!parsed.isValid) {
      throw new CellProblem(`is not a date like ${dateExample(layout.date)}`);
    }
    return parsed.toUTC().toISO();
  };
  const currency = (column: string, fallback: Currency): Currency => {
    const written = text(column).toUpperCase();
    if (!written) return fallback;
    if (!(currencies as readonly string[]).includes(written)) {
      throw new CellProblem(`is not one of ${currencies.join(', ')}`);
    }
    return written as Currency;
  };
  const amount = (value: unknown, inCurrency: Currency): number | null => {
    if (layout.money === 'cents') {
      const written = typeof value === 'number' ? String(value) : cellText(value);
      if (!written) return null;
      if (!/^\d+$/.test(written)) throw new CellProblem('is not a whole number of cents');
      return Number(written);
    }
    const read = moneyOf(value, currencyExponent[inCurrency]);
    if ('problem' in read) throw new CellProblem(read.problem);
    return read.minor;
  };
  const money = (column: string, inCurrency: Currency) => amount(raw(column), inCurrency);
  /** Runs each cell's read, collecting a problem per column instead of stopping at the first. */
  const problems: ExportFileError[] = [];
  const cell = <T>(column: string, read: (column: string) => T, fallback: T): T => {
    try {
      return read(column);
    } catch (error) {
      if (!(error instanceof CellProblem)) throw error;
      problems.push({ row, field: headers.get(column) ?? column, message: error.message });
      return fallback;
    }
  };
  return { text, optional, required, count, date, currency, money, amount, cell, problems };
}

/** Reads every row of the file, each mapped by `columns`; the whole file is refused if it is not one. */
async function rowsOf(
  file: ExportFile,
  columns: Record<string, string>,
  required: string[][],
): Promise<{ rows: Row[]; headers: Map<string, string> }> {
  const byHeader = new Map(
    Object.entries(columns).map(([header, column]) => [normalise(header), column]),
  );
  const headers = new Map<string, string>();
  const columnOf = (header: string) => {
    const column = byHeader.get(normalise(header));
    if (!column) return `unknown:${header}`;
    headers.set(column, header);
    return column;
  };
  const opened = await openUpload(file.name, Readable.from([file.bytes]));
  if (opened.kind === 'json') {
    throw new AppError(
      'unsupported_media_type',
      `${file.name}: a platform export is a .csv or .xlsx file`,
    );
  }
  const rows: Row[] = [];
  const source =
    opened.kind === 'csv'
      ? csvRows(opened.stream, columnOf, 'file')
      : xlsxRows(opened.stream, columnOf);
  for await (const row of source) {
    if (Object.values(row.values).some((value) => cellText(value) !== '')) rows.push(row);
  }
  const missing = required.filter((anyOf) => !anyOf.some((column) => headers.has(column)));
  if (missing.length) {
    const names = missing.map((anyOf) =>
      anyOf
        .map(
          (column) => Object.entries(columns).find(([, value]) => value === column)?.[0] ?? column,
        )
        .join(' or '),
    );
    throw validationError([
      {
        location: 'body',
        field: 'file',
        message: `has no ${names.join(', ')} column; is it a bidder or catalogue export of this platform?`,
      },
    ]);
  }
  return { rows, headers };
}

function splitName(fullName: string): { firstName: string; lastName: string } {
  const comma = fullName.indexOf(',');
  if (comma >= 0) {
    return {
      lastName: fullName.slice(0, comma).trim(),
      firstName: fullName.slice(comma + 1).trim(),
    };
  }
  const space = fullName.lastIndexOf(' ');
  if (space < 0) throw new CellProblem('is not a name like "Last, First"');
  return { firstName: fullName.slice(0, space).trim(), lastName: fullName.slice(space + 1).trim() };
}

async function bidderRows(platform: Platform, file: ExportFile, options: ExportFileOptions) {
  const layout = exportLayouts[platform];
  const active = wordMap(layout.active);
  const { rows, headers } = await rowsOf(file, layout.bidders, [
    ['externalId'],
    ['firstName', 'fullName'],
  ]);
  const bidders: PlatformBidder[] = [];
  const errors: ExportFileError[] = [];
  for (const row of rows) {
    const read = reader(layout, row, headers);
    const { cell } = read;
    const currency = cell(
      'currency',
      (column) => read.currency(column, options.currency ?? 'USD'),
      'USD',
    );
    const name = headers.has('fullName')
      ? cell('fullName', (column) => splitName(read.required(column)), {
          firstName: '',
          lastName: '',
        })
      : {
          firstName: cell('firstName', read.required, ''),
          lastName: cell('lastName', read.required, ''),
        };
    const status = cell(
      'status',
      (column) => {
        const written = read.text(column);
        if (!written) return 'Active' as const;
        const isActive = active.get(written.toLowerCase());
        if (isActive === undefined)
          throw new CellProblem(`is not one of ${Object.keys(layout.active).join(', ')}`);
        return isActive ? ('Active' as const) : ('Inactive' as const);
      },
      'Active' as const,
    );
    const bidder: PlatformBidder = {
      externalId: cell('externalId', read.required, ''),
      ...name,
      email: read.optional('email'),
      phone: read.optional('phone'),
      status,
      lastActive: cell('lastActive', read.date, null),
      totalBids: cell('totalBids', read.count, 0),
      totalWins: cell('totalWins', read.count, 0),
      totalSpent: cell('totalSpent', (column) => read.money(column, currency) ?? 0, 0),
      currency,
      updatedAt: cell(
        'updatedAt',
        (column) => {
          const value = read.date(column);
          if (value === null) throw new CellProblem('is required');
          return value;
        },
        '',
      ),
    };
    if (read.problems.length) errors.push(...read.problems);
    else bidders.push(bidder);
  }
  return { bidders, errors };
}

async function catalogueRows(platform: Platform, file: ExportFile, options: ExportFileOptions) {
  const layout = exportLayouts[platform];
  const outcomes = wordMap(layout.outcomes);
  const { rows, headers } = await rowsOf(file, layout.catalogue, [
    ['externalId'],
    ['lotNumber'],
    ['title'],
  ]);
  const lots: CatalogueExportLot[] = [];
  const errors: ExportFileError[] = [];
  for (const row of rows) {
    const read = reader(layout, row, headers);
    const { cell } = read;
    const currency = cell(
      'currency',
      (column) => read.currency(column, options.currency ?? 'USD'),
      'USD',
    );
    const money = (column: LotColumn) => cell(column, (name) => read.money(name, currency), null);
    const [estimateLow, estimateHigh] = headers.has('estimateRange')
      ? cell(
          'estimateRange',
          (column): [number | null, number | null] => {
            const written = read.text(column);
            if (!written) return [null, null];
            const parts = written.split(/\s*[-–]\s*/);
            if (parts.length !== 2) throw new CellProblem('is not a range like 1,200 - 1,800');
            return [read.amount(parts[0], currency), read.amount(parts[1], currency)];
          },
          [null, null],
        )
      : [money('estimateLow'), money('estimateHigh')];
    const outcome = cell(
      'outcome',
      (column) => {
        const written = read.text(column);
        if (!written) return null;
        const word = outcomes.get(written.toLowerCase());
        if (word === undefined) {
          throw new CellProblem(`is not one of ${Object.keys(layout.outcomes).join(', ')}`);
        }
        return word;
      },
      null,
    );
    const hammer = money('hammer');
    const lot: CatalogueExportLot = {
      auctionExternalId: read.optional('auctionExternalId'),
      externalId: cell('externalId', read.required, ''),
      lotNumber: cell('lotNumber', read.required, ''),
      title: cell('title', read.required, ''),
      description: read.text('description'),
      category: read.optional('category'),
      estimateLow,
      estimateHigh,
      reserve: money('reserve'),
      consignor: read.optional('consignor'),
      result:
        outcome === null
          ? null
          : {
              outcome,
              hammer: outcome === 'sold' ? hammer : null,
              buyerExternalId: outcome === 'sold' ? read.optional('buyerExternalId') : null,
            },
    };
    if (read.problems.length) errors.push(...read.problems);
    else lots.push(lot);
  }
  return { lots, errors };
}

/**
 * A platform's bidder or catalogue export read into the connector's shapes, with a problem for
 * each cell that could not be read. A file that is not CSV or Excel, or lacks the columns that
 * identify the export, is refused whole (an AppError, as an upload of it would be).
 */
export function parseExportFile(
  platform: Platform,
  kind: 'bidders',
  file: ExportFile,
  options?: ExportFileOptions,
): Promise<{ bidders: PlatformBidder[]; errors: ExportFileError[] }>;
export function parseExportFile(
  platform: Platform,
  kind: 'catalogue',
  file: ExportFile,
  options?: ExportFileOptions,
): Promise<{ lots: CatalogueExportLot[]; errors: ExportFileError[] }>;
export function parseExportFile(
  platform: Platform,
  kind: 'bidders' | 'catalogue',
  file: ExportFile,
  options: ExportFileOptions = {},
) {
  return kind === 'bidders'
    ? bidderRows(platform, file, options)
    : catalogueRows(platform, file, options);
}
