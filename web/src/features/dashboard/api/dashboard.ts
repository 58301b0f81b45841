import { listAuctionsResponseSchema } from '@contracts/auctions/auctions.schema';
import { listResponseSchema } from '@contracts/bidders/bidders.schema';
import { listCasesResponseSchema } from '@contracts/legal/legal.schema';
import useSWR from 'swr';
import { domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

/** Spec 9: "Dashboard lists show 3 items"; each list asks the server for only those. */
export const DASHBOARD_LIST_SIZE = 3;

/** Today on the reader's calendar (`2026-05-12`). */
function today(now = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/**
 * The auctions that started most recently: live, then just finished. Without `endDate` the
 * newest start dates are next season's drafts and cancelled plans, which are not "recent".
 */
export const recentAuctionsKey = (day = today()) =>
  domainApi(
    `/listAuctions?${new URLSearchParams({
      sortBy: 'startsAt',
      sortOrder: 'desc',
      endDate: day,
      limit: String(DASHBOARD_LIST_SIZE),
    })}`,
  );

export const topBiddersKey = domainApi(
  `/listBidders?${new URLSearchParams({
    scoreType: 'lotwise',
    sort: 'desc',
    limit: String(DASHBOARD_LIST_SIZE),
  })}`,
);

/** Open cases, newest filed first (the list's default order). */
export const activeCasesKey = domainApi(
  `/listLegalCases?${new URLSearchParams({ state: 'active', limit: String(DASHBOARD_LIST_SIZE) })}`,
);

export const useRecentAuctions = () =>
  useSWR(recentAuctionsKey(), fetchWith(listAuctionsResponseSchema));

export const useTopBidders = () => useSWR(topBiddersKey, fetchWith(listResponseSchema));

export const useActiveCases = () => useSWR(activeCasesKey, fetchWith(listCasesResponseSchema));
