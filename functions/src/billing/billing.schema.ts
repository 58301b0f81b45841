import { z } from 'zod';

/**
 * Contracts of billing (spec 3.2 and 7.2), shared with the web app. Money is integer cents with
 * the currency beside it; the spec's overage "in dollars" is served in cents like every fee.
 */

export const tierIds = ['tier-1', 'tier-2', 'tier-3', 'tier-4', 'tier-5'] as const;
export type TierId = (typeof tierIds)[number];
export const addOnIds = ['inventory', 'payments'] as const;
export type AddOnId = (typeof addOnIds)[number];
export type BillingInterval = 'month' | 'year';

const cents = z.number().int();
const isoDate = z.string();

export const tierIdSchema = z.enum(tierIds);
export const addOnIdSchema = z.enum(addOnIds);
export const billingIntervalSchema = z.enum(['month', 'year']);
export type BillingIntervalValue = z.infer<typeof billingIntervalSchema>;

export const tierSchema = z.object({
  id: tierIdSchema,
  name: z.string(),
  monthlyFee: cents,
  /** Ten months' fee: the spec's "Save 17%". */
  yearlyFee: cents,
  includedBidders: z.number().int(),
  /** Per scored bidder beyond the included ones, in cents. */
  overageFee: cents,
  /** Percent of auction revenue, e.g. 0.25. */
  auctionTransactionFee: z.number(),
  description: z.string(),
  isActive: z.boolean(),
  features: z.array(z.string()),
  dataSharing: z.enum(['required', 'encouraged', 'optional']),
});
export type TierView = z.infer<typeof tierSchema>;

const transactionFeeSchema = z.object({ percentage: z.number(), fixedFee: cents });

export const addOnSchema = z.object({
  id: addOnIdSchema,
  name: z.string(),
  description: z.string(),
  monthlyFee: cents,
  yearlyFee: cents,
  targetTiers: z.array(tierIdSchema),
  valueProposition: z.string(),
  isActive: z.boolean(),
  features: z.array(z.string()),
  setupFee: cents.optional(),
  setupFeeWaivedTiers: z.array(tierIdSchema).optional(),
  transactionFees: z.object({ card: transactionFeeSchema, ach: transactionFeeSchema }).optional(),
});
export type AddOnView = z.infer<typeof addOnSchema>;

export const tiersResponseSchema = z.object({
  tiers: z.array(tierSchema),
  addOns: z.array(addOnSchema),
  currency: z.string(),
  yearlyMonths: z.number().int(),
});
export type TiersResponse = z.infer<typeof tiersResponseSchema>;

export const freemiumSchema = z.object({
  isFreemium: z.boolean(),
  freeBiddersUsed: z.number().int(),
  freeBiddersLimit: z.number().int(),
  canUpgrade: z.boolean(),
  daysInFreemium: z.number().int(),
});
export const freemiumResponseSchema = z.object({ freemium: freemiumSchema });
export type Freemium = z.infer<typeof freemiumSchema>;

export const usageSchema = z.object({
  currentPeriodStart: isoDate,
  currentPeriodEnd: isoDate,
  scoredBidders: z.number().int(),
  includedBidders: z.number().int(),
  overageBidders: z.number().int(),
  overageCharges: cents,
  auctionRevenue: cents,
  auctionTransactionCharges: cents,
  totalUsageCharges: cents,
});
export type Usage = z.infer<typeof usageSchema>;

export const subscribedAddOnSchema = z.object({
  id: z.string(),
  addOnId: addOnIdSchema,
  name: z.string(),
  monthlyFee: cents,
  addedDate: isoDate,
  /** `ending`: removed, on until `endsAt` (the end of the period paid for). */
  status: z.enum(['active', 'ending']),
  endsAt: isoDate.nullable(),
});

export const subscriptionStatusSchema = z.enum([
  'active',
  'trialing',
  'past_due',
  'incomplete',
  'incomplete_expired',
  'unpaid',
  'paused',
  'canceled',
]);

export const subscriptionSchema = z.object({
  id: z.string(),
  tierId: tierIdSchema,
  tierName: z.string(),
  interval: billingIntervalSchema,
  status: subscriptionStatusSchema,
  currentPeriodStart: isoDate,
  currentPeriodEnd: isoDate,
  cancelAtPeriodEnd: z.boolean(),
  addOns: z.array(subscribedAddOnSchema),
  usage: usageSchema,
  /** What the plan and add-ons cost each period, in cents. */
  amount: cents,
  currency: z.string(),
});
export type SubscriptionView = z.infer<typeof subscriptionSchema>;

export const paymentMethodSchema = z.object({
  id: z.string(),
  type: z.literal('card'),
  last4: z.string(),
  brand: z.string(),
  expiryMonth: z.number().int(),
  expiryYear: z.number().int(),
  isDefault: z.boolean(),
  /** The card provider's id of the method (Stripe's `pm_...`). */
  providerMethodId: z.string(),
});
export type PaymentMethodView = z.infer<typeof paymentMethodSchema>;

