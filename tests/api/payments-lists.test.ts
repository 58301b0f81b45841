import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type { Invoice, InvoiceListItem } from '../../functions/src/payments/payments.schema.js';
import type {
  BuildResult,
  StatementSummary,
} from '../../functions/src/payments/settlements/settlements.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import {
  DAY,
  createBidder,
  domain,
  fieldsOf,
  strongStats,
  type Bidder,
  type Owner,
} from '../support/bidders.js';
import { ifMatch } from '../support/identity.js';

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

/**
 * A day counted from today (UTC). Past and future days are kept two or more days away, so they
 * are past or future in every house time zone too.
 */
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

const buyer = (name: string) =>
  createBidder(house.token, {
    firstName: name,
    lastName: 'Buyer',
    email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
    stats: strongStats(),
  });

interface Sold {
  bidder: Bidder;
  hammer: number;
  consignor?: string;
}

/** A Hybrid auction whose lots sold as given, closed (Completed), with its invoices made. */
async function closedSale(sales: Sold[]) {
  const auction = await createAuction(house.token, {
    title: `Lists ${randomUUID().slice(0, 8)}`,
    type: 'Hybrid',
    buyersPremium: 20,
  });
  const lots: Lot[] = [];
  for (const [index, { consignor }] of sales.entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token: house.token,
          body: {
            lotNumber: String(index + 1),
            title: `Lot ${index + 1}`,
            ...(consignor ? { consignor: { name: consignor, contact: '' } } : {}),
          },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token: house.token }));
  for (const bidderId of new Set(sales.map((one) => one.bidder.id))) {
    const registration = await ok(
      domain<Registration>('POST', `/auctions/${auction.id}/register`, {
        token: house.token,
        body: { bidderId },
      }),
      201,
    );
    expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  }
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token: house.token }));
  for (const [index, one] of sales.entries()) {
    await ok(
      domain('PUT', `/auctions/${auction.id}/lots/${lots[index]?.id}/result`, {
        token: house.token,
        body: { outcome: 'sold', hammer: one.hammer, bidderId: one.bidder.id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/close`, { token: house.token }));
  await ok(domain('POST', `/payments/auctions/${auction.id}/invoices`, { token: house.token }));
  return auction;
}

interface InvoicePage {
  items: InvoiceListItem[];
  continuationToken: string | null;
  total: number;
}

const invoicePage = (query: string, owner = house) =>
  domain<InvoicePage>('GET', `/payments/invoices?${query}`, { token: owner.token });

/** Every page of an invoice list, following the continuation tokens. */
async function allInvoicePages(query: string, owner = house) {
  const pages: InvoicePage[] = [];
  let token: string | null = null;
  do {
    const page: InvoicePage = await ok(
      invoicePage(
        `${query}${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`,
        owner,
      ),
    );
    pages.push(page);
    token = page.continuationToken;
  } while (token && pages.length < 50);
  return pages;
}

const approve = (id: string) =>
  ok(domain<Invoice>('POST', `/payments/invoices/${id}/approve`, { token: house.token }));

/** A draft's due date moved (over the version read), as the house edits it before approving. */
async function dueOn(invoice: Pick<Invoice, 'id' | 'etag'>, dueDate: string) {
  const saved = await ok(
    domain<Invoice>('PUT', `/payments/invoices/${invoice.id}`, {
      token: house.token,
      headers: ifMatch(invoice.etag),
      body: { dueDate },
    }),
  );
  expect(saved.dueDate).toBe(dueDate);
  return saved;
}

const manual = async (bidder: Bidder, amount: number, dueDate: string) =>
  ok(
    domain<Invoice>('POST', '/payments/invoices', {
      token: house.token,
      body: { bidderId: bidder.id, lines: [{ description: 'Storage', amount }], dueDate },
    }),
    201,
  );

const pay = (invoiceId: string, amount: number) =>
  ok(
    domain('POST', `/payments/invoices/${invoiceId}/payments`, {
      token: house.token,
      body: { amount, method: 'Cash' },
    }),
    201,
  );

describe('overdue invoices (GET /payments/invoices?overdue=true)', () => {
  /** The invoices past due and still owed, the longest owed first. */
  let overdue: string[];
  let sentOne: string;
  let allIds: string[];

  beforeAll(async () => {
    const [ann, ben, cat] = await Promise.all([buyer('Ann'), buyer('Ben'), buyer('Cat')]);
    const auction = await closedSale([
      { bidder: ann, hammer: 100_000 },
      { bidder: ben, hammer: 50_000 },
      { bidder: cat, hammer: 70_000 },
    ]);
    const made = await ok(invoicePage(`auctionId=${auction.id}&pageSize=10`));
    expect(made.items).toHaveLength(3);
    const of = (bidder: Bidder) => {
      const found = made.items.find((invoice) => invoice.bidderId === bidder.id);
      if (!found) throw new Error(`no invoice for ${bidder.id}`);
      return found;
    };
    // Ann's is ten days late, Ben's (sent to him) five; Cat's is due next month.
    const annInvoice = await dueOn(of(ann), dayFromToday(-10));
    const benInvoice = await dueOn(of(ben), dayFromToday(-5));
    const catInvoice = await dueOn(of(cat), dayFromToday(30));
    await Promise.all([annInvoice, benInvoice, catInvoice].map((invoice) => approve(invoice.id)));
    const portal = await ok(
      domain<{ etag: string }>('GET', '/settings/payment-portal', { token: house.token }),
    );
    // Sending mails the buyer the portal link, so the portal is turned on first.
    await ok(
      domain('PUT', '/settings/payment-portal', {
        token: house.token,
        headers: ifMatch(portal.etag),
        body: {
          enabled: true,
          companyName: 'Lists House',
          primaryColor: '#1f4e79',
          secondaryColor: '#f0f0f0',
          defaultExpirationDays: 30,
          enabledPaymentMethods: ['wire'],
          requireLoginSetup: false,
          allowSavedPayments: false,
          supportEmail: 'help@lists.example',
          supportPhone: '',
        },
      }),
    );
    const sent = await ok(
      domain<{ invoice: Invoice }>('POST', `/payments/invoices/${benInvoice.id}/send`, {
        token: house.token,
      }),
    );
    expect(sent.invoice.status).toBe('sent');
    sentOne = benInvoice.id;

    // Manual invoices, all past due: a draft (not owed yet), a void one, one paid in full, and
    // one paid in part (still owed).
    const draft = await manual(ann, 1_000, dayFromToday(-20));
    const voided = await manual(ann, 2_000, dayFromToday(-15));
    await approve(voided.id);
    await ok(
      domain('POST', `/payments/invoices/${voided.id}/void`, {
        token: house.token,
        body: { reason: 'Entered twice' },
      }),
    );
    const paid = await manual(ben, 3_000, dayFromToday(-8));
    await pay((await approve(paid.id)).id, paid.balance);
    const part = await manual(cat, 4_000, dayFromToday(-3));
    await pay((await approve(part.id)).id, 1_000);

    const statuses = await Promise.all(
      [draft, voided, paid, part].map(async (invoice) => {
        const fresh = await ok(
          domain<Invoice>('GET', `/payments/invoices/${invoice.id}`, { token: house.token }),
        );
        return [fresh.status, fresh.balance] as const;
      }),
    );
    expect(statuses).toEqual([
      ['draft', 1_000],
      ['void', 0],
      ['paid', 0],
      ['approved', 3_000],
    ]);
    overdue = [annInvoice.id, benInvoice.id, part.id];
    allIds = [annInvoice, benInvoice, catInvoice, draft, voided, paid, part].map(
      (invoice) => invoice.id,
    );
  });

  it('lists exactly the invoices still owed past their due date, the longest owed first', async () => {
    const page = await ok(invoicePage('overdue=true'));
    expect(page.items.map((invoice) => invoice.id)).toEqual(overdue);
    expect(page.total).toBe(3);
    expect(page.continuationToken).toBeNull();
    const dues = page.items.map((invoice) => invoice.dueDate);
    expect(dues).toEqual([...dues].sort());
    expect(page.items.every((invoice) => invoice.balance > 0)).toBe(true);
  });

  it('pages the overdue invoices one at a time with continuation tokens', async () => {
    const pages = await allInvoicePages('overdue=true&pageSize=1');
    expect(pages.every((page) => page.items.length <= 1)).toBe(true);
    expect(pages.every((page) => page.total === 3)).toBe(true);
    expect(pages.flatMap((page) => page.items.map((invoice) => invoice.id))).toEqual(overdue);
    expect(pages.filter((page) => page.items.length).length).toBe(3);
  });

  it('combines with the other filters', async () => {
    const sent = await ok(invoicePage('overdue=true&status=sent'));
    expect(sent.items.map((invoice) => invoice.id)).toEqual([sentOne]);
    expect(sent.total).toBe(1);
    const drafts = await ok(invoicePage('overdue=true&status=draft'));
    expect(drafts).toEqual({ items: [], continuationToken: null, total: 0 });
  });

  it('filters nothing when overdue is false or absent, and counts every invoice', async () => {
    const unfiltered = await ok(invoicePage('pageSize=200'));
    const notOverdue = await ok(invoicePage('overdue=false&pageSize=200'));
    expect(notOverdue.items.map((invoice) => invoice.id)).toEqual(
      unfiltered.items.map((invoice) => invoice.id),
    );
    expect([...notOverdue.items.map((invoice) => invoice.id)].sort()).toEqual([...allIds].sort());
    expect(notOverdue.total).toBe(allIds.length);
    expect(unfiltered.total).toBe(allIds.length);
    // Newest first, as before.
    const created = notOverdue.items.map((invoice) => invoice.createdAt);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('pages the unfiltered list too, with the total on every page', async () => {
    const pages = await allInvoicePages('pageSize=2');
    expect(pages.flatMap((page) => page.items.map((invoice) => invoice.id)).sort()).toEqual(
      [...allIds].sort(),
    );
    expect(pages.every((page) => page.total === allIds.length)).toBe(true);
  });

  it('answers 400 naming overdue for anything but true or false', async () => {
    for (const value of ['maybe', '1', 'TRUE']) {
      const reply = await invoicePage(`overdue=${value}`);
      expect(reply.status, value).toBe(400);
      expect(fieldsOf(reply), value).toContain('overdue');
    }
  });

  it("never shows another account's invoices", async () => {
    const theirs = await ok(invoicePage('overdue=true', other));
    expect(theirs).toEqual({ items: [], continuationToken: null, total: 0 });
    const all = await ok(invoicePage('pageSize=200', other));
    expect(all.total).toBe(0);
  });
});

interface StatementPage {
  statements: StatementSummary[];
  continuationToken: string | null;
}

const statementPage = (query: string, owner = house) =>
  domain<StatementPage>('GET', `/settlements?${query}`, { token: owner.token });

async function allStatementPages(query: string) {
  const pages: StatementPage[] = [];
  let token: string | null = null;
  do {
    const page: StatementPage = await ok(
      statementPage(`${query}${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`),
    );
    pages.push(page);
    token = page.continuationToken;
  } while (token && pages.length < 50);
  return pages;
}

describe('settlement statements, a page at a time (GET /settlements)', () => {
  let auctionId: string;
  let newestFirst: string[];

  beforeAll(async () => {
    const dee = await buyer('Dee');
    const auction = await closedSale([
      { bidder: dee, hammer: 10_000, consignor: 'Ada Consignor' },
      { bidder: dee, hammer: 20_000, consignor: 'Bea Consignor' },
      { bidder: dee, hammer: 30_000, consignor: 'Cy Consignor' },
    ]);
    auctionId = auction.id;
    const built = await ok(
      domain<BuildResult>('POST', `/auctions/${auctionId}/settlements`, { token: house.token }),
      201,
    );
    expect(built.created).toBe(3);
    const whole = await ok(statementPage(`auctionId=${auctionId}`));
    expect(whole.statements).toHaveLength(3);
    expect(whole.continuationToken).toBeNull();
    newestFirst = whole.statements.map((statement) => statement.id);
    const created = whole.statements.map((statement) => statement.createdAt);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('pages with pageSize and continuation tokens, in the same order as one page', async () => {
    const pages = await allStatementPages(`auctionId=${auctionId}&pageSize=1`);
    expect(pages.every((page) => page.statements.length <= 1)).toBe(true);
    expect(pages.flatMap((page) => page.statements.map((statement) => statement.id))).toEqual(
      newestFirst,
    );
    expect(pages.at(-1)?.continuationToken).toBeNull();
  });

  it('still takes limit (the earlier name); pageSize wins when both are given', async () => {
    const byLimit = await allStatementPages(`auctionId=${auctionId}&limit=2`);
    expect(byLimit[0]?.statements).toHaveLength(2);
    expect(byLimit.flatMap((page) => page.statements.map((statement) => statement.id))).toEqual(
      newestFirst,
    );
    const both = await ok(statementPage(`auctionId=${auctionId}&limit=3&pageSize=1`));
    expect(both.statements.map((statement) => statement.id)).toEqual(newestFirst.slice(0, 1));
    expect(both.continuationToken).not.toBeNull();
  });

  it('answers 400 naming a bad page size or token', async () => {
    const zero = await statementPage('pageSize=0');
    expect(zero.status).toBe(400);
    expect(fieldsOf(zero)).toContain('pageSize');
    const tooMany = await statementPage('pageSize=201');
    expect(tooMany.status).toBe(400);
    expect(fieldsOf(tooMany)).toContain('pageSize');
    const badToken = await statementPage('continuationToken=x');
    expect(badToken.status).toBe(400);
    expect(fieldsOf(badToken)).toContain('continuationToken');
  });

  it("never shows another account's statements", async () => {
    const theirs = await ok(statementPage('pageSize=1', other));
    expect(theirs).toEqual({ statements: [], continuationToken: null });
    const byAuction = await ok(statementPage(`auctionId=${auctionId}`, other));
    expect(byAuction.statements).toEqual([]);
  });
});
