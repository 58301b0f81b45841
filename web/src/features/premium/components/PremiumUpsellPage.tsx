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
import { useNavigate } from 'react-router';
import { useCan, useSignedIn } from '../../../lib/auth-store';
import { formatMoney } from '../../../lib/money';
import { useCatalogue, type AddOnView } from '../api/catalogue';

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
    icon: BoxRegular,
    benefits: [
      'Catalogue every item with photos, condition and storage location',
      'Value estimates and suggested lot groupings',
      'Track consignments from intake to sale',
    ],
  },
  payments: {
    title: 'Payments',
    icon: PaymentRegular,
    benefits: [
      'A branded payment portal for your buyers',
      'Cards, ACH and wire transfers in one place',
      'Reconcile settlements against invoices',
    ],
  },
} as const;

/** What the add-on costs, from the catalogue billing charges by. */
function priceOf(addOn: AddOnView | undefined) {
  if (!addOn) return { amount: '…', unit: '' };
  if (addOn.monthlyFee > 0)
    return { amount: formatMoney(addOn.monthlyFee, 'USD'), unit: 'per month' };
  const card = addOn.transactionFees?.card;
  return {
    amount: 'No monthly fee',
    unit: card ? `${card.percentage}% + ${formatMoney(card.fixedFee, 'USD')} per card payment` : '',
  };
}

/**
 * Shown instead of Inventory or Payments when the account does not have them. Whoever manages
 * the plan goes straight to the Upgrade dialog with the add-on chosen; others are told who can.
 */
export default function PremiumUpsellPage({ feature }: { feature: keyof typeof offers }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const can = useCan();
  const { account } = useSignedIn();
  const catalogue = useCatalogue();
  const offer = offers[feature];
  const price = priceOf(catalogue.data?.addOns.find((addOn) => addOn.id === feature));

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
          <span className={styles.amount}>{price.amount}</span>
          <Body1>{price.unit}</Body1>
        </div>
        <ul className={styles.benefits}>
          {offer.benefits.map((benefit) => (
            <li key={benefit} className={styles.benefit}>
              <CheckmarkRegular className={styles.tick} aria-hidden />
              <Body1>{benefit}</Body1>
            </li>
          ))}
        </ul>
        {can('system:settings') ? (
          <div>
            <Button
              appearance="primary"
              size="large"
              onClick={() => void navigate(`/settings/subscription-mgmt?upgrade=${feature}`)}
            >
              Upgrade
            </Button>
          </div>
        ) : (
          <Body1>Only the account owner can change the plan. Ask them to add {offer.title}.</Body1>
        )}
      </Card>
    </div>
  );
}
