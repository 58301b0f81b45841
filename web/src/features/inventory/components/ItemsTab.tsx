import {
  Body1,
  Button,
  Caption1,
  Dropdown,
  Field,
  Link,
  makeStyles,
  mergeClasses,
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
import { BoxRegular } from '@fluentui/react-icons';
import {
  inventoryCategories,
  inventoryStatuses,
  type InventoryListItem,
} from '@contracts/inventory/inventory.schema';
import { useCallback, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useItemPages, type ItemFilters } from '../api/inventory';
import { ItemCard } from './ItemCard';
import { estimateText, PhotoThumb, ScoreBadge, StatusBadge, TrendBadge } from './item-style';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  filters: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'end',
  },
  search: {
    flexGrow: 1,
    minWidth: '220px',
    maxWidth: '420px',
    '@media (max-width: 640px)': { flexBasis: '100%', maxWidth: 'none' },
  },
  filter: {
    minWidth: '180px',
    '@media (max-width: 640px)': { flex: '1 1 140px', minWidth: 0 },
  },
  control: { minWidth: 0, width: '100%' },
  frame: {
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowX: 'auto',
  },
  table: { minWidth: '980px' },
  headerRow: { backgroundColor: tokens.colorNeutralBackground3 },
  row: { cursor: 'pointer' },
  itemCell: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    paddingBlock: tokens.spacingVerticalXS,
    minWidth: 0,
  },
  itemText: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  title: { fontWeight: tokens.fontWeightSemibold, textAlign: 'start' },
  clip: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  amount: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
    gap: tokens.spacingHorizontalM,
    padding: 0,
    margin: 0,
    listStyle: 'none',
  },
  pager: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
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

const ALL = 'all';

