import { randomUUID } from 'node:crypto';
import type { Timer } from '@azure/functions';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sandboxControl, type AccountSnapshot } from '../../functions/dev/platforms/client.js';
import type { Auction, AuctionListItem } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Bidder } from '../../functions/src/bidders/bidders.schema.js';
import type { Conflict } from '../../functions/src/conflicts/conflicts.schema.js';
import {
  KEY_EXPIRED_MESSAGE,
  type PlatformConnection,
  type SyncRun,
  type SyncSettings,
} from '../../functions/src/integrations/integrations.schema.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  signedInToken,
  type Owner,
} from '../support/bidders.js';
import type { TimerFunction } from '../../functions/src/platform/functions.js';
import { demo, ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The schedule's timer runs in this process against the same local stack.
usePlatformEnvironment();

const control = () => sandboxControl(inject('platformsUrl'));

const platformPath = (platform: string) => encodeURIComponent(platform);

/**
 * Connects a platform. The account syncs by hand and sends no edit on its own first, so nothing
 * runs beside what a test asks for (the schedule and real-time sync have their own tests).
 */
async function connect(owner: Owner, platform: string, apiKey: string) {
  const settings = await domain<SyncSettings & { etag: string }>('GET', '/settings/sync', {
    token: owner.token,
  });
  if (settings.body.frequency !== 'manual' || settings.body.realTimeSync) {
    await saveSync(owner, { frequency: 'manual', realTimeSync: false });
  }
  return domain<PlatformConnection>('PUT', `/platforms/${platformPath(platform)}/connection`, {
    token: owner.token,
    body: { apiKey },
  });
}

async function saveSync(owner: Owner, changes: Partial<SyncSettings>) {
  const read = await domain<{ etag: string }>('GET', '/settings/sync', { token: owner.token });
  const saved = await domain('PUT', '/settings/sync', {
    token: owner.token,
    body: changes,
    headers: ifMatch(read.body.etag),
  });
  expect(saved.status).toBe(200);
}

async function auctionsFrom(owner: Owner, platform: string) {
  const reply = await domain<{ auctions: AuctionListItem[]; total: number }>(
    'GET',
    `/listAuctions?platform=${platformPath(platform)}&limit=1000`,
    { token: owner.token },
  );
  return reply.body;
}

/** Waits for a queued sync to end, reading its log as the APIs tab's View Logs does. */
async function finished(owner: Owner, platform: string, runId: string): Promise<SyncRun> {
  for (let polls = 0; polls < 300; polls += 1) {
    const logs = await domain<{ runs: SyncRun[] }>(
      'GET',
      `/platforms/${platformPath(platform)}/logs`,
      { token: owner.token },
    );
    const run = logs.body.runs.find((entry) => entry.id === runId);
    if (run && run.status !== 'queued' && run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`sync ${runId} did not finish`);
}

async function sync(owner: Owner, platform: string) {
  const started = await domain<SyncRun>('POST', `/platforms/sync/${platformPath(platform)}`, {
    token: owner.token,
  });
  expect(started.status).toBe(202);
  return finished(owner, platform, started.body.id);
}

describe('connecting a platform', () => {
  let owner: Owner;
  let key: string;
  beforeAll(async () => {
    owner = await freshOwner();
    ({ key } = await control().createAccount({
      platform: 'ProxyBid',
      auctions: 2,
      lotsPerAuction: 3,
      bidders: 5,
    }));
  });

  it('lists the six platforms, none connected yet', async () => {
    const reply = await domain<{ platforms: PlatformConnection[] }>('GET', '/platforms', {
      token: owner.token,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.platforms.map((entry) => [entry.platform, entry.status])).toEqual([
      ['ProxyBid', 'Disconnected'],
      ['BidWrangler', 'Disconnected'],
      ['Invaluable', 'Disconnected'],
      ['Auction.zip', 'Disconnected'],
      ['LiveAuctioneers', 'Disconnected'],
      ['BidSquare', 'Disconnected'],
    ]);
  });

  it('refuses a key the platform refuses, naming apiKey, and saves nothing', async () => {
    const reply = await connect(owner, 'ProxyBid', 'not-a-real-key-1234');
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['apiKey']);
    const status = await domain<PlatformConnection>('GET', '/platforms/ProxyBid/status', {
      token: owner.token,
    });
    expect(status.body.status).toBe('Disconnected');
  });

  it('connects with a key the platform accepts, and never answers the key', async () => {
    const reply = await connect(owner, 'ProxyBid', key);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      platform: 'ProxyBid',
      connected: true,
      status: 'Connected',
      keyLast4: key.slice(-4),
    });
    const everything = JSON.stringify(
      (await domain('GET', '/platforms', { token: owner.token })).body,
    );
    expect(everything).not.toContain(key);
  });

  it('is for the owner and admins: staff and viewers are refused, and another account sees none of it', async () => {
    const staff = await signedInToken(demo.staff);
    const viewer = await signedInToken(demo.viewer);
    for (const token of [staff, viewer]) {
      const reply = await domain('PUT', '/platforms/ProxyBid/connection', {
        token,
        body: { apiKey: key },
      });
      expect(reply.status).toBe(403);
    }
    const other = await freshOwner();
    const status = await domain<PlatformConnection>('GET', '/platforms/ProxyBid/status', {
      token: other.token,
    });
    expect(status.body.status).toBe('Disconnected');
  });

  it('answers 400 naming the platform for one it does not know', async () => {
    const reply = await domain('GET', '/platforms/eBay/status', { token: owner.token });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['platform']);
  });
});

