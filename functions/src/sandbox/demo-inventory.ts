import { DateTime } from 'luxon';
import type { ItemInput } from '../inventory/inventory.schema.js';
import { createItem } from '../inventory/inventory.service.js';
import type { RequestContext } from '../platform/context.js';

/**
 * Harborview's stock room as a newcomer should find it: pieces in every category and most
 * statuses, from consignors and the house's own buying, with estimates that the suggestions score
 * against the demo's closed sales. Built through the inventory service, so every rule applies.
 */

type Piece = Pick<ItemInput, 'title' | 'category' | 'condition' | 'status' | 'subcategory'> & {
  /** Low and high estimate in dollars. */
  estimate: [number, number];
  /** Days ago it came in. */
  acquired: number;
  location: string;
  description: string;
  consignor?: string;
};

const pieces: Piece[] = [
  {
    title: 'Harbor Light, oil on canvas',
    category: 'Art',
    subcategory: 'American paintings',
    condition: 'Excellent',
    status: 'Available',
    estimate: [6_000, 9_000],
    acquired: 40,
    location: 'Boston, rack B2',
    description: 'Signed lower right; period frame. A view across the inner harbor at dusk.',
    consignor: 'The Whitcomb Estate',
  },
  {
    title: 'Nantucket Dunes, watercolour',
    category: 'Art',
    subcategory: 'Works on paper',
    condition: 'Good',
    status: 'In Storage',
    estimate: [1_200, 1_800],
    acquired: 120,
    location: 'Portland, flat file 3',
    description: 'Framed under glass; light toning at the margins.',
    consignor: 'The Whitcomb Estate',
  },
  {
    title: 'Portrait of a Young Woman, pastel',
    category: 'Art',
    subcategory: 'Portraits',
    condition: 'Fair',
    status: 'On Hold',
    estimate: [800, 1_200],
    acquired: 75,
    location: 'Boston, conservation',
    description: 'Awaiting a conservator’s report on foxing at the lower edge.',
  },
  {
    title: 'Art Deco sapphire ring, platinum',
    category: 'Jewelry & Watches',
    subcategory: 'Rings',
    condition: 'Excellent',
    status: 'Available',
    estimate: [4_000, 6_000],
    acquired: 18,
    location: 'Portland, safe 1',
    description: 'Cushion sapphire of about 2.1 ct with calibré diamonds; size 6.',
    consignor: 'The Avery Trust',
  },
  {
    title: 'Gold hunter-case pocket watch',
    category: 'Jewelry & Watches',
    subcategory: 'Watches',
    condition: 'Good',
    status: 'In Storage',
    estimate: [1_500, 2_500],
    acquired: 200,
    location: 'Portland, safe 1',
    description: '18k case, keyless movement running; engraved monogram.',
    consignor: 'The Avery Trust',
  },
  {
    title: 'Steel diver’s wristwatch, 1968',
    category: 'Jewelry & Watches',
    subcategory: 'Watches',
    condition: 'Good',
    status: 'Reserved',
    estimate: [3_000, 4_500],
    acquired: 30,
    location: 'Portland, safe 2',
    description: 'Original bezel and bracelet; serviced this year.',
  },
  {
    title: 'Federal mahogany card table',
    category: 'Furniture',
    subcategory: 'American furniture',
    condition: 'Good',
    status: 'Available',
    estimate: [2_000, 3_000],
    acquired: 95,
    location: 'Boston, floor 2',
    description: 'Massachusetts, circa 1800; bird’s-eye maple inlay to the apron.',
    consignor: 'The Aldridge Estate',
  },
  {
    title: 'Chippendale slant-front desk',
    category: 'Furniture',
    subcategory: 'American furniture',
    condition: 'Fair',
    status: 'In Storage',
    estimate: [1_500, 2_500],
    acquired: 310,
    location: 'Portland, warehouse bay 4',
    description: 'Replaced brasses; a split to one side panel, stable.',
    consignor: 'The Aldridge Estate',
  },
  {
    title: 'Pair of Windsor side chairs',
    category: 'Furniture',
    subcategory: 'Seating',
    condition: 'Poor',
    status: 'Damaged',
    estimate: [300, 500],
    acquired: 150,
    location: 'Portland, warehouse bay 2',
    description: 'One back spindle broken in transit; claim filed with the shipper.',
  },
  {
    title: 'Coin silver pitcher, Boston',
    category: 'Silver',
    subcategory: 'Hollowware',
    condition: 'Excellent',
    status: 'Available',
    estimate: [1_800, 2_400],
    acquired: 25,
    location: 'Boston, silver vault',
    description: 'Maker’s mark of a Boston smith, circa 1830; 28 troy oz.',
    consignor: 'The Aldridge Estate',
  },
  {
    title: 'Sterling flatware service for twelve',
    category: 'Silver',
    subcategory: 'Flatware',
    condition: 'Good',
    status: 'In Storage',
    estimate: [2_500, 3_500],
    acquired: 60,
    location: 'Boston, silver vault',
    description: 'Chantilly pattern, 96 pieces in a fitted chest.',
  },
  {
    title: 'Sterling tea and coffee service, Gorham',
    category: 'Silver',
    subcategory: 'Hollowware',
    condition: 'Excellent',
    status: 'In Storage',
    estimate: [9_000, 14_000],
    acquired: 430,
    location: 'Boston, silver vault',
    description:
      'Five pieces with a matching tray, 1912; 212 troy oz. Kept for a specialist silver sale.',
    consignor: 'The Whitcomb Estate',
  },
  {
    title: 'Pair of Georgian silver candlesticks',
    category: 'Silver',
    subcategory: 'Candlesticks',
    condition: 'Excellent',
    status: 'Available',
    estimate: [4_000, 6_000],
    acquired: 390,
    location: 'Boston, silver vault',
    description: 'London, 1768; loaded bases, crisp gadrooning, matching hallmarks.',
    consignor: 'The Avery Trust',
  },
  {
    title: 'Georgian silver salver',
    category: 'Silver',
    subcategory: 'Hollowware',
    condition: 'Good',
    status: 'Withdrawn',
    estimate: [900, 1_400],
    acquired: 180,
    location: 'Returned to consignor',
    description: 'Withdrawn at the consignor’s request before cataloguing.',
    consignor: 'The Avery Trust',
  },
  {
    title: 'Crazy quilt, silk and velvet',
    category: 'Textiles',
    subcategory: 'Quilts',
    condition: 'Fair',
    status: 'In Storage',
    estimate: [400, 700],
    acquired: 240,
    location: 'Portland, textile store',
    description: 'Embroidered date 1889; some shattering to two silk patches.',
  },
  {
    title: 'Persian Heriz carpet, 9 × 12',
    category: 'Textiles',
    subcategory: 'Rugs',
    condition: 'Good',
    status: 'Available',
    estimate: [2_200, 3_200],
    acquired: 45,
    location: 'Boston, floor 1',
    description: 'Brick field with an indigo medallion; even low pile.',
    consignor: 'The Whitcomb Estate',
  },
  {
    title: 'Chinese export famille rose platter',
    category: 'Ceramics',
    subcategory: 'Export porcelain',
    condition: 'Excellent',
    status: 'Available',
    estimate: [1_000, 1_500],
    acquired: 12,
    location: 'Boston, case 6',
    description: 'Qianlong period, 14 in.; no repairs under UV.',
    consignor: 'The Aldridge Estate',
  },
  {
    title: 'Redware pie plate, slip-decorated',
    category: 'Ceramics',
    subcategory: 'American pottery',
    condition: 'Fair',
    status: 'In Storage',
    estimate: [250, 400],
    acquired: 400,
    location: 'Portland, shelf 12',
    description: 'Pennsylvania, 19th century; rim chips.',
  },
];

/** Creates the demo's inventory; `today` fixes the acquisition dates, for a deterministic seed. */
export async function seedDemoInventory(ctx: RequestContext, today = DateTime.utc()) {
  for (const piece of pieces) {
    await createItem(ctx, {
      title: piece.title,
      category: piece.category,
      subcategory: piece.subcategory,
      condition: piece.condition,
      status: piece.status,
      estimatedValue: { low: piece.estimate[0] * 100, high: piece.estimate[1] * 100 },
      location: piece.location,
      acquiredDate: today.minus({ days: piece.acquired }).toISODate() ?? undefined,
      description: piece.description,
      consignor: piece.consignor ? { name: piece.consignor, contact: '' } : null,
    });
  }
}
