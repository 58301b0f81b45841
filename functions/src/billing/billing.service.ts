import { writeAudit } from '../platform/audit.js';
import type { RequestContext, UserContext } from '../platform/context.js';
import { systemContext } from '../platform/context.js';
import { AppError, conflict, notFound } from '../platform/errors.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import type { Logger } from '../platform/logging.js';
import { settings } from '../platform/settings.js';
import type { AccountScope, Stored } from '../platform/repo.js';
import {
  stripeBrowserSettings,
  stripeCall,
  verifiedStripeEvent,
  type Stripe,
} from '../platform/stripe.js';
import { validationError } from '../platform/validation.js';
import { scoredBidderCount, scoredBiddersBetween } from '../bidders/bidders.service.js';
import { handleBuyerPaymentEvent } from '../payments/card-payments.service.js';
import { revenueIn } from '../payments/payments.service.js';
import {
  accountIsOpen,
  accountNameOf,
  accountPlanOf,
  applyPlan,
  type PaidPlan,
} from '../identity/accounts/accounts.service.js';
import {
  addOnById,
  addOns,
  BILLING_CURRENCY,
  FREEMIUM_BIDDER_LIMIT,
  OVERAGE_METER_EVENT,
  overageOf,
  periodFee,
  priceKeys,
  setupFeeFor,
  tierById,
  tiers,
  transactionFeeOn,
  YEARLY_MONTHS,
  type AddOnId,
  type BillingInterval,
  type TierId,
} from './billing.catalog.js';
import { billingRepo, type BillingRecord, type SubscriptionState } from './billing.repo.js';
import type {
  BillingAccountView,
  CreateSubscription,
  Freemium,
  InvoiceView,
  PaymentMethodView,
  SubscriptionView,
  TiersResponse,
  UpdateSubscription,
  Usage,
} from './billing.schema.js';

/** Subscription statuses under which the plan's features are on. */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);
const FREE_PLAN: PaidPlan = { tier: 'free', addOns: { inventory: false, payments: false } };

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const fieldError = (field: string, message: string) =>
  validationError([{ location: 'body', field, message }]);

// ---- The catalogue ----

export function catalogue(): TiersResponse {
  return {
    tiers: tiers.map((tier) => ({
      id: tier.id,
      name: tier.name,
      monthlyFee: tier.monthlyFee,
      yearlyFee: periodFee(tier.monthlyFee, 'year'),
      includedBidders: tier.includedBidders,
      overageFee: tier.overageFee,
      auctionTransactionFee: tier.auctionTransactionFeeBps / 100,
      description: tier.description,
      isActive: true,
      features: tier.features,
      dataSharing: tier.dataSharing,
    })),
    addOns: addOns.map((addOn) => ({
      id: addOn.id,
      name: addOn.name,
      description: addOn.description,
      monthlyFee: addOn.monthlyFee,
      yearlyFee: periodFee(addOn.monthlyFee, 'year'),
      targetTiers: addOn.targetTiers,
      valueProposition: addOn.valueProposition,
      isActive: true,
      features: addOn.features,
      ...(addOn.setupFee === undefined
        ? {}
        : { setupFee: addOn.setupFee, setupFeeWaivedTiers: addOn.setupFeeWaivedTiers ?? [] }),
      ...(addOn.transactionFees
        ? {
            transactionFees: {
              card: {
                percentage: addOn.transactionFees.card.percentageBps / 100,
                fixedFee: addOn.transactionFees.card.fixedFee,
              },
              ach: {
                percentage: addOn.transactionFees.ach.percentageBps / 100,
                fixedFee: addOn.transactionFees.ach.fixedFee,
              },
            },
          }
        : {}),
    })),
    currency: BILLING_CURRENCY,
    yearlyMonths: YEARLY_MONTHS,
  };
}

// ---- Stripe's prices, made from the catalogue on first use ----

type PriceKind = 'plan' | 'addon' | 'overage' | 'setup';
interface PriceMetadata {
  kind: PriceKind;
  ref: string;
}

const priceIds = new Map<string, string>();
let meterId: Promise<string> | undefined;

async function ensureProduct(id: string, name: string) {
  await stripeCall(async (client) => {
    try {
      await client.products.retrieve(id);
    } catch (error) {
      if ((error as { code?: string }).code !== 'resource_missing') throw error;
      await client.products.create({ id, name }, { idempotencyKey: `product-${id}` });
    }
  });
}

function overageMeter(): Promise<string> {
  meterId ??= stripeCall(async (client) => {
    const meters = await client.billing.meters.list({ limit: 100 });
    const found = meters.data.find((meter) => meter.event_name === OVERAGE_METER_EVENT);
    if (found) return found.id;
    const created = await client.billing.meters.create(
      {
        display_name: 'Scored bidders over the plan',
        event_name: OVERAGE_METER_EVENT,
        default_aggregation: { formula: 'sum' },
      },
      { idempotencyKey: `meter-${OVERAGE_METER_EVENT}` },
    );
    return created.id;
  }).catch((error: unknown) => {
    meterId = undefined;
    throw error;
  });
  return meterId;
}

interface PriceSpec {
  key: string;
  product: { id: string; name: string };
  amount: number;
  interval?: BillingInterval;
  metered?: boolean;
  metadata: PriceMetadata;
}

function planPrice(tierId: TierId, interval: BillingInterval): PriceSpec {
  const tier = tierById(tierId)!;
  return {
    key: priceKeys.plan(tierId, interval),
    product: { id: `lotwise_${tierId}`, name: `Lotwise ${tier.name}` },
    amount: periodFee(tier.monthlyFee, interval),
    interval,
    metadata: { kind: 'plan', ref: tierId },
  };
}