describe('importing and syncing auctions', () => {
  let owner: Owner;
  let key: string;
  let platformSide: AccountSnapshot;
  beforeAll(async () => {
    owner = await freshOwner();
    ({ key } = await control().createAccount({
      platform: 'Invaluable',
      auctions: 4,
      lotsPerAuction: 6,
      bidders: 10,
      seed: 11,
    }));
    platformSide = await control().account(key);
    expect((await connect(owner, 'Invaluable', key)).status).toBe(200);
  });

  it('imports one auction with its lots, and importing it again makes no second one', async () => {
    const first = platformSide.auctions[0]!;
    const imported = await domain<{ change: { action: string; localId: string } }>(
      'POST',
      '/import/Invaluable',
      { token: owner.token, body: { externalId: first.externalId } },
    );
    expect(imported.status).toBe(200);
    expect(imported.body.change.action).toBe('created');
    const auctionId = imported.body.change.localId;
    const auction = await domain<Auction>('GET', `/auctions/${auctionId}`, { token: owner.token });
    expect(auction.body).toMatchObject({
      title: first.title,
      importedFrom: 'Invaluable',
      source: { platform: 'Invaluable', externalId: first.externalId },
      lotCount: first.lots.length,
    });
    const lots = await domain<{ lots: Lot[] }>('GET', `/auctions/${auctionId}/lots`, {
      token: owner.token,
    });
    expect(lots.body.lots.map((lot) => lot.lotNumber).sort()).toEqual(
      first.lots.map((lot) => lot.lotNumber).sort(),
    );

    const again = await domain<{ change: { action: string; localId: string } }>(
      'POST',
      '/import/Invaluable',
      { token: owner.token, body: { externalId: first.externalId } },
    );
    expect(again.body.change).toMatchObject({ action: 'unchanged', localId: auctionId });
    expect((await auctionsFrom(owner, 'Invaluable')).total).toBe(1);
  });

  it('answers 404 for an auction the platform does not have', async () => {
    const reply = await domain('POST', '/import/Invaluable', {
      token: owner.token,
      body: { externalId: 'no-such-auction' },
    });
    expect(reply.status).toBe(404);
  });

  it('syncs every auction as a queued job, then only what changed on the platform', async () => {
    const run = await sync(owner, 'Invaluable');
    expect(run.status).toBe('completed');
    expect(run.counts.created).toBe(platformSide.auctions.length - 1);
    expect((await auctionsFrom(owner, 'Invaluable')).total).toBe(platformSide.auctions.length);
    const status = await domain<PlatformConnection>('GET', '/platforms/Invaluable/status', {
      token: owner.token,
    });
    expect(status.body).toMatchObject({ status: 'Connected', auctionsImported: 4 });
    expect(status.body.lastSync).not.toBeNull();

    const quiet = await sync(owner, 'Invaluable');
    expect(quiet.counts).toMatchObject({ created: 0, updated: 0, conflicts: 0, failed: 0 });

    const second = platformSide.auctions[1]!;
    await control().changeAuction(key, second.externalId, { title: `${second.title} (revised)` });
    const moved = await sync(owner, 'Invaluable');
    expect(moved.counts).toMatchObject({ created: 0, updated: 1 });
    expect(moved.changes).toEqual([
      expect.objectContaining({
        externalId: second.externalId,
        action: 'updated',
        fields: ['title'],
      }),
    ]);
    const { auctions } = await auctionsFrom(owner, 'Invaluable');
    expect(auctions.map((auction) => auction.title)).toContain(`${second.title} (revised)`);
  });

  it('refuses a second sync of the platform while one runs', async () => {
    await control().setFaults(key, { slow: { delayMs: 400 } });
    try {
      const first = await domain<SyncRun>('POST', '/platforms/sync/Invaluable', {
        token: owner.token,
      });
      expect(first.status).toBe(202);
      const second = await domain('POST', '/platforms/sync/Invaluable', { token: owner.token });
      expect(second.status).toBe(409);
      expect(codeOf(second)).toBe('conflict');
      await finished(owner, 'Invaluable', first.body.id);
    } finally {
      await control().clearFaults(key);
    }
  });

  it('pushes a Lotwise edit to the platform, and records it in the auction’s Sync History', async () => {
    // A sale still open to edits: a completed or cancelled one keeps its record.
    const local = (await auctionsFrom(owner, 'Invaluable')).auctions.find(
      (auction) => auction.status !== 'Completed' && auction.status !== 'Cancelled',
    );
    const read = await domain<Auction>('GET', `/auctions/${local!.id}`, { token: owner.token });
    const edited = await domain('PUT', `/auctions/${local!.id}`, {
      token: owner.token,
      body: { title: 'Edited in Lotwise' },
      headers: ifMatch(read.body.etag),
    });
    expect(edited.status).toBe(200);
    const pushed = await domain<SyncRun>('PUT', `/auctions/${local!.id}/sync/Invaluable`, {
      token: owner.token,
      body: { direction: 'push' },
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body.changes[0]).toMatchObject({ action: 'pushed' });
    const onPlatform = await control().account(key);
    expect(
      onPlatform.auctions.find((auction) => auction.externalId === read.body.source?.externalId)
        ?.title,
    ).toBe('Edited in Lotwise');
    const history = await domain<{ runs: SyncRun[] }>(
      'GET',
      `/auctions/${local!.id}/sync-history`,
      { token: owner.token },
    );
    expect(history.body.runs[0]).toMatchObject({ direction: 'push', status: 'completed' });
  });
});

describe('when both sides changed an auction', () => {
  let owner: Owner;
  let key: string;
  let externalId: string;
  let auctionId: string;
  beforeAll(async () => {
    owner = await freshOwner();
    ({ key } = await control().createAccount({
      platform: 'BidSquare',
      auctions: 1,
      lotsPerAuction: 2,
      bidders: 0,
    }));
    externalId = (await control().account(key)).auctions[0]!.externalId;
    // Still to be sold, so the house may edit it too.
    await control().changeAuction(key, externalId, { status: 'upcoming' });
    await connect(owner, 'BidSquare', key);
    const imported = await domain<{ change: { localId: string } }>('POST', '/import/BidSquare', {
      token: owner.token,
      body: { externalId },
    });
    auctionId = imported.body.change.localId;
  });

  async function bothChange(round: string) {
    const read = await domain<Auction>('GET', `/auctions/${auctionId}`, { token: owner.token });
    await domain('PUT', `/auctions/${auctionId}`, {
      token: owner.token,
      body: { title: `Local ${round}` },
      headers: ifMatch(read.body.etag),
    });
    await control().changeAuction(key, externalId, { title: `Platform ${round}` });
  }
  const titleNow = async () =>
    (await domain<Auction>('GET', `/auctions/${auctionId}`, { token: owner.token })).body.title;

  it('prefers the platform by default', async () => {
    await bothChange('a');
    const run = await sync(owner, 'BidSquare');
    expect(run.counts.updated).toBe(1);
    expect(await titleNow()).toBe('Platform a');
  });

  it('keeps the house’s edit when it prefers local', async () => {
    await saveSync(owner, { conflictPolicy: 'prefer_local' });
    await bothChange('b');
    const run = await sync(owner, 'BidSquare');
    expect(run.changes[0]).toMatchObject({ action: 'skipped', fields: ['title'] });
    expect(await titleNow()).toBe('Local b');
  });

  it('keeps the change for review under manual review, changing nothing', async () => {
    await saveSync(owner, { conflictPolicy: 'manual_review' });
    await bothChange('c');
    const run = await sync(owner, 'BidSquare');
    expect(run.counts.conflicts).toBe(1);
    expect(run.changes[0]).toMatchObject({ action: 'conflict', fields: ['title'] });
    expect(await titleNow()).toBe('Local c');
  });

  it('takes the newer side under use newest', async () => {
    await saveSync(owner, { conflictPolicy: 'use_newest' });
    await bothChange('d');
    // The platform's change came after the house's edit.
    await sync(owner, 'BidSquare');
    expect(await titleNow()).toBe('Platform d');
  });
});

describe('when the platform fails', () => {
  let owner: Owner;
  let key: string;
  beforeAll(async () => {
    owner = await freshOwner();
    ({ key } = await control().createAccount({
      platform: 'LiveAuctioneers',
      auctions: 6,
      lotsPerAuction: 2,
      bidders: 0,
      seed: 3,
    }));
    await connect(owner, 'LiveAuctioneers', key);
  });

  it('explains an expired key on the connection, and recovers once the key works again', async () => {
    await control().setFaults(key, { expired_key: true });
    const run = await sync(owner, 'LiveAuctioneers');
    expect(run).toMatchObject({ status: 'failed', error: KEY_EXPIRED_MESSAGE });
    const status = await domain<PlatformConnection>('GET', '/platforms/LiveAuctioneers/status', {
      token: owner.token,
    });
    expect(status.body).toMatchObject({ status: 'Error', message: KEY_EXPIRED_MESSAGE });
    await control().clearFaults(key);
    expect((await sync(owner, 'LiveAuctioneers')).status).toBe('completed');
  });

  it('keeps what a sync cut off half-way applied, and the next one finishes without duplicates', async () => {
    const fresh = await freshOwner();
    const account = await control().createAccount({
      platform: 'ProxyBid',
      auctions: 6,
      lotsPerAuction: 2,
      bidders: 0,
      seed: 5,
    });
    await connect(fresh, 'ProxyBid', account.key);
    // Enough requests for the list and some auctions, then the platform goes down.
    await control().setFaults(account.key, { fail_after: { requests: 4 } });
    const broken = await sync(fresh, 'ProxyBid');
    expect(broken.status).toBe('failed');
    const part = (await auctionsFrom(fresh, 'ProxyBid')).total;
    expect(part).toBeLessThan(6);
    await control().clearFaults(account.key);
    const resumed = await sync(fresh, 'ProxyBid');
    expect(resumed.status).toBe('completed');
    const { auctions, total } = await auctionsFrom(fresh, 'ProxyBid');
    expect(total).toBe(6);
    const sources = await Promise.all(
      auctions.map(
        async (auction) =>
          (await domain<Auction>('GET', `/auctions/${auction.id}`, { token: fresh.token })).body
            .source?.externalId,
      ),
    );
    expect(new Set(sources).size).toBe(6);
  });
});

describe('bidders from platforms', () => {
  it('makes one person seen on two platforms one bidder with both platform identities', async () => {
    const owner = await freshOwner();
    const person = {
      firstName: 'Marguerite',
      lastName: 'Oyelaran',
      email: 'marguerite.oyelaran@example.com',
    };
    const proxy = await control().createAccount({
      platform: 'ProxyBid',
      auctions: 0,
      bidders: 3,
      include: [person],
    });
    const square = await control().createAccount({
      platform: 'BidSquare',
      auctions: 0,
      bidders: 3,
      include: [person],
    });
    await connect(owner, 'ProxyBid', proxy.key);
    await connect(owner, 'BidSquare', square.key);
    for (const platform of ['ProxyBid', 'BidSquare'] as const) {
      const choices = await domain<{ bidders: { externalId: string; email: string | null }[] }>(
        'GET',
        `/platforms/${platform}/bidders`,
        { token: owner.token },
      );
      expect(choices.status).toBe(200);
      const planted = choices.body.bidders.find((bidder) => bidder.email === person.email);
      expect(planted, `${platform} lists the planted person`).toBeDefined();
      const run = await domain<SyncRun>('POST', `/import/${platform}/bidders`, {
        token: owner.token,
        body: { externalIds: [planted!.externalId] },
      });
      expect(run.status).toBe(200);
      expect(run.body.counts.failed).toBe(0);
    }
    const list = await domain<{ bidders: { id: string }[]; total: number }>(
      'GET',
      `/listBidders?search=${encodeURIComponent('Oyelaran')}`,
      { token: owner.token },
    );
    expect(list.body.total).toBe(1);
    const bidder = await domain<Bidder>('GET', `/bidders/${list.body.bidders[0]!.id}`, {
      token: owner.token,
    });
    expect(bidder.body.platformIdentities.map((identity) => identity.platform).sort()).toEqual([
      'BidSquare',
      'ProxyBid',
    ]);
    // Importing again changes nothing and adds no one.
    const again = await domain<SyncRun>('POST', '/import/ProxyBid/bidders', {
      token: owner.token,
      body: {
        externalIds: [
          bidder.body.platformIdentities.find((i) => i.platform === 'ProxyBid')!.externalId,
        ],
      },
    });
    expect(again.body.counts).toMatchObject({ created: 0, unchanged: 1 });
  });
});

describe('a platform bidder who may be someone on file', () => {
  it('is brought in and kept for a decision under Conflict Resolution, once', async () => {
    const owner = await freshOwner();
    const tag = randomUUID().slice(0, 6);
    const onFile = await createBidder(owner.token, {
      firstName: 'Nora',
      lastName: `Lindqvist${tag}`,
      email: `nora-${tag}@example.com`,
      phone: '+1 401 555 0199',
    });
    const proxy = await control().createAccount({
      platform: 'ProxyBid',
      auctions: 0,
      bidders: 2,
      // The same name and mailbox, but for its +tag: likely the same person, not surely.
      include: [
        {
          firstName: 'Nora',
          lastName: `Lindqvist${tag}`,
          email: `nora-${tag}+auctions@example.com`,
        },
      ],
    });
    await connect(owner, 'ProxyBid', proxy.key);
    const choices = await domain<{ bidders: { externalId: string; email: string | null }[] }>(
      'GET',
      '/platforms/ProxyBid/bidders',
      { token: owner.token },
    );
    const planted = choices.body.bidders.find((bidder) => bidder.email?.includes(tag));
    const importOnce = () =>
      domain<SyncRun>('POST', '/import/ProxyBid/bidders', {
        token: owner.token,
        body: { externalIds: [planted!.externalId] },
      });
    const run = await importOnce();
    expect(run.status).toBe(200);
    expect(run.body.counts.created).toBe(1);
    const listed = async () =>
      (
        await domain<{ items: Conflict[] }>('GET', '/data-upload/conflicts?type=bidder', {
          token: owner.token,
        })
      ).body.items;
    const [conflict, ...others] = await listed();
    expect(others).toEqual([]);
    expect(conflict).toMatchObject({
      type: 'bidder',
      conflictType: 'duplicate',
      status: 'pending',
      uploadId: null,
      uploadName: 'ProxyBid sync',
      source: { kind: 'sync', platform: 'ProxyBid', externalId: planted!.externalId },
      existingId: onFile.id,
    });
    expect(conflict?.fields).toContainEqual({
      field: 'email',
      label: 'Email',
      existing: `nora-${tag}@example.com`,
      imported: `nora-${tag}+auctions@example.com`,
    });
    expect((await importOnce()).status).toBe(200);
    expect(await listed()).toHaveLength(1);
  });
});

describe('a whole platform of bidders', () => {
  it('finds the people the house has, and a sync cut off half-way resumes without doubles', async () => {
    const owner = await freshOwner();
    const theodora = await createBidder(owner.token, {
      firstName: 'Theodora',
      lastName: 'Achterberg',
      email: 'theodora.achterberg@example.com',
    });
    const bartholomew = await createBidder(owner.token, {
      firstName: 'Bartholomew',
      lastName: 'Quistgaard',
      email: 'bart.quistgaard@gmail.com',
      phone: '(555) 201-7788',
    });
    // On the platform: the same address in capitals, and a tagged Gmail alias with a misspelt name.
    const platform = await control().createAccount({
      platform: 'ProxyBid',
      auctions: 0,
      bidders: 60,
      seed: 11,
      include: [
        { firstName: 'Theodora', lastName: 'Achterberg', email: 'THEODORA.ACHTERBERG@EXAMPLE.COM' },
        {
          firstName: 'Bartolomew',
          lastName: 'Quistgaard',
          email: 'bartquistgaard+auctions@gmail.com',
          phone: '555.201.7788',
        },
      ],
    });
    await connect(owner, 'ProxyBid', platform.key);
    await saveSync(owner, { autoImport: false, bidderDataSync: true });
    // The sale list and the first page of 25 bidders, then the platform goes down.
    await control().setFaults(platform.key, { fail_after: { requests: 2 } });
    const broken = await sync(owner, 'ProxyBid');
    expect(broken.status).toBe('failed');
    const part = await domain<{ total: number }>('GET', '/listBidders', { token: owner.token });
    expect(part.body.total).toBeGreaterThan(2);
    expect(part.body.total).toBeLessThan(60);

    await control().clearFaults(platform.key);
    const resumed = await sync(owner, 'ProxyBid');
    expect(resumed.status).not.toBe('failed');
    const linked = await getBidder(owner.token, theodora.id);
    expect(linked.body.platformIdentities).toMatchObject([
      { platform: 'ProxyBid', email: 'THEODORA.ACHTERBERG@EXAMPLE.COM' },
    ]);
    // The alias is found by duplicate detection: merged into the house's bidder, or set beside it
    // for review.
    const alias = await getBidder(owner.token, bartholomew.id);
    if (alias.body.platformIdentities.length === 0) {
      const pairs = await domain<{
        duplicates: { bidder1: { id: string }; bidder2: { id: string } }[];
      }>('GET', '/duplicates', { token: owner.token });
      expect(
        pairs.body.duplicates.some((pair) =>
          [pair.bidder1.id, pair.bidder2.id].includes(bartholomew.id),
        ),
      ).toBe(true);
    }
    // As many bidders as a sync never cut off makes of the same platform (the platform's own
    // near-duplicates merged or paired as anywhere).
    const whole = await freshOwner();
    await createBidder(whole.token, {
      firstName: 'Theodora',
      lastName: 'Achterberg',
      email: 'theodora.achterberg@example.com',
    });
    await createBidder(whole.token, {
      firstName: 'Bartholomew',
      lastName: 'Quistgaard',
      email: 'bart.quistgaard@gmail.com',
      phone: '(555) 201-7788',
    });
    await connect(whole, 'ProxyBid', platform.key);
    await saveSync(whole, { autoImport: false, bidderDataSync: true });
    const uncutRun = await sync(whole, 'ProxyBid');
    // The platform's own bad records (an address that is not one) are logged, not imported.
    expect(uncutRun.status).toBe('partial');
    expect(
      new Set(
        uncutRun.changes.filter((c) => c.action === 'failed').map((change) => change.message),
      ),
    ).toEqual(new Set(['email: Enter a valid email address']));
    const all = await domain<{ total: number }>('GET', '/listBidders', { token: owner.token });
    const uncut = await domain<{ total: number }>('GET', '/listBidders', { token: whole.token });
    expect(all.body.total).toBe(uncut.body.total);
    expect(all.body.total).toBeGreaterThanOrEqual(60 - 2);
    const again = await sync(owner, 'ProxyBid');
    expect(again.counts.created).toBe(0);
    expect(
      (await domain<{ total: number }>('GET', '/listBidders', { token: owner.token })).body.total,
    ).toBe(all.body.total);
  });
});

describe('what Settings › Sync turns off and on', () => {
  it('imports no new sale with auto import off, and brings in bidders with bidder data sync on', async () => {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'BidWrangler',
      auctions: 2,
      lotsPerAuction: 2,
      bidders: 4,
    });
    await connect(owner, 'BidWrangler', key);
    await saveSync(owner, { autoImport: false });
    const quiet = await sync(owner, 'BidWrangler');
    expect(quiet.counts).toMatchObject({ created: 0, skipped: 2 });
    expect(quiet.changes[0]?.message).toBe('Auto import is off in Settings › Sync');
    expect((await auctionsFrom(owner, 'BidWrangler')).total).toBe(0);

    await saveSync(owner, { autoImport: true, bidderDataSync: true });
    const full = await sync(owner, 'BidWrangler');
    expect(full.counts.created).toBe(2 + 4);
    const bidders = await domain<{ total: number }>('GET', '/listBidders', { token: owner.token });
    expect(bidders.body.total).toBe(4);
    const status = await domain<PlatformConnection>('GET', '/platforms/BidWrangler/status', {
      token: owner.token,
    });
    expect(status.body).toMatchObject({ auctionsImported: 2, biddersImported: 4 });
  });
});

