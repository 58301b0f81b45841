import {
  Badge,
  Body1,
  Button,
  Caption1,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  mergeClasses,
  Subtitle2,
  Text,
  ToggleButton,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleFilled } from '@fluentui/react-icons';
import { useState } from 'react';
import { CardField, type CardFieldState } from '../../../components/CardField';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  createSetupIntent,
  fetchStripeCustomer,
  useBillingActions,
  useTiers,
  type AddOnView,
  type BillingAccountView,
  type BillingIntervalValue,
  type TierView,
} from '../api/billing';
import { intervalWord, perExtraBidder, usd } from './billing-format';

const useStyles = makeStyles({
  surface: { maxWidth: '960px', width: 'calc(100vw - 32px)' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  intervals: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  tiers: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(168px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  tier: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    textAlign: 'left',
    font: 'inherit',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  chosen: {
    border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
    ':hover': { backgroundColor: tokens.colorBrandBackground2Hover },
  },
  tierHead: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    width: '100%',
    gap: tokens.spacingHorizontalXS,
  },
  price: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  addOns: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  addOn: { display: 'flex', flexDirection: 'column' },
  addOnNote: { marginLeft: '32px', color: tokens.colorNeutralForeground3 },
  total: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'baseline',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    paddingTop: tokens.spacingVerticalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  totalFigure: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  check: { color: tokens.colorBrandForeground1 },
});

const feeFor = (item: { monthlyFee: number; yearlyFee: number }, interval: BillingIntervalValue) =>
  interval === 'year' ? item.yearlyFee : item.monthlyFee;

function setupFee(addOn: AddOnView, tierId: TierView['id']) {
  if (!addOn.setupFee || addOn.setupFeeWaivedTiers?.includes(tierId)) return 0;
  return addOn.setupFee;
}

/**
 * Choosing a plan (spec 2.4 "Upgrade dialog"): monthly or yearly, a tier, the add-ons offered on
 * it, the total, and a card when none is saved. Used to subscribe and to change plan.
 */
export function UpgradeDialog({
  open,
  account,
  initialAddOn,
  onClose,
}: {
  open: boolean;
  account: BillingAccountView;
  /** Chosen when the dialog opens, e.g. from the Inventory upsell. */
  initialAddOn?: AddOnView['id'] | undefined;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const catalogue = useTiers();
  const actions = useBillingActions();
  const current = account.subscription;
  const [interval, setInterval] = useState<BillingIntervalValue>(current?.interval ?? 'month');
  const [tierId, setTierId] = useState<TierView['id'] | null>(current?.tierId ?? null);
  const [chosen, setChosen] = useState<AddOnView['id'][]>(() => {
    const held = current?.addOns.filter((a) => a.status === 'active').map((a) => a.addOnId) ?? [];
    return initialAddOn && !held.includes(initialAddOn) ? [...held, initialAddOn] : held;
  });
  const [card, setCard] = useState<CardFieldState | null>(null);
  const needsCard = account.paymentMethods.length === 0;
  const defaultCard = account.paymentMethods.find((method) => method.isDefault);

  const tiers = catalogue.data?.tiers ?? [];
  const tier = tiers.find((candidate) => candidate.id === tierId);
  const offered = (catalogue.data?.addOns ?? []).filter(
    (addOn) => tier && addOn.targetTiers.includes(tier.id),
  );
  const picked = offered.filter((addOn) => chosen.includes(addOn.id));
  const recurring = tier
    ? feeFor(tier, interval) + picked.reduce((sum, addOn) => sum + feeFor(addOn, interval), 0)
    : 0;
  // Only add-ons still on the subscription are held; one that is ending costs its setup again.
  const held = new Set(
    current?.addOns.filter((addOn) => addOn.status === 'active').map((addOn) => addOn.addOnId) ??
      [],
  );
  const setupToday = tier
    ? picked
        .filter((addOn) => !held.has(addOn.id))
        .reduce((sum, addOn) => sum + setupFee(addOn, tier.id), 0)
    : 0;
  const unchanged =
    current !== null &&
    tierId === current.tierId &&
    interval === current.interval &&
    chosen.length === current.addOns.filter((a) => a.status === 'active').length &&
    chosen.every((id) => current.addOns.some((a) => a.addOnId === id && a.status === 'active'));

  const submit = useAction(
    async () => {
      if (!tier) return;
      let paymentMethodId: string | undefined;
      if (needsCard) {
        if (!card) throw new Error('The card form has not loaded yet');
        const intent = await createSetupIntent();
        paymentMethodId = (
          await actions.addCard(await card.confirmSetup(intent.clientSecret), true)
        ).id;
      }
      const addOnIds = picked.map((addOn) => addOn.id);
      if (current) {
        await actions.changePlan({ tierId: tier.id, interval, addOnIds });
      } else {
        await actions.subscribe({
          tierId: tier.id,
          interval,
          addOnIds,
          ...(paymentMethodId ? { paymentMethodId } : {}),
        });
      }
      notify.success('Subscription upgraded successfully!');
      onClose();
    },
    { onError: (message) => notify.error('Failed to upgrade subscription', message) },
  );

  const toggle = (id: AddOnView['id'], on: boolean) =>
    setChosen((previous) => (on ? [...previous, id] : previous.filter((item) => item !== id)));

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !submit.busy && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{current ? 'Change Plan' : 'Upgrade your plan'}</DialogTitle>
          <DialogContent className={styles.content}>
            <div className={styles.intervals} role="group" aria-label="Billing period">
              <ToggleButton
                checked={interval === 'month'}
                onClick={() => setInterval('month')}
                appearance={interval === 'month' ? 'primary' : 'secondary'}
              >
                Monthly
              </ToggleButton>
              <ToggleButton
                checked={interval === 'year'}
                onClick={() => setInterval('year')}
                appearance={interval === 'year' ? 'primary' : 'secondary'}
              >
                Yearly
              </ToggleButton>
              <Badge appearance="tint" color="success">
                Save 17%
              </Badge>
            </div>

            <div className={styles.tiers} role="radiogroup" aria-label="Plan">
              {tiers.map((candidate) => {
                const selected = candidate.id === tierId;
                return (
                  <button
                    key={candidate.id}
                    type="button"
                    role="radio"
                    aria-checked={selected}
                    className={mergeClasses(styles.tier, selected && styles.chosen)}
                    onClick={() => setTierId(candidate.id)}
                  >
                    <span className={styles.tierHead}>
                      <Subtitle2>{candidate.name}</Subtitle2>
                      {current?.tierId === candidate.id ? (
                        <Badge appearance="filled" size="small">
                          Current
                        </Badge>
                      ) : selected ? (
                        <CheckmarkCircleFilled className={styles.check} aria-hidden />
                      ) : null}
                    </span>
                    <span className={styles.price}>
                      {usd(feeFor(candidate, interval))}
                      <Caption1 className={styles.muted}> /{intervalWord(interval)}</Caption1>
                    </span>
                    <Caption1>
                      {candidate.includedBidders.toLocaleString('en-US')} bidders included
                    </Caption1>
                    <Caption1 className={styles.muted}>{perExtraBidder(candidate)}</Caption1>
                  </button>
                );
              })}
            </div>

            {tier && offered.length > 0 ? (
              <div className={styles.addOns}>
                <Subtitle2 as="h3">Optional add-ons</Subtitle2>
                {offered.map((addOn) => {
                  const fee = feeFor(addOn, interval);
                  const setup = addOn.setupFee ?? 0;
                  const waived = setup > 0 && setupFee(addOn, tier.id) === 0;
                  return (
                    <div key={addOn.id} className={styles.addOn}>
                      <Checkbox
                        checked={chosen.includes(addOn.id)}
                        onChange={(_, data) => toggle(addOn.id, Boolean(data.checked))}
                        label={`${addOn.name}: ${fee > 0 ? `${usd(fee)} /${intervalWord(interval)}` : 'no monthly fee'}`}
                      />
                      <Caption1 className={styles.addOnNote}>
                        {addOn.description}
                        {setup > 0
                          ? waived
                            ? ` Setup fee of ${usd(setup)} waived on ${tier.name}.`
                            : ` One-time setup fee ${usd(setup)}.`
                          : ''}
                        {addOn.transactionFees
                          ? ` Card ${addOn.transactionFees.card.percentage}% + ${usd(addOn.transactionFees.card.fixedFee)}, ACH ${addOn.transactionFees.ach.percentage}%.`
                          : ''}
                      </Caption1>
                    </div>
                  );
                })}
              </div>
            ) : null}

            {needsCard ? (
              <CardField fetchKeys={fetchStripeCustomer} onChange={setCard} />
            ) : defaultCard ? (
              <Body1>
                Charged to {defaultCard.brand.toUpperCase()} ending in {defaultCard.last4}
              </Body1>
            ) : null}

            {submit.error ? (
              <MessageBar intent="error">
                <MessageBarBody>{submit.error}</MessageBarBody>
              </MessageBar>
            ) : null}

            <div className={styles.total}>
              <Text>
                {tier
                  ? `${tier.name}${picked.length ? ` with ${picked.map((a) => a.name).join(' and ')}` : ''}`
                  : 'Choose a plan'}
              </Text>
              <div>
                <span className={styles.totalFigure} aria-label="Total">
                  {usd(recurring)} /{intervalWord(interval)}
                </span>
                {setupToday > 0 ? (
                  <Caption1 className={styles.muted}> + {usd(setupToday)} setup today</Caption1>
                ) : null}
                {current && !unchanged ? (
                  <Caption1 className={styles.muted} block>
                    The difference for the rest of this period is charged or credited today.
                  </Caption1>
                ) : null}
              </div>
            </div>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={submit.busy} onClick={onClose}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={
                !tier || unchanged || submit.busy || (needsCard && !(card?.ready && card.complete))
              }
              onClick={() => void submit.run()}
            >
              {submit.busy ? 'Upgrading...' : 'Upgrade Subscription'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
