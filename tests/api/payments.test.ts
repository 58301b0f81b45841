import { beforeAll, describe, expect, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type {
  CardPayment,
  Invoice,
  InvoiceTerms,
  Transaction,
} from '../../functions/src/payments/payments.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  signedInToken,
  strongStats,
  type Bidder,
  type Owner,
} from '../support/bidders.js';
import { demo, ifMatch, outbox } from '../support/identity.js';
import { testStripe } from '../support/stripe.js';

let house: Owner;
let other: Owner;

beforeAll(async () => {
  [house, other] = await Promise.all([ownerWithAddOns(), ownerWithAddOns()]);
});

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

const buyer = (name: string) =>
  createBidder(house.token, {
    firstName: name,
    lastName: 'Buyer',
    email: `${name.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`,
    stats: strongStats(),
  });

/** A Hybrid auction whose lots sold as given (hammer in cents; paddle = won in the room), closed. */
async function soldTo(
  sales: [Bidder, number, boolean?][],
  overrides: Record<string, unknown> = {},
) {
  const auction = await createAuction(house.token, {
    title: `Sale ${Date.now()}`,
    type: 'Hybrid',
    buyersPremium: 20,
    ...overrides,
  });
  const lots: Lot[] = [];
  for (const [index] of sales.entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token: house.token,
          body: { lotNumber: String(index + 1), title: `Lot ${index + 1}` },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token: house.token }));
  for (const bidder of new Set(sales.map(([bidder]) => bidder))) {
    const registration = await ok(
      domain<Registration>('POST', `/auctions/${auction.id}/register`, {
        token: house.token,
        body: { bidderId: bidder.id },
      }),
      201,
    );
    expect(registration.status).toBe('approved');
  }
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token: house.token }));
  return { auction, lots, sales };
}

