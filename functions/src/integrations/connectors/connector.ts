import type { AuctionType, Currency, Platform } from '../../auctions/auctions.schema.js';

/**
 * What every bidding platform is to Lotwise, whatever its own API looks like: one adapter per
 * platform maps its wire format to these shapes. Money is integer minor units with its currency;
 * times are ISO 8601 instants.
 */

/** What a house gives Lotwise to reach its account on a platform. */
export interface PlatformCredentials {
  apiKey: string;
}

export interface ConnectorOptions {
  /** The platform's API root (the local platform sandbox in development and CI). */
  baseUrl: string;
  credentials: PlatformCredentials;
  /** Each request is abandoned after this long. */
  timeoutMs: number;
}

export type PlatformAuctionStatus = 'upcoming' | 'live' | 'closed' | 'cancelled';

/** An auction as a platform lists it: enough to choose what to import and to see what changed. */
export interface PlatformAuctionSummary {
  externalId: string;
  title: string;
  status: PlatformAuctionStatus;
  startsAt: string;
  endsAt: string;
  lotCount: number;
  /** When the platform last changed it; an incremental sync fetches only what moved since. */
  updatedAt: string;
}

export interface PlatformLotResult {
  outcome: 'sold' | 'passed';
  hammer: number | null;
  /** The platform's id of the buyer, when sold. */
  buyerExternalId: string | null;
}

export interface PlatformLot {
  externalId: string;
  lotNumber: string;
  title: string;
  description: string;
  /** The platform's own category name, as written. */
  category: string | null;
  estimateLow: number | null;
  estimateHigh: number | null;
  reserve: number | null;
  consignor: string | null;
  result: PlatformLotResult | null;
}

export interface PlatformAuction extends PlatformAuctionSummary {
  description: string;
  type: AuctionType | null;
  /** The platform's own category name, as written. */
  category: string | null;
  currency: Currency;
  /** IANA time zone of the sale, when the platform says. */
  timeZone: string | null;
  buyersPremiumPercent: number | null;
  location: string | null;
  lots: PlatformLot[];
}

export interface PlatformBidder {
  externalId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  status: 'Active' | 'Inactive';
  lastActive: string | null;
  totalBids: number;
  totalWins: number;
  /** What the bidder spent on the platform, in minor units of `currency`. */
  totalSpent: number;
  currency: Currency;
  updatedAt: string;
}

export interface PlatformRegistration {
  bidderExternalId: string;
  status: 'approved' | 'pending' | 'denied';
  paddle: string | null;
  registeredAt: string;
}

/** One page of a list and where the next begins; `next` is null on the last. */
export interface PlatformPage<T> {
  items: T[];
  next: string | null;
}

/** What Lotwise sends when it pushes an auction to a platform. */
export interface PushedAuction {
  title: string;
  description: string;
  type: AuctionType;
  category: string;
  currency: Currency;
  timeZone: string;
  startsAt: string;
  endsAt: string;
  buyersPremiumPercent: number;
  location: string | null;
  lots: Omit<PlatformLot, 'externalId' | 'result'>[];
}

export interface PlatformConnector {
  readonly platform: Platform;
  /** Checks the credentials; answers the platform's name for the account they open. */
  testCredentials(): Promise<{ accountName: string }>;
  /** Auctions, oldest change first; with `since`, only those changed after it. */
  listAuctions(
    cursor: string | null,
    since: string | null,
  ): Promise<PlatformPage<PlatformAuctionSummary>>;
  fetchAuction(externalId: string): Promise<PlatformAuction>;
  /** Bidders, oldest change first; with `since`, only those changed after it. */
  listBidders(cursor: string | null, since: string | null): Promise<PlatformPage<PlatformBidder>>;
  /** Creates the auction on the platform (no `externalId`) or replaces it there. */
  pushAuction(
    auction: PushedAuction,
    externalId: string | null,
  ): Promise<{ externalId: string; updatedAt: string }>;
  pullRegistrations(externalId: string): Promise<PlatformRegistration[]>;
  pullResults(externalId: string): Promise<(PlatformLotResult & { lotExternalId: string })[]>;
}

/**
 * Why a platform call failed, as Lotwise tells the house: an expired key is the house's to fix,
 * the rest are the platform's (and a sync tries again later).
 */
export type PlatformFailure =
  | 'key_expired'
  | 'key_invalid'
  | 'not_found'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'bad_response';

export class PlatformError extends Error {
  constructor(
    readonly platform: Platform,
    readonly failure: PlatformFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}