function addOnPrice(addOnId: AddOnId, interval: BillingInterval): PriceSpec {
  const addOn = addOnById(addOnId)!;
  return {
    key: priceKeys.addOn(addOnId, interval),
    product: { id: `lotwise_${addOnId}`, name: `Lotwise ${addOn.name} add-on` },
    amount: periodFee(addOn.monthlyFee, interval),
    interval,
    metadata: { kind: 'addon', ref: addOnId },
  };
}

function overagePrice(tierId: TierId, interval: BillingInterval): PriceSpec {
  const tier = tierById(tierId)!;
  return {
    key: priceKeys.overage(tierId, interval),
    product: { id: 'lotwise_overage', name: 'Scored bidders over the plan' },
    amount: tier.overageFee,
    interval,
    metered: true,
    metadata: { kind: 'overage', ref: tierId },
  };
}

function setupPrice(addOnId: AddOnId, tierId: TierId): PriceSpec {
  const addOn = addOnById(addOnId)!;
  return {
    key: priceKeys.setup(addOnId),
    product: { id: `lotwise_${addOnId}_setup`, name: `${addOn.name} add-on setup` },
    amount: setupFeeFor(addOn, tierId),
    metadata: { kind: 'setup', ref: addOnId },
  };
}

/** Stripe's price id for each spec, creating the product and price the first time. */
async function priceIdsFor(specs: PriceSpec[]): Promise<string[]> {
  const missing = specs.filter((spec) => !priceIds.has(spec.key));
  if (missing.length > 0) {
    const found = await stripeCall((client) =>
      client.prices.list({
        lookup_keys: missing.map((spec) => spec.key),
        active: true,
        limit: 100,
      }),
    );
    for (const price of found.data) if (price.lookup_key) priceIds.set(price.lookup_key, price.id);
    for (const spec of missing.filter((candidate) => !priceIds.has(candidate.key))) {
      await ensureProduct(spec.product.id, spec.product.name);
      const meter = spec.metered ? await overageMeter() : undefined;
      const price = await stripeCall((client) =>
        client.prices.create(
          {
            product: spec.product.id,
            currency: BILLING_CURRENCY,
            unit_amount: spec.amount,
            lookup_key: spec.key,
            transfer_lookup_key: true,
            metadata: { ...spec.metadata },
            ...(spec.interval
              ? {
                  recurring: {
                    interval: spec.interval,
                    ...(meter ? { usage_type: 'metered' as const, meter } : {}),
                  },
                }
              : {}),
          },
          { idempotencyKey: `price-${spec.key}-${spec.amount}` },
        ),
      );
      priceIds.set(spec.key, price.id);
    }
  }
  return specs.map((spec) => priceIds.get(spec.key)!);
}

// ---- The account's billing record and Stripe customer ----

