import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxControl, type AccountSnapshot } from '../../../dev/platforms/client.js';
import {
  startPlatformSandbox,
  platformUrls,
  type PlatformSandbox,
} from '../../../dev/platforms/server.js';
import { platforms, type Platform } from '../../auctions/auctions.schema.js';
import { preferredCategories } from '../../bidders/bidders.schema.js';
import {
  PlatformError,
  connectorFor,
  platformCategoryOf,
  type PlatformConnector,
  type PlatformFailure,
  type PlatformPage,
  type PushedAuction,
} from './index.js';

/**
 * Each adapter against the platform sandbox over real HTTP: what it reads must be what the
 * platform holds (the control API shows that in the connector's shapes), page by page to the
 * end; what it pushes must come back; and every failure must arrive as its PlatformError kind.
 */

let sandbox: PlatformSandbox;
let control: ReturnType<typeof sandboxControl>;

beforeAll(async () => {
  sandbox = await startPlatformSandbox({ port: 0 });
  control = sandboxControl(sandbox.url);
});
afterAll(async () => {
  await sandbox.close();
});

const connector = (platform: Platform, apiKey: string, timeoutMs = 5_000) =>
  connectorFor(platform, {
    baseUrl: platformUrls(sandbox.url)[platform],
    credentials: { apiKey },
    timeoutMs,
  });

async function everyPage<T>(read: (cursor: string | null) => Promise<PlatformPage<T>>) {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: PlatformPage<T> = await read(cursor);
    items.push(...page.items);
    cursor = page.next;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { items, pages };
}

const byChange = <T extends { updatedAt: string; externalId: string }>(items: T[]) =>
  [...items].sort(
    (a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.externalId.localeCompare(b.externalId),
  );

async function failureOf(call: Promise<unknown>): Promise<PlatformFailure> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return (error as PlatformError).failure;
}

