import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStripe, type LocalStripe } from './server.js';

const SECRET = 'sk_test_lotwise_local';
const PUBLISHABLE = 'pk_test_lotwise_local';
const WEBHOOK_SECRET = 'whsec_lotwise_local';

/** A webhook receiver that fails the first `failures` posts, then records what it gets. */
async function receiver(failures: number) {
  const received: { body: string; signature: string }[] = [];
  let failed = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failed < failures) {
        failed += 1;
        response.writeHead(500).end();
        return;
      }
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers['stripe-signature']),
      });
      response.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/billing/webhook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let dataDir: string;
let local: LocalStripe;
let stripe: Stripe;
let hook: Awaited<ReturnType<typeof receiver>>;

const client = (url: string) => {
  const { port } = new URL(url);
  return new Stripe(SECRET, {
    host: 'localhost',
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-stripe-'));
  hook = await receiver(2);
  local = await startLocalStripe({
    port: 0,
    dataDir,
    webhook: { url: hook.url, secret: WEBHOOK_SECRET },
    retryDelaysMs: [10, 10, 10, 10],
  });
  stripe = client(local.url);
});

afterAll(async () => {
  await local.close();
  await hook.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function catalogue() {
  const product = await stripe.products.create({ name: 'Pro' });
  const monthly = await stripe.prices.create({
    product: product.id,
    unit_amount: 3000,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  const bigger = await stripe.prices.create({
    product: product.id,
    unit_amount: 6000,
    currency: 'usd',
    recurring: { interval: 'month' },
  });
  const yearly = await stripe.prices.create({
    product: product.id,
    unit_amount: 30000,
    currency: 'usd',
    recurring: { interval: 'year' },
  });
  return { product, monthly, bigger, yearly };
}

async function customerWithCard(paymentMethod = 'pm_card_visa') {
  const customer = await stripe.customers.create({ email: 'a@example.com', name: 'Ada' });
  const method = await stripe.paymentMethods.attach(paymentMethod, { customer: customer.id });
  await stripe.customers.update(customer.id, {
    invoice_settings: { default_payment_method: method.id },
  });
  return { customer, method };
}

/** The client-side confirm Stripe.js makes: publishable key, client secret, card data. */
async function confirmClientSide(
  kind: 'setup_intents' | 'payment_intents',
  secret: string,
  number: string,
) {
  const id = secret.split('_secret_')[0] as string;
  const body = new URLSearchParams({
    key: PUBLISHABLE,
    client_secret: secret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': number,
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': String(new Date().getUTCFullYear() + 2),
    'payment_method_data[card][cvc]': '123',
    'payment_method_data[billing_details][name]': 'Ada',
  });
  const response = await fetch(`${local.url}/v1/${kind}/${id}/confirm`, { method: 'POST', body });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & {
      error?: { code: string; message: string };
    },
  };
}

describe('local Stripe', () => {
  it('refuses a wrong key like Stripe', async () => {
    const wrong = new Stripe('sk_test_wrong', {
      host: 'localhost',
      port: Number(new URL(local.url).port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await expect(wrong.customers.list()).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });
    await expect(stripe.customers.retrieve('cus_nope')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such customer: 'cus_nope'",
    });
  });

  it('saves a card with a client-side SetupIntent confirm and makes it the default', async () => {
    const customer = await stripe.customers.create({
      email: 'b@example.com',
      metadata: { account: 'acc_1' },
    });
    const intent = await stripe.setupIntents.create({
      customer: customer.id,
      usage: 'off_session',
    });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    const confirmed = await confirmClientSide(
      'setup_intents',
      intent.client_secret as string,
      '4242424242424242',
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('succeeded');
    const method = await stripe.paymentMethods.retrieve(confirmed.body.payment_method as string);
    expect(method).toMatchObject({ customer: customer.id, card: { brand: 'visa', last4: '4242' } });
    const updated = await stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: method.id },
    });
    expect(updated.invoice_settings.default_payment_method).toBe(method.id);
    const declined = await stripe.setupIntents.create({ customer: customer.id });
    const failure = await confirmClientSide(
      'setup_intents',
      declined.client_secret as string,
      '4000000000000002',
    );
    expect(failure).toMatchObject({
      status: 402,
      body: { error: { code: 'card_declined', message: 'Your card was declined.' } },
    });
    const wrongSecret = await confirmClientSide(
      'setup_intents',
      `${declined.id}_secret_nope`,
      '4242424242424242',
    );
    expect(wrongSecret.status).toBe(400);
  });

  it('creates a subscription, and each decline card fails with its message', async () => {
    const { monthly } = await catalogue();
    const { customer, method } = await customerWithCard();
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id, quantity: 2 }],
      payment_behavior: 'error_if_incomplete',
      expand: ['latest_invoice'],
    });
    expect(subscription.status).toBe('active');
    expect(subscription.default_payment_method).toBeNull();
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    expect(item.current_period_end - item.current_period_start).toBeGreaterThan(27 * 86400);
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 6000,
      total: 6000,
      default_payment_method: method.id,
    });
    expect(invoice.number).toMatch(/^[A-Z0-9]{8}-0001$/);
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(invoice.lines.data[0]?.pricing?.price_details?.price).toBe(monthly.id);
    expect(invoice.lines.data[0]?.description).toBe('2 × Pro (at $30.00 / month)');
    const page = await fetch(invoice.hosted_invoice_url as string);
    expect(await page.text()).toContain(invoice.number as string);

    const cases: [string, string, string][] = [
      ['pm_card_chargeCustomerFail', 'card_declined', 'Your card was declined.'],
      [
        'pm_card_chargeDeclinedInsufficientFunds',
        'card_declined',
        'Your card has insufficient funds.',
      ],
    ];
    for (const [card, code, message] of cases) {
      const target = await stripe.customers.create({ email: 'c@example.com' });
      const attached =
        card === 'pm_card_chargeCustomerFail'
          ? await stripe.paymentMethods.attach(card, { customer: target.id })
          : null;
      if (!attached) {
        await expect(
          stripe.paymentMethods.attach(card, { customer: target.id }),
        ).rejects.toMatchObject({ code, message });
        continue;
      }
      await expect(
        stripe.subscriptions.create({
          customer: target.id,
          items: [{ price: monthly.id }],
          default_payment_method: attached.id,
          payment_behavior: 'error_if_incomplete',
        }),
      ).rejects.toMatchObject({
        type: 'StripeCardError',
        statusCode: 402,
        code,
        message,
        decline_code: 'generic_decline',
      });
      expect(
        (await stripe.subscriptions.list({ customer: target.id, status: 'all' })).data,
      ).toHaveLength(0);
      expect((await stripe.invoices.list({ customer: target.id })).data).toHaveLength(0);
    }
    for (const [number, code, message] of [
      ['4000000000000002', 'card_declined', 'Your card was declined.'],
      ['4000000000009995', 'card_declined', 'Your card has insufficient funds.'],
      ['4000000000000069', 'expired_card', 'Your card has expired.'],
      ['4000000000000127', 'incorrect_cvc', "Your card's security code is incorrect."],
      ['4242424242424241', 'incorrect_number', 'Your card number is incorrect.'],
    ] as const) {
      const target = await stripe.customers.create({});
      const intent = await stripe.setupIntents.create({ customer: target.id });
      const result = await confirmClientSide(
        'setup_intents',
        intent.client_secret as string,
        number,
      );
      expect(result.body.error).toMatchObject({ code, message });
    }
    const allowIncomplete = await stripe.subscriptions.create({
      customer: (await customerWithCard('pm_card_chargeCustomerFail')).customer.id,
      items: [{ price: monthly.id }],
      payment_behavior: 'allow_incomplete',
    });
    expect(allowIncomplete.status).toBe('incomplete');
  });

  it('prorates an upgrade with always_invoice and moves monthly to yearly', async () => {
    const { monthly, bigger, yearly } = await catalogue();
    const { customer } = await customerWithCard();
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    const upgraded = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: bigger.id }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    const invoice = upgraded.latest_invoice as Stripe.Invoice;
    const [credit, charge] = invoice.lines.data;
    const now = Math.floor(Date.now() / 1000);
    const fraction =
      (item.current_period_end - now) / (item.current_period_end - item.current_period_start);
    expect(Math.abs((credit?.amount ?? 0) + Math.round(3000 * fraction))).toBeLessThanOrEqual(1);
    expect(Math.abs((charge?.amount ?? 0) - Math.round(6000 * fraction))).toBeLessThanOrEqual(1);
    expect(credit?.parent?.subscription_item_details?.proration).toBe(true);
    expect(invoice).toMatchObject({ status: 'paid', billing_reason: 'subscription_update' });
    expect(invoice.number).toMatch(/-0002$/);
    expect(upgraded.items.data[0]).toMatchObject({ id: item.id, price: { id: bigger.id } });

    const events = await stripe.events.list({ type: 'customer.subscription.updated', limit: 1 });
    expect(events.data[0]?.data.previous_attributes).toHaveProperty('items');

    const yearlyUpdate = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: yearly.id }],
      expand: ['latest_invoice'],
    });
    const yearItem = yearlyUpdate.items.data[0] as Stripe.SubscriptionItem;
    expect(yearItem.current_period_start).toBeGreaterThanOrEqual(now);
    expect(yearItem.current_period_end - yearItem.current_period_start).toBeGreaterThanOrEqual(
      365 * 86400,
    );
    const yearInvoice = yearlyUpdate.latest_invoice as Stripe.Invoice;
    expect(yearInvoice.lines.data.map((line) => line.amount)).toEqual([expect.any(Number), 30000]);
    expect(yearInvoice.lines.data[0]?.amount).toBeLessThan(0);

    await expect(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: monthly.id }, { price: yearly.id }],
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'items' });
  });

  it('cancels at period end, then renewal ends it; renewal bills metered usage', async () => {
    const { monthly } = await catalogue();
    const { customer } = await customerWithCard();
    const meter = await stripe.billing.meters.create({
      display_name: 'Bids',
      event_name: `bids_${Date.now()}`,
      default_aggregation: { formula: 'sum' },
    });
    const metered = await stripe.prices.create({
      product: (await stripe.products.create({ name: 'Bids' })).id,
      unit_amount: 5,
      currency: 'usd',
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
    });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }, { price: metered.id }],
    });
    for (const value of ['3', '4']) {
      await stripe.billing.meterEvents.create({
        event_name: meter.event_name,
        payload: { stripe_customer_id: customer.id, value },
        identifier: `id-${value}`,
      });
    }
    await stripe.billing.meterEvents.create({
      event_name: meter.event_name,
      payload: { stripe_customer_id: customer.id, value: '3' },
      identifier: 'id-3',
    });
    const renewed = await fetch(`${local.url}/__stripe/subscriptions/${subscription.id}/renew`, {
      method: 'POST',
    });
    expect(renewed.status).toBe(200);
    const [renewal] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 }))
      .data;
    expect(renewal?.billing_reason).toBe('subscription_cycle');
    expect(renewal?.lines.data.map((line) => line.amount)).toEqual([3000, 35]);

    const scheduled = await stripe.subscriptions.update(subscription.id, {
      cancel_at_period_end: true,
    });
    expect(scheduled.cancel_at).toBe(scheduled.items.data[0]?.current_period_end);
    await fetch(`${local.url}/__stripe/subscriptions/${subscription.id}/renew`, { method: 'POST' });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    const deleted = await stripe.events.list({ type: 'customer.subscription.deleted', limit: 1 });
    expect((deleted.data[0]?.data.object as Stripe.Subscription).id).toBe(subscription.id);
  });

  it('pages invoices with limit, starting_after and status', async () => {
    const { monthly } = await catalogue();
    const { customer } = await customerWithCard();
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    for (let index = 0; index < 3; index += 1) {
      await fetch(`${local.url}/__stripe/subscriptions/${subscription.id}/renew`, {
        method: 'POST',
      });
    }
    const first = await stripe.invoices.list({ customer: customer.id, limit: 3 });
    expect(first.data.map((invoice) => invoice.number?.slice(-4))).toEqual([
      '0004',
      '0003',
      '0002',
    ]);
    expect(first.has_more).toBe(true);
    const second = await stripe.invoices.list({
      customer: customer.id,
      limit: 3,
      starting_after: first.data[2]?.id,
    });
    expect(second.data.map((invoice) => invoice.number?.slice(-4))).toEqual(['0001']);
    expect(second.has_more).toBe(false);
    expect(
      (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data,
    ).toHaveLength(0);
    expect(
      (await stripe.invoices.list({ customer: customer.id, status: 'paid' })).data,
    ).toHaveLength(4);
  });

  it('refunds part of a PaymentIntent and refuses more than is left', async () => {
    const { customer, method } = await customerWithCard();
    const intent = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      customer: customer.id,
      payment_method: method.id,
      confirm: true,
      off_session: true,
      expand: ['latest_charge'],
    });
    expect(intent.status).toBe('succeeded');
    expect((intent.latest_charge as Stripe.Charge).payment_method_details?.card?.last4).toBe(
      '4242',
    );
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 2000 });
    expect(refund).toMatchObject({ amount: 2000, status: 'succeeded' });
    await expect(
      stripe.refunds.create({ payment_intent: intent.id, amount: 4000 }),
    ).rejects.toMatchObject({
      statusCode: 400,
      param: 'amount',
      message: 'Refund amount ($40.00) is greater than unrefunded amount on charge ($30.00)',
    });
    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(3000);
    expect(await stripe.charges.retrieve(refund.charge as string)).toMatchObject({
      amount_refunded: 5000,
      refunded: true,
    });

    const declined = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
    });
    const result = await confirmClientSide(
      'payment_intents',
      declined.client_secret as string,
      '4000000000009995',
    );
    expect(result.body.error).toMatchObject({
      code: 'card_declined',
      decline_code: 'insufficient_funds',
    });
    expect(await stripe.paymentIntents.retrieve(declined.id)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined' },
    });
  });

  it('replays an idempotent request', async () => {
    const first = await stripe.customers.create(
      { email: 'same@example.com' },
      { idempotencyKey: 'key-1' },
    );
    const second = await stripe.customers.create(
      { email: 'same@example.com' },
      { idempotencyKey: 'key-1' },
    );
    expect(second.id).toBe(first.id);
    await expect(
      stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'key-1' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('delivers signed webhooks in order, retrying a failing receiver', async () => {
    const customer = await stripe.customers.create({ email: 'hook@example.com' });
    await stripe.customers.update(customer.id, { name: 'Hooked' });
    await local.webhooks.waitFor((deliveries) =>
      deliveries.every((delivery) => delivery.status !== 'pending'),
    );
    const events = hook.received.map(({ body, signature }) =>
      stripe.webhooks.constructEvent(body, signature, WEBHOOK_SECRET, 300),
    );
    const mine = events.filter(
      (event) => (event.data.object as { id?: string }).id === customer.id,
    );
    expect(mine.map((event) => event.type)).toEqual(['customer.created', 'customer.updated']);
    const all = events.map((event) => event.created);
    expect([...all].sort((a, b) => a - b)).toEqual(all);
    const retried = local.webhooks.deliveries[0];
    expect(retried).toMatchObject({ status: 'delivered', attempts: 3 });
    const listed = (await (await fetch(`${local.url}/__stripe/deliveries`)).json()) as {
      data: unknown[];
    };
    expect(listed.data.length).toBe(local.webhooks.deliveries.length);
  });

  it('keeps its state across a restart', async () => {
    const customer = await stripe.customers.create({ email: 'kept@example.com' });
    await local.close();
    local = await startLocalStripe({ port: 0, dataDir, retryDelaysMs: [10] });
    stripe = client(local.url);
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      email: 'kept@example.com',
    });
  });

  it('serves the Stripe.js stand-in', async () => {
    const script = await fetch(`${local.url}/v3/`);
    expect(script.headers.get('content-type')).toContain('application/javascript');
    expect(await script.text()).toContain('confirmCardSetup');
    const frame = await (await fetch(`${local.url}/elements/card`)).text();
    expect(frame).toContain('Expiration date MM / YY');
  });
});
