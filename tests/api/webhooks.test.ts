import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Timer } from '@azure/functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Delivery,
  DeliveryList,
  Webhook,
  WebhookWithSecret,
} from '../../functions/src/webhooks/webhooks.schema.js';
import { createAuction } from '../support/auctions.js';
import {
  bidderInput,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  type Owner,
} from '../support/bidders.js';
import type { TimerFunction } from '../../functions/src/platform/functions.js';
import { call, database, demo, ifMatch, signedIn, type Session } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The sweep runs here, in this process, against the test stack.
usePlatformEnvironment();

/**
 * Outgoing webhooks against a real receiver on this machine (the test stack allows private
 * addresses, as local development does): signed deliveries of the events the product emits,
 * retries with backoff (a second in the test stack), resends, test pings and the delivery log.
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver: records every request; answers each path's scripted statuses, then 200. */
function receiver() {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      const status = scripts.get(path)?.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status < 300 ? 'thanks' : `no: ${status}`);
    });
  });
  return {
    received,
    script: (path: string, statuses: number[]) => scripts.set(path, statuses),
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a receiver does with the shown secret (README, "Verifying a webhook"). */
function verifies(header: string | undefined, body: string, secret: string, now = Date.now()) {
  const parts = (header ?? '').split(',').map((part) => part.split('=') as [string, string]);
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isFinite(t) || Math.abs(now / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

const hook = receiver();
let owner: Owner;
let other: Owner;
let path = 0;

beforeAll(async () => {
  await hook.start();
  [owner, other] = await Promise.all([freshOwner(), freshOwner()]);
});
afterAll(() => hook.stop());

async function newWebhook(events: string[], token = owner.token, extra = {}) {
  const at = `/hook-${(path += 1)}`;
  const reply = await domain<WebhookWithSecret>('POST', '/webhooks', {
    token,
    body: { url: hook.url(at), description: `Test ${at}`, events, ...extra },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { webhook: reply.body, path: at };
}

const deliveriesOf = async (id: string, token = owner.token) =>
  (await domain<DeliveryList>('GET', `/webhooks/${id}/deliveries`, { token })).body.deliveries;

/** Polls the delivery log (the worker runs from the queue) until `done` holds. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const requestsTo = (at: string) => hook.received.filter((request) => request.path === at);

describe('webhooks', () => {
  it('pings an endpoint now, signed with the secret shown once', async () => {
    const { webhook, path: at } = await newWebhook(['bidder.created']);
    expect(webhook.secret).toMatch(/^whsec_/);
    expect(webhook.secretHint).toBe(`whsec_…${webhook.secret.slice(-4)}`);
    const listed = await domain<{ webhooks: Webhook[] }>('GET', '/webhooks', {
      token: owner.token,
    });
    expect(JSON.stringify(listed.body)).not.toContain(webhook.secret);

    const test = await domain<Delivery>('POST', `/webhooks/${webhook.id}/test`, {
      token: owner.token,
    });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ status: 'delivered', event: { type: 'ping' } });
    expect(test.body.attempts).toEqual([
      expect.objectContaining({ statusCode: 200, error: null, responseSnippet: 'thanks' }),
    ]);
    const [ping] = requestsTo(at);
    expect(ping?.headers['lotwise-event']).toBe('ping');
    expect(ping?.headers['lotwise-delivery']).toBe(test.body.id);
    expect(ping?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(ping?.body ?? '')).toEqual(test.body.event);
    const signature = ping?.headers['lotwise-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifies(signature, ping?.body ?? '', webhook.secret)).toBe(true);
    expect(verifies(signature, `${ping?.body} `, webhook.secret)).toBe(false);
    expect(verifies(signature, ping?.body ?? '', 'whsec_someone-else')).toBe(false);
    expect(verifies(signature, ping?.body ?? '', webhook.secret, Date.now() + 600_000)).toBe(false);
  });

  it('tells a failed ping as it went, without retrying it', async () => {
    const { webhook, path: at } = await newWebhook(['bidder.created']);
    hook.script(at, [503]);
    const test = await domain<Delivery>('POST', `/webhooks/${webhook.id}/test`, {
      token: owner.token,
    });
    expect(test.body).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(test.body.attempts[0]).toMatchObject({ statusCode: 503, responseSnippet: 'no: 503' });
  });

  it('delivers auction.published after an auction is published', async () => {
    const { webhook, path: at } = await newWebhook(['auction.published', 'auction.closed']);
    const auction = await createAuction(owner.token);
    const published = await domain('POST', `/auctions/${auction.id}/publish`, {
      token: owner.token,
    });
    expect(published.status).toBe(200);
    const [delivery] = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'delivered',
      'the published auction',
    );
    expect(delivery?.event).toMatchObject({
      type: 'auction.published',
      data: { auction: { id: auction.id, status: 'Upcoming' } },
    });
    const [request] = requestsTo(at);
    expect(request?.headers['lotwise-event']).toBe('auction.published');
    expect(
      verifies(
        request?.headers['lotwise-signature'] as string,
        request?.body ?? '',
        webhook.secret,
      ),
    ).toBe(true);
  });

  it('delivers bidder.created to the endpoints subscribed to it, and to no others', async () => {
    const subscribed = await newWebhook(['bidder.created']);
    const elsewhere = await newWebhook(['auction.closed']);
    const off = await newWebhook(['bidder.created'], owner.token, { enabled: false });
    const bidder = await createBidder(owner.token);
    const [delivery] = await waitFor(
      () => deliveriesOf(subscribed.webhook.id),
      (list) =>
        list.some(
          (entry) =>
            entry.status === 'delivered' &&
            (entry.event.data.bidder as { id: string }).id === bidder.id,
        ),
      'the new bidder',
    );
    expect(delivery?.event.type).toBe('bidder.created');
    expect(JSON.parse(requestsTo(subscribed.path).at(-1)?.body ?? '{}')).toMatchObject({
      type: 'bidder.created',
      data: { bidder: { id: bidder.id, email: bidder.email } },
    });
    expect(await deliveriesOf(elsewhere.webhook.id)).toEqual([]);
    expect(await deliveriesOf(off.webhook.id)).toEqual([]);
  });

  it('delivers bidder.merged when a new bidder is folded into one on file', async () => {
    const { webhook } = await newWebhook(['bidder.created', 'bidder.merged']);
    const person = bidderInput({ phone: '+1 401 555 0199' });
    const original = await createBidder(owner.token, person);
    const again = await domain<{ id: string; mergedBecause: string[] | null }>('POST', '/bidders', {
      token: owner.token,
      body: { ...person, bidderId: `MRG-${Date.now()}` },
    });
    expect(again.body.mergedBecause?.length).toBeGreaterThan(0);
    const list = await waitFor(
      () => deliveriesOf(webhook.id),
      (entries) => entries.length === 2 && entries.every((entry) => entry.status === 'delivered'),
      'the creation and the merge',
    );
    const byType = Object.fromEntries(list.map((entry) => [entry.event.type, entry.event.data]));
    expect(byType['bidder.created']).toMatchObject({ bidder: { id: original.id } });
    expect(byType['bidder.merged']).toMatchObject({
      bidder: { id: original.id },
      mergedBidderNumber: expect.stringMatching(/^MRG-/),
      automatic: true,
    });
  });

  it('delivers registration.decided when a reviewer decides', async () => {
    const { webhook } = await newWebhook(['registration.decided']);
    const auction = await createAuction(owner.token);
    await domain('POST', `/auctions/${auction.id}/publish`, { token: owner.token });
    const bidder = await createBidder(owner.token);
    const registered = await domain<{ status: string }>(
      'POST',
      `/auctions/${auction.id}/register`,
      {
        token: owner.token,
        body: { bidderId: bidder.id },
      },
    );
    expect(registered.body.status).toBe('pending');
    // Sent to review: nothing is decided yet.
    expect(await deliveriesOf(webhook.id)).toEqual([]);
    const decided = await domain('POST', `/auctions/${auction.id}/bidders/${bidder.id}/decision`, {
      token: owner.token,
      body: { decision: 'approve', reason: 'Known to us' },
    });
    expect(decided.status).toBe(200);
    const [delivery] = await waitFor(
      () => deliveriesOf(webhook.id),
      (entries) => entries[0]?.status === 'delivered',
      'the decision',
    );
    expect(delivery?.event).toMatchObject({
      type: 'registration.decided',
      data: { registration: { auctionId: auction.id, bidderId: bidder.id, status: 'approved' } },
    });
  });

  it('retries a delivery the receiver refused, and logs each attempt', async () => {
    const { webhook, path: at } = await newWebhook(['bidder.created']);
    hook.script(at, [500]);
    await createBidder(owner.token);
    const [delivery] = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'delivered',
      'the retried delivery',
    );
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    expect(delivery?.attempts[0]).toMatchObject({ responseSnippet: 'no: 500' });
    const [first, second] = delivery?.attempts ?? [];
    // The first retry waits one base interval (1 s in the test stack).
    expect(Date.parse(second?.at ?? '') - Date.parse(first?.at ?? '')).toBeGreaterThanOrEqual(1000);
    const requests = requestsTo(at);
    expect(requests).toHaveLength(2);
    // The same delivery both times, so a receiver can tell a retry from a new event.
    expect(requests[1]?.headers['lotwise-delivery']).toBe(requests[0]?.headers['lotwise-delivery']);
    expect(delivery?.lastError).toBeNull();
  });

  it('sends, from the sweep, deliveries whose message was lost or whose worker stopped', async () => {
    const { webhook, path: at } = await newWebhook(['bidder.created']);
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const recorded = (id: string, fields: Record<string, unknown>) => ({
      id,
      accountId: owner.accountId,
      webhookId: webhook.id,
      event: {
        id: `evt_${randomUUID()}`,
        type: 'bidder.created',
        createdAt: minutesAgo(6),
        data: { bidder: { id: id } },
      },
      status: 'pending',
      attempts: [],
      nextAttemptAt: minutesAgo(3),
      claimedAt: null,
      createdAt: minutesAgo(6),
      deliveredAt: null,
      lastError: null,
      resendOf: null,
      retries: true,
      ...fields,
    });
    const lost = `dlv_lost_${randomUUID()}`;
    const stuck = `dlv_stuck_${randomUUID()}`;
    const recent = `dlv_recent_${randomUUID()}`;
    const { db, dispose } = await database();
    try {
      const deliveries = db.container('webhookDeliveries');
      await deliveries.items.create(recorded(lost, {}));
      await deliveries.items.create(
        recorded(stuck, { status: 'sending', claimedAt: minutesAgo(6) }),
      );
      // Queued a moment ago: its own message is still on its way, so the sweep leaves it.
      await deliveries.items.create(recorded(recent, { nextAttemptAt: minutesAgo(0.5) }));
    } finally {
      dispose();
    }
    const { functionsFor } = await import('../../functions/src/registry.js');
    const { InvocationContext } = await import('../../functions/dev/host/azure-functions.js');
    const sweep = functionsFor('domain').find(
      (fn): fn is TimerFunction => fn.kind === 'timer' && fn.name === 'webhook-sweep',
    );
    if (!sweep) throw new Error('the domain app registers no webhook-sweep timer');
    const now = new Date().toISOString();
    const timer: Timer = {
      isPastDue: false,
      schedule: { adjustForDST: true },
      scheduleStatus: { last: now, next: now, lastUpdated: now },
    };
    const context = new InvocationContext({
      functionName: sweep.name,
      logHandler: () => undefined,
    });
    // Twice, as overlapping runs might: each delivery is still sent once.
    await sweep.handler(timer, context);
    await sweep.handler(timer, context);
    const list = await waitFor(
      () => deliveriesOf(webhook.id),
      (entries) =>
        [lost, stuck].every(
          (id) => entries.find((entry) => entry.id === id)?.status === 'delivered',
        ),
      'the swept deliveries',
    );
    for (const id of [lost, stuck]) {
      expect(list.find((entry) => entry.id === id)?.attempts).toHaveLength(1);
    }
    expect(list.find((entry) => entry.id === recent)?.status).toBe('pending');
    const sent = requestsTo(at).map((request) => request.headers['lotwise-delivery']);
    expect(sent.filter((id) => id === lost)).toHaveLength(1);
    expect(sent.filter((id) => id === stuck)).toHaveLength(1);
  });

  it('resends a delivery as a new one of the same event', async () => {
    const { webhook, path: at } = await newWebhook(['bidder.created']);
    await createBidder(owner.token);
    const [original] = await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'delivered',
      'the first delivery',
    );
    const resent = await domain<Delivery>(
      'POST',
      `/webhooks/${webhook.id}/deliveries/${original?.id}/resend`,
      { token: owner.token },
    );
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ resendOf: original?.id, event: original?.event });
    await waitFor(
      () => deliveriesOf(webhook.id),
      (list) => list.find((entry) => entry.id === resent.body.id)?.status === 'delivered',
      'the resent delivery',
    );
    const [first, again] = requestsTo(at);
    expect(again?.body).toBe(first?.body);
    expect(again?.headers['lotwise-delivery']).toBe(resent.body.id);
    expect(again?.headers['lotwise-delivery']).not.toBe(first?.headers['lotwise-delivery']);
  });

  it('rotates the secret, signing with both for a while', async () => {
    const { webhook, path: at } = await newWebhook(['bidder.created']);
    const rotated = await domain<WebhookWithSecret>(
      'POST',
      `/webhooks/${webhook.id}/rotate-secret`,
      { token: owner.token },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(webhook.secret);
    await domain('POST', `/webhooks/${webhook.id}/test`, { token: owner.token });
    const [ping] = requestsTo(at);
    const signature = ping?.headers['lotwise-signature'] as string;
    expect(signature.split(',')).toHaveLength(3);
    expect(verifies(signature, ping?.body ?? '', rotated.body.secret)).toBe(true);
    expect(verifies(signature, ping?.body ?? '', webhook.secret)).toBe(true);
  });

  it('refuses URLs webhooks may not reach, naming url', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/hook',
      'http://0.0.0.0/hook',
      'https://no-such-host.invalid/hook',
      'ftp://127.0.0.1/hook',
      'not a url',
    ]) {
      const reply = await domain('POST', '/webhooks', {
        token: owner.token,
        body: { url, events: ['bidder.created'] },
      });
      expect(reply.status, url).toBe(400);
      expect(fieldsOf(reply), url).toEqual(['url']);
    }
    const noEvents = await domain('POST', '/webhooks', {
      token: owner.token,
      body: { url: hook.url('/x'), events: [] },
    });
    expect(fieldsOf(noEvents)).toEqual(['events']);
    const unknown = await domain('POST', '/webhooks', {
      token: owner.token,
      body: { url: hook.url('/x'), events: ['bidder.exploded'] },
    });
    expect(fieldsOf(unknown)).toEqual(['events.0']);
  });

  it('edits an endpoint against the version read (If-Match)', async () => {
    const { webhook } = await newWebhook(['bidder.created']);
    const body = {
      url: webhook.url,
      description: 'Renamed',
      events: ['auction.closed'],
      enabled: false,
    };
    const without = await domain('PUT', `/webhooks/${webhook.id}`, { token: owner.token, body });
    expect(without.status).toBe(428);
    const read = await domain<Webhook>('GET', `/webhooks/${webhook.id}`, { token: owner.token });
    expect(read.headers.get('etag')).toBe(`"${read.body.etag}"`);
    const saved = await domain<Webhook>('PUT', `/webhooks/${webhook.id}`, {
      token: owner.token,
      body,
      headers: ifMatch(read.body.etag),
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      description: 'Renamed',
      events: ['auction.closed'],
      enabled: false,
    });
    const stale = await domain('PUT', `/webhooks/${webhook.id}`, {
      token: owner.token,
      body: { ...body, description: 'Lost' },
      headers: ifMatch(read.body.etag),
    });
    expect(stale.status).toBe(412);
    const refused = await domain('PUT', `/webhooks/${webhook.id}`, {
      token: owner.token,
      body: { ...body, url: 'http://169.254.169.254/' },
      headers: ifMatch(saved.body.etag),
    });
    expect(fieldsOf(refused)).toEqual(['url']);
  });

  it('deletes an endpoint with its log', async () => {
    const { webhook } = await newWebhook(['bidder.created']);
    await domain('POST', `/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
    expect((await domain('DELETE', `/webhooks/${webhook.id}`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await domain('GET', `/webhooks/${webhook.id}`, { token: owner.token })).status).toBe(
      404,
    );
    expect(
      (await domain('GET', `/webhooks/${webhook.id}/deliveries`, { token: owner.token })).status,
    ).toBe(404);
  });

  it('is the owner’s: admin and staff get 403', async () => {
    const staff = await signedIn(demo.staff);
    const adminLogin = await call<Session>('POST', '/login', {
      body: { email: demo.admin, password: 'Harborview!Demo2026' },
    });
    const harborview = adminLogin.body.accounts.find(
      (account) => account.accountName === 'Harborview Auctions',
    );
    const admin = await call<{ accessToken: string }>('POST', '/tokens/access', {
      token: adminLogin.body.sessionToken,
      body: { userId: adminLogin.body.user.id, accountId: harborview?.accountId },
    });
    for (const token of [staff.accessToken, admin.body.accessToken]) {
      const list = await domain('GET', '/webhooks', { token });
      expect(list.status).toBe(403);
      expect(messageOf(list)).toContain('system:webhooks');
      const create = await domain('POST', '/webhooks', {
        token,
        body: { url: hook.url('/nope'), events: ['bidder.created'] },
      });
      expect(create.status).toBe(403);
    }
  });

  it('keeps each account’s endpoints and deliveries to itself', async () => {
    const { webhook } = await newWebhook(['bidder.created']);
    const test = await domain<Delivery>('POST', `/webhooks/${webhook.id}/test`, {
      token: owner.token,
    });
    const theirs = other.token;
    const read = await domain<Webhook>('GET', `/webhooks/${webhook.id}`, { token: owner.token });
    const attempts = [
      domain('GET', `/webhooks/${webhook.id}`, { token: theirs }),
      domain('PUT', `/webhooks/${webhook.id}`, {
        token: theirs,
        body: { url: hook.url('/stolen'), events: ['bidder.created'] },
        headers: ifMatch(read.body.etag),
      }),
      domain('DELETE', `/webhooks/${webhook.id}`, { token: theirs }),
      domain('POST', `/webhooks/${webhook.id}/rotate-secret`, { token: theirs }),
      domain('POST', `/webhooks/${webhook.id}/test`, { token: theirs }),
      domain('GET', `/webhooks/${webhook.id}/deliveries`, { token: theirs }),
      domain('POST', `/webhooks/${webhook.id}/deliveries/${test.body.id}/resend`, {
        token: theirs,
      }),
    ];
    for (const reply of await Promise.all(attempts)) expect(reply.status).toBe(404);
    const theirList = await domain<{ webhooks: Webhook[] }>('GET', '/webhooks', { token: theirs });
    expect(theirList.body.webhooks.map((entry) => entry.id)).not.toContain(webhook.id);
    // Another tenant's new bidder is never this account's event (recorded before the reply).
    await createBidder(theirs, bidderInput());
    expect((await deliveriesOf(webhook.id)).every((entry) => entry.event.type === 'ping')).toBe(
      true,
    );
  });
});
