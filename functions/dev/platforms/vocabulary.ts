import type { AuctionCategory, Platform } from '../../src/auctions/auctions.schema.js';

/**
 * The category words each platform writes, as the platform would: the seed picks a neutral topic
 * and stores the platform's word for it, and a push must use one of these words (the platform
 * refuses any other). The adapters map them back to Lotwise's categories with their own tables.
 */

export const lotTopics = [
  'Art',
  'Jewelry',
  'Watches',
  'Antiques',
  'Furniture',
  'Home Decor',
  'Coins & Currency',
  'Stamps',
  'Collectibles',
  'Sports',
  'Books',
  'Automobiles',
  'Wine & Spirits',
  'Musical Instruments',
  'Designer Items',
  'Real Estate',
] as const;
export type LotTopic = (typeof lotTopics)[number];

export interface Vocabulary {
  auction: Record<AuctionCategory, string>;
  lot: Record<LotTopic, string>;
  /** What the platform files anything else under. */
  other: string;
}

export const vocabularies: Record<Platform, Vocabulary> = {
  ProxyBid: {
    auction: {
      art: 'Fine Art',
      jewelry: 'Jewelry & Watches',
      vehicles: 'Cars & Vehicles',
      'real-estate': 'Real Estate',
      collectibles: 'Antiques & Collectibles',
    },
    lot: {
      Art: 'Fine Art',
      Jewelry: 'Jewelry',
      Watches: 'Watches',
      Antiques: 'Antiques',
      Furniture: 'Furniture',
      'Home Decor': 'Home Décor',
      'Coins & Currency': 'Coins & Currency',
      Stamps: 'Stamps',
      Collectibles: 'Collectibles',
      Sports: 'Sports Memorabilia',
      Books: 'Books & Manuscripts',
      Automobiles: 'Cars & Vehicles',
      'Wine & Spirits': 'Wine & Spirits',
      'Musical Instruments': 'Musical Instruments',
      'Designer Items': 'Designer Handbags & Fashion',
      'Real Estate': 'Real Estate',
    },
    other: 'Other',
  },
  BidWrangler: {
    auction: {
      art: 'fine-art',
      jewelry: 'jewelry',
      vehicles: 'vehicles',
      'real-estate': 'real-estate',
      collectibles: 'antiques-collectibles',
    },
    lot: {
      Art: 'fine-art',
      Jewelry: 'jewelry',
      Watches: 'watches',
      Antiques: 'antiques',
      Furniture: 'furniture',
      'Home Decor': 'home-decor',
      'Coins & Currency': 'coins',
      Stamps: 'stamps',
      Collectibles: 'collectibles',
      Sports: 'sports-memorabilia',
      Books: 'books',
      Automobiles: 'vehicles',
      'Wine & Spirits': 'wine',
      'Musical Instruments': 'musical-instruments',
      'Designer Items': 'fashion',
      'Real Estate': 'real-estate',
    },
    other: 'general',
  },
  Invaluable: {
    auction: {
      art: 'Fine Art',
      jewelry: 'Jewelry',
      vehicles: 'Automobiles',
      'real-estate': 'Real Estate',
      collectibles: 'Collectibles',
    },
    lot: {
      Art: 'Paintings',
      Jewelry: 'Jewelry',
      Watches: 'Watches',
      Antiques: 'Antiques',
      Furniture: 'Furniture',
      'Home Decor': 'Decorative Arts',
      'Coins & Currency': 'Coins, Money & Stamps',
      Stamps: 'Coins, Money & Stamps',
      Collectibles: 'Collectibles',
      Sports: 'Sports',
      Books: 'Books, Maps & Manuscripts',
      Automobiles: 'Automobiles',
      'Wine & Spirits': 'Wine',
      'Musical Instruments': 'Musical Instruments',
      'Designer Items': 'Fashion',
      'Real Estate': 'Real Estate',
    },
    other: 'Other',
  },
  'Auction.zip': {
    auction: {
      art: 'Art',
      jewelry: 'Jewelry',
      vehicles: 'Cars/Trucks',
      'real-estate': 'Real Estate',
      collectibles: 'Antiques',
    },
    lot: {
      Art: 'Art',
      Jewelry: 'Jewelry',
      Watches: 'Watches',
      Antiques: 'Antiques',
      Furniture: 'Furniture',
      'Home Decor': 'Household',
      'Coins & Currency': 'Coins',
      Stamps: 'Stamps',
      Collectibles: 'Collectibles',
      Sports: 'Sports Memorabilia',
      Books: 'Books',
      Automobiles: 'Cars/Trucks',
      'Wine & Spirits': 'Wine',
      'Musical Instruments': 'Musical Instruments',
      'Designer Items': 'Designer',
      'Real Estate': 'Real Estate',
    },
    other: 'Misc',
  },
  LiveAuctioneers: {
    auction: {
      art: 'Art',
      jewelry: 'Jewelry',
      vehicles: 'Automobiles & Vehicles',
      'real-estate': 'Real Estate',
      collectibles: 'Collectibles',
    },
    lot: {
      Art: 'Art',
      Jewelry: 'Jewelry',
      Watches: 'Watches',
      Antiques: 'Antiques',
      Furniture: 'Furniture',
      'Home Decor': 'Decorative Arts',
      'Coins & Currency': 'Coins, Currency & Stamps',
      Stamps: 'Coins, Currency & Stamps',
      Collectibles: 'Collectibles',
      Sports: 'Sporting Goods & Memorabilia',
      Books: 'Books, Magazines & Paper',
      Automobiles: 'Automobiles & Vehicles',
      'Wine & Spirits': 'Wine & Spirits',
      'Musical Instruments': 'Musical Instruments',
      'Designer Items': 'Fashion',
      'Real Estate': 'Real Estate',
    },
    other: 'Other',
  },
  BidSquare: {
    auction: {
      art: 'Fine Art',
      jewelry: 'Jewelry & Timepieces',
      vehicles: 'Motor Vehicles',
      'real-estate': 'Property',
      collectibles: 'Antiques & Collectibles',
    },
    lot: {
      Art: 'Fine Art',
      Jewelry: 'Jewelry & Timepieces',
      Watches: 'Jewelry & Timepieces',
      Antiques: 'Antiques & Collectibles',
      Furniture: 'Furniture',
      'Home Decor': 'Decorative Arts',
      'Coins & Currency': 'Coins & Currency',
      Stamps: 'Stamps',
      Collectibles: 'Antiques & Collectibles',
      Sports: 'Sports Memorabilia',
      Books: 'Books & Manuscripts',
      Automobiles: 'Motor Vehicles',
      'Wine & Spirits': 'Wine & Spirits',
      'Musical Instruments': 'Musical Instruments',
      'Designer Items': 'Fashion & Accessories',
      'Real Estate': 'Property',
    },
    other: 'Miscellaneous',
  },
};

/** Every word a platform knows, in a fixed order (BidSquare numbers its categories by it). */
export function wordsOf(platform: Platform): string[] {
  const vocabulary = vocabularies[platform];
  return [
    ...new Set([
      ...Object.values(vocabulary.auction),
      ...Object.values(vocabulary.lot),
      vocabulary.other,
    ]),
  ];
}
