import { randomUUID } from 'node:crypto';
import type { Timer } from '@azure/functions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type { ScoreChange } from '../../functions/src/bidders/bidders.schema.js';
import type { TimerFunction } from '../../functions/src/platform/functions.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  signedInToken,
  strongStats,
  type Bidder,
  type Owner,
} from '../support/bidders.js';
import { call, demo, ifMatch, outbox } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The go-live timer runs in this process against the same local stack.
usePlatformEnvironment();

let owner: Owner;
let houseId: string | null;
let staff: string;
let viewer: string;
let lakeside: string;

/** The account's first house, or null when it has none yet. */
async function houseOf(token: string) {
  const reply = await call<{ houses: { id: string; timezone: string }[] }>(
    'GET',
    '/accounts/current/auction-houses',
    { token },
  );
  return reply.body.houses[0]?.id ?? null;
}

beforeAll(async () => {
  owner = await freshOwner();
  houseId = await houseOf(owner.token);
  staff = await signedInToken(demo.staff);
  viewer = await signedInToken(demo.viewer);
  lakeside = await signedInToken(demo.lakesideOwner);
});

const auctionInput = (overrides: Record<string, unknown> = {}) => ({
  title: 'Spring Fine Art',
  category: 'art',
  startDate: '2031-04-10',
  startTime: '18:00',
  endDate: '2031-04-10',
  endTime: '22:00',
  timeZone: 'America/New_York',
  auctionHouseId: houseId,
  buyersPremium: 25,
  ...overrides,
});