const text = (max: number) => z.string().trim().max(max);

export const billingAddressSchema = z.object({
  line1: text(200).min(1, 'is required'),
  line2: text(200).optional(),
  city: text(100).min(1, 'is required'),
  state: text(100).optional(),
  postalCode: text(20).min(1, 'is required'),
  /** ISO 3166-1 alpha-2, as Stripe takes it. */
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code such as US'),
});
export type BillingAddress = z.infer<typeof billingAddressSchema>;

export const billingAccountSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  billingAddress: billingAddressSchema.nullable(),
  taxId: z.string().nullable(),
  subscription: subscriptionSchema.nullable(),
  paymentMethods: z.array(paymentMethodSchema),
  /** Where to ask about ACH, invoicing on terms and anything else about paying. */
  financeEmail: z.string(),
  /** A plan Lotwise gave the account without billing it (a demo sandbox); null otherwise. */
  complimentary: z
    .object({ tierId: tierIdSchema, tierName: z.string(), addOnIds: z.array(addOnIdSchema) })
    .nullable(),
});
export const billingAccountResponseSchema = z.object({ account: billingAccountSchema });
export type BillingAccountView = z.infer<typeof billingAccountSchema>;

export const invoiceStatusSchema = z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']);

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: invoiceStatusSchema,
  amount: cents,
  currency: z.string(),
  dueDate: isoDate.nullable(),
  paidDate: isoDate.nullable(),
  createdDate: isoDate,
  invoiceUrl: z.string().nullable(),
  lineItems: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      quantity: z.number().int(),
      unitAmount: cents,
      totalAmount: cents,
      periodStart: isoDate.optional(),
      periodEnd: isoDate.optional(),
    }),
  ),
});
export type InvoiceView = z.infer<typeof invoiceSchema>;

export const invoicesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  starting_after: z
    .string()
    .regex(/^in_[A-Za-z0-9]+$/, 'must be an invoice id')
    .optional(),
  status: invoiceStatusSchema.optional(),
});
export const invoicesResponseSchema = z.object({
  invoices: z.array(invoiceSchema),
  hasMore: z.boolean(),
});

export const createSubscriptionSchema = z.object({
  tierId: tierIdSchema,
  interval: billingIntervalSchema.default('month'),
  addOnIds: z.array(addOnIdSchema).max(addOnIds.length).default([]),
  /** A saved method's id; the default method when omitted. */
  paymentMethodId: z.string().min(1).optional(),
});
export type CreateSubscription = z.infer<typeof createSubscriptionSchema>;

export const updateSubscriptionSchema = z
  .object({
    tierId: tierIdSchema.optional(),
    interval: billingIntervalSchema.optional(),
    addOnIds: z.array(addOnIdSchema).max(addOnIds.length).optional(),
    cancelAtPeriodEnd: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'name at least one of tierId, interval, addOnIds or cancelAtPeriodEnd',
    path: ['tierId'],
  });
export type UpdateSubscription = z.infer<typeof updateSubscriptionSchema>;
export const subscriptionResponseSchema = z.object({ subscription: subscriptionSchema });

export const addPaymentMethodSchema = z.object({
  /** The SetupIntent the card was confirmed on, in the browser, with Stripe.js. */
  setupIntentId: z.string().regex(/^seti_[A-Za-z0-9]+$/, 'must be a SetupIntent id'),
  setAsDefault: z.boolean().default(true),
});
export const paymentMethodResponseSchema = z.object({ paymentMethod: paymentMethodSchema });
export const paymentMethodsResponseSchema = z.object({
  paymentMethods: z.array(paymentMethodSchema),
});

export const billingAddressUpdateSchema = z.object({
  billingAddress: billingAddressSchema,
  taxId: text(40).nullable().optional(),
});

export const setupIntentResponseSchema = z.object({
  clientSecret: z.string(),
  setupIntentId: z.string(),
});

export const stripeCustomerResponseSchema = z.object({
  customerId: z.string(),
  ephemeralKey: z.string(),
  publishableKey: z.string(),
  /** Where the browser loads Stripe.js (the local stand-in serves its own). */
  stripeJsUrl: z.string(),
});

export const paymentIntentRequestSchema = z.object({
  invoiceId: z.string().regex(/^in_[A-Za-z0-9]+$/, 'must be an invoice id'),
});
export const paymentIntentResponseSchema = z.object({
  clientSecret: z.string(),
  paymentIntentId: z.string(),
});
export const processPaymentSchema = z.object({
  invoiceId: z.string().regex(/^in_[A-Za-z0-9]+$/, 'must be an invoice id'),
  /** A saved method's id; the default method when omitted. */
  paymentMethodId: z.string().min(1).optional(),
});
export const processPaymentResponseSchema = z.object({
  paymentIntentId: z.string().nullable(),
  status: z.string(),
});
