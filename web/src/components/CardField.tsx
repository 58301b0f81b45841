import { Field, makeStyles, tokens } from '@fluentui/react-components';
import type { StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { loadStripe, type StripeKeys } from '../lib/stripe-js';

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
  /** Saves the card on the SetupIntent; resolves its id, or rejects with Stripe's message. */
  confirmSetup(clientSecret: string): Promise<string>;
  /** Pays the PaymentIntent with the card; rejects with Stripe's message when declined. */
  pay(clientSecret: string): Promise<void>;
}

type CardFieldProps = {
  label?: string;
  /** Must keep its identity (a state setter): the element is made again when it changes. */
  onChange(state: CardFieldState): void;
} & (
  | (StripeKeys & { fetchKeys?: undefined })
  | {
      /**
       * Asks the service for the keys when the field mounts; a failure shows on the field. Must
       * keep its identity, like onChange.
       */
      fetchKeys(): Promise<StripeKeys>;
      stripeJsUrl?: undefined;
      publishableKey?: undefined;
    }
);

/**
 * Stripe's card element, mounted while the field is shown: for saving a card (billing) or paying
 * with it (the house taking a card over the phone, a buyer on the portal). Its text follows the
 * page's colours, read from the frame, so it fits the light and dark themes.
 */
export function CardField({
  label = 'Card details',
  stripeJsUrl,
  publishableKey,
  fetchKeys,
  onChange,
}: CardFieldProps) {
  const styles = useStyles();
  const host = useRef<HTMLDivElement>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let card: StripeCardElement | undefined;
    let cancelled = false;
    const loaded = fetchKeys
      ? fetchKeys().then((keys) => loadStripe(keys.stripeJsUrl, keys.publishableKey))
      : loadStripe(stripeJsUrl, publishableKey);
    void loaded
      .then((stripe) => {
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
        const confirmSetup = async (clientSecret: string) => {
          const result = await stripe.confirmCardSetup(clientSecret, {
            payment_method: { card: mounted },
          });
          if (result.error) throw new Error(result.error.message ?? 'Your card was declined.');
          return result.setupIntent.id;
        };
        const pay = async (clientSecret: string) => {
          const result = await stripe.confirmCardPayment(clientSecret, {
            payment_method: { card: mounted },
          });
          if (result.error) throw new Error(result.error.message ?? 'The card was declined.');
        };
        let state: CardFieldState = {
          ready: false,
          complete: false,
          error: null,
          confirmSetup,
          pay,
        };
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
  }, [stripeJsUrl, publishableKey, fetchKeys, onChange]);

  return (
    <Field label={label} required validationMessage={loadError ?? undefined}>
      <div ref={host} className={styles.frame} />
    </Field>
  );
}
