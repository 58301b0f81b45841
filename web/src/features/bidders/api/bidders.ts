import {
  analyticsSchema,
  bidderSchema,
  bidderWriteSchema,
  bulkInviteResultSchema,
  duplicatesResponseSchema,
  historyResponseSchema,
  scoreHistoryResponseSchema,
  listResponseSchema,
  notesResponseSchema,
  noteSchema,
  scanResultSchema,
  type ScoreType,
} from '@contracts/bidders/bidders.schema';
import { listCasesResponseSchema } from '@contracts/legal/legal.schema';
import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

export interface ListFilters {
  scoreType: ScoreType;
  search: string;
  status: string;
  range: '' | 'high' | 'medium' | 'low';
  autoInvite: string;
  sort: 'desc' | 'asc';
}

export const PAGE_SIZE = 50;

/** The score range filter of the spec: high 80 or more, medium 60 to 79, low below 60. */
const ranges = {
  high: { minScore: 80 },
  medium: { minScore: 60, maxScore: 79 },
  low: { maxScore: 59 },
} as const;

function listQuery(filters: ListFilters, continuationToken?: string) {
  const params = new URLSearchParams({
    scoreType: filters.scoreType,
    sort: filters.sort,
    limit: String(PAGE_SIZE),
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.status) params.set('status', filters.status);
  if (filters.autoInvite) params.set('autoInvite', filters.autoInvite);
  if (filters.range) {
    for (const [name, value] of Object.entries(ranges[filters.range]))
      params.set(name, String(value));
  }
  if (continuationToken) params.set('continuationToken', continuationToken);
  return domainApi(`/listBidders?${params}`);
}

type ListPage = z.infer<typeof listResponseSchema>;

/** The lists open on screen; global mutate does not reach useSWRInfinite's keys. */
const listChanged = new Set<() => void>();

/** Pages of the bidder list, fetched as the table scrolls; the server sorts and filters. */
export function useBidderList(filters: ListFilters) {
  const list = useSWRInfinite<ListPage>(
    (index, previous: ListPage | null) => {
      if (index === 0) return listQuery(filters);
      return previous?.continuationToken ? listQuery(filters, previous.continuationToken) : null;
    },
    fetchWith(listResponseSchema),
    { revalidateFirstPage: false, keepPreviousData: true },
  );
  const { mutate } = list;
  useEffect(() => {
    const listener = () => void mutate();
    listChanged.add(listener);
    return () => {
      listChanged.delete(listener);
    };
  }, [mutate]);
  return list;
}

const bidderKey = (id: string) => domainApi(`/bidders/${encodeURIComponent(id)}`);
const historyKey = (id: string) => domainApi(`/bidders/${encodeURIComponent(id)}/history`);
const scoreHistoryKey = (id: string) =>
  domainApi(`/bidders/${encodeURIComponent(id)}/score-history`);
const notesKey = (id: string) => domainApi(`/bidders/${encodeURIComponent(id)}/notes`);
const duplicatesKey = domainApi('/duplicates?status=pending');
const analyticsKey = (scoreType: ScoreType) =>
  domainApi(`/bidders/analytics?scoreType=${scoreType}`);

export const useBidder = (id: string | null) =>
  useSWR(id ? bidderKey(id) : null, fetchWith(bidderSchema));
export const useBidderHistory = (id: string | null, enabled: boolean) =>
  useSWR(id && enabled ? historyKey(id) : null, fetchWith(historyResponseSchema));
export const useScoreHistory = (id: string | null) =>
  useSWR(id ? scoreHistoryKey(id) : null, fetchWith(scoreHistoryResponseSchema));
/** The legal cases that name the bidder, newest first (the profile's Legal Cases tab). */
export const useBidderCases = (id: string | null, enabled: boolean) =>
  useSWR(
    id && enabled
      ? domainApi(`/listLegalCases?bidderId=${encodeURIComponent(id)}&limit=100`)
      : null,
    fetchWith(listCasesResponseSchema),
  );
export const useBidderNotes = (id: string | null) =>
  useSWR(id ? notesKey(id) : null, fetchWith(notesResponseSchema));
export const useDuplicates = () => useSWR(duplicatesKey, fetchWith(duplicatesResponseSchema));
export const useAnalytics = (scoreType: ScoreType) =>
  useSWR(analyticsKey(scoreType), fetchWith(analyticsSchema));

export type BidderInputBody = {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  address: { street: string; city: string; state: string; zip: string; country: string };
  preferredCategories: string[];
  preferredPaymentMethod: string;
  initialNote?: string;
};

/** Everything that changes bidders, refreshing whatever shows them. */
export function useBidderActions() {
  const { mutate } = useSWRConfig();
  const refreshLists = async () => {
    listChanged.forEach((listener) => listener());
    await mutate(
      (key) =>
        typeof key === 'string' &&
        (key.startsWith(domainApi('/bidders/analytics')) ||
          key.startsWith(domainApi('/duplicates'))),
    );
  };
  const refreshBidder = (id: string) =>
    Promise.all([mutate(bidderKey(id)), mutate(notesKey(id)), mutate(historyKey(id))]);
  return {
    refreshLists,
    fetch: (id: string) => apiRequest(bidderKey(id), { schema: bidderSchema }),
    create: async (body: BidderInputBody) => {
      const created = await apiRequest(domainApi('/bidders'), {
        method: 'POST',
        body,
        schema: bidderWriteSchema,
      });
      await refreshLists();
      return created;
    },
    update: async (bidder: { id: string; etag: string }, changes: Record<string, unknown>) => {
      const saved = await apiRequest(bidderKey(bidder.id), {
        method: 'PUT',
        body: changes,
        headers: { 'if-match': `"${bidder.etag}"` },
        schema: bidderWriteSchema,
      });
      // Merged into another bidder, this one is gone: the survivor is what the answer holds.
      await mutate(bidderKey(saved.id), saved, { revalidate: false });
      if (saved.id !== bidder.id)
        await mutate(bidderKey(bidder.id), undefined, { revalidate: false });
      await refreshLists();
      return saved;
    },
    remove: async (id: string) => {
      await apiRequest(bidderKey(id), { method: 'DELETE' });
      await refreshLists();
    },
    addNote: async (id: string, body: { category: string; note: string }) => {
      await apiRequest(notesKey(id), {
        method: 'POST',
        body: { ...body, isPrivate: true },
        schema: noteSchema,
      });
      await mutate(notesKey(id));
    },
    invite: async (bidderIds: string[], message?: string) => {
      const result = await apiRequest(domainApi('/bulk-invite'), {
        method: 'POST',
        body: { bidderIds, ...(message ? { message } : {}) },
        schema: bulkInviteResultSchema,
      });
      await Promise.all(bidderIds.map(refreshBidder));
      return result;
    },
    /** Merges the two versions the dialog showed (their ETags); a changed one answers 412. */
    merge: async (
      pairId: string,
      body: {
        primaryId: string;
        secondaryId: string;
        primaryEtag: string;
        secondaryEtag: string;
        resolved: Record<string, string>;
      },
    ) => {
      const merged = await apiRequest(
        domainApi(`/duplicates/${encodeURIComponent(pairId)}/merge`),
        {
          method: 'POST',
          body,
          schema: bidderSchema,
        },
      );
      await refreshLists();
      return merged;
    },
    scan: async () => {
      const result = await apiRequest(domainApi('/duplicates/scan'), {
        method: 'POST',
        // A whole account is compared, which takes a while for a large one.
        timeoutMs: 120_000,
        schema: scanResultSchema,
      });
      await refreshLists();
      return result;
    },
    dismiss: async (pairId: string) => {
      await apiRequest(domainApi(`/duplicates/${encodeURIComponent(pairId)}/dismiss`), {
        method: 'POST',
      });
      await refreshLists();
    },
  };
}
