import { beforeAll, describe, expect, it } from 'vitest';
import {
  bidderInput,
  codeOf,
  createBidder,
  daysAgo,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  idOfBidderId,
  list,
  listAll,
  messageOf,
  signedInToken,
  strongStats,
  type Bidder,
  type BidderListItem,
  type Owner,
} from '../support/bidders.js';
import { database, demo, latestMail, outbox } from '../support/identity.js';

let owner: string;
let staff: string;
let viewer: string;
let lakeside: string;
let harborviewBidder: string;

beforeAll(async () => {
  owner = await signedInToken(demo.owner);
  staff = await signedInToken(demo.staff);
  viewer = await signedInToken(demo.viewer);
  lakeside = await signedInToken(demo.lakesideOwner);
  harborviewBidder = await idOfBidderId(owner, 'HV-1001');
});

describe('every bidder route wants a signed-in caller', () => {
  const routes: [string, string][] = [
    ['GET', '/listBidders'],
    ['POST', '/bidders'],
    ['GET', '/bidders/analytics'],
    ['GET', '/bidders/some-id'],
    ['PUT', '/bidders/some-id'],
    ['DELETE', '/bidders/some-id'],
    ['GET', '/bidders/some-id/scores'],
    ['PUT', '/bidders/some-id/scores/local'],
    ['GET', '/bidders/some-id/history'],
    ['GET', '/bidders/some-id/notes'],
    ['POST', '/bidders/some-id/notes'],
    ['GET', '/auto-invite-candidates'],
    ['POST', '/bulk-invite'],
    ['GET', '/scoring/usage'],
    ['GET', '/duplicates'],
    ['POST', '/duplicates/scan'],
    ['POST', '/duplicates/some-id/merge'],
    ['POST', '/duplicates/some-id/dismiss'],
  ];
  it.each(routes)('%s %s answers 401 without a token', async (method, path) => {
    const reply = await domain(method, path, method === 'GET' ? {} : { body: {} });
    expect(reply.status).toBe(401);
    expect(codeOf(reply)).toBe('unauthorized');
  });

  it('refuses a forged token', async () => {
    expect((await domain('GET', '/listBidders', { token: 'not-a-token' })).status).toBe(401);
  });
});

describe('permissions by role (Harborview)', () => {
  // [route, staff, viewer]: bodies are invalid where the role may, so nothing changes.
  const matrix: [string, string, unknown, number, number][] = [
    ['POST', '/bidders', {}, 400, 403],
    ['PUT', '/bidders/no-such-id', {}, 428, 403],
    ['DELETE', '/bidders/no-such-id', undefined, 403, 403],
    ['PUT', '/bidders/no-such-id/scores/local', {}, 403, 403],
    ['POST', '/bidders/no-such-id/notes', {}, 400, 403],
    ['POST', '/bulk-invite', {}, 400, 403],
    ['POST', '/duplicates/no-such-id/merge', {}, 400, 403],
    ['POST', '/duplicates/no-such-id/dismiss', undefined, 404, 403],
    ['PUT', '/scoring/settings', {}, 403, 403],
  ];
  it.each(matrix)('%s %s: staff %i, viewer %i', async (method, path, body, forStaff, forViewer) => {
    const options = body === undefined ? {} : { body };
    const asStaff = await domain(method, path, { token: staff, ...options });
    const asViewer = await domain(method, path, { token: viewer, ...options });
    expect([asStaff.status, asViewer.status]).toEqual([forStaff, forViewer]);
  });

  it('lets a viewer read but not add a bidder', async () => {
    expect((await domain('GET', '/listBidders', { token: viewer })).status).toBe(200);
    expect((await getBidder(viewer, harborviewBidder)).status).toBe(200);
    expect(
      (await domain('GET', `/bidders/${harborviewBidder}/history`, { token: viewer })).status,
    ).toBe(200);
    const reply = await domain('POST', '/bidders', { token: viewer, body: bidderInput() });
    expect(reply.status).toBe(403);
    expect(messageOf(reply)).toBe('You need the bidders:create permission to do this');
  });

  it('lets staff add and edit a bidder but not delete one', async () => {
    const created = await createBidder(staff);
    const refused = await domain('DELETE', `/bidders/${created.id}`, { token: staff });
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toBe('You need the bidders:delete permission to do this');
    expect((await getBidder(owner, created.id)).status).toBe(200);
    expect((await domain('DELETE', `/bidders/${created.id}`, { token: owner })).status).toBe(204);
  });

  it("hides another house's bidders behind 404", async () => {
    const paths = [
      ['GET', `/bidders/${harborviewBidder}`],
      ['GET', `/bidders/${harborviewBidder}/scores`],
      ['GET', `/bidders/${harborviewBidder}/history`],
      ['GET', `/bidders/${harborviewBidder}/notes`],
    ];
    for (const [method, path] of paths) {
      expect((await domain(method as string, path as string, { token: lakeside })).status).toBe(
        404,
      );
    }
    const edit = await domain('PUT', `/bidders/${harborviewBidder}`, {
      token: lakeside,
      body: { firstName: 'Hijacked' },
      headers: { 'if-match': '"anything"' },
    });
    expect(edit.status).toBe(404);
    const note = await domain('POST', `/bidders/${harborviewBidder}/notes`, {
      token: lakeside,
      body: { note: 'not yours' },
    });
    expect(note.status).toBe(404);
    expect(
      (await domain('DELETE', `/bidders/${harborviewBidder}`, { token: lakeside })).status,
    ).toBe(404);
    const found = await list(lakeside, { search: 'hv-1001' });
    expect(found.body.bidders).toEqual([]);
    expect((await getBidder(owner, harborviewBidder)).body.firstName).not.toBe('Hijacked');
  });
});

