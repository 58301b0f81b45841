/**
 * Items carry their house's currency (USD, EUR, GBP or CAD), and lib/money knows the auction
 * currencies, which have no CAD: these read the symbol and decimals from Intl instead.
 */

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(currency: string, digits?: number): Intl.NumberFormat {
  const key = `${currency}:${digits ?? ''}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      ...(digits === undefined
        ? {}
        : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    });
    formatters.set(key, found);
  }
  return found;
}

/** Minor units per major unit as a power of ten: 2 for cents. */
export const exponentOf = (currency: string) =>
  formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;

/** "$", "€", "£", "CA$". */
export const symbolOf = (currency: string) =>
  formatter(currency)
    .formatToParts(0)
    .find((part) => part.type === 'currency')?.value ?? currency;

/** "$1,250", "$1,250.50": whole amounts without the minor digits. */
export function formatAmount(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  const scale = 10 ** exponent;
  return formatter(currency, minor % scale === 0 ? 0 : exponent).format(minor / scale);
}

/** The amount as one types it: 125050 cents is "1250.50", whole ones "1250". */
export function toAmountText(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  const scale = 10 ** exponent;
  const rest = minor % scale;
  const units = Math.floor(minor / scale);
  return rest === 0 ? String(units) : `${units}.${String(rest).padStart(exponent, '0')}`;
}

export type ParsedAmount = { ok: true; minor: number | null } | { ok: false; message: string };

/** What someone typed ("1,250", "$1250.50") in minor units; blank is null. */
export function parseAmount(text: string, currency: string): ParsedAmount {
  const cleaned = text
    .trim()
    .replace(symbolOf(currency), '')
    .replace(/[\s,$]/g, '');
  if (!cleaned) return { ok: true, minor: null };
  if (cleaned.startsWith('-')) return { ok: false, message: 'cannot be negative' };
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return { ok: false, message: `is an amount like ${symbolOf(currency)}1,250` };
  const exponent = exponentOf(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    return { ok: false, message: `has at most ${exponent} decimals` };
  }
  const minor = Number(`${match[1]}${fraction.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(minor)) return { ok: false, message: 'is too large' };
  return { ok: true, minor };
}
