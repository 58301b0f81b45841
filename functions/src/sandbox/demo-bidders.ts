import { randomUUID } from 'node:crypto';
import { writeNewBidders, type NewBidder } from '../bidders/bidder-import.service.js';
import { derive } from '../bidders/bidder-model.js';
import {
  paymentMethods,
  preferredCategories,
  type BidderInput,
  type BidderNote,
  type HistoryEntry,
} from '../bidders/bidders.schema.js';
import { buildBidder } from '../bidders/bidders.service.js';
import { scanDuplicates } from '../bidders/duplicates.service.js';
import type { RequestContext } from '../platform/context.js';
import { scoringSettings } from '../scoring/scoring.service.js';

/** A small deterministic generator, so every fresh demo tenant has the same bidders. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

const FIRST = [
  'Eleanor',
  'James',
  'Priya',
  'Marcus',
  'Sofia',
  'Daniel',
  'Amara',
  'Henry',
  'Grace',
  'Mateo',
  'Olivia',
  'Samuel',
  'Hannah',
  'Victor',
  'Chloe',
  'Benjamin',
  'Isabel',
  'Theo',
  'Naomi',
  'Gabriel',
  'Lucia',
  'Owen',
  'Mei',
  'Julian',
  'Rosa',
  'Felix',
  'Anika',
  'Walter',
  'Ines',
  'Patrick',
];
const LAST = [
  'Whitfield',
  'Okafor',
  'Castellano',
  'Brennan',
  'Nakamura',
  'Lindqvist',
  'Abernathy',
  'Delacroix',
  'Haddad',
  'Sullivan',
  'Moreau',
  'Kowalski',
  'Fairbanks',
  'Iverson',
  'Thornton',
  'Vasquez',
  'Pemberton',
  'Achebe',
  'Halvorsen',
  'Carrington',
  'Rinaldi',
  'Osei',
  'Winslow',
  'Marchetti',
  'Ellsworth',
];
const PLACES = [
  { city: 'Boston', state: 'MA', zip: '02116' },
  { city: 'Cambridge', state: 'MA', zip: '02138' },
  { city: 'Portland', state: 'ME', zip: '04101' },
  { city: 'Providence', state: 'RI', zip: '02903' },
  { city: 'Hartford', state: 'CT', zip: '06103' },
  { city: 'Burlington', state: 'VT', zip: '05401' },
  { city: 'Newport', state: 'RI', zip: '02840' },
  { city: 'Salem', state: 'MA', zip: '01970' },
];
const STREETS = [
  'Beacon Street',
  'Commonwealth Avenue',
  'Exchange Street',
  'Benefit Street',
  'Elm Street',
  'Church Street',
  'Bellevue Avenue',
  'Chestnut Street',
  'Harbor Road',
  'Maple Lane',
];
const SALES = [
  { title: 'Spring Fine Art & Prints', category: 'Art', house: 'Harborview Fine Art' },
  { title: 'Maritime Antiques', category: 'Antiques', house: 'Harborview Estates' },
  { title: 'Fine Jewelry & Watches', category: 'Jewelry', house: 'Harborview Fine Art' },
  { title: 'Estate Furniture & Decor', category: 'Furniture', house: 'Harborview Estates' },
  { title: 'Rare Books & Manuscripts', category: 'Books', house: 'Harborview Fine Art' },
  { title: 'Coins, Stamps & Currency', category: 'Coins & Currency', house: 'Harborview Estates' },
];
const NOTES: Omit<BidderNote, 'id' | 'user' | 'userId' | 'date' | 'isPrivate'>[] = [
  { category: 'Payment', note: 'Prefers to settle by wire within two days of the sale.' },
  {
    category: 'Preference',
    note: 'Collects 19th-century maritime paintings; call before relevant sales.',
  },
  { category: 'Behavior', note: 'Bids late by phone; always confirms with the floor.' },
  { category: 'Warning', note: 'Paid the spring invoice three weeks late after two reminders.' },
  { category: 'General', note: 'Met at the Newport preview; interested in consigning.' },
];

const DAY = 86_400_000;

function history(
  random: ReturnType<typeof generator>,
  now: Date,
  auctions: number,
  lastAuction: Date | null,
): HistoryEntry[] {
  if (!lastAuction) return [];
  return Array.from({ length: Math.min(auctions, 5) }, (_, index) => {
    const sale = random.pick(SALES);
    const bids = random.int(2, 24);
    const won = random.int(0, Math.min(4, bids));
    const spent = won ? random.int(4, 900) * 50 : 0;
    const date = new Date(lastAuction.getTime() - index * random.int(20, 70) * DAY);
    return {
      id: randomUUID(),
      isInternal: true,
      auctionTitle: `${sale.title} ${date.getUTCFullYear()}`,
      generalCategory: sale.category,
      auctionHouse: sale.house,
      auctionDate: date.toISOString(),
      totalSpent: spent,
      totalBids: bids,
      wonItems: won,
      highestBid: won ? Math.round(spent / won) : random.int(2, 60) * 25,
      lotNumbers: Array.from({ length: won }, () => String(random.int(1, 420))),
      paymentStatus: won ? (now.getTime() - date.getTime() > 30 * DAY ? 'Paid' : 'Pending') : 'N/A',
      pickupStatus: won
        ? now.getTime() - date.getTime() > 30 * DAY
          ? 'Collected'
          : 'Awaiting pickup'
        : 'N/A',
      specialNotes: null,
    };
  });
}

/** One demo bidder: a quality between 0 and 1 shapes a believable record around it. */
function demoBidder(
  random: ReturnType<typeof generator>,
  index: number,
  now: Date,
): { input: BidderInput; createdAt: Date; lastAuction: Date | null } {
  const quality = random.next();
  const firstName = FIRST[index % FIRST.length] as string;
  const lastName = LAST[(index * 7) % LAST.length] as string;
  const place = random.pick(PLACES);
  const lots = quality < 0.1 ? 0 : random.int(3, Math.round(20 + quality * 240));
  const auctions = lots ? Math.max(1, Math.round(lots / random.int(4, 9))) : 0;
  const payments = Math.round(lots * (0.1 + quality * 0.3));
  const late = Math.round(payments * (1 - quality) * random.next() * 0.6);
  const createdAt = new Date(now.getTime() - random.int(20, 6 * 365) * DAY);
  const lastAuction = lots
    ? new Date(now.getTime() - random.int(3, Math.round(40 + (1 - quality) * 500)) * DAY)
    : null;
  return {
    createdAt,
    lastAuction,
    input: {
      bidderId: `HV-${String(1001 + index)}`,
      firstName,
      lastName,
      email: `${firstName}.${lastName}${index > 29 ? index : ''}@example.com`.toLowerCase(),
      phone: `+1 ${random.int(201, 989)} 555 0${String(random.int(100, 199))}`,
      address: {
        street: `${random.int(2, 480)} ${random.pick(STREETS)}`,
        ...place,
        country: 'USA',
      },
      status:
        quality < 0.08
          ? 'Suspended'
          : quality < 0.18
            ? 'Pending'
            : quality < 0.25
              ? 'Inactive'
              : 'Active',
      preferredCategories: [
        random.pick(preferredCategories),
        random.pick(preferredCategories),
      ].filter((value, i, all) => all.indexOf(value) === i),
      preferredPaymentMethod: random.pick(paymentMethods),
      // A few have asked for no marketing mail, as some of any house's bidders have.
      marketingOptOut: index % 12 === 7,
      stats: {
        totalAuctionsBid: auctions,
        totalLotsBid: lots,
        wins: Math.round(lots * (0.05 + quality * 0.35)),
        totalWinAmount: lots ? Math.round(random.int(500, 4000) * (0.5 + quality * 60)) : 0,
        paymentsOnTime: payments - late,
        paymentsLate: late,
        paymentsOverdue: quality < 0.2 ? random.int(0, 2) : 0,
        avgDaysToPay: payments ? Math.round(2 + (1 - quality) * random.int(3, 30)) : null,
        priorDefaults: quality < 0.12 ? 1 : 0,
        disputes: quality < 0.15 ? random.int(1, 2) : 0,
        referrals: quality > 0.8 ? random.int(1, 5) : 0,
        responseRate: lots ? Math.round((0.5 + quality * 0.5) * 100) / 100 : null,
        avgResponseHours: lots ? random.int(2, Math.round(12 + (1 - quality) * 90)) : null,
        firstAuction: lots ? createdAt.toISOString() : null,
        lastAuction: lastAuction?.toISOString() ?? null,
      },
    },
  };
}

