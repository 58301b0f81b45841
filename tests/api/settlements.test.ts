import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type {
  Agreement,
  BuildResult,
  Statement,
  StatementSummary,
} from '../../functions/src/payments/settlements/settlements.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  strongStats,
  type BidderWrite,
  type Owner,
} from '../support/bidders.js';
import {
  GOOD_PASSWORD,
  call,
  ifMatch,
  latestMail,
  linkParam,
  signedIn,
  signup,
  uniqueEmail,
} from '../support/identity.js';

const fees0 = { perLot: 0, insuranceBps: 0, buyBackBps: 0 };

let house: Owner;
let other: Owner;
let plain: Owner;

beforeAll(async () => {
  [house, other, plain] = await Promise.all([ownerWithAddOns(), ownerWithAddOns(), freshOwner()]);
});

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

const buyer = (firstName: string, lastName = 'Buyer') =>
  createBidder(house.token, {
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}-${Date.now()}@example.com`,
    stats: strongStats(),
  });

interface Sale {
  consignor: string;
  buyer: BidderWrite;
  hammer: number;
}

/** A Completed auction whose lots (with their consignors) sold as given, and its invoices. */
async function sale(sales: Sale[], token = house.token) {
  const auction = await createAuction(token, { title: `Consigned ${Date.now()}` });
  const lots: Lot[] = [];
  for (const [index, { consignor }] of sales.entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token,
          body: {
            lotNumber: String(index + 1),
            title: `Lot ${index + 1}`,
            consignor: { name: consignor, contact: '' },
          },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token }));
  for (const bidderId of new Set(sales.map((one) => one.buyer.id))) {
    const registration = await ok(
      domain<Registration>('POST', `/auctions/${auction.id}/register`, {
        token,
        body: { bidderId },
      }),
      201,
    );
    expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  }
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token }));
  for (const [index, one] of sales.entries()) {
    await ok(
      domain('PUT', `/auctions/${auction.id}/lots/${lots[index]?.id}/result`, {
        token,
        body: { outcome: 'sold', hammer: one.hammer, bidderId: one.buyer.id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/close`, { token }));
  await ok(domain('POST', `/payments/auctions/${auction.id}/invoices`, { token }));
  return { auction, lots };
}

interface InvoiceRow {
  id: string;
  bidderId: string;
  balance: number;
}

/** The buyer pays their whole invoice for the auction in cash, recorded by the house. */
async function pays(auctionId: string, bidder: BidderWrite) {
  const invoices = await ok(
    domain<{ items: InvoiceRow[] }>(
      'GET',
      `/payments/invoices?auctionId=${auctionId}&bidderId=${bidder.id}`,
      { token: house.token },
    ),
  );
  const invoice = invoices.items[0] as InvoiceRow;
  return ok(
    domain<{ id: string }>('POST', `/payments/invoices/${invoice.id}/payments`, {
      token: house.token,
      body: { amount: invoice.balance, method: 'Cash' },
    }),
    201,
  );
}

const build = (auctionId: string, token = house.token) =>
  domain<BuildResult>('POST', `/auctions/${auctionId}/settlements`, { token });

async function statementsOf(auctionId: string, consignor?: string) {
  const query = new URLSearchParams({ auctionId, ...(consignor ? { consignor } : {}) });
  const list = await ok(
    domain<{ statements: StatementSummary[] }>('GET', `/settlements?${query}`, {
      token: house.token,
    }),
  );
  return list.statements.sort((a, b) => a.sequence - b.sequence);
}

const read = (id: string, token = house.token) =>
  ok(domain<Statement>('GET', `/settlements/${id}`, { token }));

const approve = (statement: { id: string; etag: string }, token = house.token) =>
  domain<Statement>('POST', `/settlements/${statement.id}/approve`, {
    token,
    headers: ifMatch(statement.etag),
  });

/** A member of the house's account with a role, made through a real invitation. */
async function member(role: 'staff' | 'viewer') {
  const email = uniqueEmail(role);
  await ok(
    call('POST', '/auction-house/invite', { token: house.token, body: { email, role } }),
    201,
  );
  const code = linkParam(await latestMail(email, 'invitation'), 'invitation');
  await signup({ email, invitationCode: code });
  return (await signedIn(email, GOOD_PASSWORD)).accessToken;
}

