import type { AuctionCategory, AuctionType } from '../../src/auctions/auctions.schema.js';
import type { LotTopic } from './vocabulary.js';

/** What the seeded sales and lots are made of: themes, lot titles and their estimates. */

export interface Theme {
  title: string;
  category: AuctionCategory;
  topics: LotTopic[];
  types: AuctionType[];
  /** Some sales are short (cars, property). */
  maxLots?: number;
}

export const themes: Theme[] = [
  {
    title: 'Fine Art & Prints',
    category: 'art',
    topics: ['Art', 'Art', 'Art', 'Books'],
    types: ['Live', 'Hybrid'],
  },
  {
    title: 'Fine Jewelry & Timepieces',
    category: 'jewelry',
    topics: ['Jewelry', 'Jewelry', 'Watches'],
    types: ['Online', 'Hybrid'],
  },
  {
    title: 'Estate Furniture & Decorative Arts',
    category: 'collectibles',
    topics: ['Furniture', 'Home Decor', 'Antiques'],
    types: ['Live', 'Online'],
  },
  {
    title: 'Coins, Currency & Stamps',
    category: 'collectibles',
    topics: ['Coins & Currency', 'Coins & Currency', 'Stamps'],
    types: ['Online'],
  },
  {
    title: 'Classic & Collector Cars',
    category: 'vehicles',
    topics: ['Automobiles'],
    types: ['Live', 'Hybrid'],
    maxLots: 14,
  },
  {
    title: 'Sports Memorabilia',
    category: 'collectibles',
    topics: ['Sports', 'Sports', 'Collectibles'],
    types: ['Online'],
  },
  {
    title: 'Rare Books & Manuscripts',
    category: 'collectibles',
    topics: ['Books'],
    types: ['Online', 'Hybrid'],
  },
  {
    title: 'Maritime Antiques',
    category: 'collectibles',
    topics: ['Antiques', 'Art', 'Collectibles'],
    types: ['Live', 'Hybrid'],
  },
  {
    title: 'Waterfront & Country Property',
    category: 'real-estate',
    topics: ['Real Estate'],
    types: ['Live'],
    maxLots: 8,
  },
  {
    title: 'Wine & Spirits',
    category: 'collectibles',
    topics: ['Wine & Spirits'],
    types: ['Online'],
  },
  {
    title: 'Toys, Trains & Collectibles',
    category: 'collectibles',
    topics: ['Collectibles'],
    types: ['Online'],
  },
  {
    title: 'Modern & Contemporary Art',
    category: 'art',
    topics: ['Art'],
    types: ['Live', 'Hybrid'],
  },
  {
    title: 'Musical Instruments',
    category: 'collectibles',
    topics: ['Musical Instruments'],
    types: ['Online', 'Live'],
  },
  {
    title: 'Designer Handbags & Jewelry',
    category: 'jewelry',
    topics: ['Designer Items', 'Jewelry'],
    types: ['Online'],
  },
];

/**
 * Lot titles per topic (`{a}` and `{b}`, where a title has them, are filled from the topic's
 * parts) and the range of low estimates in major units.
 */
export const lotWords: Record<
  LotTopic,
  { titles: string[]; a?: string[]; b?: string[]; low: [number, number] }
