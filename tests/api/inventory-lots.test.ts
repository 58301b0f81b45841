import { beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import {
  DESCRIPTION_DRAFT_NOTE,
  type DescriptionDraft,
  type GroupLot,
  type InventoryItem,
  type LotGroupsResponse,
} from '../../functions/src/inventory/inventory.schema.js';
import type { InventorySettings } from '../../functions/src/settings/settings.schema.js';
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
  type Owner,
} from '../support/bidders.js';
import { call, demo, ifMatch, type Reply, type Session } from '../support/identity.js';

/**
 * Auto-generate descriptions and optimal lot grouping (Settings › Inventory): the draft route,
 * the proposed groups and adding a group to an auction as ONE lot.
 */

let house: Owner;
/** Grouping on, for tenancy probes against the house's ids. */
let other: Owner;
/** Both switches as a new account has them, then the drafts switched off. */
let quiet: Owner;

async function ok<T>(reply: Promise<Reply<T>>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

async function setSettings(token: string, changes: Record<string, unknown>) {
  const current = await ok(domain<InventorySettings>('GET', '/settings/inventory', { token }));
  const { updatedAt: _at, updatedBy: _by, etag, ...settings } = current;
  await ok(
    domain('PUT', '/settings/inventory', {
      token,
      headers: ifMatch(etag),
      body: { ...settings, ...changes },
    }),
  );
}

let counter = 0;
const created = async (token: string, overrides: Record<string, unknown> = {}) =>
  ok(
    domain<InventoryItem>('POST', '/inventory/items', {
      token,
      body: {
        title: `Redware plate ${(counter += 1)}`,
        category: 'Ceramics',
        subcategory: 'American pottery',
        estimatedValue: { low: 10_000, high: 15_000 },
        condition: 'Fair',
        ...overrides,
      },
    }),
    201,
  );

const read = (id: string, token = house.token) =>
  ok(domain<InventoryItem>('GET', `/inventory/items/${id}`, { token }));

const draft = (token: string, body: Record<string, unknown>) =>
  domain<DescriptionDraft>('POST', '/inventory/description-draft', { token, body });

const groups = (token: string) =>
  ok(domain<LotGroupsResponse>('GET', '/inventory/lot-groups', { token }));

const addGroup = (token: string, body: Record<string, unknown>) =>
  domain<GroupLot>('POST', '/inventory/lot-groups/add-to-auction', { token, body });

const lotsOf = (auctionId: string, token = house.token) =>
  ok(domain<{ lots: Lot[] }>('GET', `/auctions/${auctionId}/lots`, { token })).then(
    (body) => body.lots,
  );

/** A demo member's token in Harborview Auctions, whose plan has the add-ons. */
async function harborviewToken(email: string) {
  const login = await call<Session>('POST', '/login', {
    body: { email, password: 'Harborview!Demo2026' },
  });
  const harborview = login.body.accounts.find(
    (account) => account.accountName === 'Harborview Auctions',
  );
  const granted = await call<{ accessToken: string }>('POST', '/tokens/access', {
    token: login.body.sessionToken,
    body: { userId: login.body.user.id, accountId: harborview?.accountId },
  });
  return granted.body.accessToken;
}

/** Publishes, sells (hammer) or passes (null) each lot, and closes the auction. */
async function runSale(owner: Owner, auction: Auction, hammers: Map<string, number | null>) {
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token: owner.token }));
  const bidder = await createBidder(owner.token, {
    firstName: 'Ivy',
    lastName: 'Buyer',
    email: `ivy-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    stats: strongStats(),
  });
  const registration = await ok(
    domain<Registration>('POST', `/auctions/${auction.id}/register`, {
      token: owner.token,
      body: { bidderId: bidder.id },
    }),
    201,
  );
  expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token: owner.token }));
  for (const lot of await lotsOf(auction.id, owner.token)) {
    const hammer = hammers.get(lot.title) ?? null;
    await ok(
      domain('PUT', `/auctions/${auction.id}/lots/${lot.id}/result`, {
        token: owner.token,
        body: hammer ? { outcome: 'sold', hammer, bidderId: bidder.id } : { outcome: 'passed' },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/close`, { token: owner.token }));
}

