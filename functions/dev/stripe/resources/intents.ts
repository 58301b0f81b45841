import { newestFirst, page, type Context } from '../context.js';
import { declineError, setupError } from '../cards.js';
import { StripeError, mergeMetadata, type Route } from '../http.js';
import { clientSecret, newId } from '../ids.js';
import type {
  Charge,
  Dispute,
  PaymentIntent,
  PaymentMethod,
  Refund,
  SetupIntent,
} from '../model.js';
import { attachMethod, methodFromParams, resolveMethod } from './payment-methods.js';

/** SetupIntents, PaymentIntents, their charges and refunds. */

/** Client-side calls (publishable key) must show the intent's client secret. */
function checkClientSecret(context: Context, intent: { client_secret: string; object: string }) {
  if (context.auth !== 'publishable') return;
  const given = context.params.string('client_secret');
  if (given !== intent.client_secret) {
    const kind = intent.object === 'setup_intent' ? 'SetupIntent' : 'PaymentIntent';
    throw StripeError.invalid(
      `The client_secret provided does not match the client_secret associated with the ${kind}.`,
      'client_secret',
    );
  }
}

function createSetupIntent(context: Context): SetupIntent {
  const { params } = context;
  const customer = params.string('customer') ?? null;
  if (customer) context.get(context.state.customers, 'customer', customer, 'customer');
  const id = newId('seti');
  const intent: SetupIntent = {
    id,
    object: 'setup_intent',
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: clientSecret(id),
    created: context.now,
    customer,
    description: params.nullable('description') ?? null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: mergeMetadata({}, params.metadata()),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: params.strings('payment_method_types').length
      ? params.strings('payment_method_types')
      : ['card'],
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: params.oneOf('usage', ['off_session', 'on_session'] as const) ?? 'off_session',
  };
  context.state.setup_intents[id] = intent;
  context.emit('setup_intent.created', intent);
  const method = params.string('payment_method');
  if (method) {
    intent.payment_method = resolveMethod(context, method, 'payment_method').id;
    intent.status = 'requires_confirmation';
  }
  if (params.bool('confirm')) confirmSetupIntent(context, id);
  return intent;
}

function confirmSetupIntent(context: Context, id: string): SetupIntent {
  const intent = context.get(context.state.setup_intents, 'setup_intent', id);
  checkClientSecret(context, intent);
  if (intent.status === 'succeeded' || intent.status === 'canceled') {
    throw StripeError.invalid(
      `You cannot confirm this SetupIntent because it has a status of ${intent.status}.`,
      undefined,
      'setup_intent_unexpected_state',
    );
  }
  const method =
    methodFromParams(context) ??
    (intent.payment_method ? context.state.payment_methods[intent.payment_method] : undefined);
  if (!method) {
    throw StripeError.invalid(
      'You cannot confirm this SetupIntent because it has no payment method.',
      'payment_method',
      'setup_intent_unexpected_state',
    );
  }
  intent.payment_method = method.id;
  const error = setupError(context.state.card_outcomes[method.id] ?? 'succeed');
  if (error) {
    // Stripe keeps the failure on the intent and tells webhooks, then answers 402.
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.last_setup_error = {
      ...error.body,
      payment_method: method,
      payment_method_type: 'card',
    };
    context.emit('setup_intent.setup_failed', intent);
    error.keep = true;
    error.extra = { setup_intent: structuredClone(intent) };
    throw error;
  }
  if (intent.customer) attachMethod(context, method, intent.customer);
  intent.status = 'succeeded';
  intent.last_setup_error = null;
  context.emit('setup_intent.succeeded', intent);
  return intent;
}

function retrieveIntent<T extends SetupIntent | PaymentIntent>(
  context: Context,
  collection: Record<string, T>,
  kind: string,
  id: string,
): T {
  const intent = context.get(collection, kind, id);
  checkClientSecret(context, intent);
  return intent;
}

