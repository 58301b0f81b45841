import type { bulkResolveSchema } from '@contracts/conflicts/conflicts.schema';
import {
  bulkResolvedSchema,
  conflictPageSchema,
  conflictSchema,
  type BulkResolved,
  type Conflict,
  type ConflictKind,
  type ConflictListQuery,
  type ConflictResolution,
  type ConflictStatus,
  type ConflictType,
  type ResolveConflict,
} from '@contracts/conflicts/conflicts.schema';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

const base = domainApi('/data-upload/conflicts');
const PAGE_SIZE = 25;
/** How many pending conflicts the bulk confirmation counts one by one before saying "more than". */
export const BULK_COUNT_PAGE = 100;

type ConflictPage = z.infer<typeof conflictPageSchema>;
export type ConflictFilters = Pick<ConflictListQuery, 'type' | 'status' | 'uploadId'>;

const conflictUrl = (id: string) => `${base}/${encodeURIComponent(id)}`;

function listUrl(filters: ConflictFilters, pageSize: number, continuationToken: string | null) {
  const query = new URLSearchParams({ pageSize: String(pageSize) });
  if (filters.type) query.set('type', filters.type);
  if (filters.status) query.set('status', filters.status);
  if (filters.uploadId) query.set('uploadId', filters.uploadId);
  if (continuationToken) query.set('continuationToken', continuationToken);
  return `${base}?${query.toString()}`;
}

/**
 * The account's conflicts with the filters, a page at a time ("Load more" asks for the next).
 * Every page carries the account's six counters, whatever the filters.
 */
export const useConflicts = (filters: ConflictFilters) =>
  useSWRInfinite(
    (index: number, previous: ConflictPage | null) => {
      if (index === 0) return listUrl(filters, PAGE_SIZE, null);
      return previous?.continuationToken
        ? listUrl(filters, PAGE_SIZE, previous.continuationToken)
        : null;
    },
    fetchWith(conflictPageSchema),
    { keepPreviousData: true, revalidateAll: true },
  );

/**
 * The pending conflicts a bulk resolve would take with these filters, counted from one page of
 * BULK_COUNT_PAGE: `more` when there are others beyond it. Asked only while `asking`.
 */
export function usePendingCount(filters: Omit<ConflictFilters, 'status'>, asking: boolean) {
  const { data, error, isLoading } = useSWR(
    asking ? listUrl({ ...filters, status: 'pending' }, BULK_COUNT_PAGE, null) : null,
    fetchWith(conflictPageSchema),
    { revalidateOnFocus: false },
  );
  return {
    count: data ? { shown: data.items.length, more: data.continuationToken !== null } : undefined,
    error,
    isLoading,
  };
}

/** Resolving conflicts; the caller refreshes its list (and with it the counters) afterwards. */
export const conflictActions = {
  /** The conflict as it is now (after a 412, with the record's new values). */
  get: (id: string) => apiRequest(conflictUrl(id), { schema: conflictSchema }),
  /** Applies a choice to the record on file, guarded by the ETag of the conflict as shown. */
  resolve: (conflict: Pick<Conflict, 'id' | 'etag'>, body: ResolveConflict) =>
    apiRequest(`${conflictUrl(conflict.id)}/resolve`, {
      method: 'POST',
      body,
      headers: { 'if-match': `"${conflict.etag}"` },
      schema: conflictSchema,
    }),
  /** Resolves up to `limit` pending conflicts matching the filter in one request. */
  bulkResolve: (body: z.input<typeof bulkResolveSchema>): Promise<BulkResolved> =>
    apiRequest(`${base}/bulk-resolve`, { method: 'POST', body, schema: bulkResolvedSchema }),
};

export const typeLabels: Record<ConflictType, string> = {
  bidder: 'Bidder',
  auction: 'Auction',
  legal: 'Legal case',
};

/** The type filter's options: the counters' names. */
export const typePluralLabels: Record<ConflictType, string> = {
  bidder: 'Bidders',
  auction: 'Auctions',
  legal: 'Legal',
};

export const kindLabels: Record<ConflictKind, string> = {
  duplicate: 'Duplicate',
  mismatch: 'Mismatch',
  related: 'Related',
};

export const conflictStatusLabels: Record<ConflictStatus, string> = {
  pending: 'Pending',
  resolved: 'Resolved',
  skipped: 'Skipped',
};

export const resolutionLabels: Record<ConflictResolution, string> = {
  keep_existing: 'Kept existing',
  use_imported: 'Used imported',
  merge: 'Merged',
};
