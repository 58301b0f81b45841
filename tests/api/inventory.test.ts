import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type {
  InventoryItem,
  InventoryOverview,
  ListItemsResponse,
  SuggestionsResponse,
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
import { usePlatformEnvironment } from '../support/platform-env.js';

// The after-close step runs in this process against the same local stack, as closeAuction will.
usePlatformEnvironment();
const { inventoryAfterClose } = await import('../../functions/src/inventory/inventory.service.js');
const { systemContext } = await import('../../functions/src/platform/context.js');

let house: Owner;
let other: Owner;

beforeAll(async () => {
  [house, other] = await Promise.all([ownerWithAddOns(), ownerWithAddOns()]);
  await setSettings(house.token, {
    photoRequirement: 'optional',
    defaultStorageLocation: 'Vault A',
  });
});

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
const itemInput = (overrides: Record<string, unknown> = {}) => ({
  title: `Sapphire ring ${(counter += 1)}`,
  category: 'Jewelry & Watches',
  estimatedValue: { low: 50_000, high: 80_000 },
  condition: 'Good',
  ...overrides,
});

const create = (token: string, overrides: Record<string, unknown> = {}) =>
  domain<InventoryItem>('POST', '/inventory/items', { token, body: itemInput(overrides) });

const created = async (token = house.token, overrides: Record<string, unknown> = {}) =>
  ok(create(token, overrides), 201);

const read = (id: string, token = house.token) =>
  ok(domain<InventoryItem>('GET', `/inventory/items/${id}`, { token }));

const addToAuction = (item: InventoryItem, auctionId: string, token = house.token) =>
  domain<InventoryItem>('POST', `/inventory/items/${item.id}/auction`, {
    token,
    body: { auctionId },
  });

const lotsOf = (auctionId: string, token = house.token) =>
  ok(domain<{ lots: Lot[] }>('GET', `/auctions/${auctionId}/lots`, { token })).then(
    (body) => body.lots,
  );

/** POST a photo as a browser form would. */
async function upload(token: string, itemId: string, data: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([data as BlobPart]), name);
  const response = await fetch(`${inject('domainUrl')}/inventory/items/${itemId}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as InventoryItem,
    headers: response.headers,
  };
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a tiny test image body'),
]);

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

interface SaleLot {
  title: string;
  category?: string | null;
  estimateLow?: number;
  hammer: number | null;
}

/**
 * A Completed auction of `owner` whose lots sold (hammer) or passed (null), plus any lots already
 * in `auction`; answers the auction and its lots after the sale.
 */
async function runSale(owner: Owner, lots: SaleLot[], auction?: Auction) {
  const sale = auction ?? (await createAuction(owner.token, { title: `Sale ${Date.now()}` }));
  for (const [index, lot] of lots.entries()) {
    await ok(
      domain('POST', `/auctions/${sale.id}/lots`, {
        token: owner.token,
        body: {
          lotNumber: `S${index + 1}`,
          title: lot.title,
          category: lot.category ?? null,
          estimateLow: lot.estimateLow ?? 100_000,
          estimateHigh: (lot.estimateLow ?? 100_000) * 2,
        },
      }),
      201,
    );
  }
  await ok(domain('POST', `/auctions/${sale.id}/publish`, { token: owner.token }));
  const bidder = await createBidder(owner.token, {
    firstName: 'Ivy',
    lastName: 'Buyer',
    email: `ivy-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    stats: strongStats(),
  });
  const registration = await ok(
    domain<Registration>('POST', `/auctions/${sale.id}/register`, {
      token: owner.token,
      body: { bidderId: bidder.id },
    }),
    201,
  );
  expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  await ok(domain('POST', `/auctions/${sale.id}/go-live`, { token: owner.token }));
  const catalogue = await lotsOf(sale.id, owner.token);
  for (const lot of catalogue) {
    const planned = lots.find((candidate) => candidate.title === lot.title);
    const hammer =
      planned === undefined ? hammerFor.get(lot.inventoryItemId ?? '') : planned.hammer;
    await ok(
      domain('PUT', `/auctions/${sale.id}/lots/${lot.id}/result`, {
        token: owner.token,
        body: hammer ? { outcome: 'sold', hammer, bidderId: bidder.id } : { outcome: 'passed' },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${sale.id}/close`, { token: owner.token }));
  return { auction: sale, lots: await lotsOf(sale.id, owner.token) };
}

/** The hammer a lot made from an inventory item sells for in runSale (absent: it passes). */
const hammerFor = new Map<string, number>();

describe('inventory feature access and permissions', () => {
  it('answers 403 to an account whose plan lacks the add-on', async () => {
    const plain = await freshOwner();
    const reply = await domain('GET', '/inventory/items', { token: plain.token });
    expect(reply.status).toBe(403);
    expect(messageOf(reply)).toBe('Access denied: inventory feature not available in your plan');
    expect((await create(plain.token)).status).toBe(403);
  });

  it('lets a viewer read but not add, and staff add but not delete', async () => {
    const viewer = await harborviewToken(demo.viewer);
    expect((await domain('GET', '/inventory/items', { token: viewer })).status).toBe(200);
    const refused = await create(viewer);
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('forbidden');

    const staff = await harborviewToken(demo.staff);
    const item = await created(staff, { title: 'Staff test ring' });
    const deleted = await domain('DELETE', `/inventory/items/${item.id}`, {
      token: staff,
      headers: ifMatch(item.etag),
    });
    expect(deleted.status).toBe(403);
    const owner = await harborviewToken(demo.owner);
    const gone = await domain('DELETE', `/inventory/items/${item.id}`, {
      token: owner,
      headers: ifMatch(item.etag),
    });
    expect(gone.status).toBe(204);
  });

  it("never shows another tenant's item: 404 on every route", async () => {
    const item = await created();
    const theirs = { token: other.token };
    expect((await domain('GET', `/inventory/items/${item.id}`, theirs)).status).toBe(404);
    expect(
      (
        await domain('PATCH', `/inventory/items/${item.id}`, {
          ...theirs,
          headers: ifMatch(item.etag),
          body: { title: 'Mine now' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await domain('DELETE', `/inventory/items/${item.id}`, {
          ...theirs,
          headers: ifMatch(item.etag),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await domain('POST', `/inventory/items/${item.id}/status`, {
          ...theirs,
          body: { status: 'On Hold' },
        })
      ).status,
    ).toBe(404);
    expect((await upload(other.token, item.id, PNG, 'a.png')).status).toBe(404);
    const list = await ok(
      domain<ListItemsResponse>(
        'GET',
        `/inventory/items?search=${encodeURIComponent(item.title)}`,
        theirs,
      ),
    );
    expect(list.total).toBe(0);
  });
});

describe('inventory items', () => {
  it('creates an item with the defaults and a first score', async () => {
    const reply = await create(house.token, { location: '' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const item = reply.body;
    expect(reply.headers.get('etag')).toBe(`"${item.etag}"`);
    expect(item).toMatchObject({
      status: 'Available',
      location: 'Vault A',
      currency: 'USD',
      consignor: null,
      photos: [],
      auction: null,
      lastSoldPrice: null,
      categorySuggested: false,
    });
    expect(item.acquiredDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(item.auctionSuggestionScore).toBeGreaterThanOrEqual(0);
    expect(item.auctionSuggestionScore).toBeLessThanOrEqual(100);
    expect(['Hot', 'Warm', 'Cool', 'Cold']).toContain(item.marketTrend);
    expect(item.suggestionReasons[0]).toContain('Too little sale history for Jewelry & Watches');
    expect(item.history.map((entry) => entry.action)).toEqual(['created']);
    expect(await read(item.id)).toEqual(item);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'title'],
      [{ estimatedValue: { low: 500, high: 100 } }, 'estimatedValue.high'],
      [{ estimatedValue: { low: 1.5, high: 100 } }, 'estimatedValue.low'],
      [{ category: 'Cars' }, 'category'],
      [{ condition: 'Mint' }, 'condition'],
      [{ acquiredDate: '2026-02-30' }, 'acquiredDate'],
      [{ status: 'Sold' }, 'status'],
      [{ consignor: { name: '' } }, 'consignor.name'],
    ];
    for (const [overrides, field] of cases) {
      const reply = await create(house.token, overrides);
      expect(reply.status, JSON.stringify(overrides)).toBe(400);
      expect(fieldsOf(reply)).toContain(field);
    }
  });

  it('suggests the category from the title when it is left out (auto-categorise on)', async () => {
    const teapot = await created(house.token, {
      category: undefined,
      title: 'Georgian sterling teapot',
    });
    expect(teapot.category).toBe('Silver');
    expect(teapot.categorySuggested).toBe(true);
    const unclear = await create(house.token, { category: undefined, title: 'Box of oddments' });
    expect(unclear.status).toBe(400);
    expect(fieldsOf(unclear)).toEqual(['category']);
  });

  it('updates over the ETag: 428 without, 412 stale, history names the fields', async () => {
    const item = await created();
    const path = `/inventory/items/${item.id}`;
    expect((await domain('PATCH', path, { token: house.token, body: { title: 'X' } })).status).toBe(
      428,
    );
    const first = await ok(
      domain<InventoryItem>('PATCH', path, {
        token: house.token,
        headers: ifMatch(item.etag),
        body: { title: 'Renamed ring', location: 'Shelf 4', condition: 'Excellent' },
      }),
    );
    expect(first).toMatchObject({ title: 'Renamed ring', location: 'Shelf 4' });
    expect(first.etag).not.toBe(item.etag);
    expect(first.history[0]).toMatchObject({
      action: 'edited',
      fields: ['title', 'condition', 'location'],
    });
    const stale = await domain('PATCH', path, {
      token: house.token,
      headers: ifMatch(item.etag),
      body: { title: 'Lost update' },
    });
    expect(stale.status).toBe(412);
    expect((await read(item.id)).title).toBe('Renamed ring');
    const unknown = await domain('PATCH', path, {
      token: house.token,
      headers: ifMatch(first.etag),
      body: { status: 'Sold' },
    });
    expect(unknown.status).toBe(400);
  });

  it('moves among the manual statuses, never to In Auction or Sold by hand', async () => {
    const item = await created();
    const move = (status: string, etag?: string) =>
      domain<InventoryItem>('POST', `/inventory/items/${item.id}/status`, {
        token: house.token,
        ...(etag ? { headers: ifMatch(etag) } : {}),
        body: { status, reason: 'Inspection' },
      });
    const held = await ok(move('On Hold', item.etag));
    expect(held.status).toBe('On Hold');
    expect(held.history[0]?.message).toBe('Status Available → On Hold: Inspection');
    expect((await move('Damaged', item.etag)).status).toBe(412);
    for (const status of ['Sold', 'In Auction']) {
      const refused = await move(status);
      expect(refused.status).toBe(400);
      expect(fieldsOf(refused)).toEqual(['status']);
    }
    expect((await move('Bogus')).status).toBe(400);
    expect((await ok(move('In Storage'))).status).toBe('In Storage');
  });

  it('deletes over the ETag when one is sent, and without one too', async () => {
    const item = await created();
    const path = `/inventory/items/${item.id}`;
    expect(
      (await domain('DELETE', path, { token: house.token, headers: ifMatch('stale') })).status,
    ).toBe(412);
    expect(
      (await domain('DELETE', path, { token: house.token, headers: ifMatch(item.etag) })).status,
    ).toBe(204);
    expect((await domain('GET', path, { token: house.token })).status).toBe(404);
    const other = await created();
    const otherPath = `/inventory/items/${other.id}`;
    expect((await domain('DELETE', otherPath, { token: house.token })).status).toBe(204);
    expect((await domain('GET', otherPath, { token: house.token })).status).toBe(404);
  });
});

describe('inventory list', () => {
  it('searches, filters and pages with continuation tokens', async () => {
    const marker = `Marker${Date.now()}`;
    const made: InventoryItem[] = [];
    for (let index = 0; index < 5; index += 1) {
      made.push(
        await created(house.token, {
          title: `${marker} lot ${index}`,
          category: index < 3 ? 'Art' : 'Ceramics',
          status: index === 0 ? 'In Storage' : 'Available',
        }),
      );
    }
    await created(house.token, {
      title: 'Consigned chair',
      category: 'Furniture',
      consignor: { name: `${marker} Estate`, contact: '' },
      location: `${marker.toUpperCase()} ROOM`,
    });
    const seen: string[] = [];
    let continuation: string | null = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({ search: marker.toLowerCase(), limit: '2' });
      if (continuation) query.set('continuation', continuation);
      const page: ListItemsResponse = await ok(
        domain<ListItemsResponse>('GET', `/inventory/items?${query.toString()}`, {
          token: house.token,
        }),
      );
      expect(page.total).toBe(6);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((item) => item.id));
      continuation = page.continuation;
      pages += 1;
    } while (continuation && pages < 10);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    expect(seen).toEqual(expect.arrayContaining(made.map((item) => item.id)));

    const art = await ok(
      domain<ListItemsResponse>('GET', `/inventory/items?search=${marker}&category=Art`, {
        token: house.token,
      }),
    );
    expect(art.total).toBe(3);
    const stored = await ok(
      domain<ListItemsResponse>(
        'GET',
        `/inventory/items?search=${marker}&status=${encodeURIComponent('In Storage')}`,
        { token: house.token },
      ),
    );
    expect(stored.items.map((item) => item.id)).toEqual([made[0]?.id]);
    const bad = await domain('GET', '/inventory/items?status=Lost&limit=0', {
      token: house.token,
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(expect.arrayContaining(['status', 'limit']));
    const badToken = await domain('GET', '/inventory/items?continuation=nonsense', {
      token: house.token,
    });
    expect(badToken.status).toBe(400);
  });
});

describe('inventory photos', () => {
  it('keeps JPEG/PNG/WebP by content, serves them signed in, refuses anything else', async () => {
    const item = await created();
    const added = await upload(house.token, item.id, PNG, 'front.png');
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const [photo] = added.body.photos;
    expect(photo).toMatchObject({ contentType: 'image/png', size: PNG.length });
    expect(added.body.history[0]?.action).toBe('photo_added');

    const bytes = await fetch(
      `${inject('domainUrl')}/inventory/items/${item.id}/photos/${photo?.id}`,
      { headers: { authorization: `Bearer ${house.token}` } },
    );
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PNG)).toBe(true);
    const anonymous = await fetch(
      `${inject('domainUrl')}/inventory/items/${item.id}/photos/${photo?.id}`,
    );
    expect(anonymous.status).toBe(401);
    const stranger = await domain('GET', `/inventory/items/${item.id}/photos/${photo?.id}`, {
      token: other.token,
    });
    expect(stranger.status).toBe(404);

    const renamed = await upload(house.token, item.id, Buffer.from('plain text'), 'photo.jpg');
    expect([400, 415]).toContain(renamed.status);
    expect(messageOf(renamed)).toBe('A photo must be a JPEG, PNG or WebP image');

    const removed = await ok(
      domain<InventoryItem>('DELETE', `/inventory/items/${item.id}/photos/${photo?.id}`, {
        token: house.token,
      }),
    );
    expect(removed.photos).toEqual([]);
    expect(removed.history[0]?.action).toBe('photo_removed');
  });
});

describe('add to auction', () => {
  it('applies the photo rule from the inventory settings', async () => {
    const owner = await ownerWithAddOns();
    const auction = await createAuction(owner.token);
    const plain = await created(owner.token, { estimatedValue: { low: 10_000, high: 50_000 } });
    const valuable = await created(owner.token, {
      estimatedValue: { low: 80_000, high: 100_000 },
    });
    // A new account requires photos of every item.
    const refused = await addToAuction(plain, auction.id, owner.token);
    expect(refused.status).toBe(409);
    expect(messageOf(refused)).toContain('required for all');

    await setSettings(owner.token, { photoRequirement: 'valuable_only' });
    const valuableRefused = await addToAuction(valuable, auction.id, owner.token);
    expect(valuableRefused.status).toBe(409);
    expect(messageOf(valuableRefused)).toContain('valuable items only');
    expect(messageOf(valuableRefused)).toContain('USD 1,000.00');
    expect((await addToAuction(plain, auction.id, owner.token)).status).toBe(201);
    expect((await upload(owner.token, valuable.id, PNG, 'v.png')).status).toBe(201);
    expect((await addToAuction(valuable, auction.id, owner.token)).status).toBe(201);
    expect(await lotsOf(auction.id, owner.token)).toHaveLength(2);
  });

  it('makes a lot of the item; the item is In Auction until removed', async () => {
    const auction = await createAuction(house.token, { title: 'Jewels Evening' });
    const item = await created(house.token, {
      description: 'A fine ring',
      consignor: { name: 'Estate of Ada', contact: 'ada@example.com' },
    });
    const reply = await addToAuction(item, auction.id);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.status).toBe('In Auction');
    expect(reply.body.auction).toMatchObject({
      auctionId: auction.id,
      auctionTitle: 'Jewels Evening',
      lotNumber: '1',
      previousStatus: 'Available',
    });
    const [lot] = await lotsOf(auction.id);
    expect(lot).toMatchObject({
      id: reply.body.auction?.lotId,
      title: item.title,
      description: 'A fine ring',
      category: 'Jewelry',
      estimateLow: 50_000,
      estimateHigh: 80_000,
      consignor: { name: 'Estate of Ada', contact: 'ada@example.com' },
      inventoryItemId: item.id,
    });

    const deleted = await domain('DELETE', `/inventory/items/${item.id}`, {
      token: house.token,
      headers: ifMatch(reply.body.etag),
    });
    expect(deleted.status).toBe(409);
    expect(messageOf(deleted)).toContain('In Auction');
    const moved = await domain('POST', `/inventory/items/${item.id}/status`, {
      token: house.token,
      body: { status: 'Available' },
    });
    expect(moved.status).toBe(409);
    expect((await addToAuction(reply.body, auction.id)).status).toBe(409);

    const back = await ok(
      domain<InventoryItem>('DELETE', `/inventory/items/${item.id}/auction`, {
        token: house.token,
      }),
    );
    expect(back).toMatchObject({ status: 'Available', auction: null });
    expect(back.history[0]?.action).toBe('removed_from_auction');
    expect(await lotsOf(auction.id)).toEqual([]);
  });

  it('refuses an auction past Upcoming, one of another tenant, and bad bodies', async () => {
    const item = await created();
    const { auction } = await runSale(house, [{ title: 'Only lot', hammer: null }]);
    const completed = await addToAuction(item, auction.id);
    expect(completed.status).toBe(409);
    expect(messageOf(completed)).toContain('Draft or Upcoming');
    expect(messageOf(completed)).toContain('Completed');
    const theirs = await createAuction(other.token);
    expect((await addToAuction(item, theirs.id)).status).toBe(404);
    const bad = await domain('POST', `/inventory/items/${item.id}/auction`, {
      token: house.token,
      body: { auctionId: '' },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['auctionId']);
    expect((await read(item.id)).status).toBe('Available');
  });

  it('makes exactly one lot when two people add the same item at once', async () => {
    const auction = await createAuction(house.token);
    const item = await created();
    const replies = await Promise.all([
      addToAuction(item, auction.id),
      addToAuction(item, auction.id),
      addToAuction(item, auction.id),
    ]);
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.every((status) => status === 201 || status === 409 || status === 412)).toBe(
      true,
    );
    const lots = await lotsOf(auction.id);
    expect(lots).toHaveLength(1);
    expect((await read(item.id)).auction?.lotId).toBe(lots[0]?.id);
  });
});

describe('after an auction closes', () => {
  it('marks sold items Sold with the hammer, returns passed ones, and is safe to run twice', async () => {
    const auction = await createAuction(house.token, { title: 'Closing Sale' });
    const sold = await created();
    const passed = await created(house.token, { status: 'In Storage' });
    await ok(addToAuction(sold, auction.id), 201);
    await ok(addToAuction(passed, auction.id), 201);
    hammerFor.set(sold.id, 125_000);
    const { lots } = await runSale(house, [], auction);
    const ctx = systemContext(house.accountId);
    await inventoryAfterClose(ctx, auction.id, lots);

    const soldAfter = await read(sold.id);
    expect(soldAfter).toMatchObject({ status: 'Sold', lastSoldPrice: 125_000 });
    expect(soldAfter.history[0]).toMatchObject({
      action: 'sold',
      message: 'Sold for USD 1,250.00 in Closing Sale',
    });
    const passedAfter = await read(passed.id);
    expect(passedAfter).toMatchObject({ status: 'In Storage', auction: null });
    expect(passedAfter.history[0]?.action).toBe('returned');

    await inventoryAfterClose(ctx, auction.id, lots);
    expect(await read(sold.id)).toEqual(soldAfter);
    expect(await read(passed.id)).toEqual(passedAfter);
    const manual = await domain('POST', `/inventory/items/${sold.id}/status`, {
      token: house.token,
      body: { status: 'Available' },
    });
    expect(manual.status).toBe(409);
  });

  it('carries a result corrected after the close to the item: a new hammer, or the sale undone', async () => {
    const auction = await createAuction(house.token, { title: 'Corrected Sale' });
    const item = await created(house.token, { status: 'In Storage' });
    await ok(addToAuction(item, auction.id), 201);
    hammerFor.set(item.id, 90_000);
    const { lots } = await runSale(house, [], auction);
    const lot = lots.find((candidate) => candidate.inventoryItemId === item.id);
    expect(await read(item.id)).toMatchObject({ status: 'Sold', lastSoldPrice: 90_000 });
    const path = `/auctions/${auction.id}/lots/${lot?.id}/result`;

    await ok(
      domain('PUT', path, {
        token: house.token,
        body: {
          outcome: 'sold',
          hammer: 95_000,
          bidderId: lot?.result?.buyerId,
          reason: 'Hammer misread',
        },
      }),
    );
    const repriced = await read(item.id);
    expect(repriced).toMatchObject({ status: 'Sold', lastSoldPrice: 95_000 });
    expect(repriced.history[0]?.message).toContain('Result corrected: sold for');

    await ok(
      domain('PUT', path, {
        token: house.token,
        body: { outcome: 'passed', reason: 'The buyer withdrew before the hammer' },
      }),
    );
    const returned = await read(item.id);
    expect(returned).toMatchObject({ status: 'In Storage', auction: null, lastSoldPrice: null });
    expect(returned.history[0]).toMatchObject({ action: 'returned' });
    expect(returned.history[0]?.message).toContain('Result corrected: passed');
  });
});

describe('overview and AI suggestions', () => {
  it('counts, values and ranks the items', async () => {
    const owner = await ownerWithAddOns();
    await setSettings(owner.token, { photoRequirement: 'optional' });
    const jewels: InventoryItem[] = [];
    for (const [index, condition] of ['Poor', 'Fair', 'Good', 'Excellent'].entries()) {
      jewels.push(
        await created(owner.token, {
          condition,
          estimatedValue: { low: 100_000 * (index + 1), high: 200_000 * (index + 1) },
        }),
      );
    }
    const withdrawn = await created(owner.token, { condition: 'Excellent', status: 'Withdrawn' });
    const chair = await created(owner.token, {
      category: 'Furniture',
      estimatedValue: { low: 10_000, high: 30_000 },
    });
    const auction = await createAuction(owner.token);
    await ok(addToAuction(chair, auction.id, owner.token), 201);

    const overview = await ok(
      domain<InventoryOverview>('GET', '/inventory/overview', { token: owner.token }),
    );
    const all = [...jewels, withdrawn, chair];
    const scores = await Promise.all(all.map((item) => read(item.id, owner.token)));
    expect(overview.totalItems).toBe(6);
    expect(overview.inAuction).toBe(1);
    const midpoints = scores.reduce(
      (sum, item) => sum + Math.round((item.estimatedValue.low + item.estimatedValue.high) / 2),
      0,
    );
    expect(overview.totalValue).toEqual({
      amount: midpoints,
      currency: 'USD',
      otherCurrencies: [],
    });
    const mean = scores.reduce((sum, item) => sum + item.auctionSuggestionScore, 0) / 6;
    expect(overview.avgScore).toBe(Math.round(mean * 10) / 10);
    expect(overview.statusCounts).toHaveLength(8);
    expect(Object.fromEntries(overview.statusCounts.map((row) => [row.status, row.count]))).toEqual(
      {
        Available: 4,
        'In Storage': 0,
        'In Auction': 1,
        Sold: 0,
        Withdrawn: 1,
        'On Hold': 0,
        Reserved: 0,
        Damaged: 0,
      },
    );
    // With no sales yet, Jewelry & Watches trends Hot on its prior; the withdrawn one is not offered.
    expect(overview.hotItems.map((item) => item.id)).toEqual(
      [jewels[3], jewels[2], jewels[1]].map((item) => item?.id),
    );
    const hotScores = overview.hotItems.map((item) => item.auctionSuggestionScore);
    expect(hotScores).toEqual([...hotScores].sort((a, b) => b - a));
  });

  it('lists items scoring 85 or more that could go to auction, best first, with reasons', async () => {
    const owner = await ownerWithAddOns();
    const old = '2024-01-02';
    const best = await created(owner.token, {
      title: 'Diamond necklace',
      condition: 'Excellent',
      acquiredDate: old,
      estimatedValue: { low: 1_500_000, high: 2_500_000 },
    });
    const good = await created(owner.token, {
      title: 'Diamond brooch',
      condition: 'Good',
      acquiredDate: old,
      estimatedValue: { low: 1_500_000, high: 2_500_000 },
      status: 'In Storage',
    });
    const held = await created(owner.token, {
      title: 'Diamond tiara',
      condition: 'Excellent',
      acquiredDate: old,
      estimatedValue: { low: 1_500_000, high: 2_500_000 },
      status: 'On Hold',
    });
    const poor = await created(owner.token, { title: 'Bent ring', condition: 'Poor' });
    const before = await ok(
      domain<SuggestionsResponse>('GET', '/inventory/suggestions', { token: owner.token }),
    );
    expect(before.threshold).toBe(85);
    expect(before.items).toEqual([]);

    // The house sells jewellery well: every lot at twice its low estimate.
    await runSale(
      owner,
      Array.from({ length: 8 }, (_, index) => ({
        title: `Diamond ring ${index}`,
        category: 'Jewelry',
        estimateLow: 100_000,
        hammer: 200_000,
      })),
    );
    const recomputed = await ok(
      domain<{ rescored: number }>('POST', '/inventory/suggestions/recompute', {
        token: owner.token,
      }),
    );
    expect(recomputed.rescored).toBe(4);
    const after = await ok(
      domain<SuggestionsResponse>('GET', '/inventory/suggestions', { token: owner.token }),
    );
    expect(after.items.map((item) => item.id)).toEqual([best.id, good.id]);
    const [top] = after.items;
    expect(top?.auctionSuggestionScore).toBeGreaterThanOrEqual(85);
    expect(top?.suggestionReasons[0]).toBe(
      'Jewelry & Watches sold 100% of lots in the last year, at 2.0× the low estimate',
    );
    expect(top?.marketTrend).toBe('Hot');
    expect(top?.valueEstimate).toEqual({
      low: 160_000,
      high: 240_000,
      basis: 'Median hammer of the 5 most similar Jewelry & Watches lots sold',
    });
    expect((await read(held.id, owner.token)).auctionSuggestionScore).toBeGreaterThanOrEqual(85);
    expect((await read(poor.id, owner.token)).auctionSuggestionScore).toBeLessThan(85);
    const viewer = await harborviewToken(demo.viewer);
    expect(
      (await domain('POST', '/inventory/suggestions/recompute', { token: viewer })).status,
    ).toBe(403);
  });
});