async function close(auctionId: string, sales: [Bidder, number, boolean?][], lots: Lot[]) {
  for (const [index, [bidder, hammer, inRoom]] of sales.entries()) {
    await ok(
      domain('PUT', `/auctions/${auctionId}/lots/${lots[index]?.id}/result`, {
        token: house.token,
        body: { outcome: 'sold', hammer, bidderId: bidder.id, ...(inRoom ? { paddle: '12' } : {}) },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auctionId}/close`, { token: house.token }));
}

const generate = (auctionId: string, token = house.token) =>
  domain<{ created: number; total: number }>('POST', `/payments/auctions/${auctionId}/invoices`, {
    token,
  });

async function invoicesOf(auctionId: string) {
  const page = await ok(
    domain<{ items: Invoice[] }>('GET', `/payments/invoices?auctionId=${auctionId}`, {
      token: house.token,
    }),
  );
  return page.items;
}

/** A closed sale with one buyer, its invoice approved: ready to take money. */
async function approvedInvoice(hammers: number[] = [100_000]) {
  const alice = await buyer('Ann');
  const sale = await soldTo(hammers.map((hammer) => [alice, hammer, true]));
  await close(sale.auction.id, sale.sales, sale.lots);
  await ok(generate(sale.auction.id));
  const [invoice] = await invoicesOf(sale.auction.id);
  await ok(domain('POST', `/payments/invoices/${invoice?.id}/approve`, { token: house.token }));
  return { alice, sale, invoice: invoice as Invoice };
}

const getInvoice = (id: string) =>
  ok(domain<Invoice>('GET', `/payments/invoices/${id}`, { token: house.token }));
const getTransaction = (id: string) =>
  ok(domain<Transaction>('GET', `/payments/transactions/${id}`, { token: house.token }));

describe('invoices after the close', () => {
  it('makes one invoice per buyer with a sliding premium, default charges and separate taxes', async () => {
    const [alice, bob] = await Promise.all([buyer('Alice'), buyer('Bob')]);
    const sale = await soldTo([
      [alice, 150_000_000, true],
      [alice, 50_000],
      [bob, 80_000, true],
    ]);
    const terms = await ok(
      domain<InvoiceTerms>('GET', `/payments/auctions/${sale.auction.id}/terms`, {
        token: house.token,
      }),
    );
    expect(terms).toMatchObject({
      premium: [{ upTo: null, rateBps: 2000 }],
      paymentDueDays: 7,
      saved: false,
    });
    const stale = await domain('PUT', `/payments/auctions/${sale.auction.id}/terms`, {
      token: house.token,
      body: { ...terms, premium: terms.premium },
      headers: ifMatch('nope'),
    });
    expect(stale.status).toBe(412);
    await ok(
      domain('PUT', `/payments/auctions/${sale.auction.id}/terms`, {
        token: house.token,
        headers: ifMatch(terms.etag),
        body: {
          // Christie's: 26% to $1M, 21% to $6M, 15% above.
          premium: [
            { upTo: 100_000_000, rateBps: 2600 },
            { upTo: 600_000_000, rateBps: 2100 },
            { upTo: null, rateBps: 1500 },
          ],
          internetPremium: [{ upTo: null, rateBps: 3000 }],
          tax: { hammerBps: 0, premiumBps: 825, chargesBps: 1000 },
          defaultCharges: [{ label: 'Handling', amount: 2_500 }],
          paymentDueDays: 10,
        },
      }),
    );
    await close(sale.auction.id, sale.sales, sale.lots);

    // Closing made them (or this call does); again, nothing more.
    expect((await ok(generate(sale.auction.id))).total).toBe(2);
    expect(await ok(generate(sale.auction.id))).toEqual({ created: 0, total: 2 });

    const invoices = await invoicesOf(sale.auction.id);
    expect(invoices).toHaveLength(2);
    const forAlice = invoices.find((invoice) => invoice.bidderId === alice.id);
    // $1.5M: 26% of $1M + 21% of $0.5M = $365,000; $500 at 26% = $130 (a hybrid sale's lots
    // take the room's premium).
    expect(forAlice).toMatchObject({
      status: 'draft',
      currency: 'USD',
      hammerTotal: 150_050_000,
      premiumTotal: 36_500_000 + 13_000,
      chargesTotal: 2_500,
      tax: { hammer: 0, premium: Math.round((36_513_000 * 825) / 10_000), charges: 250 },
    });
    expect(forAlice?.number).toMatch(/^INV-\d{4}-\d{5}$/);
    expect(forAlice?.lines.map((line) => [line.lotNumber, line.premium, line.internet])).toEqual([
      ['1', 36_500_000, false],
      ['2', 13_000, false],
    ]);
    expect(forAlice?.grandTotal).toBe(
      150_050_000 + 36_513_000 + 2_500 + Math.round((36_513_000 * 825) / 10_000) + 250,
    );
    expect(forAlice?.balance).toBe(forAlice?.grandTotal);
    expect(invoices.find((invoice) => invoice.bidderId === bob.id)?.premiumTotal).toBe(20_800);
  });

  it('answers 403 without the add-on, 404 to another tenant, and checks the body', async () => {
    const { invoice } = await approvedInvoice();
    const plain = await freshOwner();
    const denied = await domain('GET', '/payments/invoices', { token: plain.token });
    expect(denied.status).toBe(403);
    expect(
      (await domain('GET', `/payments/invoices/${invoice.id}`, { token: other.token })).status,
    ).toBe(404);
    const bad = await domain('POST', `/payments/invoices/${invoice.id}/payments`, {
      token: house.token,
      body: { amount: -5, method: 'Cash' },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toContain('amount');
  });
});

describe('offline payments', () => {
  it('records a payment, pays the invoice and updates the bidder; over-payment is 400', async () => {
    const { alice, invoice, sale } = await approvedInvoice([100_000]);
    const over = await domain('POST', `/payments/invoices/${invoice.id}/payments`, {
      token: house.token,
      body: { amount: invoice.balance + 1, method: 'Check' },
    });
    expect(over.status).toBe(400);
    expect(fieldsOf(over)).toContain('amount');

    const part = await ok(
      domain<Transaction>('POST', `/payments/invoices/${invoice.id}/payments`, {
        token: house.token,
        body: { amount: 20_000, method: 'Bank Transfer', reference: 'WIRE-1' },
      }),
      201,
    );
    expect(part).toMatchObject({
      paymentStatus: 'Completed',
      amount: 20_000,
      paymentMethod: 'Bank Transfer',
    });
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'approved', paidTotal: 20_000 });

    await ok(
      domain('POST', `/payments/invoices/${invoice.id}/payments`, {
        token: house.token,
        body: { amount: invoice.balance - 20_000, method: 'Cash' },
      }),
      201,
    );
    const paid = await getInvoice(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', balance: 0 });
    const bidder = (await getBidder(house.token, alice.id)).body as Bidder;
    expect(bidder.stats.paymentsOnTime).toBe(strongStats().paymentsOnTime + 1);
    const { history } = await ok(
      domain<{ history: { id: string; paymentStatus: string }[] }>(
        'GET',
        `/bidders/${alice.id}/history`,
        {
          token: house.token,
        },
      ),
    );
    expect(history.find((row) => row.id === `auction:${sale.auction.id}`)?.paymentStatus).toBe(
      'Paid',
    );
    const receipts = (await outbox(alice.email ?? '')).filter(
      (mail) => mail.kind === 'payment-receipt',
    );
    expect(receipts).toHaveLength(1);
  });
});

describe('card payments', () => {
  it('takes a card once for a double click and a replayed confirm', async () => {
    const { invoice } = await approvedInvoice([60_000]);
    const [one, two] = await Promise.all(
      [1, 2].map(() =>
        ok(
          domain<CardPayment>('POST', `/payments/invoices/${invoice.id}/card-payment`, {
            token: house.token,
            body: {},
          }),
          201,
        ),
      ),
    );
    expect(one?.paymentIntentId).toBe(two?.paymentIntentId);
    expect(one?.transaction.paymentStatus).toBe('Pending');
    await testStripe().paymentIntents.confirm(one?.paymentIntentId ?? '', {
      payment_method: 'pm_card_visa',
    });
    for (let i = 0; i < 2; i += 1) {
      const confirmed = await ok(
        domain<Transaction>('POST', `/payments/transactions/${one?.transaction.id}/confirm`, {
          token: house.token,
        }),
      );
      expect(confirmed.paymentStatus).toBe('Completed');
    }
    const paid = await getInvoice(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', paidTotal: invoice.grandTotal });
    const page = await ok(
      domain<{ items: Transaction[] }>('GET', `/payments/transactions?invoiceId=${invoice.id}`, {
        token: house.token,
      }),
    );
    expect(page.items).toHaveLength(1);
  });

  it('marks a declined card Failed and retries it', async () => {
    const { invoice } = await approvedInvoice([70_000]);
    const started = await ok(
      domain<CardPayment>('POST', `/payments/invoices/${invoice.id}/card-payment`, {
        token: house.token,
        body: {},
      }),
      201,
    );
    await testStripe()
      .paymentIntents.confirm(started.paymentIntentId, { payment_method: 'pm_card_chargeDeclined' })
      .catch(() => undefined);
    const failed = await ok(
      domain<Transaction>('POST', `/payments/transactions/${started.transaction.id}/confirm`, {
        token: house.token,
      }),
    );
    expect(failed.paymentStatus).toBe('Failed');
    const retried = await ok(
      domain<CardPayment>('POST', `/payments/transactions/${started.transaction.id}/retry`, {
        token: house.token,
      }),
    );
    expect(retried.paymentIntentId).not.toBe(started.paymentIntentId);
    await testStripe().paymentIntents.confirm(retried.paymentIntentId, {
      payment_method: 'pm_card_visa',
    });
    const done = await ok(
      domain<Transaction>('POST', `/payments/transactions/${started.transaction.id}/confirm`, {
        token: house.token,
      }),
    );
    expect(done.paymentStatus).toBe('Completed');
  });

  it('refunds in part and in full, refuses more, and only the owner may', async () => {
    const { invoice } = await approvedInvoice([90_000]);
    const started = await ok(
      domain<CardPayment>('POST', `/payments/invoices/${invoice.id}/card-payment`, {
        token: house.token,
        body: {},
      }),
      201,
    );
    await testStripe().paymentIntents.confirm(started.paymentIntentId, {
      payment_method: 'pm_card_visa',
    });
    const id = started.transaction.id;
    await ok(domain('POST', `/payments/transactions/${id}/confirm`, { token: house.token }));
    const partial = await ok(
      domain<Transaction>('POST', `/payments/transactions/${id}/refunds`, {
        token: house.token,
        body: { amount: 10_000, reason: 'Scratch' },
      }),
      201,
    );
    expect(partial).toMatchObject({ paymentStatus: 'Completed', refundedAmount: 10_000 });
    const over = await domain('POST', `/payments/transactions/${id}/refunds`, {
      token: house.token,
      body: { amount: partial.amount },
    });
    expect(over.status).toBe(400);
    expect(fieldsOf(over)).toContain('amount');
    const full = await ok(
      domain<Transaction>('POST', `/payments/transactions/${id}/refunds`, {
        token: house.token,
        body: {},
      }),
      201,
    );
    expect(full).toMatchObject({ paymentStatus: 'Refunded', refundedAmount: partial.amount });
    const stripeRefunds = await testStripe().refunds.list({
      payment_intent: started.paymentIntentId,
    });
    expect(stripeRefunds.data.reduce((sum, refund) => sum + refund.amount, 0)).toBe(partial.amount);

    // Refunds are the owner's (staff and admin lack payments:refund); the permission answers first.
    const staff = await signedInToken(demo.staff);
    const refused = await domain('POST', `/payments/transactions/${id}/refunds`, {
      token: staff,
      body: {},
    });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('payments:refund');
  });

  it('a disputed charge is Disputed and opens a legal case', async () => {
    const { invoice, alice } = await approvedInvoice([55_000]);
    const started = await ok(
      domain<CardPayment>('POST', `/payments/invoices/${invoice.id}/card-payment`, {
        token: house.token,
        body: {},
      }),
      201,
    );
    await testStripe().paymentIntents.confirm(started.paymentIntentId, {
      payment_method: 'pm_card_createDispute',
    });
    let transaction = await getTransaction(started.transaction.id);
    for (let i = 0; i < 50 && transaction.paymentStatus !== 'Disputed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      transaction = await getTransaction(started.transaction.id);
    }
    expect(transaction.paymentStatus).toBe('Disputed');
    for (let i = 0; i < 50 && !transaction.dispute?.caseId; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      transaction = await getTransaction(started.transaction.id);
    }
    const legalCase = await ok(
      domain<{ caseType: string; bidder: { id: string } | null }>(
        'GET',
        `/cases/${transaction.dispute?.caseId}`,
        {
          token: house.token,
        },
      ),
    );
    expect(legalCase).toMatchObject({ caseType: 'payment_dispute', bidder: { id: alice.id } });
  });
});

describe('credit notes and the portal', () => {
  it('credits a lot of a sent invoice and the buyer sees the invoice through the emailed link', async () => {
    const { invoice, alice } = await approvedInvoice([40_000, 30_000]);
    const settings = await ok(
      domain<{ etag: string }>('GET', '/settings/payment-portal', { token: house.token }),
    );
    await ok(
      domain('PUT', '/settings/payment-portal', {
        token: house.token,
        headers: ifMatch(settings.etag),
        body: {
          enabled: true,
          companyName: 'Harbor House',
          primaryColor: '#1f4e79',
          secondaryColor: '#f0f0f0',
          defaultExpirationDays: 30,
          enabledPaymentMethods: ['credit_card', 'wire'],
          requireLoginSetup: false,
          allowSavedPayments: false,
          supportEmail: 'help@harbor.example',
          supportPhone: '',
        },
      }),
    );
    const sent = await ok(
      domain<{ url: string; invoice: Invoice }>('POST', `/payments/invoices/${invoice.id}/send`, {
        token: house.token,
      }),
    );
    expect(sent.invoice.status).toBe('sent');
    const mail = (await outbox(alice.email ?? '')).find(
      (message) => message.kind === 'buyer-invoice',
    );
    expect(mail?.text).toContain(sent.url);
    const token = sent.url.split('/pay/')[1] ?? '';
    const view = await ok(
      domain<{
        invoice: { kind: string; total: number };
        payment: { options: { method: string }[] };
      }>('GET', `/portal/${token}`, {}),
    );
    expect(view.invoice).toMatchObject({ kind: 'buyer', total: invoice.grandTotal });
    expect(view.payment.options.map((option) => option.method)).toEqual(['credit_card', 'wire']);
    expect((await getInvoice(invoice.id)).status).toBe('viewed');
    expect((await domain('GET', `/portal/${token}x`, {})).status).toBe(404);

    const lot = invoice.lines[1];
    const credited = await ok(
      domain<Invoice>('POST', `/payments/invoices/${invoice.id}/credit-notes`, {
        token: house.token,
        body: { lotIds: [lot?.lotId], reason: 'Withdrawn' },
      }),
      201,
    );
    expect(credited.credits[0]?.number).toMatch(/^CN-/);
    expect(credited.grandTotal).toBe(invoice.grandTotal);
    expect(credited.balance).toBe(invoice.grandTotal - (credited.credits[0]?.total ?? 0));

    const card = await ok(
      domain<{ paymentIntentId: string; clientSecret: string; amount: number }>(
        'POST',
        `/portal/${token}/card-payment`,
        {},
      ),
    );
    expect(card.amount).toBe(credited.balance);
    await testStripe().paymentIntents.confirm(card.paymentIntentId, {
      payment_method: 'pm_card_visa',
    });
    const confirmed = await ok(
      domain<{ paymentStatus: string; invoiceStatus: string }>(
        'POST',
        `/portal/${token}/card-payment/confirm`,
        {
          body: { paymentIntentId: card.paymentIntentId },
        },
      ),
    );
    expect(confirmed).toMatchObject({ paymentStatus: 'Completed', invoiceStatus: 'paid' });
    expect(
      codeOf(
        await domain('POST', `/payments/invoices/${invoice.id}/void`, {
          token: house.token,
          body: {},
        }),
      ),
    ).toBe('conflict');
  });
});

describe('results corrected after the close', () => {
  const correct = (auctionId: string, lotId: string, body: Record<string, unknown>) =>
    ok(
      domain<Lot>('PUT', `/auctions/${auctionId}/lots/${lotId}/result`, {
        token: house.token,
        body: { reason: 'Clerk misheard the paddle', ...body },
      }),
    );
  const lineView = (invoice: Invoice | undefined) =>
    invoice?.lines.map((line) => [line.lotNumber, line.hammer]);

  it('rewrites invoices not yet with the buyer: lots move, an approved one returns to draft, an empty one is voided', async () => {
    const [alice, bob] = await Promise.all([buyer('Alma'), buyer('Boris')]);
    const sale = await soldTo([
      [alice, 10_000, true],
      [alice, 20_000, true],
      [bob, 30_000, true],
    ]);
    await close(sale.auction.id, sale.sales, sale.lots);
    const id = sale.auction.id;
    const [lot1, lot2, lot3] = sale.lots as [Lot, Lot, Lot];

    await correct(id, lot2.id, { outcome: 'sold', hammer: 20_000, bidderId: bob.id });
    let invoices = await invoicesOf(id);
    const ofAlice = () => invoices.find((invoice) => invoice.bidderId === alice.id);
    const ofBob = () => invoices.find((invoice) => invoice.bidderId === bob.id);
    expect(lineView(ofAlice())).toEqual([['1', 10_000]]);
    expect(lineView(ofBob())).toEqual([
      ['2', 20_000],
      ['3', 30_000],
    ]);
    expect(ofBob()?.hammerTotal).toBe(50_000);

    await ok(domain('POST', `/payments/invoices/${ofBob()?.id}/approve`, { token: house.token }));
    await correct(id, lot3.id, { outcome: 'sold', hammer: 32_000, bidderId: bob.id });
    invoices = await invoicesOf(id);
    expect(ofBob()).toMatchObject({ status: 'draft', approvedAt: null, hammerTotal: 52_000 });
    const history = (await getInvoice(ofBob()?.id ?? '')).history.map((event) => event.action);
    expect(history).toContain('Corrected');

    await correct(id, lot1.id, { outcome: 'passed' });
    invoices = await invoicesOf(id);
    expect(ofAlice()).toMatchObject({ status: 'void', balance: 0 });
    expect(await ok(generate(id))).toEqual({ created: 0, total: 1 });
  });

  it('corrects a paid invoice with a credit note and bills a lot sold later on a supplementary invoice', async () => {
    const { invoice, sale, alice } = await approvedInvoice([40_000, 30_000]);
    await ok(
      domain('POST', `/payments/invoices/${invoice.id}/payments`, {
        token: house.token,
        body: { amount: invoice.balance, method: 'Cash' },
      }),
      201,
    );
    const [, lot2] = sale.lots as [Lot, Lot];
    await correct(sale.auction.id, lot2.id, { outcome: 'passed' });
    const credited = await getInvoice(invoice.id);
    expect(credited.status).toBe('paid');
    expect(credited.lines).toHaveLength(2);
    expect(credited.credits).toHaveLength(1);
    expect(credited.credits[0]).toMatchObject({ lotIds: [lot2.id], hammerTotal: 30_000 });
    expect(credited.credits[0]?.reason).toContain('Result corrected');
    // The buyer paid for a lot they no longer owe: the balance is owed back to them.
    expect(credited.balance).toBe(-(credited.credits[0]?.total ?? 0));

    await correct(sale.auction.id, lot2.id, {
      outcome: 'sold',
      hammer: 35_000,
      bidderId: alice.id,
    });
    const invoices = await invoicesOf(sale.auction.id);
    expect(invoices).toHaveLength(2);
    const supplementary = invoices.find((candidate) => candidate.id !== invoice.id);
    expect(supplementary).toMatchObject({
      id: `${invoice.id}-2`,
      status: 'draft',
      bidderId: alice.id,
      chargesTotal: 0,
    });
    expect(lineView(supplementary)).toEqual([['2', 35_000]]);
    const history = await getInvoice(supplementary?.id ?? '');
    expect(history.history[0]?.detail).toContain(invoice.number);
    // Nothing changes twice: the paid invoice keeps its one note, no third invoice.
    expect(await ok(generate(sale.auction.id))).toEqual({ created: 0, total: 2 });
    expect((await getInvoice(invoice.id)).credits).toHaveLength(1);
  });

  it('charges the internet premium on the lots of a hybrid sale won online', async () => {
    const alice = await buyer('Ines');
    const sale = await soldTo([
      [alice, 100_000],
      [alice, 100_000],
    ]);
    const id = sale.auction.id;
    const terms = await ok(
      domain<InvoiceTerms>('GET', `/payments/auctions/${id}/terms`, { token: house.token }),
    );
    await ok(
      domain('PUT', `/payments/auctions/${id}/terms`, {
        token: house.token,
        headers: ifMatch(terms.etag),
        body: {
          premium: [{ upTo: null, rateBps: 2000 }],
          internetPremium: [{ upTo: null, rateBps: 2500 }],
          tax: { hammerBps: 0, premiumBps: 0, chargesBps: 0 },
          defaultCharges: [],
          paymentDueDays: 7,
        },
      }),
    );
    const [lot1, lot2] = sale.lots as [Lot, Lot];
    const online = await ok(
      domain<Lot>('PUT', `/auctions/${id}/lots/${lot1.id}/result`, {
        token: house.token,
        body: { outcome: 'sold', hammer: 100_000, bidderId: alice.id, channel: 'online' },
      }),
    );
    expect(online.result?.channel).toBe('online');
    const room = await ok(
      domain<Lot>('PUT', `/auctions/${id}/lots/${lot2.id}/result`, {
        token: house.token,
        body: { outcome: 'sold', hammer: 100_000, bidderId: alice.id },
      }),
    );
    expect(room.result?.channel).toBe('room');
    await ok(domain('POST', `/auctions/${id}/close`, { token: house.token }));
    const [invoice] = await invoicesOf(id);
    expect(invoice?.lines.map((line) => [line.lotNumber, line.internet, line.premium])).toEqual([
      ['1', true, 25_000],
      ['2', false, 20_000],
    ]);

    await correct(id, lot2.id, {
      outcome: 'sold',
      hammer: 100_000,
      bidderId: alice.id,
      channel: 'online',
    });
    const [corrected] = await invoicesOf(id);
    expect(corrected?.premiumTotal).toBe(50_000);
  });

  it('refuses a saleroom for an Online auction, naming the field', async () => {
    const alice = await buyer('Olga');
    const sale = await soldTo([[alice, 10_000]], { type: 'Online' });
    const refused = await domain(
      'PUT',
      `/auctions/${sale.auction.id}/lots/${sale.lots[0]?.id}/result`,
      {
        token: house.token,
        body: { outcome: 'sold', hammer: 10_000, bidderId: alice.id, channel: 'room' },
      },
    );
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused)).toContain('channel');
  });
});
