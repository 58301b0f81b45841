import type { Context } from './context.js';
import type { Route } from './http.js';
import { renew } from './resources/subscriptions.js';
import type { WebhookDispatcher } from './webhooks.js';

/**
 * The control API (not Stripe's) under `/__stripe/`, for tests and developers: time passing for
 * one subscription, what webhooks got, and a clean slate.
 */
export function controlRoutes(webhooks: WebhookDispatcher): Route<Context>[] {
  return [
    {
      method: 'POST',
      pattern: '/__stripe/subscriptions/:id/renew',
      handler: (c, p) => renew(c, p.id as string),
    },
    {
      method: 'GET',
      pattern: '/__stripe/deliveries',
      handler: (c) => {
        const event = c.params.string('event');
        const type = c.params.string('type');
        return {
          object: 'list',
          data: webhooks.deliveries.filter(
            (delivery) =>
              (event === undefined || delivery.event === event) &&
              (type === undefined || delivery.type === type),
          ),
        };
      },
    },
    {
      method: 'POST',
      pattern: '/__stripe/reset',
      handler: (c) => {
        c.store.reset();
        return { reset: true };
      },
    },
    {
      method: 'GET',
      pattern: '/__stripe',
      handler: (c) => ({
        api: `${c.origin}/v1`,
        stripe_js: `${c.origin}/v3/`,
        renew: `POST ${c.origin}/__stripe/subscriptions/{id}/renew`,
        deliveries: `${c.origin}/__stripe/deliveries`,
        reset: `POST ${c.origin}/__stripe/reset`,
      }),
    },
  ];
}