describe('consignor settlements', () => {
  let alice: BidderWrite;
  let bob: BidderWrite;
  let beth: BidderWrite;
  let auctionId: string;
  const arthur = 'Arthur Consignor';

  beforeAll(async () => {
    [alice, bob, beth] = await Promise.all([buyer('Alice'), buyer('Bob'), buyer('Beth', 'Brown')]);
    // Beth Brown consigns at 10% with a $10 lot fee and a 5% buy-back fee; Arthur has no
    // agreement and takes the account's default (15%, no fees).
    await ok(
      domain<Agreement>('POST', '/consignor-agreements', {
        token: house.token,
        body: {
          consignorName: '  beth   BROWN ',
          commission: { kind: 'fixed', rateBps: 1000, minimumPerLot: 0 },
          fees: { perLot: 1_000, insuranceBps: 0, buyBackBps: 500 },
          payoutDetails: 'IBAN GB00 0000',
        },
      }),
      201,
    );
    const { auction } = await sale([
      { consignor: arthur, buyer: alice, hammer: 100_000 },
      { consignor: arthur, buyer: bob, hammer: 50_000 },
      { consignor: 'Beth Brown', buyer: alice, hammer: 20_000 },
      // Beth bids on her own lot and wins it: a buy-back.
      { consignor: 'Beth Brown', buyer: beth, hammer: 40_000 },
    ]);
    auctionId = auction.id;
  });

  it('pays a consignor only for lots whose buyer has paid, and builds nothing new twice', async () => {
    await pays(auctionId, alice);
    const built = await ok(build(auctionId), 201);
    expect(built).toMatchObject({ created: 2, updated: 0, unchanged: 0 });

    const [arthurs] = await statementsOf(auctionId, 'arthur consignor');
    const first = await read((arthurs as StatementSummary).id);
    expect(first).toMatchObject({
      consignorName: arthur,
      sequence: 1,
      status: 'draft',
      currency: 'USD',
      agreement: { isDefault: true, commission: { kind: 'fixed', rateBps: 1500 } },
      lines: [{ lotNumber: '1', hammer: 100_000, commission: 15_000, fees: 0, net: 85_000 }],
      pending: [{ lotNumber: '2', hammer: 50_000 }],
      totals: { hammer: 100_000, net: 85_000, pendingHammer: 50_000 },
    });

    const [beths] = await statementsOf(auctionId, 'Beth Brown');
    expect(await read((beths as StatementSummary).id)).toMatchObject({
      agreement: { isDefault: false, payoutDetails: 'IBAN GB00 0000' },
      lines: [
        { lotNumber: '3', hammer: 20_000, commission: 2_000, fees: 1_000, net: 17_000 },
        { lotNumber: '4', boughtBack: true, commission: 0, fees: 2_000, net: -2_000 },
      ],
      totals: { hammer: 20_000, commission: 2_000, fees: 1_000, buyBackFees: 2_000, net: 15_000 },
    });

    expect(await ok(build(auctionId))).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
  });

  it('closes a statement on approval; a later payment makes a new one', async () => {
    const [draft] = await statementsOf(auctionId, arthur);
    const current = draft as StatementSummary;

    const stale = await approve({ id: current.id, etag: `${current.id}-r99` });
    expect(stale.status).toBe(412);

    const approved = await ok(approve(current));
    expect(approved).toMatchObject({
      status: 'approved',
      approvedBy: { name: expect.any(String) },
    });
    const again = await approve(approved);
    expect(again.status).toBe(409);

    await pays(auctionId, bob);
    expect(await ok(build(auctionId), 201)).toMatchObject({ created: 1, unchanged: 1 });
    const [first, second] = await statementsOf(auctionId, arthur);
    expect(await read((first as StatementSummary).id)).toMatchObject({
      status: 'approved',
      lines: [{ lotNumber: '1' }],
      totals: { net: 85_000 },
    });
    expect(await read((second as StatementSummary).id)).toMatchObject({
      sequence: 2,
      status: 'draft',
      lines: [{ lotNumber: '2', hammer: 50_000, commission: 7_500, net: 42_500 }],
      adjustments: [],
      pending: [],
    });
    expect(await ok(build(auctionId))).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
  });

  it('records the payout of an approved statement, with its reference', async () => {
    const [first, second] = await statementsOf(auctionId, arthur);
    const paidOn = '2031-05-01';
    const refused = await domain('POST', `/settlements/${second?.id}/mark-paid`, {
      token: house.token,
      headers: ifMatch(second?.etag),
      body: { payoutReference: 'BACS-1', paidOn },
    });
    expect(refused.status).toBe(409);
    const bad = await domain('POST', `/settlements/${first?.id}/mark-paid`, {
      token: house.token,
      headers: ifMatch(first?.etag),
      body: { paidOn: '2031-02-30' },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad).sort()).toEqual(['paidOn', 'payoutReference']);
    const paid = await ok(
      domain<Statement>('POST', `/settlements/${first?.id}/mark-paid`, {
        token: house.token,
        headers: ifMatch(first?.etag),
        body: { payoutReference: 'BACS-1', paidOn },
      }),
    );
    expect(paid).toMatchObject({ status: 'paid', payoutReference: 'BACS-1', paidOn });
    const statusFiltered = await ok(
      domain<{ statements: StatementSummary[] }>(
        'GET',
        `/settlements?auctionId=${auctionId}&status=paid`,
        { token: house.token },
      ),
    );
    expect(statusFiltered.statements.map((one) => one.id)).toEqual([first?.id]);
  });

  it('takes a refund after the payout back on the consignor’s next statement', async () => {
    const [, open] = await statementsOf(auctionId, arthur);
    await ok(approve(open as StatementSummary));
    const payments = await ok(
      domain<{ items: { id: string; bidderId: string }[] }>(
        'GET',
        `/payments/transactions?auctionId=${auctionId}&bidderId=${alice.id}`,
        { token: house.token },
      ),
    );
    await ok(
      domain('POST', `/payments/transactions/${payments.items[0]?.id}/refunds`, {
        token: house.token,
        body: { reason: 'Returned' },
      }),
      201,
    );
    // Arthur's lot 1 was settled and paid out: a new statement takes it back. Beth's draft, not
    // yet approved, simply drops lot 3.
    expect(await ok(build(auctionId), 201)).toMatchObject({ created: 1, updated: 1 });
    const [first, second, third] = await statementsOf(auctionId, arthur);
    expect(first).toMatchObject({ status: 'paid', totals: { net: 85_000 } });
    expect(second).toMatchObject({ status: 'approved', totals: { net: 42_500 } });
    expect(await read((third as StatementSummary).id)).toMatchObject({
      sequence: 3,
      lines: [],
      adjustments: [{ lotNumber: '1', reason: 'refunded', amount: -85_000, reverses: first?.id }],
      totals: { adjustments: -85_000, net: -85_000 },
    });
    const [beths] = await statementsOf(auctionId, 'Beth Brown');
    expect(await read((beths as StatementSummary).id)).toMatchObject({
      lines: [{ lotNumber: '4', boughtBack: true }],
      pending: [],
      totals: { net: -2_000 },
    });
    expect(await ok(build(auctionId))).toMatchObject({ created: 0, updated: 0 });
  });

  it('downloads a statement as a PDF', async () => {
    const [first] = await statementsOf(auctionId, arthur);
    const response = await fetch(`${inject('domainUrl')}/settlements/${first?.id}/statement.pdf`, {
      headers: { authorization: `Bearer ${house.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="statement-Arthur-Consignor-1-\d{4}-\d{2}-\d{2}\.pdf"/,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('is the account’s own and the add-on’s: 404 elsewhere, 403 without it', async () => {
    const [first] = await statementsOf(auctionId, arthur);
    const id = (first as StatementSummary).id;
    expect((await domain('GET', `/settlements/${id}`, { token: other.token })).status).toBe(404);
    const pdf = await fetch(`${inject('domainUrl')}/settlements/${id}/statement.pdf`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(pdf.status).toBe(404);
    expect((await build(auctionId, other.token)).status).toBe(404);
    expect((await approve({ id, etag: first?.etag ?? '' }, other.token)).status).toBe(404);

    const noAddOn = await domain('GET', '/settlements', { token: plain.token });
    expect(noAddOn.status).toBe(403);
    expect(messageOf(noAddOn)).toBe('Access denied: payments feature not available in your plan');
    expect((await domain('GET', '/consignor-agreements', { token: plain.token })).status).toBe(403);
  });

  it('lets a viewer read but not build, approve or record payouts', async () => {
    const [viewer, staff] = await Promise.all([member('viewer'), member('staff')]);
    const [, second] = await statementsOf(auctionId, arthur);
    const summary = second as StatementSummary;
    expect((await domain('GET', `/settlements/${summary.id}`, { token: viewer })).status).toBe(200);
    for (const token of [viewer, staff]) {
      const refused = [
        await build(auctionId, token),
        await approve(summary, token),
        await domain('POST', `/settlements/${summary.id}/mark-paid`, {
          token,
          headers: ifMatch(summary.etag),
          body: { payoutReference: 'X', paidOn: '2031-05-01' },
        }),
        await domain('POST', '/consignor-agreements', {
          token,
          body: { consignorName: 'Nobody', commission: { kind: 'none' }, fees: fees0 },
        }),
      ];
      expect(refused.map((reply) => reply.status)).toEqual([403, 403, 403, 403]);
    }
  });

  it('makes each statement once when two builds land together, and approves it once', async () => {
    const { auction } = await sale([
      { consignor: 'Dana Duo', buyer: alice, hammer: 10_000 },
      { consignor: 'Evan Duo', buyer: bob, hammer: 20_000 },
    ]);
    const builds = await Promise.all([build(auction.id), build(auction.id), build(auction.id)]);
    expect(builds.map((reply) => reply.status).every((status) => [200, 201].includes(status))).toBe(
      true,
    );
    expect(builds.reduce((sum, reply) => sum + reply.body.created, 0)).toBe(2);
    const statements = await statementsOf(auction.id);
    expect(statements.map((one) => one.consignorName).sort()).toEqual(['Dana Duo', 'Evan Duo']);

    const [dana] = await statementsOf(auction.id, 'Dana Duo');
    const approvals = await Promise.all([
      approve(dana as StatementSummary),
      approve(dana as StatementSummary),
    ]);
    expect(approvals.map((reply) => reply.status).sort()).toEqual([200, 412]);
  });

  it('builds only for a Completed auction', async () => {
    const open = await createAuction(house.token);
    const reply = await build(open.id);
    expect(reply.status).toBe(409);
    expect(messageOf(reply)).toContain('Completed');
    expect((await build('no-such-auction')).status).toBe(404);
  });
});

describe('consignor agreements', () => {
  it('are made once per consignor, changed over their ETag and removed', async () => {
    const created = await ok(
      domain<Agreement>('POST', '/consignor-agreements', {
        token: house.token,
        body: {
          consignorName: 'Cora Cole',
          commission: {
            kind: 'cumulative',
            scale: [
              { upTo: 100_000, rateBps: 2000 },
              { upTo: null, rateBps: 1000 },
            ],
            minimumPerLot: 500,
          },
          fees: fees0,
        },
      }),
      201,
    );
    const twice = await domain('POST', '/consignor-agreements', {
      token: house.token,
      body: { consignorName: 'CORA  cole', commission: { kind: 'none' }, fees: fees0 },
    });
    expect(twice.status).toBe(409);

    const path = `/consignor-agreements/${created.id}`;
    const body = { consignorName: 'Cora Cole', commission: { kind: 'none' }, fees: fees0 };
    const changed = await ok(
      domain<Agreement>('PUT', path, { token: house.token, body, headers: ifMatch(created.etag) }),
    );
    expect(changed.commission).toEqual({ kind: 'none' });
    const stale = await domain('PUT', path, {
      token: house.token,
      body,
      headers: ifMatch(created.etag),
    });
    expect(stale.status).toBe(412);
    const renamed = await domain('PUT', path, {
      token: house.token,
      body: { ...body, consignorName: 'Someone Else' },
      headers: ifMatch(changed.etag),
    });
    expect(fieldsOf(renamed)).toEqual(['consignorName']);
    expect((await domain('GET', path, { token: other.token })).status).toBe(404);

    const listed = await ok(
      domain<{ agreements: Agreement[] }>('GET', '/consignor-agreements?limit=200', {
        token: house.token,
      }),
    );
    expect(listed.agreements.map((one) => one.consignorName)).toContain('Cora Cole');

    await ok(domain('DELETE', path, { token: house.token, headers: ifMatch(changed.etag) }), 204);
    expect((await domain('GET', path, { token: house.token })).status).toBe(404);
  });

  it('refuses bad terms, naming the field', async () => {
    const reply = await domain('POST', '/consignor-agreements', {
      token: house.token,
      body: {
        consignorName: '',
        commission: {
          kind: 'sliding',
          scale: [
            { upTo: 100, rateBps: 2000 },
            { upTo: 50, rateBps: 1000 },
          ],
          minimumPerLot: -1,
        },
        fees: { ...fees0, insuranceBps: 10_001 },
      },
    });
    expect(reply.status).toBe(400);
    expect(codeOf(reply)).toBe('validation_failed');
    expect(fieldsOf(reply).sort()).toEqual([
      'commission.minimumPerLot',
      'commission.scale.1.upTo',
      'consignorName',
      'fees.insuranceBps',
    ]);
  });

  it('has a documented default the house may change', async () => {
    const fresh = await ok(
      domain<Agreement>('GET', '/consignor-agreements/default', { token: other.token }),
    );
    expect(fresh).toMatchObject({
      isDefault: true,
      commission: { kind: 'fixed', rateBps: 1500, minimumPerLot: 0 },
      fees: fees0,
      etag: 'agreement-default-r0',
    });
    const terms = {
      commission: { kind: 'fixed', rateBps: 2000, minimumPerLot: 1_000 },
      fees: fees0,
      payoutDetails: '',
    };
    const saved = await ok(
      domain<Agreement>('PUT', '/consignor-agreements/default', {
        token: other.token,
        body: terms,
        headers: ifMatch(fresh.etag),
      }),
    );
    expect(saved).toMatchObject({ commission: terms.commission, etag: 'agreement-default-r1' });
    const stale = await domain('PUT', '/consignor-agreements/default', {
      token: other.token,
      body: terms,
      headers: ifMatch(fresh.etag),
    });
    expect(stale.status).toBe(412);
  });
});