beforeAll(async () => {
  [house, other, quiet] = await Promise.all([
    ownerWithAddOns(),
    ownerWithAddOns(),
    ownerWithAddOns(),
  ]);
  await Promise.all([
    setSettings(house.token, { photoRequirement: 'optional', optimalLotGrouping: true }),
    setSettings(other.token, { photoRequirement: 'optional', optimalLotGrouping: true }),
  ]);
  // The house's own sales the drafts compare with: three silver lots sold, one passed.
  const sale = await createAuction(house.token, { title: 'Silver Sale' });
  const sold = new Map<string, number | null>([
    ['Sterling silver teapot', 150_000],
    ['Sterling silver salver', 200_000],
    ['Silver candlesticks', 290_000],
    ['Silver tray', null],
  ]);
  for (const [index, title] of [...sold.keys()].entries()) {
    await ok(
      domain('POST', `/auctions/${sale.id}/lots`, {
        token: house.token,
        body: {
          lotNumber: String(index + 1),
          title,
          estimateLow: 150_000,
          estimateHigh: 250_000,
        },
      }),
      201,
    );
  }
  await runSale(house, sale, sold);
});

const draftBody = {
  title: 'Coin silver pitcher, Boston',
  category: 'Silver',
  subcategory: 'Hollowware',
  condition: 'Good',
  estimatedValue: { low: 180_000, high: 240_000 },
};

describe('description drafts', () => {
  it("drafts from the item's fields and the house's comparable sales, saying what it is", async () => {
    const body = await ok(draft(house.token, draftBody));
    expect(body).toEqual({
      description:
        'Hollowware; good condition, with light wear consistent with age and use.\n\n' +
        'Comparable pieces sold by the house: 3 in the last year, hammer $1,500–$2,900.',
      category: 'Silver',
      currency: 'USD',
      comparables: { count: 3, low: 150_000, high: 290_000 },
      toAdd: ["maker's mark and hallmarks", 'weight (troy oz)', 'dimensions', 'provenance'],
      note: DESCRIPTION_DRAFT_NOTE,
    });
    expect(body.note).toBe("Drafted from the item's details — edit before use");
    // The same details always give the same draft; nothing was saved.
    expect(await ok(draft(house.token, draftBody))).toEqual(body);
  });

  it('suggests the category from the title when none is sent, and drafts for an item of the account', async () => {
    const { category: _category, ...uncategorised } = draftBody;
    const suggested = await ok(draft(house.token, { ...uncategorised, title: 'Sterling tray' }));
    expect(suggested.category).toBe('Silver');
    const item = await created(house.token);
    const forItem = await ok(draft(house.token, { ...draftBody, itemId: item.id }));
    expect(forItem.currency).toBe('USD');
    expect((await read(item.id)).description).toBe('');
  });

  it('answers 400 naming the field', async () => {
    const untitled = await draft(house.token, { ...draftBody, title: '  ' });
    expect(untitled.status).toBe(400);
    expect(fieldsOf(untitled)).toEqual(['title']);
    const upsideDown = await draft(house.token, {
      ...draftBody,
      estimatedValue: { low: 5_000, high: 1_000 },
    });
    expect(fieldsOf(upsideDown)).toEqual(['estimatedValue.high']);
    const badCondition = await draft(house.token, { ...draftBody, condition: 'Mint' });
    expect(fieldsOf(badCondition)).toEqual(['condition']);
    const { category: _category, ...uncategorised } = draftBody;
    const noClue = await draft(house.token, { ...uncategorised, title: 'Lot 44', subcategory: '' });
    expect(noClue.status).toBe(400);
    expect(fieldsOf(noClue)).toEqual(['category']);
  });

  it("answers 404 for another tenant's item", async () => {
    const theirs = await created(other.token);
    const reply = await draft(house.token, { ...draftBody, itemId: theirs.id });
    expect(reply.status).toBe(404);
  });

  it('answers 409 saying so while the setting is off', async () => {
    await setSettings(quiet.token, { autoGenerateDescriptions: false });
    const reply = await draft(quiet.token, draftBody);
    expect(reply.status).toBe(409);
    expect(codeOf(reply)).toBe('conflict');
    expect(messageOf(reply)).toBe(
      'Auto-generate descriptions is turned off in Settings › Inventory; turn it on to draft descriptions',
    );
  });
});

