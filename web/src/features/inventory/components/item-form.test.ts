import { itemInputSchema, type InventoryItem } from '@contracts/inventory/inventory.schema';
import { describe, expect, it } from 'vitest';
import { blankItemForm, bodyOf, changesOf, formErrorsOf, formFromItem } from './item-form';
import { formatMoney, parseMoney } from '../../../lib/money';

const item: InventoryItem = {
  id: 'item-1',
  title: 'Silver teapot',
  category: 'Silver',
  subcategory: 'Georgian',
  estimatedValue: { low: 80000, high: 120000 },
  currency: 'CAD',
  condition: 'Good',
  status: 'Available',
  location: 'Vault A',
  acquiredDate: '2026-03-01',
  description: '',
  auctionSuggestionScore: 70,
  marketTrend: 'Warm',
  lastSoldPrice: null,
  consignor: { name: 'A. Fairfax', contact: '' },
  photos: [],
  auction: null,
  suggestionReasons: [],
  valueEstimate: null,
  categorySuggested: false,
  scoredAt: '2026-03-01T00:00:00Z',
  history: [],
  createdAt: '2026-03-01T00:00:00Z',
  updatedAt: '2026-03-01T00:00:00Z',
  etag: 'e1',
};

describe('the item form', () => {
  it('sends a new item the service accepts, leaving blanks for it to fill in', () => {
    const body = bodyOf(
      { ...blankItemForm(), title: ' Teapot ', low: '800', high: '1,200.50' },
      'USD',
    );
    expect(body).toEqual({
      ok: true,
      value: expect.objectContaining({
        title: 'Teapot',
        estimatedValue: { low: 80000, high: 120050 },
        consignor: null,
      }),
    });
    if (!body.ok) return;
    expect(body.value).not.toHaveProperty('category');
    expect(body.value).not.toHaveProperty('acquiredDate');
    expect(itemInputSchema.safeParse(body.value).success).toBe(true);
  });

  it('names the estimate it cannot read', () => {
    expect(bodyOf({ ...blankItemForm(), title: 'T', low: 'abc', high: '' }, 'USD')).toEqual({
      ok: false,
      errors: {
        low: 'Low estimate is an amount like $1,250',
        high: 'High estimate is required',
      },
    });
  });

  it('sends only what changed, in the item’s own currency', () => {
    const form = { ...formFromItem(item), high: '1500', consignorName: '' };
    expect(form.low).toBe('800');
    expect(changesOf(item, form)).toEqual({
      ok: true,
      value: { estimatedValue: { low: 80000, high: 150000 }, consignor: null },
    });
    expect(changesOf(item, formFromItem(item))).toEqual({ ok: true, value: {} });
  });

  it('puts the service’s field problems beside the form’s fields', () => {
    expect(
      formErrorsOf({
        'estimatedValue.high': 'High is below the low estimate',
        'consignor.name': 'Name is required',
        title: 'Title is required',
        unknown: 'ignored',
      }),
    ).toEqual({
      high: 'High estimate is below the low estimate',
      consignorName: 'Consignor name is required',
      title: 'Title is required',
    });
  });

  it('reads and writes amounts of every house currency, CAD included', () => {
    expect(formatMoney(125050, 'CAD')).toBe('CA$1,250.50');
    expect(formatMoney(100000, 'EUR')).toBe('€1,000');
    expect(parseMoney('CA$1,250.5', 'CAD')).toEqual({ ok: true, minor: 125050 });
    expect(parseMoney('1.234', 'GBP')).toEqual({
      ok: false,
      message: 'has at most 2 decimals in GBP',
    });
    expect(parseMoney('-5', 'USD')).toEqual({ ok: false, message: 'cannot be negative' });
  });
});
