import {
  casePriorities,
  caseSortFields,
  caseStatuses,
  caseTypes,
  type CasePriority,
  type CaseStatus,
  type CaseType,
} from '@contracts/legal/legal.schema';

export type CaseSortField = (typeof caseSortFields)[number];
export type SortOrder = 'asc' | 'desc';

/** What the case lists show: the address's search, filters, sort and page. */
export interface CaseListFilters {
  search: string;
  statuses: CaseStatus[];
  priorities: CasePriority[];
  types: CaseType[];
  sortBy: CaseSortField;
  sortOrder: SortOrder;
  page: number;
}

export const CASE_PAGE_SIZE = 25;

/** Newest first, as the spec sorts by default. */
export const DEFAULT_SORT = { sortBy: 'date', sortOrder: 'desc' } as const;

/** The address's names for the filters, short enough to share. */
export const paramNames = {
  search: 'q',
  statuses: 'status',
  priorities: 'priority',
  types: 'type',
  sortBy: 'sort',
  sortOrder: 'order',
  page: 'page',
} as const;

/** The known values of a comma-separated parameter, each once, in the catalogue's order. */
function several<T extends string>(value: string | null, known: readonly T[]): T[] {
  const given = new Set((value ?? '').split(',').map((item) => item.trim()));
  return known.filter((candidate) => given.has(candidate));
}

/** The filters an address asks for; anything unknown falls back to the default. */
export function filtersFrom(params: URLSearchParams): CaseListFilters {
  const sortBy = caseSortFields.find((field) => field === params.get(paramNames.sortBy));
  const order = params.get(paramNames.sortOrder);
  const page = Number.parseInt(params.get(paramNames.page) ?? '', 10);
  return {
    search: params.get(paramNames.search) ?? '',
    statuses: several(params.get(paramNames.statuses), caseStatuses),
    priorities: several(params.get(paramNames.priorities), casePriorities),
    types: several(params.get(paramNames.types), caseTypes),
    sortBy: sortBy ?? DEFAULT_SORT.sortBy,
    sortOrder: order === 'asc' || order === 'desc' ? order : DEFAULT_SORT.sortOrder,
    page: Number.isSafeInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * The query of GET /listLegalCases for these filters. The Active Cases tab asks for `state=active`
 * and has no status filter.
 */
export function listQuery(filters: CaseListFilters, state?: 'active'): URLSearchParams {
  const query = new URLSearchParams({
    page: String(filters.page),
    limit: String(CASE_PAGE_SIZE),
    sortBy: filters.sortBy,
    sortOrder: filters.sortOrder,
  });
  if (filters.search.trim()) query.set('search', filters.search.trim());
  if (state) query.set('state', state);
  else if (filters.statuses.length) query.set('status', filters.statuses.join(','));
  if (filters.priorities.length) query.set('priority', filters.priorities.join(','));
  if (filters.types.length) query.set('type', filters.types.join(','));
  return query;
}

/**
 * The sort after a click on a column's header: the other way round on the sorted column, else
 * that column with the order people expect first (case numbers from the lowest, the rest from the
 * newest, highest or largest).
 */
export function nextSort(
  current: Pick<CaseListFilters, 'sortBy' | 'sortOrder'>,
  field: CaseSortField,
): { sortBy: CaseSortField; sortOrder: SortOrder } {
  if (current.sortBy === field) {
    return { sortBy: field, sortOrder: current.sortOrder === 'asc' ? 'desc' : 'asc' };
  }
  return { sortBy: field, sortOrder: field === 'caseNumber' ? 'asc' : 'desc' };
}

/** The last page, given the total the server counted. */
export const pageCount = (total: number) => Math.max(1, Math.ceil(total / CASE_PAGE_SIZE));
