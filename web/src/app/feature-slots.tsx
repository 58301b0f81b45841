import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import type { FeatureSlots } from '../lib/feature-slots';

/** A slot's part, loaded with the screen that shows it rather than with the sign-in page. */
function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Part = lazy(async () => ({ default: await load() }));
  return function DeferredPart(props: P) {
    return (
      <Suspense fallback={null}>
        <Part {...(props as ComponentProps<typeof Part>)} />
      </Suspense>
    );
  };
}

const platformImport = () => import('../features/platforms/components/PlatformImport');
const auctionSync = () => import('../features/platforms/components/AuctionSync');

/** What each slot shows: the bidding platforms' parts of the auction and bidder screens. */
export const featureSlots: FeatureSlots = {
  AuctionPlatformImport: deferred(async () => (await platformImport()).AuctionPlatformImport),
  BidderPlatformImport: deferred(async () => (await platformImport()).BidderPlatformImport),
  AuctionSyncActions: deferred(async () => (await auctionSync()).AuctionSyncActions),
  AuctionSyncMenuItem: deferred(async () => (await auctionSync()).AuctionSyncMenuItem),
  AuctionSyncHistory: deferred(async () => (await auctionSync()).AuctionSyncHistory),
};
