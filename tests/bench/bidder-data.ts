import type { MatchRecord } from '../../functions/src/bidders/duplicate-matcher.js';
import type { BidderStats } from '../../functions/src/bidders/bidders.schema.js';

/**
 * Deterministic, varied bidders for the bidder benchmarks: people with believable names, e-mail
 * addresses, phone numbers in several formats and addresses; a few households sharing an address
 * and a landline (different people, not duplicates); and near-duplicates of chosen people with
 * the differences real data has (e-mail case or Gmail dots, a reformatted phone, a typo in the
 * first name, a missing field). The injected pairs are the ground truth for recall and precision.
 */

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
export type Random = ReturnType<typeof generator>;

const FIRST = (
  'Eleanor James Priya Marcus Sofia Daniel Amara Henry Grace Mateo Olivia Samuel Hannah Victor ' +
  'Chloe Benjamin Isabel Theo Naomi Gabriel Lucia Owen Mei Julian Rosa Felix Ann Liam Emma Noah ' +
  'Ava Ethan Mia Lucas Zoe Aiden Lily Caleb Nora Isaac Ruby Leo Alice Adam Clara Hugo Ivy Oscar ' +
  'Maya Arthur Eva Jack Stella Miles Hazel Ezra Violet Silas Aurora Jonah Iris Elias Freya Ian ' +
  'Leah Paul Sara Ravi Anika Kenji Yuki Omar Fatima Diego Elena Andrei Katya Tomas Ingrid Lars ' +
  'Astrid Pierre Amelie Luca Giulia Sean Siobhan Rory Aisha Kwame Zara Dev Nina Carl Beth Joan ' +
  'Mark Ruth Neil Kim Tara Ray Dora Max Eli Ada Roy Una Guy Lea'
).split(' ');
const LAST = (
  'Whitfield Okafor Castellano Lindqvist Hargrove Nakamura Delacroix Brennan Moreau Achebe ' +
  'Fitzgerald Ramirez Thornton Kowalski Abernathy Sato Galloway Mendoza Ashworth Novak Pemberton ' +
  'Oyelaran Vance Ibarra Kensington Haldane Marchetti Osei Blackwood Ferreira Carrington Yilmaz ' +
  'Holloway Rasmussen Quint Delgado Sinclair Mbeki Harrow Petrov Lockhart Andersen Beaumont ' +
  'Chandra Dunmore Escobar Fairbanks Gutierrez Hawthorne Iwasaki Jablonski Kavanagh Langford ' +
  'Montague Nilsson Ortega Prescott Quiroga Radcliffe Sorensen Tanaka Underwood Valdez Wexley ' +
  'Young Zimmerman Smith Smyth Johnson Williams Brown Jones Miller Davis Garcia Rodriguez Wilson ' +
  'Martinez Anderson Taylor Thomas Moore Jackson Martin Lee Perez Thompson White Harris Clark ' +
  'Lewis Robinson Walker Hall Allen King Wright Scott Green Baker Adams Nelson Hill Campbell ' +
  'Mitchell Roberts Carter Phillips Evans Turner Torres Parker Collins Edwards Stewart Morris ' +
  'Murphy Cook Rogers Morgan Peterson Cooper Reed Bailey Bell Gomez Kelly Howard Ward Cox Diaz ' +
  'Richardson Wood Watson Brooks Bennett Gray James Reyes Cruz Hughes Price Myers Long Foster ' +
  'Sanders Ross Morales Powell Sullivan Russell Ortiz Jenkins Perry Butler Barnes Fisher'
).split(' ');
const STREETS = (
  'Harbor Beacon Elm Maple Oak Chestnut Willow Cedar Pine Birch Summer Winter Commercial Water ' +
  'Union Church Mill Bridge Park Hillside Lake River Meadow Orchard Prospect Spring Garden Hawthorn'
).split(' ');
const SUFFIXES = ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court', 'Way', 'Place'];
const STATES = ['MA', 'ME', 'RI', 'CT', 'VT', 'NH', 'NY', 'NJ', 'PA', 'CA', 'IL', 'TX', 'WA'];
const DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'yahoo.com',
  'outlook.com',
  'hotmail.com',
  'icloud.com',
  'aol.com',
  'proton.me',
  'comcast.net',
  'fastmail.com',
];
const STATUSES = ['Active', 'Active', 'Active', 'Active', 'Active', 'Inactive', 'Pending'] as const;