describe('a platform sale like one the house made', () => {
  async function houseAndTwin(duplicateHandling: SyncSettings['duplicateHandling']) {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'Invaluable',
      auctions: 1,
      lotsPerAuction: 2,
      bidders: 0,
    });
    const sale = (await control().account(key)).auctions[0]!;
    await connect(owner, 'Invaluable', key);
    await saveSync(owner, { duplicateHandling });
    // The house typed the same sale itself: its title, on its day in the sale's time zone.
    const starts = new Date(sale.startsAt);
    const day = new Intl.DateTimeFormat('en-CA', {
      timeZone: sale.timeZone ?? 'America/New_York',
    }).format(starts);
    const made = await domain<Auction>('POST', '/auctions', {
      token: owner.token,
      body: {
        title: sale.title,
        category: 'art',
        startDate: day,
        startTime: '09:00',
        endDate: day,
        endTime: '23:00',
        timeZone: sale.timeZone ?? 'America/New_York',
      },
    });
    expect(made.status).toBe(201);
    return { owner, sale, twin: made.body };
  }
  const all = async (owner: Owner) =>
    (
      await domain<{ total: number }>('GET', '/listAuctions?limit=100', {
        token: owner.token,
      })
    ).body.total;

  it('is merged into the house’s auction by default', async () => {
    const { owner, sale, twin } = await houseAndTwin('merge');
    const run = await sync(owner, 'Invaluable');
    expect(run.changes[0]).toMatchObject({ externalId: sale.externalId, localId: twin.id });
    expect(await all(owner)).toBe(1);
  });

  it('is skipped, or kept for review, changing nothing', async () => {
    for (const handling of ['skip', 'manual_review'] as const) {
      const { owner, twin } = await houseAndTwin(handling);
      const run = await sync(owner, 'Invaluable');
      expect(run.changes[0]).toMatchObject({
        localId: twin.id,
        action: handling === 'skip' ? 'skipped' : 'conflict',
      });
      expect(await all(owner)).toBe(1);
    }
  });

  it('is imported beside it as a new version', async () => {
    const { owner, twin } = await houseAndTwin('new_version');
    const run = await sync(owner, 'Invaluable');
    expect(run.counts.created).toBe(1);
    expect(run.changes[0]?.localId).not.toBe(twin.id);
    expect(await all(owner)).toBe(2);
  });
});

