import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type {
  BillingAccountView,
  PaymentMethodView,
  SubscriptionView,
} from '../../functions/src/billing/billing.schema.js';
import type { HistoryEntry, ScoreChange } from '../../functions/src/bidders/bidders.schema.js';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import type { HistoryEntry as RuleHistoryEntry } from '../../functions/src/legal/rules/rules.schema.js';
import type { Invoice, Transaction } from '../../functions/src/payments/payments.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import {
  DAY,
  createBidder,
  daysAgo,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  strongStats,
  type Bidder,
  type Owner,
} from '../support/bidders.js';
import { database, GOOD_PASSWORD, ifMatch, signedIn } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';
import { testStripe } from '../support/stripe.js';

// The overdue timer and the billing catalogue run in this process, against the same local stack.
usePlatformEnvironment();
const { markOverdue, markOverdueEverywhere } =
  await import('../../functions/src/payments/payments.service.js');
const { systemContext } = await import('../../functions/src/platform/context.js');
const { createLogger } = await import('../../functions/src/platform/logging.js');
const { tierById, transactionFeeOn } =
  await import('../../functions/src/billing/billing.catalog.js');
const log = createLogger(() => undefined, 'error');

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

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const dayFrom = (day: string, days: number) =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY));

/**
 * A buyer the rules approve at once whose payment record is mixed (6 on time, 2 late), so that
 * one more payment, on time or not, moves the payment-history part of the Lotwise Score.
 */
const buyer = (name: string, owner = house) =>
  createBidder(owner.token, {
    firstName: name,
    lastName: 'Buyer',
    email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
    stats: { ...strongStats(), paymentsOnTime: 6, paymentsLate: 2 },
  });

