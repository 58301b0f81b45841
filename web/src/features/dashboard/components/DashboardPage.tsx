import {
  Body1,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Subtitle2,
  Title2,
  Title3,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowUploadRegular,
  BookQuestionMarkRegular,
  FlashRegular,
  GaugeRegular,
  GavelRegular,
  PeopleRegular,
  PeopleSyncRegular,
  PlugConnectedRegular,
  RocketRegular,
  ScalesRegular,
  ShieldCheckmarkRegular,
  SparkleRegular,
  type FluentIcon,
} from '@fluentui/react-icons';
import { useId, type ReactNode } from 'react';
import { AppLink } from '../../../components/AppLink';
import { useCan, useSignedIn } from '../../../lib/auth-store';
import type { DashboardViews } from './dashboard-views';
import { ActiveLegalCases, RecentAuctions, TopBidders } from './DashboardLists';
import { LinkButton } from './LinkButton';

/** Bidder Management with its Import Bidders dialog open: where data comes in for now. */
const IMPORT_PATH = '/bidders?import=1';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  title: { margin: 0 },
  welcome: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalXXL}`,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorBrandBackground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorBrandStroke2}`,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalL },
  },
  welcomeTitle: { margin: 0, color: tokens.colorBrandForeground2 },
  welcomeText: { margin: 0, maxWidth: '720px', color: tokens.colorNeutralForeground1 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))',
    gap: tokens.spacingHorizontalL,
    '@media (max-width: 640px)': {
      gridTemplateColumns: 'minmax(0, 1fr)',
      gap: tokens.spacingVerticalM,
    },
  },
  card: {
    height: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalL,
    gap: tokens.spacingVerticalM,
  },
  cardIcon: { fontSize: '20px', color: tokens.colorBrandForeground1 },
  heading: { margin: 0 },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
  },
  item: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalM },
  itemIcon: {
    display: 'grid',
    placeItems: 'center',
    flexShrink: 0,
    width: '32px',
    height: '32px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontSize: '18px',
  },
  itemText: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  itemTitle: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground2 },
  actions: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  action: { justifyContent: 'flex-start', minWidth: 0 },
});

/** A card of the dashboard with its heading, named for assistive technology by that heading. */
function DashboardCard({
  title,
  icon: Icon,
  children,
}: {
  title: string;
  icon: FluentIcon;
  children: ReactNode;
}) {
  const styles = useStyles();
  const headingId = useId();
  return (
    <Card className={styles.card} role="region" aria-labelledby={headingId}>
      <CardHeader
        image={<Icon className={styles.cardIcon} aria-hidden />}
        header={
          <Subtitle2 as="h2" id={headingId} className={styles.heading}>
            {title}
          </Subtitle2>
        }
      />
      {children}
    </Card>
  );
}

interface Item {
  title: string;
  text: string;
  icon: FluentIcon;
  /** Where the item leads; a feature described has no link. */
  to?: string;
}

function ItemList({ items }: { items: Item[] }) {
  const styles = useStyles();
  return (
    <ul className={styles.list}>
      {items.map(({ title, text, icon: Icon, to }) => (
        <li key={title} className={styles.item}>
          <span className={styles.itemIcon}>
            <Icon aria-hidden />
          </span>
          <span className={styles.itemText}>
            {to ? (
              <AppLink to={to} className={styles.itemTitle}>
                {title}
              </AppLink>
            ) : (
              <Body1 className={styles.itemTitle}>{title}</Body1>
            )}
            <Caption1 className={styles.muted}>{text}</Caption1>
          </span>
        </li>
      ))}
    </ul>
  );
}

