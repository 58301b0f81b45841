import { z } from 'zod';
import { currencies, minorUnits } from '../../auctions/auctions.schema.js';
import { houseCurrencies } from '../../identity/accounts/accounts.schema.js';
import { rateScaleSchema } from '../payments.schema.js';

/**
 * Contracts of consignor settlements: each consignor's agreement with the house (commission,
 * fees, payout details) and the statements that pay them for an auction's lots.
 *
 * Amounts in an agreement (a minimum commission, the per-lot fee, a band's `upTo`) are minor units
 * of the agreement's `currency` (the account's unless said otherwise), applied as they are to the
 * auction's; rates are basis points (1500 = 15%). The shapes are those `money-math.ts` computes
 * with (a contract imports no arithmetic).
 */

const text = (max: number) => z.string().trim().max(max);
const rateBps = z
  .number()
  .int('is a whole number of basis points')
  .min(0, 'cannot be negative')
  .max(10_000, 'is at most 10000 (100%)');

export const commissionSchemeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('fixed'), rateBps, minimumPerLot: minorUnits }),
  z.object({ kind: z.literal('sliding'), scale: rateScaleSchema, minimumPerLot: minorUnits }),
  z.object({ kind: z.literal('cumulative'), scale: rateScaleSchema, minimumPerLot: minorUnits }),
]);
export type CommissionSchemeInput = z.infer<typeof commissionSchemeSchema>;

export const consignorFeesSchema = z.object({
  perLot: minorUnits,
  insuranceBps: rateBps,
  buyBackBps: rateBps,
});
export type ConsignorFeesInput = z.infer<typeof consignorFeesSchema>;

/** What an account's default agreement says until someone changes it: 15% with no minimum, no fees. */
export const DEFAULT_AGREEMENT_TERMS = {
  commission: { kind: 'fixed', rateBps: 1500, minimumPerLot: 0 } as CommissionSchemeInput,
  fees: { perLot: 0, insuranceBps: 0, buyBackBps: 0 } as ConsignorFeesInput,
  payoutDetails: '',
};

/** What an agreement's amounts are in: an auction's currency or a house's (CAD is a house's only). */
export const agreementCurrencySchema = z.union([z.enum(currencies), z.enum(houseCurrencies)]);
export type AgreementCurrency = z.infer<typeof agreementCurrencySchema>;

export const agreementTermsSchema = z.object({
  /** Left out: the agreement's own currency, or the account's for one not kept yet. */
  currency: agreementCurrencySchema.optional(),
  commission: commissionSchemeSchema,
  fees: consignorFeesSchema,
  /** How the house pays this consignor (bank details, cheque address...), as free text. */
  payoutDetails: text(2000).default(''),
});
export type AgreementTerms = z.infer<typeof agreementTermsSchema>;

export const agreementInputSchema = agreementTermsSchema.extend({
  /** As lots name the consignor; matched ignoring case and repeated spaces. */
  consignorName: text(200).min(1, 'is required'),
});
export type AgreementInput = z.infer<typeof agreementInputSchema>;

const person = z.object({ id: z.string(), name: z.string() }).nullable();

export const agreementSchema = z.object({
  id: z.string(),
  /** Null on the account's default agreement. */
  consignorName: z.string().nullable(),
  isDefault: z.boolean(),
  /** The currency the amounts are in (the account's on an agreement saved before it was kept). */
  currency: agreementCurrencySchema,
  commission: commissionSchemeSchema,
  fees: consignorFeesSchema,
  payoutDetails: z.string(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  updatedBy: person,
  etag: z.string(),
});
export type Agreement = z.infer<typeof agreementSchema>;

export const AGREEMENT_PAGE_MAX = 200;

export const listAgreementsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AGREEMENT_PAGE_MAX).default(50),
  continuationToken: z.string().max(4000).optional(),
});
export const agreementListSchema = z.object({
  agreements: z.array(agreementSchema),
  continuationToken: z.string().nullable(),
  /** The account's currency (its first house's, else USD), which a new agreement is kept in. */
  currency: agreementCurrencySchema,
});

// ---- Statements ----

export const statementStatuses = ['draft', 'approved', 'paid'] as const;
export type StatementStatus = (typeof statementStatuses)[number];

/** A lot settled on a statement: the consignor is paid its net. */
export const statementLineSchema = z.object({
  lotId: z.string(),
  lotNumber: z.string(),
  title: z.string(),
  hammer: z.number().int(),
  commission: z.number().int(),
  fees: z.number().int(),
  net: z.number().int(),
  /** Bought back by the consignor: no commission, the buy-back fee only, nothing paid out. */
  boughtBack: z.boolean(),
});
export type StatementLine = z.infer<typeof statementLineSchema>;

