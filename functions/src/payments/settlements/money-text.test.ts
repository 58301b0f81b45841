import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { majorUnits, majorUnitsText, moneyText } from './money-text.js';

describe('money as text', () => {
  it('reads minor units exactly, with the currency’s exponent', () => {
    expect(majorUnitsText(123456, 'USD')).toBe('1,234.56');
    expect(majorUnitsText(5, 'EUR')).toBe('0.05');
    expect(majorUnitsText(-8500, 'GBP')).toBe('-85.00');
    expect(majorUnitsText(1234567, 'JPY')).toBe('1,234,567');
    expect(moneyText(-8500, 'USD')).toBe('-$85.00');
    expect(moneyText(100_000_000_000, 'EUR')).toBe('€1,000,000,000.00');
  });

  it('gives spreadsheets the same amount in major units', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (minor) => {
        expect(Math.round(majorUnits(minor, 'USD') * 100)).toBe(minor);
        expect(majorUnits(minor, 'JPY')).toBe(minor);
      }),
    );
  });
});
