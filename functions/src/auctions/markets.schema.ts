/**
 * The currencies auctions are held in and the bidding platforms they are listed on: a leaf module,
 * so the bidders' contracts can name them without importing the auctions' (which import theirs).
 */
export const currencies = ['USD', 'EUR', 'GBP', 'JPY'] as const;
export type Currency = (typeof currencies)[number];
export const currencySymbols: Record<Currency, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥' };
/** Minor units per major unit: the yen has none. */
export const currencyExponent: Record<Currency, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0 };

/** The bidding platforms an auction can come from. */
export const platforms = [
  'ProxyBid',
  'BidWrangler',
  'Invaluable',
  'Auction.zip',
  'LiveAuctioneers',
  'BidSquare',
] as const;
export type Platform = (typeof platforms)[number];
