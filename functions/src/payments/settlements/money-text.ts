import {
  currencyExponent,
  currencySymbols,
  type Currency,
} from '../../auctions/auctions.schema.js';

/**
 * Minor units as people read them, exactly (string arithmetic, no floating point): "1,234.56" for
 * 123456 USD cents, "-85.00" for -8500, "1,234" for 1234 yen.
 */
export function majorUnitsText(minor: number, currency: Currency): string {
  const exponent = currencyExponent[currency];
  const digits = Math.abs(minor)
    .toString()
    .padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${minor < 0 ? '-' : ''}${whole}${fraction}`;
}

/** With the currency's symbol: "$1,234.56", "-€85.00". */
export function moneyText(minor: number, currency: Currency): string {
  const text = majorUnitsText(minor, currency);
  return text.startsWith('-')
    ? `-${currencySymbols[currency]}${text.slice(1)}`
    : `${currencySymbols[currency]}${text}`;
}

/** Minor units as a number of major units for spreadsheets (exact for any amount Lotwise holds). */
export const majorUnits = (minor: number, currency: Currency) =>
  Number(majorUnitsText(minor, currency).replace(/,/g, ''));
