import {
  Button,
  Caption1,
  Dropdown,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  SearchBox,
  tokens,
} from '@fluentui/react-components';
import { ArrowSortDownLinesRegular, ArrowSortUpLinesRegular } from '@fluentui/react-icons';
import {
  bidderStatuses,
  type BidderListItem,
  type ScoreType,
} from '@contracts/bidders/bidders.schema';
import { autoInviteStatuses } from '@contracts/scoring/scoring.schema';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { useBidderList, type ListFilters } from '../api/bidders';
import { BidderTable, type RowAction } from './BidderTable';
import { BiddersWelcome } from './BiddersWelcome';
import { countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  filters: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
  },
  search: { flexGrow: 1, minWidth: '220px', maxWidth: '420px' },
  filter: { minWidth: '150px' },
  count: { color: tokens.colorNeutralForeground3 },
});

const rangeLabels = {
  '': 'All scores',
  high: 'High (80+)',
  medium: 'Medium (60-79)',
  low: 'Low (below 60)',
} as const;

/** The list's filters live in the address, so a reload or a shared link shows the same list. */
function useFilters(scoreType: ScoreType) {
  const [params, setParams] = useSearchParams();
  const filters: ListFilters = {
    scoreType,
    search: params.get('q') ?? '',
    status: params.get('status') ?? '',
    range: (['high', 'medium', 'low'].includes(params.get('range') ?? '')
      ? params.get('range')
      : '') as ListFilters['range'],
    autoInvite: params.get('invite') ?? '',
    sort: params.get('sort') === 'asc' ? 'asc' : 'desc',
  };
  const set = useCallback(
    (name: string, value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { filters, set };
}

export function AllBiddersTab({
  scoreType,
  onOpen,
  onAction,
  onAdd,
  onImport,
}: {
  scoreType: ScoreType;
  onOpen(bidder: BidderListItem): void;
  onAction(action: RowAction, bidder: BidderListItem): void;
  /** Absent for those who may not add (or import) bidders. */
  onAdd?(): void;
  onImport?(): void;
}) {
  const styles = useStyles();
  const { filters, set } = useFilters(scoreType);
  const [search, setSearch] = useState(filters.search);
  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => set('q', search), 300);
    return () => clearTimeout(timer);
  }, [search, filters.search, set]);

  const list = useBidderList(filters);
  const bidders = useMemo(() => list.data?.flatMap((page) => page.bidders) ?? [], [list.data]);
  const total = list.data?.[0]?.total;
  const hasMore = Boolean(list.data?.at(-1)?.continuationToken);
  const loadingMore =
    list.isLoading || (list.size > 0 && list.data !== undefined && list.data.length < list.size);
  const { setSize } = list;
  const loadMore = useCallback(() => void setSize((size) => size + 1), [setSize]);
  const filtered = Boolean(filters.search || filters.status || filters.range || filters.autoInvite);

  // A house with no bidders at all has nothing to filter: it is shown where to start.
  if (total === 0 && !filtered) return <BiddersWelcome onAdd={onAdd} onImport={onImport} />;

  return (
    <div className={styles.stack}>
      <div className={styles.filters} role="search">
        <SearchBox
          className={styles.search}
          placeholder="Search bidders..."
          aria-label="Search bidders"
          value={search}
          onChange={(_, data) => setSearch(data.value)}
        />
        <Dropdown
          className={styles.filter}
          aria-label="Status"
          value={filters.status || 'All statuses'}
          selectedOptions={[filters.status]}
          onOptionSelect={(_, data) => set('status', data.optionValue ?? '')}
        >
          <Option value="">All statuses</Option>
          {bidderStatuses.map((status) => (
            <Option key={status} value={status}>
              {status}
            </Option>
          ))}
        </Dropdown>
        <Dropdown
          className={styles.filter}
          aria-label="Score Range"
          value={rangeLabels[filters.range]}
          selectedOptions={[filters.range]}
          onOptionSelect={(_, data) => set('range', data.optionValue ?? '')}
        >
          {Object.entries(rangeLabels).map(([value, text]) => (
            <Option key={value} value={value}>
              {text}
            </Option>
          ))}
        </Dropdown>
        <Dropdown
          className={styles.filter}
          aria-label="Auto-Invite"
          value={filters.autoInvite || 'All auto-invite'}
          selectedOptions={[filters.autoInvite]}
          onOptionSelect={(_, data) => set('invite', data.optionValue ?? '')}
        >
          <Option value="">All auto-invite</Option>
          {autoInviteStatuses.map((status) => (
            <Option key={status} value={status}>
              {status}
            </Option>
          ))}
        </Dropdown>
        <Button
          appearance="subtle"
          icon={
            filters.sort === 'desc' ? <ArrowSortDownLinesRegular /> : <ArrowSortUpLinesRegular />
          }
          onClick={() => set('sort', filters.sort === 'desc' ? 'asc' : '')}
          aria-label={`Sorted by score, ${filters.sort === 'desc' ? 'highest' : 'lowest'} first. Change order`}
        >
          {filters.sort === 'desc' ? 'Highest score first' : 'Lowest score first'}
        </Button>
      </div>
      {list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The bidders could not be loaded: {messageOf(list.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void list.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      <Caption1 className={styles.count} aria-live="polite">
        {total === undefined
          ? 'Loading bidders...'
          : `Showing ${bidders.length.toLocaleString()} of ${countOf(total, 'bidder')}`}
      </Caption1>
      <BidderTable
        bidders={bidders}
        total={total}
        scoreType={scoreType}
        loading={list.isLoading}
        loadingMore={loadingMore}
        hasMore={hasMore}
        onLoadMore={loadMore}
        onOpen={onOpen}
        onAction={onAction}
      />
    </div>
  );
}
