import {
  makeStyles,
  Menu,
  MenuButton,
  MenuDivider,
  MenuItem,
  MenuItemCheckbox,
  MenuItemRadio,
  MenuList,
  MenuPopover,
  MenuTrigger,
  SearchBox,
  tokens,
} from '@fluentui/react-components';
import { ArrowSortRegular, DismissRegular } from '@fluentui/react-icons';
import {
  caseSortFields,
  caseStatuses,
  casePriorities,
  caseTypeLabels,
  caseTypes,
  priorityLabels,
} from '@contracts/legal/legal.schema';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { filtersFrom, paramNames, type CaseListFilters } from '../api/list-query';

const useStyles = makeStyles({
  filters: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
  },
  search: {
    flexGrow: 1,
    minWidth: '220px',
    maxWidth: '420px',
    // A row of its own on a phone, wide enough to read what it searches.
    '@media (max-width: 640px)': { flexBasis: '100%', maxWidth: 'none' },
  },
});

type Changes = Partial<Omit<CaseListFilters, 'page'>> & { page?: number };

/**
 * The lists' search, filters, sort and page live in the address, so a reload or a shared link
 * shows the same list. Any change but a page's starts again at page 1.
 */
export function useCaseFilters() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const set = useCallback(
    (changes: Changes) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const write = (name: string, value: string) => {
            if (value) next.set(name, value);
            else next.delete(name);
          };
          if (changes.search !== undefined) write(paramNames.search, changes.search);
          if (changes.statuses) write(paramNames.statuses, changes.statuses.join(','));
          if (changes.priorities) write(paramNames.priorities, changes.priorities.join(','));
          if (changes.types) write(paramNames.types, changes.types.join(','));
          if (changes.sortBy) write(paramNames.sortBy, changes.sortBy);
          if (changes.sortOrder) write(paramNames.sortOrder, changes.sortOrder);
          write(paramNames.page, changes.page && changes.page > 1 ? String(changes.page) : '');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const clear = () => set({ search: '', statuses: [], priorities: [], types: [] });
  return { filters, set, clear };
}

/** A multi-select filter: a menu of check boxes, and Clear to show every value again. */
function MultiFilter<T extends string>({
  label,
  name,
  options,
  selected,
  labelOf,
  onChange,
}: {
  label: string;
  name: string;
  options: readonly T[];
  selected: readonly T[];
  labelOf(value: T): string;
  onChange(values: T[]): void;
}) {
  const summary =
    selected.length === 0
      ? 'All'
      : selected.length === 1 && selected[0]
        ? labelOf(selected[0])
        : `${selected.length} selected`;
  return (
    <Menu
      checkedValues={{ [name]: [...selected] }}
      onCheckedValueChange={(_, data) =>
        onChange(options.filter((option) => data.checkedItems.includes(option)))
      }
    >
      <MenuTrigger disableButtonEnhancement>
        <MenuButton appearance={selected.length ? 'primary' : 'secondary'}>
          {label}: {summary}
        </MenuButton>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {options.map((option) => (
            <MenuItemCheckbox key={option} name={name} value={option}>
              {labelOf(option)}
            </MenuItemCheckbox>
          ))}
          <MenuDivider />
          <MenuItem
            icon={<DismissRegular />}
            disabled={selected.length === 0}
            onClick={() => onChange([])}
          >
            Clear
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/** The orders a card list offers in place of a table's clickable headings. */
const sortChoices = [
  ['date:desc', 'Newest first'],
  ['date:asc', 'Oldest first'],
  ['priority:desc', 'Highest priority'],
  ['amount:desc', 'Largest amount'],
  ['updated:desc', 'Recently updated'],
  ['caseNumber:asc', 'Case ID'],
] as const;

function SortMenu({ filters, set }: { filters: CaseListFilters; set(changes: Changes): void }) {
  const current = `${filters.sortBy}:${filters.sortOrder}`;
  const label = sortChoices.find(([value]) => value === current)?.[1] ?? 'Custom';
  return (
    <Menu
      checkedValues={{ sort: [current] }}
      onCheckedValueChange={(_, data) => {
        const [sortBy, sortOrder] = (data.checkedItems[0] ?? '').split(':');
        const field = caseSortFields.find((candidate) => candidate === sortBy);
        if (field && (sortOrder === 'asc' || sortOrder === 'desc'))
          set({ sortBy: field, sortOrder });
      }}
    >
      <MenuTrigger disableButtonEnhancement>
        <MenuButton icon={<ArrowSortRegular />}>Sort: {label}</MenuButton>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {sortChoices.map(([value, text]) => (
            <MenuItemRadio key={value} name="sort" value={value}>
              {text}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * The search box and the Status, Priority and Type filters (Status only where asked for), and a
 * sort menu for lists shown as cards.
 */
export function CaseFilters({
  filters,
  set,
  withStatus,
  withSort,
}: {
  filters: CaseListFilters;
  set(changes: Changes): void;
  withStatus: boolean;
  withSort: boolean;
}) {
  const styles = useStyles();
  const [search, setSearch] = useState(filters.search);
  const [shown, setShown] = useState(filters.search);
  // The address changed under the box (Back, Clear filters): the box follows it.
  if (filters.search !== shown) {
    setShown(filters.search);
    setSearch(filters.search);
  }
  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => set({ search }), 300);
    return () => clearTimeout(timer);
  }, [search, filters.search, set]);

  return (
    <div className={styles.filters} role="search">
      <SearchBox
        className={styles.search}
        placeholder="Search by case ID, auction, bidder or case type"
        aria-label="Search cases"
        value={search}
        onChange={(_, data) => setSearch(data.value)}
      />
      {withStatus ? (
        <MultiFilter
          label="Status"
          name="status"
          options={caseStatuses}
          selected={filters.statuses}
          labelOf={(status) => status}
          onChange={(statuses) => set({ statuses })}
        />
      ) : null}
      <MultiFilter
        label="Priority"
        name="priority"
        options={casePriorities}
        selected={filters.priorities}
        labelOf={(priority) => priorityLabels[priority]}
        onChange={(priorities) => set({ priorities })}
      />
      <MultiFilter
        label="Type"
        name="type"
        options={caseTypes}
        selected={filters.types}
        labelOf={(type) => caseTypeLabels[type]}
        onChange={(types) => set({ types })}
      />
      {withSort ? <SortMenu filters={filters} set={set} /> : null}
    </div>
  );
}