function createPaymentIntent(context: Context): PaymentIntent {
  const { params } = context;
  const amount = params.int('amount');
  if (amount === undefined) throw StripeError.invalid('Missing required param: amount.', 'amount');
  if (amount < 50) {
    throw StripeError.invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
  }
  const customer = params.string('customer') ?? null;
  if (customer) context.get(context.state.customers, 'customer', customer, 'customer');
  const intent = newPaymentIntent(context, {
    amount,
    currency: params.required('currency').toLowerCase(),
    customer,
    description: params.nullable('description') ?? null,
    metadata: mergeMetadata({}, params.metadata()),
  });
  const types = params.strings('payment_method_types');
  if (types.length) intent.payment_method_types = types;
  intent.receipt_email = params.nullable('receipt_email') ?? null;
  const method = params.string('payment_method');
  if (method) {
    intent.payment_method = resolveMethod(context, method, 'payment_method').id;
    intent.status = 'requires_confirmation';
  }
  if (params.bool('confirm')) confirmPaymentIntent(context, intent.id);
  return intent;
}

/** A PaymentIntent as Stripe makes one, for the API and for an invoice's payment. */
export function newPaymentIntent(
  context: Context,
  fields: Pick<PaymentIntent, 'amount' | 'currency' | 'customer' | 'description' | 'metadata'>,
): PaymentIntent {
  const id = newId('pi');
  const intent: PaymentIntent = {
    id,
    object: 'payment_intent',
    ...fields,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: clientSecret(id),
    confirmation_method: 'automatic',
    created: context.now,
    customer_account: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_group: null,
  };
  context.state.payment_intents[id] = intent;
  context.emit('payment_intent.created', intent);
  return intent;
}