/** Near-copies of earlier bidders, as a second registration would look: for the Duplicates tab. */
const DUPLICATES: { of: number; change: (input: BidderInput) => BidderInput }[] = [
  // Same person, same phone and address, a work address for e-mail.
  {
    of: 3,
    change: (input) => ({
      ...input,
      bidderId: 'HV-2001',
      email: `m.${input.lastName.toLowerCase()}@brennan-partners.example.com`,
    }),
  },
  // A typo in the first name, same e-mail, a new phone.
  {
    of: 10,
    change: (input) => ({
      ...input,
      bidderId: 'HV-2002',
      firstName: 'Olivya',
      phone: '+1 401 555 0177',
    }),
  },
  // The same person again, phone written differently and moved house: certain enough to merge.
  {
    of: 14,
    change: (input) => ({
      ...input,
      bidderId: 'HV-2003',
      phone: (input.phone ?? '').replace(/\s/g, '-'),
      address: {
        ...input.address,
        street: '12 Ocean Drive',
        zip: '02840',
        city: 'Newport',
        state: 'RI',
      },
    }),
  },
];

/** Sixty bidders with histories and notes, and a few likely duplicates waiting for review. */
export async function seedDemoBidders(
  ctx: RequestContext,
  author: { userId: string; name: string },
) {
  const random = generator(20261122);
  const now = new Date();
  const settings = await scoringSettings(ctx);
  const bidders: NewBidder[] = [];
  const drafts = Array.from({ length: 60 }, (_, index) => demoBidder(random, index, now));
  const all = [
    ...drafts,
    ...DUPLICATES.map(({ of, change }) => {
      const original = drafts[of] as (typeof drafts)[number];
      return {
        ...original,
        input: change(original.input),
        createdAt: new Date(now.getTime() - random.int(5, 15) * DAY),
      };
    }),
  ];
  for (const draft of all) {
    const built = buildBidder({ scope: ctx.scope, actor: null }, draft.input, settings, now);
    const notes = Array.from({ length: random.next() < 0.4 ? random.int(1, 2) : 0 }, () => ({
      ...random.pick(NOTES),
      id: randomUUID(),
      bidder: built.id,
      isPrivate: true,
      user: author.name,
      userId: author.userId,
      date: new Date(now.getTime() - random.int(1, 200) * DAY).toISOString(),
    }));
    const record = derive(
      {
        ...built,
        createdAt: draft.createdAt.toISOString(),
        createdBy: author.userId,
        history: history(random, now, draft.input.stats?.totalAuctionsBid ?? 0, draft.lastAuction),
      },
      settings,
      now,
    );
    bidders.push({ record, notes });
  }
  for (let start = 0; start < bidders.length; start += 50)
    await writeNewBidders(ctx, bidders.slice(start, start + 50));
  await scanDuplicates(ctx);
}
