import { newestFirst, page, type Context } from '../context.js';
import { StripeError, type Route } from '../http.js';
import { newId } from '../ids.js';
import type {
  Invoice,
  InvoiceItem,
  InvoiceLine,
  InvoiceStatus,
  Price,
  Subscription,
} from '../model.js';
import { chargeIntent, newPaymentIntent } from './intents.js';

/** Invoices: built from subscription items and pending invoice items, finalized and charged. */

export interface LineInput {
  description: string;
  amount: number;
  quantity: number;
  price: Price;
  period: { start: number; end: number };
  proration: boolean;
  /** The subscription item a line bills; omitted for invoice items. */
  subscriptionItem?: string;
}

export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );

/** Stripe's line text: `1 × Pro (at $49.00 / month)`. */
export function lineDescription(context: Context, price: Price, quantity: number): string {
  const product = context.state.products[price.product]?.name ?? price.product;
  const per = price.recurring ? ` / ${price.recurring.interval}` : '';
  return `${quantity} × ${product} (at ${money(price.unit_amount, price.currency)}${per})`;
}

const pricing = (price: Price) => ({
  type: 'price_details' as const,
  price_details: { price: price.id, product: price.product },
  unit_amount_decimal: price.unit_amount_decimal,
});

/** An invoice item waiting for the customer's next (subscription) invoice, e.g. a proration. */
export function pendingItem(
  context: Context,
  customer: string,
  subscription: Subscription | null,
  line: LineInput,
): InvoiceItem {
  const item: InvoiceItem = {
    id: newId('ii'),
    object: 'invoiceitem',
    amount: line.amount,
    currency: line.price.currency,
    customer,
    customer_account: null,
    date: context.now,
    description: line.description,
    discountable: !line.proration,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    parent: subscription
      ? {
          type: 'subscription_details',
          subscription_details: {
            subscription: subscription.id,
            ...(line.subscriptionItem ? { subscription_item: line.subscriptionItem } : {}),
          },
        }
      : null,
    period: line.period,
    pricing: pricing(line.price),
    proration: line.proration,
    quantity: line.quantity,
    tax_rates: [],
    test_clock: null,
  };
  context.state.invoice_items[item.id] = item;
  context.emit('invoiceitem.created', item);
  return item;
}

function lineFor(
  context: Context,
  invoice: Invoice,
  line: LineInput,
  subscription: string | null,
): InvoiceLine {
  return {
    id: newId('il'),
    object: 'line_item',
    amount: line.amount,
    currency: line.price.currency,
    description: line.description,
    discount_amounts: [],
    discountable: !line.proration,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      subscription_item_details: {
        invoice_item: null,
        proration: line.proration,
        proration_details: { credited_items: null },
        subscription,
        subscription_item: line.subscriptionItem ?? '',
      },
      invoice_item_details: null,
    },
    period: line.period,
    pretax_credit_amounts: [],
    pricing: pricing(line.price),
    quantity: line.quantity,
    subscription,
    subtotal: line.amount,
    taxes: [],
  };
}

function lineForItem(context: Context, invoice: Invoice, item: InvoiceItem): InvoiceLine {
  const subscription = item.parent?.subscription_details?.subscription ?? null;
  item.invoice = invoice.id;
  return {
    id: newId('il'),
    object: 'line_item',
    amount: item.amount,
    currency: item.currency,
    description: item.description,
    discount_amounts: [],
    discountable: item.discountable,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: item.metadata,
    parent: {
      type: 'invoice_item_details',
      subscription_item_details: null,
      invoice_item_details: {
        invoice_item: item.id,
        proration: item.proration,
        proration_details: { credited_items: null },
        subscription,
      },
    },
    period: item.period,
    pretax_credit_amounts: [],
    pricing: item.pricing,
    quantity: item.quantity,
    subscription,
    subtotal: item.amount,
    taxes: [],
  };
}

/**
 * A finalized invoice for a subscription: the given lines, then the customer's pending invoice
 * items for it. Its number is `{invoice_prefix}-0001`, counting per customer; a credit balance
 * on the customer pays for what it can first, and a negative total becomes credit.
 */
