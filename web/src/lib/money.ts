import {
  currencyExponent,
  currencySymbols,
  type Currency,
} from '@contracts/auctions/auctions.schema';

/**
 * Money as the services keep it: whole minor units (cents, pence; the yen has none) of one
 * currency. These turn it into text for people and back, without floating-point arithmetic.
 */

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(currency: Currency, digits: number): Intl.NumberFormat {
  const key = `${currency}:${digits}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(key, found);
  }
  return found;
}

/** "$1,250", "$1,250.50", "¥120,000": whole amounts without the minor digits. */
export function formatMoney(minor: number, currency: Currency): string {
  const exponent = currencyExponent[currency];
  const scale = 10 ** exponent;
  const whole = minor % scale === 0;
  return formatter(currency, whole ? 0 : exponent).format(minor / scale);
}

/** The amount as one types it into a field: "1250.5" becomes "1250.50", whole ones "1250". */
export function toMajorText(minor: number | null, currency: Currency): string {
  if (minor === null) return '';
  const exponent = currencyExponent[currency];
  const scale = 10 ** exponent;
  const units = Math.floor(minor / scale);
  const rest = minor % scale;
  return rest === 0 ? String(units) : `${units}.${String(rest).padStart(exponent, '0')}`;
}

export type ParsedMoney = { ok: true; minor: number | null } | { ok: false; message: string };

/**
 * What someone typed, in major units ("1,250", "$1250.50", "1 250"), as minor units; blank is
 * null. Refuses negative amounts and more decimals than the currency has.
 */
export function parseMoney(text: string, currency: Currency): ParsedMoney {
  const symbol = currencySymbols[currency];
  const cleaned = text.trim().replace(symbol, '').replace(/[\s,]/g, '');
  if (!cleaned) return { ok: true, minor: null };
  if (cleaned.startsWith('-')) return { ok: false, message: 'cannot be negative' };
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return { ok: false, message: `is an amount like ${symbol}1,250` };
  const exponent = currencyExponent[currency];
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    return {
      ok: false,
      message:
        exponent === 0
          ? `is a whole number of ${currency}`
          : `has at most ${exponent} decimals in ${currency}`,
    };
  }
  const digits = `${match[1]}${fraction.padEnd(exponent, '0')}`;
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return { ok: false, message: 'is too large' };
  return { ok: true, minor };
}

/** "$" with its code, for a field's label or prefix: "$ (USD)". */
export const currencyLabel = (currency: Currency) => `${currencySymbols[currency]} (${currency})`;
