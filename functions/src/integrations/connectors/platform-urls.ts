import type { Platform } from '../../auctions/auctions.schema.js';

/** The setting that holds each platform's API root (see platform/settings.ts). */
export const platformUrlSettings = {
  ProxyBid: 'PLATFORM_URL_PROXYBID',
  BidWrangler: 'PLATFORM_URL_BIDWRANGLER',
  Invaluable: 'PLATFORM_URL_INVALUABLE',
  'Auction.zip': 'PLATFORM_URL_AUCTIONZIP',
  LiveAuctioneers: 'PLATFORM_URL_LIVEAUCTIONEERS',
  BidSquare: 'PLATFORM_URL_BIDSQUARE',
} as const satisfies Record<Platform, string>;