async function createAuction(token = owner.token, overrides: Record<string, unknown> = {}) {
  const reply = await domain<Auction>('POST', '/auctions', {
    token,
    body: auctionInput(overrides),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

const lot = (lotNumber: string, overrides: Record<string, unknown> = {}) => ({
  lotNumber,
  title: `Lot ${lotNumber}`,
  category: 'Art',
  estimateLow: 100_000,
  estimateHigh: 200_000,
  ...overrides,
});

describe('auctions', () => {
  it('creates a Draft with real instants in the house time zone, and reads it back', async () => {
    const auction = await createAuction();
    expect(auction).toMatchObject({
      status: 'Draft',
      startsAt: '2031-04-10T22:00:00.000Z',
      startDate: '2031-04-10',
      startTime: '18:00',
      currency: 'USD',
      currencySymbol: '$',
      registrationRequired: true,
      allowedStatuses: ['Upcoming', 'Cancelled'],
      importedFrom: null,
    });
    const read = await domain<Auction>('GET', `/auctions/${auction.id}`, { token: owner.token });
    expect(read.body.title).toBe('Spring Fine Art');
    expect(read.headers.get('etag')).toBe(`"${auction.etag}"`);
  });

  it('names the field of bad input: an end before the start, a skipped hour, a foreign house', async () => {
    const backwards = await domain('POST', '/auctions', {
      token: owner.token,
      body: auctionInput({ endDate: '2031-04-09' }),
    });
    expect(backwards.status).toBe(400);
    expect(fieldsOf(backwards)).toEqual(['endDate']);
    const skipped = await domain('POST', '/auctions', {
      token: owner.token,
      body: auctionInput({ startDate: '2031-03-09', startTime: '02:30', endDate: '2031-03-09' }),
    });
    expect(fieldsOf(skipped)).toEqual(['startTime']);
    const foreign = await domain('POST', '/auctions', {
      token: owner.token,
      body: auctionInput({ auctionHouseId: await houseOf(lakeside) }),
    });
    expect(fieldsOf(foreign)).toEqual(['auctionHouseId']);
    const notADate = await domain('POST', '/auctions', {
      token: owner.token,
      body: auctionInput({ startDate: '2031-02-30' }),
    });
    expect(fieldsOf(notADate)).toEqual(['startDate']);
  });

  it('answers another tenant 404, a viewer 403, and a stale ETag 412', async () => {
    const auction = await createAuction();
    expect((await domain('GET', `/auctions/${auction.id}`, { token: lakeside })).status).toBe(404);
    expect(
      (await domain('POST', '/auctions', { token: viewer, body: auctionInput() })).status,
    ).toBe(403);
    const first = await domain<Auction>('PUT', `/auctions/${auction.id}`, {
      token: owner.token,
      body: { title: 'Spring Fine Art I' },
      headers: ifMatch(auction.etag),
    });
    expect(first.status).toBe(200);
    const second = await domain('PUT', `/auctions/${auction.id}`, {
      token: owner.token,
      body: { title: 'Spring Fine Art II' },
      headers: ifMatch(auction.etag),
    });
    expect(second.status).toBe(412);
  });

  it('keeps an open edit current while lots are added (counters are not the edit)', async () => {
    const auction = await createAuction();
    await domain('POST', `/auctions/${auction.id}/lots`, { token: owner.token, body: lot('1') });
    const saved = await domain<Auction>('PUT', `/auctions/${auction.id}`, {
      token: owner.token,
      body: { description: 'Paintings and drawings' },
      headers: ifMatch(auction.etag),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.lotCount).toBe(1);
  });

  it('allows only the lifecycle moves, and staff cannot publish', async () => {
    const auction = await createAuction();
    const jump = await domain('PUT', `/auctions/${auction.id}`, {
      token: owner.token,
      body: { status: 'Active' },
      headers: ifMatch(auction.etag),
    });
    expect(jump.status).toBe(409);
    expect(messageOf(jump)).toContain('Upcoming or Cancelled');
    expect(
      (await domain('POST', `/auctions/${auction.id}/close`, { token: owner.token })).status,
    ).toBe(409);
    const lakesideStaffless = await domain('POST', `/auctions/${auction.id}/publish`, {
      token: staff,
    });
    // Staff of Harborview: no publish permission, whatever the auction.
    expect(lakesideStaffless.status).toBe(403);
    const published = await domain<Auction>('POST', `/auctions/${auction.id}/publish`, {
      token: owner.token,
    });
    expect(published.body.status).toBe('Upcoming');
    const cancelWithout = await domain('PUT', `/auctions/${auction.id}`, {
      token: owner.token,
      body: { status: 'Cancelled' },
      headers: ifMatch(published.body.etag),
    });
    expect(fieldsOf(cancelWithout)).toEqual(['statusReason']);
  });

  it('lists with filters, search, sort and numbered pages', async () => {
    const house = await freshOwner();
    const hid = await houseOf(house.token);
    for (const [index, title] of ['Alpha Coins', 'beta Watches', 'Gamma Wine'].entries()) {
      await domain('POST', '/auctions', {
        token: house.token,
        body: auctionInput({
          title,
          auctionHouseId: hid,
          startDate: `2031-05-1${index}`,
          endDate: `2031-05-1${index}`,
        }),
      });
    }
    const page = await domain<{ auctions: Auction[]; total: number; page: number; limit: number }>(
      'GET',
      '/listAuctions?sortBy=title&sortOrder=asc&limit=2&page=2',
      { token: house.token },
    );
    expect(page.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.body.auctions.map((row) => row.title)).toEqual(['Gamma Wine']);
    const search = await domain<{ auctions: Auction[] }>('GET', '/listAuctions?search=BETA', {
      token: house.token,
    });
    expect(search.body.auctions.map((row) => row.title)).toEqual(['beta Watches']);
    const upcoming = await domain<{ total: number }>('GET', '/listAuctions?view=upcoming', {
      token: house.token,
    });
    expect(upcoming.body.total).toBe(3);
    const dated = await domain<{ auctions: Auction[] }>(
      'GET',
      '/listAuctions?startDate=2031-05-11&endDate=2031-05-11',
      { token: house.token },
    );
    expect(dated.body.auctions.map((row) => row.title)).toEqual(['beta Watches']);
    expect(
      fieldsOf(await domain('GET', '/listAuctions?limit=1001', { token: house.token })),
    ).toEqual(['limit']);
  });

  it('refuses to delete an auction bidders depend on, and deletes one with only lots', async () => {
    const auction = await createAuction();
    await domain('POST', `/auctions/${auction.id}/lots`, { token: owner.token, body: lot('7') });
    const bidder = await createBidder(owner.token);
    await domain('POST', `/auctions/${auction.id}/invite-bidders`, {
      token: owner.token,
      body: { bidderIds: [bidder.id] },
    });
    const refused = await domain('DELETE', `/auctions/${auction.id}`, { token: owner.token });
    expect(refused.status).toBe(409);
    expect(messageOf(refused)).toContain('1 bidder is registered or invited');
    const other = await createAuction();
    await domain('POST', `/auctions/${other.id}/lots`, { token: owner.token, body: lot('1') });
    expect((await domain('DELETE', `/auctions/${other.id}`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await domain('GET', `/auctions/${other.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('lots', () => {
  it('keeps lot numbers unique, estimates ordered, and the order as given', async () => {
    const auction = await createAuction();
    const a = (
      await domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
        token: owner.token,
        body: lot('1'),
      })
    ).body;
    const b = (
      await domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
        token: owner.token,
        body: lot('2'),
      })
    ).body;
    const twice = await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: lot('1'),
    });
    expect(fieldsOf(twice)).toEqual(['lotNumber']);
    const inverted = await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: lot('3', { estimateLow: 5, estimateHigh: 4 }),
    });
    expect(fieldsOf(inverted)).toEqual(['estimateHigh']);
    const reordered = await domain<{ lots: Lot[] }>('PUT', `/auctions/${auction.id}/lots-order`, {
      token: owner.token,
      body: { lotIds: [b.id, a.id] },
    });
    expect(reordered.body.lots.map((row) => row.lotNumber)).toEqual(['2', '1']);
    const moved = reordered.body.lots.find((row) => row.id === a.id);
    const renumbered = await domain<Lot>('PUT', `/auctions/${auction.id}/lots/${a.id}`, {
      token: owner.token,
      body: { lotNumber: '1A' },
      headers: ifMatch(moved?.etag),
    });
    expect(renumbered.status).toBe(200);
    const reuse = await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: lot('1'),
    });
    expect(reuse.status).toBe(201);
  });

  it('gives concurrent lots distinct positions and an exact count', async () => {
    const auction = await createAuction();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token: owner.token,
          body: lot(String(index + 1)),
        }),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(6).fill(201));
    const positions = replies.map((reply) => reply.body.position).sort((x, y) => x - y);
    expect(positions).toEqual([1, 2, 3, 4, 5, 6]);
    const read = await domain<Auction>('GET', `/auctions/${auction.id}`, { token: owner.token });
    expect(read.body.lotCount).toBe(6);
  });
});

describe('a sale from registration to results', () => {
  it('decides registrations by the rules, clerks, closes, and rescores the winners', async () => {
    const house = await freshOwner();
    const hid = await houseOf(house.token);
    const strong = await createBidder(house.token, {
      stats: strongStats(),
    });
    const unknown = await createBidder(house.token);
    const disputed = await createBidder(house.token, {
      stats: {
        totalAuctionsBid: 3,
        totalLotsBid: 5,
        wins: 1,
        totalWinAmount: 500,
        disputes: 2,
      },
    });
    const auction = (
      await domain<Auction>('POST', '/auctions', {
        token: house.token,
        body: auctionInput({ auctionHouseId: hid }),
      })
    ).body;
    const [first, second] = await Promise.all(
      ['1', '2'].map(
        async (number) =>
          (
            await domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
              token: house.token,
              body: lot(number),
            })
          ).body,
      ),
    );
    await domain('POST', `/auctions/${auction.id}/publish`, { token: house.token });

    const register = (bidderId: string) =>
      domain<Registration>('POST', `/auctions/${auction.id}/register`, {
        token: house.token,
        body: { bidderId },
      });
    const approved = await register(strong.id);
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ status: 'approved', decidedBy: 'rules', paddle: '101' });
    expect(approved.body.reasons.join(' ')).toContain('auto-invite threshold');
    const pending = await register(unknown.id);
    expect(pending.body).toMatchObject({ status: 'pending', bidLimit: 250_000 });
    expect(pending.body.reasons).toEqual(['No record yet: a reviewer decides']);
    const denied = await register(disputed.id);
    expect(denied.body.status).toBe('denied');
    expect(denied.body.reasons.join(' ')).toContain('2 disputes on record');
    expect((await register(strong.id)).status).toBe(409);

    const noReason = await domain(
      'POST',
      `/auctions/${auction.id}/bidders/${unknown.id}/decision`,
      {
        token: house.token,
        body: { decision: 'approve', reason: '' },
      },
    );
    expect(fieldsOf(noReason)).toEqual(['reason']);
    const reviewed = await domain<Registration>(
      'POST',
      `/auctions/${auction.id}/bidders/${unknown.id}/decision`,
      { token: house.token, body: { decision: 'approve', reason: 'Known to the saleroom' } },
    );
    expect(reviewed.body).toMatchObject({
      status: 'approved',
      limited: true,
      decidedBy: 'reviewer',
      paddle: '102',
    });

    const list = await domain<{ counts: Record<string, number> }>(
      'GET',
      `/auctions/${auction.id}/bidders`,
      {
        token: house.token,
      },
    );
    expect(list.body.counts).toMatchObject({ pending: 0, denied: 1, limited: 1 });

    await domain('POST', `/auctions/${auction.id}/go-live`, { token: house.token });
    const overLimit = await domain('PUT', `/auctions/${auction.id}/lots/${first?.id}/result`, {
      token: house.token,
      body: { outcome: 'sold', hammer: 300_000, paddle: '102' },
    });
    expect(overLimit.status).toBe(409);
    const stranger = await domain('PUT', `/auctions/${auction.id}/lots/${first?.id}/result`, {
      token: house.token,
      body: { outcome: 'sold', hammer: 150_000, paddle: '101', underbidders: [disputed.id] },
    });
    expect(fieldsOf(stranger)).toEqual(['underbidders']);
    const sold = await domain<Lot>('PUT', `/auctions/${auction.id}/lots/${first?.id}/result`, {
      token: house.token,
      body: {
        outcome: 'sold',
        hammer: 150_000,
        paddle: '101',
        bidCount: 7,
        underbidders: [unknown.id],
      },
    });
    expect(sold.body.result).toMatchObject({
      outcome: 'sold',
      buyerId: strong.id,
      hammer: 150_000,
    });
    const early = await domain('POST', `/auctions/${auction.id}/close`, { token: house.token });
    expect(early.status).toBe(409);
    expect(
      (early.body as { error: { details: { unclerked: string[] } } }).error.details.unclerked,
    ).toEqual(['2']);
    await domain('PUT', `/auctions/${auction.id}/lots/${second?.id}/result`, {
      token: house.token,
      body: { outcome: 'passed' },
    });
    const closed = await domain<Auction>('POST', `/auctions/${auction.id}/close`, {
      token: house.token,
    });
    expect(closed.body.status).toBe('Completed');

    const performance = await domain<Record<string, unknown>>(
      'GET',
      `/auctions/${auction.id}/performance`,
      {
        token: house.token,
      },
    );
    expect(performance.body).toMatchObject({
      approved: 2,
      denied: 1,
      lotsOffered: 2,
      lotsSold: 1,
      sellThroughRate: 0.5,
      hammerTotal: 150_000,
      buyersPremiumTotal: 37_500,
      bids: 7,
    });

    const winner = await domain<Bidder>('GET', `/bidders/${strong.id}`, { token: house.token });
    expect(winner.body.stats).toMatchObject({
      totalAuctionsBid: 41,
      wins: 81,
      totalWinAmount: 251_500,
    });
    const history = await domain<{
      history: { id: string; lotNumbers: string[]; auctionDate: string }[];
    }>('GET', `/bidders/${unknown.id}/history`, { token: house.token });
    expect(history.body.history).toEqual([
      expect.objectContaining({ id: `auction:${auction.id}`, totalBids: 1, wonItems: 0 }),
    ]);
    // Scheduled for 2031 but run and closed now: the record says when it took place.
    const ranOn = Date.parse(history.body.history[0]?.auctionDate ?? '');
    expect(ranOn).toBeLessThanOrEqual(Date.now());
    expect(ranOn).toBeGreaterThan(Date.now() - 10 * 60_000);
    const changes = await domain<{ changes: ScoreChange[] }>(
      'GET',
      `/bidders/${unknown.id}/score-history`,
      {
        token: house.token,
      },
    );
    expect(changes.body.changes[0]?.cause).toBe('Auction closed: Spring Fine Art');
    expect(changes.body.changes[0]?.components.length).toBeGreaterThan(0);

    // Closing again is refused and counts nothing twice.
    expect(
      (await domain('POST', `/auctions/${auction.id}/close`, { token: house.token })).status,
    ).toBe(409);
    const correction = await domain('PUT', `/auctions/${auction.id}/lots/${first?.id}/result`, {
      token: house.token,
      body: { outcome: 'sold', hammer: 160_000, paddle: '101' },
    });
    expect(fieldsOf(correction)).toEqual(['reason']);
    await domain('PUT', `/auctions/${auction.id}/lots/${first?.id}/result`, {
      token: house.token,
      body: { outcome: 'sold', hammer: 160_000, paddle: '101', reason: 'Misheard the hammer' },
    });
    const corrected = await domain<Bidder>('GET', `/bidders/${strong.id}`, { token: house.token });
    expect(corrected.body.stats).toMatchObject({
      totalAuctionsBid: 41,
      wins: 81,
      totalWinAmount: 251_600,
    });
    expect(
      codeOf(await domain('GET', `/auctions/${auction.id}/performance`, { token: lakeside })),
    ).toBe('not_found');
  });

  it('invites once, by mail, and names whoever was invited before', async () => {
    const auction = await createAuction();
    const bidder = await createBidder(owner.token);
    const first = await domain<{ invited: number }>(
      'POST',
      `/auctions/${auction.id}/invite-bidders`,
      {
        token: owner.token,
        body: { bidderIds: [bidder.id] },
      },
    );
    expect(first.body.invited).toBe(1);
    const mail = await outbox(bidder.email as string);
    expect(mail.some((message) => message.kind === 'auction-invitation')).toBe(true);
    const again = await domain('POST', `/auctions/${auction.id}/invite-bidders`, {
      token: owner.token,
      body: { bidderIds: [bidder.id] },
    });
    expect(again.status).toBe(409);
    expect(messageOf(again)).toContain(bidder.lastName);
  });
});

describe('the go-live timer', () => {
  it('takes an Upcoming auction live once its start has come, and leaves the rest', async () => {
    const { functionsFor } = await import('../../functions/src/registry.js');
    const { InvocationContext } = await import('../../functions/dev/host/azure-functions.js');
    const job = functionsFor('domain').find(
      (fn): fn is TimerFunction => fn.kind === 'timer' && fn.name === 'auctions-go-live',
    );
    if (!job) throw new Error('the domain app registers no auctions-go-live timer');
    const today = new Date().toISOString().slice(0, 10);
    const started = await createAuction(owner.token, {
      startDate: '2020-01-01',
      startTime: '10:00',
      endDate: today,
      endTime: '23:59',
      timeZone: 'Pacific/Honolulu',
    });
    const draft = await createAuction(owner.token, {
      startDate: '2020-01-01',
      endDate: '2031-01-01',
    });
    const later = await createAuction(owner.token);
    for (const auction of [started, later]) {
      await domain('POST', `/auctions/${auction.id}/publish`, { token: owner.token });
    }
    const now = new Date().toISOString();
    const timer: Timer = {
      isPastDue: false,
      schedule: { adjustForDST: true },
      scheduleStatus: { last: now, next: now, lastUpdated: now },
    };
    const context = new InvocationContext({
      invocationId: randomUUID(),
      functionName: job.name,
      logHandler: () => undefined,
    });
    await job.handler(timer, context);
    // Run twice, as two overlapping invocations might: the second finds nothing to do.
    await job.handler(timer, context);
    const status = async (id: string) =>
      (await domain<Auction>('GET', `/auctions/${id}`, { token: owner.token })).body.status;
    expect(await status(started.id)).toBe('Active');
    expect(await status(draft.id)).toBe('Draft');
    expect(await status(later.id)).toBe('Upcoming');
  });
});

describe('the demo tenant', () => {
  it('holds auctions in every status, with lots, registrations and results', async () => {
    const token = await signedInToken(demo.owner);
    const summary = await domain<Record<string, number>>('GET', '/auctions/summary', { token });
    expect(summary.body).toMatchObject({
      draft: 1,
      upcoming: 1,
      active: 1,
      completed: 3,
      cancelled: 1,
    });
    const past = await domain<{ auctions: Auction[] }>(
      'GET',
      '/listAuctions?view=past&status=Completed',
      {
        token,
      },
    );
    const sale = past.body.auctions.find((row) => row.title === 'Autumn Fine Art Evening Sale');
    if (!sale) throw new Error('no completed demo sale');
    const performance = await domain<{ lotsSold: number; approved: number; lotsClerked: number }>(
      'GET',
      `/auctions/${sale.id}/performance`,
      { token },
    );
    expect(performance.body.lotsClerked).toBe(10);
    expect(performance.body.lotsSold).toBeGreaterThan(4);
    expect(performance.body.approved).toBeGreaterThan(5);
    const lots = await domain<{ lots: Lot[] }>('GET', `/auctions/${sale.id}/lots`, { token });
    const buyer = lots.body.lots.find((row) => row.result?.buyerId)?.result?.buyerId;
    const history = await domain<{ history: { id: string }[] }>(
      'GET',
      `/bidders/${buyer}/history`,
      {
        token,
      },
    );
    expect(history.body.history.map((entry) => entry.id)).toContain(`auction:${sale.id}`);
    const upcoming = await domain<{ auctions: Auction[] }>('GET', '/listAuctions?status=Upcoming', {
      token,
    });
    const next = upcoming.body.auctions[0];
    const registrations = await domain<{ counts: Record<string, number> }>(
      'GET',
      `/auctions/${next?.id}/bidders`,
      { token },
    );
    expect(registrations.body.counts.invited).toBeGreaterThan(0);
  });
});
