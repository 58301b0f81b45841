import type { Stripe, StripeConstructor } from '@stripe/stripe-js';

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

/** Where Stripe.js comes from and the publishable key it runs with, as the service gives them. */
export interface StripeKeys {
  stripeJsUrl: string;
  publishableKey: string;
}

const loads = new Map<string, Promise<StripeConstructor>>();

/**
 * Loads Stripe.js from where the service says (Stripe's own in production, the local stand-in in
 * development), once per address. The card fields live in Stripe's frame, so card numbers go from
 * the browser to Stripe and never through Lotwise.
 */
function loadScript(url: string): Promise<StripeConstructor> {
  let load = loads.get(url);
  if (!load) {
    load = new Promise<StripeConstructor>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () =>
        window.Stripe
          ? resolve(window.Stripe)
          : reject(new Error('Stripe.js loaded without defining Stripe'));
      script.onerror = () => {
        loads.delete(url);
        script.remove();
        reject(
          new Error('The card form could not be loaded. Check your connection and try again.'),
        );
      };
      document.head.appendChild(script);
    });
    loads.set(url, load);
  }
  return load;
}

/** A Stripe.js instance for the publishable key, loaded from the given address. */
export async function loadStripe(stripeJsUrl: string, publishableKey: string): Promise<Stripe> {
  const Constructor = await loadScript(stripeJsUrl);
  return Constructor(publishableKey);
}
