import { describe, expect, it } from 'vitest';
import { currencies, currencyExponent, currencySymbols } from '@contracts/auctions/auctions.schema';
import { houseCurrencies } from '@contracts/identity/accounts/accounts.schema';
import {
  currencyLabel,
  exponentOf,
  formatMoney,
  formatMoneyExact,
  moneyCurrencies,
  parseMoney,
  symbolOf,
  toMajorText,
} from './money';

describe('the currencies', () => {
  it("are every one the services keep money in, auctions' and houses'", () => {
    for (const currency of [...currencies, ...houseCurrencies]) {
      expect(moneyCurrencies).toContain(currency);
    }
    expect(new Set(moneyCurrencies).size).toBe(moneyCurrencies.length);
    expect(moneyCurrencies).toContain('CAD');
  });

  it("take their minor units from the services' exponents, and ISO's where they have none", () => {
    for (const currency of currencies) {
      expect(exponentOf(currency)).toBe(currencyExponent[currency]);
      expect(symbolOf(currency)).toBe(currencySymbols[currency]);
    }
    expect(exponentOf('CAD')).toBe(2);
    expect(symbolOf('CAD')).toBe('CA$');
    expect(currencyLabel('CAD')).toBe('CA$ (CAD)');
    expect(currencyLabel('USD')).toBe('$ (USD)');
  });
});

describe('formatMoney', () => {
  it('shows whole amounts without minor digits and others with all of them', () => {
    expect(formatMoney(125_000, 'USD')).toBe('$1,250');
    expect(formatMoney(125_050, 'USD')).toBe('$1,250.50');
    expect(formatMoney(5, 'GBP')).toBe('£0.05');
    expect(formatMoney(0, 'EUR')).toBe('€0');
  });

  it('knows the yen has no minor unit', () => {
    expect(formatMoney(120_000, 'JPY')).toBe('¥120,000');
  });

  it('has an exact form for accounts, always with the minor digits', () => {
    expect(formatMoneyExact(261_000, 'USD')).toBe('$2,610.00');
    expect(formatMoneyExact(213_125, 'USD')).toBe('$2,131.25');
    expect(formatMoneyExact(0, 'CAD')).toBe('CA$0.00');
    expect(formatMoneyExact(120_000, 'JPY')).toBe('¥120,000');
  });

  it('shows Canadian dollars apart from US ones', () => {
    expect(formatMoney(125_050, 'CAD')).toBe('CA$1,250.50');
    expect(formatMoney(100_000, 'CAD')).toBe('CA$1,000');
  });
});

describe('parseMoney', () => {
  it('reads what people type as minor units', () => {
    expect(parseMoney('1,250', 'USD')).toEqual({ ok: true, minor: 125_000 });
    expect(parseMoney(' $1250.5 ', 'USD')).toEqual({ ok: true, minor: 125_050 });
    expect(parseMoney('1 250.05', 'EUR')).toEqual({ ok: true, minor: 125_005 });
    expect(parseMoney('0.10', 'GBP')).toEqual({ ok: true, minor: 10 });
    expect(parseMoney('120000', 'JPY')).toEqual({ ok: true, minor: 120_000 });
    expect(parseMoney('7.', 'USD')).toEqual({ ok: true, minor: 700 });
    expect(parseMoney('CA$1,250.5', 'CAD')).toEqual({ ok: true, minor: 125_050 });
    expect(parseMoney('$1,250.5', 'CAD')).toEqual({ ok: true, minor: 125_050 });
    expect(parseMoney('1250 cad', 'CAD')).toEqual({ ok: true, minor: 125_000 });
    expect(parseMoney('¥120,000', 'JPY')).toEqual({ ok: true, minor: 120_000 });
  });

  it('takes blank as no amount', () => {
    expect(parseMoney('', 'USD')).toEqual({ ok: true, minor: null });
    expect(parseMoney('  ', 'JPY')).toEqual({ ok: true, minor: null });
  });

  it('says what is wrong with an amount it cannot read', () => {
    expect(parseMoney('-5', 'USD')).toEqual({ ok: false, message: 'cannot be negative' });
    expect(parseMoney('12.345', 'USD')).toEqual({
      ok: false,
      message: 'has at most 2 decimals in USD',
    });
    expect(parseMoney('12.5', 'JPY')).toEqual({ ok: false, message: 'is a whole number of JPY' });
    expect(parseMoney('twelve', 'GBP')).toEqual({ ok: false, message: 'is an amount like £1,250' });
    expect(parseMoney('1e6', 'USD').ok).toBe(false);
    expect(parseMoney('1.234', 'CAD')).toEqual({
      ok: false,
      message: 'has at most 2 decimals in CAD',
    });
    expect(parseMoney('abc', 'CAD')).toEqual({ ok: false, message: 'is an amount like CA$1,250' });
    expect(parseMoney('99999999999999999', 'USD')).toEqual({ ok: false, message: 'is too large' });
  });

  it('round-trips with the text a field shows', () => {
    for (const [minor, currency] of [
      [125_050, 'USD'],
      [125_000, 'EUR'],
      [5, 'GBP'],
      [120_000, 'JPY'],
    ] as const) {
      const text = toMajorText(minor, currency);
      expect(parseMoney(text, currency)).toEqual({ ok: true, minor });
    }
    expect(toMajorText(5, 'USD')).toBe('0.05');
    expect(toMajorText(null, 'USD')).toBe('');
  });

  it('round-trips every currency, whatever its minor units, through the field and the display', () => {
    const exponents = new Set(moneyCurrencies.map(exponentOf));
    // The yen has no minor unit; no currency the services keep has three (a dinar's) today.
    expect(exponents).toContain(0);
    expect([...exponents].every((exponent) => exponent === 0 || exponent === 2)).toBe(true);
    for (const currency of moneyCurrencies) {
      const scale = 10 ** exponentOf(currency);
      for (const minor of [0, 1, 5, scale - 1, scale, 125_050, 123_456_789, 1_000_000_000_000]) {
        const text = toMajorText(minor, currency);
        expect(parseMoney(text, currency), `${text} ${currency}`).toEqual({ ok: true, minor });
        const shown = formatMoney(minor, currency);
        expect(shown.startsWith(symbolOf(currency)), shown).toBe(true);
        expect(parseMoney(shown, currency), `${shown} ${currency}`).toEqual({ ok: true, minor });
      }
    }
    expect(toMajorText(1, 'JPY')).toBe('1');
    expect(toMajorText(1, 'CAD')).toBe('0.01');
    expect(formatMoney(1, 'JPY')).toBe('¥1');
  });
});
