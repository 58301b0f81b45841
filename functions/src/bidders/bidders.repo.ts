import type { SqlParameter } from '@azure/cosmos';
import type { ContainerDefinition } from '../platform/cosmos.js';
import { container } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope } from '../platform/repo.js';
import type { ScoreResult } from '../scoring/score-formula.js';
import type { AutoInviteStatus } from '../scoring/scoring.schema.js';
import type { Address, BidderNote, BidderStats, HistoryEntry } from './bidders.schema.js';

export interface BidderRecord {
  id: string;
  accountId: string;
  bidderId: string;
  aliases: string[];
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  address: Address;
  status: 'Active' | 'Inactive' | 'Suspended' | 'Pending';
  preferredCategories: string[];
  preferredPaymentMethod:
    'Credit Card' | 'Wire Transfer' | 'ACH Transfer' | 'Cash' | 'Check' | 'PayPal';
  stats: BidderStats;
  lotwiseScore: ScoreResult;
  customScore: ScoreResult;
  /** Which settings version the custom score was computed with. */
  customVersion: number;
  localScore: { score: number; reason: string; by: string; at: string } | null;
  autoInviteStatus: AutoInviteStatus;
  invitations: { at: string; by: string; auctionId: string | null }[];
  notes: BidderNote[];
  history: HistoryEntry[];
  /** Lower-cased name, bidder ID, aliases and email, for case-insensitive search. */
  searchText: string;
  /** Blocking keys for duplicate detection. */
  matchKeys: string[];
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export interface DuplicateRecord {
  id: string;
  accountId: string;
  bidder1Id: string;
  bidder2Id: string;
  confidenceScore: number;
  matchReasons: string[];
  conflicts: { field: string; value1: string; value2: string }[];
  status: 'pending' | 'auto-merged' | 'manually-merged' | 'dismissed';
  /** Kept after a merge, so the pair still reads sensibly. */
  snapshot: { bidder1: Record<string, unknown>; bidder2: Record<string, unknown> } | null;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export const biddersContainer: ContainerDefinition = {
  id: 'bidders',
  partitionKey: '/accountId',
  uniqueKeys: [['/bidderId']],
};

export const duplicatesContainer: ContainerDefinition = {
  id: 'bidderDuplicates',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/status', order: 'ascending' },
      { path: '/confidenceScore', order: 'descending' },
    ],
  ],
};

export const biddersRepo = new TenantRepository<BidderRecord>(biddersContainer.id);
export const duplicatesRepo = new TenantRepository<DuplicateRecord>(duplicatesContainer.id);

/** The list's columns: everything but notes, history and the search helpers. */
export const LIST_FIELDS = [
  'id',
  'bidderId',
  'aliases',
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'status',
  'preferredCategories',
  'preferredPaymentMethod',
  'stats',
  'lotwiseScore',
  'customScore',
  'localScore',
  'autoInviteStatus',
  'createdAt',
  'updatedAt',
  '_etag',
] as const;

export type BidderListRecord = Pick<
  BidderRecord,
  Exclude<(typeof LIST_FIELDS)[number], '_etag'>
> & { _etag: string };

/** A page of list rows, selecting only the list's columns. */
export async function pageListRows(
  scope: AccountScope,
  where: string,
  parameters: SqlParameter[],
  orderBy: string,
  pageSize: number,
  continuationToken: string | undefined,
) {
  return biddersRepo.page(scope, {
    select: LIST_FIELDS.map((field) => `c.${field}`).join(', '),
    where,
    parameters,
    orderBy,
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  }) as Promise<{ items: BidderListRecord[]; continuationToken?: string }>;
}

/** Writes without If-Match for the background recalculation, which re-reads on conflict. */
export const biddersContainerClient = () => container(biddersContainer.id);