async function customerRecord(ctx: UserContext): Promise<Stored<BillingRecord>> {
  const existing = await billingRepo.find(ctx.scope);
  if (existing) return existing;
  const accountId = ctx.scope.accountId;
  const companyName = await accountNameOf(accountId);
  // One key per account: two first visits at once still make one customer.
  const customer = await stripeCall((client) =>
    client.customers.create(
      { name: companyName, email: ctx.actor.email, metadata: { accountId } },
      { idempotencyKey: `customer-${accountId}` },
    ),
  );
  const now = new Date().toISOString();
  try {
    return await billingRepo.create(ctx.scope, {
      id: 'billing',
      kind: 'billing',
      customerId: customer.id,
      companyName,
      email: ctx.actor.email,
      phone: null,
      billingAddress: null,
      taxId: null,
      subscription: null,
      reportedOverage: null,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    const raced = await billingRepo.find(ctx.scope);
    if (raced) return raced;
    throw error;
  }
}

/** Saves a change to the record, reading it again if someone else saved first. */
async function updateRecord(
  scope: AccountScope,
  change: (record: BillingRecord) => BillingRecord,
): Promise<Stored<BillingRecord>> {
  for (;;) {
    const record = await billingRepo.find(scope);
    if (!record) throw notFound('Billing account not found');
    try {
      return await billingRepo.replace(
        scope,
        { ...change(record), updatedAt: new Date().toISOString() },
        record._etag,
      );
    } catch (error) {
      if (isStale(error)) continue;
      throw error;
    }
  }
}

// ---- Subscriptions as Lotwise keeps them ----

const metadataOf = (price: Stripe.Price): Partial<PriceMetadata> =>
  price.metadata as Partial<PriceMetadata>;

/** The subscription's state from Stripe's object, keeping add-ons still paid for. */
function stateOf(
  subscription: Stripe.Subscription,
  previous: SubscriptionState | null,
  ending: SubscriptionState['endingAddOns'],
): SubscriptionState {
  const items = subscription.items.data;
  const plan = items.find((item) => metadataOf(item.price).kind === 'plan');
  const tierId = (metadataOf(plan?.price ?? items[0]!.price).ref ?? 'tier-5') as TierId;
  const first = plan ?? items[0]!;
  const addOnItems = items
    .filter((item) => metadataOf(item.price).kind === 'addon')
    .map((item) => ({
      itemId: item.id,
      addOnId: metadataOf(item.price).ref as AddOnId,
      addedDate: iso(item.created),
    }));
  const now = Date.now();
  const on = new Set(addOnItems.map((item) => item.addOnId));
  const carried = (previous?.id === subscription.id ? previous.endingAddOns : []).filter(
    (ending) => !on.has(ending.addOnId) && Date.parse(ending.endsAt) > now,
  );
  // Add-ons taken off without a credit, which stay on to the end of the period paid for.
  const left = ending.filter(
    (candidate) =>
      !on.has(candidate.addOnId) &&
      !carried.some((kept) => kept.addOnId === candidate.addOnId) &&
      Date.parse(candidate.endsAt) > now,
  );
  return {
    id: subscription.id,
    tierId,
    interval: first.price.recurring?.interval === 'year' ? 'year' : 'month',
    status: subscription.status,
    currentPeriodStart: iso(first.current_period_start),
    currentPeriodEnd: iso(first.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    addOns: addOnItems,
    endingAddOns: subscription.status === 'canceled' ? [] : [...carried, ...left],
    amount: items
      .filter((item) => item.price.recurring?.usage_type !== 'metered')
      .reduce((sum, item) => sum + (item.price.unit_amount ?? 0) * (item.quantity ?? 1), 0),
    syncedAt: Math.floor(now / 1000),
  };
}

/** What the account may use under a subscription state. */
export function planOf(state: SubscriptionState | null, now = Date.now()): PaidPlan {
  if (!state || !LIVE_STATUSES.has(state.status)) return FREE_PLAN;
  const on = new Set<AddOnId>([
    ...state.addOns.map((addOn) => addOn.addOnId),
    ...state.endingAddOns
      .filter((ending) => Date.parse(ending.endsAt) > now)
      .map((ending) => ending.addOnId),
  ]);
  return {
    tier: state.tierId,
    addOns: { inventory: on.has('inventory'), payments: on.has('payments') },
  };
}

/** Keeps the record and the account's features in step with Stripe's subscription. */
async function syncSubscription(
  scope: AccountScope,
  subscription: Stripe.Subscription,
  event?: { id: string; type: string },
  ending: SubscriptionState['endingAddOns'] = [],
): Promise<SubscriptionState> {
  for (;;) {
    const record = await billingRepo.find(scope);
    if (!record) throw notFound('Billing account not found');
    const current = record.subscription;
    // A subscription that was replaced by a newer one does not overwrite it.
    const stale =
      current !== null &&
      current.id !== subscription.id &&
      LIVE_STATUSES.has(current.status) &&
      subscription.status === 'canceled';
    const state = stale ? current : stateOf(subscription, current, ending);
    const next = { ...record, subscription: state, updatedAt: new Date().toISOString() };
    try {
      if (event) await billingRepo.replaceApplying(scope, next, record._etag, event);
      else await billingRepo.replace(scope, next, record._etag);
    } catch (error) {
      if (isStale(error)) continue;
      throw error;
    }
    await applyPlan(scope.accountId, planOf(state));
    return state;
  }
}

// ---- Usage ----

async function usageOf(scope: AccountScope, state: SubscriptionState): Promise<Usage> {
  const tier = tierById(state.tierId)!;
  const scoredBidders = await scoredBiddersBetween(
    { scope },
    { from: state.currentPeriodStart, to: state.currentPeriodEnd },
  );
  const overage = overageOf(tier, scoredBidders);
  // Buyer payments the house took through Lotwise in the period, less refunds (minor units).
  const auctionRevenue = await revenueIn(scope, state.currentPeriodStart, state.currentPeriodEnd);
  const auctionTransactionCharges = transactionFeeOn(tier, auctionRevenue);
  return {
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    scoredBidders,
    includedBidders: tier.includedBidders,
    overageBidders: overage.bidders,
    overageCharges: overage.charges,
    auctionRevenue,
    auctionTransactionCharges,
    totalUsageCharges: overage.charges + auctionTransactionCharges,
  };
}

async function subscriptionView(
  scope: AccountScope,
  state: SubscriptionState,
): Promise<SubscriptionView> {
  const tier = tierById(state.tierId)!;
  return {
    id: state.id,
    tierId: state.tierId,
    tierName: tier.name,
    interval: state.interval,
    status: state.status as SubscriptionView['status'],
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    addOns: [
      ...state.addOns.map((addOn) => ({
        id: addOn.itemId,
        addOnId: addOn.addOnId,
        name: addOnById(addOn.addOnId)!.name,
        monthlyFee: addOnById(addOn.addOnId)!.monthlyFee,
        addedDate: addOn.addedDate,
        status: 'active' as const,
        endsAt: state.cancelAtPeriodEnd ? state.currentPeriodEnd : null,
      })),
      ...state.endingAddOns.map((ending) => ({
        id: `ending-${ending.addOnId}`,
        addOnId: ending.addOnId,
        name: addOnById(ending.addOnId)!.name,
        monthlyFee: addOnById(ending.addOnId)!.monthlyFee,
        addedDate: ending.addedDate,
        status: 'ending' as const,
        endsAt: ending.endsAt,
      })),
    ],
    usage: await usageOf(scope, state),
    amount: state.amount,
    currency: BILLING_CURRENCY,
  };
}

/**
 * Reports the period's scored bidders beyond the plan to Stripe's meter, as the increase since
 * the last report: the event's identifier makes a repeated report count once at Stripe.
 */
export async function reportOverage(scope: AccountScope): Promise<number> {
  const record = await billingRepo.find(scope);
  const state = record?.subscription;
  if (!record || !state || !LIVE_STATUSES.has(state.status)) return 0;
  const usage = await usageOf(scope, state);
  const reported =
    record.reportedOverage?.periodStart === state.currentPeriodStart
      ? record.reportedOverage.bidders
      : 0;
  const increase = usage.overageBidders - reported;
  if (increase <= 0) return 0;
  await stripeCall((client) =>
    client.billing.meterEvents.create({
      event_name: OVERAGE_METER_EVENT,
      identifier: `${state.id}-${state.currentPeriodStart}-${usage.overageBidders}`,
      payload: { stripe_customer_id: record.customerId, value: String(increase) },
    }),
  );
  await updateRecord(scope, (latest) => ({
    ...latest,
    reportedOverage: { periodStart: state.currentPeriodStart, bidders: usage.overageBidders },
  }));
  return increase;
}

// ---- What the Plan tab reads ----

function toPaymentMethod(
  method: Stripe.PaymentMethod,
  defaultId: string | null,
): PaymentMethodView {
  return {
    id: method.id,
    type: 'card',
    last4: method.card?.last4 ?? '',
    brand: method.card?.brand ?? 'card',
    expiryMonth: method.card?.exp_month ?? 0,
    expiryYear: method.card?.exp_year ?? 0,
    isDefault: method.id === defaultId,
    providerMethodId: method.id,
  };
}

async function defaultMethodId(customerId: string): Promise<string | null> {
  const customer = await stripeCall((client) => client.customers.retrieve(customerId));
  if (customer.deleted) return null;
  const method = customer.invoice_settings?.default_payment_method ?? null;
  return typeof method === 'string' ? method : (method?.id ?? null);
}

async function paymentMethodsOf(customerId: string): Promise<PaymentMethodView[]> {
  const [methods, defaultId] = await Promise.all([
    stripeCall((client) =>
      client.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 }),
    ),
    defaultMethodId(customerId),
  ]);
  return methods.data.map((method) => toPaymentMethod(method, defaultId));
}

/**
 * The paid plan an account holds without a live subscription: one Lotwise set itself (a demo
 * sandbox's), which nobody is billed for.
 */
async function complimentaryPlan(
  scope: AccountScope,
  record: BillingRecord | undefined,
): Promise<BillingAccountView['complimentary']> {
  if (record?.subscription && LIVE_STATUSES.has(record.subscription.status)) return null;
  const plan = await accountPlanOf(scope.accountId);
  const tier = plan.tier === 'free' ? undefined : tierById(plan.tier);
  if (!tier) return null;
  return {
    tierId: tier.id,
    tierName: tier.name,
    addOnIds: addOns.filter((addOn) => plan.addOns[addOn.id]).map((addOn) => addOn.id),
  };
}

export async function billingAccount(ctx: UserContext): Promise<BillingAccountView> {
  const record = await customerRecord(ctx);
  return {
    id: record.customerId,
    companyName: record.companyName,
    email: record.email,
    phone: record.phone,
    billingAddress: record.billingAddress,
    taxId: record.taxId,
    subscription:
      record.subscription && record.subscription.status !== 'canceled'
        ? await subscriptionView(ctx.scope, record.subscription)
        : null,
    paymentMethods: await paymentMethodsOf(record.customerId),
    financeEmail: settings().SUPPORT_EMAIL,
    complimentary: await complimentaryPlan(ctx.scope, record),
  };
}

export async function freemiumStatus(ctx: RequestContext): Promise<Freemium> {
  const [record, used] = await Promise.all([billingRepo.find(ctx.scope), scoredBidderCount(ctx)]);
  const subscribed =
    Boolean(record?.subscription && LIVE_STATUSES.has(record.subscription.status)) ||
    (await complimentaryPlan(ctx.scope, record)) !== null;
  const since = record?.createdAt ?? new Date().toISOString();
  return {
    isFreemium: !subscribed,
    freeBiddersUsed: Math.min(used, FREEMIUM_BIDDER_LIMIT),
    freeBiddersLimit: FREEMIUM_BIDDER_LIMIT,
    canUpgrade: !subscribed,
    daysInFreemium: subscribed
      ? 0
      : Math.max(0, Math.floor((Date.now() - Date.parse(since)) / 86_400_000)),
  };
}

export async function invoices(
  ctx: UserContext,
  query: { limit: number; starting_after?: string | undefined; status?: InvoiceView['status'] },
): Promise<{ invoices: InvoiceView[]; hasMore: boolean }> {
  const record = await customerRecord(ctx);
  if (query.starting_after) await ownInvoice(record, query.starting_after);
  const list = await stripeCall((client) =>
    client.invoices.list({
      customer: record.customerId,
      limit: query.limit,
      ...(query.starting_after ? { starting_after: query.starting_after } : {}),
      ...(query.status ? { status: query.status } : {}),
    }),
  );
  return { invoices: list.data.map(toInvoice), hasMore: list.has_more };
}

async function ownInvoice(record: BillingRecord, invoiceId: string): Promise<Stripe.Invoice> {
  const invoice = await stripeCall((client) => client.invoices.retrieve(invoiceId)).catch(
    (error: unknown) => {
      if (error instanceof AppError && error.code === 'bad_request') {
        throw notFound('Invoice not found');
      }
      throw error;
    },
  );
  const customer = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
  if (customer !== record.customerId) throw notFound('Invoice not found');
  return invoice;
}

function toInvoice(invoice: Stripe.Invoice): InvoiceView {
  return {
    id: invoice.id ?? '',
    number: invoice.number,
    status: (invoice.status ?? 'draft') as InvoiceView['status'],
    amount: invoice.total,
    currency: invoice.currency,
    dueDate: invoice.due_date ? iso(invoice.due_date) : null,
    paidDate: invoice.status_transitions.paid_at ? iso(invoice.status_transitions.paid_at) : null,
    createdDate: iso(invoice.created),
    invoiceUrl: invoice.hosted_invoice_url ?? null,
    lineItems: invoice.lines.data.map((line) => {
      const quantity = line.quantity ?? 1;
      return {
        id: line.id,
        description: line.description ?? '',
        quantity,
        unitAmount: quantity === 0 ? line.amount : Math.round(line.amount / quantity),
        totalAmount: line.amount,
        periodStart: iso(line.period.start),
        periodEnd: iso(line.period.end),
      };
    }),
  };
}

// ---- Cards ----

export async function createSetupIntent(ctx: UserContext) {
  const record = await customerRecord(ctx);
  const intent = await stripeCall((client) =>
    client.setupIntents.create({
      customer: record.customerId,
      usage: 'off_session',
      metadata: { accountId: ctx.scope.accountId },
    }),
  );
  return { clientSecret: intent.client_secret ?? '', setupIntentId: intent.id };
}

export async function stripeCustomer(ctx: UserContext) {
  const record = await customerRecord(ctx);
  const browser = stripeBrowserSettings();
  const key = await stripeCall((client) =>
    client.ephemeralKeys.create(
      { customer: record.customerId },
      { apiVersion: client.getApiField('version') ?? undefined },
    ),
  );
  return {
    customerId: record.customerId,
    ephemeralKey: key.secret ?? '',
    publishableKey: browser.publishableKey,
    stripeJsUrl: browser.stripeJsUrl,
  };
}

async function makeDefault(record: BillingRecord, methodId: string) {
  await stripeCall((client) =>
    client.customers.update(record.customerId, {
      invoice_settings: { default_payment_method: methodId },
    }),
  );
  const live = record.subscription && LIVE_STATUSES.has(record.subscription.status);
  if (live) {
    await stripeCall((client) =>
      client.subscriptions.update(record.subscription!.id, { default_payment_method: methodId }),
    );
  }
}

/** Saves the card the browser confirmed on a SetupIntent (the card itself never reaches us). */
export async function addPaymentMethod(
  ctx: UserContext,
  body: { setupIntentId: string; setAsDefault: boolean },
): Promise<PaymentMethodView> {
  const record = await customerRecord(ctx);
  const intent = await stripeCall((client) =>
    client.setupIntents.retrieve(body.setupIntentId),
  ).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'bad_request') {
      throw fieldError('setupIntentId', 'is not a card setup of this account');
    }
    throw error;
  });
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  if (customer !== record.customerId) {
    throw fieldError('setupIntentId', 'is not a card setup of this account');
  }
  if (intent.status !== 'succeeded' || !intent.payment_method) {
    throw fieldError('setupIntentId', 'has no confirmed card yet');
  }
  const methodId =
    typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method.id;
  const hadDefault = (await defaultMethodId(record.customerId)) !== null;
  if (body.setAsDefault || !hadDefault) await makeDefault(record, methodId);
  const method = await stripeCall((client) => client.paymentMethods.retrieve(methodId));
  await writeAudit(ctx, {
    action: 'billing.payment_method.add',
    entity: { type: 'payment_method', id: methodId },
    after: { brand: method.card?.brand, last4: method.card?.last4 },
  });
  return toPaymentMethod(method, await defaultMethodId(record.customerId));
}

