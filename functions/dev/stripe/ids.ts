import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base-62 text, as Stripe's ids use after their prefix. */
export function randomText(length: number, letters = alphabet): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += letters[byte % letters.length];
  return out;
}

/** `cus_…`, `pm_…`: Stripe's prefix and 24 random characters. */
export const newId = (prefix: string) => `${prefix}_${randomText(24)}`;

/** `{id}_secret_{random}`, as SetupIntents and PaymentIntents carry. */
export const clientSecret = (id: string) => `${id}_secret_${randomText(25)}`;

/** Unix seconds, as every Stripe timestamp. */
export const unixNow = () => Math.floor(Date.now() / 1000);

/** The same instant `months` calendar months on, the day clamped to the month's end (Jan 31 → Feb 28). */
export function addMonths(unix: number, months: number): number {
  const date = new Date(unix * 1000);
  const day = date.getUTCDate();
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}
