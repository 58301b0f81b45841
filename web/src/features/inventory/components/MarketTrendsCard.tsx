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
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { VerticalStackedBarChart, type VerticalStackedChartProps } from '@fluentui/react-charts';
import {
  MARKET_TREND_MONTHS,
  type CategoryTrend,
  type InventoryCategory,
} from '@contracts/inventory/inventory.schema';
import { AppLink } from '../../../components/AppLink';
import { messageOf } from '../../../lib/api-client';
import { useMarketTrends } from '../api/inventory';
import { TrendBadge } from './item-style';

const useStyles = makeStyles({
  panel: {
    padding: tokens.spacingHorizontalL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  chart: { width: '100%', minWidth: 0 },
  scroll: { overflowX: 'auto' },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  // A header cell lays its label out in a flex box of its own.
  numberHeader: { '& > *': { justifyContent: 'flex-end', width: '100%' } },
  muted: { color: tokens.colorNeutralForeground3 },
  hint: { color: tokens.colorNeutralForeground2 },
});

const categoryColours: Record<InventoryCategory, string> = {
  Furniture: tokens.colorPaletteMarigoldForeground1,
  Art: tokens.colorPaletteBerryForeground1,
  Silver: tokens.colorPaletteBlueForeground2,
  'Jewelry & Watches': tokens.colorPaletteGreenForeground1,
  Textiles: tokens.colorPalettePurpleForeground2,
  Ceramics: tokens.colorPaletteDarkOrangeForeground1,
};

const monthShort = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });
const monthLong = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}%`);
const times = (ratio: number | null) => (ratio === null ? '—' : `${ratio.toFixed(2)}×`);

/** Lots sold each month, stacked by the categories that sold any. */
function soldByMonth(months: string[], categories: CategoryTrend[]): VerticalStackedChartProps[] {
  const selling = categories.filter((category) => category.sold > 0);
  return months.map((month, index) => ({
    xAxisPoint: monthShort.format(monthDate(month)),
    xAxisCalloutData: monthLong.format(monthDate(month)),
    chartData: selling.map((category) => ({
      legend: category.category,
      data: category.months[index]?.sold ?? 0,
      color: categoryColours[category.category],
    })),
  }));
}

/**
 * Overview's "Market Trends": with the analysis on, the lots the house sold each month by
 * category and each category's year in figures; with it off, where to turn it on.
 */
export function MarketTrendsCard() {
  const styles = useStyles();
  const { data, error, mutate } = useMarketTrends();
  const header = (
    <CardHeader
      header={<Subtitle2 as="h2">Market Trends</Subtitle2>}
      description={
        <Caption1>
          Your results of the last {MARKET_TREND_MONTHS} months, by category and month
        </Caption1>
      }
    />
  );
  if (error && !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>Market trends could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading market trends">
        <SkeletonItem size={48} />
      </Skeleton>
    );
  }
  if (!data.enabled) {
    return (
      <Body1 className={styles.hint}>
        Market trend analysis is off: turn it on in{' '}
        <AppLink to="/settings/inventory-sync">Settings › Inventory</AppLink> to follow how each
        category sells month by month.
      </Body1>
    );
  }
  const lots = data.categories.reduce((sum, category) => sum + category.lots, 0);
  return (
    <Card className={styles.panel}>
      {header}
      {lots === 0 ? (
        <Body1 className={styles.muted}>
          No auction results in the last {MARKET_TREND_MONTHS} months yet: trends show once a sale
          closes.
        </Body1>
      ) : (
        <div className={styles.body}>
          <div className={styles.chart}>
            <VerticalStackedBarChart
              data={soldByMonth(data.months, data.categories)}
              chartTitle="Lots sold per month, by category"
              height={220}
              barWidth="auto"
              maxBarWidth={28}
              isCalloutForStack
            />
          </div>
          <div className={styles.scroll}>
            <Table size="small" aria-label="Results by category">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Category</TableHeaderCell>
                  <TableHeaderCell>Trend</TableHeaderCell>
                  <TableHeaderCell className={styles.numberHeader}>Lots</TableHeaderCell>
                  <TableHeaderCell className={styles.numberHeader}>Sold</TableHeaderCell>
                  <TableHeaderCell className={styles.numberHeader}>Sell-through</TableHeaderCell>
                  <TableHeaderCell className={styles.numberHeader}>Hammer / low</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.categories.map((category) => (
                  <TableRow key={category.category}>
                    <TableCell>{category.category}</TableCell>
                    <TableCell>
                      <span title={category.trendReason}>
                        <TrendBadge trend={category.trend} />
                      </span>
                    </TableCell>
                    <TableCell className={styles.number}>{category.lots}</TableCell>
                    <TableCell className={styles.number}>{category.sold}</TableCell>
                    <TableCell className={styles.number}>{percent(category.sellThrough)}</TableCell>
                    <TableCell className={styles.number}>
                      {times(category.medianPriceRatio)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </div>
      )}
    </Card>
  );
}
