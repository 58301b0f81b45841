import { changedFields, newestFirst, page, type Context } from '../context.js';
import { StripeError, mergeMetadata, type Params, type Route } from '../http.js';
import { addMonths, newId } from '../ids.js';
import type {
  Interval,
  Price,
  Subscription,
  SubscriptionItem,
  SubscriptionStatus,
} from '../model.js';
import { planOf } from './catalogue.js';
import {
  createInvoice,
  lineDescription,
  payInvoice,
  pendingItem,
  type LineInput,
} from './invoices.js';
import { billUsage } from './meters.js';
import { resolveMethod } from './payment-methods.js';

/**
 * Subscriptions: created with a first invoice charged at once, updated with prorations, renewed
 * by the control API (`/__stripe/subscriptions/{id}/renew`) instead of a clock.
 */

type PaymentBehavior = 'error_if_incomplete' | 'allow_incomplete' | 'default_incomplete';
type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';

const periodEnd = (start: number, interval: Interval) =>
  addMonths(start, interval === 'year' ? 12 : 1);

const isLicensed = (price: Price) => price.recurring?.usage_type !== 'metered';

function periodOf(subscription: Subscription): { start: number; end: number } {
  const first = subscription.items.data[0];
  return first
    ? { start: first.current_period_start, end: first.current_period_end }
    : { start: subscription.billing_cycle_anchor, end: subscription.billing_cycle_anchor };
}

function recurringPrice(context: Context, id: string, param: string): Price {
  const price = context.get(context.state.prices, 'price', id, param);
  if (!price.recurring) {
    throw StripeError.invalid(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      param,
    );
  }
  if (!price.active)
    throw StripeError.invalid(
      `The price specified is inactive. This field only accepts active prices.`,
      param,
    );
  return price;
}

function newItem(
  subscription: Subscription,
  price: Price,
  quantity: number,
  period: { start: number; end: number },
  created: number,
): SubscriptionItem {
  return {
    id: newId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created,
    current_period_end: period.end,
    current_period_start: period.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price,
    ...(isLicensed(price) ? { quantity } : {}),
    subscription: subscription.id,
    tax_rates: [],
  };
}

function readQuantity(item: Params): number | undefined {
  const quantity = item.int('quantity');
  if (quantity !== undefined && quantity < 0)
    throw StripeError.invalid('Invalid non-negative integer', 'quantity');
  return quantity;
}

/** Every recurring price on a subscription must bill on one interval (and currency). */
function checkIntervals(items: SubscriptionItem[]): Interval {
  const intervals = new Set(items.map((item) => item.price.recurring?.interval));
  if (intervals.size > 1) {
    throw StripeError.invalid(
      'Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.',
      'items',
    );
  }
  const currencies = new Set(items.map((item) => item.price.currency));
  if (currencies.size > 1) {
    throw StripeError.invalid(
      'Currency and interval fields must match across all plans on this subscription. Found mismatch in currency field.',
      'items',
    );
  }
  return (items[0]?.price.recurring?.interval ?? 'month') as Interval;
}

/** The line billing an item for a whole period in advance (metered items bill usage instead). */
function advanceLine(
  context: Context,
  item: SubscriptionItem,
  period: { start: number; end: number },
): LineInput {
  const quantity = item.quantity ?? 0;
  return {
    description: lineDescription(context, item.price, quantity),
    amount: isLicensed(item.price) ? item.price.unit_amount * quantity : 0,
    quantity,
    price: item.price,
    period,
    proration: false,
    subscriptionItem: item.id,
  };
}

const dateText = (unix: number) =>
  new Date(unix * 1000).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Credit for the unused rest of the period on what an item was. */
function creditLine(
  context: Context,
  item: SubscriptionItem,
  now: number,
  period: { start: number; end: number },
): LineInput | null {
  if (!isLicensed(item.price) || !item.quantity) return null;
  const fraction = (period.end - now) / Math.max(1, period.end - period.start);
  const product = context.state.products[item.price.product]?.name ?? item.price.product;
  return {
    description: `Unused time on ${item.quantity} × ${product} after ${dateText(now)}`,
    amount: -Math.round(item.price.unit_amount * item.quantity * fraction),
    quantity: item.quantity,
    price: item.price,
    period: { start: now, end: period.end },
    proration: true,
    subscriptionItem: item.id,
  };
}

/** Charge for the remaining rest of the period on what an item is now. */
function remainingLine(
  context: Context,
  item: SubscriptionItem,
  now: number,
  period: { start: number; end: number },
): LineInput | null {
  if (!isLicensed(item.price) || !item.quantity) return null;
  const fraction = (period.end - now) / Math.max(1, period.end - period.start);
  const product = context.state.products[item.price.product]?.name ?? item.price.product;
  return {
    description: `Remaining time on ${item.quantity} × ${product} after ${dateText(now)}`,
    amount: Math.round(item.price.unit_amount * item.quantity * fraction),
    quantity: item.quantity,
    price: item.price,
    period: { start: now, end: period.end },
    proration: true,
    subscriptionItem: item.id,
  };
}

