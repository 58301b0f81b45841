import type { AuctionCategory, Platform } from '../../auctions/auctions.schema.js';
import type { preferredCategories } from '../../bidders/bidders.schema.js';

/**
 * What each platform's category words mean in Lotwise. Platforms write their own words ("Fine
 * Art", "fine-art", "Paintings", "Cars/Trucks"); one table per platform names, for each word, the
 * Lotwise auction category and lot category it stands for. A push writes the platform's word for
 * a Lotwise category: `auction` for a sale, and for a lot the first word in `words` that means
 * its category (so the specific words come before the broad ones); a category the platform has
 * no word for is sent as `other`. Where one word covers several Lotwise lot categories (Invaluable's
 * "Coins, Money & Stamps"), it reads back as the first.
 */

export type LotCategory = (typeof preferredCategories)[number];

interface CategoryTable {
  /** The word a pushed sale of each Lotwise category is filed under. */
  auction: Record<AuctionCategory, string>;
  /** Each word, what it reads as, and the other lot categories a push files under it. */
  words: [
    word: string,
    auction: AuctionCategory,
    lot: LotCategory | null,
    pushedFor?: LotCategory[],
  ][];
  /** Where the platform files anything else. */
  other: string;
}

/** A word the table does not know is filed under collectibles, the broadest category. */
export const FALLBACK_AUCTION_CATEGORY: AuctionCategory = 'collectibles';

export const categoryTables: Record<Platform, CategoryTable> = {
  ProxyBid: {
    auction: {
      art: 'Fine Art',
      jewelry: 'Jewelry & Watches',
      vehicles: 'Cars & Vehicles',
      'real-estate': 'Real Estate',
      collectibles: 'Antiques & Collectibles',
    },
    words: [
      ['Fine Art', 'art', 'Art'],
      ['Jewelry', 'jewelry', 'Jewelry'],
      ['Watches', 'jewelry', 'Watches'],
      ['Jewelry & Watches', 'jewelry', 'Jewelry'],
      ['Designer Handbags & Fashion', 'jewelry', 'Designer Items'],
      ['Antiques', 'collectibles', 'Antiques'],
      ['Furniture', 'collectibles', 'Furniture'],
      ['Home Décor', 'collectibles', 'Home Decor'],
      ['Coins & Currency', 'collectibles', 'Coins & Currency'],
      ['Stamps', 'collectibles', 'Stamps'],
      ['Collectibles', 'collectibles', 'Collectibles'],
      ['Antiques & Collectibles', 'collectibles', 'Antiques'],
      ['Sports Memorabilia', 'collectibles', 'Sports'],
      ['Books & Manuscripts', 'collectibles', 'Books'],
      ['Wine & Spirits', 'collectibles', 'Wine & Spirits'],
      ['Musical Instruments', 'collectibles', 'Musical Instruments'],
      ['Cars & Vehicles', 'vehicles', 'Automobiles'],
      ['Real Estate', 'real-estate', null],
      ['Other', 'collectibles', null],
    ],
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
    words: [
      ['fine-art', 'art', 'Art'],
      ['jewelry', 'jewelry', 'Jewelry'],
      ['watches', 'jewelry', 'Watches'],
      ['fashion', 'jewelry', 'Designer Items'],
      ['antiques', 'collectibles', 'Antiques'],
      ['furniture', 'collectibles', 'Furniture'],
      ['home-decor', 'collectibles', 'Home Decor'],
      ['coins', 'collectibles', 'Coins & Currency'],
      ['stamps', 'collectibles', 'Stamps'],
      ['collectibles', 'collectibles', 'Collectibles'],
      ['antiques-collectibles', 'collectibles', 'Antiques'],
      ['sports-memorabilia', 'collectibles', 'Sports'],
      ['books', 'collectibles', 'Books'],
      ['wine', 'collectibles', 'Wine & Spirits'],
      ['musical-instruments', 'collectibles', 'Musical Instruments'],
      ['vehicles', 'vehicles', 'Automobiles'],
      ['real-estate', 'real-estate', null],
      ['general', 'collectibles', null],
    ],
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
    words: [
      ['Paintings', 'art', 'Art'],
      ['Fine Art', 'art', 'Art'],
      ['Jewelry', 'jewelry', 'Jewelry'],
      ['Watches', 'jewelry', 'Watches'],
      ['Fashion', 'jewelry', 'Designer Items'],
      ['Antiques', 'collectibles', 'Antiques'],
      ['Furniture', 'collectibles', 'Furniture'],
      ['Decorative Arts', 'collectibles', 'Home Decor'],
      // One department for both: a stamp comes back as coins & currency.
      ['Coins, Money & Stamps', 'collectibles', 'Coins & Currency', ['Stamps']],
      ['Collectibles', 'collectibles', 'Collectibles'],
      ['Sports', 'collectibles', 'Sports'],
      ['Books, Maps & Manuscripts', 'collectibles', 'Books'],
      ['Wine', 'collectibles', 'Wine & Spirits'],
      ['Musical Instruments', 'collectibles', 'Musical Instruments'],
      ['Automobiles', 'vehicles', 'Automobiles'],
      ['Real Estate', 'real-estate', null],
      ['Other', 'collectibles', null],
    ],
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
    words: [
      ['Art', 'art', 'Art'],
      ['Jewelry', 'jewelry', 'Jewelry'],
      ['Watches', 'jewelry', 'Watches'],
      ['Designer', 'jewelry', 'Designer Items'],
      ['Antiques', 'collectibles', 'Antiques'],
      ['Furniture', 'collectibles', 'Furniture'],
      ['Household', 'collectibles', 'Home Decor'],
      ['Coins', 'collectibles', 'Coins & Currency'],
      ['Stamps', 'collectibles', 'Stamps'],
      ['Collectibles', 'collectibles', 'Collectibles'],
      ['Sports Memorabilia', 'collectibles', 'Sports'],
      ['Books', 'collectibles', 'Books'],
      ['Wine', 'collectibles', 'Wine & Spirits'],
      ['Musical Instruments', 'collectibles', 'Musical Instruments'],
      ['Cars/Trucks', 'vehicles', 'Automobiles'],
      ['Real Estate', 'real-estate', null],
      ['Misc', 'collectibles', null],
    ],
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
    words: [
      ['Art', 'art', 'Art'],
      ['Jewelry', 'jewelry', 'Jewelry'],
      ['Watches', 'jewelry', 'Watches'],
      ['Fashion', 'jewelry', 'Designer Items'],
      ['Antiques', 'collectibles', 'Antiques'],
      ['Furniture', 'collectibles', 'Furniture'],
      ['Decorative Arts', 'collectibles', 'Home Decor'],
      // One category for both: a stamp comes back as coins & currency.
      ['Coins, Currency & Stamps', 'collectibles', 'Coins & Currency', ['Stamps']],
      ['Collectibles', 'collectibles', 'Collectibles'],
      ['Sporting Goods & Memorabilia', 'collectibles', 'Sports'],
      ['Books, Magazines & Paper', 'collectibles', 'Books'],
      ['Wine & Spirits', 'collectibles', 'Wine & Spirits'],
      ['Musical Instruments', 'collectibles', 'Musical Instruments'],
      ['Automobiles & Vehicles', 'vehicles', 'Automobiles'],
      ['Real Estate', 'real-estate', null],
      ['Other', 'collectibles', null],
    ],
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
    words: [
      ['Fine Art', 'art', 'Art'],
      // One category for jewelry and watches: a watch comes back as jewelry.
      ['Jewelry & Timepieces', 'jewelry', 'Jewelry', ['Watches']],
      ['Fashion & Accessories', 'jewelry', 'Designer Items'],
      ['Furniture', 'collectibles', 'Furniture'],
      ['Decorative Arts', 'collectibles', 'Home Decor'],
      ['Coins & Currency', 'collectibles', 'Coins & Currency'],
      ['Stamps', 'collectibles', 'Stamps'],
      ['Antiques & Collectibles', 'collectibles', 'Antiques', ['Collectibles']],
      ['Sports Memorabilia', 'collectibles', 'Sports'],
      ['Books & Manuscripts', 'collectibles', 'Books'],
      ['Wine & Spirits', 'collectibles', 'Wine & Spirits'],
      ['Musical Instruments', 'collectibles', 'Musical Instruments'],
      ['Motor Vehicles', 'vehicles', 'Automobiles'],
      ['Property', 'real-estate', null],
      ['Miscellaneous', 'collectibles', null],
    ],
    other: 'Miscellaneous',
  },
};

