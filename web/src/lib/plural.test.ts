import { describe, expect, it } from 'vitest';
import { agree, countOf } from './plural';

describe('countOf', () => {
  it('agrees the noun with the count', () => {
    expect(countOf(1, 'member')).toBe('1 member');
    expect(countOf(0, 'pending invitation')).toBe('0 pending invitations');
    expect(countOf(2, 'method')).toBe('2 methods');
    expect(countOf(1250, 'bidder')).toBe(`${(1250).toLocaleString()} bidders`);
  });

  it('takes an irregular plural', () => {
    expect(countOf(1, 'auction house')).toBe('1 auction house');
    expect(countOf(2, 'copy', 'copies')).toBe('2 copies');
    expect(agree(1, 'protects', 'protect')).toBe('protects');
    expect(agree(2, 'protects', 'protect')).toBe('protect');
  });
});
