import { newestFirst, page, type Context } from '../context.js';
import { brandOf, magicPaymentMethods, readCard, setupError, type CardInput } from '../cards.js';
import { StripeError, mergeMetadata, type Params, type Route } from '../http.js';
import { newId } from '../ids.js';
import type { BillingDetails, PaymentMethod } from '../model.js';
import { readAddress } from './customers.js';

/** Card payment methods: created from card details or Stripe's `pm_card_*` test ids. */

const cardCountry: Record<string, string> = { amex: 'US', mastercard: 'US', visa: 'US' };

function readBillingDetails(params: Params | undefined): BillingDetails {
  return {
    address: params?.has('address') ? readAddress(params.object('address')) : null,
    email: params?.nullable('email') ?? null,
    name: params?.nullable('name') ?? null,
    phone: params?.nullable('phone') ?? null,
    tax_id: null,
  };
}

/** A new card payment method; the card's number decides how it behaves from here on. */
export function createCardMethod(
  context: Context,
  card: CardInput,
  billing?: Params,
): PaymentMethod {
  const number = card.number.replace(/\s+/g, '');
  const outcome = readCard({ ...card, number });
  const brand = brandOf(number);
  const method: PaymentMethod = {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: readBillingDetails(billing),
    card: {
      brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: cardCountry[brand] ?? 'US',
      display_brand: brand === 'amex' ? 'american_express' : brand,
      exp_month: card.exp_month,
      exp_year: card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year,
      // The same number gives the same fingerprint, as with Stripe.
      fingerprint: Buffer.from(number)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(-16),
      funding: 'credit',
      generated_from: null,
      last4: number.slice(-4),
      networks: { available: [brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: context.now,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
  context.state.payment_methods[method.id] = method;
  context.state.card_outcomes[method.id] = outcome;
  return method;
}

/** `card[number]=…&card[exp_month]=…` read as a card. */
export function readCardParams(card: Params): CardInput {
  const expMonth = card.int('exp_month');
  const expYear = card.int('exp_year');
  if (expMonth === undefined)
    throw StripeError.invalid(`Missing required param: card[exp_month].`, 'card[exp_month]');
  if (expYear === undefined)
    throw StripeError.invalid(`Missing required param: card[exp_year].`, 'card[exp_year]');
  const cvc = card.string('cvc');
  return {
    number: card.required('number'),
    exp_month: expMonth,
    exp_year: expYear,
    ...(cvc ? { cvc } : {}),
  };
}

/**
 * The payment method an id names. A `pm_card_*` test id makes a new payment method each time,
 * as Stripe does; the year is always next year, so the test cards never expire.
 */
export function resolveMethod(context: Context, id: string, param: string): PaymentMethod {
  const magic = magicPaymentMethods[id];
  if (magic) {
    return createCardMethod(context, {
      number: magic,
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 1,
    });
  }
  return context.get(context.state.payment_methods, 'PaymentMethod', id, param);
}

/** A payment method from `payment_method` or `payment_method_data`, as the confirm calls take them. */
export function methodFromParams(context: Context): PaymentMethod | undefined {
  const { params } = context;
  const id = params.string('payment_method');
  if (id) return resolveMethod(context, id, 'payment_method');
  const data = params.object('payment_method_data');
  if (!data) return undefined;
  if (data.string('type') !== 'card') {
    throw StripeError.invalid(
      'Only card payment methods are supported here.',
      'payment_method_data[type]',
    );
  }
  const card = data.object('card');
  if (!card)
    throw StripeError.invalid(
      'Missing required param: payment_method_data[card].',
      'payment_method_data[card]',
    );
  return createCardMethod(context, readCardParams(card), data.object('billing_details'));
}

/** Attaches after checking the card with its bank: decline cards (but 0341) fail here. */
export function attachMethod(context: Context, method: PaymentMethod, customer: string): void {
  if (method.customer === customer) return;
  if (method.customer !== null) {
    throw StripeError.invalid(
      'The payment method you provided has already been attached to a customer.',
      'payment_method',
    );
  }
  const error = setupError(context.state.card_outcomes[method.id] ?? 'succeed');
  if (error) throw error;
  method.customer = customer;
  context.emit('payment_method.attached', method);
}

function create(context: Context): PaymentMethod {
  const { params } = context;
  const type = params.required('type');
  if (type !== 'card')
    throw StripeError.invalid('Only card payment methods are supported here.', 'type');
  const card = params.object('card');
  if (!card) throw StripeError.invalid('Missing required param: card.', 'card');
  const method = createCardMethod(context, readCardParams(card), params.object('billing_details'));
  method.metadata = mergeMetadata({}, params.metadata());
  return method;
}

function attach(context: Context, id: string): PaymentMethod {
  const customer = context.params.required('customer');
  context.get(context.state.customers, 'customer', customer, 'customer');
  const method = resolveMethod(context, id, 'id');
  attachMethod(context, method, customer);
  return method;
}

function detach(context: Context, id: string): PaymentMethod {
  const method = context.get(context.state.payment_methods, 'PaymentMethod', id);
  if (method.customer === null) {
    throw StripeError.invalid(
      'The payment method you provided is not attached to a customer so detachment is impossible.',
    );
  }
  const customer = context.state.customers[method.customer];
  if (customer?.invoice_settings.default_payment_method === id) {
    customer.invoice_settings.default_payment_method = null;
  }
  method.customer = null;
  context.emit('payment_method.detached', method, { customer: customer?.id ?? null });
  return method;
}

function list(context: Context, customerFromPath?: string) {
  const customer = customerFromPath ?? context.params.string('customer');
  const type = context.params.string('type');
  if (customer) context.get(context.state.customers, 'customer', customer, 'customer');
  const methods = newestFirst(context.state.payment_methods).filter(
    (method) =>
      (customer === undefined ? method.customer !== null : method.customer === customer) &&
      (type === undefined || method.type === type),
  );
  return page(
    context,
    methods,
    customerFromPath ? `/v1/customers/${customerFromPath}/payment_methods` : '/v1/payment_methods',
  );
}

export const paymentMethodRoutes: Route<Context>[] = [
  { method: 'POST', pattern: '/v1/payment_methods', handler: create },
  { method: 'GET', pattern: '/v1/payment_methods', handler: (c) => list(c) },
  {
    method: 'GET',
    pattern: '/v1/payment_methods/:id',
    handler: (c, p) => c.get(c.state.payment_methods, 'PaymentMethod', p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/payment_methods/:id/attach',
    handler: (c, p) => attach(c, p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/payment_methods/:id/detach',
    handler: (c, p) => detach(c, p.id as string),
  },
  {
    method: 'GET',
    pattern: '/v1/customers/:id/payment_methods',
    handler: (c, p) => list(c, p.id as string),
  },
];
