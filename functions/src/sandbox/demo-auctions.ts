import { DateTime } from 'luxon';
import {
  cancelAuction,
  createAuction,
  getAuction,
  goLive,
  publishAuction,
} from '../auctions/auctions.service.js';
import type { AuctionInput } from '../auctions/auctions.schema.js';
import { closeAuction } from '../auctions/lifecycle.service.js';
import { createLot, recordResult } from '../auctions/lots/lots.service.js';
import type { LotInput } from '../auctions/lots/lots.schema.js';
import {
  decide,
  inviteBidders,
  register,
} from '../auctions/registrations/registrations.service.js';
import { housesOf } from '../identity/accounts/accounts.service.js';
import { listBidders } from '../bidders/bidders.service.js';
import type { RequestContext } from '../platform/context.js';
import { generator } from './demo-bidders.js';

/**
 * Harborview's auctions as a newcomer should find them: three sales closed with their results
 * (so bidders carry real history and the inventory's suggestions learn from them), one live and
 * part-clerked, one upcoming with registrations waiting for review and invitations out, a draft,
 * and a cancelled sale. Deterministic, like the bidders, and built through the auctions services
 * so every rule applies as it would by hand.
 */

type Plan = {
  title: string;
  category: AuctionInput['category'];
  subcategory: string;
  house: 0 | 1;
  /** Days from today (house-local) the sale starts, and how many days it runs. */
  startsIn: number;
  days: number;
  lots: { title: string; category: LotInput['category']; low: number }[];
  registrants: number;
  outcome: 'completed' | 'active' | 'upcoming' | 'draft' | 'cancelled';
  /**
   * How the room bid, for the sales clerked here: the chance a lot passed and the hammer's range
   * as a percentage of the low estimate. A typical sale passes a fifth and hammers at 70-180%.
   */
  demand?: { passRate: number; hammer: [number, number] };
};

