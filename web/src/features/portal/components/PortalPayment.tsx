import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import type { PortalCardPayment, PortalPayment } from '@contracts/payments/payments.schema';
import type { Currency } from '@contracts/auctions/auctions.schema';
import { useState } from 'react';
import { CardField, type CardFieldState } from '../../../components/CardField';
import { messageOf } from '../../../lib/api-client';
import { formatMoneyExact } from '../../../lib/money';
import { useAction } from '../../../lib/use-action';
import { confirmCardPayment, startCardPayment } from '../api/portal';

const useStyles = makeStyles({
  pay: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
  methods: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalS,
  },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  instructions: { whiteSpace: 'pre-line' },
  muted: { color: tokens.colorNeutralForeground3 },
  row: { display: 'flex', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
});

const dayFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});
const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** The receipt a buyer sees once the invoice is paid (now, or on a later visit). */
function Paid({ payment, currency }: { payment: PortalPayment; currency: Currency }) {
  return (
    <MessageBar intent="success" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>Paid in full — thank you</MessageBarTitle>
        <Body1>
          {formatMoneyExact(payment.paidTotal, currency)} received. A receipt has been sent to your
          email.
        </Body1>
      </MessageBarBody>
    </MessageBar>
  );
}

/**
 * How the buyer pays a real invoice: by card online (Stripe's card field; the number goes to
 * Stripe, never to Lotwise), or by the other methods the house takes, each with its instructions.
 */
export function PortalPaymentPanel({
  token,
  payment,
  currency,
  colours,
  onPaid,
}: {
  token: string;
  payment: PortalPayment;
  currency: Currency;
  /** The house's colours for the method buttons. */
  colours: { background: string; text: string };
  /** The page reads the invoice again: its balance and status moved. */
  onPaid(): Promise<unknown>;
}) {
  const styles = useStyles();
  const [chosen, setChosen] = useState<string | null>(null);
  const [intent, setIntent] = useState<PortalCardPayment | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [card, setCard] = useState<CardFieldState | null>(null);
  const [receipt, setReceipt] = useState<string | null>(null);
  const money = (minor: number) => formatMoneyExact(minor, currency);

  const choose = (method: string, online: boolean) => {
    setChosen(method);
    if (!online || intent) return;
    setStartError(null);
    startCardPayment(token)
      .then(setIntent)
      .catch((error: unknown) => setStartError(messageOf(error)));
  };
  const pay = useAction(async () => {
    if (!intent || !card) return;
    try {
      await card.pay(intent.clientSecret);
    } catch (declined) {
      // The decline is recorded too, so the house sees the attempt.
      await confirmCardPayment(token, intent.paymentIntentId).catch(() => undefined);
      throw declined;
    }
    const outcome = await confirmCardPayment(token, intent.paymentIntentId);
    if (outcome.paymentStatus !== 'Completed') {
      throw new Error(outcome.message ?? `The payment is ${outcome.paymentStatus.toLowerCase()}.`);
    }
    setReceipt(`${money(intent.amount)} paid by card. A receipt has been sent to your email.`);
    await onPaid();
  });

  if (receipt) {
    return (
      <MessageBar intent="success" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>Payment received — thank you</MessageBarTitle>
          <Body1>{receipt}</Body1>
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (payment.status === 'paid' || payment.balance <= 0) {
    return <Paid payment={payment} currency={currency} />;
  }
  const option = payment.options.find((candidate) => candidate.method === chosen);
  return (
    <section className={styles.pay} aria-label="Pay this invoice">
      <div className={styles.row}>
        <Subtitle2 as="h2" className={styles.heading}>
          Pay {money(payment.balance)}
        </Subtitle2>
        <Caption1 className={styles.muted}>Due {formatDay(payment.dueDate)}</Caption1>
      </div>
      {payment.paidTotal || payment.creditedTotal ? (
        <Caption1 className={styles.muted}>
          {payment.paidTotal ? `${money(payment.paidTotal)} paid already. ` : ''}
          {payment.creditedTotal ? `${money(payment.creditedTotal)} credited.` : ''}
        </Caption1>
      ) : null}
      <div className={styles.methods} role="group" aria-label="Payment methods">
        {payment.options.map((candidate) => (
          <Button
            key={candidate.method}
            aria-pressed={chosen === candidate.method}
            appearance={chosen === candidate.method ? 'primary' : 'secondary'}
            style={
              chosen === candidate.method
                ? { backgroundColor: colours.background, color: colours.text }
                : undefined
            }
            onClick={() => choose(candidate.method, candidate.online)}
          >
            {candidate.label}
          </Button>
        ))}
      </div>
      {option ? (
        <div className={styles.panel}>
          {option.online ? (
            startError ? (
              <MessageBar intent="error">
                <MessageBarBody>{startError}</MessageBarBody>
              </MessageBar>
            ) : intent ? (
              <>
                <CardField
                  stripeJsUrl={intent.stripeJsUrl}
                  publishableKey={intent.publishableKey}
                  onChange={setCard}
                />
                {pay.error ? (
                  <MessageBar intent="error">
                    <MessageBarBody>{pay.error}</MessageBarBody>
                  </MessageBar>
                ) : null}
                <Button
                  appearance="primary"
                  style={{ backgroundColor: colours.background, color: colours.text }}
                  disabled={pay.busy || !(card?.ready && card.complete)}
                  onClick={() => void pay.run()}
                >
                  {pay.busy ? 'Paying...' : `Pay ${money(intent.amount)}`}
                </Button>
                <Caption1 className={styles.muted}>
                  Your card details go straight to our payment processor, Stripe.
                </Caption1>
              </>
            ) : (
              <Spinner size="small" label="Preparing a secure card payment..." />
            )
          ) : (
            <>
              <Subtitle2 as="h3" className={styles.heading}>
                {option.label}
              </Subtitle2>
              <Body1 className={styles.instructions}>{option.instructions}</Body1>
            </>
          )}
        </div>
      ) : (
        <Caption1 className={styles.muted}>Choose how you would like to pay.</Caption1>
      )}
    </section>
  );
}
