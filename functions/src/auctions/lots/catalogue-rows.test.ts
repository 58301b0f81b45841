import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnOf, isBlankRow, lotOfRow, moneyOf } from './catalogue-rows.js';

describe('columnOf', () => {
  it('knows each field by its own name and the names catalogues print, whatever the case', () => {
    expect(
      ['Lot', 'Lot No', 'LOT #', 'lot number', 'lotNumber'].map((header) => columnOf(header)),
    ).toEqual(Array(5).fill('lotNumber'));
    expect(columnOf('Low Estimate')).toBe('estimateLow');
    expect(columnOf('Estimate (High)')).toBe('estimateHigh');
    expect(columnOf('Reserve Price')).toBe('reserve');
    expect(columnOf('Consignor')).toBe('consignorName');
    expect(columnOf('Consignor Email')).toBe('consignorContact');
    expect(columnOf('Title')).toBe('title');
  });

  it('keeps a header it does not know, marked so it cannot be taken for a field', () => {
    expect(columnOf('Condition')).toBe('unknown:Condition');
  });
});

describe('moneyOf', () => {
  it('reads major units as written, with thousands separators and a currency sign', () => {
    expect(moneyOf('1,250.00', 2)).toEqual({ minor: 125_000 });
    expect(moneyOf('$1250', 2)).toEqual({ minor: 125_000 });
    expect(moneyOf(' 12,345,678.9 ', 2)).toEqual({ minor: 1_234_567_890 });
    expect(moneyOf('0.29', 2)).toEqual({ minor: 29 });
    expect(moneyOf('¥150,000', 0)).toEqual({ minor: 150_000 });
  });

  it('reads spreadsheet numbers, floating-point noise and all', () => {
    expect(moneyOf(1250.1, 2)).toEqual({ minor: 125_010 });
    expect(moneyOf(1250.0999999999999, 2)).toEqual({ minor: 125_010 });
    expect(moneyOf(0.29, 2)).toEqual({ minor: 29 });
    expect(moneyOf(5000, 0)).toEqual({ minor: 5000 });
  });

  it('takes an empty cell as no amount', () => {
    expect(moneyOf('', 2)).toEqual({ minor: null });
    expect(moneyOf(undefined, 2)).toEqual({ minor: null });
  });

  it('refuses what is not an amount of the currency', () => {
    expect(moneyOf('about 500', 2)).toEqual({ problem: 'is an amount like 1,250.00' });
    expect(moneyOf('1,25', 2)).toEqual({ problem: 'is an amount like 1,250.00' });
    expect(moneyOf('-5', 2)).toEqual({ problem: 'cannot be negative' });
    expect(moneyOf(-5, 2)).toEqual({ problem: 'cannot be negative' });
    expect(moneyOf('10.555', 2)).toEqual({ problem: 'has at most 2 decimals' });
    expect(moneyOf('100.5', 0)).toEqual({ problem: 'has whole units' });
  });

  it('answers exactly the cents written, for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const written = `${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
        expect(moneyOf(written, 2)).toEqual({ minor: cents });
      }),
    );
  });
});

const row = (cells: Record<string, unknown>) => ({
  lotNumber: '12',
  title: 'Oil on canvas',
  ...cells,
});

describe('lotOfRow', () => {
  it('makes a lot of a good row, money in minor units and the category as Lotwise spells it', () => {
    expect(
      lotOfRow(
        row({
          description: 'Signed lower left',
          category: 'art',
          estimateLow: '1,000',
          estimateHigh: '1,500.00',
          reserve: '800',
          consignorName: 'Estate of A. Smith',
          consignorContact: 'smith@example.com',
        }),
        2,
      ),
    ).toEqual({
      lot: {
        lotNumber: '12',
        title: 'Oil on canvas',
        description: 'Signed lower left',
        category: 'Art',
        estimateLow: 100_000,
        estimateHigh: 150_000,
        reserve: 80_000,
        consignor: { name: 'Estate of A. Smith', contact: 'smith@example.com' },
        inventoryItemId: null,
      },
    });
  });

  it('leaves out what the row leaves empty', () => {
    expect(lotOfRow(row({ category: '', estimateLow: '' }), 2)).toEqual({
      lot: expect.objectContaining({ category: null, estimateLow: null, consignor: null }),
    });
  });

  it('names every problem of a row by its column, in the order of the columns', () => {
    expect(
      lotOfRow(
        {
          lotNumber: '12 A',
          title: '',
          category: 'Paintings',
          estimateLow: '2,000',
          estimateHigh: '1,000',
          reserve: 'n/a',
          consignorContact: 'someone@example.com',
        },
        2,
      ),
    ).toEqual({
      problems: [
        { field: 'lotNumber', message: 'uses letters, digits, dots, dashes or slashes' },
        { field: 'title', message: 'is required' },
        {
          field: 'category',
          message: expect.stringMatching(/^"Paintings" is not a category; use one of Art, /),
        },
        { field: 'estimateHigh', message: 'is below the low estimate' },
        { field: 'reserve', message: 'is an amount like 1,250.00' },
        { field: 'consignorName', message: 'is required' },
      ],
    });
  });

  it('reads spreadsheet cells: numbers, formula results and rich text', () => {
    const read = lotOfRow(
      {
        lotNumber: 7,
        title: { richText: [{ text: 'Gold ' }, { text: 'ring' }] },
        estimateLow: { formula: 'B2*2', result: 300 },
      },
      2,
    );
    expect(read).toEqual({
      lot: expect.objectContaining({ lotNumber: '7', title: 'Gold ring', estimateLow: 30_000 }),
    });
  });
});

describe('isBlankRow', () => {
  it('is a row with nothing in the columns Lotwise reads', () => {
    expect(isBlankRow({ lotNumber: '', title: ' ', 'unknown:Notes': 'x' })).toBe(true);
    expect(isBlankRow({ lotNumber: '', reserve: 0 })).toBe(false);
  });
});
