import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type {
  BillingAccountView,
  Freemium,
  InvoiceView,
  PaymentMethodView,
  SubscriptionView,
  TiersResponse,
} from '../../functions/src/billing/billing.schema.js';
import { codeOf, domain, fieldsOf, freshOwner, messageOf, type Owner } from '../support/bidders.js';
import {
  call,
  clearSandboxStarts,
  demo,
  GOOD_PASSWORD,
  latestMail,
  linkParam,
  signedIn,
  signup,
  uniqueEmail,
} from '../support/identity.js';
import { stripeControl, stripeSettings, testStripe } from '../support/stripe.js';

const stripe = testStripe();

const account = async (token: string) => {
  const reply = await domain<{ account: BillingAccountView }>('GET', '/billing/account', { token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.account;
};

/** Saves a card as the browser would: a SetupIntent confirmed at Stripe, then handed to us. */
async function addCard(token: string, card = 'pm_card_visa') {
  const intent = await domain<{ setupIntentId: string; clientSecret: string }>(
    'POST',
    '/billing/stripe/setup-intent',
    { token },
  );
  expect(intent.status).toBe(201);
  await stripe.setupIntents.confirm(intent.body.setupIntentId, { payment_method: card });
  const saved = await domain<{ paymentMethod: PaymentMethodView }>(
    'POST',
    '/billing/payment-methods',
    { token, body: { setupIntentId: intent.body.setupIntentId, setAsDefault: true } },
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return saved.body.paymentMethod;
}

const subscribe = (token: string, body: Record<string, unknown>) =>
  domain<{ subscription: SubscriptionView }>('POST', '/billing/subscription', { token, body });
const change = (token: string, body: Record<string, unknown>) =>
  domain<{ subscription: SubscriptionView }>('PUT', '/billing/subscription', { token, body });
const invoices = (token: string, query = '') =>
  domain<{ invoices: InvoiceView[]; hasMore: boolean }>('GET', `/billing/invoices${query}`, {
    token,
  });
/** The plan on the account as a member's token sees it: its tier and the features it carries. */
const plan = (token: string) =>
  call<{ subscription: { tier: string }; features: string[] }>('GET', '/accounts/current', {
    token,
  });
/** A plan change makes earlier tokens stale (they answer 401): sign in again after one. */
const renewed = async (owner: Owner) => {
  owner.token = (await signedIn(owner.email, GOOD_PASSWORD)).accessToken;
};

/** Waits for Stripe's webhooks to bring the account's billing to a state. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const value = await read();
    if (done(value)) return value;
    await sleep(100);
  }
  throw new Error('the state was not reached');
}

describe('the catalogue', () => {
  it('is the spec tier table, in cents, with both add-ons and yearly at ten months', async () => {
    const owner = await freshOwner();
    const reply = await domain<TiersResponse>('GET', '/billing/tiers', { token: owner.token });
    expect(reply.status).toBe(200);
    const rows = reply.body.tiers.map((tier) => [
      tier.id,
      tier.name,
      tier.monthlyFee,
      tier.includedBidders,
      tier.overageFee,
      tier.auctionTransactionFee,
    ]);
    expect(rows).toEqual([
      ['tier-1', 'Enterprise', 750000, 20000, 10, 0.25],
      ['tier-2', 'Professional', 435000, 10000, 15, 0.15],
      ['tier-3', 'Business', 225000, 2500, 20, 0.2],
      ['tier-4', 'Starter', 105000, 500, 25, 0.25],
      ['tier-5', 'Essential', 40000, 50, 35, 1],
    ]);
    for (const tier of reply.body.tiers) expect(tier.yearlyFee).toBe(tier.monthlyFee * 10);
    const [inventory, payments] = reply.body.addOns;
    expect(inventory).toMatchObject({ id: 'inventory', monthlyFee: 50000 });
    expect(inventory!.targetTiers).toHaveLength(5);
    expect(payments).toMatchObject({
      id: 'payments',
      monthlyFee: 0,
      setupFee: 75000,
      setupFeeWaivedTiers: ['tier-1', 'tier-2', 'tier-3'],
      transactionFees: {
        card: { percentage: 3.1, fixedFee: 30 },
        ach: { percentage: 1.5, fixedFee: 0 },
      },
    });
  });
});

describe('the demo tenant', () => {
  it('is subscribed to Business with both add-ons at the local Stripe', async () => {
    const token = (await signedIn(demo.owner)).accessToken;
    const view = await account(token);
    expect(view.subscription).toMatchObject({ tierId: 'tier-3', status: 'active' });
    expect(view.subscription!.addOns.map((addOn) => addOn.addOnId).sort()).toEqual([
      'inventory',
      'payments',
    ]);
    expect(view.paymentMethods[0]).toMatchObject({ last4: '4242', isDefault: true });
  });
});

describe('a demo sandbox', () => {
  it('shows the plan Lotwise gave it, billed to nobody, and is not on the free plan', async () => {
    await clearSandboxStarts();
    const demoSession = await call<{ accessToken: string }>('POST', '/login/demo');
    expect(demoSession.status, JSON.stringify(demoSession.body)).toBe(200);
    const token = demoSession.body.accessToken;
    const view = await account(token);
    expect(view.subscription).toBeNull();
    expect(view.complimentary).toEqual({
      tierId: 'tier-3',
      tierName: 'Business',
      addOnIds: ['inventory', 'payments'],
    });
    const freemium = await domain<{ freemium: Freemium }>('GET', '/billing/freemium-status', {
      token,
    });
    expect(freemium.body.freemium.isFreemium).toBe(false);
  });
});

describe('a new account', () => {
  it('starts on the free plan with 50 free scored bidders and no subscription', async () => {
    const owner = await freshOwner();
    const freemium = await domain<{ freemium: Freemium }>('GET', '/billing/freemium-status', {
      token: owner.token,
    });
    expect(freemium.body.freemium).toMatchObject({
      isFreemium: true,
      freeBiddersUsed: 0,
      freeBiddersLimit: 50,
      canUpgrade: true,
    });
    const view = await account(owner.token);
    expect(view.subscription).toBeNull();
    expect(view.complimentary).toBeNull();
    expect(view.paymentMethods).toEqual([]);
    expect(view.id).toMatch(/^cus_/);
    expect((await plan(owner.token)).body).toMatchObject({
      subscription: { tier: 'free' },
      features: [],
    });
  });

  it('counts its real bidders against the free allowance', async () => {
    const owner = await freshOwner();
    for (const n of [1, 2, 3]) {
      const created = await domain('POST', '/bidders', {
        token: owner.token,
        body: { firstName: 'Free', lastName: `Bidder${n}`, email: uniqueEmail(`free-${n}`) },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const freemium = await domain<{ freemium: Freemium }>('GET', '/billing/freemium-status', {
      token: owner.token,
    });
    expect(freemium.body.freemium.freeBiddersUsed).toBe(3);
  });
});

describe('subscribing and changing plan', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await freshOwner();
  });

  it('refuses to subscribe without a card, naming the field', async () => {
    const reply = await subscribe(owner.token, { tierId: 'tier-5' });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toContain('paymentMethodId');
  });

  it('saves a card confirmed at Stripe as the default', async () => {
    const card = await addCard(owner.token);
    expect(card).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    const view = await account(owner.token);
    expect(view.paymentMethods.map((method) => method.last4)).toEqual(['4242']);
  });

  it('subscribes to Essential monthly, charges it and invoices it', async () => {
    const reply = await subscribe(owner.token, { tierId: 'tier-5', interval: 'month' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.subscription).toMatchObject({
      tierId: 'tier-5',
      tierName: 'Essential',
      interval: 'month',
      status: 'active',
      amount: 40000,
      cancelAtPeriodEnd: false,
    });
    await renewed(owner);
    const again = await subscribe(owner.token, { tierId: 'tier-4' });
    expect(again.status).toBe(409);
    const list = await invoices(owner.token);
    expect(list.body.invoices).toHaveLength(1);
    expect(list.body.invoices[0]).toMatchObject({ status: 'paid', amount: 40000, currency: 'usd' });
    expect(list.body.invoices[0]!.invoiceUrl).toMatch(/^http/);
  });

  it('moves to Business yearly with Inventory, prorated, and the features follow at once', async () => {
    const before = owner.token;
    expect((await plan(before)).body.features).not.toContain('inventory');
    const reply = await change(before, {
      tierId: 'tier-3',
      interval: 'year',
      addOnIds: ['inventory'],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.subscription).toMatchObject({
      tierId: 'tier-3',
      interval: 'year',
      amount: 2250000 + 500000,
    });
    expect(reply.body.subscription.addOns.map((addOn) => addOn.addOnId)).toEqual(['inventory']);
    // A token issued before the change no longer passes; a fresh one carries Inventory.
    expect((await plan(before)).status).toBe(401);
    await renewed(owner);
    expect((await plan(owner.token)).body).toMatchObject({
      subscription: { tier: 'tier-3' },
      features: ['inventory'],
    });
    const list = await invoices(owner.token);
    expect(list.body.invoices).toHaveLength(2);
    // The new year less the unused part of the month already paid.
    const latest = list.body.invoices[0]!;
    expect(latest.status).toBe('paid');
    expect(latest.amount).toBeGreaterThanOrEqual(2750000 - 40000);
    expect(latest.amount).toBeLessThanOrEqual(2750000);
  });

  it('pages invoices with limit and starting_after, and filters by status', async () => {
    const first = await invoices(owner.token, '?limit=1');
    expect(first.body.invoices).toHaveLength(1);
    expect(first.body.hasMore).toBe(true);
    const next = await invoices(
      owner.token,
      `?limit=1&starting_after=${first.body.invoices[0]!.id}`,
    );
    expect(next.body.invoices).toHaveLength(1);
    expect(next.body.invoices[0]!.id).not.toBe(first.body.invoices[0]!.id);
    expect(next.body.hasMore).toBe(false);
    expect((await invoices(owner.token, '?status=open')).body.invoices).toEqual([]);
    expect((await invoices(owner.token, '?status=paid')).body.invoices).toHaveLength(2);
    const bad = await invoices(owner.token, '?limit=500&status=late');
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(expect.arrayContaining(['limit', 'status']));
  });

  it('keeps an add-on taken off until the period ends', async () => {
    const reply = await change(owner.token, { addOnIds: [] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    // Nothing is credited for it: it was paid for, and stays on until then.
    expect((await invoices(owner.token)).body.invoices).toHaveLength(2);
    const ending = reply.body.subscription.addOns.find((addOn) => addOn.addOnId === 'inventory');
    expect(ending).toMatchObject({ status: 'ending' });
    expect(ending!.endsAt).toBe(reply.body.subscription.currentPeriodEnd);
    // Still paid for: the plan did not change, so the token stays good and carries Inventory.
    expect((await plan(owner.token)).body.features).toContain('inventory');
  });

  it('cancels at the period end, and the account returns to the free plan when it comes', async () => {
    const reply = await change(owner.token, { cancelAtPeriodEnd: true });
    expect(reply.status).toBe(200);
    expect(reply.body.subscription.cancelAtPeriodEnd).toBe(true);
    expect((await account(owner.token)).subscription?.status).toBe('active');
    await stripeControl(`/subscriptions/${reply.body.subscription.id}/renew`);
    const after = await eventually(
      async () => {
        await renewed(owner);
        return account(owner.token);
      },
      (view) => view.subscription === null,
    );
    expect(after.subscription).toBeNull();
    expect((await plan(owner.token)).body).toMatchObject({
      subscription: { tier: 'free' },
      features: [],
    });
  });
});

describe('declined cards', () => {
  it("give Stripe's message and subscribe nothing", async () => {
    const owner = await freshOwner();
    await addCard(owner.token, 'pm_card_chargeCustomerFail');
    const reply = await subscribe(owner.token, { tierId: 'tier-5' });
    expect(reply.status).toBe(402);
    expect(messageOf(reply)).toBe('Your card was declined.');
    expect((await account(owner.token)).subscription).toBeNull();
    expect((await invoices(owner.token)).body.invoices.filter((i) => i.status === 'paid')).toEqual(
      [],
    );
  });
});

describe('a renewal the card declines', () => {
  it('leaves the account past due with an open invoice, which Pay now settles', async () => {
    const owner = await freshOwner();
    await addCard(owner.token);
    const created = await subscribe(owner.token, { tierId: 'tier-5' });
    expect(created.status).toBe(201);
    await renewed(owner);
    const failing = await addCard(owner.token, 'pm_card_chargeCustomerFail');
    expect(failing.isDefault).toBe(true);
    await stripeControl(`/subscriptions/${created.body.subscription.id}/renew`);
    const behind = await eventually(
      () => account(owner.token),
      (view) => view.subscription?.status === 'past_due',
    );
    // Still the plan's features while Stripe retries: past due is not canceled.
    expect(behind.subscription?.tierId).toBe('tier-5');
    const open = (await invoices(owner.token, '?status=open')).body.invoices;
    expect(open).toHaveLength(1);
    const declined = await domain('POST', '/billing/stripe/process-payment', {
      token: owner.token,
      body: { invoiceId: open[0]!.id },
    });
    expect(declined.status).toBe(402);
    expect(messageOf(declined)).toBe('Your card was declined.');
    const good = await addCard(owner.token);
    const paid = await domain<{ status: string }>('POST', '/billing/stripe/process-payment', {
      token: owner.token,
      body: { invoiceId: open[0]!.id, paymentMethodId: good.id },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe('paid');
    expect((await account(owner.token)).subscription?.status).toBe('active');
    const again = await domain('POST', '/billing/stripe/process-payment', {
      token: owner.token,
      body: { invoiceId: open[0]!.id },
    });
    expect(again.status).toBe(200);
  });
});

describe('an open invoice paid by card in the browser', () => {
  it('is settled when Stripe reports the payment', async () => {
    const owner = await freshOwner();
    await addCard(owner.token);
    const created = await subscribe(owner.token, { tierId: 'tier-5' });
    await renewed(owner);
    await addCard(owner.token, 'pm_card_chargeCustomerFail');
    await stripeControl(`/subscriptions/${created.body.subscription.id}/renew`);
    const open = await eventually(
      async () => (await invoices(owner.token, '?status=open')).body.invoices,
      (list) => list.length === 1,
    );
    const intent = await domain<{ clientSecret: string; paymentIntentId: string }>(
      'POST',
      '/billing/payment-intent',
      { token: owner.token, body: { invoiceId: open[0]!.id } },
    );
    expect(intent.status, JSON.stringify(intent.body)).toBe(201);
    expect(intent.body.clientSecret).toContain('_secret_');
    // What Stripe.js does with the card the person typed.
    await stripe.paymentIntents.confirm(intent.body.paymentIntentId, {
      payment_method: 'pm_card_visa',
    });
    const paid = await eventually(
      async () => (await invoices(owner.token, `?status=paid`)).body.invoices,
      (list) => list.some((invoice) => invoice.id === open[0]!.id),
    );
    expect(paid.find((invoice) => invoice.id === open[0]!.id)?.amount).toBe(40000);
    expect(
      (
        await domain('POST', '/billing/payment-intent', {
          token: owner.token,
          body: { invoiceId: open[0]!.id },
        })
      ).status,
    ).toBe(409);
  });
});

describe('who may see and change billing', () => {
  it('is the owner alone: admin, staff and viewer are refused, the catalogue is open', async () => {
    // The admin's refusal is the invited admin's below (the demo admin has two accounts).
    for (const email of [demo.staff, demo.viewer]) {
      const token = (await signedIn(email)).accessToken;
      const reply = await domain('GET', '/billing/account', { token });
      expect(reply.status, email).toBe(403);
      expect(codeOf(reply)).toBe('forbidden');
      expect((await subscribe(token, { tierId: 'tier-5' })).status).toBe(403);
      expect((await domain('GET', '/billing/tiers', { token })).status).toBe(200);
    }
  });

  it("answers another account's invoices and cards with 404", async () => {
    const [first, second] = await Promise.all([freshOwner(), freshOwner()]);
    const card = await addCard(first.token);
    await subscribe(first.token, { tierId: 'tier-5' });
    await renewed(first);
    const theirs = (await invoices(first.token)).body.invoices[0]!;
    expect((await invoices(second.token, `?starting_after=${theirs.id}`)).status).toBe(404);
    expect(
      (await domain('POST', `/billing/payment-methods/${card.id}/default`, { token: second.token }))
        .status,
    ).toBe(404);
    expect(
      (await domain('DELETE', `/billing/payment-methods/${card.id}`, { token: second.token }))
        .status,
    ).toBe(404);
    const pay = await domain('POST', '/billing/stripe/process-payment', {
      token: second.token,
      body: { invoiceId: theirs.id },
    });
    expect(pay.status).toBe(404);
  });

  it('names the field of a bad request', async () => {
    const owner = await freshOwner();
    const reply = await subscribe(owner.token, { tierId: 'tier-9', addOnIds: ['jets'] });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(expect.arrayContaining(['tierId', 'addOnIds.0']));
    const empty = await change(owner.token, {});
    expect(empty.status).toBe(400);
    const address = await domain('PUT', '/billing/billing-address', {
      token: owner.token,
      body: {
        billingAddress: { line1: '', city: 'Portland', postalCode: '04101', country: 'USA' },
      },
    });
    expect(address.status).toBe(400);
    expect(fieldsOf(address)).toEqual(
      expect.arrayContaining(['billingAddress.line1', 'billingAddress.country']),
    );
  });

  it('saves the billing address and tax id', async () => {
    const owner = await freshOwner();
    const reply = await domain<{ account: BillingAccountView }>('PUT', '/billing/billing-address', {
      token: owner.token,
      body: {
        billingAddress: {
          line1: '48 Fore Street',
          city: 'Portland',
          state: 'ME',
          postalCode: '04101',
          country: 'us',
        },
        taxId: '12-3456789',
      },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.account.billingAddress).toMatchObject({ country: 'US', city: 'Portland' });
    const customer = await stripe.customers.retrieve(reply.body.account.id);
    expect(customer.deleted ? null : customer.address?.line1).toBe('48 Fore Street');
    expect((await account(owner.token)).taxId).toBe('12-3456789');
  });
});

describe('Stripe webhooks', () => {
  /** As Stripe posts it: the exact bytes it signed. */
  async function post(payload: string, signature?: string) {
    const response = await fetch(`${inject('domainUrl')}/billing/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        received: boolean;
        applied: boolean;
        error?: { message: string };
      },
    };
  }
  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000)) =>
    stripe.webhooks.generateTestHeaderString({
      payload,
      secret: stripeSettings().webhookSecret,
      timestamp,
    });

  async function subscriptionEvent() {
    const owner = await freshOwner();
    await addCard(owner.token);
    const created = await subscribe(owner.token, { tierId: 'tier-5' });
    expect(created.status).toBe(201);
    const events = await stripe.events.list({ type: 'customer.subscription.created', limit: 100 });
    const event = events.data.find(
      (candidate) => (candidate.data.object as { id: string }).id === created.body.subscription.id,
    );
    expect(event).toBeDefined();
    // A new id, as if Stripe had sent it once more under its own id: it has not been applied.
    return JSON.stringify({ ...event, id: `evt_${randomUUID().replace(/-/g, '')}` });
  }

  it('refuses a bad or missing signature and changes nothing', async () => {
    const payload = await subscriptionEvent();
    const forged = await post(
      payload,
      sign(payload).replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`),
    );
    expect(forged.status).toBe(400);
    expect(forged.body.error?.message).toMatch(/signature/);
    expect((await post(payload)).status).toBe(400);
  });

  it('refuses an event signed more than 300 seconds ago', async () => {
    const payload = await subscriptionEvent();
    const old = await post(payload, sign(payload, Math.floor(Date.now() / 1000) - 301));
    expect(old.status).toBe(400);
  });

  it('applies an event once when its deliveries arrive at the same moment', async () => {
    const payload = await subscriptionEvent();
    const replies = await Promise.all([1, 2, 3, 4].map(() => post(payload, sign(payload))));
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(replies.filter((reply) => reply.body.applied)).toHaveLength(1);
  });

  it('applies an event once however often it comes', async () => {
    const payload = await subscriptionEvent();
    const first = await post(payload, sign(payload));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.applied).toBe(true);
    const replays = await Promise.all([1, 2, 3].map(() => post(payload, sign(payload))));
    for (const replay of replays) {
      expect(replay.status).toBe(200);
      expect(replay.body.applied).toBe(false);
    }
  });
});

describe('an invited member', () => {
  it('cannot reach billing without the settings permission', async () => {
    const owner = await freshOwner();
    const email = uniqueEmail('billing-admin');
    const invited = await call('POST', '/auction-house/invite', {
      token: owner.token,
      body: { email, role: 'admin' },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const code = linkParam(await latestMail(email, 'invitation'), 'invitation');
    const joined = (await signup({ email, invitationCode: code })).body as { accessToken: string };
    expect((await domain('GET', '/billing/account', { token: joined.accessToken })).status).toBe(
      403,
    );
  });
});
