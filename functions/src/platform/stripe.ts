import Stripe from 'stripe';
import { AppError, serviceUnavailable } from './errors.js';
import { settings } from './settings.js';
import { validationError } from './validation.js';

/**
 * The Stripe client, configured from the settings: Stripe itself with a real key, or the local
 * Stripe stand-in when STRIPE_API_URL points at it (the same SDK either way).
 */
let client: { key: string; url: string | undefined; stripe: Stripe } | undefined;

export function stripe(): Stripe {
  const { STRIPE_SECRET_KEY: key, STRIPE_API_URL: url, DEPENDENCY_TIMEOUT_MS } = settings();
  if (!key) throw serviceUnavailable('Billing is not configured on this server');
  if (client?.key === key && client.url === url) return client.stripe;
  const local = url ? new URL(url) : undefined;
  const instance = new Stripe(key, {
    maxNetworkRetries: 2,
    // Stripe's own calls (a charge with its card checks) take longer than a database's.
    timeout: Math.max(DEPENDENCY_TIMEOUT_MS, 20_000),
    appInfo: { name: 'Lotwise' },
    ...(local
      ? {
          host: local.hostname,
          port: Number(local.port || (local.protocol === 'https:' ? 443 : 80)),
          protocol: local.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  client = { key, url, stripe: instance };
  return instance;
}

/** The publishable key and Stripe.js address the browser needs to collect a card. */
export function stripeBrowserSettings() {
  const { STRIPE_PUBLISHABLE_KEY, STRIPE_JS_URL } = settings();
  if (!STRIPE_PUBLISHABLE_KEY) throw serviceUnavailable('Billing is not configured on this server');
  return { publishableKey: STRIPE_PUBLISHABLE_KEY, stripeJsUrl: STRIPE_JS_URL };
}

/** Verifies a webhook's signature (300 s tolerance) and gives its event. */
export function verifiedStripeEvent(payload: string, signature: string | null): Stripe.Event {
  const secret = settings().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw serviceUnavailable('Billing webhooks are not configured on this server');
  const refused = (message: string) =>
    validationError([{ location: 'headers', field: 'stripe-signature', message }]);
  if (!signature) throw refused('is missing');
  try {
    return stripe().webhooks.constructEvent(payload, signature, secret, 300);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'it could not be verified';
    throw refused(`is not a valid signature of this payload: ${reason}`);
  }
}

/**
 * Turns Stripe's errors into answers: a declined card keeps Stripe's message (402), a request
 * Stripe refuses is a 400, and Stripe being unreachable is a 503 the caller may retry.
 */
export function fromStripeError(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError) {
    throw new AppError('payment_required', error.message, {
      reason: 'card_declined',
      code: error.code,
      declineCode: error.decline_code,
    });
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    throw new AppError('bad_request', error.message, {
      reason: 'stripe_invalid_request',
      ...(error.param ? { param: error.param } : {}),
    });
  }
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    throw serviceUnavailable('Our card processor is not answering. Try again in a minute.');
  }
  throw error;
}

/** Runs a Stripe call, mapping its errors. */
export async function stripeCall<T>(call: (client: Stripe) => Promise<T>): Promise<T> {
  const instance = stripe();
  try {
    return await call(instance);
  } catch (error) {
    return fromStripeError(error);
  }
}

export type { Stripe };