/** The method a subscription charges: its own default, else the customer's invoice default. */
function chargingMethod(context: Context, subscription: Subscription): string | null {
  return (
    subscription.default_payment_method ??
    context.state.customers[subscription.customer]?.invoice_settings.default_payment_method ??
    null
  );
}

function readDefaultMethod(context: Context, customer: string): string | null | undefined {
  const id = context.params.nullable('default_payment_method');
  if (!id) return id;
  const method = resolveMethod(context, id, 'default_payment_method');
  if (method.customer !== customer) {
    throw StripeError.invalid(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      'default_payment_method',
      'resource_missing',
    );
  }
  return method.id;
}

function oneTimePrice(context: Context, item: Params): Price {
  const id = item.required('price');
  return context.get(context.state.prices, 'price', id, 'add_invoice_items[price]');
}

function create(context: Context): Subscription {
  const { params } = context;
  const customer = context.get(
    context.state.customers,
    'customer',
    params.required('customer'),
    'customer',
  );
  const behavior =
    params.oneOf<PaymentBehavior>('payment_behavior', [
      'error_if_incomplete',
      'allow_incomplete',
      'default_incomplete',
    ]) ?? 'allow_incomplete';
  params.oneOf<ProrationBehavior>('proration_behavior', [
    'create_prorations',
    'always_invoice',
    'none',
  ]);
  const itemParams = params.list('items');
  if (itemParams.length === 0) throw StripeError.invalid('Missing required param: items.', 'items');
  const prices = itemParams.map((item, index) => ({
    price: recurringPrice(context, item.required('price'), `items[${index}][price]`),
    quantity: readQuantity(item) ?? 1,
  }));
  const id = newId('sub');
  const now = context.now;
  const interval = (prices[0]?.price.recurring?.interval ?? 'month') as Interval;
  const period = { start: now, end: periodEnd(now, interval) };
  const subscription: Subscription = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: now,
    billing_cycle_anchor_config: null,
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: now,
    currency: prices[0]?.price.currency ?? 'usd',
    customer: customer.id,
    customer_account: null,
    days_until_due: null,
    default_payment_method: readDefaultMethod(context, customer.id) ?? null,
    default_source: null,
    description: params.nullable('description') ?? null,
    discounts: [],
    ended_at: null,
    items: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: mergeMetadata({}, params.metadata()),
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: null,
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: 'incomplete',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: null,
    trial_start: null,
  };
  subscription.items.data = prices.map(({ price, quantity }) =>
    newItem(subscription, price, quantity, period, now),
  );
  subscription.items.total_count = subscription.items.data.length;
  checkIntervals(subscription.items.data);
  context.state.subscriptions[id] = subscription;
  context.emit('customer.subscription.created', subscription);

  for (const [index, item] of params.list('add_invoice_items').entries()) {
    const price = oneTimePrice(context, item);
    const quantity = readQuantity(item) ?? 1;
    if (price.recurring) {
      throw StripeError.invalid(
        'The price specified is a recurring price. add_invoice_items only accepts one-time prices.',
        `add_invoice_items[${index}][price]`,
      );
    }
    pendingItem(context, customer.id, subscription, {
      description: lineDescription(context, price, quantity),
      amount: price.unit_amount * quantity,
      quantity,
      price,
      period: { start: now, end: now },
      proration: false,
    });
  }
  const lines = subscription.items.data.map((item) => advanceLine(context, item, period));
  const invoice = createInvoice(context, subscription, 'subscription_create', lines, period);
  subscription.latest_invoice = invoice.id;
  if (behavior === 'default_incomplete' && invoice.amount_due > 0) return subscription;

  const before = structuredClone(subscription);
  const error = payInvoice(context, invoice, chargingMethod(context, subscription));
  if (error) {
    // With error_if_incomplete Stripe keeps nothing: the throw rolls the whole request back.
    if (behavior === 'error_if_incomplete') throw error;
    return subscription;
  }
  subscription.status = 'active';
  context.emit('customer.subscription.updated', subscription, changedFields(before, subscription));
  return subscription;
}

interface ItemChange {
  before: SubscriptionItem | null;
  after: SubscriptionItem | null;
}