const plans: Plan[] = [
  {
    title: 'Autumn Fine Art Evening Sale',
    category: 'art',
    subcategory: 'American paintings',
    house: 0,
    startsIn: -62,
    days: 1,
    registrants: 12,
    outcome: 'completed',
    lots: [
      { title: 'Harbor at Dusk, oil on canvas', category: 'Art', low: 8_000 },
      { title: 'Study of Gulls, watercolour', category: 'Art', low: 1_200 },
      { title: 'Portrait of a Captain, oil on board', category: 'Art', low: 4_500 },
      { title: 'Cape Ann Dunes, pastel', category: 'Art', low: 900 },
      { title: 'Bronze figure of a fisherman', category: 'Antiques', low: 2_500 },
      { title: 'Still Life with Lemons, oil', category: 'Art', low: 3_000 },
      { title: 'Marsh at Low Tide, etching', category: 'Art', low: 400 },
      { title: 'Federal giltwood mirror', category: 'Furniture', low: 1_800 },
      { title: 'Winter Street, gouache', category: 'Art', low: 700 },
      { title: 'Clipper Ship Ariel, lithograph', category: 'Art', low: 350 },
    ],
  },
  {
    title: 'Estate Jewelry & Watches',
    category: 'jewelry',
    subcategory: 'Estate jewelry',
    house: 1,
    startsIn: -21,
    days: 2,
    registrants: 10,
    outcome: 'completed',
    lots: [
      { title: 'Art Deco diamond bracelet', category: 'Jewelry', low: 6_000 },
      { title: 'Gold pocket watch, 1910', category: 'Watches', low: 1_500 },
      { title: 'Sapphire and pearl brooch', category: 'Jewelry', low: 1_100 },
      { title: 'Steel chronograph wristwatch', category: 'Watches', low: 2_800 },
      { title: 'Victorian mourning locket', category: 'Jewelry', low: 450 },
      { title: 'Emerald cocktail ring', category: 'Jewelry', low: 3_200 },
      { title: 'Silver cufflinks, pair', category: 'Jewelry', low: 250 },
      { title: 'Cameo necklace', category: 'Jewelry', low: 600 },
    ],
  },
  {
    title: 'Winter Collectibles Online',
    category: 'collectibles',
    subcategory: 'Coins and ephemera',
    house: 1,
    startsIn: -1,
    days: 6,
    registrants: 8,
    outcome: 'active',
    lots: [
      { title: 'Morgan silver dollar, 1884-CC', category: 'Coins & Currency', low: 300 },
      { title: 'First-day covers, album of 40', category: 'Stamps', low: 150 },
      { title: 'Signed 1967 baseball', category: 'Sports', low: 800 },
      { title: 'Tin toy fire engine', category: 'Collectibles', low: 220 },
      { title: 'Whaling log book, 1851', category: 'Books', low: 2_000 },
      { title: 'Lighthouse lens fragment', category: 'Antiques', low: 1_300 },
    ],
  },
  {
    title: 'Spring Americana',
    category: 'art',
    subcategory: 'Folk art and furniture',
    house: 0,
    startsIn: 21,
    days: 1,
    registrants: 9,
    outcome: 'upcoming',
    lots: [
      { title: 'Painted blanket chest', category: 'Furniture', low: 1_500 },
      { title: 'Weathervane, copper horse', category: 'Antiques', low: 4_000 },
      { title: 'Quilt, Star of Bethlehem', category: 'Home Decor', low: 900 },
      { title: 'Shaker side chair', category: 'Furniture', low: 700 },
      { title: 'Ship portrait, reverse glass', category: 'Art', low: 1_100 },
    ],
  },
  {
    title: 'Vintage Motorcars',
    category: 'vehicles',
    subcategory: 'Classic cars',
    house: 1,
    startsIn: 60,
    days: 1,
    registrants: 0,
    outcome: 'draft',
    lots: [
      { title: '1957 roadster, restored', category: 'Automobiles', low: 45_000 },
      { title: '1964 convertible coupe', category: 'Automobiles', low: 38_000 },
      { title: 'Enamel dealer sign', category: 'Collectibles', low: 600 },
    ],
  },
  {
    title: 'Waterfront Property Auction',
    category: 'real-estate',
    subcategory: 'Commercial',
    house: 1,
    startsIn: 10,
    days: 1,
    registrants: 0,
    outcome: 'cancelled',
    lots: [],
  },
  // Last, so the sales above keep the results they always had (one generator runs through all).
  {
    title: 'Important American Silver',
    category: 'collectibles',
    subcategory: 'Silver',
    house: 0,
    startsIn: -40,
    days: 1,
    registrants: 14,
    outcome: 'completed',
    // A specialist sale to a full room: the house's silver record that the inventory learns from.
    demand: { passRate: 0.05, hammer: [120, 200] },
    lots: [
      { title: 'Coin silver teapot, Boston', category: 'Antiques', low: 2_400 },
      { title: 'Pair of sterling candlesticks', category: 'Antiques', low: 1_800 },
      { title: 'Georgian silver salver, London', category: 'Antiques', low: 1_500 },
      { title: 'Sterling tea and coffee service', category: 'Antiques', low: 6_000 },
      { title: 'Coin silver beaker, Newport', category: 'Antiques', low: 900 },
      { title: 'Sterling punch bowl, Tiffany', category: 'Antiques', low: 5_500 },
      { title: 'Silver cream jug, Philadelphia', category: 'Antiques', low: 700 },
      { title: 'Sterling flatware, Francis I', category: 'Antiques', low: 3_200 },
      { title: 'Georgian silver tankard', category: 'Antiques', low: 2_800 },
      { title: 'Sterling bread tray, Gorham', category: 'Antiques', low: 1_100 },
      { title: 'Coin silver sugar tongs', category: 'Antiques', low: 250 },
      { title: 'Sterling centerpiece epergne', category: 'Antiques', low: 4_200 },
      { title: 'Silver porringer, Boston', category: 'Antiques', low: 1_600 },
      { title: 'Sterling goblets, set of six', category: 'Antiques', low: 1_300 },
      { title: 'Georgian silver cake basket', category: 'Antiques', low: 2_100 },
      { title: 'Sterling water pitcher, repoussé', category: 'Antiques', low: 1_400 },
      { title: 'Coin silver ladle, Salem', category: 'Antiques', low: 400 },
      { title: 'Sterling tray, Reed & Barton', category: 'Antiques', low: 2_600 },
      { title: 'Pair of silver sauce boats', category: 'Antiques', low: 1_900 },
      { title: 'Sterling tea caddy, Shreve', category: 'Antiques', low: 1_000 },
    ],
  },
];

const cents = (dollars: number) => Math.round(dollars * 100);

