import type { SqlParameter } from '@azure/cosmos';
import { container, type ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type {
  AuctionInput,
  AuctionStatus,
  ListAuctionsQuery,
  Platform,
} from './auctions.schema.js';
import type { LotResult } from './lots/lots.schema.js';
import type {
  RegistrationFigures,
  RegistrationStatus,
} from './registrations/registrations.schema.js';
import type { Tier } from '../scoring/scoring.schema.js';
import type { CampaignKind } from './campaigns/campaigns.schema.js';

/**
 * One container holds an account's auctions with their lots and registrations, so a lot or a
 * registration and the auction's counters change in one transactional batch.
 */
export const auctionsContainer: ContainerDefinition = {
  id: 'auctions',
  partitionKey: '/accountId',
};

export interface AuctionRecord extends Omit<
  AuctionInput,
  'timeZone' | 'startDate' | 'startTime' | 'endDate' | 'endTime'
> {
  id: string;
  accountId: string;
  type: AuctionInput['type'];
  kind: 'auction';
  status: AuctionStatus;
  company: string;
  auctionHouseName: string;
  startsAt: string;
  endsAt: string;
  timeZone: string;
  /** The house-local days it starts and ends, for the list's date filter. */
  startDay: string;
  endDay: string;
  /** Lower-cased title and company, for case-insensitive search and sorting. */
  searchText: string;
  sortTitle: string;
  sortCompany: string;
  /**
   * What the house edits is versioned apart from the counters below, so a lot added or a bidder
   * approved never makes someone's open edit form stale. The auction's ETag is this revision.
   */
  revision: number;
  lotCount: number;
  biddersRegistered: number;
  /** Bumped by every registration write, so those writes to one auction take turns. */
  registrationTurns: number;
  importedFrom: Platform | null;
  source: { platform: Platform; externalId: string; lastSyncAt: string | null } | null;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  publishedAt: string | null;
  closedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
}

export interface LotRecord {
  id: string;
  accountId: string;
  kind: 'lot';
  auctionId: string;
  lotNumber: string;
  position: number;
  title: string;
  description: string;
  category: string | null;
  estimateLow: number | null;
  estimateHigh: number | null;
  reserve: number | null;
  consignor: { name: string; contact: string } | null;
  inventoryItemId: string | null;
  /** Results recorded before channels were kept have none. */
  result: (Omit<LotResult, 'channel'> & Partial<Pick<LotResult, 'channel'>>) | null;
  createdAt: string;
  updatedAt: string;
}

/** Holds a lot number in an auction: created with the lot, so a second one is refused (409). */
export interface LotNumberClaim {
  id: string;
  accountId: string;
  kind: 'lotNumber';
  auctionId: string;
  lotId: string;
}

export interface RegistrationRecord {
  id: string;
  accountId: string;
  kind: 'registration';
  auctionId: string;
  bidderId: string;
  bidderNumber: string;
  bidderName: string;
  email: string | null;
  lotwiseScore: number;
  customScore: number;
  tier: Tier;
  status: RegistrationStatus;
  limited: boolean;
  bidLimit: number | null;
  paddle: string | null;
  reasons: string[];
  decidedBy: 'rules' | 'reviewer' | null;
  decidedByName: string | null;
  decidedAt: string | null;
  figures: RegistrationFigures;
  invitedAt: string | null;
  invitedBy: string | null;
  registeredAt: string | null;
}

/** A marketing campaign launched for an auction: who launched it, to whom, and what was sent. */
export interface CampaignRecord {
  id: string;
  accountId: string;
  kind: 'campaign';
  auctionId: string;
  campaign: CampaignKind;
  /** 1 for the first launch of this campaign for the auction, 2 for a repeat, ... */
  launch: number;
  status: 'sending' | 'sent' | 'failed';
  launchedAt: string;
  launchedById: string;
  launchedByName: string;
  message: string | null;
  reach: number;
  sent: number;
  skippedOptedOut: number;
  skippedWithoutEmail: number;
  finishedAt: string | null;
}

export type AuctionDocument =
  AuctionRecord | LotRecord | LotNumberClaim | RegistrationRecord | CampaignRecord;

export const auctionDocuments = new TenantRepository<AuctionDocument>(auctionsContainer.id);

export const lotNumberKey = (lotNumber: string) => lotNumber.trim().toLowerCase();
export const lotNumberClaimId = (auctionId: string, lotNumber: string) =>
  `lotnumber:${auctionId}:${lotNumberKey(lotNumber)}`;
/** One id per launch, so two first launches of a campaign cannot both be written. */
export const campaignId = (auctionId: string, campaign: CampaignKind, launch: number) =>
  `campaign:${auctionId}:${campaign}:${launch}`;
export const registrationId = (auctionId: string, bidderId: string) =>
  `registration:${auctionId}:${bidderId}`;

export async function findAuction(scope: AccountScope, id: string) {
  const found = await auctionDocuments.find(scope, id);
  return found?.kind === 'auction' ? (found as Stored<AuctionRecord>) : undefined;
}

const viewStatuses: Record<NonNullable<ListAuctionsQuery['view']>, AuctionStatus[]> = {
  current: ['Active'],
  upcoming: ['Draft', 'Upcoming'],
  past: ['Completed', 'Cancelled'],
};

const sortPaths: Record<ListAuctionsQuery['sortBy'], string> = {
  startsAt: 'c.startsAt',
  endsAt: 'c.endsAt',
  title: 'c.sortTitle',
  company: 'c.sortCompany',
  biddersRegistered: 'c.biddersRegistered',
  createdAt: 'c.createdAt',
};

/** The SQL condition and parameters of a list's filters (auctions only). */
function listCondition(query: ListAuctionsQuery): { where: string; parameters: SqlParameter[] } {
  const clauses = ["c.kind = 'auction'"];
  const parameters: SqlParameter[] = [];
  if (query.view) {
    clauses.push('ARRAY_CONTAINS(@viewStatuses, c.status)');
    parameters.push({ name: '@viewStatuses', value: viewStatuses[query.view] });
  }
  if (query.status) {
    clauses.push('c.status = @status');
    parameters.push({ name: '@status', value: query.status });
  }
  if (query.platform === 'manual') clauses.push('IS_NULL(c.importedFrom)');
  else if (query.platform) {
    clauses.push('c.importedFrom = @platform');
    parameters.push({ name: '@platform', value: query.platform });
  }
  if (query.category) {
    clauses.push('c.category = @category');
    parameters.push({ name: '@category', value: query.category });
  }
  if (query.search) {
    clauses.push('CONTAINS(c.searchText, @search)');
    parameters.push({ name: '@search', value: query.search.toLowerCase() });
  }
  // Auctions that overlap the chosen days, as the house's calendar has them.
  if (query.startDate) {
    clauses.push('c.endDay >= @from');
    parameters.push({ name: '@from', value: query.startDate });
  }
  if (query.endDate) {
    clauses.push('c.startDay <= @until');
    parameters.push({ name: '@until', value: query.endDate });
  }
  return { where: clauses.join(' AND '), parameters };
}

/** One numbered page of the list, in its order (see TenantRepository.numberedPage). */
export async function listAuctionPage(
  scope: AccountScope,
  query: ListAuctionsQuery,
): Promise<Stored<AuctionRecord>[]> {
  const { where, parameters } = listCondition(query);
  const orderBy = `${sortPaths[query.sortBy]} ${query.sortOrder === 'asc' ? 'ASC' : 'DESC'}`;
  return (await auctionDocuments.numberedPage(
    scope,
    { where, parameters, orderBy },
    query.page,
    query.limit,
  )) as Stored<AuctionRecord>[];
}

/** How many auctions a list's filters match. */
export function countAuctions(scope: AccountScope, query: ListAuctionsQuery) {
  return auctionDocuments.count(scope, listCondition(query));
}

/** How many auctions, of any status, a house runs or ran. */
export function countHouseAuctions(scope: AccountScope, houseId: string) {
  return auctionDocuments.count(scope, {
    where: "c.kind = 'auction' AND c.auctionHouseId = @houseId",
    parameters: [{ name: '@houseId', value: houseId }],
  });
}

/** Status counts and registered bidders of every auction, for the tiles. */
export async function auctionTallies(scope: AccountScope) {
  return (await auctionDocuments.all(scope, {
    select: 'c.status, c.biddersRegistered',
    where: "c.kind = 'auction'",
  })) as unknown as { status: AuctionStatus; biddersRegistered: number }[];
}

export async function lotsOf(scope: AccountScope, auctionId: string) {
  return (await auctionDocuments.all(scope, {
    where: "c.kind = 'lot' AND c.auctionId = @auctionId",
    parameters: [{ name: '@auctionId', value: auctionId }],
    orderBy: 'c.position ASC',
  })) as Stored<LotRecord>[];
}

export async function registrationsOf(scope: AccountScope, auctionId: string) {
  return (await auctionDocuments.all(scope, {
    where: "c.kind = 'registration' AND c.auctionId = @auctionId",
    parameters: [{ name: '@auctionId', value: auctionId }],
  })) as Stored<RegistrationRecord>[];
}

/** The campaigns launched for an auction, newest first. */
export async function campaignsOf(scope: AccountScope, auctionId: string) {
  return (await auctionDocuments.all(scope, {
    where: "c.kind = 'campaign' AND c.auctionId = @auctionId",
    parameters: [{ name: '@auctionId', value: auctionId }],
    orderBy: 'c.launchedAt DESC',
  })) as Stored<CampaignRecord>[];
}

/** A bidder's registrations in every auction of the account. */
export async function registrationsOfBidder(scope: AccountScope, bidderId: string) {
  return (await auctionDocuments.all(scope, {
    where: "c.kind = 'registration' AND c.bidderId = @bidderId",
    parameters: [{ name: '@bidderId', value: bidderId }],
  })) as Stored<RegistrationRecord>[];
}

/** How many documents of each kind hang off an auction (what stops it being deleted). */
export async function dependentsOf(scope: AccountScope, auctionId: string) {
  const rows = (await auctionDocuments.all(scope, {
    select: 'c.kind, c.status, c.result',
    where: "c.auctionId = @auctionId AND (c.kind = 'lot' OR c.kind = 'registration')",
    parameters: [{ name: '@auctionId', value: auctionId }],
  })) as unknown as { kind: string; status?: RegistrationStatus; result?: LotResult | null }[];
  return {
    lots: rows.filter((row) => row.kind === 'lot').length,
    results: rows.filter((row) => row.kind === 'lot' && row.result).length,
    registrations: rows.filter((row) => row.kind === 'registration').length,
  };
}

/** Every document of an auction (its lots, claims and registrations), for deleting it. */
export async function documentIdsOf(scope: AccountScope, auctionId: string) {
  return (
    (await auctionDocuments.all(scope, {
      select: 'c.id',
      where: 'c.auctionId = @auctionId',
      parameters: [{ name: '@auctionId', value: auctionId }],
    })) as unknown as { id: string }[]
  ).map((row) => row.id);
}

/**
 * Upcoming auctions of every account whose start has come: what the go-live timer moves. Crosses
 * partitions on purpose; it runs once a minute and reads ids only.
 */
export async function dueToGoLive(now: string) {
  const { resources } = await container(auctionsContainer.id)
    .items.query<{ id: string; accountId: string }>({
      query:
        "SELECT c.id, c.accountId FROM c WHERE c.kind = 'auction' AND c.status = 'Upcoming' AND c.startsAt <= @now",
      parameters: [{ name: '@now', value: now }],
    })
    .fetchAll();
  return resources;
}

/** Reads the container's own description: fails when the store is missing or unreachable. */
export async function auctionsStore(abortSignal: AbortSignal) {
  await container(auctionsContainer.id).read({ abortSignal });
}
