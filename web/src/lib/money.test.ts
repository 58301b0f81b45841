import { describe, expect, it } from 'vitest';
import { formatMoney, parseMoney, toMajorText } from './money';

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
});

describe('parseMoney', () => {
  it('reads what people type as minor units', () => {
    expect(parseMoney('1,250', 'USD')).toEqual({ ok: true, minor: 125_000 });
    expect(parseMoney(' $1250.5 ', 'USD')).toEqual({ ok: true, minor: 125_050 });
    expect(parseMoney('1 250.05', 'EUR')).toEqual({ ok: true, minor: 125_005 });
    expect(parseMoney('0.10', 'GBP')).toEqual({ ok: true, minor: 10 });
    expect(parseMoney('120000', 'JPY')).toEqual({ ok: true, minor: 120_000 });
    expect(parseMoney('7.', 'USD')).toEqual({ ok: true, minor: 700 });
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
});
