import {
  platformAuctionListSchema,
  platformBidderListSchema,
  platformConnectionSchema,
  platformListSchema,
  syncChangeSchema,
  syncRunListSchema,
  syncRunSchema,
  syncSettingsViewSchema,
  type Platform,
  type SyncDirection,
  type SyncSettings,
} from '@contracts/integrations/integrations.schema';
import { z } from 'zod';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

/** Bidding-platform connections, Settings › Sync, sync runs and platform imports. */

const platformsKey = domainApi('/platforms');
const syncSettingsKey = domainApi('/settings/sync');
const segment = (platform: Platform) => encodeURIComponent(platform);
const logsKey = (platform: Platform) => domainApi(`/platforms/${segment(platform)}/logs?limit=20`);
const historyKey = (auctionId: string) =>
  domainApi(`/auctions/${encodeURIComponent(auctionId)}/sync-history?limit=20`);

/** While a platform syncs its card follows the run; otherwise the list is read once. */
export const usePlatforms = () =>
  useSWR(platformsKey, fetchWith(platformListSchema), {
    refreshInterval: (data) =>
      data?.platforms.some((platform) => platform.status === 'Syncing') ? 2000 : 0,
  });
export const useSyncSettings = () => useSWR(syncSettingsKey, fetchWith(syncSettingsViewSchema));
export const usePlatformLogs = (platform: Platform | null) =>
  useSWR(platform ? logsKey(platform) : null, fetchWith(syncRunListSchema));
export const useSyncHistory = (auctionId: string | null) =>
  useSWR(auctionId ? historyKey(auctionId) : null, fetchWith(syncRunListSchema));

/** Pages of what a platform lists, each page asked for with the cursor the one before gave. */
function pagedKey(platform: Platform | null, what: 'auctions' | 'bidders') {
  return (index: number, previous: { next: string | null } | null) => {
    if (!platform || (previous && !previous.next)) return null;
    const cursor = previous?.next ? `?cursor=${encodeURIComponent(previous.next)}` : '';
    return domainApi(`/platforms/${segment(platform)}/${what}${cursor}`);
  };
}
export const usePlatformAuctions = (platform: Platform | null) =>
  useSWRInfinite(pagedKey(platform, 'auctions'), fetchWith(platformAuctionListSchema), {
    revalidateFirstPage: false,
  });
export const usePlatformBidders = (platform: Platform | null) =>
  useSWRInfinite(pagedKey(platform, 'bidders'), fetchWith(platformBidderListSchema), {
    revalidateFirstPage: false,
  });

const importAnswerSchema = z.object({ change: syncChangeSchema, run: syncRunSchema });

export function usePlatformActions() {
  const { mutate } = useSWRConfig();
  const refresh = (platform: Platform) =>
    Promise.all([mutate(platformsKey), mutate(logsKey(platform))]);
  return {
    connect: async (platform: Platform, apiKey: string, auctionHouseId: string | null) => {
      const connection = await apiRequest(domainApi(`/platforms/${segment(platform)}/connection`), {
        method: 'PUT',
        body: { apiKey, auctionHouseId },
        schema: platformConnectionSchema,
      });
      await refresh(platform);
      return connection;
    },
    disconnect: async (platform: Platform) => {
      await apiRequest(domainApi(`/platforms/${segment(platform)}/connection`), {
        method: 'DELETE',
        schema: platformConnectionSchema,
      });
      await refresh(platform);
    },
    sync: async (platform: Platform) => {
      const run = await apiRequest(domainApi(`/platforms/sync/${segment(platform)}`), {
        method: 'POST',
        schema: syncRunSchema,
      });
      await refresh(platform);
      return run;
    },
    importAuction: async (platform: Platform, externalId: string) => {
      const answer = await apiRequest(domainApi(`/import/${segment(platform)}`), {
        method: 'POST',
        body: { externalId },
        schema: importAnswerSchema,
      });
      await Promise.all([
        refresh(platform),
        mutate((key) => typeof key === 'string' && key.includes('/listAuctions')),
      ]);
      return answer;
    },
    syncAuction: async (auctionId: string, platform: Platform, direction: SyncDirection) => {
      const run = await apiRequest(
        domainApi(`/auctions/${encodeURIComponent(auctionId)}/sync/${segment(platform)}`),
        { method: 'PUT', body: { direction }, schema: syncRunSchema },
      );
      await Promise.all([
        mutate(historyKey(auctionId)),
        mutate(domainApi(`/auctions/${encodeURIComponent(auctionId)}`)),
      ]);
      return run;
    },
    importBidders: async (platform: Platform, externalIds: string[]) => {
      const run = await apiRequest(domainApi(`/import/${segment(platform)}/bidders`), {
        method: 'POST',
        body: { externalIds },
        schema: syncRunSchema,
      });
      await Promise.all([
        refresh(platform),
        mutate(
          (key) =>
            typeof key === 'string' &&
            (key.includes('/listBidders') ||
              key.includes(`/platforms/${segment(platform)}/bidders`)),
        ),
      ]);
      return run;
    },
    saveSyncSettings: async (etag: string, changes: Partial<SyncSettings>) => {
      const saved = await apiRequest(syncSettingsKey, {
        method: 'PUT',
        body: changes,
        headers: { 'if-match': `"${etag}"` },
        schema: syncSettingsViewSchema,
      });
      await mutate(syncSettingsKey, saved, { revalidate: false });
      return saved;
    },
  };
}