async function ownMethod(record: BillingRecord, methodId: string): Promise<Stripe.PaymentMethod> {
  const method = await stripeCall((client) => client.paymentMethods.retrieve(methodId)).catch(
    () => {
      throw notFound('Payment method not found');
    },
  );
  const customer = typeof method.customer === 'string' ? method.customer : method.customer?.id;
  if (customer !== record.customerId) throw notFound('Payment method not found');
  return method;
}

export async function setDefaultPaymentMethod(ctx: UserContext, methodId: string) {
  const record = await customerRecord(ctx);
  await ownMethod(record, methodId);
  await makeDefault(record, methodId);
  await writeAudit(ctx, {
    action: 'billing.payment_method.default',
    entity: { type: 'payment_method', id: methodId },
  });
  return paymentMethodsOf(record.customerId);
}

export async function removePaymentMethod(ctx: UserContext, methodId: string) {
  const record = await customerRecord(ctx);
  await ownMethod(record, methodId);
  const methods = await paymentMethodsOf(record.customerId);
  const live = record.subscription && LIVE_STATUSES.has(record.subscription.status);
  if (live && methods.find((method) => method.id === methodId)?.isDefault) {
    throw conflict(
      'This card pays for your subscription. Make another card the default before removing it.',
    );
  }
  await stripeCall((client) => client.paymentMethods.detach(methodId));
  await writeAudit(ctx, {
    action: 'billing.payment_method.remove',
    entity: { type: 'payment_method', id: methodId },
  });
  return paymentMethodsOf(record.customerId);
}

