import type { Readable } from 'node:stream';
import { listAuctions } from '../../auctions/auctions.service.js';
import type { AuctionListItem, ListAuctionsQuery } from '../../auctions/auctions.schema.js';
import { listBidders } from '../../bidders/bidders.service.js';
import type { BidderListItem, ListQuery as BidderListQuery } from '../../bidders/bidders.schema.js';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { listInvoices, listTransactions } from '../payments.service.js';
import type {
  InvoiceListItem,
  ListInvoicesQuery,
  ListTransactionsQuery,
  Transaction,
} from '../payments.schema.js';
import type { ListStatementsQuery, Statement } from '../settlements/settlements.schema.js';
import { statementsPage } from '../settlements/settlements.service.js';
import {
  contentTypes,
  primedPages,
  renderReport,
  reportFileName,
  type Report,
  type ReportColumn,
  type ReportFormat,
} from './report-writer.js';

/**
 * Rows read at once: larger than a screen's page (the lists' routes allow 200), as each page of a
 * sorted query costs Cosmos (and the emulator most) a pass over the matching documents.
 */
const PAGE = 1000;
const AUCTION_PAGE = 1000;

export interface ReportFile {
  data: Readable;
  fileName: string;
  contentType: string;
}

async function exported<R>(
  ctx: RequestContext,
  dataset: string,
  format: ReportFormat,
  filters: Record<string, unknown>,
  report: Report<R>,
): Promise<ReportFile> {
  const fileName = reportFileName(dataset, format);
  // Who took which data out, and how much of it they asked for.
  await writeAudit(ctx, {
    action: `${dataset}.export`,
    entity: { type: 'export', id: fileName },
    after: { format, filters },
  });
  return { data: await renderReport(format, report), fileName, contentType: contentTypes[format] };
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

// ---- Transactions ----

const transactionColumns: ReportColumn<Transaction>[] = [
  { header: 'Transaction', kind: 'text', width: 16, value: (row) => row.transactionId },
  {
    header: 'Date',
    kind: 'date',
    width: 11,
    value: (row) => day(row.paymentDate ?? row.createdAt),
  },
  { header: 'Invoice', kind: 'text', width: 16, value: (row) => row.invoiceNumber },
  { header: 'Bidder', kind: 'text', width: 20, value: (row) => row.bidderName },
  { header: 'Email', kind: 'text', width: 24, value: (row) => row.bidderEmail },
  { header: 'Auction', kind: 'text', width: 24, value: (row) => row.auctionTitle },
  { header: 'Lots', kind: 'text', width: 10, value: (row) => row.lotNumbers.join(' ') },
  { header: 'Method', kind: 'text', width: 12, value: (row) => row.paymentMethod },
  { header: 'Status', kind: 'text', width: 11, value: (row) => row.paymentStatus },
  { header: 'Currency', kind: 'text', width: 8, value: (row) => row.currency },
  { header: 'Amount', kind: 'money', width: 12, value: (row) => row.amount },
  { header: 'Refunded', kind: 'money', width: 12, value: (row) => row.refundedAmount },
  { header: 'Reference', kind: 'text', width: 14, value: (row) => row.reference },
];

export async function exportTransactions(
  ctx: RequestContext,
  format: ReportFormat,
  filters: Omit<ListTransactionsQuery, 'pageSize' | 'continuationToken'>,
): Promise<ReportFile> {
  const pages = await primedPages((continuationToken) =>
    listTransactions(ctx, {
      ...filters,
      pageSize: PAGE,
      ...(continuationToken ? { continuationToken } : {}),
    }),
  );
  return exported(ctx, 'transactions', format, filters, {
    title: 'Transactions',
    columns: transactionColumns,
    currencyOf: (row) => row.currency,
    pages,
  });
}

// ---- Invoices ----

const invoiceColumns: ReportColumn<InvoiceListItem>[] = [
  { header: 'Invoice', kind: 'text', width: 16, value: (row) => row.number },
  { header: 'Issued', kind: 'date', width: 11, value: (row) => day(row.issuedAt) },
  { header: 'Due', kind: 'date', width: 11, value: (row) => row.dueDate },
  { header: 'Status', kind: 'text', width: 9, value: (row) => row.status },
  { header: 'Bidder', kind: 'text', width: 20, value: (row) => row.bidderName },
  { header: 'Email', kind: 'text', width: 24, value: (row) => row.bidderEmail },
  { header: 'Auction', kind: 'text', width: 24, value: (row) => row.auctionTitle },
  { header: 'Lots', kind: 'integer', width: 6, value: (row) => row.lines.length },
  { header: 'Currency', kind: 'text', width: 8, value: (row) => row.currency },
  { header: 'Hammer', kind: 'money', width: 12, value: (row) => row.hammerTotal },
  { header: 'Premium', kind: 'money', width: 12, value: (row) => row.premiumTotal },
  { header: 'Charges', kind: 'money', width: 11, value: (row) => row.chargesTotal },
  { header: 'Tax', kind: 'money', width: 11, value: (row) => row.tax.total },
  { header: 'Total', kind: 'money', width: 12, value: (row) => row.grandTotal },
  { header: 'Credited', kind: 'money', width: 11, value: (row) => row.creditedTotal },
  { header: 'Paid', kind: 'money', width: 12, value: (row) => row.paidTotal },
  { header: 'Refunded', kind: 'money', width: 11, value: (row) => row.refundedTotal },
  { header: 'Balance', kind: 'money', width: 12, value: (row) => row.balance },
];

export async function exportInvoices(
  ctx: RequestContext,
  format: ReportFormat,
  filters: Omit<ListInvoicesQuery, 'pageSize' | 'continuationToken'>,
): Promise<ReportFile> {
  const pages = await primedPages((continuationToken) =>
    listInvoices(ctx, {
      ...filters,
      pageSize: PAGE,
      ...(continuationToken ? { continuationToken } : {}),
    }),
  );
  return exported(ctx, 'invoices', format, filters, {
    title: 'Invoices',
    columns: invoiceColumns,
    currencyOf: (row) => row.currency,
    pages,
  });
}

// ---- Settlements ----

const statementColumns: ReportColumn<Statement>[] = [
  { header: 'Consignor', kind: 'text', width: 22, value: (row) => row.consignorName },
  { header: 'Auction', kind: 'text', width: 24, value: (row) => row.auctionTitle },
  { header: 'Statement', kind: 'integer', width: 9, value: (row) => row.sequence },
  { header: 'Date', kind: 'date', width: 11, value: (row) => day(row.createdAt) },
  { header: 'Status', kind: 'text', width: 9, value: (row) => row.status },
  { header: 'Lots', kind: 'integer', width: 6, value: (row) => row.lines.length },
  { header: 'Pending lots', kind: 'integer', width: 8, value: (row) => row.pending.length },
  { header: 'Currency', kind: 'text', width: 8, value: (row) => row.currency },
  { header: 'Hammer', kind: 'money', width: 12, value: (row) => row.totals.hammer },
  { header: 'Commission', kind: 'money', width: 12, value: (row) => row.totals.commission },
  { header: 'Fees', kind: 'money', width: 10, value: (row) => row.totals.fees },
  { header: 'Buy-back fees', kind: 'money', width: 10, value: (row) => row.totals.buyBackFees },
  { header: 'Adjustments', kind: 'money', width: 11, value: (row) => row.totals.adjustments },
  { header: 'Net payable', kind: 'money', width: 12, value: (row) => row.totals.net },
  { header: 'Paid on', kind: 'date', width: 11, value: (row) => row.paidOn },
  { header: 'Payout reference', kind: 'text', width: 16, value: (row) => row.payoutReference },
];

export async function exportSettlements(
  ctx: RequestContext,
  format: ReportFormat,
  filters: Omit<ListStatementsQuery, 'limit' | 'continuationToken'>,
): Promise<ReportFile> {
  const pages = await primedPages((continuationToken) =>
    statementsPage(ctx, {
      ...filters,
      limit: PAGE,
      ...(continuationToken ? { continuationToken } : {}),
    }),
  );
  return exported(ctx, 'settlements', format, filters, {
    title: 'Consignor settlements',
    columns: statementColumns,
    currencyOf: (row) => row.currency,
    pages,
  });
}

// ---- Bidders ----

const bidderColumns: ReportColumn<BidderListItem>[] = [
  { header: 'Bidder ID', kind: 'text', width: 12, value: (row) => row.bidderId },
  { header: 'First name', kind: 'text', width: 14, value: (row) => row.firstName },
  { header: 'Last name', kind: 'text', width: 14, value: (row) => row.lastName },
  { header: 'Email', kind: 'text', width: 26, value: (row) => row.email },
  { header: 'Phone', kind: 'text', width: 14, value: (row) => row.phone },
  { header: 'City', kind: 'text', width: 14, value: (row) => row.address.city },
  { header: 'Country', kind: 'text', width: 10, value: (row) => row.address.country },
  { header: 'Status', kind: 'text', width: 9, value: (row) => row.status },
  { header: 'Lotwise score', kind: 'integer', width: 8, value: (row) => row.lotwiseScore.score },
  { header: 'Tier', kind: 'text', width: 9, value: (row) => row.lotwiseScore.tier },
  { header: 'Custom score', kind: 'integer', width: 8, value: (row) => row.customScore.score },
  { header: 'Auctions bid', kind: 'integer', width: 8, value: (row) => row.stats.totalAuctionsBid },
  { header: 'Wins', kind: 'integer', width: 6, value: (row) => row.stats.wins },
  // In major units, as the bidder record keeps it (summed over the auctions' currencies).
  { header: 'Total won', kind: 'integer', width: 12, value: (row) => row.stats.totalWinAmount },
  { header: 'Auto-invite', kind: 'text', width: 10, value: (row) => row.autoInviteStatus },
  { header: 'Created', kind: 'date', width: 11, value: (row) => day(row.createdAt) },
];

export async function exportBidders(
  ctx: RequestContext,
  format: ReportFormat,
  filters: Omit<BidderListQuery, 'limit' | 'continuationToken'>,
): Promise<ReportFile> {
  const pages = await primedPages(async (continuationToken) => {
    const page = await listBidders(ctx, {
      ...filters,
      limit: PAGE,
      ...(continuationToken ? { continuationToken } : {}),
    });
    return { items: page.bidders, continuationToken: page.continuationToken };
  });
  return exported(ctx, 'bidders', format, filters, {
    title: 'Bidders',
    columns: bidderColumns,
    pages,
  });
}

// ---- Auctions ----

const auctionColumns: ReportColumn<AuctionListItem>[] = [
  { header: 'Title', kind: 'text', width: 28, value: (row) => row.title },
  { header: 'Company', kind: 'text', width: 18, value: (row) => row.company },
  { header: 'Status', kind: 'text', width: 10, value: (row) => row.status },
  { header: 'Type', kind: 'text', width: 8, value: (row) => row.type },
  { header: 'Category', kind: 'text', width: 12, value: (row) => row.category },
  {
    header: 'Starts',
    kind: 'text',
    width: 16,
    value: (row) => `${row.startDate} ${row.startTime}`,
  },
  { header: 'Ends', kind: 'text', width: 16, value: (row) => `${row.endDate} ${row.endTime}` },
  { header: 'Time zone', kind: 'text', width: 16, value: (row) => row.timeZone },
  { header: 'Location', kind: 'text', width: 16, value: (row) => row.location },
  { header: 'Currency', kind: 'text', width: 8, value: (row) => row.currency },
  { header: 'Lots', kind: 'integer', width: 6, value: (row) => row.lotCount },
  {
    header: 'Registered bidders',
    kind: 'integer',
    width: 9,
    value: (row) => row.biddersRegistered,
  },
  { header: 'Platform', kind: 'text', width: 11, value: (row) => row.importedFrom ?? 'Manual' },
];

export async function exportAuctions(
  ctx: RequestContext,
  format: ReportFormat,
  filters: Omit<ListAuctionsQuery, 'page' | 'limit'>,
): Promise<ReportFile> {
  // The auction list pages by number (its screen shows page numbers), up to 1000 a page.
  const pages = await primedPages(async (token) => {
    const page = token ? Number(token) : 1;
    const reply = await listAuctions(ctx, { ...filters, page, limit: AUCTION_PAGE });
    const more = page * AUCTION_PAGE < reply.total && reply.auctions.length === AUCTION_PAGE;
    return { items: reply.auctions, continuationToken: more ? String(page + 1) : null };
  });
  return exported(ctx, 'auctions', format, filters, {
    title: 'Auctions',
    columns: auctionColumns,
    pages,
  });
}
