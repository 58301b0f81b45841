import { randomUUID } from 'node:crypto';
import type { Timer } from '@azure/functions';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimerFunction } from '../../functions/src/platform/functions.js';
import { createBidder, domain, type BidderListItem } from '../support/bidders.js';
import {
  call,
  clearSandboxStarts,
  clearThrottle,
  database,
  demo,
  DEMO_PASSWORD,
  login,
  signedIn,
  type Reply,
  type Session,
} from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The expiry job runs here, in the test's process, against the stack's database: as the stack's
// own timer would, without waiting for the hour.
usePlatformEnvironment();
const { containerDefinitions, functionsFor } = await import('../../functions/src/registry.js');
const { InvocationContext } = await import('../../functions/dev/host/azure-functions.js');
const { SANDBOX_LIFETIME_HOURS, SANDBOX_STARTS } =
  await import('../../functions/src/sandbox/sandbox.service.js');

const { db, dispose } = await database();
afterAll(dispose);

type DemoSession = Session & { accessToken: string };

const tryDemo = () => call<DemoSession>('POST', '/login/demo');

async function sandbox(): Promise<DemoSession> {
  const reply = await tryDemo();
  if (reply.status !== 200) {
    throw new Error(`Try the demo failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

beforeEach(clearSandboxStarts);
afterEach(clearThrottle);

async function runExpiryJob(): Promise<void> {
  const job = functionsFor('auth').find(
    (fn): fn is TimerFunction => fn.kind === 'timer' && fn.name === 'sandbox-expiry',
  );
  if (!job) throw new Error('the auth app registers no sandbox-expiry timer');
  const now = new Date().toISOString();
  const timer: Timer = {
    isPastDue: false,
    schedule: { adjustForDST: true },
    scheduleStatus: { last: now, next: now, lastUpdated: now },
  };
  await job.handler(
    timer,
    new InvocationContext({
      invocationId: randomUUID(),
      functionName: job.name,
      logHandler: () => undefined,
    }),
  );
}

/** As if the demo period of this sandbox had passed. */
async function expire(session: DemoSession): Promise<void> {
  const id = session.account?.id as string;
  await db
    .container('sandboxes')
    .item(id, id)
    .patch([{ op: 'set', path: '/expiresAt', value: new Date(Date.now() - 1000).toISOString() }]);
}

async function count(container: string, query: string, parameters: Record<string, string>) {
  const { resources } = await db
    .container(container)
    .items.query<number>({
      query: `SELECT VALUE COUNT(1) FROM c WHERE ${query}`,
      parameters: Object.entries(parameters).map(([name, value]) => ({ name, value })),
    })
    .fetchAll();
  return resources[0] ?? 0;
}

/** Every document anywhere that belongs to the sandbox's account or to its visitor. */
async function leftOf(session: DemoSession): Promise<Record<string, number>> {
  const accountId = session.account?.id as string;
  const userId = session.user.id;
  const left: Record<string, number> = {};
  for (const definition of containerDefinitions) {
    if (definition.partitionKey === '/accountId') {
      left[definition.id] = await count(definition.id, 'c.accountId = @a', { '@a': accountId });
    }
  }
  left.users = await count('users', 'c.id = @u OR c.userId = @u', { '@u': userId });
  left.sessions = await count('sessions', 'c.userId = @u', { '@u': userId });
  left.tokens = await count('tokens', 'c.userId = @u OR c.accountId = @a', {
    '@u': userId,
    '@a': accountId,
  });
  left.sandboxes = await count('sandboxes', 'c.id = @a', { '@a': accountId });
  return left;
}

const nothingLeft = (left: Record<string, number>) =>
  Object.fromEntries(Object.keys(left).map((key) => [key, 0]));

async function bidderTotal(token: string): Promise<number> {
  const reply = await domain<{ total: number; bidders: BidderListItem[] }>(
    'GET',
    '/listBidders?limit=1',
    { token },
  );
  expect(reply.status).toBe(200);
  return reply.body.total;
}

const meStatus = async (token: string) => (await call('GET', '/users/me', { token })).status;

describe('Try the demo', () => {
  it('gives every visit a sandbox of its own, seeded like Harborview', async () => {
    const started = Date.now();
    const [first, second] = [await sandbox(), await sandbox()];
    expect(first.account?.id).not.toBe(second.account?.id);
    expect(first.user.id).not.toBe(second.user.id);
    for (const visit of [first, second]) {
      expect(visit.accountSelection).toBe('selected');
      expect(visit.account).toMatchObject({ name: 'Harborview Auctions', role: 'owner' });
      expect(visit.account?.houses.map((house) => house.name).sort()).toEqual([
        'Harborview Estates',
        'Harborview Fine Art',
      ]);
      const expires = Date.parse(
        (visit.account as { demoExpiresAt?: string } | undefined)?.demoExpiresAt ?? '',
      );
      expect(expires - started).toBeGreaterThanOrEqual(SANDBOX_LIFETIME_HOURS * 3_600_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(SANDBOX_LIFETIME_HOURS * 3_600_000);
      // Harborview's 63 bidders, one of them merged as a duplicate, and the same first one.
      expect(await bidderTotal(visit.accessToken)).toBe(62);
      const found = await domain<{ bidders: BidderListItem[] }>(
        'GET',
        '/listBidders?search=HV-1001',
        { token: visit.accessToken },
      );
      expect(found.body.bidders.map((bidder) => bidder.bidderId)).toEqual(['HV-1001']);
    }
    const groups = await call<{ groups: { name: string; houseIds: string[] }[] }>(
      'GET',
      '/auction-house-groups',
      { token: first.accessToken },
    );
    expect(groups.body.groups.map((group) => [group.name, group.houseIds.length])).toEqual([
      ['New England Houses', 2],
    ]);

    // Nobody sees or changes another visitor's demo, nor Harborview's.
    const mine = await createBidder(first.accessToken);
    expect((await domain('GET', `/bidders/${mine.id}`, { token: first.accessToken })).status).toBe(
      200,
    );
    expect((await domain('GET', `/bidders/${mine.id}`, { token: second.accessToken })).status).toBe(
      404,
    );
    const owner = await signedIn(demo.owner);
    expect((await domain('GET', `/bidders/${mine.id}`, { token: owner.accessToken })).status).toBe(
      404,
    );
    expect(await bidderTotal(second.accessToken)).toBe(62);
    expect(await bidderTotal(owner.accessToken)).toBe(62);
  });

  it('makes a visitor who cannot sign in with a password', async () => {
    const visit = await sandbox();
    const reply = await login(visit.user.email, DEMO_PASSWORD);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({
      error: { code: 'unauthorized', message: 'Invalid email or password' },
    });
  });

  it(`starts at most ${SANDBOX_STARTS.perAddress} demos an hour from one address`, async () => {
    for (let visit = 1; visit <= SANDBOX_STARTS.perAddress; visit += 1) {
      expect((await tryDemo()).status).toBe(200);
    }
    const refused = (await tryDemo()) as Reply<unknown>;
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(SANDBOX_STARTS.windowMinutes * 60 - 120);
    expect(retryAfter).toBeLessThanOrEqual(SANDBOX_STARTS.windowMinutes * 60);
    expect(refused.body).toEqual({
      error: {
        code: 'too_many_requests',
        message:
          'Too many demos were started from your network in the last hour. Try again in 60 minutes.',
        details: { retryAfterSeconds: retryAfter },
      },
    });
  });
});

describe('the sandbox expiry job', () => {
  it('removes an expired sandbox completely, even run twice at once, and nothing else', async () => {
    const [gone, kept] = [await sandbox(), await sandbox()];
    const owner = await signedIn(demo.owner);
    const harborviewTotal = await bidderTotal(owner.accessToken);
    // Leave more behind than the seed did: a bidder, an invitation (a link token), audit entries.
    await createBidder(gone.accessToken);
    const invited = await call('POST', '/auction-house/invite', {
      token: gone.accessToken,
      body: { email: `invitee-${randomUUID().slice(0, 8)}@example.com`, role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const before = await leftOf(gone);
    for (const part of [
      'accounts',
      'audit',
      'bidders',
      'users',
      'sessions',
      'tokens',
      'sandboxes',
    ]) {
      expect(before[part], `the sandbox has ${part} to remove`).toBeGreaterThan(0);
    }

    await expire(gone);
    await Promise.all([runExpiryJob(), runExpiryJob()]);

    const left = await leftOf(gone);
    expect(left).toEqual(nothingLeft(left));
    expect(await meStatus(gone.accessToken)).toBe(401);
    expect(
      (await call('POST', '/me/refresh', { body: { refreshToken: gone.refreshToken } })).status,
    ).toBe(401);
    expect(
      (
        await call('POST', '/tokens/access', {
          token: gone.sessionToken,
          body: { userId: gone.user.id, accountId: gone.account?.id },
        })
      ).status,
    ).toBe(401);

    expect(await meStatus(kept.accessToken)).toBe(200);
    expect(await bidderTotal(kept.accessToken)).toBe(62);
    expect((await leftOf(kept)).sandboxes).toBe(1);
    expect(await bidderTotal(owner.accessToken)).toBe(harborviewTotal);
  });

  it('finishes a removal that was cut short', async () => {
    const visit = await sandbox();
    await expire(visit);
    // As if a run had died part way: the account's own records are gone, the rest is not.
    const accounts = db.container('accounts');
    const accountId = visit.account?.id as string;
    const { resources } = await accounts.items
      .query<{ id: string }>({
        query: 'SELECT c.id FROM c WHERE c.accountId = @a',
        parameters: [{ name: '@a', value: accountId }],
      })
      .fetchAll();
    await Promise.all(resources.map(({ id }) => accounts.item(id, accountId).delete()));
    expect((await leftOf(visit)).bidders).toBeGreaterThan(0);

    await runExpiryJob();

    const left = await leftOf(visit);
    expect(left).toEqual(nothingLeft(left));
    expect(await meStatus(visit.accessToken)).toBe(401);
  });

  it('leaves a sandbox alone until its time is up', async () => {
    const visit = await sandbox();
    await runExpiryJob();
    expect(await meStatus(visit.accessToken)).toBe(200);
    expect((await leftOf(visit)).sandboxes).toBe(1);
  });
});