export async function updateBillingAddress(
  ctx: UserContext,
  body: { billingAddress: NonNullable<BillingRecord['billingAddress']>; taxId?: string | null },
): Promise<BillingAccountView> {
  const record = await customerRecord(ctx);
  const address = body.billingAddress;
  await stripeCall((client) =>
    client.customers.update(record.customerId, {
      address: {
        line1: address.line1,
        line2: address.line2 ?? '',
        city: address.city,
        state: address.state ?? '',
        postal_code: address.postalCode,
        country: address.country,
      },
      // The tax id is printed on invoices as given; Stripe's typed tax ids need a country scheme.
      metadata: { taxId: body.taxId ?? '' },
    }),
  );
  const saved = await updateRecord(ctx.scope, (latest) => ({
    ...latest,
    billingAddress: address,
    ...(body.taxId === undefined ? {} : { taxId: body.taxId || null }),
  }));
  await writeAudit(ctx, {
    action: 'billing.address',
    entity: { type: 'billing', id: saved.customerId },
    before: { billingAddress: record.billingAddress, taxId: record.taxId },
    after: { billingAddress: saved.billingAddress, taxId: saved.taxId },
  });
  return billingAccount(ctx);
}

// ---- Subscribing and changing plan ----

function itemsFor(tierId: TierId, interval: BillingInterval, chosen: AddOnId[]) {
  return [
    planPrice(tierId, interval),
    overagePrice(tierId, interval),
    ...chosen.map((addOnId) => addOnPrice(addOnId, interval)),
  ];
}

