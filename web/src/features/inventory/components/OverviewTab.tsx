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
  Text,
  tokens,
} from '@fluentui/react-components';
import { HorizontalBarChart, type ChartProps } from '@fluentui/react-charts';
import { BoxRegular } from '@fluentui/react-icons';
import {
  HOT_ITEMS_COUNT,
  type InventoryOverview,
  type InventoryStatus,
} from '@contracts/inventory/inventory.schema';
import type { ReactNode } from 'react';
import { StatCard } from '../../../components/StatCard';
import { messageOf } from '../../../lib/api-client';
import { useInventoryOverview } from '../api/inventory';
import { ItemCard } from './ItemCard';
import { MarketTrendsCard } from './MarketTrendsCard';
import { formatMoney, type MoneyCurrency } from '../../../lib/money';

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
    gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 960px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  panel: {
    padding: tokens.spacingHorizontalL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  hot: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
    gap: tokens.spacingHorizontalM,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  hotCard: { backgroundColor: tokens.colorNeutralBackground2 },
  muted: { color: tokens.colorNeutralForeground3 },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    color: tokens.colorNeutralForeground2,
  },
});

const statusColours: Record<InventoryStatus, string> = {
  Available: tokens.colorPaletteGreenForeground1,
  'In Storage': tokens.colorPaletteBlueForeground2,
  'In Auction': tokens.colorBrandForeground1,
  Sold: tokens.colorPaletteMarigoldForeground1,
  Withdrawn: tokens.colorNeutralForeground3,
  'On Hold': tokens.colorPaletteDarkOrangeForeground1,
  Reserved: tokens.colorPaletteBerryForeground1,
  Damaged: tokens.colorPaletteRedForeground1,
};

/** The spec's distribution names these three; other statuses show once an item has one. */
const alwaysShown: readonly InventoryStatus[] = ['In Storage', 'In Auction', 'Sold'];

function distribution(overview: InventoryOverview): ChartProps[] {
  const total = Math.max(overview.totalItems, 1);
  return overview.statusCounts
    .filter((entry) => entry.count > 0 || alwaysShown.includes(entry.status))
    .map((entry) => ({
      chartTitle: `${entry.status}: ${entry.count.toLocaleString()} (${Math.round((entry.count / total) * 100)}%)`,
      chartData: [
        {
          legend: entry.status,
          horizontalBarChartdata: { x: entry.count, total },
          color: statusColours[entry.status],
        },
      ],
    }));
}

/** The held items' value in the account's currency, then any other currency apart. */
function totalValue(overview: InventoryOverview): string {
  const { amount, currency, otherCurrencies } = overview.totalValue;
  return [
    formatMoney(amount, currency),
    ...otherCurrencies.map((other) => formatMoney(other.amount, other.currency as MoneyCurrency)),
  ].join(' · ');
}

/** The four tiles, the status distribution and the top three hot items for auction. */
export function OverviewTab({
  onOpen,
  addButton,
}: {
  onOpen(id: string): void;
  /** Add Item, offered when there is nothing yet. */
  addButton: ReactNode;
}) {
  const styles = useStyles();
  const { data, error, mutate } = useInventoryOverview();
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
        <SkeletonItem size={96} style={{ marginBottom: 16 }} />
        <SkeletonItem size={128} />
      </Skeleton>
    );
  }
  const tiles = [
    ['Total Items', data.totalItems.toLocaleString()],
    ['Total Value', totalValue(data)],
    ['Avg AI Score', data.avgScore === null ? '—' : String(Math.round(data.avgScore))],
    ['In Auction', data.inAuction.toLocaleString()],
  ] as const;
  const bars = distribution(data);
  return (
    <div className={styles.stack}>
      <section className={styles.tiles} aria-label="Inventory figures">
        {tiles.map(([label, value]) => (
          <StatCard key={label} label={label} value={value} />
        ))}
      </section>
      {data.totalItems === 0 ? (
        <Card>
          <div className={styles.empty}>
            <BoxRegular fontSize={32} aria-hidden="true" />
            <Text weight="semibold">No items yet. Add your first item.</Text>
            <Body1>
              Record what you hold for sale; each item is scored for auction as it is added.
            </Body1>
            {addButton}
          </div>
        </Card>
      ) : (
        <div className={styles.columns}>
          <Card className={styles.panel}>
            <CardHeader
              header={<Subtitle2 as="h2">Status Distribution</Subtitle2>}
              description={<Caption1>Every item by where it stands</Caption1>}
            />
            <HorizontalBarChart data={bars} hideRatio={bars.map(() => true)} />
          </Card>
          <Card className={styles.panel}>
            <CardHeader
              header={<Subtitle2 as="h2">Hot Items for Auction</Subtitle2>}
              description={
                <Caption1>The {HOT_ITEMS_COUNT} items most worth putting up for sale now</Caption1>
              }
            />
            {data.hotItems.length ? (
              <ul className={styles.hot}>
                {data.hotItems.map((item) => (
                  <li key={item.id}>
                    <ItemCard item={item} onOpen={onOpen} className={styles.hotCard} />
                  </li>
                ))}
              </ul>
            ) : (
              <Body1 className={styles.muted}>
                No item is ready for auction: items Available or In Storage show here, best first.
              </Body1>
            )}
          </Card>
        </div>
      )}
      <MarketTrendsCard />
    </div>
  );
}