describe('lot groups', () => {
  it('proposes nothing while the setting is off, its default', async () => {
    await created(quiet.token, { estimatedValue: { low: 5_000, high: 8_000 } });
    await created(quiet.token, { estimatedValue: { low: 5_000, high: 8_000 } });
    expect(await groups(quiet.token)).toEqual({ enabled: false, groups: [] });
  });

  it('groups low-value items of one category and subcategory, with the estimate and reasons', async () => {
    const owner = await ownerWithAddOns();
    await setSettings(owner.token, { photoRequirement: 'optional', optimalLotGrouping: true });
    const a = await created(owner.token, { estimatedValue: { low: 15_000, high: 20_000 } });
    const b = await created(owner.token, { estimatedValue: { low: 12_000, high: 18_000 } });
    const c = await created(owner.token, {
      estimatedValue: { low: 10_000, high: 15_000 },
      status: 'In Storage',
    });
    await created(owner.token, { estimatedValue: { low: 500_000, high: 700_000 } });
    await created(owner.token, { status: 'Damaged' });
    await created(owner.token, { subcategory: 'Export porcelain' });

    const body = await groups(owner.token);
    expect(body.enabled).toBe(true);
    expect(body.needPhotos).toBe(0);
    expect(body.groups).toHaveLength(1);
    const [group] = body.groups;
    expect(group?.items.map((item) => item.id)).toEqual([a.id, b.id, c.id]);
    expect(group).toMatchObject({
      category: 'Ceramics',
      subcategory: 'American pottery',
      currency: 'USD',
      consignor: null,
      threshold: 30_000,
      estimate: { low: 37_000, high: 53_000 },
      title: `A group of three ceramic pieces (American pottery), including ${a.title}`,
    });
    expect(group?.reasons[0]).toBe(
      "Each has a low estimate under USD 300.00: the house's minimum lot value (too few Ceramics lots sold in the last year to learn from)",
    );

    // Under "required for all" items without photos could not go, so they are counted instead.
    await setSettings(owner.token, { photoRequirement: 'required_all' });
    const withoutPhotos = await groups(owner.token);
    expect(withoutPhotos.groups).toEqual([]);
    expect(withoutPhotos.needPhotos).toBe(4);
  });

  it('adds a group to an auction as ONE lot, every item In Auction and linked to it', async () => {
    const auction = await createAuction(house.token, { title: 'Country Pottery' });
    const consignor = { name: 'The Aldridge Estate', contact: '' };
    const a = await created(house.token, {
      consignor,
      description: 'Pennsylvania; rim chips.',
    });
    const b = await created(house.token, { consignor, status: 'In Storage' });
    const reply = await ok(
      addGroup(house.token, {
        itemIds: [a.id, b.id],
        auctionId: auction.id,
        title: 'Two redware plates',
      }),
      201,
    );
    expect(reply.lot).toMatchObject({
      auctionId: auction.id,
      auctionTitle: 'Country Pottery',
      lotNumber: '1',
      title: 'Two redware plates',
      estimateLow: 20_000,
      estimateHigh: 30_000,
    });
    const lots = await lotsOf(auction.id);
    expect(lots).toHaveLength(1);
    expect(lots[0]).toMatchObject({
      id: reply.lot.id,
      title: 'Two redware plates',
      description: `Comprising two pieces:\n1. ${a.title}. Fair condition. Pennsylvania; rim chips.\n2. ${b.title}. Fair condition.`,
      category: null,
      estimateLow: 20_000,
      estimateHigh: 30_000,
      consignor,
      inventoryItemId: a.id,
    });
    for (const [item, previous] of [
      [a, 'Available'],
      [b, 'In Storage'],
    ] as const) {
      const after = await read(item.id);
      expect(after.status).toBe('In Auction');
      expect(after.auction).toMatchObject({
        auctionId: auction.id,
        lotId: reply.lot.id,
        lotNumber: '1',
        previousStatus: previous,
      });
      expect(after.history[0]).toMatchObject({
        action: 'added_to_auction',
        message: 'Added to Country Pottery as lot 1, grouped with 1 other item',
      });
    }
    expect(reply.items.map((item) => item.etag)).toEqual([
      (await read(a.id)).etag,
      (await read(b.id)).etag,
    ]);
    // In an auction now: neither can be grouped again.
    const again = await addGroup(house.token, {
      itemIds: [a.id, b.id],
      auctionId: auction.id,
      title: 'Again',
    });
    expect(again.status).toBe(409);
    expect(await lotsOf(auction.id)).toHaveLength(1);
  });

  it('refuses items that cannot go, leaving every item and the catalogue as they were', async () => {
    const auction = await createAuction(house.token);
    const fine = await created(house.token);
    const damaged = await created(house.token, { status: 'Damaged' });
    const consigned = await created(house.token, { consignor: { name: 'The Avery Trust' } });
    const body = (ids: string[]) => ({ itemIds: ids, auctionId: auction.id, title: 'A group' });

    const notAuctionable = await addGroup(house.token, body([fine.id, damaged.id]));
    expect(notAuctionable.status).toBe(409);
    expect(messageOf(notAuctionable)).toContain(`"${damaged.title}" is Damaged`);
    const twoConsignors = await addGroup(house.token, body([fine.id, consigned.id]));
    expect(twoConsignors.status).toBe(409);
    expect(messageOf(twoConsignors)).toContain('One lot sells for one consignor');

    const owner = await ownerWithAddOns();
    await setSettings(owner.token, { optimalLotGrouping: true, photoRequirement: 'required_all' });
    const theirAuction = await createAuction(owner.token);
    const [x, y] = [await created(owner.token), await created(owner.token)];
    const photos = await addGroup(owner.token, {
      itemIds: [x.id, y.id],
      auctionId: theirAuction.id,
      title: 'Needs photos',
    });
    expect(photos.status).toBe(409);
    expect(messageOf(photos)).toContain('Photo requirement "required for all"');

    expect(await lotsOf(auction.id)).toEqual([]);
    expect((await read(fine.id)).status).toBe('Available');
    expect((await read(fine.id)).etag).toBe(fine.etag);
  });

  it('answers 400 naming the field', async () => {
    const auction = await createAuction(house.token);
    const [a, b] = [await created(house.token), await created(house.token)];
    const cases: [Record<string, unknown>, string][] = [
      [{ itemIds: [a.id], auctionId: auction.id, title: 'One' }, 'itemIds'],
      [{ itemIds: [a.id, a.id], auctionId: auction.id, title: 'Twice' }, 'itemIds'],
      [
        { itemIds: ['1', '2', '3', '4', '5', '6', '7'], auctionId: auction.id, title: 'Seven' },
        'itemIds',
      ],
      [{ itemIds: [a.id, b.id], auctionId: '', title: 'No auction' }, 'auctionId'],
      [{ itemIds: [a.id, b.id], auctionId: auction.id, title: ' ' }, 'title'],
      [{ itemIds: [a.id, b.id], auctionId: auction.id, title: 'X', lotNumber: '#1' }, 'lotNumber'],
    ];
    for (const [body, field] of cases) {
      const reply = await addGroup(house.token, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(reply)).toEqual([field]);
    }
    expect(await lotsOf(auction.id)).toEqual([]);
  });

  it("answers 404 for another tenant's items or auction", async () => {
    const auction = await createAuction(house.token);
    const [a, b] = [await created(house.token), await created(house.token)];
    const theirAuction = await createAuction(other.token);
    const theirItem = await created(other.token);
    const stolen = await addGroup(other.token, {
      itemIds: [a.id, b.id],
      auctionId: theirAuction.id,
      title: 'Not mine',
    });
    expect(stolen.status).toBe(404);
    const mixed = await addGroup(other.token, {
      itemIds: [theirItem.id, a.id],
      auctionId: theirAuction.id,
      title: 'Half mine',
    });
    expect(mixed.status).toBe(404);
    const intoTheirs = await addGroup(house.token, {
      itemIds: [a.id, b.id],
      auctionId: theirAuction.id,
      title: 'Into theirs',
    });
    expect(intoTheirs.status).toBe(404);
    expect((await groups(other.token)).groups.flatMap((group) => group.items)).not.toContainEqual(
      expect.objectContaining({ id: a.id }),
    );
    expect(await lotsOf(auction.id)).toEqual([]);
    expect(await lotsOf(theirAuction.id, other.token)).toEqual([]);
    expect((await read(theirItem.id, other.token)).status).toBe('Available');
  });

  it('lets a viewer read the groups but not add one; a plan without the add-on is refused', async () => {
    const viewer = await harborviewToken(demo.viewer);
    expect((await domain('GET', '/inventory/lot-groups', { token: viewer })).status).toBe(200);
    const refused = await addGroup(viewer, { itemIds: ['a', 'b'], auctionId: 'x', title: 'No' });
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('forbidden');

    const plain = await freshOwner();
    const feature = 'Access denied: inventory feature not available in your plan';
    const replies = await Promise.all([
      domain('GET', '/inventory/lot-groups', { token: plain.token }),
      addGroup(plain.token, { itemIds: ['a', 'b'], auctionId: 'x', title: 'No' }),
      draft(plain.token, draftBody),
    ]);
    for (const reply of replies) {
      expect(reply.status).toBe(403);
      expect(messageOf(reply)).toBe(feature);
    }
  });

  it('answers 409 while the setting is off', async () => {
    const auction = await createAuction(quiet.token);
    const [a, b] = [await created(quiet.token), await created(quiet.token)];
    const reply = await addGroup(quiet.token, {
      itemIds: [a.id, b.id],
      auctionId: auction.id,
      title: 'Off',
    });
    expect(reply.status).toBe(409);
    expect(messageOf(reply)).toBe(
      'Optimal lot grouping is turned off in Settings › Inventory; turn it on to add items as one lot',
    );
    expect(await lotsOf(auction.id, quiet.token)).toEqual([]);
  });

  it('makes exactly one lot when two grouped adds of the same item run at once', async () => {
    const auction = await createAuction(house.token);
    const [shared, b, c] = [
      await created(house.token),
      await created(house.token),
      await created(house.token),
    ];
    const replies = await Promise.all([
      addGroup(house.token, { itemIds: [shared.id, b.id], auctionId: auction.id, title: 'One' }),
      addGroup(house.token, { itemIds: [shared.id, c.id], auctionId: auction.id, title: 'Two' }),
      addGroup(house.token, { itemIds: [b.id, shared.id], auctionId: auction.id, title: 'Three' }),
    ]);
    const won = replies.filter((reply) => reply.status === 201);
    expect(won).toHaveLength(1);
    expect(replies.every((reply) => reply.status === 201 || reply.status === 409)).toBe(true);
    const lots = await lotsOf(auction.id);
    expect(lots).toHaveLength(1);
    const lotId = lots[0]?.id;
    const winner = won[0]?.body as GroupLot;
    expect(winner.lot.id).toBe(lotId);
    for (const item of [shared, b, c]) {
      const after = await read(item.id);
      const grouped = winner.items.some((one) => one.id === item.id);
      expect(after.status).toBe(grouped ? 'In Auction' : 'Available');
      expect(after.auction?.lotId ?? null).toBe(grouped ? lotId : null);
    }
  });
});

