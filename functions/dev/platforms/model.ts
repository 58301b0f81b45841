import type { AuctionType, Currency, Platform } from '../../src/auctions/auctions.schema.js';

/**
 * What the sandbox keeps for each platform account, in one neutral shape; every platform's API
 * renders it in that platform's own wire format. Money is integer minor units, times epoch ms,
 * category names the platform's own words.
 */

export type SandboxAuctionStatus = 'upcoming' | 'live' | 'closed' | 'cancelled';

export interface SandboxLotResult {
  outcome: 'sold' | 'passed';
  hammer: number | null;
  buyerId: string | null;
}

export interface SandboxLot {
  id: string;
  lotNumber: string;
  title: string;
  description: string;
  category: string | null;
  estimateLow: number | null;
  estimateHigh: number | null;
  reserve: number | null;
  consignor: string | null;
  result: SandboxLotResult | null;
}

export interface SandboxRegistration {
  bidderId: string;
  status: 'approved' | 'pending' | 'denied';
  paddle: string | null;
  registeredAt: number;
}

export interface SandboxAuction {
  id: string;
  title: string;
  description: string;
  type: AuctionType;
  category: string;
  currency: Currency;
  timeZone: string;
  startsAt: number;
  endsAt: number;
  status: SandboxAuctionStatus;
  buyersPremiumPercent: number;
  location: string | null;
  lots: SandboxLot[];
  registrations: SandboxRegistration[];
  updatedAt: number;
}

export interface SandboxBidder {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  status: 'Active' | 'Inactive';
  lastActive: number | null;
  totalBids: number;
  totalWins: number;
  totalSpent: number;
  currency: Currency;
  updatedAt: number;
}

/** The faults a test can switch on for one key (`__sandbox/accounts/{key}/faults`). */
export interface Faults {
  /** Every request gets the platform's own "key expired" answer. */
  expired_key?: true;
  /** Every request gets the platform's "key invalid" answer. */
  invalid_key?: true;
  server_error?: true;
  unavailable?: true;
  rate_limited?: true;
  /** Requests are held and never answered (the client's timeout must end them). */
  timeout?: true;
  /** Every request waits this long before it is answered. */
  slow?: { delayMs: number };
  /** The first `requests` requests after the fault was set are answered; the rest get 503. */
  fail_after?: { requests: number };
  /** Answers 200 with a body that is not the platform's shape, or not JSON at all. */
  bad_payload?: 'shape' | 'json';
}

/** What Lotwise pushed, as the platform received it. */
export interface PushRecord {
  at: string;
  action: 'created' | 'replaced';
  externalId: string;
  /** The request body exactly as it arrived, in the platform's wire format. */
  body: unknown;
}

/** The sizes an account is seeded with; the same options give the same data. */
export interface SeedOptions {
  auctions: number;
  lotsPerAuction: { min: number; max: number };
  bidders: number;
  seed: number;
  /** People planted among the bidders, first, so tests know someone who is there. */
  include: { firstName: string; lastName: string; email?: string; phone?: string }[];
}

/** Where and in what money an account sells. */
export interface AccountProfile {
  currency: Currency;
  timeZone: string;
  venue: string;
}

export interface SandboxAccount {
  platform: Platform;
  key: string;
  name: string;
  options: SeedOptions;
  profile: AccountProfile;
  auctions: Map<string, SandboxAuction>;
  bidders: Map<string, SandboxBidder>;
  pushed: PushRecord[];
  faults: Faults;
  /** Requests answered since the faults were last set (for `fail_after`). */
  requestsSinceFaults: number;
  /** The next id of each kind this account hands out. */
  nextId: { auction: number; lot: number; bidder: number };
}

let lastTick = 0;

/**
 * The sandbox's clock for changes: never the same instant twice, so "changed after" is exact
 * for the platforms that keep milliseconds.
 */
export function tick(): number {
  lastTick = Math.max(Date.now(), lastTick + 1);
  return lastTick;
}

/** The instant of the latest change anywhere in the sandbox (0 before any). */
export const lastChange = () => lastTick;

/** What an auction's status is by its times, for auctions pushed or moved without one. */
export function statusByTimes(startsAt: number, endsAt: number, now = Date.now()) {
  if (now < startsAt) return 'upcoming' as const;
  return now < endsAt ? ('live' as const) : ('closed' as const);
}

/** Lists are oldest change first, ties by id, so a page boundary is the same every time. */
export const byChange = <T extends { updatedAt: number; id: string }>(a: T, b: T) =>
  a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
