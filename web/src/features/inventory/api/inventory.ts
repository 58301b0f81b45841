import { listAuctionsResponseSchema } from '@contracts/auctions/auctions.schema';
import {
  INVENTORY_PAGE_DEFAULT,
  PHOTO_FIELD,
  descriptionDraftSchema,
  groupLotSchema,
  itemSchema,
  listItemsResponseSchema,
  lotGroupsResponseSchema,
  marketTrendsResponseSchema,
  overviewSchema,
  recomputeResponseSchema,
  similarResponseSchema,
  suggestionsResponseSchema,
  type AddGroupToAuction,
  type AddToAuction,
  type descriptionDraftInputSchema,
  type InventoryCategory,
  type InventoryItem,
  type InventoryStatus,
  type ItemUpdate,
  type itemInputSchema,
  type ListItemsResponse,
  type StatusMove,
} from '@contracts/inventory/inventory.schema';
import { inventorySettingsSchema } from '@contracts/settings/settings.schema';
import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import {
  ApiError,
  apiRequest,
  domainApi,
  endSession,
  errorFrom,
  refreshAccessToken,
} from '../../../lib/api-client';
import { tokens } from '../../../lib/auth-store';
import { fetchWith } from '../../../lib/swr';
import { uploadForm } from '../../../lib/upload';

/** A new item as the form sends it: the service fills in what is left out. */
export type ItemBody = z.input<typeof itemInputSchema>;

/** What All Items shows: the address's search and filters. */
export interface ItemFilters {
  search: string;
  status: InventoryStatus | null;
  category: InventoryCategory | null;
}

const base = '/inventory';
const overviewKey = domainApi(`${base}/overview`);
const suggestionsKey = domainApi(`${base}/suggestions`);
const itemKey = (id: string) => domainApi(`${base}/items/${encodeURIComponent(id)}`);
const photoKey = (itemId: string, photoId: string) =>
  `${itemKey(itemId)}/photos/${encodeURIComponent(photoId)}`;
const settingsKey = domainApi('/settings/inventory');
/** Draft and Upcoming auctions, soonest first: where an item may go as a lot. */
const openAuctionsKey = domainApi(
  `/listAuctions?${new URLSearchParams({ view: 'upcoming', limit: '200', sortBy: 'startsAt', sortOrder: 'asc' })}`,
);
const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

/** The query of GET /inventory/items for one page of these filters. */
export function listQuery(filters: ItemFilters, continuation: string | null): URLSearchParams {
  const query = new URLSearchParams({ limit: String(INVENTORY_PAGE_DEFAULT) });
  if (filters.search.trim()) query.set('search', filters.search.trim());
  if (filters.status) query.set('status', filters.status);
  if (filters.category) query.set('category', filters.category);
  if (continuation) query.set('continuation', continuation);
  return query;
}

export const useInventoryOverview = () => useSWR(overviewKey, fetchWith(overviewSchema));
export const useSuggestions = () => useSWR(suggestionsKey, fetchWith(suggestionsResponseSchema));
/** One item with its history; none while `id` is null. */
export const useItem = (id: string | null) =>
  useSWR(id ? itemKey(id) : null, fetchWith(itemSchema));
/** Items and sold lots like the item (`enabled` false when the account does not suggest them). */
export const useSimilarItems = (id: string) =>
  useSWR(`${itemKey(id)}/similar`, fetchWith(similarResponseSchema));
/** The house's results by category and month (`enabled` false when the analysis is off). */
export const useMarketTrends = () =>
  useSWR(domainApi(`${base}/market-trends`), fetchWith(marketTrendsResponseSchema));
/** The account's inventory settings (auto-categorise, photo rule, default location). */
export const useInventorySettings = () => useSWR(settingsKey, fetchWith(inventorySettingsSchema));
/** The auctions an item may be added to; read only while asked for. */
export const useOpenAuctions = (open: boolean) =>
  useSWR(open ? openAuctionsKey : null, fetchWith(listAuctionsResponseSchema));

