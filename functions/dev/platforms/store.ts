import { randomBytes } from 'node:crypto';
import { platforms, type Currency, type Platform } from '../../src/auctions/auctions.schema.js';
import { SandboxInvalid, SandboxNotFound } from './http.js';
import {
  statusByTimes,
  tick,
  type AccountProfile,
  type SandboxAccount,
  type SandboxAuction,
  type SandboxBidder,
  type SandboxLot,
  type SeedOptions,
} from './model.js';
import { newId, seedAccount } from './seed.js';
import { wordsOf } from './vocabulary.js';

/** Each platform's path under the sandbox: `http://localhost:<port>/<slug>/...`. */
export const platformSlugs: Record<Platform, string> = {
  ProxyBid: 'proxybid',
  BidWrangler: 'bidwrangler',
  Invaluable: 'invaluable',
  'Auction.zip': 'auctionzip',
  LiveAuctioneers: 'liveauctioneers',
  BidSquare: 'bidsquare',
};

export const DEMO_ACCOUNT_NAME = 'Harborview Auctions';

/** The demo tenant's key on each platform; documented in the README. */
export const demoKey = (platform: Platform) => `sandbox-${platformSlugs[platform]}-harborview`;
/** A key each platform answers "expired" to, for showing that screen. */
export const expiredDemoKey = (platform: Platform) => `sandbox-${platformSlugs[platform]}-expired`;

/** The demo accounts' sizes: a realistic handful, different on each platform. */
const demoSizes: Record<Platform, { auctions: number; bidders: number }> = {
  ProxyBid: { auctions: 10, bidders: 64 },
  BidWrangler: { auctions: 8, bidders: 48 },
  Invaluable: { auctions: 9, bidders: 72 },
  'Auction.zip': { auctions: 7, bidders: 40 },
  LiveAuctioneers: { auctions: 12, bidders: 80 },
  BidSquare: { auctions: 6, bidders: 56 },
};

const harborview: AccountProfile = {
  currency: 'USD',
  timeZone: 'America/New_York',
  venue: 'Harborview Gallery, 120 Commercial Street, Boston, MA',
};

export interface AccountRequest {
  platform: Platform;
  name?: string;
  auctions: number;
  lotsPerAuction: { min: number; max: number };
  bidders: number;
  seed: number;
  include: SeedOptions['include'];
  currency: Currency;
  timeZone: string;
}

/** An auction as a push brings it: no ids, status, registrations or results yet. */
export interface PushedSandboxAuction extends Omit<
  SandboxAuction,
  'id' | 'status' | 'registrations' | 'updatedAt' | 'lots'
> {
  lots: Omit<SandboxLot, 'id' | 'result'>[];
}

/** Seeded times are whole minutes, so every platform's wire (some keep only seconds) holds them exactly. */
const seedTime = () => Math.floor(Date.now() / 60_000) * 60_000;

export class SandboxStore {
  readonly accounts = new Map<string, SandboxAccount>();

  constructor() {
    this.reset();
  }

  /** Back to the seeded demo accounts only: created accounts, faults and pushes are gone. */
  reset(): void {
    this.accounts.clear();
    for (const [index, platform] of platforms.entries()) {
      const sizes = demoSizes[platform];
      const options: SeedOptions = {
        auctions: sizes.auctions,
        lotsPerAuction: { min: 5, max: 40 },
        bidders: sizes.bidders,
        seed: 1_000 + index,
        include: [],
      };
      this.add(platform, demoKey(platform), DEMO_ACCOUNT_NAME, options, harborview);
      const expired = this.add(
        platform,
        expiredDemoKey(platform),
        DEMO_ACCOUNT_NAME,
        {
          ...options,
          auctions: 1,
          bidders: 5,
        },
        harborview,
      );
      expired.faults = { expired_key: true };
    }
  }

