import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Option,
  ProgressBar,
  Skeleton,
  SkeletonItem,
  Subtitle1,
  Subtitle2,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useCardGridStyles } from '../../../components/card-grid';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  useBillingAccount,
  useBillingActions,
  useFreemium,
  useInvoices,
  type AddOnView,
  type BillingAccountView,
  type InvoiceStatus,
  type SubscriptionView,
} from '../api/billing';
import { AddCardDialog } from './AddCardDialog';
import { BillingAddressCard } from './BillingAddressCard';
import { intervalWord, shortDate, usd } from './billing-format';
import { UpgradeDialog } from './UpgradeDialog';

const useStyles = makeStyles({
  figure: {
    fontSize: tokens.fontSizeHero700,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: 1.1,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  cardBody: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  row: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  item: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  itemActions: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  tableWrap: { overflowX: 'auto' },
  pager: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
  filter: { maxWidth: '220px' },
});

// Spec 4.3: active is green, anything else red; add-ons alike.
const statusColour = (status: string) => (status === 'active' ? 'success' : 'danger');

function FreemiumBanner({ onUpgrade }: { onUpgrade(): void }) {
  const freemium = useFreemium();
  const status = freemium.data?.freemium;
  if (!status?.isFreemium) return null;
  const remaining = Math.max(0, status.freeBiddersLimit - status.freeBiddersUsed);
  return (
    <MessageBar intent={remaining === 0 ? 'warning' : 'info'} layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>Free plan</MessageBarTitle>
        You have used {status.freeBiddersUsed} of {status.freeBiddersLimit} free scored bidders (
        {remaining} remaining).
        <ProgressBar
          value={status.freeBiddersUsed / status.freeBiddersLimit}
          thickness="large"
          color={remaining === 0 ? 'warning' : 'brand'}
          aria-label="Free scored bidders used"
        />
      </MessageBarBody>
      <MessageBarActions>
        <Button appearance="primary" onClick={onUpgrade}>
          Upgrade Now
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

function PlanCards({
  subscription,
  onChangePlan,
}: {
  subscription: SubscriptionView;
  onChangePlan(): void;
}) {
  const grid = useCardGridStyles();
  const styles = useStyles();
  const { usage } = subscription;
  return (
    <div className={grid.columns}>
      <Card className={grid.card}>
        <CardHeader
          header={<Subtitle2 as="h3">Current plan</Subtitle2>}
          action={
            <Badge appearance="filled" color={statusColour(subscription.status)}>
              {subscription.status.replace('_', ' ')}
            </Badge>
          }
        />
        <div className={styles.cardBody}>
          <span className={styles.figure}>{subscription.tierName}</span>
          <Caption1 className={styles.muted}>
            {usd(subscription.amount)} per {intervalWord(subscription.interval)}, billed{' '}
            {subscription.interval === 'year' ? 'yearly' : 'monthly'}
          </Caption1>
          <div>
            <Button appearance="primary" onClick={onChangePlan}>
              Change Plan
            </Button>
          </div>
        </div>
      </Card>
      <Card className={grid.card}>
        <CardHeader header={<Subtitle2 as="h3">Usage this period</Subtitle2>} />
        <div className={styles.cardBody}>
          <span className={styles.figure}>{usage.scoredBidders.toLocaleString('en-US')}</span>
          <Caption1 className={styles.muted}>
            of {usage.includedBidders.toLocaleString('en-US')} scored bidders included
          </Caption1>
          <ProgressBar
            value={Math.min(1, usage.scoredBidders / Math.max(1, usage.includedBidders))}
            color={usage.overageBidders > 0 ? 'warning' : 'brand'}
            thickness="large"
            aria-label="Scored bidders used this period"
          />
        </div>
      </Card>
      <Card className={grid.card}>
        <CardHeader header={<Subtitle2 as="h3">Overage charges</Subtitle2>} />
        <div className={styles.cardBody}>
          <span className={styles.figure}>{usd(usage.overageCharges)}</span>
          <Caption1 className={styles.muted}>
            {usage.overageBidders.toLocaleString('en-US')} bidders over limit this period
          </Caption1>
        </div>
      </Card>
    </div>
  );
}

function OverviewPanel({ subscription }: { subscription: SubscriptionView }) {
  const grid = useCardGridStyles();
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBillingActions();
  const [confirming, setConfirming] = useState(false);
  const resume = useAction(
    async () => {
      await actions.changePlan({ cancelAtPeriodEnd: false });
      notify.success('Your subscription will renew');
    },
    { onError: (message) => notify.error('Failed to resume subscription', message) },
  );
  return (
    <div className={grid.stack}>
      <Card className={grid.card}>
        <div className={styles.cardBody}>
          <Subtitle2 as="h3" className={styles.heading}>
            Billing period
          </Subtitle2>
          <Body1>
            {shortDate(subscription.currentPeriodStart)} –{' '}
            {shortDate(subscription.currentPeriodEnd)}
          </Body1>
          {subscription.cancelAtPeriodEnd ? (
            <MessageBar intent="warning">
              <MessageBarBody>
                Your subscription will be canceled on {shortDate(subscription.currentPeriodEnd)}.
                Your plan and add-ons stay on until then.
              </MessageBarBody>
              <MessageBarActions>
                <Button disabled={resume.busy} onClick={() => void resume.run()}>
                  Keep my subscription
                </Button>
              </MessageBarActions>
            </MessageBar>
          ) : null}
        </div>
      </Card>
      <Card className={grid.card}>
        <div className={styles.cardBody}>
          <Subtitle2 as="h3" className={styles.heading}>
            Add-ons
          </Subtitle2>
          {subscription.addOns.length === 0 ? (
            <Body1 className={styles.muted}>
              No add-ons. Add Inventory or Payments from Change Plan.
            </Body1>
          ) : (
            <ul className={styles.list}>
              {subscription.addOns.map((addOn) => (
                <li key={addOn.id} className={styles.item}>
                  <div>
                    <Text weight="semibold">{addOn.name}</Text>
                    <Caption1 className={styles.muted} block>
                      {addOn.monthlyFee === 0
                        ? 'No monthly fee'
                        : subscription.interval === 'year'
                          ? `${usd(addOn.monthlyFee * 10)} per year`
                          : `${usd(addOn.monthlyFee)} per month`}
                      {addOn.endsAt ? ` · on until ${shortDate(addOn.endsAt)}` : ''}
                    </Caption1>
                  </div>
                  <Badge
                    appearance="tint"
                    color={
                      addOn.status === 'active' && !subscription.cancelAtPeriodEnd
                        ? 'success'
                        : 'danger'
                    }
                  >
                    {addOn.status === 'active' && !subscription.cancelAtPeriodEnd
                      ? 'Active'
                      : 'Ending'}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Card>
      {subscription.cancelAtPeriodEnd ? null : (
        <div>
          <Button appearance="secondary" onClick={() => setConfirming(true)}>
            Cancel Subscription
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Cancel your subscription?"
        confirmLabel="Cancel Subscription"
        busyLabel="Canceling..."
        danger
        failureTitle="Failed to cancel subscription"
        onConfirm={async () => {
          await actions.changePlan({ cancelAtPeriodEnd: true });
          notify.success('Subscription will be canceled at the end of the current period');
        }}
        onClose={() => setConfirming(false)}
      >
        {`Your plan and add-ons stay on until ${shortDate(subscription.currentPeriodEnd)}, then the account returns to the free plan. Nothing more is charged.`}
      </ConfirmDialog>
    </div>
  );
}

const invoiceStatuses: InvoiceStatus[] = ['paid', 'open', 'draft', 'void', 'uncollectible'];
const invoiceColour = (status: InvoiceStatus) =>
  status === 'paid'
    ? 'success'
    : status === 'open'
      ? 'warning'
      : status === 'draft'
        ? 'informative'
        : 'danger';

function InvoicesPanel() {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBillingActions();
  const [status, setStatus] = useState<InvoiceStatus | undefined>();
  // The ids each earlier page started after: Stripe pages forwards with `starting_after`.
  const [trail, setTrail] = useState<string[]>([]);
  const after = trail.at(-1);
  const page = useInvoices({ ...(after ? { after } : {}), ...(status ? { status } : {}) });
  const pay = useAction(
    async (invoiceId: string) => {
      await actions.payInvoice(invoiceId);
      notify.success('Invoice paid');
    },
    { onError: (message) => notify.error('Failed to pay invoice', message) },
  );
  const invoices = page.data?.invoices ?? [];
  return (
    <div className={styles.cardBody}>
      <Field label="Status" className={styles.filter}>
        <Dropdown
          value={status ? status[0]!.toUpperCase() + status.slice(1) : 'All invoices'}
          selectedOptions={[status ?? 'all']}
          onOptionSelect={(_, data) => {
            setTrail([]);
            setStatus(data.optionValue === 'all' ? undefined : (data.optionValue as InvoiceStatus));
          }}
        >
          <Option value="all">All invoices</Option>
          {invoiceStatuses.map((value) => (
            <Option key={value} value={value}>
              {value[0]!.toUpperCase() + value.slice(1)}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {page.error ? (
        <MessageBar intent="error">
          <MessageBarBody>
            {page.error instanceof Error ? page.error.message : 'Failed to load invoices'}
          </MessageBarBody>
        </MessageBar>
      ) : !page.data ? (
        <Skeleton aria-label="Loading invoices">
          <SkeletonItem size={32} />
          <SkeletonItem size={32} />
        </Skeleton>
      ) : invoices.length === 0 ? (
        <Body1 className={styles.muted}>No invoices yet.</Body1>
      ) : (
        <div className={styles.tableWrap}>
          <Table aria-label="Invoices" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Number</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableHeaderCell>Due</TableHeaderCell>
                <TableHeaderCell>Paid</TableHeaderCell>
                <TableHeaderCell>Amount</TableHeaderCell>
                <TableHeaderCell>Invoice</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {invoices.map((invoice) => (
                <TableRow key={invoice.id}>
                  <TableCell>{invoice.number ?? invoice.id}</TableCell>
                  <TableCell>
                    <Badge appearance="tint" color={invoiceColour(invoice.status)}>
                      {invoice.status}
                    </Badge>
                  </TableCell>
                  <TableCell>{shortDate(invoice.createdDate)}</TableCell>
                  <TableCell>{shortDate(invoice.dueDate)}</TableCell>
                  <TableCell>{shortDate(invoice.paidDate)}</TableCell>
                  <TableCell>{usd(invoice.amount)}</TableCell>
                  <TableCell>
                    <span className={styles.itemActions}>
                      {invoice.invoiceUrl ? (
                        <Link href={invoice.invoiceUrl} target="_blank" rel="noreferrer">
                          View
                        </Link>
                      ) : null}
                      {invoice.status === 'open' ? (
                        <Button
                          size="small"
                          disabled={pay.busy}
                          onClick={() => void pay.run(invoice.id)}
                        >
                          Pay now
                        </Button>
                      ) : null}
                    </span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <div className={styles.pager}>
        <Button disabled={trail.length === 0} onClick={() => setTrail(trail.slice(0, -1))}>
          Newer
        </Button>
        <Button
          disabled={!page.data?.hasMore}
          onClick={() => {
            const last = invoices.at(-1);
            if (last) setTrail([...trail, last.id]);
          }}
        >
          Older
        </Button>
      </div>
    </div>
  );
}

function PaymentMethodsPanel({ account }: { account: BillingAccountView }) {
  const grid = useCardGridStyles();
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBillingActions();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const makeDefault = useAction(
    async (id: string) => {
      await actions.makeDefault(id);
      notify.success('Default card changed');
    },
    { onError: (message) => notify.error('Failed to change the default card', message) },
  );
  const methods = account.paymentMethods;
  return (
    <div className={grid.stack}>
      <Card className={grid.card}>
        <div className={styles.cardBody}>
          <div className={styles.row}>
            <Subtitle2 as="h3" className={styles.heading}>
              Cards
            </Subtitle2>
            <Button appearance="primary" onClick={() => setAdding(true)}>
              Add Credit Card
            </Button>
          </div>
          {methods.length === 0 ? (
            <Body1 className={styles.muted}>No card on file yet.</Body1>
          ) : (
            <ul className={styles.list}>
              {methods.map((method) => (
                <li key={method.id} className={styles.item}>
                  <div>
                    <Text weight="semibold">
                      {method.brand.toUpperCase()} ending in {method.last4}
                    </Text>
                    <Caption1 className={styles.muted} block>
                      Expires {String(method.expiryMonth).padStart(2, '0')}/{method.expiryYear}
                    </Caption1>
                  </div>
                  <span className={styles.itemActions}>
                    {method.isDefault ? (
                      <Badge appearance="tint" color="brand">
                        Default
                      </Badge>
                    ) : (
                      <Button
                        size="small"
                        disabled={makeDefault.busy}
                        onClick={() => void makeDefault.run(method.id)}
                      >
                        Make default
                      </Button>
                    )}
                    <Button size="small" appearance="subtle" onClick={() => setRemoving(method.id)}>
                      Remove
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Card>
      <BillingAddressCard account={account} />
      <div className={grid.columns}>
        <Card className={grid.card}>
          <CardHeader header={<Subtitle2 as="h3">ACH bank transfer</Subtitle2>} />
          <Body1>
            Pay invoices from a US bank account. Our finance team sets up ACH debits with your bank
            details and a signed mandate.
          </Body1>
        </Card>
        <Card className={grid.card}>
          <CardHeader header={<Subtitle2 as="h3">Net 30 terms</Subtitle2>} />
          <Body1>
            Enterprise and Professional plans can be invoiced with 30 days to pay, by bank transfer.
          </Body1>
        </Card>
        <Card className={grid.card}>
          <CardHeader header={<Subtitle2 as="h3">Questions about paying?</Subtitle2>} />
          <Body1>
            Write to <Link href={`mailto:${account.financeEmail}`}>{account.financeEmail}</Link>.
          </Body1>
        </Card>
      </div>
      <AddCardDialog
        open={adding}
        firstCard={methods.length === 0}
        onClose={() => setAdding(false)}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this card?"
        confirmLabel="Remove"
        busyLabel="Removing..."
        danger
        failureTitle="Failed to remove card"
        onConfirm={async () => {
          if (removing) await actions.removeCard(removing);
          notify.success('Card removed');
        }}
        onClose={() => setRemoving(null)}
      >
        The card is deleted from your account. Invoices already paid with it are not affected.
      </ConfirmDialog>
    </div>
  );
}

type Panel = 'overview' | 'invoices' | 'methods';

/** Account Settings > Plan (spec 2.4 "Plan"): the subscription, its usage, invoices and cards. */
export function PlanTab() {
  const grid = useCardGridStyles();
  const notify = useNotify();
  const billing = useBillingAccount();
  const [params, setParams] = useSearchParams();
  const upgradeFor = params.get('upgrade');
  const [upgrading, setUpgrading] = useState(upgradeFor !== null);
  // The section is in the address, so a reload or the back button keeps it.
  const section = params.get('section');
  const panel: Panel = section === 'invoices' || section === 'methods' ? section : 'overview';
  const setPanel = (next: Panel) => {
    if (next === 'overview') params.delete('section');
    else params.set('section', next);
    setParams(params);
  };
  const reported = useRef(false);

  useEffect(() => {
    if (billing.error && !reported.current) {
      reported.current = true;
      notify.error(
        'Failed to load billing information',
        billing.error instanceof Error ? billing.error.message : undefined,
      );
    }
  }, [billing.error, notify]);

  const closeUpgrade = () => {
    setUpgrading(false);
    if (upgradeFor !== null) {
      params.delete('upgrade');
      setParams(params, { replace: true });
    }
  };

  if (billing.error && !billing.data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>Failed to load billing information</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void billing.mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (!billing.data) {
    return (
      <Skeleton aria-label="Loading billing information" className={grid.stack}>
        <SkeletonItem size={48} />
        <div className={grid.columns}>
          <SkeletonItem size={128} />
          <SkeletonItem size={128} />
          <SkeletonItem size={128} />
        </div>
        <SkeletonItem size={32} />
      </Skeleton>
    );
  }
  const account = billing.data.account;
  const subscription = account.subscription;
  const initialAddOn =
    upgradeFor === 'inventory' || upgradeFor === 'payments'
      ? (upgradeFor as AddOnView['id'])
      : undefined;

  return (
    <div className={grid.stack}>
      <FreemiumBanner onUpgrade={() => setUpgrading(true)} />
      {subscription ? (
        <PlanCards subscription={subscription} onChangePlan={() => setUpgrading(true)} />
      ) : account.complimentary ? (
        <Card className={grid.card}>
          <CardHeader
            header={<Subtitle1 as="h3">{account.complimentary.tierName}</Subtitle1>}
            description={
              <Caption1>
                {account.complimentary.addOnIds.length
                  ? `With ${account.complimentary.addOnIds
                      .map((id) => (id === 'inventory' ? 'Inventory' : 'Payments'))
                      .join(' and ')}. `
                  : ''}
                Provided by Lotwise for this demo: nothing is billed.
              </Caption1>
            }
            action={
              <Button appearance="primary" onClick={() => setUpgrading(true)}>
                Upgrade Now
              </Button>
            }
          />
        </Card>
      ) : (
        <Card className={grid.card}>
          <CardHeader
            header={<Subtitle1 as="h3">Free plan</Subtitle1>}
            description={
              <Caption1>
                Choose a plan with Upgrade Now to score more bidders and add Inventory or Payments.
              </Caption1>
            }
          />
        </Card>
      )}
      <TabList
        selectedValue={panel}
        onTabSelect={(_, data) => setPanel(data.value as Panel)}
        aria-label="Billing sections"
      >
        <Tab value="overview">Overview</Tab>
        <Tab value="invoices">Invoices</Tab>
        <Tab value="methods">Payment Methods</Tab>
      </TabList>
      {panel === 'overview' ? (
        subscription ? (
          <OverviewPanel subscription={subscription} />
        ) : (
          <Body1>No subscription yet: you are on the free plan.</Body1>
        )
      ) : panel === 'invoices' ? (
        <InvoicesPanel />
      ) : (
        <PaymentMethodsPanel account={account} />
      )}
      {upgrading ? (
        <UpgradeDialog open account={account} initialAddOn={initialAddOn} onClose={closeUpgrade} />
      ) : null}
    </div>
  );
}
