import { Field, makeStyles, tokens } from '@fluentui/react-components';
import type { StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { createSetupIntent } from '../api/billing';
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
  /** Saves the card on a SetupIntent; resolves its id, or rejects with Stripe's message. */
  confirm(): Promise<string>;
}

/**
 * Stripe's card element, mounted while the field is shown. Its text follows the page's colours,
 * read from the frame, so it fits the light and dark themes.
 */
export function CardField({
  label = 'Card details',
  onChange,
}: {
  label?: string;
  /** Must keep its identity (a state setter): the element is made again when it changes. */
  onChange(state: CardFieldState): void;
}) {
  const styles = useStyles();
  const host = useRef<HTMLDivElement>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let card: StripeCardElement | undefined;
    let cancelled = false;
    const report = (next: Partial<CardFieldState>, previous: CardFieldState) => {
      const state = { ...previous, ...next };
      onChange(state);
      return state;
    };
    void loadStripe()
      .then((stripe) => {
        if (cancelled || !host.current) return;
        const colour = getComputedStyle(host.current).color;
        card = stripe.elements().create('card', {
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
        const confirm = async () => {
          const intent = await createSetupIntent();
          const result = await stripe.confirmCardSetup(intent.clientSecret, {
            payment_method: { card: card! },
          });
          if (result.error) throw new Error(result.error.message ?? 'Your card was declined.');
          return result.setupIntent.id;
        };
        let state: CardFieldState = { ready: false, complete: false, error: null, confirm };
        card.on('ready', () => {
          state = report({ ready: true }, state);
        });
        card.on('change', (event) => {
          state = report({ complete: event.complete, error: event.error?.message ?? null }, state);
        });
        card.mount(host.current);
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
  }, [onChange]);

  return (
    <Field label={label} required validationMessage={loadError ?? undefined}>
      <div ref={host} className={styles.frame} />
    </Field>
  );
}
