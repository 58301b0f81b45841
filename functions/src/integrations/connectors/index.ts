import type { Platform } from '../../auctions/auctions.schema.js';
import { settings } from '../../platform/settings.js';
import { createAuctionZipConnector } from './auctionzip.js';
import { createBidSquareConnector } from './bidsquare.js';
import { createBidWranglerConnector } from './bidwrangler.js';
import type { ConnectorOptions, PlatformConnector } from './connector.js';
import { createInvaluableConnector } from './invaluable.js';
import { createLiveAuctioneersConnector } from './liveauctioneers.js';
import { platformUrlSettings } from './platform-urls.js';
import { createProxyBidConnector } from './proxybid.js';

export { lotwiseCategoryOf, lotwiseLotCategoryOf, platformCategoryOf } from './categories.js';
export * from './connector.js';
export { platformUrlSettings } from './platform-urls.js';

const factories: Record<Platform, (options: ConnectorOptions) => PlatformConnector> = {
  ProxyBid: createProxyBidConnector,
  BidWrangler: createBidWranglerConnector,
  Invaluable: createInvaluableConnector,
  'Auction.zip': createAuctionZipConnector,
  LiveAuctioneers: createLiveAuctioneersConnector,
  BidSquare: createBidSquareConnector,
};

/** The adapter for a platform, talking to `options.baseUrl` with the house's key. */
export function connectorFor(platform: Platform, options: ConnectorOptions): PlatformConnector {
  return factories[platform](options);
}

/**
 * Where a platform's API is (the local platform sandbox in development and CI, the platform
 * itself in Azure); null when this deployment is not configured for it.
 */
export function platformBaseUrl(platform: Platform): string | null {
  return settings()[platformUrlSettings[platform]] ?? null;
}

/** The connector for a platform as this deployment is configured, or null where it is not. */
export function configuredConnector(platform: Platform, apiKey: string): PlatformConnector | null {
  const baseUrl = platformBaseUrl(platform);
  if (baseUrl === null) return null;
  return connectorFor(platform, {
    baseUrl,
    credentials: { apiKey },
    timeoutMs: settings().PLATFORM_TIMEOUT_MS,
  });
}