> = {
  Art: {
    titles: [
      '{a}, {b}, oil on canvas, signed lower right',
      '{a}, {b}, watercolor on paper, framed',
      '{a}, {b}, lithograph, signed and numbered',
      '{a}, {b}, etching, pencil signed',
    ],
    a: [
      'Eliza Whitcomb (American, 1861-1932)',
      'J. R. Halloran (19th c.)',
      'Marguerite Ellery (French, b. 1948)',
      'Thomas Ashdown (British, 1890-1961)',
      'Clara Venn (American, b. 1962)',
      'School of the Cape Ann painters',
    ],
    b: [
      'Harbor at Dusk',
      'Schooner off Marblehead',
      'Still Life with Peonies',
      'Autumn in the Berkshires',
      'Portrait of a Lady in Blue',
      'Gloucester Docks',
      'Winter Street Scene',
      'Abstract Composition No. 7',
    ],
    low: [300, 12_000],
  },
  Jewelry: {
    titles: ['{a} {b}', '{a} {b}, circa 1925', 'Estate {a} {b}'],
    a: ['14K yellow gold', '18K white gold', 'Platinum', 'Sterling silver', 'Art Deco platinum'],
    b: [
      'and 1.02 ct diamond solitaire ring',
      'sapphire and diamond bracelet',
      'natural pearl pendant necklace',
      'emerald and diamond brooch',
      'opal drop earrings',
      'diamond tennis bracelet, 4.5 ctw',
    ],
    low: [250, 9_000],
  },
  Watches: {
    titles: ['{a} {b}', '{a} {b}, with box and papers'],
    a: [
      "Gentleman's Swiss 18K gold",
      "Lady's platinum and diamond",
      'Stainless steel',
      'American railroad grade',
      'Vintage gold-filled',
    ],
    b: [
      'automatic wristwatch, circa 1962',
      'chronograph wristwatch',
      'cocktail watch',
      'open-face pocket watch',
      'dive watch, 300 m',
    ],
    low: [200, 6_000],
  },
  Antiques: {
    titles: [
      'Federal inlaid mahogany tea caddy, circa 1810',
      'Pair of Chinese export porcelain vases, 19th century',
      'Georgian sterling silver tea service, five pieces',
      "Brass and mahogany ship's telescope",
      'Copper running horse weathervane, old verdigris',
      'Set of six English pewter chargers',
      'Cased ship model of the schooner Bluenose',
      "Sailor's valentine, octagonal, shellwork",
    ],
    low: [150, 5_000],
  },
  Furniture: {
    titles: ['{a} {b}', '{a} {b}, old surface'],
    a: [
      'Chippendale mahogany',
      'Louis XV style giltwood',
      'Mid-century walnut',
      'Victorian carved oak',
      'Sheraton tiger maple',
      'Danish modern teak',
    ],
    b: [
      'slant-front desk',
      'pair of bergères',
      'sideboard',
      'hall tree',
      'four-poster bed',
      'dining table with six chairs',
      'tall case clock',
      'chest of drawers',
    ],
    low: [300, 8_000],
  },
  'Home Decor': {
    titles: [
      'Persian Heriz carpet, 9 x 12 ft',
      'Gilt bronze mantel clock, French, circa 1870',
      'Leaded glass table lamp with bronze base',
      'Pair of Venetian glass sconces',
      'Hand-painted porcelain centerpiece bowl',
      'Carved giltwood overmantel mirror',
    ],
    low: [150, 4_000],
  },
  'Coins & Currency': {
    titles: ['{a} {b}'],
    a: [
      '1893-S Morgan silver dollar,',
      '1924 $20 gold Double Eagle,',
      '1862 $1 Legal Tender note,',
      '1909-S VDB Lincoln cent,',
      '1916-D Mercury dime,',
      'Roll of 1964 Kennedy half dollars,',
    ],
    b: ['VF-20', 'MS-63', 'PCGS graded', 'uncirculated', 'fine, original surfaces'],
    low: [50, 6_000],
  },
  Stamps: {
    titles: [
      'Collection of US plate blocks, 1930-1960',
      'British Commonwealth album, 1,200+ stamps',
      'Zeppelin flight cover, 1933',
      'US airmail collection, mint never hinged',
      'Worldwide stockbook, mixed condition',
      'Columbian Exposition issue, 1893, partial set',
    ],
    low: [40, 2_000],
  },
  Collectibles: {
    titles: [
      'Cast iron mechanical bank, circa 1890',
      'Prewar O gauge train set with transformer',
      'Vintage movie poster, 1954, linen backed',
      'Tin lithograph toy robot, original box',
      'Set of twelve jointed teddy bears',
      'Porcelain enamel advertising sign',
      'Lunch box collection (18), 1960s',
    ],
    low: [50, 2_500],
  },
  Sports: {
    titles: [
      '1952 baseball card, PSA 6',
      'Game-used baseball bat, signed, with letter of authenticity',
      'Championship pennant, 1967, framed',
      'Signed hockey jersey, team signed',
      'Signed football with display case',
      'Ticket stub collection, 1940s-1960s',
    ],
    low: [100, 8_000],
  },
  Books: {
    titles: [
      'First edition, first printing, 1925, in dust jacket',
      'Atlas of New England, 1856, hand-colored maps',
      'Signed Civil War letter, 1862, two pages',
      'Set of Dickens, 22 volumes, half leather',
      'Whaling logbook, 1849-1851, manuscript',
      'Early American almanac collection (12)',
    ],
    low: [100, 6_000],
  },
  Automobiles: {
    titles: ['{a} {b}'],
    a: ['1967', '1957', '1931', '1972', '1965', '1948'],
    b: [
      'convertible, 289 V8, restored',
      'two-door hardtop coupe, numbers matching',
      'roadster, older restoration',
      'British roadster, 4-speed',
      'pickup truck, original paint',
      'woody station wagon',
    ],
    low: [8_000, 90_000],
  },
  'Wine & Spirits': {
    titles: [
      'Six bottles Bordeaux, 2005',
      'Case of vintage port, 1994',
      'Single malt Scotch, 25 years old',
      'Three bottles Burgundy Grand Cru, 2010',
      'Mixed case of Napa Cabernet, cellared since release',
      'Two magnums of Champagne, 2008',
    ],
    low: [100, 4_000],
  },
  'Musical Instruments': {
    titles: [
      'Violin labeled Stainer, with bow and case',
      'Archtop guitar, 1950s, original case',
      'Baby grand piano, ebonized case, 5 ft 7 in',
      'Brass cornet, circa 1900',
      'Five-string banjo, resonator, original case',
      'Wooden flute, 19th century',
    ],
    low: [200, 15_000],
  },
  'Designer Items': {
    titles: ['{a} {b}'],
    a: ['Black calfskin', 'Quilted lambskin', 'Silk twill', 'Crocodile embossed', 'Vintage tweed'],
    b: [
      'top-handle handbag',
      'flap bag with chain strap',
      'scarves (set of six)',
      'travel case',
      'jacket, size 38',
    ],
    low: [100, 3_000],
  },
  'Real Estate': {
    titles: ['{a} {b}'],
    a: [
      'Three-bedroom colonial on 0.4 acres,',
      'Waterfront lot, 1.2 acres,',
      'Two-family home,',
      'Commercial building, 6,000 sq ft,',
      'Wooded parcel, 12 acres,',
    ],
    b: ['Marblehead, MA', 'Bristol, RI', 'Kennebunk, ME', 'Mystic, CT', 'Woodstock, VT'],
    low: [80_000, 900_000],
  },
};