/**
 * Why a lot settled earlier is taken back: its buyer was credited or refunded, charged back, the
 * payment is no longer recorded, or the lot's result changed (a correction).
 */
export const reversalReasons = [
  'credited',
  'refunded',
  'charged_back',
  'unpaid',
  'result_changed',
] as const;
export type ReversalReason = (typeof reversalReasons)[number];

/** A negative (or, for a reversed buy-back fee, positive) adjustment for a lot settled earlier. */
export const statementAdjustmentSchema = z.object({
  lotId: z.string(),
  lotNumber: z.string(),
  title: z.string(),
  reason: z.enum(reversalReasons),
  /** Minus the net the earlier statement paid for the lot. */
  amount: z.number().int(),
  /** The statement that settled the lot. */
  reverses: z.string(),
});
export type StatementAdjustment = z.infer<typeof statementAdjustmentSchema>;

/** A lot sold but not (yet) paid for by its buyer: listed, not in the net. */
export const pendingLotSchema = z.object({
  lotId: z.string(),
  lotNumber: z.string(),
  title: z.string(),
  hammer: z.number().int(),
});
export type PendingLot = z.infer<typeof pendingLotSchema>;

export const statementTotalsSchema = z.object({
  /** Hammer of lots sold to real buyers (buy-backs excluded). */
  hammer: z.number().int(),
  commission: z.number().int(),
  /** Per-lot and insurance fees of sold lots. */
  fees: z.number().int(),
  buyBackFees: z.number().int(),
  adjustments: z.number().int(),
  /** hammer - commission - fees - buyBackFees + adjustments; negative = owed by the consignor. */
  net: z.number().int(),
  pendingHammer: z.number().int(),
});
export type StatementTotals = z.infer<typeof statementTotalsSchema>;

const statementBase = {
  id: z.string(),
  auctionId: z.string(),
  auctionTitle: z.string(),
  consignorKey: z.string(),
  consignorName: z.string(),
  /** 1 for the consignor's first statement for this auction, 2 for the one after... */
  sequence: z.number().int(),
  status: z.enum(statementStatuses),
  currency: z.enum(currencies),
  totals: statementTotalsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  approvedAt: z.string().nullable(),
  approvedBy: person,
  paidAt: z.string().nullable(),
  paidOn: z.string().nullable(),
  payoutReference: z.string().nullable(),
  etag: z.string(),
};

export const statementSummarySchema = z.object({
  ...statementBase,
  lotCount: z.number().int(),
  pendingCount: z.number().int(),
});
export type StatementSummary = z.infer<typeof statementSummarySchema>;

export const statementSchema = z.object({
  ...statementBase,
  /** The terms the statement was worked out with, as they were then. */
  agreement: z.object({
    id: z.string(),
    isDefault: z.boolean(),
    commission: commissionSchemeSchema,
    fees: consignorFeesSchema,
    payoutDetails: z.string(),
  }),
  lines: z.array(statementLineSchema),
  adjustments: z.array(statementAdjustmentSchema),
  pending: z.array(pendingLotSchema),
});
export type Statement = z.infer<typeof statementSchema>;

export const STATEMENT_PAGE_MAX = 200;

export const listStatementsQuerySchema = z.object({
  auctionId: z.string().max(100).optional(),
  /** A consignor's name, matched ignoring case and repeated spaces. */
  consignor: text(200).min(1).optional(),
  status: z.enum(statementStatuses).optional(),
  /** Statements on a page, as the invoice and transaction lists name it; wins over `limit`. */
  pageSize: z.coerce.number().int().min(1).max(STATEMENT_PAGE_MAX).optional(),
  /** The page size's earlier name, still accepted. */
  limit: z.coerce.number().int().min(1).max(STATEMENT_PAGE_MAX).default(50),
  /** The previous page's `continuationToken`, for the page after it. */
  continuationToken: z.string().max(4000).optional(),
});
export type ListStatementsQuery = z.infer<typeof listStatementsQuerySchema>;

export const statementListSchema = z.object({
  statements: z.array(statementSummarySchema),
  /** Pass back for the next page; null on the last. */
  continuationToken: z.string().nullable(),
});

export const buildResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** The consignors' open drafts and newly made statements after the build. */
  statements: z.array(statementSummarySchema),
});
export type BuildResult = z.infer<typeof buildResultSchema>;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'is a date like 2026-12-31')
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, 'is not a real date');

export const markPaidSchema = z.object({
  /** The bank transfer's or cheque's reference. */
  payoutReference: text(200).min(1, 'is required'),
  /** The day the house paid the consignor. */
  paidOn: isoDate,
});
export type MarkPaid = z.infer<typeof markPaidSchema>;
