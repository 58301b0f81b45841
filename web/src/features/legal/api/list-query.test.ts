import { describe, expect, it } from 'vitest';
import { filtersFrom, listQuery, nextSort, pageCount } from './list-query';

describe('filtersFrom', () => {
  it('reads the filters, sort and page of an address', () => {
    const filters = filtersFrom(
      new URLSearchParams(
        'q=LC-2026&status=PENDING,IN REVIEW&priority=critical,low&type=title_dispute&sort=amount&order=asc&page=3',
      ),
    );
    expect(filters).toEqual({
      search: 'LC-2026',
      statuses: ['PENDING', 'IN REVIEW'],
      priorities: ['critical', 'low'],
      types: ['title_dispute'],
      sortBy: 'amount',
      sortOrder: 'asc',
      page: 3,
    });
  });

  it('falls back to newest first on page 1 and drops values it does not know', () => {
    expect(
      filtersFrom(new URLSearchParams('status=OPEN,CLOSED&sort=colour&order=up&page=-2')),
    ).toEqual({
      search: '',
      statuses: ['CLOSED'],
      priorities: [],
      types: [],
      sortBy: 'date',
      sortOrder: 'desc',
      page: 1,
    });
  });
});

describe('listQuery', () => {
  const filters = filtersFrom(new URLSearchParams('q= jones &status=SETTLED&priority=high,medium'));

  it('sends the filters comma-separated, with the page size', () => {
    expect(Object.fromEntries(listQuery(filters))).toEqual({
      page: '1',
      limit: '25',
      sortBy: 'date',
      sortOrder: 'desc',
      search: 'jones',
      status: 'SETTLED',
      priority: 'high,medium',
    });
  });

  it('asks the Active Cases tab for active cases instead of statuses', () => {
    const query = listQuery(filters, 'active');
    expect(query.get('state')).toBe('active');
    expect(query.has('status')).toBe(false);
  });
});

describe('nextSort', () => {
  it('turns the sorted column round', () => {
    expect(nextSort({ sortBy: 'date', sortOrder: 'desc' }, 'date')).toEqual({
      sortBy: 'date',
      sortOrder: 'asc',
    });
    expect(nextSort({ sortBy: 'amount', sortOrder: 'asc' }, 'amount')).toEqual({
      sortBy: 'amount',
      sortOrder: 'desc',
    });
  });

  it('starts another column at the end people look for first', () => {
    expect(nextSort({ sortBy: 'date', sortOrder: 'desc' }, 'priority').sortOrder).toBe('desc');
    expect(nextSort({ sortBy: 'date', sortOrder: 'desc' }, 'caseNumber').sortOrder).toBe('asc');
  });
});

describe('pageCount', () => {
  it('counts at least one page', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
  });
});
