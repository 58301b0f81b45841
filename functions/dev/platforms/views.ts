import type {
  PlatformAuction,
  PlatformBidder,
  PlatformLot,
  PlatformRegistration,
} from '../../src/integrations/connectors/connector.js';
import type { SandboxAccount, SandboxAuction, SandboxBidder, SandboxLot } from './model.js';
import { platformSlugs } from './store.js';

/**
 * What the control API shows of an account: the sandbox's truth in the connector's own shapes,
 * so a test can hold what an adapter read over a platform's wire against it.
 */

const iso = (ms: number) => new Date(ms).toISOString();

export const lotView = (lot: SandboxLot): PlatformLot => ({
  externalId: lot.id,
  lotNumber: lot.lotNumber,
  title: lot.title,
  description: lot.description,
  category: lot.category,
  estimateLow: lot.estimateLow,
  estimateHigh: lot.estimateHigh,
  reserve: lot.reserve,
  consignor: lot.consignor,
  result: lot.result && {
    outcome: lot.result.outcome,
    hammer: lot.result.hammer,
    buyerExternalId: lot.result.buyerId,
  },
});

export const registrationViews = (auction: SandboxAuction): PlatformRegistration[] =>
  auction.registrations.map((registration) => ({
    bidderExternalId: registration.bidderId,
    status: registration.status,
    paddle: registration.paddle,
    registeredAt: iso(registration.registeredAt),
  }));

export type AuctionView = PlatformAuction & { registrations: PlatformRegistration[] };

export const auctionView = (auction: SandboxAuction): AuctionView => ({
  externalId: auction.id,
  title: auction.title,
  status: auction.status,
  startsAt: iso(auction.startsAt),
  endsAt: iso(auction.endsAt),
  lotCount: auction.lots.length,
  updatedAt: iso(auction.updatedAt),
  description: auction.description,
  type: auction.type,
  category: auction.category,
  currency: auction.currency,
  timeZone: auction.timeZone,
  buyersPremiumPercent: auction.buyersPremiumPercent,
  location: auction.location,
  lots: auction.lots.map(lotView),
  registrations: registrationViews(auction),
});

export const bidderView = (bidder: SandboxBidder): PlatformBidder => ({
  externalId: bidder.id,
  firstName: bidder.firstName,
  lastName: bidder.lastName,
  email: bidder.email,
  phone: bidder.phone,
  status: bidder.status,
  lastActive: bidder.lastActive === null ? null : iso(bidder.lastActive),
  totalBids: bidder.totalBids,
  totalWins: bidder.totalWins,
  totalSpent: bidder.totalSpent,
  currency: bidder.currency,
  updatedAt: iso(bidder.updatedAt),
});

export const accountView = (account: SandboxAccount, origin: string) => ({
  platform: account.platform,
  key: account.key,
  name: account.name,
  baseUrl: `${origin}/${platformSlugs[account.platform]}`,
  faults: account.faults,
  auctions: [...account.auctions.values()].map(auctionView),
  bidders: [...account.bidders.values()].map(bidderView),
});