/**
 * Lists shown now, told when an item changes. A global mutate skips useSWRInfinite's keys, and
 * only the list's own mutate refetches every page it has loaded.
 */
const listListeners = new Set<() => void>();

/** All Items, a page at a time: each page asks from where the last one ended. */
export function useItemPages(filters: ItemFilters) {
  const pages = useSWRInfinite<ListItemsResponse>((index, previous: ListItemsResponse | null) => {
    if (index > 0 && !previous?.continuation) return null;
    return domainApi(`${base}/items?${listQuery(filters, previous?.continuation ?? null)}`);
  }, fetchWith(listItemsResponseSchema));
  const { mutate } = pages;
  useEffect(() => {
    const listener = () => void mutate();
    listListeners.add(listener);
    return () => {
      listListeners.delete(listener);
    };
  }, [mutate]);
  return pages;
}

async function getPhoto(url: string, accessToken: string | null): Promise<Response> {
  try {
    return await fetch(url, {
      headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new ApiError('The photo could not be loaded', 0, 'network');
  }
}

/**
 * A photo's bytes: only the account's signed-in people may read them, so an <img> cannot fetch
 * the address itself. Same token handling as every other call.
 */
async function fetchPhoto(itemId: string, photoId: string): Promise<Blob> {
  const url = photoKey(itemId, photoId);
  let response = await getPhoto(url, tokens.access());
  if (response.status === 401 && tokens.refresh()) {
    try {
      response = await getPhoto(url, await refreshAccessToken());
    } catch (refusal) {
      if (!(refusal instanceof ApiError && refusal.status === 401)) throw refusal;
      endSession('Your session has ended. Sign in again.');
      throw await errorFrom(response);
    }
  }
  if (!response.ok) throw await errorFrom(response);
  return response.blob();
}

/**
 * Photos as addresses an <img> can show, each read once: a photo never changes under its id, so
 * its address lives until the photo is removed.
 */
const photoUrls = new Map<string, Promise<string>>();

export function photoUrl(itemId: string, photoId: string): Promise<string> {
  const key = photoKey(itemId, photoId);
  let found = photoUrls.get(key);
  if (!found) {
    found = fetchPhoto(itemId, photoId).then((blob) => URL.createObjectURL(blob));
    // A failed read is tried again next time rather than remembered.
    found.catch(() => photoUrls.delete(key));
    photoUrls.set(key, found);
  }
  return found;
}

function forgetPhoto(itemId: string, photoId: string): void {
  const key = photoKey(itemId, photoId);
  void photoUrls.get(key)?.then((url) => URL.revokeObjectURL(url));
  photoUrls.delete(key);
}

/**
 * Creating, changing and moving items. Each keeps every inventory view in step (the lists, the
 * overview's tiles, the suggestions) and answers with the item as saved.
 */
export function useInventoryActions() {
  const { mutate } = useSWRConfig();
  /** Revalidates every inventory view but the one item, which is set to what was saved. */
  const refresh = async (saved?: InventoryItem, gone?: string) => {
    if (saved) await mutate(itemKey(saved.id), saved, { revalidate: false });
    if (gone) await mutate(itemKey(gone), undefined, { revalidate: false });
    const single = saved ? itemKey(saved.id) : gone ? itemKey(gone) : null;
    await mutate(
      (key) => typeof key === 'string' && key.startsWith(domainApi(`${base}/`)) && key !== single,
    );
    listListeners.forEach((listener) => listener());
  };
  const saved = async (work: Promise<InventoryItem>) => {
    const item = await work;
    await refresh(item);
    return item;
  };
  return {
    refresh,
    /** After a 412: the item as someone else saved it. */
    reload: (id: string) => mutate(itemKey(id)),
    create: (body: ItemBody) =>
      saved(apiRequest(domainApi(`${base}/items`), { method: 'POST', body, schema: itemSchema })),
    /** Changes the fields sent, over the version the form read (412 when someone saved since). */
    update: (item: Pick<InventoryItem, 'id' | 'etag'>, changes: ItemUpdate) =>
      saved(
        apiRequest(itemKey(item.id), {
          method: 'PATCH',
          body: changes,
          headers: ifMatch(item.etag),
          schema: itemSchema,
        }),
      ),
    moveStatus: (item: Pick<InventoryItem, 'id' | 'etag'>, move: StatusMove) =>
      saved(
        apiRequest(`${itemKey(item.id)}/status`, {
          method: 'POST',
          body: move,
          headers: ifMatch(item.etag),
          schema: itemSchema,
        }),
      ),
    /** Refused (409, with the reason) while the item is In Auction. */
    remove: async (item: Pick<InventoryItem, 'id' | 'etag'>) => {
      await apiRequest(itemKey(item.id), { method: 'DELETE', headers: ifMatch(item.etag) });
      await refresh(undefined, item.id);
    },
    /** Makes the item a lot of a Draft or Upcoming auction; it becomes In Auction. */
    addToAuction: async (item: Pick<InventoryItem, 'id' | 'etag'>, body: AddToAuction) => {
      const moved = await saved(
        apiRequest(`${itemKey(item.id)}/auction`, {
          method: 'POST',
          body,
          headers: ifMatch(item.etag),
          schema: itemSchema,
        }),
      );
      // The auction's lot count changed.
      await mutate((key) => typeof key === 'string' && key.includes('/listAuctions'));
      return moved;
    },
    removeFromAuction: async (item: Pick<InventoryItem, 'id' | 'etag'>) => {
      const moved = await saved(
        apiRequest(`${itemKey(item.id)}/auction`, {
          method: 'DELETE',
          headers: ifMatch(item.etag),
          schema: itemSchema,
        }),
      );
      await mutate((key) => typeof key === 'string' && key.includes('/listAuctions'));
      return moved;
    },
    uploadPhoto: async (itemId: string, file: File, onProgress: (sent: number) => void) => {
      const form = new FormData();
      form.append(PHOTO_FIELD, file);
      return saved(
        uploadForm<unknown>(`${itemKey(itemId)}/photos`, form, onProgress).then((json) =>
          itemSchema.parse(json),
        ),
      );
    },
    removePhoto: async (itemId: string, photoId: string) => {
      const item = await saved(
        apiRequest(photoKey(itemId, photoId), { method: 'DELETE', schema: itemSchema }),
      );
      forgetPhoto(itemId, photoId);
      return item;
    },
    /** Sync Inventory: rescores every item from the house's latest results. */
    recompute: async () => {
      const result = await apiRequest(domainApi(`${base}/suggestions/recompute`), {
        method: 'POST',
        schema: recomputeResponseSchema,
      });
      await refresh();
      return result;
    },
  };
}

/** The form's fields a description is drafted from (the service fills in what is left out). */
export type DescriptionDraftBody = z.input<typeof descriptionDraftInputSchema>;

/** A catalogue description drafted from the item's fields; nothing is saved (409 when off). */
export const draftDescription = (body: DescriptionDraftBody) =>
  apiRequest(domainApi(`${base}/description-draft`), {
    method: 'POST',
    body,
    schema: descriptionDraftSchema,
  });

/** Items worth selling together as one lot (`enabled` false while the setting is off). */
export const useLotGroups = () =>
  useSWR(domainApi(`${base}/lot-groups`), fetchWith(lotGroupsResponseSchema));

/** Adds a group of items to an auction as ONE lot; every inventory view follows. */
export function useAddGroupToAuction() {
  const { mutate } = useSWRConfig();
  const { refresh } = useInventoryActions();
  return async (body: AddGroupToAuction) => {
    const made = await apiRequest(domainApi(`${base}/lot-groups/add-to-auction`), {
      method: 'POST',
      body,
      schema: groupLotSchema,
    });
    await Promise.all(
      made.items.map((item) => mutate(itemKey(item.id), item, { revalidate: false })),
    );
    await refresh();
    // The auction's lot count changed.
    await mutate((key) => typeof key === 'string' && key.includes('/listAuctions'));
    return made;
  };
}
