import {
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
import { HorizontalBarChart, type ChartProps } from '@fluentui/react-charts';
import {
  casePriorities,
  caseStatuses,
  caseTypeLabels,
  caseTypes,
  priorityLabels,
  type CaseAnalytics,
  type CasePriority,
  type CaseStatus,
  type CaseType,
} from '@contracts/legal/legal.schema';
import { StatCard } from '../../../components/StatCard';
import { messageOf } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/money';
import { useCaseAnalytics } from '../api/legal';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
    gap: tokens.spacingHorizontalM,
    // Two by two on a phone, the total amount across the bottom rather than beside a gap.
    '@media (max-width: 640px)': {
      gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
      gap: tokens.spacingHorizontalS,
      '& > :last-child': { gridColumn: '1 / -1' },
    },
  },
  charts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  chart: {
    padding: tokens.spacingHorizontalL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
});

const statusColours: Record<CaseStatus, string> = {
  SUBMITTED: tokens.colorPaletteBlueForeground2,
  PENDING: tokens.colorPaletteMarigoldForeground1,
  'IN REVIEW': tokens.colorBrandForeground1,
  MEDIATION: tokens.colorPaletteDarkOrangeForeground1,
  LITIGATION: tokens.colorPaletteRedForeground1,
  RESOLVED: tokens.colorPaletteGreenForeground1,
  SETTLED: tokens.colorPaletteLightGreenForeground1,
  DISMISSED: tokens.colorNeutralForeground3,
  CLOSED: tokens.colorPalettePlatinumForeground2,
};
const priorityColours: Record<CasePriority, string> = {
  critical: tokens.colorPaletteRedForeground1,
  high: tokens.colorPaletteDarkOrangeForeground1,
  medium: tokens.colorPaletteMarigoldForeground1,
  low: tokens.colorPaletteBlueForeground2,
};
const typeColours: Record<CaseType, string> = {
  payment_dispute: tokens.colorPaletteBerryForeground1,
  authenticity_claim: tokens.colorPaletteTealForeground2,
  condition_dispute: tokens.colorPaletteMarigoldForeground1,
  title_dispute: tokens.colorPaletteBlueForeground2,
  contract_breach: tokens.colorPaletteRedForeground1,
  bidder_complaint: tokens.colorPaletteDarkOrangeForeground1,
  consigner_dispute: tokens.colorPaletteGreenForeground1,
  other: tokens.colorNeutralForeground3,
};

/** A share of the total as a whole percentage; nothing of nothing is 0%. */
export const percentOf = (count: number, total: number) =>
  total ? Math.round((count / total) * 100) : 0;

/** One bar per value, in the catalogue's order, labelled with its count and share. */
function bars<T extends string>(
  values: readonly T[],
  counts: { key: T; count: number }[],
  total: number,
  labelOf: (value: T) => string,
  colours: Record<T, string>,
): ChartProps[] {
  return values.map((value) => {
    const count = counts.find((entry) => entry.key === value)?.count ?? 0;
    const label = labelOf(value);
    return {
      chartTitle: `${label}: ${count.toLocaleString()} (${percentOf(count, total)}%)`,
      chartData: [
        {
          legend: label,
          horizontalBarChartdata: { x: count, total: Math.max(total, 1) },
          color: colours[value],
        },
      ],
    };
  });
}

function Distribution({
  title,
  description,
  data,
}: {
  title: string;
  description: string;
  data: ChartProps[];
}) {
  const styles = useStyles();
  return (
    <Card className={styles.chart}>
      <CardHeader
        header={<Subtitle2 as="h2">{title}</Subtitle2>}
        description={<Caption1>{description}</Caption1>}
      />
      <HorizontalBarChart data={data} hideRatio={data.map(() => true)} />
    </Card>
  );
}

/** The claimed amounts of active cases, one per currency: "$12,500 · €3,000". */
const totalAmount = (analytics: CaseAnalytics) =>
  analytics.totalAmount.length
    ? analytics.totalAmount.map((entry) => formatMoney(entry.amount, entry.currency)).join(' · ')
    : formatMoney(0, 'USD');

/** The case figures and their distributions, counted on the server. */
export function AnalyticsTab() {
  const styles = useStyles();
  const { data, error, mutate } = useCaseAnalytics();
  if (error && !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The analytics could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
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
    ['Total Cases', data.total.toLocaleString()],
    ['Active Cases', data.active.toLocaleString()],
    ['Critical', data.critical.toLocaleString()],
    ['Pending', data.pending.toLocaleString()],
    ['Total Amount', totalAmount(data)],
  ] as const;
  return (
    <div className={styles.stack}>
      <section className={styles.cards} aria-label="Case figures">
        {figures.map(([label, value]) => (
          <StatCard key={label} label={label} value={value} />
        ))}
      </section>
      <div className={styles.charts}>
        <Distribution
          title="Status Distribution"
          description="Every case by where it stands"
          data={bars(caseStatuses, data.byStatus, data.total, (status) => status, statusColours)}
        />
        <Distribution
          title="Priority Distribution"
          description="Every case by priority"
          data={bars(
            casePriorities,
            data.byPriority,
            data.total,
            (priority) => priorityLabels[priority],
            priorityColours,
          )}
        />
        <Distribution
          title="Case Type Distribution"
          description="Every case by type"
          data={bars(
            caseTypes,
            data.byType,
            data.total,
            (type) => caseTypeLabels[type],
            typeColours,
          )}
        />
      </div>
    </div>
  );
}
