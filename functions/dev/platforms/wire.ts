import { DateTime } from 'luxon';
import { currencyExponent, type Currency } from '../../src/auctions/auctions.schema.js';
import { SandboxInvalid } from './http.js';
import { byChange, lastChange } from './model.js';

/** Helpers the platform APIs share for money, times and paging, each in a platform's manner. */

/** Minor units as a major-unit decimal string: 125000 USD -> "1250.00", 5000 JPY -> "5000". */
export function decimal(minor: number, currency: Currency): string {
  const exponent = currencyExponent[currency];
  if (exponent === 0) return String(minor);
  const text = String(minor).padStart(exponent + 1, '0');
  return `${text.slice(0, -exponent)}.${text.slice(-exponent)}`;
}

/** A major-unit decimal string (or number) back to minor units; what a platform accepts. */
export function minorOf(value: string | number, currency: Currency, field: string): number {
  const exponent = currencyExponent[currency];
  const text = typeof value === 'number' ? value.toFixed(exponent) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2] ?? '').length > exponent) {
    throw new SandboxInvalid(`${field} is not an amount in ${currency}`);
  }
  return Number(`${match[1]}${(match[2] ?? '').padEnd(exponent, '0')}`);
}

/** Major units as a number (Invaluable writes 1250.5). */
export const major = (minor: number, currency: Currency) =>
  minor / 10 ** currencyExponent[currency];

/** An ISO instant with the offset of a time zone: 2026-05-01T10:00:00-04:00. */
export const isoIn = (ms: number, zone: string) =>
  DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) as string;

/** An instant written with an offset or Z; anything else is refused as the field named. */
export function instantOf(value: string, field: string): number {
  const parsed = DateTime.fromISO(value, { setZone: true });
  if (!parsed.isValid || !/([+-]\d{2}:?\d{2}|Z)$/.test(value)) {
    throw new SandboxInvalid(`${field} must be an ISO 8601 instant with an offset`);
  }
  return parsed.toMillis();
}

/** Wall-clock time "2026-05-01 10:00:00" in a zone (Auction.zip's way), and back. */
export const wallClock = (ms: number, zone: string) =>
  DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm:ss');
export function fromWallClock(value: string, zone: string, field: string): number {
  const parsed = DateTime.fromFormat(value, 'yyyy-MM-dd HH:mm:ss', { zone });
  if (!parsed.isValid) throw new SandboxInvalid(`${field} must look like 2026-05-01 10:00:00`);
  return parsed.toMillis();
}

export const epochSeconds = (ms: number) => Math.floor(ms / 1000);

/** A whole number from the query, within bounds; a missing one is `fallback`. */
export function queryInt(
  url: URL,
  name: string,
  fallback: number,
  bounds: { min: number; max: number },
): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < bounds.min) {
    throw new SandboxInvalid(`${name} must be a whole number from ${bounds.min}`);
  }
  return Math.min(value, bounds.max);
}

const sortedLists = new WeakMap<
  Map<string, unknown>,
  { stamp: number; size: number; sorted: unknown[] }
>();

/**
 * What changed after `since` (ms), oldest change first. The sorted list is kept until the next
 * change (every change ticks the clock), so paging through 20,000 bidders sorts them once.
 */
export function changedSince<T extends { updatedAt: number; id: string }>(
  items: Map<string, T>,
  since: number | null,
): T[] {
  const stamp = lastChange();
  let kept = sortedLists.get(items);
  if (!kept || kept.stamp !== stamp || kept.size !== items.size) {
    kept = { stamp, size: items.size, sorted: [...items.values()].sort(byChange) };
    sortedLists.set(items, kept);
  }
  const sorted = kept.sorted as T[];
  return since === null
    ? sorted
    : sorted.slice(firstAfter(sorted, (item) => item.updatedAt > since));
}

/** The index of the first item of a sorted list that is past a point (binary search). */
function firstAfter<T>(sorted: T[], isPast: (item: T) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isPast(sorted[middle] as T)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** An opaque keyset cursor: the last item a page held. Robust to changes between pages. */
export function keysetCursor(item: { updatedAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([item.updatedAt, item.id])).toString('base64url');
}

/** What comes after the cursor's item in a list sorted by change. */
export function afterCursor<T extends { updatedAt: number; id: string }>(
  sorted: T[],
  cursor: string | null,
): T[] {
  if (!cursor) return sorted;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new SandboxInvalid('cursor is not valid');
  }
  if (!Array.isArray(key) || typeof key[0] !== 'number' || typeof key[1] !== 'string') {
    throw new SandboxInvalid('cursor is not valid');
  }
  const [updatedAt, id] = key as [number, string];
  return sorted.slice(firstAfter(sorted, (item) => byChange(item, { updatedAt, id }) > 0));
}
