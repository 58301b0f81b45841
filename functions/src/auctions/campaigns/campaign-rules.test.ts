import { describe, expect, it } from 'vitest';
import { profileOf } from '../assessment/assessment-model.js';
import { audienceOf, triggered, triggers, type Prospect } from './campaign-rules.js';

const watchSale = profileOf({ category: 'jewelry', currency: 'USD' }, [
  { category: 'Coins & Currency', estimateLow: null, estimateHigh: null },
]);

const prospect = (overrides: Partial<Prospect> = {}): Prospect => ({
  status: 'Active',
  email: 'someone@example.com',
  marketingOptOut: false,
  lotwiseScore: { score: 85, tier: 'Gold' },
  customScore: { score: 70, tier: 'Silver' },
  preferredCategories: ['Watches'],
  ...overrides,
});

describe('campaign triggers', () => {
  it('premium: Lotwise Score 85 or more and a Premium or Gold tier', () => {
    expect(triggered('premium', prospect(), watchSale)).toBe(true);
    expect(
      triggered('premium', prospect({ lotwiseScore: { score: 84, tier: 'Gold' } }), watchSale),
    ).toBe(false);
    expect(
      triggered('premium', prospect({ lotwiseScore: { score: 88, tier: 'Silver' } }), watchSale),
    ).toBe(false);
    expect(triggers.premium).toBe('Lotwise Score 85 or more, Premium or Gold tier');
  });

  it("category: custom score 70 or more and a preferred category of the sale's or its lots'", () => {
    expect(triggered('category', prospect(), watchSale)).toBe(true);
    expect(
      triggered('category', prospect({ preferredCategories: ['Coins & Currency'] }), watchSale),
    ).toBe(true);
    expect(
      triggered('category', prospect({ customScore: { score: 69, tier: 'Silver' } }), watchSale),
    ).toBe(false);
    expect(triggered('category', prospect({ preferredCategories: ['Art'] }), watchSale)).toBe(
      false,
    );
  });

  it('leaves Suspended bidders out of every campaign', () => {
    expect(triggered('premium', prospect({ status: 'Suspended' }), watchSale)).toBe(false);
    expect(triggered('category', prospect({ status: 'Suspended' }), watchSale)).toBe(false);
  });
});

describe('audienceOf', () => {
  it('mails those with an address who did not opt out, and counts the others by reason', () => {
    const optedOut = prospect({ marketingOptOut: true, email: null });
    const noEmail = prospect({ email: null });
    const mailed = prospect();
    const unmatched = prospect({ lotwiseScore: { score: 40, tier: 'New' } });
    const audience = audienceOf('premium', [optedOut, noEmail, mailed, unmatched], watchSale);
    expect(audience).toEqual({ reach: 3, deliverable: [mailed], optedOut: 1, withoutEmail: 1 });
  });
});
