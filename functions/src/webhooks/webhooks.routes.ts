import { z } from 'zod';
import type { FunctionTable, QueueFunction, TimerFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { contextLogger } from '../platform/invocation-log.js';
import { pathIdSchema } from '../platform/validation.js';
import {
  deliver,
  DELIVERY_QUEUE,
  listDeliveries,
  resendDelivery,
  sweepDeliveries,
  testWebhook,
} from './deliveries.service.js';
import {
  deliveryListQuerySchema,
  deliveryListSchema,
  deliveryMessageSchema,
  deliverySchema,
  webhookInputSchema,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from './webhooks.schema.js';
import {
  createWebhook,
  deleteWebhook,
  getEndpoint,
  listWebhooks,
  rotateSecret,
  toWebhook,
  updateWebhook,
} from './webhooks.service.js';

const idParams = z.object({ id: pathIdSchema });
const deliveryParams = z.object({ id: pathIdSchema, deliveryId: pathIdSchema });

/** Attempts each queued delivery; a failed attempt schedules its own retry (see deliver). */
const deliveryWorker: QueueFunction = {
  kind: 'queue',
  name: 'webhook-deliver',
  queueName: DELIVERY_QUEUE,
  handler: async (message) => {
    const { accountId, deliveryId } = deliveryMessageSchema.parse(message);
    await deliver({ accountId }, deliveryId);
  },
};

/** Every minute: deliveries whose message was lost or whose worker stopped are queued again. */
const sweepTimer: TimerFunction = {
  kind: 'timer',
  name: 'webhook-sweep',
  schedule: '30 * * * * *',
  handler: async (_timer, context) => {
    const requeued = await sweepDeliveries();
    if (requeued) {
      contextLogger(context, { function: 'webhook-sweep' }).warn('webhook deliveries requeued', {
        requeued,
      });
    }
  },
};

/** The house's outgoing webhooks (Settings › APIs), in the domain app beside their events. */
export const webhookFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'webhooks-list',
      route: 'webhooks',
      methods: ['GET'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: "The account's webhook endpoints",
      response: webhookListSchema,
      handler: async ({ ctx }) => ({ json: { webhooks: await listWebhooks(ctx) } }),
    }),
    httpRoute({
      name: 'webhooks-create',
      route: 'webhooks',
      methods: ['POST'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: 'Adds an endpoint; the reply is the only time its signing secret shows',
      body: webhookInputSchema,
      response: webhookWithSecretSchema,
      handler: async ({ ctx, body }) => {
        const created = await createWebhook(ctx, body);
        return { status: 201, json: created, etag: created.etag };
      },
    }),
    httpRoute({
      name: 'webhooks-get',
      route: 'webhooks/{id}',
      methods: ['GET'],
      permission: 'system:webhooks',
      callers: 'people',
      params: idParams,
      response: webhookSchema,
      handler: async ({ ctx, params }) => {
        const endpoint = toWebhook(await getEndpoint(ctx, params.id));
        return { json: endpoint, etag: endpoint.etag };
      },
    }),
    httpRoute({
      name: 'webhooks-update',
      route: 'webhooks/{id}',
      methods: ['PUT'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: "Replaces an endpoint's URL, description, events and whether it is on",
      params: idParams,
      body: webhookInputSchema,
      response: webhookSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const saved = await updateWebhook(ctx, params.id, ifMatch, body);
        return { json: saved, etag: saved.etag };
      },
    }),
    httpRoute({
      name: 'webhooks-delete',
      route: 'webhooks/{id}',
      methods: ['DELETE'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: 'Removes an endpoint and its delivery log',
      params: idParams,
      handler: async ({ ctx, params }) => {
        await deleteWebhook(ctx, params.id);
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'webhooks-rotate-secret',
      route: 'webhooks/{id}/rotate-secret',
      methods: ['POST'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: 'A new signing secret, shown once; the old one still signs for 24 hours',
      params: idParams,
      response: webhookWithSecretSchema,
      handler: async ({ ctx, params }) => {
        const rotated = await rotateSecret(ctx, params.id);
        return { json: rotated, etag: rotated.etag };
      },
    }),
    httpRoute({
      name: 'webhooks-test',
      route: 'webhooks/{id}/test',
      methods: ['POST'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: 'Sends a ping now and answers the delivery with its outcome',
      params: idParams,
      response: deliverySchema,
      handler: async ({ ctx, params }) => ({ json: await testWebhook(ctx, params.id) }),
    }),
    httpRoute({
      name: 'webhooks-deliveries',
      route: 'webhooks/{id}/deliveries',
      methods: ['GET'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: "An endpoint's deliveries, newest first, with every attempt",
      params: idParams,
      query: deliveryListQuerySchema,
      response: deliveryListSchema,
      handler: async ({ ctx, params, query }) => ({
        json: await listDeliveries(ctx, params.id, query),
      }),
    }),
    httpRoute({
      name: 'webhooks-resend',
      route: 'webhooks/{id}/deliveries/{deliveryId}/resend',
      methods: ['POST'],
      permission: 'system:webhooks',
      callers: 'people',
      summary: "Sends a delivery's event again, as a new delivery",
      params: deliveryParams,
      response: deliverySchema,
      handler: async ({ ctx, params }) => ({
        status: 202,
        json: await resendDelivery(ctx, params.id, params.deliveryId),
      }),
    }),
    deliveryWorker,
    sweepTimer,
  ],
};
