import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { HorizontalBarChart } from '@fluentui/react-charts';
import { paymentMethods, type PaymentMethod } from '@contracts/payments/payments.schema';
import { StatCard } from '../../../components/StatCard';
import { messageOf } from '../../../lib/api-client';
import { formatMoneyExact } from '../../../lib/money';
import { countOf } from '../../../lib/plural';
import { useOverview } from '../api/payments';
import { usePaymentStyles } from './payment-style';
import { TransactionList } from './TransactionList';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalM,
    '@media (max-width: 640px)': {
      gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
      gap: tokens.spacingHorizontalS,
    },
  },
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 2fr) minmax(280px, 1fr)',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 960px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  panel: {
    padding: tokens.spacingHorizontalL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  legend: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
  legendRow: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  swatch: { width: '12px', height: '12px', borderRadius: '3px', flexShrink: 0 },
  legendLabel: { flexGrow: 1 },
});

const methodColours: Record<PaymentMethod, string> = {
  'Credit Card': tokens.colorPaletteBlueForeground2,
  'Bank Transfer': tokens.colorPaletteTealForeground2,
  PayPal: tokens.colorPaletteBerryForeground1,
  Cash: tokens.colorPaletteGreenForeground1,
  Check: tokens.colorPaletteMarigoldForeground1,
};

/** How the transactions were paid: one bar split by method, and the shares beside it. */
function MethodShare({
  shares,
}: {
  shares: { method: PaymentMethod; count: number; percent: number }[];
}) {
  const styles = useStyles();
  const total = shares.reduce((sum, share) => sum + share.count, 0);
  const ordered = paymentMethods.map(
    (method) => shares.find((share) => share.method === method) ?? { method, count: 0, percent: 0 },
  );
  return (
    <Card className={styles.panel}>
      <CardHeader
        header={<Subtitle2 as="h2">Payment Methods</Subtitle2>}
        description={<Caption1>Each method&apos;s share of the transactions</Caption1>}
      />
      {total ? (
        <HorizontalBarChart
          data={[
            {
              chartTitle: countOf(total, 'transaction'),
              chartData: ordered
                .filter((share) => share.count > 0)
                .map((share) => ({
                  legend: share.method,
                  horizontalBarChartdata: { x: share.count, total },
                  color: methodColours[share.method],
                })),
            },
          ]}
          hideRatio={[true]}
        />
      ) : (
        <Body1>No transactions yet.</Body1>
      )}
      <ul className={styles.legend} aria-label="Share by payment method">
        {ordered.map((share) => (
          <li key={share.method} className={styles.legendRow}>
            <span
              className={styles.swatch}
              style={{ backgroundColor: methodColours[share.method] }}
              aria-hidden="true"
            />
            <Body1 className={styles.legendLabel}>{share.method}</Body1>
            <Body1>
              {share.count.toLocaleString()} ({Math.round(share.percent)}%)
            </Body1>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The figures, the five latest transactions and how buyers pay, all counted on the server. */
export function OverviewTab() {
  const styles = useStyles();
  const shared = usePaymentStyles();
  const { data, error, mutate } = useOverview();
  if (error && !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The overview could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading the overview">
        <SkeletonItem size={96} />
      </Skeleton>
    );
  }
  const others = Object.entries(data.revenueByCurrency).filter(
    ([currency]) => currency !== data.currency,
  );
  const tiles = [
    ['Total Transactions', data.totalTransactions.toLocaleString()],
    ['Total Revenue', formatMoneyExact(data.totalRevenue, data.currency)],
    ['Pending Amount', formatMoneyExact(data.pendingAmount, data.currency)],
    ['Completed', data.completed.toLocaleString()],
  ] as const;
  return (
    <div className={styles.stack}>
      <section className={styles.tiles} aria-label="Payment figures">
        {tiles.map(([label, value]) => (
          <StatCard key={label} label={label} value={value} />
        ))}
      </section>
      {others.length ? (
        <Caption1 className={shared.muted}>
          Revenue in other currencies:{' '}
          {others
            .map(([currency, minor]) =>
              formatMoneyExact(minor, currency as Parameters<typeof formatMoneyExact>[1]),
            )
            .join(' · ')}
        </Caption1>
      ) : null}
      <div className={styles.columns}>
        <Card className={styles.panel}>
          <CardHeader
            header={<Subtitle2 as="h2">Recent Transactions</Subtitle2>}
            description={<Caption1>The five latest payments</Caption1>}
          />
          <TransactionList
            transactions={data.recent}
            label="Recent transactions"
            empty="No payments yet. They appear here once buyers pay their invoices."
            compact
          />
        </Card>
        <MethodShare shares={data.methodShare} />
      </div>
    </div>
  );
}