function newCharge(context: Context, intent: PaymentIntent, method: PaymentMethod): Charge {
  const id = newId('ch');
  const { card } = method;
  const charge: Charge = {
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: method.billing_details,
    calculated_statement_descriptor: 'LOTWISE',
    captured: false,
    created: context.now,
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: false,
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: {
      type: 'card',
      card: {
        amount_authorized: intent.amount,
        authorization_code: null,
        brand: card.brand,
        checks: card.checks,
        country: card.country,
        electronic_commerce_indicator: null,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        fingerprint: card.fingerprint,
        funding: card.funding,
        installments: null,
        last4: card.last4,
        mandate: null,
        network: card.brand,
        network_token: null,
        network_transaction_id: null,
        regulated_status: 'unregulated',
        three_d_secure: null,
        wallet: null,
      },
    },
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: `${context.origin}/receipts/${id}`,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
  context.state.charges[id] = charge;
  return charge;
}

/**
 * Charges the intent's payment method: a charge either way, the intent `succeeded` or back to
 * `requires_payment_method` with `last_payment_error`. Returns the card error on a decline.
 */
export function chargeIntent(context: Context, intent: PaymentIntent): StripeError | null {
  const method = intent.payment_method
    ? context.state.payment_methods[intent.payment_method]
    : undefined;
  if (!method) {
    throw StripeError.invalid(
      "You cannot confirm this PaymentIntent because it's missing a payment method.",
      'payment_method',
      'payment_intent_unexpected_state',
    );
  }
  const charge = newCharge(context, intent, method);
  intent.latest_charge = charge.id;
  const error = declineError(context.state.card_outcomes[method.id] ?? 'succeed');
  if (error) {
    charge.status = 'failed';
    charge.failure_code = error.body.code ?? 'card_declined';
    charge.failure_message = error.body.message;
    charge.amount_captured = 0;
    charge.outcome = {
      network_status: 'declined_by_network',
      reason: error.body.decline_code ?? error.body.code ?? null,
      risk_level: 'normal',
      seller_message: 'The bank did not return any further details with this decline.',
      type: 'issuer_declined',
    };
    intent.status = 'requires_payment_method';
    intent.last_payment_error = {
      ...error.body,
      charge: charge.id,
      payment_method: structuredClone(method),
      payment_method_type: 'card',
    };
    // As with Stripe, the declined method is cleared from the intent and kept on the error.
    intent.payment_method = null;
    context.emit('charge.failed', charge);
    context.emit('payment_intent.payment_failed', intent);
    error.body.charge = charge.id;
    error.extra = { payment_intent: structuredClone(intent) };
    return error;
  }
  charge.paid = true;
  charge.captured = true;
  charge.amount_captured = intent.amount;
  intent.status = 'succeeded';
  intent.amount_received = intent.amount;
  intent.last_payment_error = null;
  context.emit('charge.succeeded', charge);
  context.emit('payment_intent.succeeded', intent);
  if (context.state.card_outcomes[method.id] === 'dispute') openDispute(context, charge);
  return null;
}

/** Test card 4000000000000259: the cardholder disputes the charge as soon as it succeeds. */
function openDispute(context: Context, charge: Charge) {
  const dispute: Dispute = {
    id: newId('dp'),
    object: 'dispute',
    amount: charge.amount,
    charge: charge.id,
    created: context.now,
    currency: charge.currency,
    evidence: { uncategorized_text: null },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: 'fraudulent',
    status: 'needs_response',
  };
  context.state.disputes[dispute.id] = dispute;
  charge.disputed = true;
  context.emit('charge.dispute.created', dispute);
}

/**
 * Closes a dispute as Stripe's test mode does: evidence `winning_evidence` wins it,
 * `losing_evidence` (or closing it, which accepts it) loses it.
 */
function closeDispute(context: Context, id: string, accept: boolean): Dispute {
  const dispute = context.get(context.state.disputes, 'dispute', id);
  if (dispute.status === 'won' || dispute.status === 'lost') {
    throw StripeError.invalid(`This dispute is already closed (${dispute.status}).`);
  }
  const evidence = accept
    ? null
    : ((context.params.values.evidence as { uncategorized_text?: string } | undefined)
        ?.uncategorized_text ?? null);
  dispute.evidence.uncategorized_text = evidence;
  if (!accept && evidence !== 'winning_evidence' && evidence !== 'losing_evidence') {
    dispute.status = 'under_review';
    context.emit('charge.dispute.updated', dispute);
    return dispute;
  }
  dispute.status = evidence === 'winning_evidence' ? 'won' : 'lost';
  context.emit('charge.dispute.closed', dispute);
  return dispute;
}

function confirmPaymentIntent(context: Context, id: string): PaymentIntent {
  const intent = context.get(context.state.payment_intents, 'payment_intent', id);
  checkClientSecret(context, intent);
  if (!['requires_payment_method', 'requires_confirmation'].includes(intent.status)) {
    throw StripeError.invalid(
      `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  }
  const method = methodFromParams(context);
  if (method) intent.payment_method = method.id;
  const error = chargeIntent(context, intent);
  if (error) {
    error.keep = true;
    throw error;
  }
  // Stripe attaches the card when asked to keep it for later.
  const future = context.params.string('setup_future_usage');
  if (future && intent.customer && intent.payment_method) {
    const paid = context.state.payment_methods[intent.payment_method];
    if (paid && paid.customer === null) attachMethod(context, paid, intent.customer);
  }
  return intent;
}

function cancelPaymentIntent(context: Context, id: string): PaymentIntent {
  const intent = context.get(context.state.payment_intents, 'payment_intent', id);
  if (intent.status === 'succeeded' || intent.status === 'canceled') {
    throw StripeError.invalid(
      `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_reboot, requires_confirmation, requires_action, processing.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  }
  intent.status = 'canceled';
  intent.canceled_at = context.now;
  intent.cancellation_reason =
    context.params.oneOf('cancellation_reason', [
      'duplicate',
      'fraudulent',
      'requested_by_customer',
      'abandoned',
    ] as const) ?? null;
  context.emit('payment_intent.canceled', intent);
  return intent;
}

function listPaymentIntents(context: Context) {
  const customer = context.params.string('customer');
  const intents = newestFirst(context.state.payment_intents).filter(
    (intent) => customer === undefined || intent.customer === customer,
  );
  return page(context, intents, '/v1/payment_intents');
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function createRefund(context: Context): Refund {
  const { params } = context;
  const intentId = params.string('payment_intent');
  let chargeId = params.string('charge');
  if (intentId) {
    const intent = context.get(
      context.state.payment_intents,
      'payment_intent',
      intentId,
      'payment_intent',
    );
    if (intent.status !== 'succeeded' || !intent.latest_charge) {
      throw StripeError.invalid(
        `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        'payment_intent',
      );
    }
    chargeId = intent.latest_charge;
  }
  if (!chargeId) {
    throw StripeError.invalid(
      'One of the following params should be provided for this request: payment_intent or charge.',
    );
  }
  const charge = context.get(context.state.charges, 'charge', chargeId, 'charge');
  if (charge.status !== 'succeeded') {
    throw StripeError.invalid(
      `Charge ${charge.id} has not succeeded, so it cannot be refunded.`,
      'charge',
    );
  }
  const remaining = charge.amount - charge.amount_refunded;
  const amount = params.int('amount') ?? remaining;
  if (remaining === 0) {
    throw StripeError.invalid(
      `Charge ${charge.id} has already been refunded.`,
      undefined,
      'charge_already_refunded',
    );
  }
  if (amount <= 0) throw StripeError.invalid('Invalid positive integer', 'amount');
  if (amount > remaining) {
    throw StripeError.invalid(
      `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(remaining)})`,
      'amount',
    );
  }
  const refund: Refund = {
    id: newId('re'),
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: context.now,
    currency: charge.currency,
    customer: charge.customer,
    customer_account: null,
    livemode: false,
    metadata: mergeMetadata({}, params.metadata()),
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    reason:
      params.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  context.state.refunds[refund.id] = refund;
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  context.emit('refund.created', refund);
  context.emit('charge.refunded', charge, { amount_refunded: charge.amount_refunded - amount });
  return refund;
}

function listRefunds(context: Context) {
  const intent = context.params.string('payment_intent');
  const charge = context.params.string('charge');
  const refunds = newestFirst(context.state.refunds).filter(
    (refund) =>
      (intent === undefined || refund.payment_intent === intent) &&
      (charge === undefined || refund.charge === charge),
  );
  return page(context, refunds, '/v1/refunds');
}

export const intentRoutes: Route<Context>[] = [
  { method: 'POST', pattern: '/v1/setup_intents', handler: createSetupIntent },
  {
    method: 'GET',
    pattern: '/v1/setup_intents/:id',
    publishable: true,
    handler: (c, p) => retrieveIntent(c, c.state.setup_intents, 'setup_intent', p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/setup_intents/:id/confirm',
    publishable: true,
    handler: (c, p) => confirmSetupIntent(c, p.id as string),
  },
  { method: 'POST', pattern: '/v1/payment_intents', handler: createPaymentIntent },
  { method: 'GET', pattern: '/v1/payment_intents', handler: listPaymentIntents },
  {
    method: 'GET',
    pattern: '/v1/payment_intents/:id',
    publishable: true,
    handler: (c, p) => retrieveIntent(c, c.state.payment_intents, 'payment_intent', p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/payment_intents/:id/confirm',
    publishable: true,
    handler: (c, p) => confirmPaymentIntent(c, p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/payment_intents/:id/cancel',
    handler: (c, p) => cancelPaymentIntent(c, p.id as string),
  },
  {
    method: 'GET',
    pattern: '/v1/charges/:id',
    handler: (c, p) => c.get(c.state.charges, 'charge', p.id as string),
  },
  {
    method: 'GET',
    pattern: '/v1/disputes/:id',
    handler: (c, p) => c.get(c.state.disputes, 'dispute', p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/disputes/:id',
    handler: (c, p) => closeDispute(c, p.id as string, false),
  },
  {
    method: 'POST',
    pattern: '/v1/disputes/:id/close',
    handler: (c, p) => closeDispute(c, p.id as string, true),
  },
  { method: 'POST', pattern: '/v1/refunds', handler: createRefund },
  { method: 'GET', pattern: '/v1/refunds', handler: listRefunds },
  {
    method: 'GET',
    pattern: '/v1/refunds/:id',
    handler: (c, p) => c.get(c.state.refunds, 'refund', p.id as string),
  },
];
