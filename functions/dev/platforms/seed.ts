import { DateTime } from 'luxon';
import {
  currencyExponent,
  type Currency,
  type Platform,
} from '../../src/auctions/auctions.schema.js';
import {
  areaCodes,
  conditions,
  consignors,
  firstNames,
  lastNames,
  lotWords,
  provenances,
  themes,
  type Theme,
} from './catalogue-words.js';
import type {
  AccountProfile,
  SandboxAccount,
  SandboxAuction,
  SandboxAuctionStatus,
  SandboxBidder,
  SandboxLot,
  SandboxRegistration,
} from './model.js';
import { vocabularies } from './vocabulary.js';

/** mulberry32: small, fast and the same everywhere, so a seed always gives the same data. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (share: number) => next() < share,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    shuffle: <T>(items: readonly T[]): T[] => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index -= 1) {
        const other = int(0, index);
        [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
      }
      return copy;
    },
  };
}
type Random = ReturnType<typeof random>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How each platform writes a US phone number (the digits are 10, area code first). */
export const phoneStyle: Record<Platform, (digits: string) => string> = {
  ProxyBid: (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
  BidWrangler: (d) => `+1${d}`,
  Invaluable: (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
  'Auction.zip': (d) => `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
  LiveAuctioneers: (d) => `+1 ${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
  BidSquare: (d) => d,
};

/** A stable scramble of a number, so generated ids look like a platform's and never repeat. */
const scramble = (value: number) => {
  let x = value >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
};
const hex = (value: number, length: number) =>
  value.toString(16).padStart(length, '0').slice(-length);

type IdKind = 'auction' | 'lot' | 'bidder';

/** Ids as each platform writes them: numbers, prefixed slugs, references or GUIDs. */
const idStyle: Record<Platform, (kind: IdKind, n: number, seed: number) => string> = {
  ProxyBid: (kind, n) => String({ auction: 240_000, lot: 18_000_000, bidder: 51_000 }[kind] + n),
  BidWrangler: (kind, n, seed) =>
    `${{ auction: 'auc', lot: 'lot', bidder: 'bdr' }[kind]}_${scramble(seed * 7 + n).toString(36)}${n.toString(36)}`,
  Invaluable: (kind, n, seed) =>
    `${{ auction: 'C', lot: 'L', bidder: 'B' }[kind]}${hex(scramble(seed + n), 6).toUpperCase()}${n}`,
  'Auction.zip': (kind, n) =>
    String({ auction: 1_800_000, lot: 40_000_000, bidder: 700_000 }[kind] + n),
  LiveAuctioneers: (kind, n) =>
    String({ auction: 310_000, lot: 180_000_000, bidder: 9_000_000 }[kind] + n),
  BidSquare: (kind, n, seed) => {
    const a = scramble(seed ^ (n * 31));
    const b = scramble(a + n);
    const tag = { auction: 'a', lot: 'b', bidder: '8' }[kind];
    return `${hex(a, 8)}-${hex(b, 4)}-4${hex(b >>> 8, 3)}-${tag}${hex(a >>> 4, 3)}-${hex(n, 12)}`;
  },
};

export function newId(account: SandboxAccount, kind: IdKind): string {
  account.nextId[kind] += 1;
  return idStyle[account.platform](kind, account.nextId[kind], account.options.seed);
}

interface Person {
  firstName: string;
  lastName: string;
  email: string;
  /** Ten digits; each platform writes them its own way. */
  phone: string;
}

/**
 * People who bid on several platforms: the same people, sometimes with the same email, sometimes
 * written differently or with another address, so cross-platform duplicate detection has work.
 */
const sharedPeople: Person[] = (() => {
  const rand = random(20_260_501);
  const names = rand.shuffle(firstNames.flatMap((first) => lastNames.map((last) => [first, last])));
  return names.slice(0, 100).map(([firstName = '', lastName = ''], index) => {
    const first = firstName.toLowerCase();
    const last = lastName.toLowerCase();
    const email = rand.pick([
      `${first}.${last}@example.com`,
      `${first[0]}${last}@example.net`,
      `${first}${last}${rand.int(10, 99)}@example.org`,
      `${first}_${last}@example.com`,
    ]);
    const phone = `${areaCodes[index % 10]}55501${String(index % 100).padStart(2, '0')}`;
    return { firstName, lastName, email, phone };
  });
})();

/** Area codes kept apart from the shared people's, so a platform's own people never share a phone with them. */
const ownAreaCodes = ['413', '781', '978', '339', '774', '203', '475', '646', '718', '202'];

function ownPerson(rand: Random): Person {
  const firstName = rand.pick(firstNames);
  const lastName = rand.pick(lastNames);
  return {
    firstName,
    lastName,
    email: `${firstName}.${lastName}${rand.int(1, 999)}@example.net`.toLowerCase(),
    phone: `${rand.pick(ownAreaCodes)}55501${String(rand.int(0, 99)).padStart(2, '0')}`,
  };
}

const titleCase = (text: string) =>
  text.replace(/(^|[.@_])([a-z])/g, (_, sign, letter: string) => `${sign}${letter.toUpperCase()}`);

/** One shared person as this platform has them: their email as typed there, or another one. */
function asTypedHere(rand: Random, person: Person): { email: string | null; phone: string | null } {
  const roll = rand.next();
  const email =
    roll < 0.65
      ? person.email
      : roll < 0.8
        ? titleCase(person.email)
        : roll < 0.92
          ? `${person.firstName}.${person.lastName}@example.org`.toLowerCase()
          : null;
  return { email, phone: rand.chance(0.85) ? person.phone : null };
}

/** A nice round amount in major units: what a specialist writes as an estimate. */
function round(amount: number): number {
  const step = amount < 1_000 ? 50 : amount < 10_000 ? 100 : amount < 100_000 ? 1_000 : 5_000;
  return Math.max(step, Math.round(amount / step) * step);
}

function lotOf(
  account: SandboxAccount,
  rand: Random,
  theme: Theme,
  lotNumber: string,
  currency: Currency,
): SandboxLot {
  const topic = rand.pick(theme.topics);
  const words = lotWords[topic];
  const fill = (text: string, part: 'a' | 'b') => {
    const parts = words[part];
    return parts?.length ? text.replace(`{${part}}`, rand.pick(parts)) : text;
  };
  const title = fill(fill(rand.pick(words.titles), 'a'), 'b');
  const unit = 10 ** currencyExponent[currency];
  const low = round(words.low[0] + (words.low[1] - words.low[0]) * rand.next() ** 2);
  const high = round(low * (1.4 + rand.next() * 0.6));
  const estimated = rand.chance(0.92);
  return {
    id: newId(account, 'lot'),
    lotNumber,
    title,
    description: [title + '.', rand.pick(conditions), rand.pick(provenances)]
      .filter(Boolean)
      .join(' '),
    category: vocabularies[account.platform].lot[topic],
    estimateLow: estimated ? low * unit : null,
    estimateHigh: estimated ? high * unit : null,
    reserve: estimated && rand.chance(0.5) ? round(low * 0.7) * unit : null,
    consignor: rand.chance(0.7) ? rand.pick(consignors) : null,
    result: null,
  };
}

function lotNumbers(rand: Random, count: number): string[] {
  const numbers: string[] = [];
  let next = 1;
  while (numbers.length < count) {
    numbers.push(String(next));
    // Now and then a lot added late is numbered after the one before it: "12A".
    if (numbers.length < count && rand.chance(0.06)) numbers.push(`${next}A`);
    next += 1;
  }
  return numbers;
}

/** Which state each seeded sale is in: one of each first, then a realistic mix. */
function statusOf(rand: Random, index: number): SandboxAuctionStatus {
  const first: SandboxAuctionStatus[] = ['closed', 'live', 'upcoming'];
  if (index < first.length) return first[index] as SandboxAuctionStatus;
  const roll = rand.next();
  return roll < 0.45 ? 'closed' : roll < 0.55 ? 'live' : roll < 0.95 ? 'upcoming' : 'cancelled';
}

function auctionOf(
  account: SandboxAccount,
  rand: Random,
  profile: AccountProfile,
  index: number,
  now: number,
): SandboxAuction {
  const theme = themes[(account.options.seed + index * 5) % themes.length] as Theme;
  const type = rand.pick(theme.types);
  const status = statusOf(rand, index);
  const hours = type === 'Online' ? rand.int(5, 12) * 24 : rand.int(4, 7);
  // A sale starts at 10:00 or 18:00 local time on its day.
  const day = (offsetDays: number) =>
    DateTime.fromMillis(now + offsetDays * DAY, { zone: profile.timeZone })
      .set({ hour: rand.pick([10, 18]), minute: 0, second: 0, millisecond: 0 })
      .toMillis();
  let startsAt: number;
  // A closed sale ended at least two days ago, however long it ran (online sales run up to 12 days).
  if (status === 'closed') startsAt = day(-rand.int(14, 150));
  else if (status === 'live') startsAt = now - Math.floor((hours * HOUR) / 2);
  else startsAt = day(rand.int(3, 60));
  const endsAt = startsAt + hours * HOUR;
  const updatedAt =
    status === 'closed'
      ? Math.min(endsAt + rand.int(1, 48) * HOUR, now - HOUR)
      : now - rand.int(2, 30 * 24) * HOUR;
  const count = Math.min(
    theme.maxLots ?? Infinity,
    rand.int(account.options.lotsPerAuction.min, account.options.lotsPerAuction.max),
  );
  const month = DateTime.fromMillis(startsAt, { zone: profile.timeZone }).toFormat('LLLL yyyy');
  const lots = lotNumbers(rand, Math.max(1, count)).map((number) =>
    lotOf(account, rand, theme, number, profile.currency),
  );
  return {
    id: newId(account, 'auction'),
    title: `${theme.title}, ${month}`,
    description: `${account.name} presents ${theme.title.toLowerCase()}: ${lots.length} lots from New England estates and private collections. Previews by appointment.`,
    type,
    category: vocabularies[account.platform].auction[theme.category],
    currency: profile.currency,
    timeZone: profile.timeZone,
    startsAt,
    endsAt: Math.max(endsAt, startsAt + HOUR),
    status,
    buyersPremiumPercent: rand.pick([18, 20, 22.5, 25]),
    location: type === 'Online' ? null : profile.venue,
    lots,
    registrations: [],
    updatedAt: Math.min(updatedAt, now - 60_000),
  };
}

/** Registrations before the sale and, once it closed, results: sold lots go to approved bidders. */
function registerAndClose(rand: Random, auction: SandboxAuction, bidders: SandboxBidder[]) {
  if (bidders.length === 0 || auction.status === 'cancelled') return;
  const wanted = auction.status === 'upcoming' ? rand.int(0, 10) : rand.int(8, 25);
  const chosen = rand.shuffle(bidders).slice(0, Math.min(wanted, bidders.length));
  let paddle = 100;
  auction.registrations = chosen.map((bidder): SandboxRegistration => {
    const roll = rand.next();
    const status =
      auction.status !== 'closed' && roll < 0.12 ? 'pending' : roll > 0.95 ? 'denied' : 'approved';
    paddle += status === 'approved' ? rand.int(1, 4) : 0;
    return {
      bidderId: bidder.id,
      status,
      paddle: status === 'approved' ? String(paddle) : null,
      registeredAt: auction.startsAt - rand.int(2, 21 * 24) * HOUR,
    };
  });
  if (auction.status !== 'closed') return;
  const buyers = auction.registrations.filter((registration) => registration.status === 'approved');
  const unit = 10 ** currencyExponent[auction.currency];
  for (const lot of auction.lots) {
    const low = lot.estimateLow ?? 100 * unit;
    const high = lot.estimateHigh ?? low * 2;
    const hammer = Math.round(
      round(((low + (high - low) * rand.next() * 1.6) * 0.75) / unit) * unit,
    );
    const sold = buyers.length > 0 && rand.chance(0.72) && hammer >= (lot.reserve ?? 0);
    lot.result = sold
      ? { outcome: 'sold', hammer, buyerId: rand.pick(buyers).bidderId }
      : { outcome: 'passed', hammer: null, buyerId: null };
  }
}

function bidderOf(
  account: SandboxAccount,
  rand: Random,
  person: Pick<Person, 'firstName' | 'lastName'>,
  contact: { email: string | null; phone: string | null },
  currency: Currency,
  now: number,
): SandboxBidder {
  const active = rand.chance(0.9);
  const lastActive = rand.chance(0.85)
    ? now - rand.int(1, 400) * DAY - rand.int(0, 23) * HOUR
    : null;
  return {
    id: newId(account, 'bidder'),
    firstName: person.firstName,
    lastName: person.lastName,
    email: contact.email,
    phone: contact.phone === null ? null : phoneStyle[account.platform](contact.phone),
    status: active ? 'Active' : 'Inactive',
    lastActive,
    totalBids: 0,
    totalWins: 0,
    totalSpent: 0,
    currency,
    updatedAt: (lastActive ?? now - 500 * DAY) + rand.int(0, 6) * HOUR,
  };
}

/**
 * An account's whole catalogue from its options: the same seed and sizes give the same people,
 * sales, lots, registrations and results (times are relative to `now`).
 */
export function seedAccount(account: SandboxAccount, now: number): void {
  const { options, profile } = account;
  const rand = random(options.seed);
  const bidders: SandboxBidder[] = [];
  // Planted people keep their contact details exactly as the test wrote them.
  for (const planted of options.include) {
    bidders.push({
      ...bidderOf(account, rand, planted, { email: null, phone: null }, profile.currency, now),
      email: planted.email ?? null,
      phone: planted.phone ?? null,
    });
  }
  const remaining = Math.max(0, options.bidders - bidders.length);
  const shared = Math.round(remaining * 0.6);
  for (const person of rand.shuffle(sharedPeople.slice(0, 80)).slice(0, shared)) {
    bidders.push(bidderOf(account, rand, person, asTypedHere(rand, person), profile.currency, now));
  }
  while (bidders.length < Math.max(options.bidders, options.include.length)) {
    const person = ownPerson(rand);
    bidders.push(
      bidderOf(
        account,
        rand,
        person,
        { email: person.email, phone: person.phone },
        profile.currency,
        now,
      ),
    );
  }

  const auctions = Array.from({ length: options.auctions }, (_, index) =>
    auctionOf(account, rand, profile, index, now),
  );
  for (const auction of auctions) registerAndClose(rand, auction, bidders);

  // A bidder's totals: what they won here, plus bidding from before the sandbox's time.
  const byId = new Map(bidders.map((bidder) => [bidder.id, bidder]));
  for (const auction of auctions) {
    for (const lot of auction.lots) {
      const buyer = lot.result?.buyerId ? byId.get(lot.result.buyerId) : undefined;
      if (!buyer || !lot.result?.hammer) continue;
      buyer.totalWins += 1;
      if (auction.currency === buyer.currency) buyer.totalSpent += lot.result.hammer;
      buyer.lastActive = Math.max(buyer.lastActive ?? 0, auction.endsAt);
      buyer.updatedAt = Math.max(buyer.updatedAt, auction.endsAt + HOUR);
    }
  }
  const unit = 10 ** currencyExponent[profile.currency];
  for (const bidder of bidders) {
    const earlierWins = bidder.lastActive === null ? 0 : rand.int(0, 8);
    bidder.totalWins += earlierWins;
    bidder.totalSpent += earlierWins * round(rand.int(100, 4_000)) * unit;
    bidder.totalBids =
      bidder.totalWins * rand.int(2, 5) + (bidder.lastActive === null ? 0 : rand.int(0, 40));
    bidder.updatedAt = Math.min(bidder.updatedAt, now - 60_000);
  }

  account.bidders = new Map(bidders.map((bidder) => [bidder.id, bidder]));
  account.auctions = new Map(auctions.map((auction) => [auction.id, auction]));
}