describe('the Harborview demo bidders', () => {
  it('holds the sixty-three seeded bidders, HV-2003 merged into HV-1015 as an alias', async () => {
    const { bidders } = await listAll(viewer, { limit: 200 });
    const ids = bidders.map((bidder) => bidder.bidderId);
    const seeded = [
      ...Array.from({ length: 60 }, (_, index) => `HV-${1001 + index}`),
      'HV-2001',
      'HV-2002',
    ];
    expect(seeded.filter((id) => !ids.includes(id))).toEqual([]);
    expect(bidders).toHaveLength(62);
    expect((await list(viewer)).body.total).toBe(62);
    expect(ids).not.toContain('HV-2003');
    const merged = bidders.find((bidder) => bidder.bidderId === 'HV-1015');
    expect(merged?.aliases).toContain('HV-2003');
    const byAlias = await list(viewer, { search: 'HV-2003' });
    expect(byAlias.body.bidders.map((bidder) => bidder.bidderId)).toEqual(['HV-1015']);
  });

  it('shows a seeded bidder with history and scores', async () => {
    const bidder = await getBidder(viewer, harborviewBidder);
    expect(bidder.body.bidderId).toBe('HV-1001');
    expect(bidder.headers.get('etag')).toBe(`"${bidder.body.etag}"`);
    const scores = await domain<Record<string, { score: number }>>(
      'GET',
      `/bidders/${harborviewBidder}/scores`,
      { token: viewer },
    );
    expect(scores.body.lotwiseScore?.score).toBe(bidder.body.lotwiseScore.score);
    expect(scores.body.customScore?.score).toBe(bidder.body.customScore.score);
  });
});

