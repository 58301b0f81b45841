import {
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { HorizontalBarChart, type ChartProps } from '@fluentui/react-charts';
import type { ScoreType } from '@contracts/bidders/bidders.schema';
import { autoInviteStatuses, tiers } from '@contracts/scoring/scoring.schema';
import { messageOf } from '../../../lib/api-client';
import { useAnalytics } from '../api/bidders';
import { scoreTypeLabel } from './score-style';
import { StatCard } from '../../../components/StatCard';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  charts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  chart: { padding: tokens.spacingHorizontalL },
});

const tierColours: Record<string, string> = {
  Premium: tokens.colorPaletteBerryForeground1,
  Gold: tokens.colorPaletteMarigoldForeground1,
  Silver: tokens.colorPalettePlatinumForeground2,
  Bronze: tokens.colorPaletteDarkOrangeForeground1,
  New: tokens.colorNeutralForeground3,
};
const inviteColours: Record<string, string> = {
  'Auto-Invite': tokens.colorPaletteGreenForeground1,
  'Manual Review': tokens.colorPaletteMarigoldForeground1,
  'Auto-Deny': tokens.colorPaletteRedForeground1,
};

const percent = (count: number, total: number) => (total ? Math.round((count / total) * 100) : 0);

/** One bar per category: its count of the total, labelled with the count and share. */
function bars(
  labels: readonly string[],
  counts: Record<string, number>,
  total: number,
  colours: Record<string, string>,
): ChartProps[] {
  return labels.map((label) => {
    const count = counts[label] ?? 0;
    return {
      chartTitle: `${label}: ${count.toLocaleString()} (${percent(count, total)}%)`,
      chartData: [
        {
          legend: label,
          horizontalBarChartdata: { x: count, total: Math.max(total, 1) },
          color: colours[label] ?? tokens.colorBrandForeground1,
        },
      ],
    };
  });
}

export default function AnalyticsTab({ scoreType }: { scoreType: ScoreType }) {
  const styles = useStyles();
  const { data, error } = useAnalytics(scoreType);
  if (error) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{messageOf(error)}</MessageBarBody>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading analytics">
        <SkeletonItem size={96} />
      </Skeleton>
    );
  }
  const figures = [
    ['Total Bidders', data.total.toLocaleString()],
    ['Active Bidders', data.active.toLocaleString()],
    ['Premium Tier', (data.byTier.Premium ?? 0).toLocaleString()],
    [
      `Avg ${scoreTypeLabel(scoreType)} Score`,
      data.averageScore === null ? '—' : String(Math.round(data.averageScore)),
    ],
  ] as const;
  return (
    <div className={styles.stack}>
      <div className={styles.cards}>
        {figures.map(([label, value]) => (
          <StatCard key={label} label={label} value={value} />
        ))}
      </div>
      <div className={styles.charts}>
        <Card className={styles.chart}>
          <CardHeader
            header={<Subtitle2 as="h2">Score Distribution</Subtitle2>}
            description={<Caption1>{scoreTypeLabel(scoreType)} tiers</Caption1>}
          />
          <HorizontalBarChart
            data={bars(tiers, data.byTier, data.total, tierColours)}
            hideRatio={tiers.map(() => true)}
          />
        </Card>
        <Card className={styles.chart}>
          <CardHeader
            header={<Subtitle2 as="h2">Auto-Invite Status</Subtitle2>}
            description={<Caption1>From your automation rules</Caption1>}
          />
          <HorizontalBarChart
            data={bars(autoInviteStatuses, data.byAutoInvite, data.total, inviteColours)}
            hideRatio={autoInviteStatuses.map(() => true)}
          />
        </Card>
      </div>
    </div>
  );
}
