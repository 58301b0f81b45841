import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platforms } from '../../src/auctions/auctions.schema.js';
import { SandboxControlError, sandboxControl, type AccountSnapshot } from './client.js';
import { startPlatformSandbox, type PlatformSandbox } from './server.js';
import { demoKey, expiredDemoKey } from './store.js';

/** The sandbox's own promises: its seed, its demo accounts and its control API. */

let sandbox: PlatformSandbox;
let control: ReturnType<typeof sandboxControl>;

beforeAll(async () => {
  sandbox = await startPlatformSandbox({ port: 0 });
  control = sandboxControl(sandbox.url);
});
afterAll(async () => {
  await sandbox.close();
});

/** What a seed decides, leaving out the times (which follow the clock) and the key. */
const content = (account: AccountSnapshot) => ({
  auctions: account.auctions.map((auction) => ({
    externalId: auction.externalId,
    title: auction.title,
    category: auction.category,
    lots: auction.lots,
    registrations: auction.registrations.map(({ registeredAt: _at, ...rest }) => rest),
  })),
  bidders: account.bidders.map(({ updatedAt: _updated, lastActive: _active, ...rest }) => rest),
});

describe('the platform sandbox', () => {
  it('seeds the same catalogue and people from the same seed, and others from another', async () => {
    const options = { platform: 'BidSquare', auctions: 4, bidders: 25, seed: 42 } as const;
    const first = await control.account((await control.createAccount(options)).key);
    const second = await control.account((await control.createAccount(options)).key);
    const other = await control.account(
      (await control.createAccount({ ...options, seed: 43 })).key,
    );
    expect(content(second)).toEqual(content(first));
    expect(content(other)).not.toEqual(content(first));
  });

  it.each(platforms)(
    'gives the demo tenant a realistic %s account, and a key it answers as expired',
    async (platform) => {
      const account = await control.account(demoKey(platform));
      expect(account.name).toBe('Harborview Auctions');
      expect(account.auctions.length).toBeGreaterThanOrEqual(6);
      expect(account.auctions.length).toBeLessThanOrEqual(12);
      expect(account.bidders.length).toBeGreaterThanOrEqual(40);
      expect(account.bidders.length).toBeLessThanOrEqual(80);
      for (const auction of account.auctions) {
        expect(auction.lots.length).toBeGreaterThanOrEqual(1);
        expect(auction.lots.length).toBeLessThanOrEqual(41);
      }
      const statuses = new Set(account.auctions.map((auction) => auction.status));
      expect([...statuses]).toEqual(expect.arrayContaining(['upcoming', 'live', 'closed']));
      const closed = account.auctions.filter((auction) => auction.status === 'closed');
      expect(closed.every((auction) => auction.lots.every((lot) => lot.result !== null))).toBe(
        true,
      );
      expect((await control.account(expiredDemoKey(platform))).faults).toEqual({
        expired_key: true,
      });
    },
  );

  it('has many of the same people bidding on several platforms, written differently', async () => {
    const accounts = await Promise.all(
      platforms.map((platform) => control.account(demoKey(platform))),
    );
    const seen = new Map<string, { platforms: Set<string>; emails: Set<string> }>();
    for (const [index, account] of accounts.entries()) {
      for (const bidder of account.bidders) {
        const name = `${bidder.firstName} ${bidder.lastName}`;
        const person = seen.get(name) ?? { platforms: new Set(), emails: new Set() };
        person.platforms.add(platforms[index] as string);
        if (bidder.email) person.emails.add(bidder.email);
        seen.set(name, person);
      }
    }
    const everywhere = [...seen.values()].filter((person) => person.platforms.size >= 2);
    expect(everywhere.length).toBeGreaterThanOrEqual(40);
    // The same person's email is sometimes typed another way, or another address altogether.
    expect(everywhere.filter((person) => person.emails.size > 1).length).toBeGreaterThanOrEqual(10);
  });

  it('changes a lot, registers a bidder and adds one on the platform side', async () => {
    const { key } = await control.createAccount({ platform: 'ProxyBid', auctions: 2, bidders: 5 });
    const before = await control.account(key);
    const auction = before.auctions.find((item) => item.status === 'live') ?? before.auctions[0];
    const [lot] = auction?.lots ?? [];
    const [bidder] = before.bidders;
    const sold = await control.changeLot(key, auction?.externalId ?? '', lot?.externalId ?? '', {
      estimateLow: 120_000,
      result: { outcome: 'sold', hammer: 150_000, buyerId: bidder?.externalId ?? null },
    });
    expect(sold.lots[0]).toMatchObject({
      estimateLow: 120_000,
      result: { outcome: 'sold', hammer: 150_000, buyerExternalId: bidder?.externalId },
    });
    expect(sold.updatedAt > (auction?.updatedAt ?? '')).toBe(true);

    const registered = await control.register(key, auction?.externalId ?? '', {
      bidderId: bidder?.externalId ?? '',
      status: 'pending',
    });
    expect(
      registered.registrations.filter((item) => item.bidderExternalId === bidder?.externalId),
    ).toEqual([expect.objectContaining({ status: 'pending', paddle: null })]);

    const added = await control.addBidder(key, {
      firstName: 'New',
      lastName: 'Arrival',
      email: 'new@example.com',
    });
    expect(added).toMatchObject({
      firstName: 'New',
      lastName: 'Arrival',
      status: 'Active',
      currency: 'USD',
    });
    expect((await control.account(key)).bidders).toHaveLength(6);
  });

  it('seeds an account again, and resets everything to the demo accounts', async () => {
    const { key } = await control.createAccount({
      platform: 'Invaluable',
      auctions: 2,
      bidders: 3,
    });
    const before = await control.account(key);
    await control.changeAuction(key, before.auctions[0]?.externalId ?? '', { title: 'Changed' });
    await control.setFaults(key, { slow: { delayMs: 5 } });
    await control.resetAccount(key);
    const after = await control.account(key);
    expect(content(after)).toEqual(content(before));
    expect(after.faults).toEqual({});

    await control.reset();
    await expect(control.account(key)).rejects.toThrow(SandboxControlError);
    expect((await control.account(demoKey('Invaluable'))).name).toBe('Harborview Auctions');
  });

  it('refuses a bad request naming what is wrong', async () => {
    await expect(control.createAccount({ platform: 'eBay' })).rejects.toThrow(/platform/);
    await expect(
      control.setFaults(demoKey('ProxyBid'), { melted: true } as Parameters<
        typeof control.setFaults
      >[1]),
    ).rejects.toThrow(/400/);
    await expect(control.account('no-such-key')).rejects.toThrow(/404/);
    await expect(
      control.exportFile('ProxyBid', 'bidders', 'csv', demoKey('BidSquare')),
    ).rejects.toThrow(/404/);
    await expect(
      control.changeAuction(demoKey('ProxyBid'), 'nope', { title: 'x' }),
    ).rejects.toThrow(/404/);
  });
});
