import { currencies, currencyExponent, type Currency } from '@contracts/auctions/auctions.schema';
import { houseCurrencies } from '@contracts/identity/accounts/accounts.schema';

/**
 * Money as the services keep it: whole minor units (cents, pence; the yen has none) of one
 * currency. These turn it into text for people and back, without floating-point arithmetic.
 */

/** Every currency the services keep money in: the auctions' and the houses' (CAD is a house's). */
export type MoneyCurrency = Currency | (typeof houseCurrencies)[number];
export const moneyCurrencies: readonly MoneyCurrency[] = [
  ...new Set<MoneyCurrency>([...currencies, ...houseCurrencies]),
];

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(
  currency: MoneyCurrency,
  digits?: number,
  display: 'symbol' | 'narrowSymbol' = 'symbol',
): Intl.NumberFormat {
  const key = `${currency}:${digits ?? ''}:${display}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      currencyDisplay: display,
      ...(digits === undefined
        ? {}
        : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    });
    formatters.set(key, found);
  }
  return found;
}

/**
 * Minor units per major unit as a power of ten (2 for cents, 0 for the yen): the services'
 * `currencyExponent`; a house currency no auction is held in (CAD) has its ISO 4217 digits.
 */
export function exponentOf(currency: MoneyCurrency): number {
  const known = (currencyExponent as Partial<Record<MoneyCurrency, number>>)[currency];
  return known ?? formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

const symbolIn = (currency: MoneyCurrency, display: 'symbol' | 'narrowSymbol') =>
  formatter(currency, undefined, display)
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value ?? currency;

/** "$", "€", "£", "¥", "CA$": what amounts in the currency are shown with. */
export const symbolOf = (currency: MoneyCurrency) => symbolIn(currency, 'symbol');

/** "$1,250", "$1,250.50", "¥120,000", "CA$1,250": whole amounts without the minor digits. */
export function formatMoney(minor: number, currency: MoneyCurrency): string {
  const exponent = exponentOf(currency);
  const scale = 10 ** exponent;
  return formatter(currency, minor % scale === 0 ? 0 : exponent).format(minor / scale);
}

/** Always with the currency's minor digits ("$2,610.00"): for invoices, payments and statements,
 * where amounts are read down a column and against each other. */
export function formatMoneyExact(minor: number, currency: MoneyCurrency): string {
  const exponent = exponentOf(currency);
  return formatter(currency, exponent).format(minor / 10 ** exponent);
}

/** The amount as one types it into a field: "1250.5" becomes "1250.50", whole ones "1250". */
export function toMajorText(minor: number | null, currency: MoneyCurrency): string {
  if (minor === null) return '';
  const exponent = exponentOf(currency);
  const scale = 10 ** exponent;
  const units = Math.floor(minor / scale);
  const rest = minor % scale;
  return rest === 0 ? String(units) : `${units}.${String(rest).padStart(exponent, '0')}`;
}

export type ParsedMoney = { ok: true; minor: number | null } | { ok: false; message: string };

/**
 * What someone typed, in major units ("1,250", "$1250.50", "CA$1 250", "1250 CAD"), as minor
 * units; blank is null. Refuses negative amounts and more decimals than the currency has.
 */
export function parseMoney(text: string, currency: MoneyCurrency): ParsedMoney {
  const symbol = symbolOf(currency);
  const cleaned = text
    .trim()
    .replace(symbol, '')
    .replace(symbolIn(currency, 'narrowSymbol'), '')
    .replace(new RegExp(currency, 'i'), '')
    .replace(/[\s,]/g, '');
  if (!cleaned) return { ok: true, minor: null };
  if (cleaned.startsWith('-')) return { ok: false, message: 'cannot be negative' };
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return { ok: false, message: `is an amount like ${symbol}1,250` };
  const exponent = exponentOf(currency);
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
  const minor = Number(`${match[1]}${fraction.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) return { ok: false, message: 'is too large' };
  return { ok: true, minor };
}

/** The currency's symbol with its code, for a field's label or prefix: "$ (USD)". */
export const currencyLabel = (currency: MoneyCurrency) => `${symbolOf(currency)} (${currency})`;
