import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Subtitle1,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { BoxRegular, CheckmarkRegular, PaymentRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useSignedIn } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { requestUpgrade } from '../api/upgrade';

const useStyles = makeStyles({
  page: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    maxWidth: '880px',
  },
  title: { margin: 0 },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  price: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalXS },
  amount: {
    fontSize: tokens.fontSizeHero800,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: 1,
  },
  benefits: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  benefit: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  tick: { color: tokens.colorPaletteGreenForeground1, flexShrink: 0, marginTop: '2px' },
  icon: { fontSize: '32px', color: tokens.colorBrandForeground1 },
});

/** The spec's tier names, by tier id. */
const tierNames: Record<string, string> = {
  free: 'Free plan',
  'tier-1': 'Enterprise',
  'tier-2': 'Professional',
  'tier-3': 'Business',
  'tier-4': 'Starter',
  'tier-5': 'Essential',
};

const offers = {
  inventory: {
    title: 'Inventory',
    price: 49,
    icon: BoxRegular,
    benefits: [
      'Catalogue every item with photos, condition and storage location',
      'Value estimates and suggested lot groupings',
      'Track consignments from intake to sale',
    ],
  },
  payments: {
    title: 'Payments',
    price: 89,
    icon: PaymentRegular,
    benefits: [
      'A branded payment portal for your buyers',
      'Cards, ACH and wire transfers in one place',
      'Reconcile settlements against invoices',
    ],
  },
} as const;

/** Shown instead of Inventory or Payments when the account does not have them. */
export default function PremiumUpsellPage({ feature }: { feature: keyof typeof offers }) {
  const styles = useStyles();
  const notify = useNotify();
  const { account } = useSignedIn();
  const offer = offers[feature];
  const [requested, setRequested] = useState(false);
  const request = useAction(
    async () => {
      const ticket = await requestUpgrade(offer, account);
      setRequested(true);
      notify.success(
        'Upgrade requested',
        `Request ${ticket.reference}: our team will confirm by email.`,
      );
    },
    { onError: (message) => notify.error('Could not send the request', message) },
  );

  return (
    <div className={styles.page}>
      <Title2 as="h1" className={styles.title}>
        {offer.title}
      </Title2>
      <Card className={styles.card}>
        <CardHeader
          image={<offer.icon className={styles.icon} aria-hidden />}
          header={<Subtitle1 as="h2">Add {offer.title} to your plan</Subtitle1>}
          description={
            <Caption1>
              Your current plan:{' '}
              <Badge appearance="tint">
                {tierNames[account.subscription.tier] ?? 'Basic Plan'}
              </Badge>
            </Caption1>
          }
        />
        <div className={styles.price}>
          <span className={styles.amount}>${offer.price}</span>
          <Body1>per auction house per month</Body1>
        </div>
        <ul className={styles.benefits}>
          {offer.benefits.map((benefit) => (
            <li key={benefit} className={styles.benefit}>
              <CheckmarkRegular className={styles.tick} aria-hidden />
              <Body1>{benefit}</Body1>
            </li>
          ))}
        </ul>
        <div>
          <Button
            appearance="primary"
            size="large"
            disabled={request.busy || requested}
            onClick={() => void request.run()}
          >
            {requested ? 'Upgrade requested' : request.busy ? 'Sending...' : 'Request upgrade'}
          </Button>
        </div>
      </Card>
    </div>
  );
}
