import type { FunctionTable, TimerFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { contextLogger } from '../platform/invocation-log.js';
import { portalTokenParamsSchema } from '../settings/settings.schema.js';
import {
  confirmCardPayment,
  refundTransaction,
  retryPayment,
  startCardPayment,
} from './card-payments.service.js';
import {
  auctionParamsSchema,
  cardPaymentInputSchema,
  cardPaymentSchema,
  creditNoteInputSchema,
  generateInvoicesResultSchema,
  idParamsSchema,
  invoicePageSchema,
  invoiceSchema,
  invoiceTermsInputSchema,
  invoiceTermsSchema,
  invoiceUpdateSchema,
  listInvoicesQuerySchema,
  listTransactionsQuerySchema,
  manualInvoiceInputSchema,
  offlinePaymentInputSchema,
  overviewSchema,
  portalCardPaymentSchema,
  portalConfirmInputSchema,
  portalConfirmSchema,
  refundInputSchema,
  sendInvoiceResultSchema,
  shippingUpdateSchema,
  transactionPageSchema,
  transactionSchema,
  voidInputSchema,
} from './payments.schema.js';
import {
  addCreditNote,
  approveInvoice,
  createManualInvoice,
  generateAuctionInvoices,
  getInvoice,
  getTerms,
  getTransaction,
  listInvoices,
  listTransactions,
  markOverdueEverywhere,
  overview,
  recordOfflinePayment,
  updateInvoice,
  updateShipping,
  updateTerms,
  voidInvoice,
} from './payments.service.js';
import { portalCardPayment, portalConfirm, sendInvoice } from './portal.service.js';

const withEtag = <T extends { etag: string }>(json: T) => ({ json, etag: json.etag });

/** Hourly: unpaid invoices past their due date become payment defaults, once each. */
const overdueTimer: TimerFunction = {
  kind: 'timer',
  name: 'payments-overdue',
  schedule: '0 5 * * * *',
  handler: async (_timer, context) => {
    const log = contextLogger(context, {
      function: 'payments-overdue',
      invocationId: context.invocationId,
    });
    await markOverdueEverywhere(log);
  },
};

const payments = 'payments' as const;

/**
 * Payments (spec 2.6, 3.5): buyer invoices, transactions, refunds and the buyer portal's payment
 * calls. Every route but the portal's needs the payments add-on; reading takes payments:view,
 * taking money payments:process, refunds payments:refund (owner only by the role sets).
 */
export const paymentsFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    overdueTimer,
    httpRoute({
      name: 'payments-terms-get',
      route: 'payments/auctions/{auctionId}/terms',
      methods: ['GET'],
      permission: 'payments:view',
      feature: payments,
      summary:
        "An auction's invoice terms (defaults until saved: its premium flat, no tax, due in 7 days)",
      params: auctionParamsSchema,
      response: invoiceTermsSchema,
      handler: async ({ ctx, params }) => withEtag(await getTerms(ctx, params.auctionId)),
    }),
    httpRoute({
      name: 'payments-terms-update',
      route: 'payments/auctions/{auctionId}/terms',
      methods: ['PUT'],
      permission: 'payments:process',
      feature: payments,
      concurrency: 'if-match',
      params: auctionParamsSchema,
      body: invoiceTermsInputSchema,
      response: invoiceTermsSchema,
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await updateTerms(ctx, params.auctionId, body, ifMatch)),
    }),
    httpRoute({
      name: 'payments-auction-invoices',
      route: 'payments/auctions/{auctionId}/invoices',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary:
        "Makes a Completed auction's buyer invoices that are missing (one per winning bidder)",
      params: auctionParamsSchema,
      response: generateInvoicesResultSchema,
      handler: async ({ ctx, params }) => ({
        json: await generateAuctionInvoices(ctx, params.auctionId),
      }),
    }),
    httpRoute({
      name: 'payments-invoices-list',
      route: 'payments/invoices',
      methods: ['GET'],
      permission: 'payments:view',
      feature: payments,
      query: listInvoicesQuerySchema,
      response: invoicePageSchema,
      handler: async ({ ctx, query }) => ({ json: await listInvoices(ctx, query) }),
    }),
    httpRoute({
      name: 'payments-invoices-create',
      route: 'payments/invoices',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary: 'Manual Invoice: a draft invoice for a bidder, with lines and charges',
      body: manualInvoiceInputSchema,
      response: invoiceSchema,
      handler: async ({ ctx, body }) => {
        const json = await createManualInvoice(ctx, body);
        return { status: 201, json, etag: json.etag };
      },
    }),
    httpRoute({
      name: 'payments-invoice-get',
      route: 'payments/invoices/{id}',
      methods: ['GET'],
      permission: 'payments:view',
      feature: payments,
      params: idParamsSchema,
      response: invoiceSchema,
      handler: async ({ ctx, params }) => withEtag(await getInvoice(ctx, params.id)),
    }),
    httpRoute({
      name: 'payments-invoice-update',
      route: 'payments/invoices/{id}',
      methods: ['PUT'],
      permission: 'payments:process',
      feature: payments,
      concurrency: 'if-match',
      summary: "A draft invoice's charges, notes and due date",
      params: idParamsSchema,
      body: invoiceUpdateSchema,
      response: invoiceSchema,
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await updateInvoice(ctx, params.id, body, ifMatch)),
    }),
    httpRoute({
      name: 'payments-invoice-approve',
      route: 'payments/invoices/{id}/approve',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      params: idParamsSchema,
      response: invoiceSchema,
      handler: async ({ ctx, params }) => withEtag(await approveInvoice(ctx, params.id)),
    }),
    httpRoute({
      name: 'payments-invoice-void',
      route: 'payments/invoices/{id}/void',
      methods: ['POST'],
      permission: 'payments:void',
      feature: payments,
      params: idParamsSchema,
      body: voidInputSchema,
      response: invoiceSchema,
      handler: async ({ ctx, params, body }) =>
        withEtag(await voidInvoice(ctx, params.id, body?.reason ?? '')),
    }),
    httpRoute({
      name: 'payments-invoice-send',
      route: 'payments/invoices/{id}/send',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary: 'Send Email: mails the buyer a signed, expiring link to the payment portal',
      params: idParamsSchema,
      response: sendInvoiceResultSchema,
      handler: async ({ ctx, params }) => ({ json: await sendInvoice(ctx, params.id) }),
    }),
    httpRoute({
      name: 'payments-invoice-credit',
      route: 'payments/invoices/{id}/credit-notes',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary: 'A credit note on a sent or paid invoice: lots in full and/or an amount of charges',
      params: idParamsSchema,
      body: creditNoteInputSchema,
      response: invoiceSchema,
      handler: async ({ ctx, params, body }) => {
        const json = await addCreditNote(ctx, params.id, body);
        return { status: 201, json, etag: json.etag };
      },
    }),
    httpRoute({
      name: 'payments-invoice-payment',
      route: 'payments/invoices/{id}/payments',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary: 'Records a bank transfer, PayPal, cash or check payment (Completed at once)',
      params: idParamsSchema,
      body: offlinePaymentInputSchema,
      response: transactionSchema,
      handler: async ({ ctx, params, body }) => {
        const json = await recordOfflinePayment(ctx, params.id, body);
        return { status: 201, json, etag: json.etag };
      },
    }),
    httpRoute({
      name: 'payments-invoice-card-payment',
      route: 'payments/invoices/{id}/card-payment',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary:
        'A card payment (Stripe PaymentIntent) of the balance or part of it; a double click makes one',
      params: idParamsSchema,
      body: cardPaymentInputSchema,
      response: cardPaymentSchema,
      handler: async ({ ctx, params, body }) => ({
        status: 201,
        json: await startCardPayment(ctx, params.id, body?.amount),
      }),
    }),
    httpRoute({
      name: 'payments-overview',
      route: 'payments/overview',
      methods: ['GET'],
      permission: 'payments:view',
      feature: payments,
      response: overviewSchema,
      handler: async ({ ctx }) => ({ json: await overview(ctx) }),
    }),
    httpRoute({
      name: 'payments-transactions-list',
      route: 'payments/transactions',
      methods: ['GET'],
      permission: 'payments:view',
      feature: payments,
      query: listTransactionsQuerySchema,
      response: transactionPageSchema,
      handler: async ({ ctx, query }) => ({ json: await listTransactions(ctx, query) }),
    }),
    httpRoute({
      name: 'payments-transaction-get',
      route: 'payments/transactions/{id}',
      methods: ['GET'],
      permission: 'payments:view',
      feature: payments,
      params: idParamsSchema,
      response: transactionSchema,
      handler: async ({ ctx, params }) => withEtag(await getTransaction(ctx, params.id)),
    }),
    httpRoute({
      name: 'payments-transaction-shipping',
      route: 'payments/transactions/{id}/shipping',
      methods: ['PUT'],
      permission: 'payments:process',
      feature: payments,
      concurrency: 'if-match',
      params: idParamsSchema,
      body: shippingUpdateSchema,
      response: transactionSchema,
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await updateShipping(ctx, params.id, body, ifMatch)),
    }),
    httpRoute({
      name: 'payments-transaction-retry',
      route: 'payments/transactions/{id}/retry',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary: "A failed card payment's next attempt (a new PaymentIntent)",
      params: idParamsSchema,
      response: cardPaymentSchema,
      handler: async ({ ctx, params }) => ({ json: await retryPayment(ctx, params.id) }),
    }),
    httpRoute({
      name: 'payments-transaction-confirm',
      route: 'payments/transactions/{id}/confirm',
      methods: ['POST'],
      permission: 'payments:process',
      feature: payments,
      summary: "Reads a card payment's PaymentIntent from Stripe and applies its state",
      params: idParamsSchema,
      response: transactionSchema,
      handler: async ({ ctx, params }) => withEtag(await confirmCardPayment(ctx, params.id)),
    }),
    httpRoute({
      name: 'payments-transaction-refund',
      route: 'payments/transactions/{id}/refunds',
      methods: ['POST'],
      permission: 'payments:refund',
      feature: payments,
      summary: 'Refunds all or part of a completed payment (never more than paid less refunded)',
      params: idParamsSchema,
      body: refundInputSchema,
      response: transactionSchema,
      handler: async ({ ctx, params, body }) => {
        const json = await refundTransaction(ctx, params.id, body ?? { reason: '' });
        return { status: 201, json, etag: json.etag };
      },
    }),
    httpRoute({
      name: 'portal-card-payment',
      route: 'portal/{token}/card-payment',
      methods: ['POST'],
      // The signed link is the permission, as for the page itself.
      permission: 'public',
      summary: "The buyer's card payment of the invoice's balance: what Stripe.js needs",
      params: portalTokenParamsSchema,
      response: portalCardPaymentSchema,
      handler: async ({ params }) => ({ json: await portalCardPayment(params.token) }),
    }),
    httpRoute({
      name: 'portal-card-payment-confirm',
      route: 'portal/{token}/card-payment/confirm',
      methods: ['POST'],
      permission: 'public',
      summary: "Reads the buyer's PaymentIntent from Stripe and applies it (idempotent)",
      params: portalTokenParamsSchema,
      body: portalConfirmInputSchema,
      response: portalConfirmSchema,
      handler: async ({ params, body }) => ({
        json: await portalConfirm(params.token, body.paymentIntentId),
      }),
    }),
  ],
};
