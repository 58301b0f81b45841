import {
  auctionSchema,
  auctionSummarySchema,
  listAuctionsResponseSchema,
  performanceSchema,
  type AuctionStatus,
  type AuctionUpdate,
  type auctionInputSchema,
} from '@contracts/auctions/auctions.schema';
import {
  lotImportResultSchema,
  lotSchema,
  lotsResponseSchema,
  type Lot,
  type LotResultInput,
  type lotInputSchema,
} from '@contracts/auctions/lots/lots.schema';
import {
  inviteResultSchema,
  registrationSchema,
  registrationsResponseSchema,
} from '@contracts/auctions/registrations/registrations.schema';
import { listResponseSchema } from '@contracts/bidders/bidders.schema';
import { housesResponseSchema } from '@contracts/identity/accounts/accounts.schema';
import useSWR, { useSWRConfig } from 'swr';
import type { z } from 'zod';
import { apiRequest, authApi, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';
import { uploadForm, type UploadProgress } from '../../../lib/upload';

/** The three tabs of Auction Management, each a slice the server filters. */
export const auctionViews = ['current', 'upcoming', 'past'] as const;
export type AuctionView = (typeof auctionViews)[number];

export interface AuctionListFilters {
  view: AuctionView;
  search: string;
  status: AuctionStatus | '';
  page: number;
}

export const AUCTION_PAGE_SIZE = 25;

/** Soonest first for what is to come, newest first for what is on or past. */
const sortOrderOf = (view: AuctionView) => (view === 'upcoming' ? 'asc' : 'desc');

const listKey = (filters: AuctionListFilters) => {
  const params = new URLSearchParams({
    view: filters.view,
    page: String(filters.page),
    limit: String(AUCTION_PAGE_SIZE),
    sortBy: 'startsAt',
    sortOrder: sortOrderOf(filters.view),
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.status) params.set('status', filters.status);
  return domainApi(`/listAuctions?${params}`);
};
const summaryKey = domainApi('/auctions/summary');
const auctionPath = (id: string) => `/auctions/${encodeURIComponent(id)}`;
const auctionKey = (id: string) => domainApi(auctionPath(id));
const performanceKey = (id: string) => domainApi(`${auctionPath(id)}/performance`);
const lotsKey = (id: string) => domainApi(`${auctionPath(id)}/lots`);
const lotKey = (auctionId: string, lotId: string) =>
  domainApi(`${auctionPath(auctionId)}/lots/${encodeURIComponent(lotId)}`);
const registrationsKey = (id: string) => domainApi(`${auctionPath(id)}/bidders`);
const bidderPath = (auctionId: string, bidderId: string) =>
  domainApi(`${auctionPath(auctionId)}/bidders/${encodeURIComponent(bidderId)}`);
const housesKey = authApi('/accounts/current/auction-houses');

export const useAuctionList = (filters: AuctionListFilters) =>
  useSWR(listKey(filters), fetchWith(listAuctionsResponseSchema), { keepPreviousData: true });
export const useAuctionSummary = () => useSWR(summaryKey, fetchWith(auctionSummarySchema));
export const useAuction = (id: string | null) =>
  useSWR(id ? auctionKey(id) : null, fetchWith(auctionSchema));
export const usePerformance = (id: string | null) =>
  useSWR(id ? performanceKey(id) : null, fetchWith(performanceSchema));
export const useLots = (id: string | null) =>
  useSWR(id ? lotsKey(id) : null, fetchWith(lotsResponseSchema));
export const useRegistrations = (id: string | null) =>
  useSWR(id ? registrationsKey(id) : null, fetchWith(registrationsResponseSchema));
/** The account's auction houses, from the auth service as the settings screens read them. */
export const useHouses = () => useSWR(housesKey, fetchWith(housesResponseSchema));

/** Bidders whose name, bidder ID or email matches, for choosing whom to register or invite. */
export const useBidderSearch = (search: string) => {
  const params = new URLSearchParams({ limit: '20', sort: 'desc' });
  if (search.trim()) params.set('search', search.trim());
  return useSWR(domainApi(`/listBidders?${params}`), fetchWith(listResponseSchema), {
    keepPreviousData: true,
  });
};

export type AuctionBody = z.input<typeof auctionInputSchema>;
export type LotBody = z.input<typeof lotInputSchema>;

const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

/** Everything that changes auctions, their lots and registrations, refreshing what shows them. */
export function useAuctionActions() {
  const { mutate } = useSWRConfig();
  const refreshLists = () =>
    mutate(
      (key) =>
        typeof key === 'string' &&
        (key.startsWith(domainApi('/listAuctions')) || key === summaryKey),
    );
  /** The auction, its figures and the lists: what any change to it may move. */
  const refreshAuction = (id: string) =>
    Promise.all([mutate(auctionKey(id)), mutate(performanceKey(id)), refreshLists()]);
  const refreshLots = (id: string) => Promise.all([mutate(lotsKey(id)), refreshAuction(id)]);
  const refreshRegistrations = (id: string) =>
    Promise.all([mutate(registrationsKey(id)), refreshAuction(id)]);

  const lifecycle = async (id: string, move: string, body?: unknown) => {
    const auction = await apiRequest(domainApi(`${auctionPath(id)}/${move}`), {
      method: 'POST',
      ...(body === undefined ? {} : { body }),
      schema: auctionSchema,
    });
    await mutate(auctionKey(id), auction, { revalidate: false });
    await Promise.all([mutate(performanceKey(id)), refreshLists()]);
    return auction;
  };

  return {
    /** The lots, the auction and its figures read again (after an import processed elsewhere). */
    refreshLots,
    fetch: (id: string) => apiRequest(auctionKey(id), { schema: auctionSchema }),
    create: async (body: AuctionBody) => {
      const created = await apiRequest(domainApi('/auctions'), {
        method: 'POST',
        body,
        schema: auctionSchema,
      });
      await mutate(auctionKey(created.id), created, { revalidate: false });
      await refreshLists();
      return created;
    },
    update: async (auction: { id: string; etag: string }, changes: AuctionUpdate) => {
      const saved = await apiRequest(auctionKey(auction.id), {
        method: 'PUT',
        body: changes,
        headers: ifMatch(auction.etag),
        schema: auctionSchema,
      });
      await mutate(auctionKey(saved.id), saved, { revalidate: false });
      await Promise.all([mutate(performanceKey(saved.id)), refreshLists()]);
      return saved;
    },
    remove: async (id: string) => {
      await apiRequest(auctionKey(id), { method: 'DELETE' });
      await mutate(auctionKey(id), undefined, { revalidate: false });
      await refreshLists();
    },
    publish: (id: string) => lifecycle(id, 'publish'),
    goLive: (id: string) => lifecycle(id, 'go-live'),
    close: (id: string) => lifecycle(id, 'close'),
    cancel: (id: string, reason: string) => lifecycle(id, 'cancel', { reason }),

    addLot: async (auctionId: string, body: LotBody) => {
      const lot = await apiRequest(lotsKey(auctionId), {
        method: 'POST',
        body,
        schema: lotSchema,
      });
      await refreshLots(auctionId);
      return lot;
    },
    updateLot: async (auctionId: string, lot: Pick<Lot, 'id' | 'etag'>, changes: object) => {
      const saved = await apiRequest(lotKey(auctionId, lot.id), {
        method: 'PUT',
        body: changes,
        headers: ifMatch(lot.etag),
        schema: lotSchema,
      });
      await refreshLots(auctionId);
      return saved;
    },
    removeLot: async (auctionId: string, lotId: string) => {
      await apiRequest(lotKey(auctionId, lotId), { method: 'DELETE' });
      await refreshLots(auctionId);
    },
    /** Shows the new order at once, then keeps the server's answer (or puts the old one back). */
    reorderLots: async (auctionId: string, ordered: Lot[]) => {
      const key = lotsKey(auctionId);
      await mutate(
        key,
        async () =>
          apiRequest(domainApi(`${auctionPath(auctionId)}/lots-order`), {
            method: 'PUT',
            body: { lotIds: ordered.map((lot) => lot.id) },
            schema: lotsResponseSchema,
          }),
        {
          optimisticData: { lots: ordered.map((lot, index) => ({ ...lot, position: index + 1 })) },
          rollbackOnError: true,
          revalidate: false,
        },
      );
    },
    importLots: async (auctionId: string, file: File, onProgress: UploadProgress) => {
      const form = new FormData();
      form.set('file', file, file.name);
      const result = lotImportResultSchema.parse(
        await uploadForm(domainApi(`${auctionPath(auctionId)}/lots/import`), form, onProgress),
      );
      await refreshLots(auctionId);
      return result;
    },
    recordResult: async (auctionId: string, lotId: string, result: LotResultInput) => {
      const saved = await apiRequest(`${lotKey(auctionId, lotId)}/result`, {
        method: 'PUT',
        body: result,
        schema: lotSchema,
      });
      // The row shows the answer at once; the figures follow.
      await mutate(
        lotsKey(auctionId),
        (current: z.infer<typeof lotsResponseSchema> | undefined) =>
          current && {
            lots: current.lots.map((candidate) => (candidate.id === saved.id ? saved : candidate)),
          },
        { revalidate: false },
      );
      await Promise.all([mutate(performanceKey(auctionId)), mutate(auctionKey(auctionId))]);
      return saved;
    },

    register: async (auctionId: string, bidderId: string, paddle?: string) => {
      const registration = await apiRequest(domainApi(`${auctionPath(auctionId)}/register`), {
        method: 'POST',
        body: { bidderId, ...(paddle ? { paddle } : {}) },
        schema: registrationSchema,
      });
      await refreshRegistrations(auctionId);
      return registration;
    },
    unregister: async (auctionId: string, bidderId: string) => {
      await apiRequest(bidderPath(auctionId, bidderId), { method: 'DELETE' });
      await refreshRegistrations(auctionId);
    },
    decide: async (
      auctionId: string,
      bidderId: string,
      body: { decision: 'approve' | 'deny'; reason: string; bidLimit?: number | null },
    ) => {
      const registration = await apiRequest(`${bidderPath(auctionId, bidderId)}/decision`, {
        method: 'POST',
        body,
        schema: registrationSchema,
      });
      await refreshRegistrations(auctionId);
      return registration;
    },
    setBidLimit: async (
      auctionId: string,
      bidderId: string,
      body: { bidLimit: number | null; reason: string },
    ) => {
      const registration = await apiRequest(`${bidderPath(auctionId, bidderId)}/bid-limit`, {
        method: 'PUT',
        body,
        schema: registrationSchema,
      });
      await refreshRegistrations(auctionId);
      return registration;
    },
    invite: async (auctionId: string, bidderIds: string[], message?: string) => {
      const result = await apiRequest(domainApi(`${auctionPath(auctionId)}/invite-bidders`), {
        method: 'POST',
        body: { bidderIds, ...(message?.trim() ? { message } : {}) },
        schema: inviteResultSchema,
      });
      await refreshRegistrations(auctionId);
      return result;
    },
  };
}