describe.each(platforms)('%s adapter', (platform) => {
  let key: string;
  let snapshot: AccountSnapshot;
  let client: PlatformConnector;

  beforeAll(async () => {
    // More auctions and bidders than one page (50) holds, so paging runs to a second page.
    ({ key } = await control.createAccount({
      platform,
      name: `${platform} Contract House`,
      auctions: 56,
      lotsPerAuction: { min: 1, max: 4 },
      bidders: 120,
      seed: 7,
    }));
    snapshot = await control.account(key);
    client = connector(platform, key);
  });

  it('answers whose account the key opens', async () => {
    expect(await client.testCredentials()).toEqual({ accountName: `${platform} Contract House` });
  });

  it('lists every auction, oldest change first, page by page to the end', async () => {
    const { items, pages } = await everyPage((cursor) => client.listAuctions(cursor, null));
    expect(pages).toBeGreaterThan(1);
    expect(items).toEqual(
      byChange(snapshot.auctions).map(
        ({ externalId, title, status, startsAt, endsAt, lotCount, updatedAt }) => ({
          externalId,
          title,
          status,
          startsAt,
          endsAt,
          lotCount,
          updatedAt,
        }),
      ),
    );
  });

  it('lists every bidder, oldest change first, page by page to the end', async () => {
    const { items, pages } = await everyPage((cursor) => client.listBidders(cursor, null));
    expect(pages).toBeGreaterThan(1);
    expect(items).toEqual(byChange(snapshot.bidders));
  });

  it('fetches each auction with its lots and results, and its registrations', async () => {
    for (const { registrations, ...auction } of snapshot.auctions) {
      expect(await client.fetchAuction(auction.externalId)).toEqual(auction);
      expect(await client.pullRegistrations(auction.externalId)).toEqual(registrations);
      expect(await client.pullResults(auction.externalId)).toEqual(
        auction.lots.flatMap((lot) =>
          lot.result ? [{ lotExternalId: lot.externalId, ...lot.result }] : [],
        ),
      );
    }
    expect(
      snapshot.auctions.some((auction) =>
        auction.lots.some((lot) => lot.result?.outcome === 'sold'),
      ),
    ).toBe(true);
    expect(snapshot.auctions.some((auction) => auction.registrations.length > 0)).toBe(true);
  });

  it('lists only what changed on the platform since a given instant', async () => {
    const since = [...snapshot.auctions, ...snapshot.bidders]
      .map((item) => item.updatedAt)
      .sort()
      .at(-1) as string;
    const [auction] = snapshot.auctions;
    const [, bidder] = snapshot.bidders;
    const changed = await control.changeAuction(key, auction?.externalId ?? '', {
      title: 'Renamed on the platform',
    });
    const moved = await control.changeBidder(key, bidder?.externalId ?? '', {
      email: 'moved@example.com',
    });

    const auctions = await everyPage((cursor) => client.listAuctions(cursor, since));
    expect(auctions.items.map((item) => [item.externalId, item.title])).toEqual([
      [changed.externalId, 'Renamed on the platform'],
    ]);
    const bidders = await everyPage((cursor) => client.listBidders(cursor, since));
    expect(bidders.items.map((item) => [item.externalId, item.email])).toEqual([
      [moved.externalId, 'moved@example.com'],
    ]);
    // The time it changed is the platform's, to its precision (some keep whole seconds).
    expect(
      Date.parse(moved.updatedAt) - Date.parse(bidders.items[0]?.updatedAt ?? ''),
    ).toBeLessThan(1000);
  });

  it('pushes a new auction, reads it back, and replaces it with a second push', async () => {
    const lots: PushedAuction['lots'] = Array.from({ length: 60 }, (_, index) => ({
      lotNumber: String(index + 1),
      title: `Pushed lot ${index + 1}`,
      description: index % 2 ? `Described ${index}` : '',
      category:
        index % 7 === 6
          ? null
          : (preferredCategories[index % preferredCategories.length] as string),
      estimateLow: index % 5 === 4 ? null : 10_000 + index * 2_550,
      estimateHigh: index % 5 === 4 ? null : 15_000 + index * 3_010,
      reserve: index % 3 === 0 ? 8_000 + index * 99 : null,
      consignor: index % 4 === 0 ? 'Estate of Ada Pushwell' : null,
    }));
    const pushed: PushedAuction = {
      title: 'Autumn Pushed Sale',
      description: 'Sent from Lotwise.',
      type: 'Hybrid',
      category: 'art',
      currency: 'USD',
      timeZone: 'America/Chicago',
      startsAt: '2030-10-01T15:00:00.000Z',
      endsAt: '2030-10-08T15:00:00.000Z',
      buyersPremiumPercent: 22.5,
      location: 'The Saleroom, Lakeside',
      lots,
    };
    const created = await client.pushAuction(pushed, null);
    const read = await client.fetchAuction(created.externalId);
    expect(read).toMatchObject({
      externalId: created.externalId,
      title: pushed.title,
      description: pushed.description,
      status: 'upcoming',
      type: pushed.type,
      category: platformCategoryOf(platform, 'auction', 'art'),
      currency: 'USD',
      timeZone: 'America/Chicago',
      startsAt: pushed.startsAt,
      endsAt: pushed.endsAt,
      buyersPremiumPercent: 22.5,
      location: pushed.location,
      lotCount: 60,
      updatedAt: created.updatedAt,
    });
    expect(read.lots.map(({ externalId: _id, result: _result, ...lot }) => lot)).toEqual(
      lots.map((lot) => ({
        ...lot,
        category: lot.category === null ? null : platformCategoryOf(platform, 'lot', lot.category),
      })),
    );

    const replaced = await client.pushAuction(
      { ...pushed, title: 'Autumn Pushed Sale (revised)', lots: lots.slice(0, 3) },
      created.externalId,
    );
    expect(replaced.externalId).toBe(created.externalId);
    const again = await client.fetchAuction(created.externalId);
    expect(again.title).toBe('Autumn Pushed Sale (revised)');
    // A re-sent lot keeps the platform's id for it.
    expect(again.lots.map((lot) => lot.externalId)).toEqual(
      read.lots.slice(0, 3).map((lot) => lot.externalId),
    );

    const record = await control.pushed(key);
    expect(record.map((push) => [push.action, push.externalId])).toEqual([
      ['created', created.externalId],
      ['replaced', created.externalId],
    ]);
  });

  describe('failures', () => {
    let faultKey: string;
    beforeAll(async () => {
      ({ key: faultKey } = await control.createAccount({ platform, auctions: 1, bidders: 2 }));
    });

    const faulted = async (faults: Parameters<typeof control.setFaults>[1], timeoutMs?: number) => {
      await control.setFaults(faultKey, faults);
      return connector(platform, faultKey, timeoutMs);
    };

    it.each([
      [{ expired_key: true }, 'key_expired'],
      [{ invalid_key: true }, 'key_invalid'],
      [{ server_error: true }, 'unavailable'],
      [{ unavailable: true }, 'unavailable'],
      [{ rate_limited: true }, 'rate_limited'],
      [{ bad_payload: 'shape' }, 'bad_response'],
      [{ bad_payload: 'json' }, 'bad_response'],
    ] as const)('%o is %s', async (faults, failure) => {
      const faultedClient = await faulted(faults);
      expect(await failureOf(faultedClient.testCredentials())).toBe(failure);
      expect(await failureOf(faultedClient.listBidders(null, null))).toBe(failure);
    });

    it('a key the platform does not know is key_invalid', async () => {
      expect(await failureOf(connector(platform, 'not-a-key-of-anyone').testCredentials())).toBe(
        'key_invalid',
      );
    });

    it('an auction the platform does not have is not_found', async () => {
      await control.clearFaults(faultKey);
      expect(await failureOf(connector(platform, faultKey).fetchAuction('4040404'))).toBe(
        'not_found',
      );
    });

    it('a platform that never answers is a timeout, after the client timeout', async () => {
      const faultedClient = await faulted({ timeout: true }, 150);
      const started = Date.now();
      expect(await failureOf(faultedClient.listAuctions(null, null))).toBe('timeout');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    });

    it('a slow platform answers within a long enough timeout and times out within a short one', async () => {
      expect(
        (await (await faulted({ slow: { delayMs: 30 } })).testCredentials()).accountName,
      ).toBeTruthy();
      expect(
        await failureOf((await faulted({ slow: { delayMs: 400 } }, 100)).testCredentials()),
      ).toBe('timeout');
    });

    it('a platform that goes down mid-sync answers, then is unavailable', async () => {
      const faultedClient = await faulted({ fail_after: { requests: 2 } });
      await faultedClient.testCredentials();
      await faultedClient.listAuctions(null, null);
      expect(await failureOf(faultedClient.listBidders(null, null))).toBe('unavailable');
    });

    it('a platform nobody listens on is unavailable', async () => {
      const port = await new Promise<number>((resolve) => {
        const server = createServer().listen(0, 'localhost', () => {
          const { port: free } = server.address() as AddressInfo;
          server.close(() => resolve(free));
        });
      });
      const closed = connectorFor(platform, {
        baseUrl: `http://localhost:${port}/${platform}`,
        credentials: { apiKey: faultKey },
        timeoutMs: 2_000,
      });
      expect(await failureOf(closed.testCredentials())).toBe('unavailable');
    });
  });
});
