import {
  Body1,
  Button,
  Caption1,
  Card,
  Dropdown,
  Link,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  SearchBox,
  Skeleton,
  SkeletonItem,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  CalendarLtrRegular,
  EditRegular,
  EyeRegular,
  MoreHorizontalRegular,
  SparkleRegular,
} from '@fluentui/react-icons';
import {
  auctionStatuses,
  type AuctionListItem,
  type AuctionStatus,
} from '@contracts/auctions/auctions.schema';
import { useCallback, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { formatHouseDate, formatHouseTime, zoneAbbreviation } from '../../../lib/house-time';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { needsPermission } from '../../../lib/permission-text';
import { countOf } from '../../../lib/plural';
import { useMediaQuery } from '../../../lib/use-media-query';
import { AUCTION_PAGE_SIZE, useAuctionList, type AuctionView } from '../api/auctions';
import { canAssess, SourceBadge, StatusBadge, viewOfStatus } from './auction-style';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  filters: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
  },
  search: { flexGrow: 1, minWidth: '220px', maxWidth: '420px' },
  filter: { minWidth: '160px' },
  count: { color: tokens.colorNeutralForeground3 },
  frame: {
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowX: 'auto',
  },
  table: { minWidth: '960px' },
  headerRow: { backgroundColor: tokens.colorNeutralBackground3 },
  row: { cursor: 'pointer' },
  titleCell: { display: 'flex', flexDirection: 'column', paddingBlock: tokens.spacingVerticalS },
  title: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground2 },
  when: { display: 'flex', flexDirection: 'column' },
  cards: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: 0,
    margin: 0,
  },
  cardItem: { listStyle: 'none' },
  card: { cursor: 'pointer' },
  cardBody: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  cardHead: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  cardFacts: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
    color: tokens.colorNeutralForeground2,
    alignItems: 'center',
  },
  pager: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  pagerButtons: { display: 'flex', gap: tokens.spacingHorizontalS },
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

export type AuctionAction = 'view' | 'edit' | 'assess';

const emptyText: Record<AuctionView, { title: string; body: string }> = {
  current: {
    title: 'No auctions are live right now',
    body: 'An auction is listed here while it is Active: from going live until it closes.',
  },
  upcoming: {
    title: 'No upcoming auctions',
    body: 'A new auction waits here as a Draft until you publish it.',
  },
  past: {
    title: 'No past auctions yet',
    body: 'Completed and cancelled auctions are kept here with their results.',
  },
};

/** The statuses a tab's filter offers: every one, plus drafts where they are listed. */
const filterStatuses = (view: AuctionView): AuctionStatus[] =>
  auctionStatuses.filter((status) => status !== 'Draft' || view === 'upcoming');

function RowMenu({
  auction,
  onAction,
}: {
  auction: AuctionListItem;
  onAction(action: AuctionAction, auction: AuctionListItem): void;
}) {
  const can = useCan();
  const mayEdit = can('auctions:edit');
  const mayAssess = can('bidders:assessment');
  const { AuctionSyncMenuItem } = useFeatureSlots();
  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<MoreHorizontalRegular />}
          aria-label={`Actions for ${auction.title}`}
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
        />
      </MenuTrigger>
      <MenuPopover onClick={(event) => event.stopPropagation()}>
        <MenuList>
          <MenuItem icon={<EyeRegular />} onClick={() => onAction('view', auction)}>
            View Details
          </MenuItem>
          <MenuItem
            icon={<EditRegular />}
            disabled={!mayEdit}
            subText={mayEdit ? undefined : needsPermission('auctions:edit')}
            onClick={() => onAction('edit', auction)}
          >
            Edit Auction
          </MenuItem>
          {canAssess(auction.status) ? (
            <MenuItem
              icon={<SparkleRegular />}
              disabled={!mayAssess}
              subText={mayAssess ? undefined : needsPermission('bidders:assessment')}
              onClick={() => onAction('assess', auction)}
            >
              AI Assessment
            </MenuItem>
          ) : null}
          {auction.importedFrom && AuctionSyncMenuItem ? (
            <AuctionSyncMenuItem auctionId={auction.id} platform={auction.importedFrom} />
          ) : null}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

