import {
  Body1,
  Caption1,
  Card,
  makeStyles,
  Skeleton,
  SkeletonItem,
  Tab,
  TabList,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowImportRegular } from '@fluentui/react-icons';
import type { AuctionListItem } from '@contracts/auctions/auctions.schema';
import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PermittedButton } from '../../../components/PermittedButton';
import { useMediaQuery } from '../../../lib/use-media-query';
import { auctionViews, useAuctionSummary, type AuctionView } from '../api/auctions';
import { AuctionList, type AuctionAction } from './AuctionList';
import { viewLabels } from './auction-style';
import { CreateAuctionDialog } from './CreateAuctionDialog';
import { ImportAuctionsDialog } from './ImportAuctionsDialog';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  header: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
  },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: { margin: 0 },
  subtitle: { color: tokens.colorNeutralForeground2, maxWidth: '640px' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(5, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    // Two by two under the total on a phone, rather than a row with a gap in it.
    '@media (max-width: 640px)': {
      gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
      gap: tokens.spacingHorizontalS,
      '& > :first-child': { gridColumn: '1 / -1' },
    },
  },
  tile: { display: 'flex', flexDirection: 'column', gap: '2px' },
  tileLabel: { color: tokens.colorNeutralForeground2 },
  tileValue: {
    fontSize: tokens.fontSizeHero700,
    fontWeight: tokens.fontWeightSemibold,
    lineHeight: 1.1,
  },
  tabs: { overflowX: 'auto' },
});

function Tile({ label, value, note }: { label: string; value?: number; note?: string }) {
  const styles = useStyles();
  return (
    <Card className={styles.tile}>
      <Caption1 className={styles.tileLabel}>{label}</Caption1>
      {value === undefined ? (
        <Skeleton aria-label={`Loading ${label}`}>
          <SkeletonItem size={32} />
        </Skeleton>
      ) : (
        <span className={styles.tileValue}>{value.toLocaleString()}</span>
      )}
      {note ? <Caption1 className={styles.tileLabel}>{note}</Caption1> : null}
    </Card>
  );
}

function Tiles() {
  const styles = useStyles();
  const { data } = useAuctionSummary();
  return (
    <section className={styles.tiles} aria-label="Auction figures">
      <Tile label="Total Auctions" value={data?.total} />
      <Tile label="Active" value={data?.active} />
      <Tile
        label="Upcoming"
        value={data?.upcoming}
        note={data?.draft ? `and ${data.draft} in draft` : undefined}
      />
      <Tile label="Completed" value={data?.completed} />
      <Tile label="Avg Bidders" value={data?.avgBidders} />
    </section>
  );
}

/**
 * Auction Management: the figures, and the auctions in three tabs whose addresses are
 * `/auctions/current`, `/auctions/upcoming` and `/auctions/past`. `/auctions/new` is the Create
 * New Auction dialog over the list it was opened from.
 */
export default function AuctionsPage({
  view: routeView,
  creating = false,
}: {
  /** The tab; absent at `/auctions/new`, which shows the list it was opened from. */
  view?: AuctionView;
  creating?: boolean;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [importing, setImporting] = useState(false);
  const phone = useMediaQuery('(max-width: 640px)');
  const from = (location.state as { from?: string } | null)?.from;
  const fromView = auctionViews.find((candidate) => from?.startsWith(`/auctions/${candidate}`));
  const view = routeView ?? fromView ?? 'upcoming';

  const openCreate = () =>
    navigate('/auctions/new', { state: { from: `${location.pathname}${location.search}` } });
  const closeCreate = () => {
    // Back where it was opened from (so Back does not reopen it), or the list drafts go to.
    if (from) navigate(-1);
    else navigate('/auctions/upcoming', { replace: true });
  };
  const onAction = (action: AuctionAction, auction: AuctionListItem) => {
    const state = { from: `${location.pathname}${location.search}` };
    if (action === 'view') navigate(`/auctions/${auction.id}`, { state });
    else if (action === 'edit') navigate(`/auctions/${auction.id}/edit`, { state });
    else navigate(`/auctions/${auction.id}/assessment`, { state });
  };
  const createButton = (
    <PermittedButton
      permission="auctions:create"
      appearance="primary"
      icon={<AddRegular />}
      onClick={openCreate}
    >
      Create Auction
    </PermittedButton>
  );

  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <div className={styles.heading}>
          <Title2 as="h1" className={styles.title}>
            Auction Management
          </Title2>
          <Body1 className={styles.subtitle}>
            Run your sales from catalogue to results, with platform integrations for imported
            auctions and AI-powered bidder insights for every invitation.
          </Body1>
        </div>
        <div className={styles.actions}>
          <PermittedButton
            permission="auctions:import"
            icon={<ArrowImportRegular />}
            onClick={() => setImporting(true)}
          >
            Import Auctions
          </PermittedButton>
          {createButton}
        </div>
      </div>
      <Tiles />
      <TabList
        className={styles.tabs}
        size={phone ? 'small' : 'medium'}
        selectedValue={view}
        aria-label="Auction lists"
        onTabSelect={(_, data) => {
          // The search goes along; a status belongs to the tab it was chosen in.
          const search = params.get('q');
          navigate(
            `/auctions/${String(data.value)}${search ? `?q=${encodeURIComponent(search)}` : ''}`,
          );
        }}
      >
        {auctionViews.map((candidate) => (
          // A phone shows the first word ("Past"); the name stays whole ("Past Auctions").
          <Tab key={candidate} value={candidate} aria-label={viewLabels[candidate]}>
            {phone ? viewLabels[candidate].replace(/ Auctions$/, '') : viewLabels[candidate]}
          </Tab>
        ))}
      </TabList>
      <AuctionList
        key={view}
        view={view}
        onAction={onAction}
        emptyAction={view === 'upcoming' ? createButton : undefined}
      />
      <CreateAuctionDialog open={creating} onClose={closeCreate} />
      <ImportAuctionsDialog
        open={importing}
        onClose={() => setImporting(false)}
        onCreate={() => {
          setImporting(false);
          openCreate();
        }}
      />
    </div>
  );
}
