import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Tab,
  TabList,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeftRegular } from '@fluentui/react-icons';
import { auctionCategoryLabels } from '@contracts/auctions/auctions.schema';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, messageOf } from '../../../lib/api-client';
import { formatHouseMoment } from '../../../lib/house-time';
import { auctionViews, useAuction } from '../api/auctions';
import { StatusBadge, viewLabels, viewOfStatus } from './auction-style';
import { EditAuctionPanel } from './EditAuctionPanel';
import { LifecycleActions } from './LifecycleActions';
import { LotsTab } from './LotsTab';
import { OverviewTab } from './OverviewTab';
import { RegistrationsTab } from './RegistrationsTab';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  back: { alignSelf: 'flex-start', marginInlineStart: `calc(-1 * ${tokens.spacingHorizontalS})` },
  header: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  titleRow: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  title: { margin: 0, overflowWrap: 'anywhere' },
  meta: { color: tokens.colorNeutralForeground2 },
  description: { maxWidth: '860px', whiteSpace: 'pre-wrap' },
  tabs: { overflowX: 'auto' },
});

export type DetailSection = 'overview' | 'lots' | 'registrations' | 'edit';

/**
 * One auction: its header and lifecycle actions, and the tabs Overview (`/auctions/{id}`), Lots
 * (`/auctions/{id}/lots`) and Registrations (`/auctions/{id}/registrations`). Edit Auction is a
 * panel over the overview at `/auctions/{id}/edit`.
 */
export default function AuctionDetailPage({ section }: { section: DetailSection }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const { auctionId = '' } = useParams();
  const { data: auction, error, mutate } = useAuction(auctionId);
  const from = (location.state as { from?: string } | null)?.from;
  const tab = section === 'edit' ? 'overview' : section;
  const base = `/auctions/${auctionId}`;
  // The list it came from (with its filters), else the tab its status is listed under.
  const backTo = from ?? (auction ? `/auctions/${viewOfStatus[auction.status]}` : '/auctions');
  const fromView = auctionViews.find((view) => from?.startsWith(`/auctions/${view}`));
  const backLabel = fromView
    ? viewLabels[fromView]
    : auction && !from
      ? viewLabels[viewOfStatus[auction.status]]
      : 'Auctions';
  const keepFrom = from ? { state: { from } } : undefined;

  if (error && !auction) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className={styles.page}>
        <Title2 as="h1">{missing ? 'Auction not found' : 'Auction'}</Title2>
        <MessageBar intent={missing ? 'warning' : 'error'}>
          <MessageBarBody>
            {missing
              ? 'There is no auction at this address in your account. It may have been deleted.'
              : `The auction could not be loaded: ${messageOf(error)}`}
          </MessageBarBody>
          <MessageBarActions>
            {missing ? null : <Button onClick={() => void mutate()}>Try again</Button>}
            <Button onClick={() => navigate('/auctions')}>Go to Auction Management</Button>
          </MessageBarActions>
        </MessageBar>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <Button
        className={styles.back}
        appearance="subtle"
        icon={<ArrowLeftRegular />}
        onClick={() => navigate(backTo)}
      >
        {backLabel}
      </Button>
      {!auction ? (
        <Skeleton aria-label="Loading auction">
          <SkeletonItem size={32} style={{ maxWidth: 420 }} />
          <SkeletonItem size={16} style={{ maxWidth: 280, marginTop: 8 }} />
        </Skeleton>
      ) : (
        <>
          <header className={styles.header}>
            <div className={styles.titleRow}>
              <Title2 as="h1" className={styles.title}>
                {auction.title}
              </Title2>
              <StatusBadge status={auction.status} />
            </div>
            <Caption1 className={styles.meta}>
              {auction.company} · {auction.type} · {auctionCategoryLabels[auction.category]} ·{' '}
              {formatHouseMoment(
                auction.startDate,
                auction.startTime,
                auction.timeZone,
                auction.startsAt,
              )}
            </Caption1>
            {auction.description ? (
              <Body1 className={styles.description}>{auction.description}</Body1>
            ) : null}
            <LifecycleActions auction={auction} />
          </header>
          <TabList
            className={styles.tabs}
            selectedValue={tab}
            aria-label="Auction sections"
            onTabSelect={(_, data) =>
              navigate(data.value === 'overview' ? base : `${base}/${String(data.value)}`, {
                ...keepFrom,
              })
            }
          >
            <Tab value="overview">Overview</Tab>
            <Tab value="lots">Lots ({auction.lotCount.toLocaleString()})</Tab>
            <Tab value="registrations">Registrations</Tab>
          </TabList>
          {tab === 'overview' ? <OverviewTab auction={auction} /> : null}
          {tab === 'lots' ? <LotsTab auction={auction} /> : null}
          {tab === 'registrations' ? <RegistrationsTab auction={auction} /> : null}
          <EditAuctionPanel
            auction={section === 'edit' ? auction : null}
            onClose={() => {
              // Opened from this page: Back would return to it, so close the same way.
              if ((location.state as { openedFromPage?: boolean } | null)?.openedFromPage)
                navigate(-1);
              else navigate(base, { replace: true, ...keepFrom });
            }}
          />
        </>
      )}
    </div>
  );
}