/** About 900 towns, each with its own postcode. */
const PLACES = (() => {
  const random = generator(7);
  return Array.from({ length: 900 }, (_, index) => ({
    city: `${random.pick(STREETS)}${random.pick(['ton', 'ville', 'field', 'ford', 'port', 'bury'])}`,
    state: random.pick(STATES),
    zip: String(1000 + index * 97 + random.int(0, 90)).padStart(5, '0'),
  }));
})();

export interface Person extends MatchRecord {
  status: 'Active' | 'Inactive' | 'Suspended' | 'Pending';
}

function phoneText(digits: string, format: number): string {
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  switch (format % 5) {
    case 0:
      return `(${a}) ${b}-${c}`;
    case 1:
      return `${a}-${b}-${c}`;
    case 2:
      return `+1 ${a} ${b} ${c}`;
    case 3:
      return `${a}.${b}.${c}`;
    default:
      return `${a}${b}${c}`;
  }
}

const phoneDigitsOf = (text: string) => text.replace(/\D/g, '').slice(-10);

function freshPerson(random: Random, index: number, prefix: string): Person {
  const firstName = random.pick(FIRST);
  const lastName = random.pick(LAST);
  const place = random.pick(PLACES);
  const separator = random.pick(['.', '', '_', '.']);
  const local =
    random.next() < 0.5
      ? `${firstName}${separator}${lastName}${index}`
      : `${firstName.charAt(0)}${lastName}${index}`;
  const digits = `${random.int(201, 989)}${random.int(200, 999)}${String(random.int(0, 9999)).padStart(4, '0')}`;
  return {
    id: `${prefix}-${index}`,
    firstName,
    lastName,
    email: random.next() < 0.97 ? `${local.toLowerCase()}@${random.pick(DOMAINS)}` : null,
    phone: random.next() < 0.9 ? phoneText(digits, random.int(0, 4)) : null,
    address: {
      street: `${random.int(1, 2400)} ${random.pick(STREETS)} ${random.pick(SUFFIXES)}`,
      city: place.city,
      state: place.state,
      zip: place.zip,
      country: 'USA',
    },
    status: random.pick(STATUSES),
  };
}

/** A typo that keeps the first letter (the one people rarely get wrong). */
function typo(random: Random, name: string): string {
  if (name.length < 3) return `${name}${name.at(-1)}`;
  const at = random.int(1, name.length - 1);
  const kind = random.int(0, 2);
  if (kind === 0 && at < name.length - 1)
    return `${name.slice(0, at)}${name[at + 1]}${name[at]}${name.slice(at + 2)}`;
  if (kind === 1) return `${name.slice(0, at)}${name.slice(at + 1)}`;
  const letter = 'aeioulnrst'[random.int(0, 9)] as string;
  return `${name.slice(0, at)}${letter === name[at] ? 'e' : letter}${name.slice(at + 1)}`;
}

function recase(random: Random, email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const cased =
    random.next() < 0.5 ? local.toUpperCase() : local.charAt(0).toUpperCase() + local.slice(1);
  return `${cased}@${random.next() < 0.3 ? domain.toUpperCase() : domain}`;
}

function gmailVariant(random: Random, email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const plain = local.replace(/\./g, '');
  if (random.next() < 0.5) {
    const at = random.int(1, Math.max(1, plain.length - 1));
    return `${plain.slice(0, at)}.${plain.slice(at)}@${domain}`;
  }
  return `${plain}+auctions@${random.next() < 0.3 ? 'googlemail.com' : domain}`;
}

