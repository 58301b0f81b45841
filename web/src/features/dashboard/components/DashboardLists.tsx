import {
  Avatar,
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
import {
  ArrowRightRegular,
  CalendarRegular,
  GavelRegular,
  LocationRegular,
  PeopleRegular,
  ScalesRegular,
} from '@fluentui/react-icons';
import type { AuctionListItem } from '@contracts/auctions/auctions.schema';
import type { BidderListItem } from '@contracts/bidders/bidders.schema';
import { caseTypeLabels, type LegalCase } from '@contracts/legal/legal.schema';
import { useId, type ReactNode } from 'react';
import { AppLink } from '../../../components/AppLink';
import { messageOf } from '../../../lib/api-client';
import { formatHouseDate } from '../../../lib/house-time';
import { countOf } from '../../../lib/plural';
import {
  DASHBOARD_LIST_SIZE,
  useActiveCases,
  useRecentAuctions,
  useTopBidders,
} from '../api/dashboard';
import type { DashboardViews } from './dashboard-views';
import { LinkButton } from './LinkButton';

const useStyles = makeStyles({
  card: {
    height: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalL,
    gap: tokens.spacingVerticalM,
  },
  icon: { fontSize: '20px', color: tokens.colorBrandForeground1 },
  heading: { margin: 0 },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  row: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalM,
    ':not(:first-child)': {
      borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    },
  },
  main: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    flexGrow: 1,
    minWidth: 0,
  },
  title: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  line: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground2,
    minWidth: 0,
  },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  badges: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-end',
    gap: tokens.spacingVerticalXS,
    flexShrink: 0,
  },
  score: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexShrink: 0,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalXS,
    paddingBlock: tokens.spacingVerticalXXL,
    textAlign: 'center',
  },
  muted: { color: tokens.colorNeutralForeground2 },
  skeletonRow: {
    display: 'grid',
    gridTemplateColumns: '32px 1fr',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    paddingBlock: tokens.spacingVerticalM,
  },
  skeletonLines: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

/** A dashboard list card: its heading, a View All link to its view, and its rows or state. */
function ListCard<T>({
  title,
  icon,
  viewAll,
  noun,
  result,
  rows,
  empty,
  children,
}: {
  title: string;
  icon: ReactNode;
  viewAll: string;
  /** What the rows are, for the loading and error messages: "recent auctions". */
  noun: string;
  result: { error: unknown; mutate(): unknown };
  rows: T[] | undefined;
  empty: { title: string; text: string };
  children(row: T): ReactNode;
}) {
  const styles = useStyles();
  const headingId = useId();
  const body = () => {
    if (result.error) {
      return (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            The {noun} could not be loaded: {messageOf(result.error)}
          </MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={() => void result.mutate()}>
              Try again
            </Button>
          </MessageBarActions>
        </MessageBar>
      );
    }
    if (!rows) {
      return (
        <Skeleton aria-label={`Loading ${noun}`}>
          {Array.from({ length: DASHBOARD_LIST_SIZE }, (_, index) => (
            <div key={index} className={styles.skeletonRow}>
              <SkeletonItem shape="circle" size={32} />
              <div className={styles.skeletonLines}>
                <SkeletonItem size={16} />
                <SkeletonItem size={12} />
              </div>
            </div>
          ))}
        </Skeleton>
      );
    }
    if (!rows.length) {
      return (
        <div className={styles.empty}>
          <Body1 className={styles.title}>{empty.title}</Body1>
          <Caption1 className={styles.muted}>{empty.text}</Caption1>
        </div>
      );
    }
    return (
      <ul className={styles.list} aria-labelledby={headingId}>
        {rows.map((row) => children(row))}
      </ul>
    );
  };
  return (
    <Card className={styles.card} role="region" aria-labelledby={headingId}>
      <CardHeader
        image={<span className={styles.icon}>{icon}</span>}
        header={
          <Subtitle2 as="h2" id={headingId} className={styles.heading}>
            {title}
          </Subtitle2>
        }
        action={
          <LinkButton
            to={viewAll}
            appearance="subtle"
            size="small"
            icon={<ArrowRightRegular />}
            iconPosition="after"
            aria-label={`View All ${title}`}
          >
            View All
          </LinkButton>
        }
      />
      {body()}
    </Card>
  );
}