export async function seedDemoAuctions(ctx: RequestContext): Promise<void> {
  const random = generator(20261124);
  const houses = await housesOf(ctx.scope);
  const bidders = (
    await listBidders(ctx, { scoreType: 'lotwise', sort: 'desc', limit: 200 })
  ).bidders.toSorted((a, b) => a.bidderId.localeCompare(b.bidderId));
  const today = DateTime.now().setZone('America/New_York').startOf('day');
  for (const [index, plan] of plans.entries()) {
    const start = today.plus({ days: plan.startsIn });
    const end = start.plus({ days: plan.days });
    const house = houses[plan.house] ?? houses[0];
    const auction = await createAuction(ctx, {
      title: plan.title,
      type: index % 2 ? 'Online' : 'Live',
      category: plan.category,
      subcategory: plan.subcategory,
      description: `${plan.lots.length} lots from New England estates and collections.`,
      notes: '',
      location: house ? `${house.address}, ${house.city}` : '',
      startDate: start.toFormat('yyyy-MM-dd'),
      startTime: '18:00',
      endDate: end.toFormat('yyyy-MM-dd'),
      endTime: '21:00',
      timeZone: 'America/New_York',
      buyersPremium: 25,
      buyersPremiumDescription: '25% of the hammer price on every lot.',
      currency: 'USD',
      auctionHouseId: house?.id ?? null,
      registrationRequired: true,
      requirements: ['Government-issued photo ID', 'A card on file before bidding'],
      paymentMethods: ['Credit Card', 'Wire Transfer', 'Check'],
      biddingIncrements: [
        { from: 0, increment: cents(25) },
        { from: cents(500), increment: cents(50) },
        { from: cents(2_000), increment: cents(100) },
        { from: cents(10_000), increment: cents(500) },
      ],
      biddingDeposits:
        plan.category === 'vehicles'
          ? [{ description: 'Vehicle deposit', amount: cents(2_500) }]
          : [],
      shippingOptions: [
        {
          name: 'Collection from the saleroom',
          price: 0,
          description: 'Within 14 days of the sale.',
        },
        { name: 'Insured courier', price: null, description: 'Quoted per lot.' },
      ],
      terms: 'All lots are sold as is. Payment is due within 7 days of the sale.',
    });
    const lots = [];
    for (const [number, lot] of plan.lots.entries()) {
      lots.push(
        await createLot(ctx, auction.id, {
          lotNumber: String(number + 1),
          title: lot.title,
          description: '',
          category: lot.category,
          estimateLow: cents(lot.low),
          estimateHigh: cents(lot.low * 1.6),
          reserve: number % 3 === 0 ? cents(lot.low * 0.8) : null,
          consignor: {
            name: random.pick(['The Whitcomb Estate', 'A Portland collector', 'The Avery Trust']),
            contact: '',
          },
          inventoryItemId: null,
        }),
      );
    }
    if (plan.outcome === 'draft') continue;
    if (plan.outcome === 'cancelled') {
      await cancelAuction(ctx, auction.id, 'The seller withdrew the property');
      continue;
    }
    await publishAuction(ctx, auction.id);
    const offset = random.int(0, Math.max(0, bidders.length - plan.registrants - 1));
    const chosen = bidders.slice(offset, offset + plan.registrants);
    const approved: { id: string; limit: number | null }[] = [];
    for (const bidder of chosen) {
      const registration = await register(ctx, auction.id, { bidderId: bidder.id });
      // Past and live sales had every pending registration reviewed; the upcoming one waits.
      if (registration.status === 'pending' && plan.outcome !== 'upcoming') {
        const reviewed = await decide(ctx, auction.id, bidder.id, {
          decision: 'approve',
          reason: 'Known to the saleroom',
        });
        approved.push({ id: bidder.id, limit: reviewed.bidLimit });
      } else if (registration.status === 'approved') {
        approved.push({ id: bidder.id, limit: registration.bidLimit });
      }
    }
    if (plan.outcome === 'upcoming') {
      const invitees = bidders
        .filter((bidder) => !chosen.includes(bidder) && bidder.autoInviteStatus === 'Auto-Invite')
        .slice(0, 4);
      if (invitees.length) {
        await inviteBidders(
          ctx,
          auction.id,
          { bidderIds: invitees.map((bidder) => bidder.id) },
          'Harborview Auctions',
        );
      }
      continue;
    }
    // Its start has passed, so the go-live timer may take it live first: the same move, made.
    await goLive(ctx, auction.id).catch(async (error: unknown) => {
      if ((await getAuction(ctx, auction.id)).status !== 'Active') throw error;
    });
    const toClerk = plan.outcome === 'active' ? lots.slice(0, 3) : lots;
    for (const lot of toClerk) {
      const low = lot.estimateLow ?? 0;
      const [fewest, most] = plan.demand?.hammer ?? [70, 180];
      const hammer = Math.round((low * random.int(fewest, most)) / 100 / 100) * 100;
      const able = approved.filter((bidder) => bidder.limit === null || bidder.limit >= hammer);
      if (
        random.next() < (plan.demand?.passRate ?? 0.2) ||
        able.length === 0 ||
        (lot.reserve !== null && hammer < lot.reserve)
      ) {
        await recordResult(ctx, auction.id, lot.id, {
          outcome: 'passed',
          underbidders: [],
          bidCount: random.int(0, 3),
        });
        continue;
      }
      const buyer = random.pick(able);
      const underbidder = random.pick(
        approved.filter((bidder) => bidder.id !== buyer.id).length
          ? approved.filter((bidder) => bidder.id !== buyer.id)
          : [buyer],
      );
      await recordResult(ctx, auction.id, lot.id, {
        outcome: 'sold',
        hammer,
        bidderId: buyer.id,
        bidCount: random.int(2, 14),
        underbidders: underbidder.id === buyer.id ? [] : [underbidder.id],
      });
    }
    if (plan.outcome === 'completed') await closeAuction(ctx, auction.id);
  }
}