export const conditions = [
  'Good condition with wear consistent with age.',
  'Excellent condition.',
  'Some restoration; see photographs.',
  'Sold as is; buyers should inspect.',
  'Minor losses to the finish.',
];

export const provenances = [
  'Provenance: a Beacon Hill estate.',
  'From a private New England collection.',
  "Consigned by the original owner's family.",
  'Acquired from the artist by the present owner.',
  '',
];

export const consignors = [
  'Estate of Margaret Holloway',
  'Private collection, Newport RI',
  'The Pemberton Family Trust',
  'A Cape Cod collector',
  'Estate of Dr. Arthur Lindqvist',
  'Corporate collection, Hartford CT',
];

export const firstNames = [
  'Abigail',
  'Adrian',
  'Alice',
  'Arthur',
  'Beatrice',
  'Caleb',
  'Catherine',
  'Charles',
  'Clara',
  'Colin',
  'Diana',
  'Edward',
  'Eleanor',
  'Elliot',
  'Evelyn',
  'Frances',
  'Frederick',
  'George',
  'Harriet',
  'Hugo',
  'Imogen',
  'Isaac',
  'Jasper',
  'Josephine',
  'Julia',
  'Lawrence',
  'Leo',
  'Lillian',
  'Louisa',
  'Margaret',
  'Martin',
  'Matilda',
  'Miles',
  'Nathaniel',
  'Nora',
  'Oliver',
  'Penelope',
  'Philip',
  'Quentin',
  'Rebecca',
  'Ruth',
  'Simon',
  'Stella',
  'Thomas',
  'Vera',
  'Walter',
  'Wesley',
  'Winifred',
  'Yusuf',
  'Zora',
];

export const lastNames = [
  'Abbott',
  'Ashworth',
  'Bellamy',
  'Blackwood',
  'Calloway',
  'Chandler',
  'Crane',
  'Darrow',
  'Eastman',
  'Fairfax',
  'Fenwick',
  'Garrison',
  'Goodwin',
  'Hale',
  'Hargrove',
  'Holloway',
  'Jennings',
  'Kendrick',
  'Lowell',
  'Lyman',
  'Mercer',
  'Morrow',
  'Nolan',
  'Okonkwo',
  'Parrish',
  'Prescott',
  'Quincy',
  'Radcliffe',
  'Ramsey',
  'Sato',
  'Sinclair',
  'Stanhope',
  'Talbot',
  'Thorne',
  'Underwood',
  'Vance',
  'Wakefield',
  'Whitaker',
  'Winthrop',
  'Yates',
];

export const areaCodes = ['617', '508', '401', '207', '603', '802', '860', '212', '312', '415'];