const keyFeatures: Item[] = [
  {
    title: 'Two bidder scores',
    text: 'The standard Lotwise Score and a custom score weighted your way, recalculated after each auction and whenever bidder data changes.',
    icon: GaugeRegular,
  },
  {
    title: 'Duplicate detection',
    text: 'Possible duplicate bidders are found for you, then merged automatically or after a review.',
    icon: PeopleSyncRegular,
  },
  {
    title: 'Platform integrations',
    text: 'Auctions and bidders imported from the bidding platforms you connect.',
    icon: PlugConnectedRegular,
  },
  {
    title: 'Legal case workflow',
    text: 'Disputes followed from filing to settlement, with approvals, documents and reminders.',
    icon: ScalesRegular,
  },
  {
    title: 'Role-based access',
    text: 'Each team member sees and changes only what their role allows.',
    icon: ShieldCheckmarkRegular,
  },
];

/**
 * The home view (spec 2.3): a welcome, where to start, what Lotwise does, shortcuts, and the
 * account's latest auctions, best bidders and open legal cases. A list shows only to those who may
 * view its kind of record, and a shortcut only where it leads somewhere they may go.
 */
export default function DashboardPage({ views }: { views: DashboardViews }) {
  const styles = useStyles();
  const { user, account } = useSignedIn();
  const can = useCan();
  const canImport = can('data:import') && can('bidders:view');

  const gettingStarted: Item[] = [
    {
      title: 'Manage Bidders',
      text: 'How bidders, their scores and duplicates work, step by step.',
      icon: PeopleRegular,
      to: '/help/guides',
    },
    ...(canImport
      ? [
          {
            title: 'Start Importing Data',
            text: 'Bring in your bidders from a CSV, Excel or JSON file, or a connected platform.',
            icon: ArrowUploadRegular,
            to: IMPORT_PATH,
          },
        ]
      : []),
    {
      title: 'View Help & Documentation',
      text: 'Answers to common questions, feature guides and how to reach support.',
      icon: BookQuestionMarkRegular,
      to: '/help',
    },
  ];

  const quickActions = [
    { label: 'View All Bidders', to: '/bidders', icon: PeopleRegular, shown: can('bidders:view') },
    { label: 'Manage Auctions', to: '/auctions', icon: GavelRegular, shown: can('auctions:view') },
    { label: 'Legal Cases', to: '/legal/cases', icon: ScalesRegular, shown: can('legal:view') },
    {
      label: 'Process Data',
      to: '/data-upload',
      icon: ArrowUploadRegular,
      shown: can('data:import'),
    },
    { label: 'Scoring Settings', to: '/settings/bidder-scoring', icon: GaugeRegular, shown: true },
  ].filter((action) => action.shown);

  const lists = [
    can('auctions:view') ? <RecentAuctions key="auctions" views={views} /> : null,
    can('bidders:view') ? <TopBidders key="bidders" views={views} /> : null,
    can('legal:view') ? <ActiveLegalCases key="legal" views={views} /> : null,
  ].filter(Boolean);

  return (
    <div className={styles.page}>
      <Title2 as="h1" className={styles.title}>
        Dashboard
      </Title2>
      <section className={styles.welcome} aria-labelledby="dashboard-welcome">
        <Title3 as="h2" id="dashboard-welcome" className={styles.welcomeTitle}>
          {user.firstName ? `Welcome back, ${user.firstName}` : 'Welcome back'}
        </Title3>
        <Body1 as="p" className={styles.welcomeText}>
          Here is {account.name} at a glance: the latest auctions, your best-scored bidders and the
          legal cases still open, with shortcuts to the work you do most.
        </Body1>
      </section>
      <div className={styles.grid}>
        <DashboardCard title="Getting Started" icon={RocketRegular}>
          <ItemList items={gettingStarted} />
        </DashboardCard>
        <DashboardCard title="Key Features" icon={SparkleRegular}>
          <ItemList items={keyFeatures} />
        </DashboardCard>
        <DashboardCard title="Quick Actions" icon={FlashRegular}>
          <div className={styles.actions}>
            {quickActions.map(({ label, to, icon: Icon }) => (
              <LinkButton key={label} to={to} icon={<Icon />} className={styles.action}>
                {label}
              </LinkButton>
            ))}
          </div>
        </DashboardCard>
      </div>
      {lists.length ? <div className={styles.grid}>{lists}</div> : null}
    </div>
  );
}
