import { z } from 'zod';
import { currencies } from '../auctions/markets.schema.js';
import { houseCurrencies } from '../identity/accounts/accounts.schema.js';

/**
 * Contracts of Payments (spec 2.6, 3.5, 4.3): buyer invoices and their credit notes, the invoice
 * terms of an auction, transactions (one per payment) with refunds and disputes, the overview, and
 * the buyer portal's payment side. Money is integer minor units of the invoice's currency; rates
 * are basis points (1 bp = 0.01%, 26% = 2600). The arithmetic and its rounding are `money-math.ts`.
 */

const text = (max: number) => z.string().trim().max(max);
const id = z.string().trim().min(1, 'is required').max(100);
/** Money: integer minor units of the invoice's currency. */
const amount = z
  .number()
  .int('is a whole number of minor units (cents)')
  .min(0, 'cannot be negative')
  .max(1_000_000_000_000);
const positiveAmount = amount.min(1, 'must be more than 0');
const bps = z
  .number()
  .int('is a whole number of basis points')
  .min(0, 'is 0 to 10000 basis points')
  .max(10_000, 'is 0 to 10000 basis points');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'is a date like 2026-12-31')
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, 'is not a real date');

// ---- Constants (spec 3.5, 4.3, 9.4) ----

export const paymentStatuses = [
  'Pending',
  'Processing',
  'Completed',
  'Failed',
  'Refunded',
  'Disputed',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentMethods = ['Credit Card', 'Bank Transfer', 'PayPal', 'Cash', 'Check'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];
/** Methods a house records by hand (money it already holds); cards go through Stripe. */
export const offlinePaymentMethods = ['Bank Transfer', 'PayPal', 'Cash', 'Check'] as const;
export type OfflinePaymentMethod = (typeof offlinePaymentMethods)[number];

/**
 * draft → approved → sent → viewed (the buyer opened the link) → paid; void from draft or approved.
 * A partial payment leaves a sent/viewed invoice where it is, with `paidTotal` and `balance`.
 */
export const invoiceStatuses = ['draft', 'approved', 'sent', 'viewed', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];
export const invoiceKinds = ['auction', 'manual'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/** Spec 9.4: the overview lists the 5 most recent transactions. */
export const RECENT_TRANSACTIONS = 5;
/** Payment is due this many days after the close unless the auction's terms say otherwise. */
export const DEFAULT_PAYMENT_DUE_DAYS = 7;
/** A list page holds at most this many rows. */
export const MAX_PAGE_SIZE = 200;

// ---- Invoice terms of an auction ----

/**
 * A sliding scale: each band's rate applies to the part of the hammer up to `upTo` (minor units;
 * null on the last band = everything above). A flat rate is one band with `upTo: null`.
 */
export const rateBandSchema = z.object({ upTo: amount.nullable(), rateBps: bps });
export const rateScaleSchema = z
  .array(rateBandSchema)
  .min(1, 'needs at least one band')
  .max(20)
  .superRefine((bands, ctx) => {
    let previous = 0;
    bands.forEach((band, index) => {
      const last = index === bands.length - 1;
      if (last && band.upTo !== null) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'upTo'],
          message: 'is empty on the last band',
        });
      }
      if (!last && band.upTo === null) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'upTo'],
          message: 'is required but on the last band',
        });
      }
      if (!last && band.upTo !== null) {
        if (band.upTo <= previous) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'upTo'],
            message: 'is above the band before',
          });
        }
        previous = band.upTo;
      }
    });
  });
export type RateScaleInput = z.infer<typeof rateScaleSchema>;

export const taxRatesSchema = z.object({
  hammerBps: bps,
  premiumBps: bps,
  chargesBps: bps,
});
export type TaxRates = z.infer<typeof taxRatesSchema>;

export const chargeSchema = z.object({
  label: text(120).min(1, 'is required'),
  amount,
});
export type Charge = z.infer<typeof chargeSchema>;

/** PUT /payments/auctions/{auctionId}/terms (If-Match). */
export const invoiceTermsInputSchema = z.object({
  /** The buyer's premium on each lot's hammer. */
  premium: rateScaleSchema,
  /** For lots won online (see `internet` on a line); null = the same as `premium`. */
  internetPremium: rateScaleSchema.nullable(),
  tax: taxRatesSchema,
  /** Added to every invoice of the auction (shipping, handling); empty = none. */
  defaultCharges: z.array(chargeSchema).max(10),
  /** Days after the close (or the invoice's date) payment is due. */
  paymentDueDays: z.number().int().min(0).max(365),
});
export type InvoiceTermsInput = z.infer<typeof invoiceTermsInputSchema>;