/** A near-duplicate of a person: one formatting difference, perhaps a typo and a missing field. */
function nearDuplicate(random: Random, original: Person, id: string): Person {
  const copy: Person = { ...original, id, address: { ...original.address } };
  const format = random.int(0, 2);
  if (format === 0 && copy.email) copy.email = recase(random, copy.email);
  else if (format === 1 && copy.email?.endsWith('@gmail.com'))
    copy.email = gmailVariant(random, copy.email);
  else if (copy.phone) copy.phone = phoneText(phoneDigitsOf(copy.phone), random.int(0, 4) + 1);
  else if (copy.email) copy.email = recase(random, copy.email);
  if (random.next() < 0.4) copy.firstName = typo(random, copy.firstName);
  const missing = random.int(0, 4);
  if (missing === 0) copy.email = null;
  else if (missing === 1) copy.phone = null;
  else if (missing === 2) copy.address = { ...copy.address, street: '', city: '' };
  if (random.next() < 0.2) copy.status = random.pick(STATUSES);
  return copy;
}

export interface GeneratedSet {
  people: Person[];
  /** The injected duplicate pairs, each as `lowerId|higherId`. */
  injected: Set<string>;
}

export const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/**
 * `total` people of whom `duplicates` are near-duplicates of distinct others, plus households
 * (about 1%): a second person at the same address and landline with the same last name.
 */
export function generatePeople(
  total: number,
  duplicates: number,
  seed = 42,
  prefix = 'p',
): GeneratedSet {
  const random = generator(seed);
  const originals = total - duplicates;
  const people: Person[] = [];
  for (let index = 0; index < originals; index += 1) {
    const person = freshPerson(random, index, prefix);
    const head = people[random.int(0, Math.max(0, people.length - 1))];
    if (head && random.next() < 0.01) {
      // A household: another person at the same address and phone.
      person.lastName = head.lastName;
      person.address = { ...head.address };
      person.phone = head.phone;
    }
    people.push(person);
  }
  const injected = new Set<string>();
  const chosen = new Set<number>();
  for (let made = 0; made < duplicates; made += 1) {
    let pick = random.int(0, originals - 1);
    while (chosen.has(pick)) pick = random.int(0, originals - 1);
    chosen.add(pick);
    const original = people[pick] as Person;
    const duplicate = nearDuplicate(random, original, `${prefix}-d${made}`);
    people.push(duplicate);
    injected.add(pairKey(original.id, duplicate.id));
  }
  // Shuffle so duplicates are not all at the end.
  for (let index = people.length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    [people[index], people[other]] = [people[other] as Person, people[index] as Person];
  }
  return { people, injected };
}

/** Believable activity, so the scores spread across the tiers. */
export function statsFor(random: Random, now: Date): BidderStats {
  const quality = random.next();
  const auctions = random.int(0, 40);
  const lots = auctions * random.int(1, 8);
  const wins = Math.round(lots * quality * 0.4);
  const onTime = Math.round(wins * (0.6 + quality * 0.4));
  const last = auctions ? new Date(now.getTime() - random.int(1, 900) * 86_400_000) : null;
  return {
    totalAuctionsBid: auctions,
    totalLotsBid: lots,
    wins,
    totalWinAmount: wins * random.int(50, 4000),
    paymentsOnTime: onTime,
    paymentsLate: wins - onTime,
    paymentsOverdue: quality < 0.1 ? random.int(0, 3) : 0,
    avgDaysToPay: wins ? random.int(1, 40) : null,
    priorDefaults: quality < 0.05 ? random.int(1, 2) : 0,
    disputes: quality < 0.15 ? random.int(0, 2) : 0,
    referrals: random.int(0, 4),
    responseRate: random.next(),
    avgResponseHours: random.int(1, 96),
    firstAuction: last
      ? new Date(last.getTime() - random.int(0, 2000) * 86_400_000).toISOString()
      : null,
    lastAuction: last ? last.toISOString() : null,
  };
}
