import { beforeAll, describe, expect, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type { LegalCase, TimelineEntry } from '../../functions/src/legal/legal.schema.js';
import { createAuction } from '../support/auctions.js';
import {
  DAY,
  codeOf,
  createBidder,
  daysAgo,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  messageOf,
  signedInToken,
  strongStats,
  type Bidder,
  type Owner,
} from '../support/bidders.js';
import { database, demo, outbox } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The reminders run in this process, with a clock the test sets, against the same local stack.
usePlatformEnvironment();
const { runCaseAutomation } = await import('../../functions/src/legal/automation.service.js');
const { createLogger } = await import('../../functions/src/platform/logging.js');
const log = createLogger(() => undefined, 'error');

let house: Owner;
let other: Owner;

beforeAll(async () => {
  [house, other] = await Promise.all([freshOwner(), freshOwner()]);
});

const later = (ms: number) => new Date(Date.now() + ms);

/** A bidder the rules approve at once, with an address the reminders go to. */
const buyer = (name: string) =>
  createBidder(house.token, {
    firstName: name,
    lastName: 'Buyer',
    email: `${name.toLowerCase()}-${Date.now()}@example.com`,
    stats: strongStats(),
  });

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

/** An auction whose lots sold as given (hammer in cents per buyer), closed `closedDaysAgo` ago. */
async function soldTo(sales: [Bidder, number][], closedDaysAgo: number | null = 10) {
  const auction = await createAuction(house.token, { title: `Sale ${Date.now()}` });
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
    expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  }
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token: house.token }));
  for (const [index, [bidder, hammer]] of sales.entries()) {
    await ok(
      domain('PUT', `/auctions/${auction.id}/lots/${lots[index]?.id}/result`, {
        token: house.token,
        body: { outcome: 'sold', hammer, bidderId: bidder.id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/close`, { token: house.token }));
  if (closedDaysAgo !== null) await closedAgo(auction.id, closedDaysAgo);
  return auction;
}

/** Moves an auction's close back in time, as if the sale had been that many days ago. */
async function closedAgo(auctionId: string, days: number) {
  const { db, dispose } = await database();
  try {
    const item = db.container('auctions').item(auctionId, house.accountId);
    const { resource } = await item.read<Record<string, unknown>>();
    await item.replace({ ...resource, closedAt: daysAgo(days) });
  } finally {
    dispose();
  }
}

const file = (auctionId: string, bidderId: string, token = house.token) =>
  domain<LegalCase>('POST', '/cases/non-paying-bidder', {
    token,
    body: { auctionId, bidderId, jurisdiction: 'Massachusetts', priority: 'high' },
  });

const read = async (id: string) =>
  ok(domain<LegalCase>('GET', `/cases/${id}`, { token: house.token }));

const move = (id: string, to: string) =>
  ok(
    domain<LegalCase>('POST', `/cases/${id}/status`, {
      token: house.token,
      body: { to, reason: `To ${to}` },
    }),
  );

const pay = (id: string, amount: number, token = house.token) =>
  domain<LegalCase>('POST', `/cases/${id}/purchase-payment`, {
    token,
    body: { amount, receivedOn: new Date().toISOString().slice(0, 10), reference: 'Wire 1182' },
  });

/** Registers the bidder for a new auction of the house and answers the rules' decision. */
async function registration(bidder: Bidder) {
  const auction = await createAuction(house.token, { title: `Next sale ${Date.now()}` });
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token: house.token }));
  return ok(
    domain<Registration>('POST', `/auctions/${auction.id}/register`, {
      token: house.token,
      body: { bidderId: bidder.id },
    }),
    201,
  );
}

describe('filing a non-paying-bidder case', () => {
  it('takes the unpaid purchase of a closed sale, 5 to 45 days after it', async () => {
    const alice = await buyer('Alice');
    const bob = await buyer('Bob');
    const scoreBefore = (await getBidder(house.token, alice.id)).body.lotwiseScore.score;
    const sale = await soldTo(
      [
        [alice, 150_000],
        [alice, 50_000],
        [bob, 80_000],
      ],
      null,
    );

    const early = await file(sale.id, alice.id);
    expect(early.status).toBe(409);
    expect(messageOf(early)).toContain('not overdue yet');
    await closedAgo(sale.id, 46);
    expect(messageOf(await file(sale.id, alice.id))).toContain('within 45 days of the sale');
    await closedAgo(sale.id, 6);

    const filed = await ok(file(sale.id, alice.id), 201);
    expect(filed).toMatchObject({
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'high',
      status: 'SUBMITTED',
      title: 'Non-paying bidder: Alice Buyer',
      claimAmount: 200_000,
      currency: 'USD',
      bidder: { id: alice.id, name: 'Alice Buyer' },
      auction: { id: sale.id },
      defendant: { name: 'Alice Buyer', email: alice.email },
      nonPayment: {
        amountDue: 200_000,
        lots: [
          { lotNumber: '1', hammer: 150_000 },
          { lotNumber: '2', hammer: 50_000 },
        ],
        reminders: [],
        payment: null,
        strike: true,
      },
    });
    // An open payment dispute: it counts in the bidder's history and the score falls.
    const disputed = (await getBidder(house.token, alice.id)).body;
    expect(disputed.stats.disputes).toBe(1);
    expect(disputed.lotwiseScore.score).toBeLessThan(scoreBefore);

    const again = await file(sale.id, alice.id);
    expect(again.status).toBe(409);
    expect(messageOf(again)).toContain(`${filed.caseNumber} is already`);
  });

  it('files one case per purchase when two are filed at once', async () => {
    const carol = await buyer('Carol');
    const sale = await soldTo([[carol, 40_000]]);
    const replies = await Promise.all([file(sale.id, carol.id), file(sale.id, carol.id)]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    const cases = await ok(
      domain<{ cases: LegalCase[] }>('GET', `/listLegalCases?bidderId=${carol.id}`, {
        token: house.token,
      }),
    );
    expect(cases.cases).toHaveLength(1);

    // Deleting the case frees the purchase for a new one.
    const only = cases.cases[0] as LegalCase;
    await ok(domain('DELETE', `/cases/${only.id}`, { token: house.token }), 204);
    expect((await getBidder(house.token, carol.id)).body.stats.disputes).toBe(0);
    await ok(file(sale.id, carol.id), 201);
  });

  it('refuses what is not an unpaid purchase, naming the field', async () => {
    const dora = await buyer('Dora');
    const erin = await buyer('Erin');
    const sale = await soldTo([[dora, 30_000]]);
    expect(fieldsOf(await file(sale.id, erin.id))).toEqual(['bidderId']);
    expect(fieldsOf(await file('no-such-auction', dora.id))).toEqual(['auctionId']);
    expect(fieldsOf(await file(sale.id, 'no-such-bidder'))).toEqual(['bidderId']);
    const open = await createAuction(house.token);
    expect(fieldsOf(await file(open.id, dora.id))).toEqual(['auctionId']);
    const blank = await domain('POST', '/cases/non-paying-bidder', {
      token: house.token,
      body: { auctionId: sale.id, bidderId: dora.id, jurisdiction: ' ' },
    });
    expect(fieldsOf(blank)).toEqual(['jurisdiction']);
  });

  it('is refused to a viewer, and another account sees neither the sale nor the case', async () => {
    const viewer = await signedInToken(demo.viewer);
    expect((await file('any', 'any', viewer)).status).toBe(403);
    const fay = await buyer('Fay');
    const sale = await soldTo([[fay, 25_000]]);
    expect(fieldsOf(await file(sale.id, fay.id, other.token))).toEqual(['auctionId']);
    const filed = await ok(file(sale.id, fay.id), 201);
    expect((await pay(filed.id, 25_000, other.token)).status).toBe(404);
    expect(codeOf(await pay(filed.id, 25_000, other.token))).toBe('not_found');
  });
});

describe('reminders, strikes and payment', () => {
  it('reminds the bidder three times, a week apart, once however often it runs', async () => {
    const gail = await buyer('Gail');
    const sale = await soldTo([[gail, 60_000]]);
    const filed = await ok(file(sale.id, gail.id), 201);
    const reminders = async () =>
      (await outbox(gail.email as string)).filter(
        (message) => message.kind === 'non-payment-reminder',
      );

    await runCaseAutomation(log, later(60_000));
    await runCaseAutomation(log, later(60_000));
    expect(await reminders()).toHaveLength(1);
    const [first] = await reminders();
    expect(first?.subject).toBe(`Payment reminder 1 of 3: ${sale.title}`);
    expect(first?.text).toContain('$600.00 is due for lot 1');
    expect(first?.text).toContain(filed.caseNumber);

    await runCaseAutomation(log, later(6 * DAY));
    expect(await reminders()).toHaveLength(1);
    await runCaseAutomation(log, later(7 * DAY + 120_000));
    await runCaseAutomation(log, later(14 * DAY + 180_000));
    await runCaseAutomation(log, later(21 * DAY + 240_000));
    const sent = await reminders();
    expect(sent.map((message) => message.subject).sort()).toEqual(
      [1, 2, 3].map((n) => `Payment reminder ${n} of 3: ${sale.title}`),
    );
    expect(
      sent.find((message) => message.subject.startsWith('Payment reminder 3'))?.text,
    ).toContain('last reminder');
    const after = await read(filed.id);
    expect(after.nonPayment?.reminders).toHaveLength(3);
    expect(after.nonPayment?.nextReminderAt).toBeNull();
    const timeline = (
      await ok(
        domain<{ entries: TimelineEntry[] }>('GET', `/cases/${filed.id}/timeline`, {
          token: house.token,
        }),
      )
    ).entries;
    expect(timeline.filter((entry) => entry.action.startsWith('Payment reminder'))).toHaveLength(3);
    expect(
      timeline.every((entry) => !entry.action.startsWith('Payment reminder') || entry.automated),
    ).toBe(true);
  });

  it('sends no reminder while the case automation is paused', async () => {
    const hana = await buyer('Hana');
    const sale = await soldTo([[hana, 10_000]]);
    const filed = await ok(file(sale.id, hana.id), 201);
    await ok(
      domain('POST', '/workflows/automation/toggle', {
        token: house.token,
        body: { caseId: filed.id, enabled: false },
      }),
    );
    // The stack's own five-minute timer may have sent the first reminder before the pause landed;
    // from the pause on, nothing more goes out however late the run.
    const paused = (await read(filed.id)).nonPayment?.reminders ?? [];
    const mailed = (await outbox(hana.email as string)).length;
    expect(paused.length).toBeLessThanOrEqual(1);
    await runCaseAutomation(log, later(8 * DAY));
    expect((await read(filed.id)).nonPayment?.reminders).toEqual(paused);
    expect(await outbox(hana.email as string)).toHaveLength(mailed);
  });

  it('denies registrations at two strikes; paying clears one, dismissing another', async () => {
    const ivan = await buyer('Ivan');
    // Bought in three sales, before any case: an open case alone already denies by default
    // (the automation rules' auto-deny checks disputes).
    const sales = [await soldTo([[ivan, 20_000]]), await soldTo([[ivan, 35_000]])];
    const third = await soldTo([[ivan, 5_000]]);
    const [first, second] = [
      await ok(file(sales[0]!.id, ivan.id), 201),
      await ok(file(sales[1]!.id, ivan.id), 201),
    ];
    // Lost by the bidder (resolved unpaid): no longer open disputes, still strikes.
    for (const filed of [first, second]) {
      await move(filed.id, 'PENDING');
      await move(filed.id, 'IN REVIEW');
      expect((await move(filed.id, 'RESOLVED')).nonPayment?.strike).toBe(true);
    }
    expect((await getBidder(house.token, ivan.id)).body.stats.disputes).toBe(0);
    const denied = await registration(ivan);
    expect(denied.status).toBe('denied');
    expect(denied.reasons).toEqual([
      '2 non-paying-bidder strikes: unpaid purchases with open or lost cases',
    ]);

    const short = await pay(first.id, 19_999);
    expect(fieldsOf(short)).toEqual(['amount']);
    expect(messageOf(short)).toContain('$200.00');
    const paid = await ok(pay(first.id, 20_000));
    expect(paid.status).toBe('RESOLVED');
    expect(paid.nonPayment).toMatchObject({
      strike: false,
      nextReminderAt: null,
      payment: { amount: 20_000, reference: 'Wire 1182' },
    });
    expect((await pay(first.id, 20_000)).status).toBe(409);
    expect((await registration(ivan)).status).toBe('approved');

    const open = await ok(file(third.id, ivan.id), 201);
    expect((await registration(ivan)).reasons).toEqual([
      '2 non-paying-bidder strikes: unpaid purchases with open or lost cases',
    ]);
    // Dismissed, a case no longer holds against the bidder.
    expect((await move(open.id, 'DISMISSED')).nonPayment?.strike).toBe(false);
    expect((await registration(ivan)).status).toBe('approved');
  });

  it('resolves a case in review when the purchase is paid, and refuses other cases', async () => {
    const jude = await buyer('Jude');
    const filed = await ok(file((await soldTo([[jude, 12_345]])).id, jude.id), 201);
    await move(filed.id, 'PENDING');
    await move(filed.id, 'IN REVIEW');
    const paid = await ok(pay(filed.id, 12_345));
    expect(paid.status).toBe('RESOLVED');
    expect(paid.nonPayment?.strike).toBe(false);

    const plain = await ok(
      domain<LegalCase>('POST', '/cases', {
        token: house.token,
        body: {
          caseType: 'payment_dispute',
          category: 'post_sale',
          priority: 'low',
          title: 'Not about a purchase',
          jurisdiction: 'Maine',
        },
      }),
      201,
    );
    expect(plain.nonPayment).toBeNull();
    expect((await pay(plain.id, 100)).status).toBe(409);
  });
});