describe('closing a sale with grouped lots', () => {
  it('marks every item of a sold group Sold with its share of the hammer, and returns a passed group', async () => {
    const auction = await createAuction(house.token, { title: 'Grouped Sale' });
    const [a, b] = [
      await created(house.token),
      await created(house.token, { estimatedValue: { low: 20_000, high: 30_000 } }),
    ];
    const [c, d] = [
      await created(house.token, { status: 'In Storage' }),
      await created(house.token),
    ];
    await ok(
      addGroup(house.token, { itemIds: [a.id, b.id], auctionId: auction.id, title: 'Sells' }),
      201,
    );
    await ok(
      addGroup(house.token, { itemIds: [c.id, d.id], auctionId: auction.id, title: 'Passes' }),
      201,
    );
    await runSale(
      house,
      auction,
      new Map([
        ['Sells', 50_001],
        ['Passes', null],
      ]),
    );
    // Shared by estimate midpoint (125.00 and 250.00): a third and two thirds, adding up exactly.
    expect(await read(a.id)).toMatchObject({ status: 'Sold', lastSoldPrice: 16_667 });
    expect(await read(b.id)).toMatchObject({ status: 'Sold', lastSoldPrice: 33_334 });
    expect(await read(c.id)).toMatchObject({ status: 'In Storage', auction: null });
    expect(await read(d.id)).toMatchObject({ status: 'Available', auction: null });
  });

  it('takes a whole group out when one of its items is removed from the auction', async () => {
    const auction = await createAuction(house.token, { title: 'Withdrawn Group' });
    const [a, b] = [
      await created(house.token),
      await created(house.token, { status: 'In Storage' }),
    ];
    const added = await ok(
      addGroup(house.token, { itemIds: [a.id, b.id], auctionId: auction.id, title: 'Pair' }),
      201,
    );
    await ok(domain('DELETE', `/inventory/items/${a.id}/auction`, { token: house.token }));
    expect(await read(a.id)).toMatchObject({ status: 'Available', auction: null });
    expect(await read(b.id)).toMatchObject({ status: 'In Storage', auction: null });
    const lots = await ok(
      domain<{ lots: { id: string }[] }>('GET', `/auctions/${auction.id}/lots`, {
        token: house.token,
      }),
    );
    expect(lots.lots.map((lot) => lot.id)).not.toContain(added.lot.id);
  });
});
