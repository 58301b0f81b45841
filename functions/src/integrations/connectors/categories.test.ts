import { describe, expect, it } from 'vitest';
import {
  lotTopics,
  vocabularies,
  wordsOf,
  type LotTopic,
} from '../../../dev/platforms/vocabulary.js';
import { auctionCategories, platforms } from '../../auctions/auctions.schema.js';
import { preferredCategories } from '../../bidders/bidders.schema.js';
import {
  isKnownCategory,
  lotwiseCategoryOf,
  lotwiseLotCategoryOf,
  platformCategoryOf,
} from './categories.js';

describe.each(platforms)('%s categories', (platform) => {
  const vocabulary = vocabularies[platform];

  it('knows every word the platform writes', () => {
    expect(wordsOf(platform).filter((word) => !isKnownCategory(platform, word))).toEqual([]);
  });

  it("reads the platform's word for each kind of sale as that Lotwise category", () => {
    for (const category of auctionCategories) {
      expect(lotwiseCategoryOf(platform, vocabulary.auction[category])).toBe(category);
    }
  });

  it('reads a lot word as its Lotwise lot category, or one it shares the word with', () => {
    for (const topic of lotTopics) {
      const word = vocabulary.lot[topic];
      const sharing = lotTopics.filter((other) => vocabulary.lot[other] === word);
      const expected = sharing.flatMap((other) =>
        (preferredCategories as readonly string[]).includes(other) ? [other] : [],
      );
      const read = lotwiseLotCategoryOf(platform, word);
      if (expected.length === 0) expect(read).toBeNull();
      else expect(expected).toContain(read);
    }
  });

  it("pushes each Lotwise category as the platform's own word for it", () => {
    for (const category of auctionCategories) {
      const word = platformCategoryOf(platform, 'auction', category);
      expect(wordsOf(platform)).toContain(word);
      expect(lotwiseCategoryOf(platform, word)).toBe(category);
    }
    for (const category of preferredCategories) {
      // The platform's own word for it, or its catch-all where it has none.
      const own = (lotTopics as readonly string[]).includes(category)
        ? vocabulary.lot[category as LotTopic]
        : vocabulary.other;
      expect(platformCategoryOf(platform, 'lot', category)).toBe(own);
    }
  });
});

describe('category words', () => {
  it('match whatever the case, accents or punctuation', () => {
    expect(lotwiseLotCategoryOf('ProxyBid', 'home decor')).toBe('Home Decor');
    expect(lotwiseLotCategoryOf('BidWrangler', 'Fine Art')).toBe('Art');
    expect(lotwiseCategoryOf('Auction.zip', 'CARS / TRUCKS')).toBe('vehicles');
  });

  it('file a word no table knows under collectibles, with no lot category', () => {
    expect(lotwiseCategoryOf('Invaluable', 'Taxidermy')).toBe('collectibles');
    expect(lotwiseLotCategoryOf('Invaluable', 'Taxidermy')).toBeNull();
    expect(lotwiseCategoryOf('Invaluable', null)).toBe('collectibles');
  });

  it("keep a platform's own word when Lotwise pushes one", () => {
    expect(platformCategoryOf('LiveAuctioneers', 'lot', 'Sporting Goods & Memorabilia')).toBe(
      'Sporting Goods & Memorabilia',
    );
    expect(platformCategoryOf('BidSquare', 'lot', 'Kitchenware')).toBe('Miscellaneous');
  });
});
