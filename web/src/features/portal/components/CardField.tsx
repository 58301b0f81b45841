import { Field, makeStyles, tokens } from '@fluentui/react-components';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { loadStripe } from '../api/stripe-js';

const useStyles = makeStyles({
  frame: {
    minHeight: '40px',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    boxSizing: 'border-box',
  },
});

export interface CardFieldState {
  ready: boolean;
  complete: boolean;
  /** The card's own problem as Stripe words it ("Your card number is incomplete."). */
  error: string | null;
  /** Pays the PaymentIntent with the card; rejects with Stripe's message when declined. */
  pay(clientSecret: string): Promise<void>;
}

/**
 * Stripe's card element for the buyer's payment, mounted
 * while shown. Its text follows the page's colours, read from the frame.
 */
export function CardField({
  stripeJsUrl,
  publishableKey,
  onChange,
}: {
  stripeJsUrl: string;
  publishableKey: string;
  /** Must keep its identity (a state setter): the element is made again when it changes. */
  onChange(state: CardFieldState): void;
}) {
  const styles = useStyles();
  const host = useRef<HTMLDivElement>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let card: StripeCardElement | undefined;
    let cancelled = false;
    void loadStripe(stripeJsUrl, publishableKey)
      .then((stripe: Stripe) => {
        if (cancelled || !host.current) return;
        const colour = getComputedStyle(host.current).color;
        const mounted = stripe.elements().create('card', {
          hidePostalCode: true,
          style: {
            base: {
              color: colour,
              fontFamily: getComputedStyle(host.current).fontFamily,
              fontSize: '14px',
              '::placeholder': { color: colour },
            },
          },
        });
        card = mounted;
        const pay = async (clientSecret: string) => {
          const result = await stripe.confirmCardPayment(clientSecret, {
            payment_method: { card: mounted },
          });
          if (result.error) throw new Error(result.error.message ?? 'The card was declined.');
        };
        let state: CardFieldState = { ready: false, complete: false, error: null, pay };
        mounted.on('ready', () => {
          state = { ...state, ready: true };
          onChange(state);
        });
        mounted.on('change', (event) => {
          state = { ...state, complete: event.complete, error: event.error?.message ?? null };
          onChange(state);
        });
        mounted.mount(host.current);
      })
      .catch((error: unknown) => {
        if (!cancelled) {
          setLoadError(error instanceof Error ? error.message : 'The card form could not load');
        }
      });
    return () => {
      cancelled = true;
      card?.destroy();
    };
  }, [stripeJsUrl, publishableKey, onChange]);

  return (
    <Field label="Card details" required validationMessage={loadError ?? undefined}>
      <div ref={host} className={styles.frame} />
    </Field>
  );
}
