import { stringify } from 'csv-stringify/sync';
import { DateTime } from 'luxon';
import type { Platform } from '../../src/auctions/auctions.schema.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from './model.js';
import { decimal, major } from './wire.js';

/**
 * The bidder and catalogue export files each platform lets a house download, with that
 * platform's headers, date and money formats. A CSV writes every cell as text; a workbook keeps
 * numbers as numbers and dates as date cells, as the platforms' spreadsheet exports do.
 */

type Cell = string | number | Date | null;

interface ExportFormat {
  /** How the CSV writes a date (a workbook has a date cell instead). */
  date: (ms: number) => string;
  bidders: [header: string, cell: (bidder: SandboxBidder) => Cell][];
  catalogue: [header: string, cell: (lot: SandboxLot, auction: SandboxAuction) => Cell][];
}

const at = (ms: number | null) => (ms === null ? null : new Date(ms));
const inZone = (zone: string, format: string) => (ms: number) =>
  DateTime.fromMillis(ms, { zone }).toFormat(format);
/** "$1,250.00": money as a person reads it. */
const dollars = (minor: number | null, currency: SandboxAuction['currency'], symbol = '$') => {
  if (minor === null) return null;
  const [whole = '', fraction] = decimal(minor, currency).split('.');
  return `${symbol}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
};
const plain = (minor: number | null, currency: SandboxAuction['currency']) =>
  minor === null ? null : decimal(minor, currency);
const amount = (minor: number | null, currency: SandboxAuction['currency']) =>
  minor === null ? null : major(minor, currency);

export const exportFormats: Record<Platform, ExportFormat> = {
  ProxyBid: {
    date: inZone('America/Chicago', 'MM/dd/yyyy hh:mm a'),
    bidders: [
      ['Bidder ID', (b) => b.id],
      ['First Name', (b) => b.firstName],
      ['Last Name', (b) => b.lastName],
      ['Email', (b) => b.email],
      ['Phone', (b) => b.phone],
      ['Status', (b) => (b.status === 'Active' ? 'Active' : 'Disabled')],
      ['Last Activity', (b) => at(b.lastActive)],
      ['Bids Placed', (b) => b.totalBids],
      ['Lots Won', (b) => b.totalWins],
      ['Total Purchases', (b) => dollars(b.totalSpent, b.currency)],
      ['Currency', (b) => b.currency],
      ['Last Modified', (b) => at(b.updatedAt)],
    ],
    catalogue: [
      ['Auction ID', (_, a) => a.id],
      ['Lot ID', (l) => l.id],
      ['Lot Number', (l) => l.lotNumber],
      ['Title', (l) => l.title],
      ['Description', (l) => l.description],
      ['Category', (l) => l.category],
      ['Low Estimate', (l, a) => dollars(l.estimateLow, a.currency)],
      ['High Estimate', (l, a) => dollars(l.estimateHigh, a.currency)],
      ['Reserve', (l, a) => dollars(l.reserve, a.currency)],
      ['Consignor', (l) => l.consignor],
      ['Status', (l) => (l.result ? (l.result.outcome === 'sold' ? 'Sold' : 'Passed') : null)],
      ['Hammer Price', (l, a) => dollars(l.result?.hammer ?? null, a.currency)],
      ['Winning Bidder ID', (l) => l.result?.buyerId ?? null],
      ['Currency', (_, a) => a.currency],
    ],
  },
  BidWrangler: {
    date: (ms) => new Date(ms).toISOString().replace('.000Z', 'Z'),
    bidders: [
      ['id', (b) => b.id],
      ['first_name', (b) => b.firstName],
      ['last_name', (b) => b.lastName],
      ['email', (b) => b.email],
      ['phone_e164', (b) => b.phone],
      ['active', (b) => String(b.status === 'Active')],
      ['last_seen_at', (b) => at(b.lastActive)],
      ['bid_count', (b) => b.totalBids],
      ['win_count', (b) => b.totalWins],
      ['spent_cents', (b) => b.totalSpent],
      ['currency', (b) => b.currency.toLowerCase()],
      ['updated_at', (b) => at(b.updatedAt)],
    ],
    catalogue: [
      ['auction_id', (_, a) => a.id],
      ['lot_id', (l) => l.id],
      ['number', (l) => l.lotNumber],
      ['name', (l) => l.title],
      ['details', (l) => l.description],
      ['category_slug', (l) => l.category],
      ['low_estimate_cents', (l) => l.estimateLow],
      ['high_estimate_cents', (l) => l.estimateHigh],
      ['reserve_cents', (l) => l.reserve],
      ['consignor_name', (l) => l.consignor],
      ['outcome', (l) => (l.result ? (l.result.outcome === 'sold' ? 'sold' : 'unsold') : null)],
      ['hammer_cents', (l) => l.result?.hammer ?? null],
      ['buyer_id', (l) => l.result?.buyerId ?? null],
      ['currency', (_, a) => a.currency.toLowerCase()],
    ],
  },
  Invaluable: {
    // Day first: Invaluable's exports are written the European way.
    date: inZone('UTC', 'dd/MM/yyyy HH:mm'),
    bidders: [
      ['Bidder Ref', (b) => b.id],
      ['Forename', (b) => b.firstName],
      ['Surname', (b) => b.lastName],
      ['Email Address', (b) => b.email],
      ['Telephone', (b) => b.phone],
      ['Active', (b) => (b.status === 'Active' ? 'Y' : 'N')],
      ['Last Bid Date', (b) => at(b.lastActive)],
      ['No. of Bids', (b) => b.totalBids],
      ['Lots Won', (b) => b.totalWins],
      ['Total Spend', (b) => amount(b.totalSpent, b.currency)],
      ['Currency', (b) => b.currency],
      ['Last Modified', (b) => at(b.updatedAt)],
    ],
    catalogue: [
      ['Catalog Ref', (_, a) => a.id],
      ['Lot Ref', (l) => l.id],
      ['Lot No', (l) => l.lotNumber],
      ['Lot Title', (l) => l.title],
      ['Lot Description', (l) => l.description],
      ['Department', (l) => l.category],
      ['Estimate Low', (l, a) => amount(l.estimateLow, a.currency)],
      ['Estimate High', (l, a) => amount(l.estimateHigh, a.currency)],
      ['Reserve', (l, a) => amount(l.reserve, a.currency)],
      ['Consignor', (l) => l.consignor],
      ['Sold', (l) => (l.result ? (l.result.outcome === 'sold' ? 'Y' : 'N') : null)],
      ['Hammer', (l, a) => amount(l.result?.hammer ?? null, a.currency)],
      ['Buyer Ref', (l) => l.result?.buyerId ?? null],
      ['Currency', (_, a) => a.currency],
    ],
  },
  'Auction.zip': {
    date: inZone('UTC', 'yyyy-MM-dd HH:mm:ss'),
    bidders: [
      ['BIDDER_ID', (b) => b.id],
      ['FIRST_NAME', (b) => b.firstName],
      ['LAST_NAME', (b) => b.lastName],
      ['EMAIL', (b) => b.email],
      ['PHONE', (b) => b.phone],
      ['STATUS', (b) => (b.status === 'Active' ? 'active' : 'inactive')],
      ['LAST_LOGIN', (b) => at(b.lastActive)],
      ['BIDS', (b) => b.totalBids],
      ['WINS', (b) => b.totalWins],
      ['TOTAL_SPENT', (b) => dollars(b.totalSpent, b.currency, '')],
      ['CURRENCY', (b) => b.currency],
      ['UPDATED_AT', (b) => at(b.updatedAt)],
    ],
    catalogue: [
      ['AUCTION_ID', (_, a) => a.id],
      ['LOT_ID', (l) => l.id],
      ['LOT_NUMBER', (l) => l.lotNumber],
      ['LOT_TITLE', (l) => l.title],
      ['LOT_DESCRIPTION', (l) => l.description],
      ['CATEGORY', (l) => l.category],
      ['LOW_ESTIMATE', (l, a) => dollars(l.estimateLow, a.currency, '')],
      ['HIGH_ESTIMATE', (l, a) => dollars(l.estimateHigh, a.currency, '')],
      ['RESERVE', (l, a) => dollars(l.reserve, a.currency, '')],
      ['CONSIGNOR', (l) => l.consignor],
      ['STATUS', (l) => l.result?.outcome ?? 'open'],
      ['HAMMER_PRICE', (l, a) => dollars(l.result?.hammer ?? null, a.currency, '')],
      ['BUYER_ID', (l) => l.result?.buyerId ?? null],
      ['CURRENCY', (_, a) => a.currency],
    ],
  },
  LiveAuctioneers: {
    date: inZone('UTC', 'yyyy-MM-dd HH:mm'),
    bidders: [
      ['Bidder Id', (b) => b.id],
      // One column, "Last, First", as LiveAuctioneers lists people.
      ['Bidder Name', (b) => `${b.lastName}, ${b.firstName}`],
      ['Email', (b) => b.email],
      ['Phone', (b) => b.phone],
      ['Status', (b) => (b.status === 'Active' ? 'active' : 'blocked')],
      ['Last Active', (b) => at(b.lastActive)],
      ['Bids', (b) => b.totalBids],
      ['Wins', (b) => b.totalWins],
      ['Spent', (b) => plain(b.totalSpent, b.currency)],
      ['Currency', (b) => b.currency],
      ['Updated', (b) => at(b.updatedAt)],
    ],
    catalogue: [
      ['Catalog Id', (_, a) => a.id],
      ['Lot Id', (l) => l.id],
      ['Lot #', (l) => l.lotNumber],
      ['Title', (l) => l.title],
      ['Description', (l) => l.description],
      ['Category', (l) => l.category],
      // The range in one cell: "1,200 - 1,800".
      [
        'Estimate',
        (l, a) =>
          l.estimateLow === null && l.estimateHigh === null
            ? null
            : `${dollars(l.estimateLow, a.currency, '') ?? ''} - ${dollars(l.estimateHigh, a.currency, '') ?? ''}`,
      ],
      ['Reserve', (l, a) => plain(l.reserve, a.currency)],
      ['Consignor', (l) => l.consignor],
      ['Result', (l) => (l.result ? (l.result.outcome === 'sold' ? 'sold' : 'unsold') : null)],
      ['Sold Price', (l, a) => plain(l.result?.hammer ?? null, a.currency)],
      ['Buyer Id', (l) => l.result?.buyerId ?? null],
      ['Currency', (_, a) => a.currency],
    ],
  },
  BidSquare: {
    date: inZone('America/New_York', 'M/d/yyyy h:mm:ss a'),
    bidders: [
      ['BidderId', (b) => b.id],
      ['FirstName', (b) => b.firstName],
      ['LastName', (b) => b.lastName],
      ['Email', (b) => b.email],
      ['Phone', (b) => b.phone],
      ['IsActive', (b) => (b.status === 'Active' ? 'True' : 'False')],
      ['LastActivityDate', (b) => at(b.lastActive)],
      ['TotalBids', (b) => b.totalBids],
      ['TotalWins', (b) => b.totalWins],
      ['TotalSpent', (b) => dollars(b.totalSpent, b.currency)],
      ['CurrencyCode', (b) => b.currency],
      ['ModifiedOn', (b) => at(b.updatedAt)],
    ],
    catalogue: [
      ['SaleId', (_, a) => a.id],
      ['LotId', (l) => l.id],
      ['LotNumber', (l) => l.lotNumber],
      ['Title', (l) => l.title],
      ['Description', (l) => l.description],
      ['CategoryName', (l) => l.category],
      ['LowEstimate', (l, a) => dollars(l.estimateLow, a.currency)],
      ['HighEstimate', (l, a) => dollars(l.estimateHigh, a.currency)],
      ['Reserve', (l, a) => dollars(l.reserve, a.currency)],
      ['ConsignorName', (l) => l.consignor],
      ['Outcome', (l) => (l.result ? (l.result.outcome === 'sold' ? 'Sold' : 'Passed') : null)],
      ['Hammer', (l, a) => dollars(l.result?.hammer ?? null, a.currency)],
      ['BuyerId', (l) => l.result?.buyerId ?? null],
      ['CurrencyCode', (_, a) => a.currency],
    ],
  },
};

export type ExportKind = 'bidders' | 'catalogue';

function table(
  platform: Platform,
  kind: ExportKind,
  bidders: SandboxBidder[],
  auctions: SandboxAuction[],
): { headers: string[]; rows: Cell[][] } {
  const format = exportFormats[platform];
  if (kind === 'bidders') {
    return {
      headers: format.bidders.map(([header]) => header),
      rows: bidders.map((bidder) => format.bidders.map(([, cell]) => cell(bidder))),
    };
  }
  return {
    headers: format.catalogue.map(([header]) => header),
    rows: auctions.flatMap((auction) =>
      auction.lots.map((lot) => format.catalogue.map(([, cell]) => cell(lot, auction))),
    ),
  };
}

export function exportCsv(
  platform: Platform,
  kind: ExportKind,
  bidders: SandboxBidder[],
  auctions: SandboxAuction[],
): string {
  const { headers, rows } = table(platform, kind, bidders, auctions);
  const date = exportFormats[platform].date;
  return stringify([
    headers,
    ...rows.map((row) =>
      row.map((cell) =>
        cell instanceof Date ? date(cell.getTime()) : cell === null ? '' : String(cell),
      ),
    ),
  ]);
}

export async function exportXlsx(
  platform: Platform,
  kind: ExportKind,
  bidders: SandboxBidder[],
  auctions: SandboxAuction[],
): Promise<Buffer> {
  const { headers, rows } = table(platform, kind, bidders, auctions);
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  const sheet = workbook.addWorksheet(kind === 'bidders' ? 'Bidders' : 'Catalogue');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row.map((cell) => cell ?? ''));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
