import { z } from 'zod';
import type { FunctionTable } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { pathIdSchema } from '../../platform/validation.js';
import { attachment } from '../exports/report-writer.js';
import {
  agreementInputSchema,
  agreementListSchema,
  agreementSchema,
  agreementTermsSchema,
  buildResultSchema,
  listAgreementsQuerySchema,
  listStatementsQuerySchema,
  markPaidSchema,
  statementListSchema,
  statementSchema,
} from './settlements.schema.js';
import {
  approveStatement,
  buildSettlements,
  createAgreement,
  defaultAgreement,
  deleteAgreement,
  getAgreement,
  getStatement,
  listAgreements,
  listStatements,
  markStatementPaid,
  statementPdf,
  updateAgreement,
  updateDefaultAgreement,
} from './settlements.service.js';

const idParams = z.object({ id: pathIdSchema });

const withEtag = <T extends { etag: string }>(json: T, status = 200) => ({
  status,
  json,
  etag: json.etag,
});

/**
 * Consignor settlements (payments add-on): consignors' agreements, the statements built from an
 * auction's paid lots, their approval and payout, and the statement PDF. Reading takes
 * payments:view; building, approving and agreements payments:process; recording a payout
 * payments:reconcile.
 */
export const settlementFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'consignor-agreements-list',
      route: 'consignor-agreements',
      methods: ['GET'],
      permission: 'payments:view',
      feature: 'payments',
      summary: "Consignors' agreements by name, a page at a time (the default is apart)",
      query: listAgreementsQuerySchema,
      response: agreementListSchema,
      handler: async ({ ctx, query }) => ({ json: await listAgreements(ctx, query) }),
    }),
    httpRoute({
      name: 'consignor-agreements-create',
      route: 'consignor-agreements',
      methods: ['POST'],
      permission: 'payments:process',
      feature: 'payments',
      summary: "A consignor's agreement (409 when they have one)",
      body: agreementInputSchema,
      response: agreementSchema,
      handler: async ({ ctx, body }) => withEtag(await createAgreement(ctx, body), 201),
    }),
    httpRoute({
      name: 'consignor-agreements-default-get',
      route: 'consignor-agreements/default',
      methods: ['GET'],
      permission: 'payments:view',
      feature: 'payments',
      summary:
        'The terms for consignors without an agreement (fixed 15%, no minimum, no fees until changed)',
      response: agreementSchema,
      handler: async ({ ctx }) => withEtag(await defaultAgreement(ctx)),
    }),
    httpRoute({
      name: 'consignor-agreements-default-update',
      route: 'consignor-agreements/default',
      methods: ['PUT'],
      permission: 'payments:process',
      feature: 'payments',
      summary: 'Changes the default terms, over the version read (If-Match)',
      body: agreementTermsSchema,
      response: agreementSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, body, ifMatch }) =>
        withEtag(await updateDefaultAgreement(ctx, body, ifMatch)),
    }),
    httpRoute({
      name: 'consignor-agreements-get',
      route: 'consignor-agreements/{id}',
      methods: ['GET'],
      permission: 'payments:view',
      feature: 'payments',
      params: idParams,
      response: agreementSchema,
      handler: async ({ ctx, params }) => withEtag(await getAgreement(ctx, params.id)),
    }),
    httpRoute({
      name: 'consignor-agreements-update',
      route: 'consignor-agreements/{id}',
      methods: ['PUT'],
      permission: 'payments:process',
      feature: 'payments',
      summary: "Changes a consignor's agreement, over the version read (If-Match)",
      params: idParams,
      body: agreementInputSchema,
      response: agreementSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await updateAgreement(ctx, params.id, body, ifMatch)),
    }),
    httpRoute({
      name: 'consignor-agreements-delete',
      route: 'consignor-agreements/{id}',
      methods: ['DELETE'],
      permission: 'payments:process',
      feature: 'payments',
      summary: 'Removes an agreement: the consignor falls back to the default terms',
      params: idParams,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) => {
        await deleteAgreement(ctx, params.id, ifMatch);
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'settlements-build',
      route: 'auctions/{id}/settlements',
      methods: ['POST'],
      permission: 'payments:process',
      feature: 'payments',
      summary:
        "Builds or brings up to date each consignor's draft statement for a Completed auction (409 otherwise); nothing changes when nothing did",
      params: idParams,
      response: buildResultSchema,
      handler: async ({ ctx, params }) => {
        const result = await buildSettlements(ctx, params.id);
        return { status: result.created > 0 ? 201 : 200, json: result };
      },
    }),
    httpRoute({
      name: 'settlements-list',
      route: 'settlements',
      methods: ['GET'],
      permission: 'payments:view',
      feature: 'payments',
      summary: 'Statements, newest first, by auction, consignor and status, a page at a time',
      query: listStatementsQuerySchema,
      response: statementListSchema,
      handler: async ({ ctx, query }) => ({ json: await listStatements(ctx, query) }),
    }),
    httpRoute({
      name: 'settlements-get',
      route: 'settlements/{id}',
      methods: ['GET'],
      permission: 'payments:view',
      feature: 'payments',
      params: idParams,
      response: statementSchema,
      handler: async ({ ctx, params }) => withEtag(await getStatement(ctx, params.id)),
    }),
    httpRoute({
      name: 'settlements-approve',
      route: 'settlements/{id}/approve',
      methods: ['POST'],
      permission: 'payments:process',
      feature: 'payments',
      summary: 'Approves a draft (If-Match): it is closed from then on',
      params: idParams,
      response: statementSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) =>
        withEtag(await approveStatement(ctx, params.id, ifMatch)),
    }),
    httpRoute({
      name: 'settlements-mark-paid',
      route: 'settlements/{id}/mark-paid',
      methods: ['POST'],
      permission: 'payments:reconcile',
      feature: 'payments',
      summary: 'Records the payout of an approved statement: its reference and day (If-Match)',
      params: idParams,
      body: markPaidSchema,
      response: statementSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await markStatementPaid(ctx, params.id, ifMatch, body)),
    }),
    httpRoute({
      name: 'settlements-statement-pdf',
      route: 'settlements/{id}/statement.pdf',
      methods: ['GET'],
      permission: 'payments:view',
      feature: 'payments',
      summary: 'The statement as a PDF (application/pdf, an attachment)',
      params: idParams,
      handler: async ({ ctx, params, log }) => {
        const file = await statementPdf(ctx, params.id);
        file.data.once('error', (error) =>
          log.error('statement PDF failed part way', { statementId: params.id, error }),
        );
        return {
          body: file.data,
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': attachment(file.fileName),
            'x-content-type-options': 'nosniff',
          },
        };
      },
    }),
  ],
};
