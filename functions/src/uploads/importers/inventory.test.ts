import { describe, expect, it } from 'vitest';
import { inventoryImporter, itemKeyOf, itemOfRow } from './inventory.js';

const row = (overrides: Record<string, unknown> = {}) => ({
  title: 'Georgian silver teapot',
  category: 'Silver',
  estimateLow: '1,250.00',
  estimateHigh: '2000',
  condition: 'good',
  ...overrides,
});

describe('inventory rows', () => {
  it('reads money in major units as minor units of the currency', () => {
    const read = itemOfRow(row(), 2);
    expect(read).toEqual({
      input: expect.objectContaining({
        title: 'Georgian silver teapot',
        category: 'Silver',
        estimatedValue: { low: 125000, high: 200000 },
        condition: 'Good',
        status: 'Available',
        consignor: null,
      }),
    });
    // A spreadsheet's number, and a currency without minor units.
    expect(itemOfRow(row({ estimateLow: 1250.1, estimateHigh: '$1,300.29' }), 2)).toMatchObject({
      input: { estimatedValue: { low: 125010, high: 130029 } },
    });
    expect(itemOfRow(row({ estimateLow: '1250', estimateHigh: '1300' }), 0)).toMatchObject({
      input: { estimatedValue: { low: 1250, high: 1300 } },
    });
  });

  it('names the field of an unreadable or missing amount', () => {
    expect(itemOfRow(row({ estimateLow: 'about a grand' }), 2)).toEqual({
      problem: { field: 'estimateLow', message: 'is an amount like 1,250.00' },
    });
    expect(itemOfRow(row({ estimateHigh: '' }), 2)).toEqual({
      problem: { field: 'estimateHigh', message: 'is required' },
    });
    expect(itemOfRow(row({ estimateHigh: '12.50' }), 0)).toEqual({
      problem: { field: 'estimateHigh', message: 'has whole units' },
    });
    expect(itemOfRow(row({ estimateLow: '-5' }), 2)).toEqual({
      problem: { field: 'estimateLow', message: 'cannot be negative' },
    });
    expect(itemOfRow(row({ estimateLow: '3000' }), 2)).toEqual({
      problem: { field: 'estimateHigh', message: 'is below the low estimate' },
    });
  });

  it('names every other field at fault, in the order of the fields', () => {
    expect(itemOfRow(row({ title: ' ' }), 2)).toEqual({
      problem: { field: 'title', message: 'is required' },
    });
    expect(itemOfRow(row({ category: 'Vehicles' }), 2)).toMatchObject({
      problem: { field: 'category' },
    });
    expect(itemOfRow(row({ condition: 'Mint' }), 2)).toEqual({
      problem: { field: 'condition', message: 'must be one of Excellent, Good, Fair, Poor' },
    });
    expect(itemOfRow(row({ status: 'Sold' }), 2)).toMatchObject({
      problem: { field: 'status', message: expect.stringContaining('not from an upload') },
    });
    expect(itemOfRow(row({ acquiredDate: '31/12/2024' }), 2)).toEqual({
      problem: { field: 'acquiredDate', message: 'is a date like 2026-12-31' },
    });
    expect(itemOfRow(row({ consignorContact: 'a@example.com' }), 2)).toEqual({
      problem: { field: 'consignorName', message: 'is required with a consignor contact' },
    });
  });

  it('takes the names houses use, spreadsheet dates and a consignor', () => {
    const read = itemOfRow(
      row({
        category: 'jewellery',
        status: 'in storage',
        acquiredDate: new Date('2024-03-05T00:00:00Z'),
        consignorName: 'Estate of A. Smith',
        consignorContact: 'smith@example.com',
      }),
      2,
    );
    expect(read).toMatchObject({
      input: {
        category: 'Jewelry & Watches',
        status: 'In Storage',
        acquiredDate: '2024-03-05',
        consignor: { name: 'Estate of A. Smith', contact: 'smith@example.com' },
      },
    });
  });

  it('leaves the category out when the row has none (the account may suggest one)', () => {
    const read = itemOfRow(row({ category: '' }), 2);
    expect('input' in read && read.input.category).toBeUndefined();
  });

  it('checks with the most decimals any currency has', () => {
    expect(inventoryImporter.check(row())).toBeNull();
    expect(inventoryImporter.check(row({ estimateLow: '1.234' }))).toEqual({
      field: 'estimateLow',
      message: 'has at most 2 decimals',
    });
  });

  it('keys an item by its title and category, case and spacing aside', () => {
    expect(itemKeyOf(row())).toBe('georgian silver teapot|Silver');
    expect(itemKeyOf(row({ title: '  GEORGIAN  Silver teapot ', category: 'silver' }))).toBe(
      'georgian silver teapot|Silver',
    );
    expect(itemKeyOf(row({ category: '' }))).toBe('georgian silver teapot|');
    expect(itemKeyOf(row({ title: '' }))).toBeNull();
  });

  it('reads CSV, Excel and JSON files only', () => {
    expect(inventoryImporter.refuses('csv')).toBeNull();
    expect(inventoryImporter.refuses('xlsx')).toBeNull();
    expect(inventoryImporter.refuses('json')).toBeNull();
    expect(inventoryImporter.refuses('xls')).toContain('.xlsx');
    expect(inventoryImporter.refuses('pdf')).toBe(
      'only CSV, Excel (.xlsx) and JSON files hold inventory items',
    );
  });

  it('lists its fields for the mapping screen, the required ones marked', () => {
    expect(inventoryImporter.fields.filter((field) => field.required).map((f) => f.key)).toEqual([
      'title',
      'estimateLow',
      'estimateHigh',
      'condition',
    ]);
    expect(inventoryImporter.jsonKey).toBe('items');
  });
});