export function RecentAuctions({ views }: { views: DashboardViews }) {
  const styles = useStyles();
  const result = useRecentAuctions();
  const { AuctionStatusBadge } = views;
  return (
    <ListCard<AuctionListItem>
      title="Recent Auctions"
      icon={<GavelRegular />}
      viewAll="/auctions"
      noun="recent auctions"
      result={result}
      rows={result.data?.auctions}
      empty={{
        title: 'No recent auctions',
        text: 'Auctions show here once they have started.',
      }}
    >
      {(auction) => (
        <li key={auction.id} className={styles.row}>
          <div className={styles.main}>
            <AppLink to={`/auctions/${encodeURIComponent(auction.id)}`} className={styles.title}>
              {auction.title}
            </AppLink>
            <Caption1 className={styles.line}>
              <LocationRegular aria-hidden />
              <span className={styles.ellipsis}>{auction.location || 'No location given'}</span>
            </Caption1>
            <Caption1 className={styles.line}>
              <CalendarRegular aria-hidden />
              <span className={styles.ellipsis}>
                {formatHouseDate(auction.startDate, 'short')} ·{' '}
                {countOf(auction.biddersRegistered, 'registered bidder')}
              </span>
            </Caption1>
          </div>
          <span className={styles.badges}>
            <AuctionStatusBadge status={auction.status} />
          </span>
        </li>
      )}
    </ListCard>
  );
}

export function TopBidders({ views }: { views: DashboardViews }) {
  const styles = useStyles();
  const result = useTopBidders();
  const { TierBadge, ScoreGauge } = views;
  return (
    <ListCard<BidderListItem>
      title="Top Bidders"
      icon={<PeopleRegular />}
      viewAll="/bidders"
      noun="top bidders"
      result={result}
      rows={result.data?.bidders}
      empty={{
        title: 'No bidders yet',
        text: 'Your best-scored bidders show here once bidders are added or imported.',
      }}
    >
      {(bidder) => {
        const name = `${bidder.firstName} ${bidder.lastName}`;
        return (
          <li key={bidder.id} className={styles.row}>
            <Avatar name={name} size={32} color="colorful" aria-hidden />
            <div className={styles.main}>
              <AppLink
                to={`/bidders?bidder=${encodeURIComponent(bidder.id)}`}
                className={styles.title}
              >
                {name}
              </AppLink>
              <Caption1 className={styles.line}>
                <span className={styles.ellipsis}>{bidder.email ?? 'No email'}</span>
              </Caption1>
              <span>
                <TierBadge score={bidder.lotwiseScore} />
              </span>
            </div>
            <span className={styles.score}>
              <ScoreGauge score={bidder.lotwiseScore} />
            </span>
          </li>
        );
      }}
    </ListCard>
  );
}

const filedFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});

export function ActiveLegalCases({ views }: { views: DashboardViews }) {
  const styles = useStyles();
  const result = useActiveCases();
  const { CaseStatusBadge, PriorityBadge } = views;
  return (
    <ListCard<LegalCase>
      title="Active Legal Cases"
      icon={<ScalesRegular />}
      viewAll="/legal/active"
      noun="active legal cases"
      result={result}
      rows={result.data?.cases}
      empty={{ title: 'No active legal cases', text: 'All cases are resolved' }}
    >
      {(legalCase) => (
        <li key={legalCase.id} className={styles.row}>
          <div className={styles.main}>
            <AppLink
              to={`/legal/cases/${encodeURIComponent(legalCase.id)}`}
              className={styles.title}
            >
              {legalCase.caseNumber}
            </AppLink>
            <Caption1 className={styles.line}>
              <span className={styles.ellipsis}>{caseTypeLabels[legalCase.caseType]}</span>
            </Caption1>
            <Caption1 className={styles.line}>
              <CalendarRegular aria-hidden />
              <span className={styles.ellipsis}>
                Filed {filedFormat.format(new Date(legalCase.createdAt))}
              </span>
            </Caption1>
          </div>
          <span className={styles.badges}>
            <PriorityBadge priority={legalCase.priority} />
            <CaseStatusBadge status={legalCase.status} />
          </span>
        </li>
      )}
    </ListCard>
  );
}