function checkAddOns(tierId: TierId, chosen: AddOnId[]) {
  for (const [index, addOnId] of chosen.entries()) {
    if (!addOnById(addOnId)!.targetTiers.includes(tierId)) {
      throw fieldError(`addOnIds.${index}`, `is not offered on the ${tierById(tierId)!.name} plan`);
    }
  }
}

export async function createSubscription(
  ctx: UserContext,
  body: CreateSubscription,
): Promise<SubscriptionView> {
  const record = await customerRecord(ctx);
  const alreadySubscribed = () =>
    conflict('This account already has a subscription: change its plan instead');
  if (record.subscription && record.subscription.status !== 'canceled') throw alreadySubscribed();
  // Stripe's word too, so a subscription made by a request that failed after it counts.
  const existing = await stripeCall((client) =>
    client.subscriptions.list({ customer: record.customerId, status: 'all', limit: 10 }),
  );
  const open = existing.data.find(
    (candidate) => !['canceled', 'incomplete_expired'].includes(candidate.status),
  );
  if (open) {
    await syncSubscription(ctx.scope, open);
    throw alreadySubscribed();
  }
  const chosen = [...new Set(body.addOnIds)];
  checkAddOns(body.tierId, chosen);
  const methodId = body.paymentMethodId ?? (await defaultMethodId(record.customerId));
  if (!methodId) throw fieldError('paymentMethodId', 'is required: add a card first');
  if (body.paymentMethodId) {
    await ownMethod(record, body.paymentMethodId).catch(() => {
      throw fieldError('paymentMethodId', 'is not a card of this account');
    });
  }
  const specs = itemsFor(body.tierId, body.interval, chosen);
  const setups = chosen
    .map((addOnId) => setupPrice(addOnId, body.tierId))
    .filter((spec) => spec.amount > 0);
  const [prices, setupPrices] = await Promise.all([priceIdsFor(specs), priceIdsFor(setups)]);
  // The same choice sent twice (a double click, a retry) makes one subscription.
  const idempotencyKey = [
    'subscribe',
    ctx.scope.accountId,
    record._etag,
    body.tierId,
    body.interval,
    methodId,
    ...chosen,
  ].join(':');
  const subscription = await stripeCall((client) =>
    client.subscriptions.create(
      {
        customer: record.customerId,
        items: specs.map((spec, index) =>
          spec.metered ? { price: prices[index]! } : { price: prices[index]!, quantity: 1 },
        ),
        add_invoice_items: setupPrices.map((price) => ({ price, quantity: 1 })),
        default_payment_method: methodId,
        // A declined card fails the request and leaves nothing behind.
        payment_behavior: 'error_if_incomplete',
        metadata: { accountId: ctx.scope.accountId },
      },
      { idempotencyKey },
    ),
  );
  const state = await syncSubscription(ctx.scope, subscription);
  await writeAudit(ctx, {
    action: 'billing.subscription.create',
    entity: { type: 'subscription', id: subscription.id },
    after: { tierId: state.tierId, interval: state.interval, addOns: chosen },
  });
  return subscriptionView(ctx.scope, state);
}

