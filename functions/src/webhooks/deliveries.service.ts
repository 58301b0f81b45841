import { createHash, randomUUID } from 'node:crypto';
import type { AccountScope, RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { conflict, notFound } from '../platform/errors.js';
import { createLogger, stdoutSink, type Logger } from '../platform/logging.js';
import { enqueue } from '../platform/queue.js';
import type { Stored } from '../platform/repo.js';
import { decryptSecret } from '../platform/secrets.js';
import { settings } from '../platform/settings.js';
import { checkedTarget, RefusedUrl } from './address-check.js';
import { post } from './sender.js';
import { signatureHeader } from './signing.js';
import {
  PING_EVENT,
  type Delivery,
  type DeliveryAttempt,
  type WebhookEvent,
  type WebhookEventType,
} from './webhooks.schema.js';
import {
  deliveriesPage,
  deliveriesRepo,
  endpointsRepo,
  overdueDeliveries,
  subscribedEndpoints,
  type DeliveryRecord,
  type EndpointRecord,
} from './webhooks.repo.js';
import { allowsPrivateAddresses, getEndpoint, SECRET_PURPOSE } from './webhooks.service.js';

export const DELIVERY_QUEUE = 'webhook-deliveries';

/** Attempts in all: the first and five retries. */
export const MAX_ATTEMPTS = 6;
/** Each retry's wait, in units of WEBHOOK_RETRY_BASE_MS (a minute): 1 min, 5 min, 30 min, 2 h, 6 h. */
const BACKOFF = [1, 5, 30, 120, 360];

export const retryDelayMs = (attemptsMade: number) =>
  (BACKOFF[Math.min(attemptsMade, BACKOFF.length) - 1] ?? 1) * settings().WEBHOOK_RETRY_BASE_MS;

/** A delivery queued this long ago and not attempted lost its message; the sweep sends it. */
const OVERDUE_MS = 2 * 60_000;
/** A delivery taken this long ago and not finished lost its worker (sends time out in 10 s). */
const STUCK_MS = 5 * 60_000;

const log = (): Logger => createLogger(stdoutSink, settings().LOG_LEVEL, { component: 'webhooks' });

const toDelivery = (record: DeliveryRecord): Delivery => ({
  id: record.id,
  webhookId: record.webhookId,
  event: record.event,
  status: record.status,
  attempts: record.attempts,
  nextAttemptAt: record.nextAttemptAt,
  createdAt: record.createdAt,
  deliveredAt: record.deliveredAt,
  lastError: record.lastError,
  resendOf: record.resendOf,
});

const newDelivery = (
  webhookId: string,
  event: WebhookEvent,
  id: string,
  extra: Partial<DeliveryRecord> = {},
): Omit<DeliveryRecord, 'accountId'> => {
  const now = new Date().toISOString();
  return {
    id,
    webhookId,
    event,
    status: 'pending',
    attempts: [],
    nextAttemptAt: now,
    claimedAt: null,
    createdAt: now,
    deliveredAt: null,
    lastError: null,
    resendOf: null,
    retries: true,
    ...extra,
  };
};

const randomId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`;

/** One event's delivery to one endpoint has one id, so recording it twice records it once. */
const deliveryIdOf = (eventId: string, webhookId: string) =>
  `dlv_${createHash('sha256').update(`${eventId}:${webhookId}`).digest('hex').slice(0, 32)}`;

const queueDelivery = (scope: AccountScope, deliveryId: string, delayMs = 0) =>
  enqueue(
    DELIVERY_QUEUE,
    { accountId: scope.accountId, deliveryId },
    { delaySeconds: Math.ceil(delayMs / 1000) },
  );

/**
 * Tells the house's subscribed endpoints that something happened; other features call it after
 * their write succeeded. One delivery per subscribed endpoint is recorded (the log shows it at
 * once) and queued for the delivery worker.
 *
 * It never fails the caller's request: the write it reports has happened. A delivery recorded
 * whose message could not be queued is sent by the sweep (every minute) once overdue. When not
 * even the recording succeeds (the database is failing), the event is logged as an error with
 * its type, id and the ids of what it is about, for an operator to replay.
 */
export async function emitEvent(
  ctx: { scope: AccountScope; correlationId?: string },
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const event: WebhookEvent = {
    id: randomId('evt'),
    type,
    createdAt: new Date().toISOString(),
    data,
  };
  let endpoints: Stored<EndpointRecord>[];
  try {
    endpoints = await subscribedEndpoints(ctx.scope, type);
  } catch (error) {
    notRecorded(ctx, event, error);
    return;
  }
  await Promise.all(
    endpoints.map(async (endpoint) => {
      const id = deliveryIdOf(event.id, endpoint.id);
      try {
        await deliveriesRepo.create(ctx.scope, newDelivery(endpoint.id, event, id));
      } catch (error) {
        notRecorded(ctx, event, error, endpoint.id);
        return;
      }
      await queueDelivery(ctx.scope, id).catch((error: unknown) =>
        log().warn('webhook delivery recorded but not queued; the sweep will send it', {
          accountId: ctx.scope.accountId,
          deliveryId: id,
          error,
        }),
      );
    }),
  );
}

function notRecorded(
  ctx: { scope: AccountScope; correlationId?: string },
  event: WebhookEvent,
  error: unknown,
  webhookId?: string,
) {
  const about = Object.fromEntries(
    Object.entries(event.data).flatMap(([key, value]) =>
      typeof value === 'object' && value !== null && 'id' in value ? [[key, value.id]] : [],
    ),
  );
  log().error('webhook event not recorded', {
    accountId: ctx.scope.accountId,
    correlationId: ctx.correlationId,
    eventId: event.id,
    eventType: event.type,
    about,
    ...(webhookId ? { webhookId } : {}),
    error,
  });
}

/** The body of a delivery: the event, serialised once per attempt and signed as sent. */
const bodyOf = (event: WebhookEvent) => JSON.stringify(event);

function secretsOf(endpoint: EndpointRecord, now: number): string[] {
  const current = decryptSecret(endpoint.secret, SECRET_PURPOSE);
  const previousLive =
    endpoint.previousSecret &&
    endpoint.previousSecretUntil &&
    Date.parse(endpoint.previousSecretUntil) > now;
  return previousLive
    ? [current, decryptSecret(endpoint.previousSecret as string, SECRET_PURPOSE)]
    : [current];
}

/** One attempt: the URL checked again (and pinned), the body signed, the answer kept. */
async function attempt(endpoint: EndpointRecord, delivery: DeliveryRecord) {
  const at = new Date();
  const started = performance.now();
  let outcome: Omit<DeliveryAttempt, 'at'>;
  try {
    const target = await checkedTarget(endpoint.url, allowsPrivateAddresses());
    const body = bodyOf(delivery.event);
    outcome = await post(target, body, {
      'lotwise-event': delivery.event.type,
      'lotwise-delivery': delivery.id,
      'lotwise-signature': signatureHeader(
        secretsOf(endpoint, at.getTime()),
        body,
        Math.floor(at.getTime() / 1000),
      ),
    });
  } catch (error) {
    // Whatever stops an attempt is that attempt's failure: it counts towards the six, so a
    // delivery Lotwise cannot send (a secret it can no longer open, say) ends instead of being
    // taken again for ever.
    if (!(error instanceof RefusedUrl)) {
      log().error('webhook attempt failed in Lotwise', {
        accountId: delivery.accountId,
        deliveryId: delivery.id,
        error,
      });
    }
    outcome = {
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      error:
        error instanceof RefusedUrl
          ? `The URL ${error.message}`
          : 'Lotwise could not send this attempt; it is retried like a failed one',
      responseSnippet: null,
    };
  }
  return { at: at.toISOString(), ...outcome } satisfies DeliveryAttempt;
}

const succeeded = (outcome: DeliveryAttempt) =>
  outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;

/** Records an attempt, and schedules the next one when it failed and retries remain. */
async function recordAttempt(
  scope: AccountScope,
  claimed: Stored<DeliveryRecord>,
  outcome: DeliveryAttempt,
): Promise<Stored<DeliveryRecord>> {
  const attempts = [...claimed.attempts, outcome];
  const ok = succeeded(outcome);
  const retry = !ok && claimed.retries && attempts.length < MAX_ATTEMPTS;
  const delay = retryDelayMs(attempts.length);
  const lastError = ok
    ? null
    : (outcome.error ?? `The endpoint answered ${outcome.statusCode ?? 'nothing'}`);
  const saved = await deliveriesRepo.patch(scope, claimed.id, [
    { op: 'set', path: '/attempts', value: attempts },
    { op: 'set', path: '/status', value: ok ? 'delivered' : retry ? 'retrying' : 'failed' },
    { op: 'set', path: '/deliveredAt', value: ok ? outcome.at : null },
    {
      op: 'set',
      path: '/nextAttemptAt',
      value: retry ? new Date(Date.now() + delay).toISOString() : null,
    },
    { op: 'set', path: '/claimedAt', value: null },
    { op: 'set', path: '/lastError', value: lastError },
  ]);
  if (retry) {
    await queueDelivery(scope, claimed.id, delay).catch((error: unknown) =>
      log().warn('webhook retry not queued; the sweep will send it', {
        accountId: scope.accountId,
        deliveryId: claimed.id,
        error,
      }),
    );
  }
  return saved;
}

/** Ends a delivery that will not be attempted, with the reason. */
const abandon = (scope: AccountScope, id: string, reason: string) =>
  deliveriesRepo.patch(scope, id, [
    { op: 'set', path: '/status', value: 'failed' },
    { op: 'set', path: '/nextAttemptAt', value: null },
    { op: 'set', path: '/claimedAt', value: null },
    { op: 'set', path: '/lastError', value: reason },
  ]);

/**
 * Takes a delivery to send it, so two workers (a queued retry and the sweep's) never both send
 * one attempt: the first to change it against the version read wins.
 */
async function claim(scope: AccountScope, delivery: Stored<DeliveryRecord>) {
  try {
    return await deliveriesRepo.patch(
      scope,
      delivery.id,
      [
        { op: 'set', path: '/status', value: 'sending' },
        { op: 'set', path: '/claimedAt', value: new Date().toISOString() },
      ],
      { etag: delivery._etag },
    );
  } catch (error) {
    if (isStale(error)) return undefined;
    throw error;
  }
}

/** The delivery worker: one attempt of a queued delivery, when it is due. */
export async function deliver(scope: AccountScope, deliveryId: string): Promise<void> {
  const delivery = await deliveriesRepo.find(scope, deliveryId);
  if (!delivery) return;
  const now = Date.now();
  const waiting = delivery.status === 'pending' || delivery.status === 'retrying';
  const stuck =
    delivery.status === 'sending' &&
    delivery.claimedAt !== null &&
    Date.parse(delivery.claimedAt) <= now - STUCK_MS;
  if (!waiting && !stuck) return;
  // A second message for a retry not yet due (the sweep's, say): the retry's own comes later.
  if (waiting && delivery.nextAttemptAt && Date.parse(delivery.nextAttemptAt) > now + 1000) return;
  const endpoint = await endpointsRepo.find(scope, delivery.webhookId);
  if (!endpoint || !endpoint.enabled) {
    await abandon(
      scope,
      delivery.id,
      endpoint ? 'The webhook was disabled' : 'The webhook was deleted',
    );
    return;
  }
  const claimed = await claim(scope, delivery);
  if (!claimed) return;
  await recordAttempt(scope, claimed, await attempt(endpoint, claimed));
}

/** Sends, once more, deliveries whose queue message was lost or whose worker stopped. */
export async function sweepDeliveries(): Promise<number> {
  const now = Date.now();
  const due = await overdueDeliveries(
    new Date(now - OVERDUE_MS).toISOString(),
    new Date(now - STUCK_MS).toISOString(),
    500,
  );
  for (const { id, accountId } of due) await queueDelivery({ accountId }, id);
  return due.length;
}

export async function listDeliveries(
  ctx: RequestContext,
  webhookId: string,
  query: { limit: number; continuationToken?: string | undefined },
) {
  await getEndpoint(ctx, webhookId);
  const page = await deliveriesPage(ctx.scope, webhookId, {
    pageSize: query.limit,
    continuationToken: query.continuationToken,
  });
  return {
    deliveries: page.items.map(toDelivery),
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  };
}

/**
 * Sends an earlier delivery's event to its endpoint again, as a new delivery (its own id and
 * attempts, retried like any other); the event's id is the same, for receivers that dedupe on it.
 */
export async function resendDelivery(
  ctx: RequestContext,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  const endpoint = await getEndpoint(ctx, webhookId);
  const original = await deliveriesRepo.find(ctx.scope, deliveryId);
  if (!original || original.webhookId !== webhookId) throw notFound('Delivery not found');
  if (!endpoint.enabled) throw conflict('Enable the webhook to send to it again');
  const created = await deliveriesRepo.create(
    ctx.scope,
    newDelivery(webhookId, original.event, randomId('dlv'), { resendOf: original.id }),
  );
  await queueDelivery(ctx.scope, created.id);
  return toDelivery(created);
}

/**
 * Sends a `ping` to the endpoint now and answers how it went: one attempt, never retried, in the
 * log like any delivery. A disabled endpoint can be tested before it is turned on.
 */
export async function testWebhook(ctx: RequestContext, webhookId: string): Promise<Delivery> {
  const endpoint = await getEndpoint(ctx, webhookId);
  const event: WebhookEvent = {
    id: randomId('evt'),
    type: PING_EVENT,
    createdAt: new Date().toISOString(),
    data: { webhookId, message: 'A test delivery from Lotwise' },
  };
  const created = await deliveriesRepo.create(
    ctx.scope,
    newDelivery(webhookId, event, randomId('dlv'), {
      retries: false,
      status: 'sending',
      claimedAt: new Date().toISOString(),
      nextAttemptAt: null,
    }),
  );
  const saved = await recordAttempt(ctx.scope, created, await attempt(endpoint, created));
  return toDelivery(saved);
}