/** Applies `items[...]` to the subscription and says what changed, item by item. */
function applyItems(context: Context, subscription: Subscription): ItemChange[] {
  const changes: ItemChange[] = [];
  const period = periodOf(subscription);
  for (const [index, params] of context.params.list('items').entries()) {
    const itemId = params.string('id');
    const quantity = readQuantity(params);
    const priceId = params.string('price');
    if (!itemId) {
      if (!priceId)
        throw StripeError.invalid(
          `Missing required param: items[${index}][price].`,
          `items[${index}][price]`,
        );
      const price = recurringPrice(context, priceId, `items[${index}][price]`);
      const item = newItem(subscription, price, quantity ?? 1, period, context.now);
      subscription.items.data.push(item);
      changes.push({ before: null, after: item });
      continue;
    }
    const position = subscription.items.data.findIndex((item) => item.id === itemId);
    const current = subscription.items.data[position];
    if (!current)
      throw StripeError.invalid(
        `No such subscription item: '${itemId}'`,
        `items[${index}][id]`,
        'resource_missing',
      );
    const before = structuredClone(current);
    if (params.bool('deleted')) {
      subscription.items.data.splice(position, 1);
      changes.push({ before, after: null });
      continue;
    }
    if (priceId && priceId !== current.price.id) {
      const price = recurringPrice(context, priceId, `items[${index}][price]`);
      current.price = price;
      current.plan = planOf(price);
      if (isLicensed(price)) current.quantity = quantity ?? current.quantity ?? 1;
      else delete current.quantity;
    } else if (quantity !== undefined && isLicensed(current.price)) {
      current.quantity = quantity;
    }
    current.metadata = mergeMetadata(current.metadata, params.metadata());
    if (before.price.id !== current.price.id || before.quantity !== current.quantity) {
      changes.push({ before, after: current });
    }
  }
  subscription.items.total_count = subscription.items.data.length;
  if (subscription.items.data.length === 0) {
    throw StripeError.invalid('A subscription must have at least one active plan.', 'items');
  }
  return changes;
}

function update(context: Context, id: string): Subscription {
  const { params } = context;
  const subscription = context.get(context.state.subscriptions, 'subscription', id);
  if (subscription.status === 'canceled') {
    throw StripeError.invalid(
      'A canceled subscription can only update its cancellation_details and metadata.',
      undefined,
      'resource_missing',
    );
  }
  const before = structuredClone(subscription);
  const proration =
    params.oneOf<ProrationBehavior>('proration_behavior', [
      'create_prorations',
      'always_invoice',
      'none',
    ]) ?? 'create_prorations';
  const oldInterval = checkIntervals(subscription.items.data);
  const oldPeriod = periodOf(subscription);
  const changes = applyItems(context, subscription);
  const interval = checkIntervals(subscription.items.data);
  const method = readDefaultMethod(context, subscription.customer);
  if (method !== undefined) subscription.default_payment_method = method;
  const description = params.nullable('description');
  if (description !== undefined) subscription.description = description;
  subscription.metadata = mergeMetadata(subscription.metadata, params.metadata());
  const cancelAtPeriodEnd = params.bool('cancel_at_period_end');

  const now = context.now;
  if (interval !== oldInterval) {
    // A new interval starts a new period now: credit for the old one's unused time, and the
    // new period billed in full, at once.
    const period = { start: now, end: periodEnd(now, interval) };
    const credits = before.items.data
      .map((item) => creditLine(context, item, now, oldPeriod))
      .filter((line): line is LineInput => line !== null);
    for (const item of subscription.items.data) {
      item.current_period_start = period.start;
      item.current_period_end = period.end;
    }
    subscription.billing_cycle_anchor = now;
    const lines = [
      ...credits,
      ...subscription.items.data.map((item) => advanceLine(context, item, period)),
    ];
    chargeNow(context, subscription, lines, period);
  } else if (changes.length && proration !== 'none') {
    const lines = changes.flatMap(({ before: old, after }) =>
      [
        old && creditLine(context, old, now, oldPeriod),
        after && remainingLine(context, after, now, oldPeriod),
      ].filter((line): line is LineInput => !!line && line.amount !== 0),
    );
    if (proration === 'always_invoice' && lines.length)
      chargeNow(context, subscription, lines, oldPeriod);
    else for (const line of lines) pendingItem(context, subscription.customer, subscription, line);
  }
  if (cancelAtPeriodEnd !== undefined) {
    subscription.cancel_at_period_end = cancelAtPeriodEnd;
    subscription.cancel_at = cancelAtPeriodEnd ? periodOf(subscription).end : null;
    subscription.canceled_at = cancelAtPeriodEnd ? now : null;
    subscription.cancellation_details.reason = cancelAtPeriodEnd ? 'cancellation_requested' : null;
  }
  const previous = changedFields(before, subscription);
  if (Object.keys(previous).length)
    context.emit('customer.subscription.updated', subscription, previous);
  return subscription;
}

