import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCredit,
  assertRateScale,
  CHRISTIES_PREMIUM_USD,
  creditMath,
  flatRate,
  invoiceMath,
  percentOf,
  scaledAmount,
  settlementMath,
  type CommissionScheme,
  type InvoiceLineInput,
  type InvoiceMath,
  type InvoiceTerms,
  type RateScale,
  type SettlementLotInput,
} from './money-math.js';

const dollars = (amount: number) => Math.round(amount * 100);

/** Every number anywhere in a result. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}
const allSafeIntegers = (value: unknown) => numbersIn(value).every((n) => Number.isSafeInteger(n));

// ---- Generators ----

const rate = fc.integer({ min: 0, max: 10_000 });
const amount = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc.integer({ min: 0, max: 1_000_000_000_000 }),
);
const scale: fc.Arbitrary<RateScale> = fc
  .tuple(
    fc.array(fc.record({ gap: fc.integer({ min: 1, max: 1_000_000_000 }), rateBps: rate }), {
      maxLength: 4,
    }),
    rate,
  )
  .map(([bands, lastRate]) => {
    let upTo = 0;
    return [
      ...bands.map(({ gap, rateBps }) => ({ upTo: (upTo += gap), rateBps })),
      { upTo: null, rateBps: lastRate },
    ];
  });
const terms: fc.Arbitrary<InvoiceTerms> = fc.record({
  premium: scale,
  internetPremium: fc.option(scale, { nil: null }),
  tax: fc.record({ hammerBps: rate, premiumBps: rate, chargesBps: rate }),
});
const hammer = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc.integer({ min: 0, max: 10_000_000_000 }),
);
const invoiceLines: fc.Arbitrary<InvoiceLineInput[]> = fc
  .array(fc.record({ hammer, internet: fc.boolean() }), { maxLength: 8 })
  .map((lines) => lines.map((line, i) => ({ lotNumber: String(i + 1), ...line })));
const charges = fc.array(
  fc.record({ label: fc.constantFrom('Shipping', 'Handling', 'Storage'), amount: hammer }),
  { maxLength: 3 },
);
const settlementLots: fc.Arbitrary<SettlementLotInput[]> = fc
  .array(fc.record({ hammer, boughtBack: fc.boolean() }), { maxLength: 8 })
  .map((lots) => lots.map((lot, i) => ({ lotNumber: `${i + 1}A`, ...lot })));
const minimum = fc.integer({ min: 0, max: 1_000_000 });
const scheme: fc.Arbitrary<CommissionScheme> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('fixed' as const), rateBps: rate, minimumPerLot: minimum }),
  fc.record({ kind: fc.constant('sliding' as const), scale, minimumPerLot: minimum }),
  fc.record({ kind: fc.constant('cumulative' as const), scale, minimumPerLot: minimum }),
);
const consignorFees = fc.record({
  perLot: fc.integer({ min: 0, max: 10_000 }),
  insuranceBps: rate,
  buyBackBps: rate,
});
const adjustments = fc.integer({ min: -10_000_000, max: 10_000_000 });

// ---- Worked examples ----

describe('sliding scales', () => {
  it("charges Christie's premium band by band", () => {
    // 26% of $1,000,000 + 21% of $500,000
    expect(scaledAmount(dollars(1_500_000), CHRISTIES_PREMIUM_USD)).toBe(dollars(365_000));
    // 26% of $1M + 21% of $5M + 15% of $1M
    expect(scaledAmount(dollars(7_000_000), CHRISTIES_PREMIUM_USD)).toBe(dollars(1_460_000));
    expect(scaledAmount(dollars(1_000), CHRISTIES_PREMIUM_USD)).toBe(dollars(260));
    expect(scaledAmount(0, CHRISTIES_PREMIUM_USD)).toBe(0);
  });

  it('puts a band edge in the lower band and the next cent in the upper', () => {
    expect(scaledAmount(dollars(1_000_000), CHRISTIES_PREMIUM_USD)).toBe(dollars(260_000));
    expect(scaledAmount(dollars(1_000_000) - 1, CHRISTIES_PREMIUM_USD)).toBe(dollars(260_000)); // 25,999,999.74
    expect(scaledAmount(dollars(1_000_000) + 1, CHRISTIES_PREMIUM_USD)).toBe(dollars(260_000)); // + 0.21
    expect(scaledAmount(dollars(1_000_000) + 3, CHRISTIES_PREMIUM_USD)).toBe(dollars(260_000) + 1); // + 0.63
    expect(scaledAmount(dollars(6_000_000), CHRISTIES_PREMIUM_USD)).toBe(dollars(1_310_000));
    expect(scaledAmount(dollars(6_000_000) + 4, CHRISTIES_PREMIUM_USD)).toBe(
      dollars(1_310_000) + 1,
    ); // + 0.60
  });

  it('rounds half up at half a cent', () => {
    expect(percentOf(50, 100)).toBe(1); // 0.5
    expect(percentOf(49, 100)).toBe(0);
    expect(percentOf(150, 100)).toBe(2); // 1.5
    expect(percentOf(149, 100)).toBe(1);
    expect(percentOf(200, 825)).toBe(17); // 16.5
    expect(percentOf(199, 825)).toBe(16); // 16.4175
    expect(percentOf(12_345, 10_000)).toBe(12_345);
    expect(percentOf(12_345, 0)).toBe(0);
  });

  it('sums the bands exactly and rounds once', () => {
    const twoHalves: RateScale = [
      { upTo: 50, rateBps: 100 },
      { upTo: null, rateBps: 100 },
    ];
    // 0.5 + 0.5 = 1, not 1 + 1
    expect(scaledAmount(100, twoHalves)).toBe(1);
    expect(scaledAmount(100, flatRate(100))).toBe(1);
  });

  it('stays exact where floating point would not', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(percentOf(max, 9_999)).toBe(9_006_298_534_815_517); // floats give ...516
    // 15% of $10bn + 11 points on the first $1M + 6 points on the next $5M
    expect(scaledAmount(1_000_000_000_000, CHRISTIES_PREMIUM_USD)).toBe(
      150_000_000_000 + 11_000_000 + 30_000_000,
    );
    expect(percentOf(1_000_000_000_005, 5_000)).toBe(500_000_000_003); // ...002.5
  });

  it('keeps the Christie scale constant', () => {
    expect(Object.isFrozen(CHRISTIES_PREMIUM_USD)).toBe(true);
    expect(Object.isFrozen(CHRISTIES_PREMIUM_USD[0])).toBe(true);
    expect(flatRate(2_500)).toEqual([{ upTo: null, rateBps: 2_500 }]);
  });

  it('rejects bad amounts, rates and scales with a RangeError', () => {
    for (const bad of [
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 1,
    ]) {
      expect(() => percentOf(bad, 100)).toThrow(RangeError);
      expect(() => scaledAmount(bad, CHRISTIES_PREMIUM_USD)).toThrow(RangeError);
    }
    for (const bad of [-1, 10_001, 2.5, Number.NaN]) {
      expect(() => percentOf(100, bad)).toThrow(RangeError);
      expect(() => flatRate(bad)).toThrow(RangeError);
    }
    const badScales: RateScale[] = [
      [],
      [{ upTo: 100, rateBps: 100 }],
      [
        { upTo: null, rateBps: 100 },
        { upTo: null, rateBps: 100 },
      ],
      [
        { upTo: 100, rateBps: 100 },
        { upTo: 100, rateBps: 50 },
        { upTo: null, rateBps: 10 },
      ],
      [
        { upTo: 200, rateBps: 100 },
        { upTo: 100, rateBps: 50 },
        { upTo: null, rateBps: 10 },
      ],
      [
        { upTo: 0, rateBps: 100 },
        { upTo: null, rateBps: 10 },
      ],
      [
        { upTo: 10.5, rateBps: 100 },
        { upTo: null, rateBps: 10 },
      ],
      [
        { upTo: 100, rateBps: 10_001 },
        { upTo: null, rateBps: 10 },
      ],
    ];
    for (const bad of badScales) {
      expect(() => scaledAmount(100, bad)).toThrow(RangeError);
      expect(() => assertRateScale(bad)).toThrow(RangeError);
    }
    expect(() =>
      assertRateScale([
        { upTo: 100, rateBps: 10 },
        { upTo: 50, rateBps: 10 },
        { upTo: null, rateBps: 10 },
      ]),
    ).toThrow('scale[1].upTo');
  });
});

const houseTerms: InvoiceTerms = {
  premium: CHRISTIES_PREMIUM_USD,
  internetPremium: flatRate(2_900),
  tax: { hammerBps: 825, premiumBps: 0, chargesBps: 825 },
};

describe('invoices', () => {
  const example = () =>
    invoiceMath(
      [
        { lotNumber: '12', hammer: dollars(1_500_000), internet: false },
        { lotNumber: '12A', hammer: dollars(1_000), internet: true },
      ],
      houseTerms,
      [
        { label: 'Shipping', amount: dollars(25.5) },
        { label: 'Handling', amount: dollars(10) },
      ],
    );

  it('charges premium per lot, the internet premium for internet lots, and tax per component', () => {
    expect(example()).toEqual({
      lines: [
        { lotNumber: '12', hammer: dollars(1_500_000), premium: dollars(365_000) },
        { lotNumber: '12A', hammer: dollars(1_000), premium: dollars(290) },
      ],
      hammerTotal: 150_100_000,
      premiumTotal: 36_529_000,
      chargesTotal: 3_550,
      // 8.25% of $1,501,000 = $123,832.50; 0% of premium; 8.25% of $35.50 = $2.92875
      tax: { hammer: 12_383_250, premium: 0, charges: 293, total: 12_383_543 },
      grandTotal: 150_100_000 + 36_529_000 + 3_550 + 12_383_543,
    });
  });

  it('uses the floor premium for internet lots when there is no internet premium', () => {
    const invoice = invoiceMath(
      [{ lotNumber: '1', hammer: dollars(1_000), internet: true }],
      { ...houseTerms, internetPremium: null },
      [],
    );
    expect(invoice.premiumTotal).toBe(dollars(260));
  });

  it('rounds tax once on the component total, not per line', () => {
    const invoice = invoiceMath(
      [
        { lotNumber: '1', hammer: 100, internet: false },
        { lotNumber: '2', hammer: 100, internet: false },
      ],
      { ...houseTerms, premium: flatRate(0) },
      [],
    );
    // 8.25% of 200 cents = 16.5 -> 17 (per line: 8 + 8 = 16)
    expect(invoice.tax.hammer).toBe(17);
    expect(invoice.grandTotal).toBe(217);
  });

  it('rejects duplicate lots, bad hammers, bad charges and bad terms', () => {
    const lot = { lotNumber: '1', hammer: 100, internet: false };
    expect(() => invoiceMath([lot, lot], houseTerms, [])).toThrow(RangeError);
    expect(() => invoiceMath([{ ...lot, hammer: -1 }], houseTerms, [])).toThrow('lines[0].hammer');
    expect(() => invoiceMath([lot], houseTerms, [{ label: 'Shipping', amount: 0.5 }])).toThrow(
      'charges[0].amount',
    );
    expect(() =>
      invoiceMath([lot], { ...houseTerms, tax: { ...houseTerms.tax, chargesBps: 10_001 } }, []),
    ).toThrow('terms.tax.chargesBps');
    expect(() => invoiceMath([lot], { ...houseTerms, internetPremium: [] }, [])).toThrow(
      'terms.internetPremium',
    );
  });
});

describe('credit notes', () => {
  const twoLots = () =>
    invoiceMath(
      [
        { lotNumber: 'A', hammer: 100, internet: false },
        { lotNumber: 'B', hammer: 100, internet: false },
      ],
      { ...houseTerms, premium: flatRate(0) },
      [{ label: 'Shipping', amount: 1_000 }],
    );
  const zeroPremium = { ...houseTerms, premium: flatRate(0) };

  it('credits the difference to the corrected invoice, rounding cent included', () => {
    const original = twoLots(); // tax on hammer 16.5 -> 17
    const credit = creditMath(original, ['A'], 0, zeroPremium);
    // the corrected invoice's hammer tax is 8.25 -> 8, so the credit carries 9, not 8
    expect(credit.lines).toEqual([{ lotNumber: 'A', hammer: 100, premium: 0 }]);
    expect(credit.tax.hammer).toBe(9);
    const corrected = invoiceMath([{ lotNumber: 'B', hammer: 100, internet: false }], zeroPremium, [
      { label: 'Shipping', amount: 1_000 },
    ]);
    expect(applyCredit(original, credit)).toEqual(corrected);
  });

  it('credits lots with the premium printed on the invoice and part of the charges', () => {
    const original = invoiceMath(
      [
        { lotNumber: '12', hammer: dollars(1_500_000), internet: false },
        { lotNumber: '12A', hammer: dollars(1_000), internet: true },
      ],
      houseTerms,
      [{ label: 'Shipping', amount: dollars(35.5) }],
    );
    const credit = creditMath(original, ['12A'], dollars(10), houseTerms);
    expect(credit).toEqual({
      lines: [{ lotNumber: '12A', hammer: 100_000, premium: 29_000 }],
      hammerTotal: 100_000,
      premiumTotal: 29_000,
      chargesTotal: 1_000,
      // hammer tax 12,383,250 - 12,375,000; charges tax 293 (292.875) - 210 (210.375)
      tax: { hammer: 8_250, premium: 0, charges: 83, total: 8_333 },
      grandTotal: 100_000 + 29_000 + 1_000 + 8_333,
    });
  });

  it('takes successive credit notes off the corrected invoice', () => {
    const original = twoLots();
    const first = creditMath(original, ['A'], 250, zeroPremium);
    const afterFirst = applyCredit(original, first);
    const second = creditMath(afterFirst, ['B'], 750, zeroPremium);
    const final = applyCredit(afterFirst, second);
    expect(numbersIn(final).every((n) => n === 0)).toBe(true);
    expect(first.grandTotal + second.grandTotal).toBe(original.grandTotal);
  });

  it('rejects lots not on the invoice, twice-credited lots, too many charges and other terms', () => {
    const original = twoLots();
    expect(() => creditMath(original, ['C'], 0, zeroPremium)).toThrow('creditedLotNumbers[0]');
    expect(() => creditMath(original, ['A', 'A'], 0, zeroPremium)).toThrow('creditedLotNumbers[1]');
    expect(() => creditMath(original, [], 1_001, zeroPremium)).toThrow('creditedCharges');
    expect(() => creditMath(original, [], -1, zeroPremium)).toThrow('creditedCharges');
    expect(() =>
      creditMath(original, ['A'], 0, { ...zeroPremium, tax: { ...zeroPremium.tax, hammerBps: 0 } }),
    ).toThrow('original.tax.hammer');
    const tampered: InvoiceMath = { ...original, grandTotal: original.grandTotal + 1 };
    expect(() => creditMath(tampered, ['A'], 0, zeroPremium)).toThrow('original.grandTotal');
    const credit = creditMath(original, ['A'], 0, zeroPremium);
    expect(() => applyCredit(applyCredit(original, credit), credit)).toThrow(RangeError);
  });
});

describe('consignor settlements', () => {
  const fees = { perLot: 300, insuranceBps: 100, buyBackBps: 500 };

  it('applies the commission minimum, never above the hammer, and charges buy-backs their fee only', () => {
    const settlement = settlementMath(
      [
        { lotNumber: '1', hammer: dollars(1_000), boughtBack: false },
        { lotNumber: '2', hammer: dollars(20), boughtBack: false },
        { lotNumber: '3', hammer: dollars(200), boughtBack: false },
        { lotNumber: '4', hammer: dollars(500), boughtBack: true },
      ],
      { kind: 'fixed', rateBps: 1_500, minimumPerLot: dollars(50) },
      fees,
      -dollars(100),
    );
    expect(settlement).toEqual({
      lots: [
        // 15%; fees $3 + 1% insurance
        {
          lotNumber: '1',
          hammer: 100_000,
          commission: 15_000,
          fees: 1_300,
          net: 83_700,
          boughtBack: false,
        },
        // 15% = $3, minimum $50, capped at the $20 hammer
        {
          lotNumber: '2',
          hammer: 2_000,
          commission: 2_000,
          fees: 320,
          net: -320,
          boughtBack: false,
        },
        // 15% = $30, raised to the $50 minimum
        {
          lotNumber: '3',
          hammer: 20_000,
          commission: 5_000,
          fees: 500,
          net: 14_500,
          boughtBack: false,
        },
        // 5% buy-back fee, no commission
        {
          lotNumber: '4',
          hammer: 50_000,
          commission: 0,
          fees: 2_500,
          net: -2_500,
          boughtBack: true,
        },
      ],
      hammerTotal: 122_000,
      commissionTotal: 22_000,
      feesTotal: 2_120,
      buyBackFees: 2_500,
      adjustments: -10_000,
      netPayable: 122_000 - 22_000 - 2_120 - 2_500 - 10_000,
    });
  });

  it('walks a cumulative scale over the running total, in lot order', () => {
    const scale: RateScale = [
      { upTo: dollars(1_000), rateBps: 1_000 },
      { upTo: null, rateBps: 500 },
    ];
    const lots = [
      { lotNumber: '1', hammer: dollars(600), boughtBack: false },
      { lotNumber: '2', hammer: dollars(300), boughtBack: true },
      { lotNumber: '3', hammer: dollars(600), boughtBack: false },
    ];
    const none = { perLot: 0, insuranceBps: 0, buyBackBps: 0 };
    const cumulative = settlementMath(
      lots,
      { kind: 'cumulative', scale, minimumPerLot: 0 },
      none,
      0,
    );
    // $60, then 10% of $400 + 5% of $200 = $50; the buy-back does not advance the total
    expect(cumulative.lots.map((lot) => lot.commission)).toEqual([dollars(60), 0, dollars(50)]);
    expect(cumulative.commissionTotal).toBe(scaledAmount(dollars(1_200), scale));
    const sliding = settlementMath(lots, { kind: 'sliding', scale, minimumPerLot: 0 }, none, 0);
    expect(sliding.lots.map((lot) => lot.commission)).toEqual([dollars(60), 0, dollars(60)]);
    const nothing = settlementMath(lots, { kind: 'none' }, none, 0);
    expect(nothing.netPayable).toBe(dollars(1_200));
  });

  it('may leave the consignor owing the house', () => {
    const settlement = settlementMath(
      [{ lotNumber: '1', hammer: dollars(100), boughtBack: true }],
      { kind: 'none' },
      fees,
      -dollars(1_000),
    );
    expect(settlement.netPayable).toBe(-dollars(5) - dollars(1_000));
  });

  it('rejects bad lots, schemes, fees and adjustments', () => {
    const lot = { lotNumber: '1', hammer: 100, boughtBack: false };
    const fixed: CommissionScheme = { kind: 'fixed', rateBps: 1_000, minimumPerLot: 0 };
    expect(() => settlementMath([lot, lot], fixed, fees, 0)).toThrow('lots[1].lotNumber');
    expect(() => settlementMath([{ ...lot, hammer: 1.5 }], fixed, fees, 0)).toThrow(
      'lots[0].hammer',
    );
    expect(() => settlementMath([lot], { ...fixed, rateBps: -1 }, fees, 0)).toThrow(
      'scheme.rateBps',
    );
    expect(() => settlementMath([lot], { ...fixed, minimumPerLot: -1 }, fees, 0)).toThrow(
      'scheme.minimumPerLot',
    );
    expect(() =>
      settlementMath(
        [lot],
        { kind: 'sliding', scale: [{ upTo: 5, rateBps: 1 }], minimumPerLot: 0 },
        fees,
        0,
      ),
    ).toThrow('scheme.scale');
    expect(() => settlementMath([lot], fixed, { ...fees, perLot: -1 }, 0)).toThrow('fees.perLot');
    expect(() => settlementMath([lot], fixed, { ...fees, buyBackBps: 20_000 }, 0)).toThrow(
      'fees.buyBackBps',
    );
    expect(() => settlementMath([lot], fixed, fees, 0.5)).toThrow('adjustments');
  });
});

// ---- Properties ----

describe('money math properties', () => {
  it('scaledAmount is monotone non-decreasing in the amount', () => {
    fc.assert(
      fc.property(scale, amount, amount, (s, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(scaledAmount(low, s)).toBeLessThanOrEqual(scaledAmount(high, s));
      }),
    );
  });

  it('a flat scale equals percentOf, which is the half-up rounding of the exact rate', () => {
    fc.assert(
      fc.property(amount, rate, (a, r) => {
        expect(scaledAmount(a, flatRate(r))).toBe(percentOf(a, r));
        // below 2^53 / 10000 the float product is exact and x.5 divides exactly
        if (a <= 900_000_000_000) expect(percentOf(a, r)).toBe(Math.round((a * r) / 10_000));
      }),
    );
  });

  it('a flat rate cut into bands gives the same amount (rounded once)', () => {
    fc.assert(
      fc.property(scale, rate, amount, (s, r, a) => {
        const cut = s.map((band) => ({ ...band, rateBps: r }));
        expect(scaledAmount(a, cut)).toBe(percentOf(a, r));
      }),
    );
  });

  it('scaledAmount lies between the lowest and highest band rates of the amount', () => {
    fc.assert(
      fc.property(scale, amount, (s, a) => {
        const rates = s.map((band) => band.rateBps);
        const value = scaledAmount(a, s);
        expect(value).toBeGreaterThanOrEqual(percentOf(a, Math.min(...rates)));
        expect(value).toBeLessThanOrEqual(percentOf(a, Math.max(...rates)));
      }),
    );
  });

  it('invoice totals are the sums of their parts, with tax once per component', () => {
    fc.assert(
      fc.property(invoiceLines, terms, charges, (lines, t, c) => {
        const invoice = invoiceMath(lines, t, c);
        expect(allSafeIntegers(invoice)).toBe(true);
        expect(numbersIn(invoice).every((n) => n >= 0)).toBe(true);
        const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
        expect(invoice.premiumTotal).toBe(sum(invoice.lines.map((line) => line.premium)));
        expect(invoice.hammerTotal).toBe(sum(lines.map((line) => line.hammer)));
        expect(invoice.chargesTotal).toBe(sum(c.map((charge) => charge.amount)));
        expect(invoice.tax.hammer).toBe(percentOf(invoice.hammerTotal, t.tax.hammerBps));
        expect(invoice.tax.premium).toBe(percentOf(invoice.premiumTotal, t.tax.premiumBps));
        expect(invoice.tax.charges).toBe(percentOf(invoice.chargesTotal, t.tax.chargesBps));
        expect(invoice.tax.total).toBe(
          invoice.tax.hammer + invoice.tax.premium + invoice.tax.charges,
        );
        expect(invoice.grandTotal).toBe(
          invoice.hammerTotal + invoice.premiumTotal + invoice.chargesTotal + invoice.tax.total,
        );
        invoice.lines.forEach((line, i) => {
          const internet = lines[i]!.internet && t.internetPremium !== null;
          expect(line.premium).toBe(
            scaledAmount(line.hammer, internet ? t.internetPremium! : t.premium),
          );
        });
      }),
    );
  });

  it('crediting every lot and all charges nets the invoice to zero', () => {
    fc.assert(
      fc.property(invoiceLines, terms, charges, (lines, t, c) => {
        const invoice = invoiceMath(lines, t, c);
        const credit = creditMath(
          invoice,
          lines.map((line) => line.lotNumber),
          invoice.chargesTotal,
          t,
        );
        expect(credit).toEqual(invoice);
        expect(numbersIn(applyCredit(invoice, credit)).every((n) => n === 0)).toBe(true);
      }),
    );
  });

  it('invoice - credit note = the invoice of what remains', () => {
    fc.assert(
      fc.property(
        invoiceLines,
        terms,
        charges,
        fc.infiniteStream(fc.boolean()),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (lines, t, c, picks, share) => {
          const invoice = invoiceMath(lines, t, c);
          const credited = lines.filter(() => picks.next().value).map((line) => line.lotNumber);
          const creditedCharges = Math.floor(invoice.chargesTotal * share);
          const credit = creditMath(invoice, credited, creditedCharges, t);
          expect(allSafeIntegers(credit)).toBe(true);
          expect(numbersIn(credit).every((n) => n >= 0)).toBe(true);
          const remaining = lines.filter((line) => !credited.includes(line.lotNumber));
          const expected = invoiceMath(remaining, t, [
            { label: 'Charges', amount: invoice.chargesTotal - creditedCharges },
          ]);
          expect(applyCredit(invoice, credit)).toEqual(expected);
        },
      ),
    );
  });

  it('settlement net = hammer - commission - fees - buy-back fees + adjustments, within bounds', () => {
    fc.assert(
      fc.property(settlementLots, scheme, consignorFees, adjustments, (lots, s, f, adj) => {
        const settlement = settlementMath(lots, s, f, adj);
        expect(allSafeIntegers(settlement)).toBe(true);
        expect(settlement.netPayable).toBe(
          settlement.hammerTotal -
            settlement.commissionTotal -
            settlement.feesTotal -
            settlement.buyBackFees +
            settlement.adjustments,
        );
        const nets = settlement.lots.reduce((sum, lot) => sum + lot.net, 0);
        expect(settlement.netPayable).toBe(nets + adj);
        const minimumPerLot = s.kind === 'none' ? 0 : s.minimumPerLot;
        for (const lot of settlement.lots) {
          expect(lot.commission).toBeLessThanOrEqual(lot.hammer);
          expect(lot.fees).toBeGreaterThanOrEqual(0);
          if (lot.boughtBack) {
            expect(lot.commission).toBe(0);
            expect(lot.fees).toBe(percentOf(lot.hammer, f.buyBackBps));
          } else {
            expect(lot.commission).toBeGreaterThanOrEqual(Math.min(minimumPerLot, lot.hammer));
            expect(lot.net).toBe(lot.hammer - lot.commission - lot.fees);
          }
        }
      }),
    );
  });

  it('cumulative commission totals scaledAmount of the sold hammer (before minimums)', () => {
    fc.assert(
      fc.property(settlementLots, scale, (lots, s) => {
        const settlement = settlementMath(
          lots,
          { kind: 'cumulative', scale: s, minimumPerLot: 0 },
          { perLot: 0, insuranceBps: 0, buyBackBps: 0 },
          0,
        );
        expect(settlement.commissionTotal).toBe(scaledAmount(settlement.hammerTotal, s));
      }),
    );
  });
});