describe('statuses from the platform', () => {
  it('brings an upcoming sale in as the default import status says, and follows the platform only while auto-update is on', async () => {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'BidSquare',
      auctions: 1,
      lotsPerAuction: 2,
      bidders: 0,
    });
    const sale = (await control().account(key)).auctions[0]!;
    await control().changeAuction(key, sale.externalId, { status: 'upcoming' });
    await connect(owner, 'BidSquare', key);
    await saveSync(owner, { defaultImportStatus: 'draft' });
    await sync(owner, 'BidSquare');
    const [imported] = (await auctionsFrom(owner, 'BidSquare')).auctions;
    const statusOf = async () =>
      (await domain<Auction>('GET', `/auctions/${imported!.id}`, { token: owner.token })).body
        .status;
    expect(await statusOf()).toBe('Draft');

    await saveSync(owner, { autoUpdateStatus: false });
    await control().changeAuction(key, sale.externalId, { status: 'live' });
    await sync(owner, 'BidSquare');
    expect(await statusOf()).toBe('Draft');

    await saveSync(owner, { autoUpdateStatus: true });
    await control().changeAuction(key, sale.externalId, { status: 'cancelled' });
    await sync(owner, 'BidSquare');
    expect(await statusOf()).toBe('Cancelled');
  });
});