/** Invoices the lines now and charges them; a decline is a 402 and (thrown) undoes the update. */
function chargeNow(
  context: Context,
  subscription: Subscription,
  lines: LineInput[],
  period: { start: number; end: number },
): void {
  const invoice = createInvoice(context, subscription, 'subscription_update', lines, period);
  subscription.latest_invoice = invoice.id;
  const error = payInvoice(context, invoice, chargingMethod(context, subscription));
  if (error) throw error;
  if (subscription.status === 'past_due' || subscription.status === 'incomplete')
    subscription.status = 'active';
}

function cancel(context: Context, id: string): Subscription {
  const subscription = context.get(context.state.subscriptions, 'subscription', id);
  if (subscription.status === 'canceled') {
    throw StripeError.invalid(`No such subscription: '${id}'`, 'id', 'resource_missing');
  }
  endSubscription(context, subscription);
  return subscription;
}

function endSubscription(context: Context, subscription: Subscription): void {
  subscription.status = 'canceled';
  subscription.ended_at = context.now;
  subscription.canceled_at ??= context.now;
  subscription.cancellation_details.reason ??= 'cancellation_requested';
  context.emit('customer.subscription.deleted', subscription);
}

/**
 * Ends the current period now (the control API's stand-in for time passing): a subscription set
 * to cancel at period end is canceled; any other starts a new period with a renewal invoice for
 * its licensed items, the period's metered usage and pending invoice items. A decline leaves it
 * `past_due`.
 */
export function renew(context: Context, id: string): Subscription {
  const subscription = context.get(context.state.subscriptions, 'subscription', id);
  if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
    throw StripeError.invalid(`Subscription ${id} is ${subscription.status}; it cannot renew.`);
  }
  const before = structuredClone(subscription);
  const now = context.now;
  const oldPeriod = { start: periodOf(subscription).start, end: now };
  if (subscription.cancel_at_period_end) {
    for (const item of subscription.items.data) item.current_period_end = now;
    subscription.cancel_at = now;
    endSubscription(context, subscription);
    return subscription;
  }
  const interval = checkIntervals(subscription.items.data);
  const period = { start: now, end: periodEnd(now, interval) };
  const usageLines = subscription.items.data
    .filter((item) => !isLicensed(item.price) && item.price.recurring?.meter)
    .map((item): LineInput => {
      const usage = billUsage(
        context.state,
        item.price.recurring?.meter as string,
        subscription.customer,
        now,
        `${subscription.id}@${now}`,
      );
      return {
        description: lineDescription(context, item.price, usage).replace(/ \(at .*\)$/, ''),
        amount: Math.round(usage * item.price.unit_amount),
        quantity: usage,
        price: item.price,
        period: oldPeriod,
        proration: false,
        subscriptionItem: item.id,
      };
    });
  for (const item of subscription.items.data) {
    item.current_period_start = period.start;
    item.current_period_end = period.end;
  }
  const lines = [
    ...subscription.items.data
      .filter((item) => isLicensed(item.price))
      .map((item) => advanceLine(context, item, period)),
    ...usageLines,
  ];
  const invoice = createInvoice(context, subscription, 'subscription_cycle', lines, oldPeriod);
  subscription.latest_invoice = invoice.id;
  const error = payInvoice(context, invoice, chargingMethod(context, subscription));
  subscription.status = error ? 'past_due' : 'active';
  context.emit('customer.subscription.updated', subscription, changedFields(before, subscription));
  return subscription;
}

function list(context: Context) {
  const { params } = context;
  const customer = params.string('customer');
  const price = params.string('price');
  const status = params.oneOf<SubscriptionStatus | 'all'>('status', [
    'active',
    'incomplete',
    'incomplete_expired',
    'past_due',
    'canceled',
    'all',
  ]);
  const subscriptions = newestFirst(context.state.subscriptions).filter(
    (subscription) =>
      (customer === undefined || subscription.customer === customer) &&
      (price === undefined || subscription.items.data.some((item) => item.price.id === price)) &&
      (status === 'all' ||
        (status === undefined
          ? subscription.status !== 'canceled'
          : subscription.status === status)),
  );
  return page(context, subscriptions, '/v1/subscriptions');
}

export const subscriptionRoutes: Route<Context>[] = [
  { method: 'POST', pattern: '/v1/subscriptions', handler: create },
  { method: 'GET', pattern: '/v1/subscriptions', handler: list },
  {
    method: 'GET',
    pattern: '/v1/subscriptions/:id',
    handler: (c, p) => c.get(c.state.subscriptions, 'subscription', p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/subscriptions/:id',
    handler: (c, p) => update(c, p.id as string),
  },
  {
    method: 'DELETE',
    pattern: '/v1/subscriptions/:id',
    handler: (c, p) => cancel(c, p.id as string),
  },
];