function When({ date, time, auction }: { date: string; time: string; auction: AuctionListItem }) {
  const styles = useStyles();
  return (
    <span className={styles.when}>
      <span>{formatHouseDate(date, 'short')}</span>
      <Caption1 className={styles.muted}>
        {formatHouseTime(time)} {zoneAbbreviation(auction.timeZone, auction.startsAt)}
      </Caption1>
    </span>
  );
}

/** The list's search, status and page live in the address, so reload and links keep them. */
function useListParams(view: AuctionView) {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const valid = (filterStatuses(view) as string[]).includes(status);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const set = useCallback(
    (changes: Record<string, string>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value) next.set(name, value);
            else next.delete(name);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return {
    search: params.get('q') ?? '',
    status: (valid ? status : '') as AuctionStatus | '',
    page,
    set,
  };
}

export function AuctionList({
  view,
  onAction,
  emptyAction,
}: {
  view: AuctionView;
  onAction(action: AuctionAction, auction: AuctionListItem): void;
  /** What an empty tab offers, e.g. Create Auction. */
  emptyAction?: ReactNode;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const phone = useMediaQuery('(max-width: 760px)');
  const { search: searchParam, status, page, set } = useListParams(view);
  const [search, setSearch] = useState(searchParam);
  const [shownParam, setShownParam] = useState(searchParam);
  if (searchParam !== shownParam) {
    setShownParam(searchParam);
    setSearch(searchParam);
  }
  useEffect(() => {
    if (search === searchParam) return;
    const timer = setTimeout(() => set({ q: search, page: '' }), 300);
    return () => clearTimeout(timer);
  }, [search, searchParam, set]);

  const list = useAuctionList({ view, search: searchParam, status, page });
  const auctions = list.data?.auctions ?? [];
  const total = list.data?.total;
  const filtered = Boolean(searchParam || status);
  const first = (page - 1) * AUCTION_PAGE_SIZE + 1;
  const last = first + auctions.length - 1;
  const pages = total === undefined ? 1 : Math.max(1, Math.ceil(total / AUCTION_PAGE_SIZE));

  // The detail's back link returns to this very list: tab, search, filter and page.
  const open = (auction: AuctionListItem) =>
    navigate(`/auctions/${auction.id}`, {
      state: { from: `${location.pathname}${location.search}` },
    });
  /** A click anywhere on a row opens it, except on the link or the menu, which act themselves. */
  const rowClick = (event: MouseEvent, auction: AuctionListItem) => {
    if ((event.target as HTMLElement).closest('a, button, [role="menu"]')) return;
    open(auction);
  };
  const titleLink = (auction: AuctionListItem) => (
    <Link
      href={`/auctions/${auction.id}`}
      className={styles.title}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        open(auction);
      }}
    >
      {auction.title}
    </Link>
  );
  const chooseStatus = (value: string) => {
    const chosen = value as AuctionStatus | '';
    // A status listed under another tab is found there: go to it, filtered.
    if (chosen && viewOfStatus[chosen] !== view) {
      const next = new URLSearchParams({ status: chosen });
      if (searchParam) next.set('q', searchParam);
      navigate(`/auctions/${viewOfStatus[chosen]}?${next}`);
      return;
    }
    set({ status: chosen, page: '' });
  };

  const body = () => {
    if (list.isLoading && !list.data) {
      return (
        <Skeleton aria-label="Loading auctions">
          {[0, 1, 2].map((row) => (
            <SkeletonItem key={row} size={48} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      );
    }
    if (!auctions.length) {
      const text = emptyText[view];
      return (
        <div className={styles.frame}>
          <div className={styles.empty}>
            <CalendarLtrRegular fontSize={32} aria-hidden="true" />
            {filtered ? (
              <>
                <Body1>No auctions match these filters.</Body1>
                <Button onClick={() => set({ q: '', status: '', page: '' })}>Clear filters</Button>
              </>
            ) : (
              <>
                <Text weight="semibold">{text.title}</Text>
                <Body1>{text.body}</Body1>
                {emptyAction}
              </>
            )}
          </div>
        </div>
      );
    }
    if (phone) {
      return (
        <ul className={styles.cards} aria-label="Auctions">
          {auctions.map((auction) => (
            <li key={auction.id} className={styles.cardItem}>
              <Card className={styles.card}>
                <div className={styles.cardBody} onClick={(event) => rowClick(event, auction)}>
                  <div className={styles.cardHead}>
                    <div className={styles.titleCell}>
                      {titleLink(auction)}
                      <Caption1 className={styles.muted}>{auction.company}</Caption1>
                    </div>
                    <RowMenu auction={auction} onAction={onAction} />
                  </div>
                  <div className={styles.cardFacts}>
                    <StatusBadge status={auction.status} />
                    <Caption1>
                      {auction.startDate === auction.endDate
                        ? formatHouseDate(auction.startDate, 'short')
                        : `${formatHouseDate(auction.startDate, 'short')} – ${formatHouseDate(auction.endDate, 'short')}`}
                    </Caption1>
                    <Caption1>{countOf(auction.biddersRegistered, 'bidder')}</Caption1>
                    {/* A card names only a platform; "Manual" is the rule, not news. */}
                    {auction.importedFrom ? <SourceBadge platform={auction.importedFrom} /> : null}
                  </div>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      );
    }
    return (
      <div className={styles.frame}>
        <Table className={styles.table} aria-label="Auctions">
          <TableHeader>
            <TableRow className={styles.headerRow}>
              <TableHeaderCell style={{ width: '26%' }}>Auction</TableHeaderCell>
              <TableHeaderCell>Company</TableHeaderCell>
              <TableHeaderCell style={{ width: '110px' }}>Status</TableHeaderCell>
              <TableHeaderCell style={{ width: '130px' }}>Start</TableHeaderCell>
              <TableHeaderCell style={{ width: '130px' }}>End</TableHeaderCell>
              <TableHeaderCell style={{ width: '80px' }}>Bidders</TableHeaderCell>
              <TableHeaderCell style={{ width: '140px' }}>Imported from</TableHeaderCell>
              <TableHeaderCell style={{ width: '56px' }}>
                <span className="visually-hidden">Actions</span>
              </TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {auctions.map((auction) => (
              <TableRow
                key={auction.id}
                className={styles.row}
                onClick={(event) => rowClick(event, auction)}
              >
                <TableCell>
                  <div className={styles.titleCell}>
                    {titleLink(auction)}
                    <Caption1 className={styles.muted}>
                      {countOf(auction.lotCount, 'lot')}
                      {auction.location ? ` · ${auction.location}` : ''}
                    </Caption1>
                  </div>
                </TableCell>
                <TableCell>{auction.company}</TableCell>
                <TableCell>
                  <StatusBadge status={auction.status} />
                </TableCell>
                <TableCell>
                  <When date={auction.startDate} time={auction.startTime} auction={auction} />
                </TableCell>
                <TableCell>
                  <When date={auction.endDate} time={auction.endTime} auction={auction} />
                </TableCell>
                <TableCell>{auction.biddersRegistered.toLocaleString()}</TableCell>
                <TableCell>
                  <SourceBadge platform={auction.importedFrom} />
                </TableCell>
                <TableCell>
                  <RowMenu auction={auction} onAction={onAction} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    );
  };

  return (
    <div className={styles.stack}>
      <div className={styles.filters} role="search">
        <SearchBox
          className={styles.search}
          placeholder="Search auctions..."
          aria-label="Search auctions"
          value={search}
          onChange={(_, data) => setSearch(data.value)}
        />
        <Dropdown
          className={styles.filter}
          aria-label="Status"
          value={status || 'All Statuses'}
          selectedOptions={[status]}
          onOptionSelect={(_, data) => chooseStatus(data.optionValue ?? '')}
        >
          <Option value="">All Statuses</Option>
          {filterStatuses(view).map((candidate) => (
            <Option key={candidate} value={candidate}>
              {candidate}
            </Option>
          ))}
        </Dropdown>
      </div>
      {list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The auctions could not be loaded: {messageOf(list.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void list.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {body()}
      {total ? (
        <div className={styles.pager}>
          <Caption1 className={styles.count} aria-live="polite">
            Showing {first.toLocaleString()}–{last.toLocaleString()} of {countOf(total, 'auction')}
          </Caption1>
          {pages > 1 ? (
            <div className={styles.pagerButtons}>
              <Button
                disabled={page <= 1}
                onClick={() => set({ page: page - 1 > 1 ? String(page - 1) : '' })}
              >
                Previous
              </Button>
              <Button disabled={page >= pages} onClick={() => set({ page: String(page + 1) })}>
                Next
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