describe('real-time sync', () => {
  it('sends an edit of an imported auction to its platform by itself, and records it', async () => {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'ProxyBid',
      auctions: 1,
      lotsPerAuction: 2,
      bidders: 0,
    });
    const externalId = (await control().account(key)).auctions[0]!.externalId;
    await control().changeAuction(key, externalId, { status: 'upcoming' });
    await connect(owner, 'ProxyBid', key);
    const imported = await domain<{ change: { localId: string } }>('POST', '/import/ProxyBid', {
      token: owner.token,
      body: { externalId },
    });
    const auctionId = imported.body.change.localId;
    await saveSync(owner, { realTimeSync: true });
    const read = await domain<Auction>('GET', `/auctions/${auctionId}`, { token: owner.token });
    const edited = await domain('PUT', `/auctions/${auctionId}`, {
      token: owner.token,
      body: { title: 'Sent as soon as saved' },
      headers: ifMatch(read.body.etag),
    });
    expect(edited.status).toBe(200);
    // The push is recorded once it is done: wait for its record, then look on the platform.
    const pushed = async () =>
      (
        await domain<{ runs: SyncRun[] }>('GET', `/auctions/${auctionId}/sync-history`, {
          token: owner.token,
        })
      ).body.runs.find((run) => run.direction === 'push');
    await expect.poll(pushed, { timeout: 20_000, interval: 100 }).toBeDefined();
    expect(await pushed()).toMatchObject({ status: 'completed', by: 'Test Person' });
    const onPlatform = await control().account(key);
    expect(onPlatform.auctions.find((auction) => auction.externalId === externalId)?.title).toBe(
      'Sent as soon as saved',
    );
  });
});