  create(request: AccountRequest): SandboxAccount {
    const key = `sbx-${platformSlugs[request.platform]}-${randomBytes(9).toString('base64url')}`;
    const name = request.name ?? `Sandbox House ${this.accounts.size + 1}`;
    return this.add(
      request.platform,
      key,
      name,
      {
        auctions: request.auctions,
        lotsPerAuction: request.lotsPerAuction,
        bidders: request.bidders,
        seed: request.seed,
        include: request.include,
      },
      {
        currency: request.currency,
        timeZone: request.timeZone,
        venue: `${name}, 1 Main Street`,
      },
    );
  }

  private add(
    platform: Platform,
    key: string,
    name: string,
    options: SeedOptions,
    profile: AccountProfile,
  ): SandboxAccount {
    const account: SandboxAccount = {
      platform,
      key,
      name,
      options,
      auctions: new Map(),
      bidders: new Map(),
      pushed: [],
      faults: {},
      requestsSinceFaults: 0,
      nextId: { auction: 0, lot: 0, bidder: 0 },
      profile,
    };
    seedAccount(account, seedTime());
    this.accounts.set(key, account);
    return account;
  }

  /** One account seeded again from its options: its changes, pushes and faults are gone. */
  reseed(account: SandboxAccount): void {
    account.nextId = { auction: 0, lot: 0, bidder: 0 };
    account.pushed = [];
    account.faults = account.key === expiredDemoKey(account.platform) ? { expired_key: true } : {};
    account.requestsSinceFaults = 0;
    seedAccount(account, seedTime());
  }

  get(key: string): SandboxAccount | undefined {
    return this.accounts.get(key);
  }
}

export function auctionOf(account: SandboxAccount, id: string): SandboxAuction {
  const auction = account.auctions.get(id);
  if (!auction) throw new SandboxNotFound(`auction ${id}`);
  return auction;
}

export function bidderOf(account: SandboxAccount, id: string): SandboxBidder {
  const bidder = account.bidders.get(id);
  if (!bidder) throw new SandboxNotFound(`bidder ${id}`);
  return bidder;
}

/**
 * A push creates the auction or replaces it whole. Lots keep their ids (and results) by lot
 * number, as platforms match a re-sent catalogue; registrations stay with the auction.
 */
export function pushAuction(
  account: SandboxAccount,
  pushed: PushedSandboxAuction,
  externalId: string | null,
  body: unknown,
): SandboxAuction {
  const words = new Set(wordsOf(account.platform));
  for (const category of [pushed.category, ...pushed.lots.map((lot) => lot.category)]) {
    if (category !== null && !words.has(category)) {
      throw new SandboxInvalid(`category "${category}" is not one of this platform's categories`);
    }
  }
  if (pushed.endsAt <= pushed.startsAt) throw new SandboxInvalid('the end must be after the start');
  const numbers = new Set<string>();
  for (const lot of pushed.lots) {
    if (numbers.has(lot.lotNumber)) throw new SandboxInvalid(`lot ${lot.lotNumber} appears twice`);
    numbers.add(lot.lotNumber);
  }
  const existing = externalId === null ? undefined : auctionOf(account, externalId);
  const earlier = new Map(existing?.lots.map((lot) => [lot.lotNumber, lot]));
  const auction: SandboxAuction = {
    ...pushed,
    id: existing?.id ?? newId(account, 'auction'),
    status:
      existing?.status === 'cancelled'
        ? 'cancelled'
        : statusByTimes(pushed.startsAt, pushed.endsAt),
    lots: pushed.lots.map((lot) => ({
      ...lot,
      id: earlier.get(lot.lotNumber)?.id ?? newId(account, 'lot'),
      result: earlier.get(lot.lotNumber)?.result ?? null,
    })),
    registrations: existing?.registrations ?? [],
    updatedAt: tick(),
  };
  account.auctions.set(auction.id, auction);
  account.pushed.push({
    at: new Date().toISOString(),
    action: existing ? 'replaced' : 'created',
    externalId: auction.id,
    body,
  });
  return auction;
}
