import { createContext, useContext, type ComponentType } from 'react';

/**
 * Places where one feature's screen shows another feature's part. Features may not import one
 * another, so the app fills these (app/feature-slots.tsx) and a screen renders what it is given;
 * an empty slot renders nothing.
 */
export interface FeatureSlots {
  /** The Import Auctions dialog's Platform Import tab. */
  AuctionPlatformImport?: ComponentType<{ onImported(auctionId: string): void }>;
  /** The Import Bidders dialog's Platform Import tab. */
  BidderPlatformImport?: ComponentType<{ onImported(): void }>;
  /** Push, pull and two-way sync of one auction, on its page. */
  AuctionSyncActions?: ComponentType<{ auctionId: string; importedFrom: string | null }>;
  /** "Sync with {platform}" in an auction's row menu: a two-way sync. */
  AuctionSyncMenuItem?: ComponentType<{ auctionId: string; platform: string }>;
  /** An auction's Sync History. */
  AuctionSyncHistory?: ComponentType<{ auctionId: string }>;
}

const SlotsContext = createContext<FeatureSlots>({});

export const FeatureSlotsProvider = SlotsContext.Provider;
export const useFeatureSlots = () => useContext(SlotsContext);
