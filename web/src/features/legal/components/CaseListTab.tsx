import {
  Body1,
  Button,
  Caption1,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  mergeClasses,
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
import { ScalesRegular } from '@fluentui/react-icons';
import { caseTypeLabels, type LegalCase } from '@contracts/legal/legal.schema';
import type { MouseEvent, ReactNode } from 'react';
import { messageOf } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/money';
import { countOf } from '../../../lib/plural';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useCaseList } from '../api/legal';
import {
  CASE_PAGE_SIZE,
  nextSort,
  pageCount,
  type CaseListFilters,
  type CaseSortField,
} from '../api/list-query';
import { CaseCard } from './CaseCard';
import { CaseFilters, useCaseFilters } from './CaseFilters';
import { CaseMenu, useCaseMenuActions, type CaseAction } from './CaseMenu';
import { CaseStatusBadge, formatDate, PriorityBadge } from './case-style';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  frame: {
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowX: 'auto',
  },
  table: { minWidth: '1000px' },
  headerRow: { backgroundColor: tokens.colorNeutralBackground3 },
  row: { cursor: 'pointer' },
  number: { fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap' },
  caseCell: { display: 'flex', flexDirection: 'column', paddingBlock: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground2 },
  clip: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
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
  pagerButtons: { display: 'flex', gap: tokens.spacingHorizontalS },
  count: { color: tokens.colorNeutralForeground3 },
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

/** The columns the server can sort by, keyed by the column's heading. */
const sortColumns: Partial<Record<string, CaseSortField>> = {
  'Case ID': 'caseNumber',
  Amount: 'amount',
  Priority: 'priority',
  Date: 'date',
};
const columns: { name: string; width?: string }[] = [
  { name: 'Case ID', width: '22%' },
  { name: 'Auction', width: '16%' },
  { name: 'Bidder', width: '14%' },
  { name: 'Type', width: '150px' },
  { name: 'Amount', width: '110px' },
  { name: 'Priority', width: '96px' },
  { name: 'Status', width: '120px' },
  { name: 'Date', width: '116px' },
];

function CaseTable({
  cases,
  filters,
  onSort,
  onAction,
}: {
  cases: LegalCase[];
  filters: CaseListFilters;
  onSort(field: CaseSortField): void;
  onAction(action: CaseAction, legalCase: LegalCase): void;
}) {
  const styles = useStyles();
  const rowClick = (event: MouseEvent, legalCase: LegalCase) => {
    if ((event.target as HTMLElement).closest('a, button, [role="menu"]')) return;
    onAction('view', legalCase);
  };
  return (
    <div className={styles.frame}>
      <Table className={styles.table} aria-label="Legal cases">
        <TableHeader>
          <TableRow className={styles.headerRow}>
            {columns.map((column) => {
              const field = sortColumns[column.name];
              const direction =
                field && filters.sortBy === field
                  ? filters.sortOrder === 'asc'
                    ? 'ascending'
                    : 'descending'
                  : undefined;
              return (
                <TableHeaderCell
                  key={column.name}
                  style={column.width ? { width: column.width } : undefined}
                  sortable={Boolean(field)}
                  sortDirection={direction}
                  onClick={field ? () => onSort(field) : undefined}
                >
                  {column.name}
                </TableHeaderCell>
              );
            })}
            <TableHeaderCell style={{ width: '56px' }}>
              <span className="visually-hidden">Actions</span>
            </TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {cases.map((legalCase) => (
            <TableRow
              key={legalCase.id}
              className={styles.row}
              onClick={(event) => rowClick(event, legalCase)}
            >
              <TableCell>
                <div className={styles.caseCell}>
                  <Link
                    href={`/legal/cases/${legalCase.id}`}
                    className={styles.number}
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)
                        return;
                      event.preventDefault();
                      onAction('view', legalCase);
                    }}
                  >
                    {legalCase.caseNumber}
                  </Link>
                  <Caption1
                    className={mergeClasses(styles.muted, styles.clip)}
                    title={legalCase.title}
                  >
                    {legalCase.title}
                  </Caption1>
                </div>
              </TableCell>
              <TableCell>
                <span className={styles.clip} title={legalCase.auction?.title}>
                  {legalCase.auction?.title ?? '—'}
                </span>
              </TableCell>
              <TableCell>
                <span className={styles.clip} title={legalCase.bidder?.name}>
                  {legalCase.bidder?.name ?? '—'}
                </span>
              </TableCell>
              <TableCell>{caseTypeLabels[legalCase.caseType]}</TableCell>
              <TableCell className={styles.amount}>
                {formatMoney(legalCase.claimAmount, legalCase.currency)}
              </TableCell>
              <TableCell>
                <PriorityBadge priority={legalCase.priority} />
              </TableCell>
              <TableCell>
                <CaseStatusBadge status={legalCase.status} />
              </TableCell>
              <TableCell>{formatDate(legalCase.createdAt)}</TableCell>
              <TableCell>
                <CaseMenu legalCase={legalCase} onAction={onAction} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/**
 * All Cases (a sortable table; cards on a phone) or Active Cases (a card grid of the cases not
 * yet finished), with the search, filters and page in the address.
 */
export function CaseListTab({
  mode,
  emptyAction,
}: {
  mode: 'all' | 'active';
  /** What an empty, unfiltered list offers, e.g. File New Case. */
  emptyAction?: ReactNode;
}) {
  const styles = useStyles();
  const phone = useMediaQuery('(max-width: 760px)');
  const { filters: asked, set, clear } = useCaseFilters();
  // Active Cases has no status filter: one carried over from All Cases does not apply.
  const filters = mode === 'active' ? { ...asked, statuses: [] } : asked;
  const filtered = Boolean(
    filters.search || filters.statuses.length || filters.priorities.length || filters.types.length,
  );
  const list = useCaseList(filters, mode === 'active' ? 'active' : undefined);
  const { onAction, closeDialog } = useCaseMenuActions();
  const cases = list.data?.cases ?? [];
  const total = list.data?.total;
  const pages = total === undefined ? 1 : pageCount(total);
  const first = (filters.page - 1) * CASE_PAGE_SIZE + 1;
  const last = first + cases.length - 1;
  const noun = mode === 'active' ? 'active case' : 'case';

  const body = () => {
    if (!list.data) {
      if (list.error) return null;
      return (
        <Skeleton aria-label="Loading cases">
          {[0, 1, 2].map((row) => (
            <SkeletonItem key={row} size={48} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      );
    }
    if (!cases.length) {
      return (
        <div className={styles.frame}>
          <div className={styles.empty}>
            <ScalesRegular fontSize={32} aria-hidden="true" />
            {filtered ? (
              <>
                <Body1>No cases match these filters.</Body1>
                <Button onClick={clear}>Clear filters</Button>
              </>
            ) : mode === 'active' ? (
              <>
                <Text weight="semibold">No active cases</Text>
                <Body1>
                  Closed, resolved, dismissed and settled cases are listed under All Cases.
                </Body1>
              </>
            ) : (
              <>
                <Text weight="semibold">No legal cases yet</Text>
                <Body1>Disputes and claims filed for your auctions and bidders appear here.</Body1>
                {emptyAction}
              </>
            )}
          </div>
        </div>
      );
    }
    if (mode === 'active' || phone) {
      return (
        <ul className={styles.grid} aria-label={mode === 'active' ? 'Active cases' : 'Cases'}>
          {cases.map((legalCase) => (
            <li key={legalCase.id}>
              <CaseCard legalCase={legalCase} onAction={onAction} />
            </li>
          ))}
        </ul>
      );
    }
    return (
      <CaseTable
        cases={cases}
        filters={filters}
        onSort={(field) => set(nextSort(filters, field))}
        onAction={onAction}
      />
    );
  };

  return (
    <div className={styles.stack}>
      <CaseFilters
        filters={filters}
        set={set}
        withStatus={mode === 'all'}
        withSort={mode === 'active' || phone}
      />
      {list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The cases could not be loaded: {messageOf(list.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void list.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {body()}
      {total ? (
        <div className={styles.pager}>
          <Caption1 className={styles.count} aria-live="polite">
            Showing {first.toLocaleString()}–{last.toLocaleString()} of {countOf(total, noun)}
          </Caption1>
          {pages > 1 ? (
            <div className={styles.pagerButtons}>
              <Button disabled={filters.page <= 1} onClick={() => set({ page: filters.page - 1 })}>
                Previous
              </Button>
              <Button
                disabled={filters.page >= pages}
                onClick={() => set({ page: filters.page + 1 })}
              >
                Next
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      {closeDialog}
    </div>
  );
}
