import { describe, expect, it } from 'vitest';
import { choiceOf, dayOf, minorOf, stableId } from './cells.js';

describe('importer cells', () => {
  it('reads choices by value, label or another name, ignoring case and signs', () => {
    const choices = ['pre_sale', 'post_sale'] as const;
    const labels = { pre_sale: 'Pre-sale', post_sale: 'Post-sale' };
    expect(choiceOf('PRE SALE', choices, labels)).toBe('pre_sale');
    expect(choiceOf('post_sale', choices, labels)).toBe('post_sale');
    expect(choiceOf('after', choices, labels, { after: 'post_sale' })).toBe('post_sale');
    expect(choiceOf('during', choices, labels)).toBeUndefined();
  });

  it('reads days from text, instants and spreadsheet dates', () => {
    expect(dayOf('2026-02-28')).toEqual({ day: '2026-02-28' });
    expect(dayOf('2026-02-28T10:00:00Z')).toEqual({ day: '2026-02-28' });
    expect(dayOf(new Date('2026-02-28T00:00:00Z'))).toEqual({ day: '2026-02-28' });
    expect(dayOf('')).toEqual({ day: undefined });
    expect(dayOf('2026-02-30')).toEqual({ problem: 'is not a real date' });
    expect(dayOf('Feb 28')).toEqual({ problem: 'is a date like 2026-12-31' });
  });

  it('reads money as minor units, blank as none', () => {
    expect(minorOf('1,250.00', 2)).toEqual({ minor: 125000 });
    expect(minorOf('1250', 2)).toEqual({ minor: 125000 });
    expect(minorOf(0.29, 2)).toEqual({ minor: 29 });
    expect(minorOf('', 2)).toEqual({ minor: undefined });
    expect(minorOf('1.250,00', 2)).toEqual({ problem: 'is an amount like 1,250.00' });
  });

  it('makes the same id of the same parts, and a different one of others', () => {
    const id = stableId('upload-1', 'auction', 'spring sale|2031-04-10');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableId('upload-1', 'auction', 'spring sale|2031-04-10')).toBe(id);
    expect(stableId('upload-2', 'auction', 'spring sale|2031-04-10')).not.toBe(id);
  });
});
