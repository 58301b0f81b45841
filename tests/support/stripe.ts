import Stripe from 'stripe';
import { inject } from 'vitest';

/**
 * The local Stripe the test stack's services talk to, through the same SDK: for what a browser
 * or Stripe itself would do (confirm a card, renew a period, sign a webhook).
 */
export function testStripe(): Stripe {
  const settings = inject('settings');
  const url = new URL(settings.STRIPE_API_URL ?? '');
  return new Stripe(settings.STRIPE_SECRET_KEY ?? '', {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
  });
}

export const stripeSettings = () => {
  const settings = inject('settings');
  return {
    url: settings.STRIPE_API_URL ?? '',
    webhookSecret: settings.STRIPE_WEBHOOK_SECRET ?? '',
  };
};

/** The local Stripe's control API (not Stripe's): end a subscription's period now, and so on. */
export async function stripeControl(path: string, method = 'POST'): Promise<unknown> {
  const response = await fetch(`${stripeSettings().url}/__stripe${path}`, { method });
  if (!response.ok) throw new Error(`${method} /__stripe${path}: ${response.status}`);
  return response.json();
}