/** A Hybrid auction whose lots sold to the buyer as given (hammer in cents), closed. */
async function soldTo(owner: Owner, bidder: Bidder, hammers: number[]) {
  const auction = await createAuction(owner.token, {
    title: `Sale ${randomUUID().slice(0, 8)}`,
    type: 'Hybrid',
    buyersPremium: 20,
  });
  const lots: Lot[] = [];
  for (const [index] of hammers.entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token: owner.token,
          body: { lotNumber: String(index + 1), title: `Lot ${index + 1}` },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token: owner.token }));
  const registration = await ok(
    domain<Registration>('POST', `/auctions/${auction.id}/register`, {
      token: owner.token,
      body: { bidderId: bidder.id },
    }),
    201,
  );
  expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token: owner.token }));
  for (const [index, hammer] of hammers.entries()) {
    await ok(
      domain('PUT', `/auctions/${auction.id}/lots/${lots[index]?.id}/result`, {
        token: owner.token,
        body: { outcome: 'sold', hammer, bidderId: bidder.id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/close`, { token: owner.token }));
  return auction;
}

/** Moves an auction's close back in time, as if the sale had been that many days ago. */
async function closedAgo(owner: Owner, auctionId: string, days: number) {
  const { db, dispose } = await database();
  try {
    const item = db.container('auctions').item(auctionId, owner.accountId);
    const { resource } = await item.read<Record<string, unknown>>();
    await item.replace({ ...resource, closedAt: daysAgo(days) });
  } finally {
    dispose();
  }
}

const getInvoice = (id: string, owner = house) =>
  ok(domain<Invoice>('GET', `/payments/invoices/${id}`, { token: owner.token }));

/** The draft invoice the close made for the sale's only buyer. */
async function draftOf(auctionId: string, owner = house) {
  await ok(domain('POST', `/payments/auctions/${auctionId}/invoices`, { token: owner.token }), 200);
  const page = await ok(
    domain<{ items: Invoice[] }>('GET', `/payments/invoices?auctionId=${auctionId}`, {
      token: owner.token,
    }),
  );
  expect(page.items).toHaveLength(1);
  return getInvoice(page.items[0]?.id ?? '', owner);
}

/** Gives a draft invoice another due date (the house's terms for this buyer), then approves it. */
async function approve(invoice: Invoice, dueDate?: string, owner = house) {
  if (dueDate) {
    await ok(
      domain<Invoice>('PUT', `/payments/invoices/${invoice.id}`, {
        token: owner.token,
        headers: ifMatch(invoice.etag),
        body: { dueDate },
      }),
    );
  }
  await ok(domain('POST', `/payments/invoices/${invoice.id}/approve`, { token: owner.token }));
  return getInvoice(invoice.id, owner);
}

const pay = (invoiceId: string, body: Record<string, unknown>, owner = house) =>
  domain<Transaction>('POST', `/payments/invoices/${invoiceId}/payments`, {
    token: owner.token,
    body: { method: 'Bank Transfer', ...body },
  });

const bidderOf = async (id: string, owner = house) =>
  (await ok(getBidder(owner.token, id))) as Bidder;

const historyOf = async (bidderId: string, owner = house) =>
  (
    await ok(
      domain<{ history: HistoryEntry[] }>('GET', `/bidders/${bidderId}/history`, {
        token: owner.token,
      }),
    )
  ).history;

const saleEntry = async (bidderId: string, auctionId: string, owner = house) =>
  (await historyOf(bidderId, owner)).find((entry) => entry.id === `auction:${auctionId}`);

const scoreChanges = async (bidderId: string, owner = house) =>
  (
    await ok(
      domain<{ changes: ScoreChange[] }>('GET', `/bidders/${bidderId}/score-history`, {
        token: owner.token,
      }),
    )
  ).changes;

describe('a paid invoice feeds the bidder', () => {
  it('paid on time: the sale shows Paid, on-time payments count one more, the score rises', async () => {
    const ann = await buyer('Ann');
    const sale = await soldTo(house, ann, [40_000, 10_000]);
    const invoice = await approve(await draftOf(sale.id));
    const before = await bidderOf(ann.id);

    // A part payment changes nothing yet: the invoice is paid when nothing is left.
    await ok(pay(invoice.id, { amount: 10_000 }), 201);
    expect((await bidderOf(ann.id)).stats).toEqual(before.stats);

    await ok(pay(invoice.id, { amount: invoice.balance - 10_000, reference: 'WIRE-7' }), 201);
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'paid', balance: 0 });
    const after = await bidderOf(ann.id);
    expect(after.stats).toMatchObject({
      paymentsOnTime: before.stats.paymentsOnTime + 1,
      paymentsLate: before.stats.paymentsLate,
      paymentsOverdue: before.stats.paymentsOverdue,
    });
    // Paid the day of the sale: the running mean of days to pay falls toward 0.
    expect(after.stats.avgDaysToPay).toBeLessThan(before.stats.avgDaysToPay ?? Infinity);
    expect((await saleEntry(ann.id, sale.id))?.paymentStatus).toBe('Paid');
    expect(after.lotwiseScore.breakdown.paymentHistory).toBeGreaterThan(
      before.lotwiseScore.breakdown.paymentHistory,
    );
    expect(after.lotwiseScore.score).toBeGreaterThanOrEqual(before.lotwiseScore.score);
    const [latest] = await scoreChanges(ann.id);
    expect(latest?.cause).toBe('Invoice paid on time');
    expect(latest?.components).toContainEqual(
      expect.objectContaining({ scoreType: 'lotwise', component: 'paymentHistory' }),
    );
    // Nothing more to pay, and nothing counted twice.
    expect((await pay(invoice.id, { amount: 1 })).status).toBe(409);
    expect((await bidderOf(ann.id)).stats).toEqual(after.stats);
  });

  it('paid after the due date: counted late, never overdue, and the score falls', async () => {
    const ben = await buyer('Ben');
    const sale = await soldTo(house, ben, [30_000]);
    const draft = await draftOf(sale.id);
    // Taken while the invoice is a draft (the overdue timer leaves drafts alone).
    const before = await bidderOf(ben.id);
    const today = utcDay(new Date());
    const invoice = await approve(draft, dayFrom(today, -5));
    await ok(pay(invoice.id, { amount: invoice.balance, receivedOn: dayFrom(today, -2) }), 201);
    const paid = await getInvoice(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', paidAt: `${dayFrom(today, -2)}T12:00:00.000Z` });

    // Whether or not the stack's hourly timer saw it overdue first, it ends as one late payment.
    const after = await bidderOf(ben.id);
    expect(after.stats).toMatchObject({
      paymentsOnTime: before.stats.paymentsOnTime,
      paymentsLate: before.stats.paymentsLate + 1,
      paymentsOverdue: before.stats.paymentsOverdue,
    });
    expect((await saleEntry(ben.id, sale.id))?.paymentStatus).toBe('Paid');
    expect(after.lotwiseScore.breakdown.paymentHistory).toBeLessThan(
      before.lotwiseScore.breakdown.paymentHistory,
    );
    expect((await scoreChanges(ben.id))[0]?.cause).toBe('Invoice paid late');
  });
});

describe('the overdue timer', () => {
  let late: Owner;
  beforeAll(async () => {
    // Its own account: the timer is run below with a clock days ahead, for this account only.
    late = await ownerWithAddOns();
  });

  it('counts an unpaid invoice past its terms as one payment default, however often it runs', async () => {
    const cal = await buyer('Cal', late);
    const sale = await soldTo(late, cal, [25_000]);
    const invoice = await approve(await draftOf(sale.id, late), undefined, late);
    const before = await bidderOf(cal.id, late);
    const ctx = systemContext(late.accountId);

    // Due in the house's 7 days: not yet overdue on the due date itself.
    expect(await markOverdue(ctx)).toBe(0);
    expect(await markOverdue(ctx, invoice.dueDate)).toBe(0);
    expect((await bidderOf(cal.id, late)).stats).toEqual(before.stats);

    const dayAfter = dayFrom(invoice.dueDate, 1);
    const runs = await Promise.all([markOverdue(ctx, dayAfter), markOverdue(ctx, dayAfter)]);
    expect(runs.reduce((sum, marked) => sum + marked, 0)).toBeGreaterThanOrEqual(1);
    expect(await markOverdue(ctx, dayFrom(invoice.dueDate, 30))).toBe(0);

    const overdue = await getInvoice(invoice.id, late);
    expect(overdue.overdueAt).not.toBeNull();
    expect(overdue.history.filter((event) => event.action === 'Overdue')).toHaveLength(1);
    const after = await bidderOf(cal.id, late);
    expect(after.stats.paymentsOverdue).toBe(before.stats.paymentsOverdue + 1);
    expect(after.stats.paymentsOnTime).toBe(before.stats.paymentsOnTime);
    expect((await saleEntry(cal.id, sale.id, late))?.paymentStatus).toBe('Overdue');
    expect(after.lotwiseScore.score).toBeLessThan(before.lotwiseScore.score);
    expect(
      (await scoreChanges(cal.id, late)).filter((change) => change.cause === 'Invoice overdue'),
    ).toHaveLength(1);

    // Paid after the due date at last: no longer a default, one late payment instead.
    await ok(pay(invoice.id, { amount: invoice.balance, receivedOn: dayAfter }, late), 201);
    const paid = await bidderOf(cal.id, late);
    expect(paid.stats).toMatchObject({
      paymentsOverdue: before.stats.paymentsOverdue,
      paymentsLate: before.stats.paymentsLate + 1,
      paymentsOnTime: before.stats.paymentsOnTime,
    });
    expect((await saleEntry(cal.id, sale.id, late))?.paymentStatus).toBe('Paid');
    expect(paid.lotwiseScore.score).toBeGreaterThan(after.lotwiseScore.score);
    expect(await markOverdue(ctx, dayFrom(invoice.dueDate, 30))).toBe(0);
    expect((await bidderOf(cal.id, late)).stats).toEqual(paid.stats);
  });

  it('runs for every account on the wall clock, as the hourly timer does', async () => {
    const dee = await buyer('Dee');
    const sale = await soldTo(house, dee, [15_000]);
    const draft = await draftOf(sale.id);
    const before = await bidderOf(dee.id);
    const invoice = await approve(draft, dayFrom(utcDay(new Date()), -3));
    // The stack's own timer may have run meanwhile too: each invoice counts once either way.
    await markOverdueEverywhere(log);
    await markOverdueEverywhere(log);
    expect((await getInvoice(invoice.id)).overdueAt).not.toBeNull();
    expect((await bidderOf(dee.id)).stats.paymentsOverdue).toBe(before.stats.paymentsOverdue + 1);
    expect((await saleEntry(dee.id, sale.id))?.paymentStatus).toBe('Overdue');
  });
});

const moveCase = (id: string, to: string, extra: Record<string, unknown> = {}) =>
  ok(
    domain<LegalCase>('POST', `/cases/${id}/status`, {
      token: house.token,
      body: { to, reason: `To ${to}`, ...extra },
    }),
  );

const readCase = (id: string, owner = house) =>
  ok(domain<LegalCase>('GET', `/cases/${id}`, { token: owner.token }));

describe('a paid invoice and the legal cases', () => {
  async function unpaidPurchase(name: string, hammer: number) {
    const bidder = await buyer(name);
    const sale = await soldTo(house, bidder, [hammer]);
    const invoice = await approve(await draftOf(sale.id));
    await closedAgo(house, sale.id, 10);
    const filed = await ok(
      domain<LegalCase>('POST', '/cases/non-paying-bidder', {
        token: house.token,
        body: { auctionId: sale.id, bidderId: bidder.id, jurisdiction: 'Massachusetts' },
      }),
      201,
    );
    expect(filed.nonPayment).toMatchObject({ amountDue: hammer, payment: null, strike: true });
    return { bidder, sale, invoice, filed };
  }

  it("clears a non-paying bidder's strike when the invoice is paid in full", async () => {
    const { bidder, invoice, filed } = await unpaidPurchase('Eve', 45_000);
    expect((await bidderOf(bidder.id)).stats.disputes).toBe(1);
    // The house's own rule on a payment received runs for the case, as on the legal routes.
    const [me] = (
      await ok(
        domain<{ assignees: { id: string; name: string }[] }>('GET', '/legal/assignees', {
          token: house.token,
        }),
      )
    ).assignees;
    await ok(
      domain('POST', '/workflows/rules', {
        token: house.token,
        body: {
          name: 'A paid purchase goes to the owner',
          trigger: 'payment_received',
          conditions: [{ field: 'status', operator: 'equals', value: 'SUBMITTED' }],
          actions: [{ type: 'assign_to', userId: me?.id }],
        },
      }),
      201,
    );
    await ok(pay(invoice.id, { amount: 5_000 }), 201);
    expect((await readCase(filed.id)).nonPayment).toMatchObject({ payment: null, strike: true });

    await ok(pay(invoice.id, { amount: invoice.balance - 5_000 }), 201);
    const settled = await readCase(filed.id);
    expect(settled.nonPayment).toMatchObject({
      strike: false,
      nextReminderAt: null,
      payment: { amount: invoice.grandTotal, reference: invoice.number },
    });
    expect((await bidderOf(bidder.id)).stats.disputes).toBe(0);
    expect(settled.assignedTo?.id).toBe(me?.id);
    const { entries } = await ok(
      domain<{ entries: RuleHistoryEntry[] }>('GET', `/workflows/history/${filed.id}`, {
        token: house.token,
      }),
    );
    expect(entries.map((entry) => [entry.trigger, entry.result])).toEqual([
      ['payment_received', 'applied'],
    ]);
  });

  it('clears the strike of a case the bidder lost when the invoice is paid after all', async () => {
    const { invoice, filed } = await unpaidPurchase('Fin', 35_000);
    for (const to of ['PENDING', 'IN REVIEW', 'RESOLVED']) await moveCase(filed.id, to);
    expect((await readCase(filed.id)).nonPayment?.strike).toBe(true);
    await ok(pay(invoice.id, { amount: invoice.balance }), 201);
    expect((await readCase(filed.id)).nonPayment).toMatchObject({
      strike: false,
      payment: { amount: invoice.grandTotal, reference: invoice.number },
    });
  });

  async function settledCase(amount: number) {
    const filed = await ok(
      domain<LegalCase>('POST', '/cases', {
        token: house.token,
        body: {
          caseType: 'payment_dispute',
          category: 'post_sale',
          priority: 'medium',
          title: 'Settled with the buyer',
          jurisdiction: 'Massachusetts',
        },
      }),
      201,
    );
    for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await moveCase(filed.id, to);
    return moveCase(filed.id, 'SETTLED', { settlementAmount: amount });
  }

  it('records the settlement payment of the SETTLED case a payment names, and closes it', async () => {
    const gus = await buyer('Gus');
    const invoice = await approve(await draftOf((await soldTo(house, gus, [50_000])).id));
    const settled = await settledCase(invoice.balance);
    expect(settled.status).toBe('SETTLED');
    const receivedOn = utcDay(new Date());
    const payment = await ok(
      pay(invoice.id, { amount: invoice.balance, reference: 'WIRE-88', caseId: settled.id }),
      201,
    );
    const closed = await readCase(settled.id);
    expect(closed.status).toBe('CLOSED');
    expect(closed.settlementPayment).toMatchObject({
      amount: payment.amount,
      receivedOn,
      reference: 'WIRE-88',
    });
    expect((await getInvoice(invoice.id)).status).toBe('paid');
  });

  it('refuses, before taking any money, a case that is not SETTLED or not this account’s', async () => {
    const hal = await buyer('Hal');
    const invoice = await approve(await draftOf((await soldTo(house, hal, [20_000])).id));
    const open = await ok(
      domain<LegalCase>('POST', '/cases', {
        token: house.token,
        body: {
          caseType: 'payment_dispute',
          category: 'post_sale',
          priority: 'low',
          title: 'Still open',
          jurisdiction: 'Maine',
        },
      }),
      201,
    );
    const foreign = await ok(
      domain<LegalCase>('POST', '/cases', {
        token: other.token,
        body: {
          caseType: 'payment_dispute',
          category: 'post_sale',
          priority: 'low',
          title: 'Another house',
          jurisdiction: 'Maine',
        },
      }),
      201,
    );
    for (const caseId of [open.id, foreign.id, 'no-such-case']) {
      const refused = await pay(invoice.id, { amount: 1_000, caseId });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(fieldsOf(refused)).toEqual(['caseId']);
    }
    expect(await getInvoice(invoice.id)).toMatchObject({ paidTotal: 0, status: 'approved' });
    expect((await readCase(open.id)).settlementPayment).toBeNull();
    expect((await readCase(foreign.id, other)).settlementPayment).toBeNull();
  });
});

describe('billing usage', () => {
  /** Saves a card as the browser would: a SetupIntent confirmed at Stripe, then handed to us. */
  async function addCard(token: string) {
    const intent = await ok(
      domain<{ setupIntentId: string }>('POST', '/billing/stripe/setup-intent', { token }),
      201,
    );
    await testStripe().setupIntents.confirm(intent.setupIntentId, {
      payment_method: 'pm_card_visa',
    });
    return ok(
      domain<{ paymentMethod: PaymentMethodView }>('POST', '/billing/payment-methods', {
        token,
        body: { setupIntentId: intent.setupIntentId, setAsDefault: true },
      }),
      201,
    );
  }

  it("reports the period's auction revenue (payments less refunds) and the plan's fee on it", async () => {
    const owner = await freshOwner();
    await addCard(owner.token);
    const subscribed = await ok(
      domain<{ subscription: SubscriptionView }>('POST', '/billing/subscription', {
        token: owner.token,
        body: { tierId: 'tier-3', interval: 'month', addOnIds: ['payments'] },
      }),
      201,
    );
    expect(subscribed.subscription.usage).toMatchObject({
      auctionRevenue: 0,
      auctionTransactionCharges: 0,
    });
    // The plan now carries the add-on; a token issued after it carries the feature.
    const house2: Owner = {
      ...owner,
      token: (await signedIn(owner.email, GOOD_PASSWORD)).accessToken,
    };

    const ida = await buyer('Ida', house2);
    const first = await approve(
      await draftOf((await soldTo(house2, ida, [100_000])).id, house2),
      undefined,
      house2,
    );
    const second = await approve(
      await draftOf((await soldTo(house2, ida, [37_000])).id, house2),
      undefined,
      house2,
    );
    const paidInFull = await ok(pay(first.id, { amount: first.balance }, house2), 201);
    const part = await ok(pay(second.id, { amount: 20_000, method: 'Check' }, house2), 201);
    await ok(
      domain<Transaction>('POST', `/payments/transactions/${part.id}/refunds`, {
        token: house2.token,
        body: { amount: 4_321, reason: 'Goodwill' },
      }),
      201,
    );
    // A card payment not yet confirmed has brought in nothing.
    await ok(
      domain('POST', `/payments/invoices/${second.id}/card-payment`, {
        token: house2.token,
        body: { amount: 5_000 },
      }),
      201,
    );

    const revenue = paidInFull.amount + 20_000 - 4_321;
    const { account } = await ok(
      domain<{ account: BillingAccountView }>('GET', '/billing/account', { token: house2.token }),
    );
    const tier = tierById('tier-3');
    expect(tier).toBeDefined();
    expect(account.subscription?.usage).toMatchObject({
      auctionRevenue: revenue,
      auctionTransactionCharges: transactionFeeOn(tier!, revenue),
    });
    // Business takes 0.20%: the fee is the revenue's, rounded half up to the cent.
    expect(account.subscription?.usage.auctionTransactionCharges).toBe(
      Math.round((revenue * 20) / 10_000),
    );
    expect(account.subscription?.usage.totalUsageCharges).toBe(
      (account.subscription?.usage.overageCharges ?? 0) + transactionFeeOn(tier!, revenue),
    );
  });
});
