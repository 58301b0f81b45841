import { listAuctionsQuerySchema } from '@contracts/auctions/auctions.schema';
import { listQuerySchema } from '@contracts/bidders/bidders.schema';
import { listCasesQuerySchema } from '@contracts/legal/legal.schema';
import { describe, expect, it } from 'vitest';
import { activeCasesKey, recentAuctionsKey, topBiddersKey } from './dashboard';

/** The query of a key, as the route's zod contract reads it. */
const queryOf = (key: string) => Object.fromEntries(new URL(key).searchParams);

describe('the dashboard’s lists', () => {
  it('ask for the 3 auctions that started most recently, up to today', () => {
    expect(listAuctionsQuerySchema.parse(queryOf(recentAuctionsKey('2026-05-12')))).toMatchObject({
      sortBy: 'startsAt',
      sortOrder: 'desc',
      endDate: '2026-05-12',
      limit: 3,
      page: 1,
    });
  });

  it('ask for the 3 bidders with the highest Lotwise Score', () => {
    expect(listQuerySchema.parse(queryOf(topBiddersKey))).toMatchObject({
      scoreType: 'lotwise',
      sort: 'desc',
      limit: 3,
    });
  });

  it('ask for the 3 newest active legal cases', () => {
    expect(listCasesQuerySchema.parse(queryOf(activeCasesKey))).toMatchObject({
      state: 'active',
      limit: 3,
      sortBy: 'date',
      sortOrder: 'desc',
    });
  });
});