export async function updateSubscription(
  ctx: UserContext,
  body: UpdateSubscription,
): Promise<SubscriptionView> {
  const record = await customerRecord(ctx);
  const current = record.subscription;
  if (!current || current.status === 'canceled') {
    throw notFound('This account has no subscription: choose a plan first');
  }
  const tierId = body.tierId ?? current.tierId;
  const interval = body.interval ?? current.interval;
  const chosen = body.addOnIds
    ? [...new Set(body.addOnIds)]
    : current.addOns.map((addOn) => addOn.addOnId);
  checkAddOns(tierId, chosen);
  const removed = current.addOns.filter((addOn) => !chosen.includes(addOn.addOnId));
  // Taking add-ons off and nothing else credits nothing: they stay on to the period's end.
  const onlyRemoving =
    tierId === current.tierId &&
    interval === current.interval &&
    removed.length > 0 &&
    chosen.every((addOnId) => current.addOns.some((addOn) => addOn.addOnId === addOnId));
  const planChanged =
    tierId !== current.tierId ||
    interval !== current.interval ||
    chosen.length !== current.addOns.length ||
    chosen.some((addOnId) => !current.addOns.some((addOn) => addOn.addOnId === addOnId));

  const subscription = await stripeCall(async (client) => {
    const live = await client.subscriptions.retrieve(current.id);
    if (!planChanged) {
      return client.subscriptions.update(current.id, {
        cancel_at_period_end: body.cancelAtPeriodEnd ?? live.cancel_at_period_end,
      });
    }
    const specs = itemsFor(tierId, interval, chosen);
    const prices = await priceIdsFor(specs);
    const byKind = (kind: PriceKind, ref?: string) =>
      live.items.data.find(
        (item) =>
          metadataOf(item.price).kind === kind &&
          (ref === undefined || metadataOf(item.price).ref === ref),
      );
    const items: Stripe.SubscriptionUpdateParams.Item[] = specs.map((spec, index) => {
      const existing =
        spec.metadata.kind === 'addon'
          ? byKind('addon', spec.metadata.ref)
          : byKind(spec.metadata.kind);
      const price = prices[index]!;
      if (existing) return { id: existing.id, price };
      return spec.metered ? { price } : { price, quantity: 1 };
    });
    for (const item of live.items.data) {
      const kind = metadataOf(item.price).kind;
      if (kind === 'addon' && !chosen.includes(metadataOf(item.price).ref as AddOnId)) {
        items.push({ id: item.id, deleted: true });
      }
    }
    const added = chosen.filter(
      (addOnId) => !current.addOns.some((addOn) => addOn.addOnId === addOnId),
    );
    const setups = added
      .map((addOnId) => setupPrice(addOnId, tierId))
      .filter((spec) => spec.amount > 0);
    const setupPrices = await priceIdsFor(setups);
    return client.subscriptions.update(current.id, {
      items,
      add_invoice_items: setupPrices.map((price) => ({ price, quantity: 1 })),
      // Otherwise the difference for the rest of the period is charged (or credited) at once.
      proration_behavior: onlyRemoving ? 'none' : 'always_invoice',
      payment_behavior: 'error_if_incomplete',
      cancel_at_period_end: body.cancelAtPeriodEnd ?? false,
    });
  });
  const ending = onlyRemoving
    ? removed.map((addOn) => ({
        addOnId: addOn.addOnId,
        addedDate: addOn.addedDate,
        endsAt: current.currentPeriodEnd,
      }))
    : [];
  const state = await syncSubscription(ctx.scope, subscription, undefined, ending);
  await writeAudit(ctx, {
    action: body.cancelAtPeriodEnd ? 'billing.subscription.cancel' : 'billing.subscription.change',
    entity: { type: 'subscription', id: subscription.id },
    before: {
      tierId: current.tierId,
      interval: current.interval,
      addOns: current.addOns.map((addOn) => addOn.addOnId),
      cancelAtPeriodEnd: current.cancelAtPeriodEnd,
    },
    after: {
      tierId: state.tierId,
      interval: state.interval,
      addOns: state.addOns.map((addOn) => addOn.addOnId),
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    },
  });
  return subscriptionView(ctx.scope, state);
}

// ---- Paying an open invoice ----

export async function createInvoicePaymentIntent(ctx: UserContext, invoiceId: string) {
  const record = await customerRecord(ctx);
  const invoice = await ownInvoice(record, invoiceId);
  if (invoice.status !== 'open' || invoice.amount_remaining <= 0) {
    throw conflict('This invoice has nothing left to pay');
  }
  const intent = await stripeCall((client) =>
    client.paymentIntents.create(
      {
        amount: invoice.amount_remaining,
        currency: invoice.currency,
        customer: record.customerId,
        description: `Invoice ${invoice.number ?? invoice.id}`,
        metadata: { accountId: ctx.scope.accountId, invoiceId },
      },
      // A double click asks once.
      { idempotencyKey: `invoice-payment-${invoiceId}-${invoice.amount_remaining}` },
    ),
  );
  return { clientSecret: intent.client_secret ?? '', paymentIntentId: intent.id };
}

/** Pays an open invoice with a saved card (the default when none is named). */
export async function payInvoice(
  ctx: UserContext,
  body: { invoiceId: string; paymentMethodId?: string | undefined },
) {
  const record = await customerRecord(ctx);
  const invoice = await ownInvoice(record, body.invoiceId);
  if (invoice.status === 'paid') return { paymentIntentId: null, status: 'paid' };
  if (invoice.status !== 'open') throw conflict('This invoice is not open for payment');
  const methodId = body.paymentMethodId ?? (await defaultMethodId(record.customerId));
  if (!methodId) throw fieldError('paymentMethodId', 'is required: add a card first');
  if (body.paymentMethodId) {
    await ownMethod(record, body.paymentMethodId).catch(() => {
      throw fieldError('paymentMethodId', 'is not a card of this account');
    });
  }
  const paid = await stripeCall((client) =>
    client.invoices.pay(body.invoiceId, { payment_method: methodId }),
  );
  await writeAudit(ctx, {
    action: 'billing.invoice.pay',
    entity: { type: 'invoice', id: body.invoiceId },
    after: { status: paid.status },
  });
  if (record.subscription) {
    const subscription = await stripeCall((client) =>
      client.subscriptions.retrieve(record.subscription!.id),
    );
    await syncSubscription(ctx.scope, subscription);
  }
  return { paymentIntentId: null, status: paid.status ?? 'open' };
}

// ---- Webhooks and the minute timer ----

const customerOf = (object: { customer?: unknown }): string | undefined => {
  const customer = object.customer;
  if (typeof customer === 'string') return customer;
  if (customer && typeof customer === 'object' && 'id' in customer) {
    return String((customer as { id: unknown }).id);
  }
  return undefined;
};

function subscriptionOf(object: Record<string, unknown>): string | undefined {
  if (object.object === 'subscription') return object.id as string;
  const parent = object.parent as
    { subscription_details?: { subscription?: string | { id: string } } | null } | null | undefined;
  const subscription = parent?.subscription_details?.subscription;
  return typeof subscription === 'string' ? subscription : subscription?.id;
}

