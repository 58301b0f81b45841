import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addOnById,
  overageOf,
  periodFee,
  setupFeeFor,
  tierById,
  tiers,
  transactionFeeOn,
} from './billing.catalog.js';

describe('the billing catalogue', () => {
  it('charges ten months for a year', () => {
    for (const tier of tiers) expect(periodFee(tier.monthlyFee, 'year')).toBe(tier.monthlyFee * 10);
    expect(periodFee(40000, 'month')).toBe(40000);
  });

  it('waives the payments setup fee on tiers 1-3 only', () => {
    const payments = addOnById('payments')!;
    expect(
      ['tier-1', 'tier-2', 'tier-3', 'tier-4', 'tier-5'].map((id) =>
        setupFeeFor(payments, id as never),
      ),
    ).toEqual([0, 0, 0, 75000, 75000]);
    expect(setupFeeFor(addOnById('inventory')!, 'tier-5')).toBe(0);
  });

  it('charges overage only beyond the included bidders, per bidder', () => {
    const essential = tierById('tier-5')!;
    expect(overageOf(essential, 50)).toEqual({ bidders: 0, charges: 0 });
    expect(overageOf(essential, 51)).toEqual({ bidders: 1, charges: 35 });
    expect(overageOf(essential, 0)).toEqual({ bidders: 0, charges: 0 });
    fc.assert(
      fc.property(fc.constantFrom(...tiers), fc.nat(100_000), (tier, scored) => {
        const { bidders, charges } = overageOf(tier, scored);
        expect(bidders).toBe(Math.max(0, scored - tier.includedBidders));
        expect(charges).toBe(bidders * tier.overageFee);
        expect(Number.isInteger(charges)).toBe(true);
      }),
    );
  });

  it('rounds the transaction fee half up to the cent', () => {
    const essential = tierById('tier-5')!; // 1%
    expect(transactionFeeOn(essential, 150)).toBe(2); // 1.5 cents
    expect(transactionFeeOn(essential, 149)).toBe(1);
    const enterprise = tierById('tier-1')!; // 0.25%
    expect(transactionFeeOn(enterprise, 1_000_000)).toBe(2500);
    fc.assert(
      fc.property(fc.constantFrom(...tiers), fc.nat(1_000_000_000), (tier, revenue) => {
        const fee = transactionFeeOn(tier, revenue);
        expect(
          Math.abs(fee - (revenue * tier.auctionTransactionFeeBps) / 10000),
        ).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});