export const invoiceTermsSchema = invoiceTermsInputSchema.extend({
  auctionId: z.string(),
  currency: z.enum(currencies),
  /** False until someone saves them: the defaults (flat at the auction's premium, no tax, 7 days). */
  saved: z.boolean(),
  updatedAt: z.string().nullable(),
  etag: z.string(),
});
export type InvoiceTerms = z.infer<typeof invoiceTermsSchema>;

// ---- Invoices ----

const personSchema = z.object({ id: z.string(), name: z.string() });

export const invoiceLineSchema = z.object({
  /** The lot; null on a manual invoice's line. */
  lotId: z.string().nullable(),
  /** The lot number, or the line's position on a manual invoice. */
  lotNumber: z.string(),
  title: z.string(),
  hammer: z.number().int(),
  premium: z.number().int(),
  /** Won online: priced with the internet premium. */
  internet: z.boolean(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoiceTaxSchema = z.object({
  hammer: z.number().int(),
  premium: z.number().int(),
  charges: z.number().int(),
  total: z.number().int(),
});

export const creditNoteSchema = z.object({
  id: z.string(),
  /** CN-2026-00001 */
  number: z.string(),
  invoiceId: z.string(),
  lotNumbers: z.array(z.string()),
  lotIds: z.array(z.string()),
  hammerTotal: z.number().int(),
  premiumTotal: z.number().int(),
  chargesTotal: z.number().int(),
  tax: invoiceTaxSchema,
  /** What the note takes off the invoice. */
  total: z.number().int(),
  reason: z.string(),
  createdAt: z.string(),
  createdBy: personSchema.nullable(),
});
export type CreditNote = z.infer<typeof creditNoteSchema>;

export const invoiceEventSchema = z.object({
  at: z.string(),
  action: z.string(),
  by: personSchema.nullable(),
  detail: z.string(),
});

export const invoiceSchema = z.object({
  id: z.string(),
  /** INV-2026-00042: human, per account, never reused. */
  number: z.string(),
  kind: z.enum(invoiceKinds),
  status: z.enum(invoiceStatuses),
  auctionId: z.string().nullable(),
  auctionTitle: z.string(),
  bidderId: z.string(),
  bidderName: z.string(),
  bidderEmail: z.string(),
  currency: z.enum(currencies),
  lines: z.array(invoiceLineSchema),
  charges: z.array(chargeSchema),
  /** The rates the invoice was priced with (kept, so a later change of terms rewrites nothing). */
  premium: z.array(rateBandSchema),
  internetPremium: z.array(rateBandSchema).nullable(),
  taxRates: taxRatesSchema,
  hammerTotal: z.number().int(),
  premiumTotal: z.number().int(),
  chargesTotal: z.number().int(),
  tax: invoiceTaxSchema,
  grandTotal: z.number().int(),
  /** The credit notes' totals. */
  creditedTotal: z.number().int(),
  /** Completed payments (refunds are not taken off: see `refundedTotal`). */
  paidTotal: z.number().int(),
  refundedTotal: z.number().int(),
  /** grandTotal − creditedTotal − (paidTotal − refundedTotal); below 0 = owed back to the buyer. */
  balance: z.number().int(),
  credits: z.array(creditNoteSchema),
  notes: z.string(),
  /** The day payment is due (the house's calendar date). */
  dueDate: z.string(),
  issuedAt: z.string(),
  approvedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  viewedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  voidedAt: z.string().nullable(),
  /** When the overdue timer counted it as a payment default. */
  overdueAt: z.string().nullable(),
  history: z.array(invoiceEventSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  etag: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListItemSchema = invoiceSchema.omit({ history: true, credits: true });
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;

export const listInvoicesQuerySchema = z.object({
  status: z.enum(invoiceStatuses).optional(),
  auctionId: id.optional(),
  bidderId: id.optional(),
  /** Matches the number, the bidder's name or email, or the auction's title. */
  search: text(200).optional(),
  /**
   * `true`: only invoices still owed (approved, sent or viewed, with a balance) whose due date has
   * passed in the house's calendar, oldest due first; `false` or absent: no such filter.
   */
  overdue: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  continuationToken: z.string().max(4000).optional(),
});
export type ListInvoicesQuery = z.infer<typeof listInvoicesQuerySchema>;

export const invoicePageSchema = z.object({
  items: z.array(invoiceListItemSchema),
  continuationToken: z.string().nullable(),
  /** How many invoices match the filters (all pages). */
  total: z.number().int(),
});

export const generateInvoicesResultSchema = z.object({
  /** Invoices made now; ones already there are left as they are. */
  created: z.number().int(),
  /** Invoices of the auction in all (one per winning bidder). */
  total: z.number().int(),
});

/** PUT /payments/invoices/{id} (If-Match): a draft's charges, notes and due date. */
export const invoiceUpdateSchema = z
  .object({
    charges: z.array(chargeSchema).max(20),
    notes: text(5000),
    dueDate: isoDate,
  })
  .partial()
  .strict();
export type InvoiceUpdate = z.infer<typeof invoiceUpdateSchema>;

/** POST /payments/invoices: a Manual Invoice for a bidder. */
export const manualInvoiceInputSchema = z.object({
  bidderId: id,
  currency: z.enum(currencies).default('USD'),
  /** Optional: the auction the invoice belongs to (its title is shown). */
  auctionId: id.nullable().default(null),
  lines: z
    .array(z.object({ description: text(300).min(1, 'is required'), amount }))
    .min(1, 'needs at least one line')
    .max(200),
  charges: z.array(chargeSchema).max(20).default([]),
  /** Tax on the lines (as hammer) and on the charges. */
  taxRates: taxRatesSchema.default({ hammerBps: 0, premiumBps: 0, chargesBps: 0 }),
  dueDate: isoDate.optional(),
  notes: text(5000).default(''),
});
export type ManualInvoiceInput = z.infer<typeof manualInvoiceInputSchema>;

export const creditNoteInputSchema = z
  .object({
    /** Lots credited in full (their hammer, premium and tax). */
    lotIds: z.array(id).max(2000).default([]),
    /** An amount of the invoice's charges credited (before tax). */
    charges: amount.default(0),
    reason: text(1000).min(1, 'is required'),
  })
  .refine((input) => input.lotIds.length > 0 || input.charges > 0, {
    path: ['lotIds'],
    message: 'name at least one lot or an amount of charges',
  });
export type CreditNoteInput = z.infer<typeof creditNoteInputSchema>;

export const voidInputSchema = z.object({ reason: text(500).default('') });

// ---- Transactions (spec 3.5) ----

export const refundSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  /** Stripe's refund for a card payment; null for money returned by hand. */
  stripeRefundId: z.string().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  createdAt: z.string(),
  createdBy: personSchema.nullable(),
});
export type Refund = z.infer<typeof refundSchema>;

export const disputeSchema = z.object({
  stripeDisputeId: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  /** Stripe's: needs_response, under_review, won, lost, ... */
  status: z.string(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  /** The legal case opened for it. */
  caseId: z.string().nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;

export const transactionEventSchema = invoiceEventSchema;

export const transactionSchema = z.object({
  id: z.string(),
  /** TXN-2026-00001 */
  transactionId: z.string(),
  invoiceId: z.string(),
  invoiceNumber: z.string(),
  bidderId: z.string(),
  bidderName: z.string(),
  bidderEmail: z.string(),
  auctionId: z.string().nullable(),
  auctionTitle: z.string(),
  lotNumbers: z.array(z.string()),
  /** The invoice's breakdown (spec 3.5): winning bids, premium, taxes, shipping, grand total. */
  totalAmount: z.number().int(),
  buyersPremium: z.number().int(),
  taxes: z.number().int(),
  shippingFees: z.number().int(),
  grandTotal: z.number().int(),
  /** What this payment is for (all or part of the invoice's balance). */
  amount: z.number().int(),
  currency: z.enum(currencies),
  paymentMethod: z.enum(paymentMethods),
  paymentStatus: z.enum(paymentStatuses),
  dueDate: z.string(),
  paymentDate: z.string().nullable(),
  /** A cheque number, wire reference, ... */
  reference: z.string(),
  failureMessage: z.string().nullable(),
  refunds: z.array(refundSchema),
  refundedAmount: z.number().int(),
  dispute: disputeSchema.nullable(),
  stripePaymentIntentId: z.string().nullable(),
  itemsShipped: z.boolean(),
  shippingTrackingNumber: z.string(),
  notes: z.string(),
  history: z.array(transactionEventSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  etag: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const listTransactionsQuerySchema = z.object({
  status: z.enum(paymentStatuses).optional(),
  /** Several statuses, comma separated (Pending Actions: `Pending,Failed`). */
  statuses: z
    .string()
    .max(200)
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(z.enum(paymentStatuses)))
    .optional(),
  invoiceId: id.optional(),
  auctionId: id.optional(),
  bidderId: id.optional(),
  /** Matches the transaction id, bidder name or email, auction title or a lot number. */
  search: text(200).optional(),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  continuationToken: z.string().max(4000).optional(),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuerySchema>;

export const transactionPageSchema = z.object({
  items: z.array(transactionSchema),
  continuationToken: z.string().nullable(),
});

/** POST /payments/invoices/{id}/payments: money the house received by hand. */
export const offlinePaymentInputSchema = z.object({
  amount: positiveAmount,
  method: z.enum(offlinePaymentMethods),
  receivedOn: isoDate.optional(),
  reference: text(200).default(''),
  notes: text(2000).default(''),
  /** A SETTLED legal case this payment settles: its settlement payment is recorded too. */
  caseId: id.optional(),
});
export type OfflinePaymentInput = z.infer<typeof offlinePaymentInputSchema>;

/** POST /payments/invoices/{id}/card-payment: a PaymentIntent for all or part of the balance. */
export const cardPaymentInputSchema = z.object({ amount: positiveAmount.optional() });

export const cardPaymentSchema = z.object({
  transaction: transactionSchema,
  paymentIntentId: z.string(),
  clientSecret: z.string(),
  publishableKey: z.string(),
  stripeJsUrl: z.string(),
  amount: z.number().int(),
  currency: z.enum(currencies),
});
export type CardPayment = z.infer<typeof cardPaymentSchema>;

export const refundInputSchema = z.object({
  /** Defaults to all that is left to refund. */
  amount: positiveAmount.optional(),
  reason: text(500).default(''),
});
export type RefundInput = z.infer<typeof refundInputSchema>;

/** PUT /payments/transactions/{id}/shipping (If-Match). */
export const shippingUpdateSchema = z
  .object({
    itemsShipped: z.boolean(),
    shippingTrackingNumber: text(100),
    notes: text(5000),
  })
  .partial()
  .strict();
export type ShippingUpdate = z.infer<typeof shippingUpdateSchema>;

export const overviewSchema = z.object({
  totalTransactions: z.number().int(),
  /**
   * Completed payments minus refunds, per currency (minor units). `totalRevenue` is the account's
   * currency's figure (the first house's default currency, else USD).
   */
  totalRevenue: z.number().int(),
  /** The account's currency: a house may trade in one no auction is held in (CAD). */
  currency: z.union([z.enum(currencies), z.enum(houseCurrencies)]),
  revenueByCurrency: z.record(z.string(), z.number().int()),
  /** Pending and Processing payments, in the account's currency. */
  pendingAmount: z.number().int(),
  completed: z.number().int(),
  recent: z.array(transactionSchema),
  /** Each method's share of the transactions (count and percent, summing to 100). */
  methodShare: z.array(
    z.object({
      method: z.enum(paymentMethods),
      count: z.number().int(),
      percent: z.number(),
    }),
  ),
});
export type Overview = z.infer<typeof overviewSchema>;

// ---- The buyer portal ----

export const sendInvoiceResultSchema = z.object({
  invoice: invoiceSchema,
  url: z.string(),
  expiresAt: z.string(),
  sentTo: z.string(),
});

/** How the buyer may pay on the portal page: card online; the others show instructions. */
export const portalPaymentOptionSchema = z.object({
  /** The portal setting's method key (credit_card, wire, ach, ...). */
  method: z.string(),
  label: z.string(),
  online: z.boolean(),
  instructions: z.string(),
});

export const portalPaymentSchema = z.object({
  invoiceId: z.string(),
  status: z.enum(invoiceStatuses),
  dueDate: z.string(),
  grandTotal: z.number().int(),
  creditedTotal: z.number().int(),
  paidTotal: z.number().int(),
  balance: z.number().int(),
  charges: z.array(chargeSchema),
  options: z.array(portalPaymentOptionSchema),
  /** A card payment started and not finished, so the page can resume it. */
  openPaymentIntentId: z.string().nullable(),
});
export type PortalPayment = z.infer<typeof portalPaymentSchema>;

export const portalCardPaymentSchema = z.object({
  paymentIntentId: z.string(),
  clientSecret: z.string(),
  publishableKey: z.string(),
  stripeJsUrl: z.string(),
  amount: z.number().int(),
  currency: z.enum(currencies),
});
export type PortalCardPayment = z.infer<typeof portalCardPaymentSchema>;

export const portalConfirmInputSchema = z.object({ paymentIntentId: z.string().min(1).max(200) });
export const portalConfirmSchema = z.object({
  paymentStatus: z.enum(paymentStatuses),
  invoiceStatus: z.enum(invoiceStatuses),
  balance: z.number().int(),
  message: z.string().nullable(),
});

// ---- For settlements ----

/** Where a sold lot's money stands, for consignor settlements (cleared funds). */
export const lotPaymentStates = ['unpaid', 'paid', 'credited', 'refunded', 'charged_back'] as const;
export type LotPaymentState = (typeof lotPaymentStates)[number];
export const lotPaymentFactSchema = z.object({
  lotId: z.string(),
  lotNumber: z.string(),
  hammer: z.number().int(),
  buyerId: z.string(),
  invoiceId: z.string(),
  state: z.enum(lotPaymentStates),
  paidAt: z.string().nullable(),
  changedAt: z.string(),
});
export type LotPaymentFact = z.infer<typeof lotPaymentFactSchema>;

// ---- Params ----

export const idParamsSchema = z.object({ id });
export const auctionParamsSchema = z.object({ auctionId: id });
