import { z } from 'zod';
import { listAuctionsQuerySchema } from '../../auctions/auctions.schema.js';
import { listQuerySchema as listBiddersQuerySchema } from '../../bidders/bidders.schema.js';
import type { FunctionTable } from '../../platform/functions.js';
import { httpRoute, type RouteResult } from '../../platform/http.js';
import type { Logger } from '../../platform/logging.js';
import { listInvoicesQuerySchema, listTransactionsQuerySchema } from '../payments.schema.js';
import { listStatementsQuerySchema } from '../settlements/settlements.schema.js';
import {
  exportAuctions,
  exportBidders,
  exportInvoices,
  exportSettlements,
  exportTransactions,
  type ReportFile,
} from './exports.service.js';
import { attachment, reportFormats } from './report-writer.js';

const format = { format: z.enum(reportFormats).default('csv') };

export const transactionsExportQuerySchema = listTransactionsQuerySchema
  .omit({ pageSize: true, continuationToken: true })
  .extend(format);
export const invoicesExportQuerySchema = listInvoicesQuerySchema
  .omit({ pageSize: true, continuationToken: true })
  .extend(format);
export const settlementsExportQuerySchema = listStatementsQuerySchema
  .omit({ limit: true, pageSize: true, continuationToken: true })
  .extend(format);
export const biddersExportQuerySchema = listBiddersQuerySchema
  .omit({ limit: true, continuationToken: true })
  .extend(format);
export const auctionsExportQuerySchema = z
  .object(listAuctionsQuerySchema.shape)
  .omit({ page: true, limit: true })
  .extend(format)
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    path: ['endDate'],
    message: 'is before startDate',
  });

function fileReply(file: ReportFile, log: Logger, dataset: string): RouteResult {
  // The reply has started by the time a later page fails: all that is left is to say so.
  file.data.once('error', (error) => log.error('export failed part way', { dataset, error }));
  return {
    body: file.data,
    headers: {
      'content-type': file.contentType,
      'content-disposition': attachment(file.fileName),
      'x-content-type-options': 'nosniff',
    },
  };
}

const formats = 'format=csv|xlsx|pdf (CSV by default); money in major units with a currency column';

/**
 * Export Report: each list as CSV, an Excel workbook or a PDF, with the list's own filters, saved
 * as `{list}-{date}.{format}`. Payments' lists need the payments add-on and payments:reports; the
 * bidder and auction lists their own export permission.
 */
export const exportFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'exports-transactions',
      route: 'exports/transactions',
      methods: ['GET'],
      permission: 'payments:reports',
      feature: 'payments',
      summary: `Transactions with the list's filters; ${formats}`,
      query: transactionsExportQuerySchema,
      handler: async ({ ctx, query, log }) => {
        const { format: as, ...filters } = query;
        return fileReply(await exportTransactions(ctx, as, filters), log, 'transactions');
      },
    }),
    httpRoute({
      name: 'exports-invoices',
      route: 'exports/invoices',
      methods: ['GET'],
      permission: 'payments:reports',
      feature: 'payments',
      summary: `Invoices with the list's filters; ${formats}`,
      query: invoicesExportQuerySchema,
      handler: async ({ ctx, query, log }) => {
        const { format: as, ...filters } = query;
        return fileReply(await exportInvoices(ctx, as, filters), log, 'invoices');
      },
    }),
    httpRoute({
      name: 'exports-settlements',
      route: 'exports/settlements',
      methods: ['GET'],
      permission: 'payments:reports',
      feature: 'payments',
      summary: `Consignor statements with the list's filters; ${formats}`,
      query: settlementsExportQuerySchema,
      handler: async ({ ctx, query, log }) => {
        const { format: as, ...filters } = query;
        return fileReply(await exportSettlements(ctx, as, filters), log, 'settlements');
      },
    }),
    httpRoute({
      name: 'exports-bidders',
      route: 'exports/bidders',
      methods: ['GET'],
      permission: 'bidders:export',
      summary: `Bidders with the list's filters and order; ${formats}`,
      query: biddersExportQuerySchema,
      handler: async ({ ctx, query, log }) => {
        const { format: as, ...filters } = query;
        return fileReply(await exportBidders(ctx, as, filters), log, 'bidders');
      },
    }),
    httpRoute({
      name: 'exports-auctions',
      route: 'exports/auctions',
      methods: ['GET'],
      permission: 'auctions:export',
      summary: `Auctions with the list's filters and order; ${formats}`,
      query: auctionsExportQuerySchema,
      handler: async ({ ctx, query, log }) => {
        const { format: as, ...filters } = query;
        return fileReply(await exportAuctions(ctx, as, filters), log, 'auctions');
      },
    }),
  ],
};