describe("a platform's own export files", () => {
  async function upload(
    owner: Owner,
    platform: string,
    fields: Record<string, string>,
    file: { name: string; bytes: Buffer },
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([file.bytes as BlobPart]), file.name);
    const response = await fetch(`${inject('domainUrl')}/import/${platformPath(platform)}/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
      body: form,
    });
    return {
      status: response.status,
      body: (await response.json()) as { run: SyncRun; errors: { row: number; field: string }[] },
    };
  }

  it('imports the bidders of a platform export, each with its platform identity', async () => {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'Invaluable',
      auctions: 0,
      bidders: 5,
    });
    const file = await control().exportFile('Invaluable', 'bidders', 'csv', key);
    const reply = await upload(owner, 'Invaluable', { kind: 'bidders' }, file);
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toEqual([]);
    expect(reply.body.run.counts.created + reply.body.run.counts.updated).toBe(5);
    const list = await domain<{ bidders: { id: string }[] }>('GET', '/listBidders', {
      token: owner.token,
    });
    const bidder = await domain<Bidder>('GET', `/bidders/${list.body.bidders[0]!.id}`, {
      token: owner.token,
    });
    expect(bidder.body.platformIdentities[0]?.platform).toBe('Invaluable');
    // The same file again adds no one.
    const again = await upload(owner, 'Invaluable', { kind: 'bidders' }, file);
    expect(again.body.run.counts.created).toBe(0);
  });

  it('puts a catalogue export into a Lotwise auction, and names what it needs', async () => {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'LiveAuctioneers',
      auctions: 1,
      lotsPerAuction: 5,
      bidders: 0,
    });
    const sale = (await control().account(key)).auctions[0]!;
    const file = await control().exportFile(
      'LiveAuctioneers',
      'catalogue',
      'xlsx',
      key,
      sale.externalId,
    );
    const missing = await upload(owner, 'LiveAuctioneers', { kind: 'catalogue' }, file);
    expect(missing.status).toBe(400);
    const created = await domain<Auction>('POST', '/auctions', {
      token: owner.token,
      body: {
        title: 'From an export',
        category: 'art',
        startDate: '2031-05-01',
        startTime: '10:00',
        endDate: '2031-05-01',
        endTime: '16:00',
      },
    });
    const reply = await upload(
      owner,
      'LiveAuctioneers',
      { kind: 'catalogue', auctionId: created.body.id },
      file,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.run.counts.created).toBe(5);
    const lots = await domain<{ lots: Lot[] }>('GET', `/auctions/${created.body.id}/lots`, {
      token: owner.token,
    });
    expect(lots.body.lots.map((lot) => lot.lotNumber).sort()).toEqual(
      sale.lots.map((lot) => lot.lotNumber).sort(),
    );
  });
});

describe('the sync schedule', () => {
  it('syncs a connected platform when its time comes, once, and next after the chosen interval', async () => {
    const { functionsFor } = await import('../../functions/src/registry.js');
    const { InvocationContext } = await import('../../functions/dev/host/azure-functions.js');
    const job = functionsFor('domain').find(
      (fn): fn is TimerFunction => fn.kind === 'timer' && fn.name === 'platforms-sync-schedule',
    );
    if (!job) throw new Error('the domain app registers no platforms-sync-schedule timer');
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'Auction.zip',
      auctions: 3,
      lotsPerAuction: 2,
      bidders: 0,
    });
    await connect(owner, 'Auction.zip', key);
    // Connected again once the schedule is every 30 minutes: a new connection syncs at once.
    await saveSync(owner, { frequency: '30min' });
    const platform = encodeURIComponent('Auction.zip');
    await domain('PUT', `/platforms/${platform}/connection`, {
      token: owner.token,
      body: { apiKey: key },
    });
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
    // Run twice, as two overlapping invocations (or the host's own timer) might.
    await job.handler(timer, context);
    await job.handler(timer, context);
    const runs = async () =>
      (
        await domain<{ runs: SyncRun[] }>('GET', `/platforms/${platform}/logs`, {
          token: owner.token,
        })
      ).body.runs.filter((run) => run.trigger === 'schedule');
    const [scheduled, ...others] = await runs();
    expect(others).toEqual([]);
    const done = await finished(owner, 'Auction.zip', scheduled!.id);
    expect(done.counts.created).toBe(3);
    // Not due again until 30 minutes have passed.
    await job.handler(timer, context);
    expect(await runs()).toHaveLength(1);
  });
});
