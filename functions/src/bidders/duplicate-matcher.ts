import { mergeableFields, type MergeableField, type PairCandidate } from './bidders.schema.js';

/**
 * Finding likely duplicate bidders: blocking keys bring candidates together cheaply, then a
 * similarity score (0-100) says how sure we are, why, and which fields disagree.
 */

/** What matching compares of a bidder: the candidate's fields but when it arrived. */
export type MatchRecord = Omit<PairCandidate, 'createdAt'>;

export interface MatchResult {
  confidence: number;
  reasons: string[];
  conflicts: { field: string; value1: string; value2: string }[];
}

export interface DuplicatePair extends MatchResult {
  a: string;
  b: string;
}

/** Below this a pair is not worth anyone's time. */
export const MIN_CONFIDENCE = 50;
/** A block this large says nothing about sameness (a shared office number, say). */
export const MAX_BLOCK = 50;

/** Gmail ignores dots in the name, and googlemail.com is gmail.com. */
const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/**
 * Providers that deliver `name+anything@` to `name@`, so a +tag there never names another
 * mailbox: Gmail, Microsoft's consumer mail (Outlook.com, Hotmail, Live, MSN), iCloud, Proton
 * and Fastmail. Anywhere else (a company's or a family's own domain, say) `ada+bob@` may well be
 * a different person's mailbox than `ada@`, so there a tag is evidence, not identity.
 */
export const TAG_IGNORING_DOMAINS: ReadonlySet<string> = new Set([
  ...GMAIL,
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'fastmail.com',
]);

function emailParts(email: string | null | undefined) {
  if (!email) return null;
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  if (!domain) return null;
  const gmail = GMAIL.has(domain);
  return {
    local: gmail ? local.replace(/\./g, '') : local,
    domain: gmail ? 'gmail.com' : domain,
  };
}

const untagged = (local: string) => local.split('+')[0] as string;

/**
 * The mailbox an address reaches: lower case, and at providers that ignore them without dots
 * (Gmail) and +tags. Two addresses with the same mailbox are the same person's.
 */
export function normaliseEmail(email: string | null | undefined): string | null {
  const parts = emailParts(email);
  if (!parts) return null;
  const local = TAG_IGNORING_DOMAINS.has(parts.domain) ? untagged(parts.local) : parts.local;
  return `${local}@${parts.domain}`;
}

/** The address without any +tag, whatever the provider: what brings candidates together. */
export function untaggedEmail(email: string | null | undefined): string | null {
  const parts = emailParts(email);
  return parts ? `${untagged(parts.local)}@${parts.domain}` : null;
}

/** The last ten digits, so +1 (617) 555-0142 and 617.555.0142 agree. */
export function phoneDigits(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= 7 ? digits.slice(-10) : null;
}

/** American Soundex: names that sound alike share a code (Smith, Smyth: S530). */
export function soundex(name: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, '');
  if (!letters) return '';
  const codes: Record<string, string> = {
    B: '1',
    F: '1',
    P: '1',
    V: '1',
    C: '2',
    G: '2',
    J: '2',
    K: '2',
    Q: '2',
    S: '2',
    X: '2',
    Z: '2',
    D: '3',
    T: '3',
    L: '4',
    M: '5',
    N: '5',
    R: '6',
  };
  let result = letters[0] as string;
  let previous = codes[result] ?? '';
  for (const letter of letters.slice(1)) {
    const code = codes[letter] ?? '';
    if (code && code !== previous) result += code;
    // H and W do not separate letters with the same code; vowels do.
    if (letter !== 'H' && letter !== 'W') previous = code;
    if (result.length === 4) break;
  }
  return result.padEnd(4, '0');
}

const zip5 = (zip: string) => zip.replace(/\s/g, '').slice(0, 5).toUpperCase();

export function blockingKeys(record: MatchRecord): string[] {
  const keys: string[] = [];
  const email = untaggedEmail(record.email);
  if (email) keys.push(`e:${email}`);
  const phone = phoneDigits(record.phone);
  if (phone) keys.push(`p:${phone}`);
  const last = soundex(record.lastName);
  const initial = record.firstName.trim().charAt(0).toUpperCase();
  if (last && initial && record.address.zip)
    keys.push(`n:${last}:${initial}:${zip5(record.address.zip)}`);
  return keys;
}

/** Jaro-Winkler similarity of two strings, 0 to 1. */
export function jaroWinkler(left: string, right: string): number {
  const a = left.trim().toLowerCase();
  const b = right.trim().toLowerCase();
  if (!a || !b) return 0;
  if (a === b) return 1;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i += 1) {
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j += 1) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = true;
      bMatched[j] = true;
      matches += 1;
      break;
    }
  }
  if (!matches) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i += 1) {
    if (!aMatched[i]) continue;
    while (!bMatched[k]) k += 1;
    if (a[i] !== b[k]) transpositions += 1;
    k += 1;
  }
  const jaro =
    (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && a[prefix] === b[prefix]) prefix += 1;
  return jaro + prefix * 0.1 * (1 - jaro);
}