describe('a bidder, from creation to deletion', () => {
  let house: Owner;
  beforeAll(async () => {
    house = await freshOwner();
  });

  it('creates a scored bidder with its ETag, defaults and first note', async () => {
    const input = bidderInput({
      bidderId: 'PADDLE-7',
      status: undefined,
      phone: '+1 (401) 555-0199',
      address: { city: 'Newport', state: 'RI', zip: '02840' },
      stats: { paymentsOnTime: 8, paymentsLate: 2, disputes: 1 },
      initialNote: 'Met at the preview.',
    });
    const reply = await domain<Bidder>('POST', '/bidders', { token: house.token, body: input });
    expect(reply.status).toBe(201);
    const bidder = reply.body;
    expect(reply.headers.get('etag')).toBe(`"${bidder.etag}"`);
    expect(bidder).toMatchObject({
      bidderId: 'PADDLE-7',
      status: 'Pending',
      preferredPaymentMethod: 'Credit Card',
      email: input.email,
      phone: '+1 (401) 555-0199',
      address: { street: '', city: 'Newport', state: 'RI', zip: '02840', country: 'USA' },
      aliases: [],
      localScore: null,
      invitations: [],
    });
    expect(bidder.stats).toMatchObject({
      paymentsOnTime: 8,
      paymentsLate: 2,
      disputes: 1,
      wins: 0,
    });
    expect(bidder.lotwiseScore.breakdown.paymentHistory).toBe(80);
    expect(bidder.lotwiseScore.breakdown.disputeHistory).toBe(75);
    // No lots, wins or messages on record: those components are a neutral 50, and say so.
    expect(bidder.lotwiseScore.neutral).toEqual([
      'bidActivity',
      'winRate',
      'avgSpending',
      'accountAge',
      'communicationResponsiveness',
    ]);
    // Lotwise: 80x25 + 50x(15+12+18+8+7) + 75x10 + 0x5 (no referrals) = 5750 / 100.
    expect(bidder.lotwiseScore).toMatchObject({ score: 58, tier: 'New' });
    // Custom defaults: 80x30 + 50x(20+10+15+5+5) + 75x10 = 5900 / 100; a dispute means Auto-Deny.
    expect(bidder.customScore).toMatchObject({ score: 59, tier: 'Bronze' });
    expect(bidder.autoInviteStatus).toBe('Auto-Deny');
    const notes = await domain<{ notes: { note: string; category: string }[] }>(
      'GET',
      `/bidders/${bidder.id}/notes`,
      { token: house.token },
    );
    expect(notes.body.notes).toMatchObject([{ note: 'Met at the preview.', category: 'General' }]);
  });

  it('scores a bidder with no record yet as unknown: 50, Bronze, Manual Review', async () => {
    const reply = await domain<Bidder>('POST', '/bidders', {
      token: house.token,
      body: bidderInput({ firstName: 'Wren', lastName: 'Abara' }),
    });
    expect(reply.status).toBe(201);
    for (const score of [reply.body.lotwiseScore, reply.body.customScore]) {
      expect(score).toMatchObject({ score: 50, tier: 'Bronze' });
      expect(score.neutral).toHaveLength(8);
    }
    expect(reply.body.autoInviteStatus).toBe('Manual Review');
  });

  it('gives a bidder without an ID a fresh one, and refuses a taken ID naming bidderId', async () => {
    const bidder = await createBidder(house.token);
    expect(bidder.bidderId).toMatch(/^B-\d{6}$/);
    const again = await domain('POST', '/bidders', {
      token: house.token,
      body: bidderInput({ bidderId: 'PADDLE-7' }),
    });
    expect(again.status).toBe(400);
    expect(fieldsOf(again)).toEqual(['bidderId']);
    expect(messageOf(again)).toBe('bidderId: PADDLE-7 is already used by another bidder');
  });

  it.each([
    ['firstName', { firstName: '' }, 'firstName: is required'],
    ['lastName', { lastName: undefined }, 'lastName: is required'],
    ['email', { email: 'not-an-email' }, 'email: Enter a valid email address'],
    ['phone', { phone: '12' }, 'phone: Enter a phone number with at least 7 digits'],
    ['status', { status: 'Retired' }, undefined],
    ['bidderId', { bidderId: 'has space' }, undefined],
    ['stats.responseRate', { stats: { responseRate: 2 } }, undefined],
    ['preferredCategories.0', { preferredCategories: ['Spaceships'] }, undefined],
  ])('refuses a bad %s with 400 naming it', async (field, change, message) => {
    const reply = await domain('POST', '/bidders', {
      token: house.token,
      body: bidderInput(change),
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual([field]);
    if (message) expect(messageOf(reply)).toBe(message);
  });

  it('answers 404 for a bidder that does not exist', async () => {
    const reply = await getBidder(house.token, 'no-such-bidder');
    expect(reply.status).toBe(404);
    expect(codeOf(reply)).toBe('not_found');
  });

  it('edits only against the version read: 428 without If-Match, 412 when stale', async () => {
    const bidder = await createBidder(house.token, { stats: { paymentsOnTime: 1 } });
    const bare = await domain('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { firstName: 'Renamed' },
    });
    expect(bare.status).toBe(428);
    expect(codeOf(bare)).toBe('precondition_required');

    const first = await domain<Bidder>('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { firstName: 'Renamed', stats: { paymentsLate: 1, totalLotsBid: 200 } },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(first.status).toBe(200);
    expect(first.body.firstName).toBe('Renamed');
    expect(first.body.lastName).toBe(bidder.lastName);
    expect(first.body.stats).toMatchObject({
      paymentsOnTime: 1,
      paymentsLate: 1,
      totalLotsBid: 200,
    });
    // Scores follow the facts: payment history now 50%, bid activity now 60.
    expect(first.body.lotwiseScore.breakdown.paymentHistory).toBe(50);
    expect(first.body.lotwiseScore.breakdown.bidActivity).toBe(60);
    expect(first.body.etag).not.toBe(bidder.etag);
    expect(first.headers.get('etag')).toBe(`"${first.body.etag}"`);

    const stale = await domain('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { firstName: 'Overwritten' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(stale.status).toBe(412);
    expect((await getBidder(house.token, bidder.id)).body.firstName).toBe('Renamed');

    // A weak validator names the same version.
    const weak = await domain<Bidder>('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { status: 'Inactive' },
      headers: { 'if-match': `W/"${first.body.etag}"` },
    });
    expect(weak.status).toBe(200);
    expect(weak.body.status).toBe('Inactive');
  });

  it('refuses a bad edit naming the field', async () => {
    const bidder = await createBidder(house.token);
    const reply = await domain('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { email: 'nope', stats: { wins: -1 } },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['email', 'stats.wins']);
  });

  it('deletes, with a stale If-Match refused', async () => {
    const bidder = await createBidder(house.token);
    const edited = await domain<Bidder>('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { lastName: 'Changed' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    const stale = await domain('DELETE', `/bidders/${bidder.id}`, {
      token: house.token,
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(stale.status).toBe(412);
    const done = await domain('DELETE', `/bidders/${bidder.id}`, {
      token: house.token,
      headers: { 'if-match': `"${edited.body.etag}"` },
    });
    expect(done.status).toBe(204);
    expect((await getBidder(house.token, bidder.id)).status).toBe(404);
    expect((await domain('DELETE', `/bidders/${bidder.id}`, { token: house.token })).status).toBe(
      404,
    );
  });

  it('keeps notes, newest first, with who wrote them', async () => {
    const bidder = await createBidder(house.token, { initialNote: 'First contact.' });
    const added = await domain<{ id: string; note: string; category: string; isPrivate: boolean }>(
      'POST',
      `/bidders/${bidder.id}/notes`,
      {
        token: house.token,
        body: { note: 'Pays by wire.', category: 'Payment', isPrivate: false },
      },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      note: 'Pays by wire.',
      category: 'Payment',
      isPrivate: false,
    });
    const defaulted = await domain<{ category: string; isPrivate: boolean }>(
      'POST',
      `/bidders/${bidder.id}/notes`,
      { token: house.token, body: { note: 'Third.' } },
    );
    expect(defaulted.body).toMatchObject({ category: 'General', isPrivate: true });
    const notes = await domain<{ notes: { note: string; user: string }[] }>(
      'GET',
      `/bidders/${bidder.id}/notes`,
      { token: house.token },
    );
    expect(notes.body.notes.map((note) => note.note)).toEqual([
      'Third.',
      'Pays by wire.',
      'First contact.',
    ]);
    expect(notes.body.notes[0]?.user).toBe('Test Person');

    const empty = await domain('POST', `/bidders/${bidder.id}/notes`, {
      token: house.token,
      body: { note: '   ' },
    });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty)).toEqual(['note']);
    const badCategory = await domain('POST', `/bidders/${bidder.id}/notes`, {
      token: house.token,
      body: { note: 'x', category: 'Gossip' },
    });
    expect(fieldsOf(badCategory)).toEqual(['category']);
    expect(
      (
        await domain('POST', '/bidders/no-such-bidder/notes', {
          token: house.token,
          body: { note: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('keeps every one of 50 notes added at once, and a note is not an edit of the bidder', async () => {
    const bidder = await createBidder(house.token);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        domain('POST', `/bidders/${bidder.id}/notes`, {
          token: house.token,
          body: { note: `Note ${index}` },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 201));
    const notes = await domain<{ notes: { note: string; date: string }[] }>(
      'GET',
      `/bidders/${bidder.id}/notes`,
      { token: house.token },
    );
    expect(notes.body.notes.map((note) => note.note).sort()).toEqual(
      Array.from({ length: 50 }, (_, index) => `Note ${index}`).sort(),
    );
    const dates = notes.body.notes.map((note) => note.date);
    expect(dates).toEqual([...dates].sort().reverse());
    // The bidder's version is the one read before the notes, so an edit made against it stands.
    expect((await getBidder(house.token, bidder.id)).body.etag).toBe(bidder.etag);
    const edited = await domain('PUT', `/bidders/${bidder.id}`, {
      token: house.token,
      body: { status: 'Inactive' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(edited.status).toBe(200);
  });

  it('removes the notes of a bidder it deletes', async () => {
    const bidder = await createBidder(house.token, { initialNote: 'First contact.' });
    await domain('POST', `/bidders/${bidder.id}/notes`, {
      token: house.token,
      body: { note: 'Second.' },
    });
    expect((await domain('DELETE', `/bidders/${bidder.id}`, { token: house.token })).status).toBe(
      204,
    );
    const { db, dispose } = await database();
    try {
      const { resources } = await db
        .container('bidderNotes')
        .items.query<number>(
          {
            query: 'SELECT VALUE COUNT(1) FROM c WHERE c.accountId = @accountId AND c.bidder = @id',
            parameters: [
              { name: '@accountId', value: house.accountId },
              { name: '@id', value: bidder.id },
            ],
          },
          { partitionKey: house.accountId },
        )
        .fetchAll();
      expect(resources).toEqual([0]);
    } finally {
      dispose();
    }
    const late = await domain('POST', `/bidders/${bidder.id}/notes`, {
      token: house.token,
      body: { note: 'Too late.' },
    });
    expect(late.status).toBe(404);
  });

  it('shows the history, empty for a new bidder and filled for a seeded one', async () => {
    const bidder = await createBidder(house.token);
    const fresh = await domain<{ history: unknown[] }>('GET', `/bidders/${bidder.id}/history`, {
      token: house.token,
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.history).toEqual([]);
    const seeded = await getBidder(owner, harborviewBidder);
    const history = await domain<{ history: { auctionTitle: string; auctionDate: string }[] }>(
      'GET',
      `/bidders/${harborviewBidder}/history`,
      { token: owner },
    );
    expect(history.body.history.length).toBe(Math.min(seeded.body.stats.totalAuctionsBid, 5));
    const dates = history.body.history.map((entry) => entry.auctionDate);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('answers the history newest first, whatever order the record holds it in', async () => {
    const bidder = await createBidder(house.token);
    const entry = (auctionTitle: string, auctionDate: string) => ({
      id: auctionTitle,
      isInternal: true,
      auctionTitle,
      generalCategory: 'Fine Art',
      auctionHouse: house.accountName,
      auctionDate,
      totalSpent: 0,
      totalBids: 3,
      wonItems: 0,
      highestBid: 250,
      lotNumbers: [],
      paymentStatus: 'N/A',
      pickupStatus: 'N/A',
      specialNotes: null,
    });
    // As the demo seed stores some: its dates step back by a random gap per entry, not in turn.
    const { db, dispose } = await database();
    try {
      const item = db.container('bidders').item(bidder.id, house.accountId);
      const { resource } = await item.read<Record<string, unknown>>();
      await item.replace({
        ...resource,
        history: [
          entry('Spring Paintings', '2025-04-12T15:00:00.000Z'),
          entry('Winter Silver', '2024-01-20T15:00:00.000Z'),
          entry('Autumn Clocks', '2025-10-05T15:00:00.000Z'),
          entry('Summer Prints', '2024-07-08T15:00:00.000Z'),
        ],
      });
    } finally {
      dispose();
    }
    const reply = await domain<{ history: { auctionTitle: string }[] }>(
      'GET',
      `/bidders/${bidder.id}/history`,
      { token: house.token },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.history.map((item) => item.auctionTitle)).toEqual([
      'Autumn Clocks',
      'Spring Paintings',
      'Summer Prints',
      'Winter Silver',
    ]);
  });

  it('overrides the score locally, with a reason, by someone allowed to', async () => {
    const bidder = await createBidder(house.token);
    const path = `/bidders/${bidder.id}/scores/local`;
    const bare = await domain('PUT', path, {
      token: house.token,
      body: { score: 77, reason: 'Known to us' },
    });
    expect(bare.status).toBe(428);
    const noReason = await domain('PUT', path, {
      token: house.token,
      body: { score: 77, reason: '' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(noReason.status).toBe(400);
    expect(fieldsOf(noReason)).toEqual(['reason']);
    expect(messageOf(noReason)).toBe('reason: Say why the score is overridden');
    const outOfRange = await domain('PUT', path, {
      token: house.token,
      body: { score: 101, reason: 'x' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(fieldsOf(outOfRange)).toEqual(['score']);

    const set = await domain<Bidder>('PUT', path, {
      token: house.token,
      body: { score: 77, reason: 'Known to us' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(set.status).toBe(200);
    expect(set.body.localScore).toMatchObject({
      score: 77,
      reason: 'Known to us',
      by: 'Test Person',
    });
    // The computed scores are untouched.
    expect(set.body.lotwiseScore.score).toBe(bidder.lotwiseScore.score);
    const scores = await domain<{ localScore: { score: number } }>(
      'GET',
      `/bidders/${bidder.id}/scores`,
      { token: house.token },
    );
    expect(scores.body.localScore.score).toBe(77);
    const stale = await domain('PUT', path, {
      token: house.token,
      body: { score: 10, reason: 'again' },
      headers: { 'if-match': `"${bidder.etag}"` },
    });
    expect(stale.status).toBe(412);
  });
});

describe('auto-invite candidates and bulk invitations', () => {
  let house: Owner;
  let strong: Bidder;
  let middling: Bidder;
  let weak: Bidder;
  let suspended: Bidder;
  let disputed: Bidder;

  beforeAll(async () => {
    house = await freshOwner();
    strong = await createBidder(house.token, { stats: strongStats() });
    middling = await createBidder(house.token, {
      stats: { ...strongStats(), totalWinAmount: 500, referrals: 0, totalLotsBid: 20, wins: 2 },
    });
    // A real record, and a poor one: late payments, nothing won, not seen for over a year.
    weak = await createBidder(house.token, {
      stats: {
        totalAuctionsBid: 3,
        totalLotsBid: 30,
        paymentsLate: 3,
        firstAuction: daysAgo(430),
        lastAuction: daysAgo(400),
      },
    });
    suspended = await createBidder(house.token, { status: 'Suspended', stats: strongStats() });
    disputed = await createBidder(house.token, { stats: { ...strongStats(), disputes: 1 } });
  });

  it('scores the bidders as expected for the test', () => {
    expect(strong.customScore.score).toBe(100);
    expect(strong.autoInviteStatus).toBe('Auto-Invite');
    expect(middling.customScore.score).toBeGreaterThanOrEqual(50);
    expect(middling.customScore.score).toBeLessThan(85);
    expect(weak.autoInviteStatus).toBe('Auto-Deny');
    // Suspended, yet scored like the strongest: only its status keeps it off the list.
    expect(suspended.customScore.score).toBe(100);
    expect(disputed.autoInviteStatus).toBe('Auto-Deny');
  });

  it('offers active bidders at the invitation threshold, best first, never the denied', async () => {
    const byDefault = await domain<{ minScore: number; bidders: BidderListItem[] }>(
      'GET',
      '/auto-invite-candidates',
      { token: house.token },
    );
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.minScore).toBe(80);
    expect(byDefault.body.bidders.map((bidder) => bidder.id)).toEqual([strong.id]);

    const lower = await domain<{ minScore: number; bidders: BidderListItem[] }>(
      'GET',
      '/auto-invite-candidates?minScore=0',
      { token: house.token },
    );
    expect(lower.body.minScore).toBe(0);
    expect(lower.body.bidders.map((bidder) => bidder.id)).toEqual([strong.id, middling.id]);

    const byTier = await domain<{ bidders: BidderListItem[] }>(
      'GET',
      `/auto-invite-candidates?minScore=0&tier=${middling.customScore.tier}`,
      { token: house.token },
    );
    expect(middling.customScore.tier).not.toBe(strong.customScore.tier);
    expect(byTier.body.bidders.map((bidder) => bidder.id)).toEqual([middling.id]);

    const limited = await domain<{ bidders: BidderListItem[] }>(
      'GET',
      '/auto-invite-candidates?minScore=0&limit=1',
      { token: house.token },
    );
    expect(limited.body.bidders).toHaveLength(1);

    const bad = await domain('GET', '/auto-invite-candidates?minScore=200', { token: house.token });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['minScore']);
  });

  it('e-mails each chosen bidder once and records the invitation', async () => {
    const reply = await domain<{ invited: number; skipped: { id: string; reason: string }[] }>(
      'POST',
      '/bulk-invite',
      {
        token: house.token,
        body: { bidderIds: [strong.id, strong.id, 'no-such-bidder'], message: 'Join us.' },
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      invited: 1,
      skipped: [{ id: 'no-such-bidder', reason: 'not found' }],
    });
    const mail = await latestMail(strong.email as string, 'bidder-invitation');
    expect(mail.subject).toBe(`${house.accountName} invites you to bid`);
    expect(mail.text).toContain(`Dear ${strong.firstName} ${strong.lastName},`);
    expect(mail.text).toContain('Join us.');
    expect(mail.text).toContain(`— Test Person, ${house.accountName}`);
    expect(
      (await outbox(strong.email as string)).filter((m) => m.kind === 'bidder-invitation'),
    ).toHaveLength(1);
    expect(await outbox(weak.email as string)).toEqual([]);
    const invited = await getBidder(house.token, strong.id);
    expect(invited.body.invitations).toMatchObject([{ by: 'Test Person', auctionId: null }]);
  });

  it('invites to an auction once, recorded on the auction, and names an unknown bidder', async () => {
    const auction = await domain<{ id: string }>('POST', '/auctions', {
      token: house.token,
      body: {
        title: 'Spring Sale',
        category: 'art',
        startDate: '2031-04-10',
        startTime: '18:00',
        endDate: '2031-04-10',
        endTime: '21:00',
      },
    });
    const reply = await domain('POST', '/bulk-invite', {
      token: house.token,
      body: {
        bidderIds: [middling.id, middling.id],
        auctionId: auction.body.id,
        message: 'Spring!',
      },
    });
    expect(reply.body).toEqual({ invited: 1, skipped: [] });
    const mail = await latestMail(middling.email as string, 'auction-invitation');
    expect(mail.subject).toBe(`${house.accountName} invites you to Spring Sale`);
    expect(mail.text).toContain('Spring!');
    const registrations = await domain<{ counts: { invited: number } }>(
      'GET',
      `/auctions/${auction.body.id}/bidders`,
      { token: house.token },
    );
    expect(registrations.body.counts.invited).toBe(1);
    const again = await domain('POST', '/bulk-invite', {
      token: house.token,
      body: { bidderIds: [middling.id], auctionId: auction.body.id },
    });
    expect(again.status).toBe(409);
    const unknown = await domain('POST', '/bulk-invite', {
      token: house.token,
      body: { bidderIds: ['no-such-bidder'], auctionId: auction.body.id },
    });
    expect(fieldsOf(unknown)).toEqual(['bidderIds']);
  });

  it('uses a default message when none is given', async () => {
    await domain('POST', '/bulk-invite', { token: house.token, body: { bidderIds: [weak.id] } });
    const mail = await latestMail(weak.email as string, 'bidder-invitation');
    expect(mail.text).toContain(
      `${house.accountName} would like to invite you to its upcoming sale.`,
    );
    expect((await getBidder(house.token, weak.id)).body.invitations).toMatchObject([
      { auctionId: null },
    ]);
  });

  it('refuses an empty choice naming bidderIds', async () => {
    const reply = await domain('POST', '/bulk-invite', {
      token: house.token,
      body: { bidderIds: [] },
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['bidderIds']);
    expect(messageOf(reply)).toBe('bidderIds: Choose at least one bidder');
  });

  it("does not invite another house's bidders", async () => {
    const reply = await domain<{ invited: number; skipped: { id: string; reason: string }[] }>(
      'POST',
      '/bulk-invite',
      { token: lakeside, body: { bidderIds: [strong.id] } },
    );
    expect(reply.body).toEqual({ invited: 0, skipped: [{ id: strong.id, reason: 'not found' }] });
  });
});

describe('analytics', () => {
  it('has no average for an account without bidders', async () => {
    const house = await freshOwner();
    const reply = await domain('GET', '/bidders/analytics', { token: house.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      scoreType: 'lotwise',
      total: 0,
      active: 0,
      averageScore: null,
      byTier: { Premium: 0, Gold: 0, Silver: 0, Bronze: 0, New: 0 },
      byAutoInvite: { 'Auto-Invite': 0, 'Manual Review': 0, 'Auto-Deny': 0 },
    });
  });

  it('counts, averages and groups the bidders by the chosen score', async () => {
    const house = await freshOwner();
    const made = [
      await createBidder(house.token, { stats: strongStats() }),
      await createBidder(house.token, { status: 'Pending', stats: { paymentsOnTime: 3 } }),
      await createBidder(house.token, { stats: { disputes: 2 } }),
    ];
    for (const scoreType of ['lotwise', 'custom'] as const) {
      const reply = await domain<{
        scoreType: string;
        total: number;
        active: number;
        averageScore: number;
        byTier: Record<string, number>;
        byAutoInvite: Record<string, number>;
      }>('GET', `/bidders/analytics?scoreType=${scoreType}`, { token: house.token });
      const scores = made.map((bidder) =>
        scoreType === 'custom' ? bidder.customScore : bidder.lotwiseScore,
      );
      const mean = scores.reduce((sum, score) => sum + score.score, 0) / scores.length;
      expect(reply.body.scoreType).toBe(scoreType);
      expect(reply.body.total).toBe(3);
      expect(reply.body.active).toBe(2);
      expect(reply.body.averageScore).toBe(Math.round(mean * 10) / 10);
      const tiers: Record<string, number> = { Premium: 0, Gold: 0, Silver: 0, Bronze: 0, New: 0 };
      for (const score of scores) tiers[score.tier] = (tiers[score.tier] ?? 0) + 1;
      expect(reply.body.byTier).toEqual(tiers);
      expect(reply.body.byAutoInvite['Auto-Invite']).toBe(1);
      expect(reply.body.byAutoInvite['Auto-Deny']).toBe(1);
    }
    const bad = await domain('GET', '/bidders/analytics?scoreType=national', {
      token: house.token,
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['scoreType']);
  });
});

describe('listing bidders', () => {
  let house: Owner;
  const made: Bidder[] = [];
  const statuses = ['Active', 'Active', 'Inactive', 'Suspended', 'Pending', 'Active'];

  beforeAll(async () => {
    house = await freshOwner();
    for (let index = 0; index < 12; index += 1) {
      made.push(
        await createBidder(house.token, {
          status: statuses[index % statuses.length],
          stats: {
            totalAuctionsBid: index * 3,
            totalLotsBid: index * 18,
            wins: index * 5,
            totalWinAmount: index * index * 2_000,
            paymentsOnTime: index * 3,
            paymentsLate: 11 - index,
            disputes: index < 2 ? 1 : 0,
            referrals: index > 8 ? 3 : 0,
            responseRate: 0.5 + index * 0.04,
            firstAuction: daysAgo(100 + index * 150),
            lastAuction: daysAgo(10 + (11 - index) * 40),
          },
        }),
      );
    }
    made.push(
      await createBidder(house.token, {
        bidderId: 'QX-77',
        firstName: 'Wilhelmina',
        lastName: 'Quackenbush',
        email: 'w.q@zebra-mail.example.com',
      }),
    );
  });

  const ids = (bidders: { id: string }[]) => bidders.map((bidder) => bidder.id).sort();

  it('lists every bidder of the account with the total, by Lotwise score descending', async () => {
    const reply = await list(house.token);
    expect(reply.status).toBe(200);
    expect(reply.body.total).toBe(13);
    expect(ids(reply.body.bidders)).toEqual(ids(made));
    const scores = reply.body.bidders.map((bidder) => bidder.lotwiseScore.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    // The list rows leave out notes and history.
    expect(reply.body.bidders[0]).not.toHaveProperty('notes');
    expect(reply.body.bidders[0]).not.toHaveProperty('history');
    expect(reply.body.bidders[0]).not.toHaveProperty('invitations');
  });

  it('sorts ascending when asked, by either score', async () => {
    const ascending = await list(house.token, { sort: 'asc' });
    const scores = ascending.body.bidders.map((bidder) => bidder.lotwiseScore.score);
    expect(scores).toEqual([...scores].sort((x, y) => x - y));
    const custom = await list(house.token, { sort: 'asc', scoreType: 'custom' });
    const customScores = custom.body.bidders.map((bidder) => bidder.customScore.score);
    expect(customScores).toEqual([...customScores].sort((x, y) => x - y));
    expect(scores[0]).toBeLessThan(scores[scores.length - 1] as number);
  });

  it('filters by status', async () => {
    for (const status of ['Active', 'Inactive', 'Suspended', 'Pending']) {
      const reply = await list(house.token, { status });
      const expected = made.filter((bidder) => bidder.status === status);
      expect(ids(reply.body.bidders)).toEqual(ids(expected));
      expect(reply.body.total).toBe(expected.length);
    }
  });

  it('filters by tier, of the chosen score', async () => {
    const tiers = new Set(made.map((bidder) => bidder.lotwiseScore.tier));
    expect(tiers.size).toBeGreaterThan(1);
    for (const tier of tiers) {
      const reply = await list(house.token, { tier });
      expect(ids(reply.body.bidders)).toEqual(
        ids(made.filter((bidder) => bidder.lotwiseScore.tier === tier)),
      );
    }
    const customTier = made[11]?.customScore.tier as string;
    const custom = await list(house.token, { tier: customTier, scoreType: 'custom' });
    expect(ids(custom.body.bidders)).toEqual(
      ids(made.filter((bidder) => bidder.customScore.tier === customTier)),
    );
  });

  it('filters by a score range, both ends included', async () => {
    const sorted = made.map((bidder) => bidder.lotwiseScore.score).sort((x, y) => x - y);
    const low = sorted[3] as number;
    const high = sorted[9] as number;
    const range = await list(house.token, { minScore: low, maxScore: high });
    expect(ids(range.body.bidders)).toEqual(
      ids(
        made.filter(
          (bidder) => bidder.lotwiseScore.score >= low && bidder.lotwiseScore.score <= high,
        ),
      ),
    );
    expect(range.body.total).toBe(range.body.bidders.length);
    const above = await list(house.token, { minScore: high });
    expect(ids(above.body.bidders)).toEqual(
      ids(made.filter((bidder) => bidder.lotwiseScore.score >= high)),
    );
    const combined = await list(house.token, { minScore: low, status: 'Active' });
    expect(ids(combined.body.bidders)).toEqual(
      ids(made.filter((bidder) => bidder.lotwiseScore.score >= low && bidder.status === 'Active')),
    );
  });

  it('filters by automation status', async () => {
    const reply = await list(house.token, { autoInvite: 'Auto-Deny' });
    const expected = made.filter((bidder) => bidder.autoInviteStatus === 'Auto-Deny');
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(reply.body.bidders)).toEqual(ids(expected));
  });

  it.each([
    ['first name', 'WILHELMINA'],
    ['last name', 'quackEN'],
    ['full name', 'Wilhelmina Quackenbush'],
    ['bidder ID', 'qx-77'],
    ['e-mail', 'Zebra-Mail.example'],
  ])('searches case-insensitively by %s', async (_what, search) => {
    const reply = await list(house.token, { search });
    expect(reply.body.bidders.map((bidder) => bidder.bidderId)).toEqual(['QX-77']);
    expect(reply.body.total).toBe(1);
  });

  it('finds nothing for a search that matches no one', async () => {
    const reply = await list(house.token, { search: 'nobody-by-this-name' });
    expect(reply.body).toEqual({ bidders: [], total: 0 });
  });

  it('pages with continuation tokens, each bidder once, in order', async () => {
    const first = await list(house.token, { limit: 5 });
    expect(first.body.bidders).toHaveLength(5);
    expect(first.body.total).toBe(13);
    expect(first.body.continuationToken).toBeTruthy();
    const { bidders, pages } = await listAll(house.token, { limit: 5 });
    expect(pages).toBe(3);
    expect(bidders).toHaveLength(13);
    expect(new Set(bidders.map((bidder) => bidder.id)).size).toBe(13);
    expect(ids(bidders)).toEqual(ids(made));
    const scores = bidders.map((bidder) => bidder.lotwiseScore.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));

    const filtered = await listAll(house.token, { limit: 2, status: 'Active' });
    expect(ids(filtered.bidders)).toEqual(ids(made.filter((bidder) => bidder.status === 'Active')));
  });

  it('updates the total as soon as a bidder is added', async () => {
    const before = await list(house.token, { status: 'Pending' });
    const added = await createBidder(house.token, { status: 'Pending' });
    const after = await list(house.token, { status: 'Pending' });
    expect(after.body.total).toBe(before.body.total + 1);
    await domain('DELETE', `/bidders/${added.id}`, { token: house.token });
    expect((await list(house.token, { status: 'Pending' })).body.total).toBe(before.body.total);
  });

  it.each([
    ['limit', { limit: 0 }],
    ['limit', { limit: 201 }],
    ['minScore', { minScore: 'high' }],
    ['maxScore', { maxScore: 101 }],
    ['tier', { tier: 'Platinum' }],
    ['status', { status: 'Gone' }],
    ['sort', { sort: 'sideways' }],
    ['scoreType', { scoreType: 'national' }],
  ])('refuses a bad %s with 400 naming it', async (field, query) => {
    const reply = await list(house.token, query);
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual([field]);
  });
});
