import { randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import type { AccountScope, RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { preconditionFailed } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import { encryptSecret } from '../platform/secrets.js';
import { settings } from '../platform/settings.js';
import { validationError } from '../platform/validation.js';
import { checkedTarget, RefusedUrl } from './address-check.js';
import { newSigningSecret, secretHint } from './signing.js';
import type { Webhook, WebhookInput, WebhookWithSecret } from './webhooks.schema.js';
import { deleteDeliveriesOf, endpointsRepo, type EndpointRecord } from './webhooks.repo.js';

export const SECRET_PURPOSE = 'webhook-signing';
/** How long a rotated-out secret still signs, so receivers can switch without losing events. */
const PREVIOUS_SECRET_HOURS = 24;

export const allowsPrivateAddresses = () => settings().WEBHOOKS_ALLOW_PRIVATE;

export const toWebhook = (record: Stored<EndpointRecord>): Webhook => ({
  id: record.id,
  url: record.url,
  description: record.description,
  events: record.events,
  enabled: record.enabled,
  secretHint: record.secretHint,
  createdAt: record.createdAt,
  createdBy: record.createdBy,
  updatedAt: record.updatedAt,
  etag: record._etag,
});

/** What the audit keeps of an endpoint: never its secrets. */
const audited = (record: EndpointRecord) => ({
  url: record.url,
  description: record.description,
  events: record.events,
  enabled: record.enabled,
  secretHint: record.secretHint,
});

/** A URL webhooks may be sent to, or a 400 naming `url`. */
async function checkUrl(url: string): Promise<void> {
  try {
    await checkedTarget(url, allowsPrivateAddresses());
  } catch (error) {
    if (!(error instanceof RefusedUrl)) throw error;
    throw validationError([{ location: 'body', field: 'url', message: error.message }]);
  }
}

export async function listWebhooks(ctx: RequestContext): Promise<Webhook[]> {
  const records = await endpointsRepo.all(ctx.scope, { orderBy: 'c.createdAt DESC' });
  return records.map(toWebhook);
}

export const getEndpoint = (ctx: { scope: AccountScope }, id: string) =>
  endpointsRepo.get(ctx.scope, id, 'Webhook');

export async function createWebhook(
  ctx: RequestContext,
  input: WebhookInput,
): Promise<WebhookWithSecret> {
  await checkUrl(input.url);
  const secret = newSigningSecret();
  const now = new Date().toISOString();
  const created = await endpointsRepo.create(ctx.scope, {
    id: randomUUID(),
    url: input.url,
    description: input.description,
    events: input.events,
    enabled: input.enabled,
    secret: encryptSecret(secret, SECRET_PURPOSE),
    secretHint: secretHint(secret),
    previousSecret: null,
    previousSecretUntil: null,
    createdAt: now,
    createdBy: { userId: ctx.actor.userId, name: ctx.actor.name },
    updatedAt: now,
  });
  await writeAudit(ctx, {
    action: 'webhook.create',
    entity: { type: 'webhook', id: created.id },
    after: audited(created),
  });
  return { ...toWebhook(created), secret };
}

/** Replaces an endpoint's settings, against the version the caller read. */
export async function updateWebhook(
  ctx: RequestContext,
  id: string,
  ifMatch: string,
  input: WebhookInput,
): Promise<Webhook> {
  const current = await getEndpoint(ctx, id);
  if (current._etag !== ifMatch) throw changedMeanwhile();
  if (input.url !== current.url) await checkUrl(input.url);
  const { _etag, _ts, ...stored } = current;
  try {
    const saved = await endpointsRepo.replace(
      ctx.scope,
      {
        ...stored,
        url: input.url,
        description: input.description,
        events: input.events,
        enabled: input.enabled,
        updatedAt: new Date().toISOString(),
      },
      ifMatch,
    );
    await writeAudit(ctx, {
      action: 'webhook.update',
      entity: { type: 'webhook', id },
      before: audited(current),
      after: audited(saved),
    });
    return toWebhook(saved);
  } catch (error) {
    if (isStale(error)) throw changedMeanwhile();
    throw error;
  }
}

const changedMeanwhile = () =>
  preconditionFailed('Someone else changed this webhook; reload it to see their changes');

/**
 * Removes an endpoint, then its delivery log; deliveries still queued for it are dropped. The
 * endpoint and its audit come first: a log left behind by a failure is unreachable and harmless,
 * and a repeated delete finds the endpoint gone.
 */
export async function deleteWebhook(ctx: RequestContext, id: string): Promise<void> {
  const current = await getEndpoint(ctx, id);
  await endpointsRepo.delete(ctx.scope, id);
  await writeAudit(ctx, {
    action: 'webhook.delete',
    entity: { type: 'webhook', id },
    before: audited(current),
  });
  await deleteDeliveriesOf(ctx.scope, id);
}

/**
 * A new signing secret, shown once. The previous one keeps signing beside it for a day, so a
 * receiver that has not switched yet still verifies what it gets.
 */
export async function rotateSecret(ctx: RequestContext, id: string): Promise<WebhookWithSecret> {
  const current = await getEndpoint(ctx, id);
  const secret = newSigningSecret();
  const saved = await endpointsRepo
    .patch(
      ctx.scope,
      id,
      [
        { op: 'set', path: '/secret', value: encryptSecret(secret, SECRET_PURPOSE) },
        { op: 'set', path: '/secretHint', value: secretHint(secret) },
        { op: 'set', path: '/previousSecret', value: current.secret },
        {
          op: 'set',
          path: '/previousSecretUntil',
          value: new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3_600_000).toISOString(),
        },
        { op: 'set', path: '/updatedAt', value: new Date().toISOString() },
      ],
      { etag: current._etag },
    )
    .catch((error: unknown) => {
      if (isStale(error)) throw changedMeanwhile();
      throw error;
    });
  await writeAudit(ctx, {
    action: 'webhook.rotate-secret',
    entity: { type: 'webhook', id },
    before: { secretHint: current.secretHint },
    after: { secretHint: saved.secretHint },
  });
  return { ...toWebhook(saved), secret };
}
