import { beforeAll, describe, expect, it } from 'vitest';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type {
  InventoryItem,
  MarketTrendsResponse,
  SimilarResponse,
} from '../../functions/src/inventory/inventory.schema.js';
import type { InventorySettings } from '../../functions/src/settings/settings.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import {
  codeOf,
  createBidder,
  domain,
  freshOwner,
  strongStats,
  type Owner,
} from '../support/bidders.js';
import { demo, ifMatch, signedIn, type Reply } from '../support/identity.js';

/** Similar items and market trends (Settings › Inventory › AI enhancements), over HTTP. */

let house: Owner;
let other: Owner;

async function ok<T>(reply: Promise<Reply<T>>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

async function setSettings(token: string, changes: Partial<InventorySettings>) {
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

const createItem = (token: string, body: Record<string, unknown>) =>
  ok(
    domain<InventoryItem>('POST', '/inventory/items', {
      token,
      body: { condition: 'Good', ...body },
    }),
    201,
  );

const similarOf = (id: string, token = house.token) =>
  domain<SimilarResponse>('GET', `/inventory/items/${id}/similar`, { token });

const trendsOf = (token = house.token) =>
  domain<MarketTrendsResponse>('GET', '/inventory/market-trends', { token });

/** A Completed auction of `owner` in which each lot sold for its hammer or passed (null). */
async function runSale(
  owner: Owner,
  lots: { title: string; category?: string | null; low: number; hammer: number | null }[],
) {
  const sale = await createAuction(owner.token, { title: `Insights sale ${Date.now()}` });
  for (const [index, lot] of lots.entries()) {
    await ok(
      domain('POST', `/auctions/${sale.id}/lots`, {
        token: owner.token,
        body: {
          lotNumber: String(index + 1),
          title: lot.title,
          category: lot.category ?? null,
          estimateLow: lot.low,
          estimateHigh: lot.low * 2,
        },
      }),
      201,
    );
  }
  await ok(domain('POST', `/auctions/${sale.id}/publish`, { token: owner.token }));
  const bidder = await createBidder(owner.token, {
    firstName: 'Iris',
    lastName: 'Bidwell',
    email: `iris-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    stats: strongStats(),
  });
  const registration = await ok(
    domain<Registration>('POST', `/auctions/${sale.id}/register`, {
      token: owner.token,
      body: { bidderId: bidder.id },
    }),
    201,
  );
  expect(registration.status).toBe('approved');
  await ok(domain('POST', `/auctions/${sale.id}/go-live`, { token: owner.token }));
  const catalogue = await ok(
    domain<{ lots: { id: string; title: string }[] }>('GET', `/auctions/${sale.id}/lots`, {
      token: owner.token,
    }),
  );
  for (const lot of catalogue.lots) {
    const hammer = lots.find((planned) => planned.title === lot.title)?.hammer ?? null;
    await ok(
      domain('PUT', `/auctions/${sale.id}/lots/${lot.id}/result`, {
        token: owner.token,
        body: hammer ? { outcome: 'sold', hammer, bidderId: bidder.id } : { outcome: 'passed' },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${sale.id}/close`, { token: owner.token }));
}

let candlesticks: InventoryItem;
let salver: InventoryItem;
let tray: InventoryItem;
let ring: InventoryItem;

beforeAll(async () => {
  [house, other] = await Promise.all([ownerWithAddOns(), ownerWithAddOns()]);
  candlesticks = await createItem(house.token, {
    title: 'Pair of Georgian silver candlesticks',
    category: 'Silver',
    subcategory: 'Candlesticks',
    estimatedValue: { low: 400_000, high: 600_000 },
    condition: 'Excellent',
  });
  salver = await createItem(house.token, {
    title: 'Georgian silver salver',
    category: 'Silver',
    estimatedValue: { low: 100_000, high: 150_000 },
  });
  tray = await createItem(house.token, {
    title: 'Sterling tray',
    category: 'Silver',
    subcategory: 'Candlesticks',
    estimatedValue: { low: 400_000, high: 600_000 },
  });
  ring = await createItem(house.token, {
    title: 'Georgian silver ring',
    category: 'Jewelry & Watches',
    estimatedValue: { low: 400_000, high: 600_000 },
  });
  // Silver lots are told by their titles (no lot category means silver); the ring is Jewelry.
  await runSale(house, [
    { title: 'Georgian silver candlesticks, London', low: 200_000, hammer: 300_000 },
    { title: 'Georgian silver tankard', low: 100_000, hammer: 120_000 },
    { title: 'Sterling silver teapot', low: 100_000, hammer: 90_000 },
    { title: 'Silver cream jug', low: 50_000, hammer: null },
    { title: 'Diamond ring', category: 'Jewelry', low: 100_000, hammer: 250_000 },
  ]);
});

describe('similar items', () => {
  it('lists items of the same category and the comparable sold lots, each with why', async () => {
    const similar = await ok(similarOf(candlesticks.id));
    expect(similar.enabled).toBe(true);
    // The same subcategory and estimate first; the ring is another category.
    expect(similar.items.map((item) => item.id)).toEqual([tray.id, salver.id]);
    expect(similar.items[0]).toMatchObject({
      title: 'Sterling tray',
      status: 'Available',
      currency: 'USD',
      reasons: ['Also Silver · Candlesticks', 'About the same estimate'],
    });
    expect(similar.items[1]?.reasons).toEqual([
      'Also Silver',
      'Shares “georgian”, “silver” in the title',
      'Estimate 75% lower',
    ]);
    expect(similar.items.some((item) => item.id === ring.id || item.id === candlesticks.id)).toBe(
      false,
    );
    // Sold lots only, most alike first: the passed jug and the ring are not comparables.
    expect(similar.sold.map((lot) => lot.title)).toEqual([
      'Georgian silver candlesticks, London',
      'Georgian silver tankard',
      'Sterling silver teapot',
    ]);
    expect(similar.sold[0]).toMatchObject({
      hammer: 300_000,
      currency: 'USD',
      estimateLow: 200_000,
      reasons: [
        'Sold as Silver; shares “georgian”, “silver”, “candlesticks” in the title',
        'Hammered at 1.5× its low estimate',
      ],
    });
    // The same comparables make the item's value estimate: the median of the three hammers.
    await ok(domain('POST', '/inventory/suggestions/recompute', { token: house.token }));
    const item = await ok(
      domain<InventoryItem>('GET', `/inventory/items/${candlesticks.id}`, {
        token: house.token,
      }),
    );
    expect(item.valueEstimate).toMatchObject({ low: 96_000, high: 144_000 });
  });

  it('answers 404 for another tenant’s item or an unknown one, and 403 without the add-on', async () => {
    const reply = await similarOf(candlesticks.id, other.token);
    expect(reply.status).toBe(404);
    expect(codeOf(reply)).toBe('not_found');
    expect((await similarOf('no-such-item')).status).toBe(404);
    const plain = await freshOwner();
    expect((await similarOf(candlesticks.id, plain.token)).status).toBe(403);
  });

  it('says so, with nothing listed, when the account turns suggestions off', async () => {
    const own = await ownerWithAddOns();
    const item = await createItem(own.token, {
      title: 'Oak chest',
      category: 'Furniture',
      estimatedValue: { low: 10_000, high: 20_000 },
    });
    await createItem(own.token, {
      title: 'Oak table',
      category: 'Furniture',
      estimatedValue: { low: 10_000, high: 20_000 },
    });
    expect((await ok(similarOf(item.id, own.token))).items).toHaveLength(1);
    await setSettings(own.token, { suggestSimilarItems: false });
    expect(await ok(similarOf(item.id, own.token))).toEqual({
      enabled: false,
      items: [],
      sold: [],
    });
    // Still another tenant's item is not found, switch or no switch.
    expect((await similarOf(candlesticks.id, own.token)).status).toBe(404);
  });
});

describe('market trends', () => {
  it('is off by default and says only that', async () => {
    const own = await ownerWithAddOns();
    expect(await ok(trendsOf(own.token))).toEqual({ enabled: false });
  });

  it('gives each category’s figures of the closed sale, this month last', async () => {
    await setSettings(house.token, { marketTrendAnalysis: true });
    const trends = await ok(trendsOf());
    if (!trends.enabled) throw new Error('market trends should be on');
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(trends.months).toHaveLength(12);
    expect(trends.months.at(-1)).toBe(thisMonth);
    expect(trends.categories.map((entry) => entry.category)).toEqual([
      'Furniture',
      'Art',
      'Silver',
      'Jewelry & Watches',
      'Textiles',
      'Ceramics',
    ]);
    const silver = trends.categories.find((entry) => entry.category === 'Silver');
    // 3 of 4 sold, at 1.5×, 1.2× and 0.9× the low estimate.
    expect(silver).toMatchObject({ lots: 4, sold: 3, sellThrough: 0.75, medianPriceRatio: 1.2 });
    expect(silver?.months.at(-1)).toEqual({
      month: thisMonth,
      lots: 4,
      sold: 3,
      sellThrough: 0.75,
      medianPriceRatio: 1.2,
    });
    expect(silver?.months.slice(0, -1).every((month) => month.lots === 0)).toBe(true);
    expect(silver?.trendReason).toContain('Silver results in the last 6 months');
    expect(trends.categories.find((entry) => entry.category === 'Jewelry & Watches')).toMatchObject(
      { lots: 1, sold: 1, sellThrough: 1, medianPriceRatio: 2.5 },
    );
    expect(trends.categories.find((entry) => entry.category === 'Art')).toMatchObject({
      lots: 0,
      sellThrough: null,
      medianPriceRatio: null,
    });
    // Each house sees its own results only.
    await setSettings(other.token, { marketTrendAnalysis: true });
    const theirs = await ok(trendsOf(other.token));
    if (!theirs.enabled) throw new Error('market trends should be on');
    expect(theirs.categories.every((entry) => entry.lots === 0)).toBe(true);
    await setSettings(house.token, { marketTrendAnalysis: false });
    expect(await ok(trendsOf())).toEqual({ enabled: false });
  });
});

describe('the demo house', () => {
  it('has AI suggestions, from its silver record, with their reasons', async () => {
    const { accessToken } = await signedIn(demo.owner);
    const suggestions = await ok(
      domain<{ threshold: number; items: InventoryItem[] }>('GET', '/inventory/suggestions', {
        token: accessToken,
      }),
    );
    expect(suggestions.items.length).toBeGreaterThanOrEqual(1);
    for (const item of suggestions.items) {
      expect(item.auctionSuggestionScore).toBeGreaterThanOrEqual(suggestions.threshold);
      expect(['Available', 'In Storage']).toContain(item.status);
      expect(item.suggestionReasons.length).toBeGreaterThan(2);
    }
    expect(suggestions.items[0]?.suggestionReasons[0]).toMatch(/^Silver sold \d+% of lots/);
  });
});