/** The invoice a succeeded PaymentIntent from `createInvoicePaymentIntent` paid, if any. */
function invoicePaidBy(event: Stripe.Event): string | undefined {
  if (event.type !== 'payment_intent.succeeded') return undefined;
  const invoiceId = event.data.object.metadata?.invoiceId;
  return invoiceId && /^in_[A-Za-z0-9]+$/.test(invoiceId) ? invoiceId : undefined;
}

async function invoiceSubscription(invoiceId: string): Promise<string | undefined> {
  const invoice = await stripeCall((client) => client.invoices.retrieve(invoiceId));
  return subscriptionOf(invoice as unknown as Record<string, unknown>);
}

/**
 * Applies one Stripe event, at most once: the account comes from the customer the event is
 * about (which we created with its account id), the subscription is read fresh from Stripe (so
 * events arriving out of order still leave the latest state), and the event's marker is saved
 * with the change.
 */
export async function handleStripeWebhook(
  payload: string,
  signature: string | null,
  log: Logger,
): Promise<{ received: true; applied: boolean }> {
  const event = verifiedStripeEvent(payload, signature);
  // A buyer's payment of a house's invoice is the payments feature's, not the house's billing.
  const buyerPayment = await handleBuyerPaymentEvent(event, log);
  if (buyerPayment) return { received: true, applied: buyerPayment.applied };
  const object = event.data.object as unknown as Record<string, unknown>;
  const customerId = object.object === 'customer' ? (object.id as string) : customerOf(object);
  if (!customerId) return { received: true, applied: false };
  const customer = await stripeCall((client) => client.customers.retrieve(customerId)).catch(
    () => undefined,
  );
  const accountId =
    customer && !customer.deleted ? (customer.metadata.accountId ?? undefined) : undefined;
  if (!accountId) return { received: true, applied: false };
  const scope = { accountId };
  const record = await billingRepo.find(scope);
  if (!record || record.customerId !== customerId) return { received: true, applied: false };
  if (await billingRepo.eventApplied(scope, event.id)) return { received: true, applied: false };

  const marker = { id: event.id, type: event.type };
  const paidInvoice = invoicePaidBy(event);
  if (paidInvoice) {
    // A card paid an open invoice in the browser: the invoice records it (once: Stripe refuses
    // to pay a paid invoice, and it is only asked while the invoice is open).
    const invoice = await stripeCall((client) => client.invoices.retrieve(paidInvoice));
    if (invoice.status === 'open') {
      await stripeCall((client) => client.invoices.pay(paidInvoice, { paid_out_of_band: true }));
    }
  }
  const subscriptionId = paidInvoice
    ? await invoiceSubscription(paidInvoice)
    : subscriptionOf(object);
  try {
    if (subscriptionId) {
      const subscription = await stripeCall((client) =>
        client.subscriptions.retrieve(subscriptionId),
      );
      await syncSubscription(scope, subscription, marker);
    } else {
      await billingRepo.markApplied(scope, marker);
    }
  } catch (error) {
    // Another delivery of the same event applied it first (its marker exists).
    if (isConflict(error)) {
      return { received: true, applied: false };
    }
    throw error;
  }
  log.info('stripe event applied', { type: event.type, event: event.id, account: accountId });
  return { received: true, applied: true };
}

/**
 * Every minute: add-ons whose paid period ended go off, and usage over the plan is reported to
 * Stripe. Each account is handled on its own, so one failure does not hold up the others.
 */
export async function runBillingMinute(log: Logger): Promise<void> {
  for (const accountId of await billingRepo.subscribedAccounts()) {
    const scope = { accountId };
    try {
      const record = await billingRepo.find(scope);
      const state = record?.subscription;
      if (!state) continue;
      if (LIVE_STATUSES.has(state.status) && !(await accountIsOpen(accountId))) {
        // A closed account is billed no more: its subscription ends now, without proration.
        const canceled = await stripeCall((client) => client.subscriptions.cancel(state.id));
        await syncSubscription(scope, canceled);
        continue;
      }
      const now = Date.now();
      let latest = state;
      if (state.endingAddOns.some((ending) => Date.parse(ending.endsAt) <= now)) {
        const saved = await updateRecord(scope, (current) => ({
          ...current,
          subscription: current.subscription && {
            ...current.subscription,
            endingAddOns: current.subscription.endingAddOns.filter(
              (ending) => Date.parse(ending.endsAt) > now,
            ),
          },
        }));
        latest = saved.subscription ?? state;
      }
      // Every minute, not only on a change: a plan a failed request or webhook left behind
      // is put right (nothing is written when it already matches).
      await applyPlan(accountId, planOf(latest, now));
      await reportOverage(scope);
    } catch (error) {
      log.warn('billing minute failed for an account', {
        account: accountId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/**
 * Subscribes an account on Stripe's test card, for the seeded demo tenant: its plan is then a
 * real subscription like any other.
 */
export async function seedSubscription(
  accountId: string,
  owner: { email: string },
  plan: { tierId: TierId; addOnIds: AddOnId[] },
): Promise<void> {
  const base = systemContext(accountId);
  const ctx: UserContext = {
    ...base,
    actor: {
      kind: 'user' as const,
      userId: 'system',
      name: 'Lotwise',
      email: owner.email,
      role: 'owner' as const,
      sessionId: 'seed',
    },
  };
  const record = await customerRecord(ctx);
  const method = await stripeCall((client) =>
    client.paymentMethods.attach('pm_card_visa', { customer: record.customerId }),
  );
  await makeDefault(record, method.id);
  await createSubscription(ctx, {
    tierId: plan.tierId,
    interval: 'month',
    addOnIds: plan.addOnIds,
  });
}