/** All Items' search and filters live in the address, so a reload or a link shows the same. */
function useItemFilters() {
  const [params, setParams] = useSearchParams();
  const filters: ItemFilters = {
    search: params.get('q') ?? '',
    status: inventoryStatuses.find((status) => status === params.get('status')) ?? null,
    category: inventoryCategories.find((category) => category === params.get('category')) ?? null,
  };
  const set = useCallback(
    (changes: Partial<ItemFilters>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const write = (name: string, value: string | null | undefined) => {
            if (value === undefined) return;
            if (value) next.set(name, value);
            else next.delete(name);
          };
          write('q', changes.search);
          write('status', changes.status);
          write('category', changes.category);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { filters, set };
}

function ItemTable({ items, onOpen }: { items: InventoryListItem[]; onOpen(id: string): void }) {
  const styles = useStyles();
  const rowClick = (event: MouseEvent, id: string) => {
    if ((event.target as HTMLElement).closest('a, button')) return;
    onOpen(id);
  };
  return (
    <div className={styles.frame}>
      <Table className={styles.table} aria-label="Inventory items">
        <TableHeader>
          <TableRow className={styles.headerRow}>
            <TableHeaderCell style={{ width: '30%' }}>Item</TableHeaderCell>
            <TableHeaderCell>Category</TableHeaderCell>
            <TableHeaderCell style={{ width: '110px' }}>Status</TableHeaderCell>
            <TableHeaderCell style={{ width: '96px' }}>Condition</TableHeaderCell>
            <TableHeaderCell style={{ width: '150px' }}>Estimate</TableHeaderCell>
            <TableHeaderCell style={{ width: '80px' }}>AI Score</TableHeaderCell>
            <TableHeaderCell style={{ width: '80px' }}>Trend</TableHeaderCell>
            <TableHeaderCell>Location</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((item) => (
            <TableRow
              key={item.id}
              className={styles.row}
              onClick={(event) => rowClick(event, item.id)}
            >
              <TableCell>
                <div className={styles.itemCell}>
                  <PhotoThumb itemId={item.id} photoId={item.photos[0]?.id} alt="" size={40} />
                  <div className={styles.itemText}>
                    <Link
                      as="button"
                      type="button"
                      className={mergeClasses(styles.title, styles.clip)}
                      title={item.title}
                      onClick={() => onOpen(item.id)}
                    >
                      {item.title}
                    </Link>
                    {item.auction ? (
                      <Caption1 className={mergeClasses(styles.muted, styles.clip)}>
                        Lot {item.auction.lotNumber} · {item.auction.auctionTitle}
                      </Caption1>
                    ) : null}
                  </div>
                </div>
              </TableCell>
              <TableCell>
                <div className={styles.itemText}>
                  <span className={styles.clip}>{item.category}</span>
                  {item.subcategory ? (
                    <Caption1
                      className={mergeClasses(styles.muted, styles.clip)}
                      title={item.subcategory}
                    >
                      {item.subcategory}
                    </Caption1>
                  ) : null}
                </div>
              </TableCell>
              <TableCell>
                <StatusBadge status={item.status} />
              </TableCell>
              <TableCell>{item.condition}</TableCell>
              <TableCell className={styles.amount}>{estimateText(item)}</TableCell>
              <TableCell>
                <ScoreBadge score={item.auctionSuggestionScore} />
              </TableCell>
              <TableCell>
                <TrendBadge trend={item.marketTrend} />
              </TableCell>
              <TableCell>
                <span className={styles.clip} title={item.location}>
                  {item.location || '—'}
                </span>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/**
 * All Items: a search box, status and category filters, a table on a wide screen and cards on a
 * phone, more loaded on demand from where the last page ended.
 */
export function ItemsTab({
  onOpen,
  addButton,
}: {
  onOpen(id: string): void;
  /** Add Item, offered when there is nothing yet. */
  addButton: ReactNode;
}) {
  const styles = useStyles();
  const phone = useMediaQuery('(max-width: 760px)');
  const { filters, set } = useItemFilters();
  const [search, setSearch] = useState(filters.search);
  const [shown, setShown] = useState(filters.search);
  if (filters.search !== shown) {
    setShown(filters.search);
    setSearch(filters.search);
  }
  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => set({ search }), 300);
    return () => clearTimeout(timer);
  }, [search, filters.search, set]);

  const pages = useItemPages(filters);
  const items = pages.data?.flatMap((page) => page.items) ?? [];
  const last = pages.data?.[pages.data.length - 1];
  const total = pages.data?.[0]?.total;
  const loadingMore = pages.isValidating && pages.size > (pages.data?.length ?? 0);
  const filtered = Boolean(filters.search || filters.status || filters.category);

  const body = () => {
    if (!pages.data) {
      if (pages.error) return null;
      return (
        <Skeleton aria-label="Loading items">
          {[0, 1, 2].map((row) => (
            <SkeletonItem key={row} size={48} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      );
    }
    if (!items.length) {
      return (
        <div className={styles.frame}>
          <div className={styles.empty}>
            <BoxRegular fontSize={32} aria-hidden="true" />
            {filtered ? (
              <>
                <Body1>No items match this search and these filters.</Body1>
                <Button onClick={() => set({ search: '', status: null, category: null })}>
                  Clear filters
                </Button>
              </>
            ) : (
              <>
                <Text weight="semibold">No items yet. Add your first item.</Text>
                <Body1>Everything your house holds for sale is listed here.</Body1>
                {addButton}
              </>
            )}
          </div>
        </div>
      );
    }
    if (phone) {
      return (
        <ul className={styles.grid} aria-label="Inventory items">
          {items.map((item) => (
            <li key={item.id}>
              <ItemCard item={item} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      );
    }
    return <ItemTable items={items} onOpen={onOpen} />;
  };

  return (
    <div className={styles.stack}>
      <div className={styles.filters} role="search">
        <Field label="Search" className={styles.search}>
          <SearchBox
            placeholder="Title, description, consignor or location"
            value={search}
            onChange={(_, data) => setSearch(data.value)}
          />
        </Field>
        <Field label="Status" className={styles.filter}>
          <Dropdown
            className={styles.control}
            value={filters.status ?? 'All statuses'}
            selectedOptions={[filters.status ?? ALL]}
            onOptionSelect={(_, data) =>
              set({
                status: inventoryStatuses.find((status) => status === data.optionValue) ?? null,
              })
            }
          >
            <Option value={ALL}>All statuses</Option>
            {inventoryStatuses.map((status) => (
              <Option key={status}>{status}</Option>
            ))}
          </Dropdown>
        </Field>
        <Field label="Category" className={styles.filter}>
          <Dropdown
            className={styles.control}
            value={filters.category ?? 'All categories'}
            selectedOptions={[filters.category ?? ALL]}
            onOptionSelect={(_, data) =>
              set({
                category:
                  inventoryCategories.find((category) => category === data.optionValue) ?? null,
              })
            }
          >
            <Option value={ALL}>All categories</Option>
            {inventoryCategories.map((category) => (
              <Option key={category}>{category}</Option>
            ))}
          </Dropdown>
        </Field>
      </div>
      {pages.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The items could not be loaded: {messageOf(pages.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void pages.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {body()}
      {total ? (
        <div className={styles.pager}>
          <Caption1 className={styles.muted} aria-live="polite">
            Showing {items.length.toLocaleString()} of {countOf(total, 'item')}
          </Caption1>
          {last?.continuation ? (
            <Button disabled={loadingMore} onClick={() => void pages.setSize(pages.size + 1)}>
              {loadingMore ? 'Loading...' : 'Load more'}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