export function createInvoice(
  context: Context,
  subscription: Subscription,
  billingReason: Invoice['billing_reason'],
  lines: LineInput[],
  period: { start: number; end: number },
): Invoice {
  const customer = context.get(
    context.state.customers,
    'customer',
    subscription.customer,
    'customer',
  );
  const id = newId('in');
  const invoice: Invoice = {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Lotwise (local Stripe)',
    account_tax_ids: null,
    amount_due: 0,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: {
      disabled_reason: null,
      enabled: false,
      liability: null,
      provider: null,
      status: null,
    },
    automatically_finalizes_at: null,
    billing_reason: billingReason,
    collection_method: 'charge_automatically',
    created: context.now,
    currency: subscription.currency,
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: customer.address,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: customer.phone,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: Object.values(context.state.tax_ids)
      .filter((tax) => tax.customer === customer.id)
      .map((tax) => ({ type: tax.type, value: tax.value })),
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `${context.origin}/i/${id}`,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
    },
    payment_settings: {
      default_mandate: null,
      payment_method_options: null,
      payment_method_types: null,
    },
    period_end: period.end,
    period_start: period.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: {
      finalized_at: null,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: 0,
    subtotal_excluding_tax: 0,
    test_clock: null,
    total: 0,
    total_discount_amounts: [],
    total_excluding_tax: 0,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
  context.state.invoices[id] = invoice;
  const pending = Object.values(context.state.invoice_items).filter(
    (item) =>
      item.invoice === null &&
      item.customer === customer.id &&
      (item.parent?.subscription_details?.subscription ?? subscription.id) === subscription.id,
  );
  invoice.lines.data = [
    ...lines.map((line) => lineFor(context, invoice, line, subscription.id)),
    ...pending.map((item) => lineForItem(context, invoice, item)),
  ];
  invoice.lines.total_count = invoice.lines.data.length;
  const total = invoice.lines.data.reduce((sum, line) => sum + line.amount, 0);
  invoice.subtotal = invoice.subtotal_excluding_tax = total;
  invoice.total = invoice.total_excluding_tax = total;
  context.emit('invoice.created', invoice);

  // Finalizing: the number, the balance applied, the amount to collect.
  invoice.number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, '0')}`;
  customer.next_invoice_sequence += 1;
  invoice.starting_balance = customer.balance;
  const due = total + customer.balance;
  invoice.amount_due = Math.max(0, due);
  invoice.amount_remaining = invoice.amount_due;
  invoice.ending_balance = Math.min(0, due);
  customer.balance = invoice.ending_balance;
  invoice.status = 'open';
  invoice.effective_at = context.now;
  invoice.status_transitions.finalized_at = context.now;
  context.emit('invoice.finalized', invoice);
  return invoice;
}

function markPaid(context: Context, invoice: Invoice): void {
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.status_transitions.paid_at = context.now;
  context.emit('invoice.paid', invoice);
  context.emit('invoice.payment_succeeded', invoice);
  // Paying the invoice a subscription fell behind on brings the subscription back, as at Stripe.
  const subscriptionId = invoice.parent?.subscription_details.subscription;
  const subscription = subscriptionId ? context.state.subscriptions[subscriptionId] : undefined;
  if (subscription?.status === 'past_due') {
    subscription.status = 'active';
    context.emit('customer.subscription.updated', subscription, { status: 'past_due' });
  }
}

/**
 * Charges an open invoice to a payment method (nothing to charge: paid at once). On a decline the
 * invoice stays open, `invoice.payment_failed` goes out and the card error comes back.
 */
export function payInvoice(
  context: Context,
  invoice: Invoice,
  method: string | null,
): StripeError | null {
  if (invoice.amount_due === 0) {
    markPaid(context, invoice);
    return null;
  }
  invoice.attempted = true;
  invoice.attempt_count += 1;
  invoice.default_payment_method = method;
  if (!method) {
    context.emit('invoice.payment_failed', invoice);
    return StripeError.invalid(
      'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.',
      undefined,
      'resource_missing',
    );
  }
  const intent = newPaymentIntent(context, {
    amount: invoice.amount_due,
    currency: invoice.currency,
    customer: invoice.customer,
    // Stripe's wording for a subscription invoice's payment.
    description:
      invoice.billing_reason === 'subscription_create'
        ? 'Subscription creation'
        : 'Subscription update',
    metadata: {},
  });
  intent.payment_method = method;
  const error = chargeIntent(context, intent);
  if (error) {
    context.emit('invoice.payment_failed', invoice);
    return error;
  }
  markPaid(context, invoice);
  return null;
}

function listInvoices(context: Context) {
  const { params } = context;
  const customer = params.string('customer');
  const subscription = params.string('subscription');
  const status = params.oneOf<InvoiceStatus>('status', [
    'draft',
    'open',
    'paid',
    'void',
    'uncollectible',
  ]);
  const invoices = newestFirst(context.state.invoices).filter(
    (invoice) =>
      (customer === undefined || invoice.customer === customer) &&
      (subscription === undefined ||
        invoice.parent?.subscription_details.subscription === subscription) &&
      (status === undefined || invoice.status === status),
  );
  return page(context, invoices, '/v1/invoices');
}

/**
 * Pays an open invoice now: with the named payment method, else the invoice's or the customer's
 * default, or as paid out of band. A decline leaves it open and answers the card error.
 */
function pay(context: Context, id: string): Invoice {
  const invoice = context.get(context.state.invoices, 'invoice', id);
  if (invoice.status === 'paid') {
    throw StripeError.invalid('Invoice is already paid', undefined, 'invoice_already_paid');
  }
  if (invoice.status !== 'open') {
    throw StripeError.invalid(
      `You can only pay an open invoice. This invoice is ${invoice.status}.`,
    );
  }
  if (context.params.nullable('paid_out_of_band') === 'true') {
    markPaid(context, invoice);
    return invoice;
  }
  const method =
    context.params.nullable('payment_method') ??
    invoice.default_payment_method ??
    context.state.customers[invoice.customer]?.invoice_settings.default_payment_method ??
    null;
  const error = payInvoice(context, invoice, method);
  if (error) throw error;
  return invoice;
}

function listLines(context: Context, id: string) {
  const invoice = context.get(context.state.invoices, 'invoice', id);
  return page(context, [...invoice.lines.data], `/v1/invoices/${id}/lines`);
}

export const invoiceRoutes: Route<Context>[] = [
  { method: 'GET', pattern: '/v1/invoices', handler: listInvoices },
  {
    method: 'GET',
    pattern: '/v1/invoices/:id',
    handler: (c, p) => c.get(c.state.invoices, 'invoice', p.id as string),
  },
  { method: 'POST', pattern: '/v1/invoices/:id/pay', handler: (c, p) => pay(c, p.id as string) },
  {
    method: 'GET',
    pattern: '/v1/invoices/:id/lines',
    handler: (c, p) => listLines(c, p.id as string),
  },
  {
    method: 'GET',
    pattern: '/v1/invoiceitems',
    handler: (c) => page(c, newestFirst(c.state.invoice_items), '/v1/invoiceitems'),
  },
];