const fieldValues = (record: MatchRecord): Record<MergeableField, string> =>
  Object.fromEntries(
    mergeableFields.map((field) => [
      field,
      (field in record.address
        ? record.address[field as keyof MatchRecord['address']]
        : record[field as Exclude<MergeableField, keyof MatchRecord['address']>]) ?? '',
    ]),
  ) as Record<MergeableField, string>;

/** First names this unlike (and not sharing an initial) belong to two people, not one. */
const DIFFERENT_FIRST_NAME = 0.7;

/**
 * Evidence points: same email (mailbox) 50, the same address but for a +tag where tags may be
 * separate mailboxes 35, same phone 35, same name 25 (a close name 10), same address 25 (same
 * postcode only 5); two different emails cost 15 and two different phones 5. Without the same
 * mailbox, two clearly different first names (no shared initial, Jaro-Winkler below 0.7) cost 25:
 * a household shares its address, landline, last name and sometimes one address with tags, and
 * is not one bidder. Capped at 100.
 */
export function compare(one: MatchRecord, two: MatchRecord): MatchResult {
  const reasons: string[] = [];
  let points = 0;
  const emailOne = normaliseEmail(one.email);
  const emailTwo = normaliseEmail(two.email);
  const sameMailbox = emailOne !== null && emailOne === emailTwo;
  if (sameMailbox) {
    points += 50;
    reasons.push('Same email address');
  } else if (emailOne && emailTwo && untaggedEmail(one.email) === untaggedEmail(two.email)) {
    points += 35;
    reasons.push('Same email address apart from a +tag');
  } else if (emailOne && emailTwo) {
    points -= 15;
  }
  const phoneOne = phoneDigits(one.phone);
  const phoneTwo = phoneDigits(two.phone);
  if (phoneOne && phoneOne === phoneTwo) {
    points += 35;
    reasons.push('Same phone number');
  } else if (phoneOne && phoneTwo) {
    points -= 5;
  }
  const first = jaroWinkler(one.firstName, two.firstName);
  const last = jaroWinkler(one.lastName, two.lastName);
  if (first === 1 && last === 1) {
    points += 25;
    reasons.push('Same name');
  } else if (first >= 0.85 && last >= 0.9) {
    points += 10;
    reasons.push('Similar name');
  } else if (last >= 0.9 || soundex(one.lastName) === soundex(two.lastName)) {
    points += 10;
    reasons.push('Similar last name');
  }
  const initialOne = one.firstName.trim().charAt(0).toUpperCase();
  const initialTwo = two.firstName.trim().charAt(0).toUpperCase();
  if (
    !sameMailbox &&
    initialOne &&
    initialTwo &&
    initialOne !== initialTwo &&
    first < DIFFERENT_FIRST_NAME
  ) {
    points -= 25;
  }
  const sameZip = Boolean(one.address.zip) && zip5(one.address.zip) === zip5(two.address.zip);
  if (sameZip && jaroWinkler(one.address.street, two.address.street) >= 0.85) {
    points += 25;
    reasons.push('Same address');
  } else if (sameZip) {
    points += 5;
    reasons.push('Same postcode');
  }
  const valuesOne = fieldValues(one);
  const valuesTwo = fieldValues(two);
  const conflicts = mergeableFields
    .filter((field) => valuesOne[field].trim() !== valuesTwo[field].trim())
    .map((field) => ({ field, value1: valuesOne[field], value2: valuesTwo[field] }));
  return { confidence: Math.max(0, Math.min(100, points)), reasons, conflicts };
}

/**
 * Every likely pair within the blocks (records sharing a blocking key), each once, most certain
 * first. Blocks of one, and blocks too large to mean anything, are passed over.
 */
export function pairsInBlocks(
  blocks: Iterable<readonly MatchRecord[]>,
  minConfidence = MIN_CONFIDENCE,
): DuplicatePair[] {
  const seen = new Set<string>();
  const pairs: DuplicatePair[] = [];
  for (const members of blocks) {
    if (members.length < 2 || members.length > MAX_BLOCK) continue;
    for (let i = 0; i < members.length; i += 1) {
      for (let j = i + 1; j < members.length; j += 1) {
        const one = members[i] as MatchRecord;
        const two = members[j] as MatchRecord;
        const key = one.id < two.id ? `${one.id}|${two.id}` : `${two.id}|${one.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const result = compare(one, two);
        if (result.confidence >= minConfidence) pairs.push({ a: one.id, b: two.id, ...result });
      }
    }
  }
  return pairs.sort((x, y) => y.confidence - x.confidence);
}

/** Every likely pair among the records, each once, most certain first. */
export function findDuplicates(
  records: MatchRecord[],
  minConfidence = MIN_CONFIDENCE,
): DuplicatePair[] {
  const blocks = new Map<string, MatchRecord[]>();
  for (const record of records) {
    for (const key of blockingKeys(record)) {
      const block = blocks.get(key);
      if (block) block.push(record);
      else blocks.set(key, [record]);
    }
  }
  return pairsInBlocks(blocks.values(), minConfidence);
}