/** Case, accents, spaces and signs do not tell words apart ("Home Decor" is "home-décor"). */
const normalise = (word: string) =>
  word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const lookups = new Map(
  Object.entries(categoryTables).map(([platform, table]) => [
    platform as Platform,
    new Map(
      table.words.map(([word, auction, lot]) => [normalise(word), { auction, lot }] as const),
    ),
  ]),
);

const meaningOf = (platform: Platform, name: string | null) =>
  name === null ? undefined : lookups.get(platform)?.get(normalise(name));

/** The Lotwise auction category a platform's word stands for; collectibles when it is unknown. */
export function lotwiseCategoryOf(platform: Platform, name: string | null): AuctionCategory {
  return meaningOf(platform, name)?.auction ?? FALLBACK_AUCTION_CATEGORY;
}

/** The Lotwise lot category a platform's word stands for; null when it names none. */
export function lotwiseLotCategoryOf(platform: Platform, name: string | null): LotCategory | null {
  return meaningOf(platform, name)?.lot ?? null;
}

/** Whether the table knows the word (else `lotwiseCategoryOf` fell back). */
export const isKnownCategory = (platform: Platform, name: string) =>
  meaningOf(platform, name) !== undefined;

/**
 * The platform's word for what Lotwise pushes: a Lotwise category (auction or lot) becomes the
 * platform's word for it; a word the platform already knows goes as it is.
 */
export function platformCategoryOf(
  platform: Platform,
  level: 'auction' | 'lot',
  category: string,
): string {
  const table = categoryTables[platform];
  const known = table.words.find(([word]) => normalise(word) === normalise(category));
  if (known) return known[0];
  if (level === 'auction' && category in table.auction) {
    return table.auction[category as AuctionCategory];
  }
  const byLot = table.words.find(([, , lot, pushedFor = []]) =>
    [lot, ...pushedFor].some((name) => name !== null && normalise(name) === normalise(category)),
  );
  if (byLot) return byLot[0];
  const byAuction = (Object.keys(table.auction) as AuctionCategory[]).find(
    (key) => normalise(key) === normalise(category),
  );
  return byAuction ? table.auction[byAuction] : table.other;
}
