import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settlementMath, type CommissionScheme, type ConsignorFees } from '../money-math.js';
import {
  nextStatement,
  settledLots,
  settlesAnything,
  type BuyerPaymentState,
  type ClosedStatement,
  type ConsignorLot,
} from './statement-diff.js';

const noFees: ConsignorFees = { perLot: 0, insuranceBps: 0, buyBackBps: 0 };
const fifteen: CommissionScheme = { kind: 'fixed', rateBps: 1500, minimumPerLot: 0 };

const lot = (n: number, hammer: number, boughtBack = false): ConsignorLot => ({
  lotId: `lot-${n}`,
  lotNumber: String(n),
  title: `Lot ${n}`,
  hammer,
  boughtBack,
});

const states = (entries: [number, BuyerPaymentState][]) =>
  new Map(entries.map(([n, state]) => [`lot-${n}`, state]));

/** Closes a statement as approval would, numbering it after the ones before. */
const close = (history: ClosedStatement[], next: ReturnType<typeof nextStatement>) => [
  ...history,
  { id: `st-${history.length + 1}`, lines: next.lines, adjustments: next.adjustments },
];

describe('the next statement', () => {
  it('pays only lots whose buyer has paid, listing the unpaid as pending', () => {
    const lots = [lot(1, 100_000), lot(2, 50_000), lot(3, 20_000)];
    const next = nextStatement(
      lots,
      states([
        [1, 'paid'],
        [2, 'unpaid'],
      ]),
      [],
      fifteen,
      { perLot: 500, insuranceBps: 100, buyBackBps: 0 },
    );
    expect(next.lines.map((line) => line.lotNumber)).toEqual(['1']);
    expect(next.lines[0]).toMatchObject({ hammer: 100_000, commission: 15_000, fees: 1_500 });
    expect(next.pending.map((pending) => pending.lotNumber)).toEqual(['2', '3']);
    expect(next.totals).toMatchObject({ hammer: 100_000, net: 83_500, pendingHammer: 70_000 });
  });

  it('settles a buy-back at once for its fee, whatever the invoice says', () => {
    const next = nextStatement([lot(1, 40_000, true)], new Map(), [], fifteen, {
      ...noFees,
      buyBackBps: 500,
    });
    expect(next.lines[0]).toMatchObject({ commission: 0, fees: 2_000, net: -2_000 });
    expect(next.totals).toMatchObject({ hammer: 0, buyBackFees: 2_000, net: -2_000 });
  });

  it('carries a late payment and a later refund into new statements, never the old', () => {
    const lots = [lot(1, 100_000), lot(2, 50_000)];
    const first = nextStatement(
      lots,
      states([
        [1, 'paid'],
        [2, 'unpaid'],
      ]),
      [],
      fifteen,
      noFees,
    );
    let history = close([], first);
    const second = nextStatement(
      lots,
      states([
        [1, 'paid'],
        [2, 'paid'],
      ]),
      history,
      fifteen,
      noFees,
    );
    expect(second.lines.map((line) => line.lotNumber)).toEqual(['2']);
    expect(second.adjustments).toEqual([]);
    expect(second.totals.net).toBe(42_500);
    history = close(history, second);

    const third = nextStatement(
      lots,
      states([
        [1, 'charged_back'],
        [2, 'paid'],
      ]),
      history,
      fifteen,
      noFees,
    );
    expect(third.lines).toEqual([]);
    expect(third.adjustments).toEqual([
      {
        lotId: 'lot-1',
        lotNumber: '1',
        title: 'Lot 1',
        reason: 'charged_back',
        amount: -85_000,
        reverses: 'st-1',
      },
    ]);
    expect(third.totals.net).toBe(-85_000);
  });

  it('takes back and settles again a lot whose hammer was corrected', () => {
    const history = close(
      [],
      nextStatement([lot(1, 100_000)], states([[1, 'paid']]), [], fifteen, noFees),
    );
    const next = nextStatement([lot(1, 90_000)], states([[1, 'paid']]), history, fifteen, noFees);
    expect(next.adjustments).toMatchObject([{ reason: 'result_changed', amount: -85_000 }]);
    expect(next.lines).toMatchObject([{ hammer: 90_000, net: 76_500 }]);
    expect(next.totals.net).toBe(76_500 - 85_000);
    expect(settledLots(close(history, next)).get('lot-1')?.line.hammer).toBe(90_000);
  });
});

// ---- Properties ----

const paymentStates: BuyerPaymentState[] = [
  'none',
  'unpaid',
  'paid',
  'credited',
  'refunded',
  'charged_back',
];

const scale = fc
  .uniqueArray(fc.integer({ min: 1, max: 2_000_000 }), { minLength: 0, maxLength: 3 })
  .chain((tops) =>
    fc
      .array(fc.integer({ min: 0, max: 10_000 }), {
        minLength: tops.length + 1,
        maxLength: tops.length + 1,
      })
      .map((rates) => [
        ...[...tops]
          .sort((a, b) => a - b)
          .map((upTo, i) => ({ upTo, rateBps: rates[i] as number })),
        { upTo: null, rateBps: rates[tops.length] as number },
      ]),
  );

const schemes: fc.Arbitrary<CommissionScheme> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('fixed' as const),
    rateBps: fc.integer({ min: 0, max: 10_000 }),
    minimumPerLot: fc.integer({ min: 0, max: 50_000 }),
  }),
  fc.record({
    kind: fc.constant('sliding' as const),
    scale,
    minimumPerLot: fc.integer({ min: 0, max: 50_000 }),
  }),
  fc.record({
    kind: fc.constant('cumulative' as const),
    scale,
    minimumPerLot: fc.integer({ min: 0, max: 50_000 }),
  }),
);

const feeTerms: fc.Arbitrary<ConsignorFees> = fc.record({
  perLot: fc.integer({ min: 0, max: 5_000 }),
  insuranceBps: fc.integer({ min: 0, max: 1_000 }),
  buyBackBps: fc.integer({ min: 0, max: 2_000 }),
});

const sale = fc
  .array(fc.record({ hammer: fc.integer({ min: 1, max: 5_000_000 }), boughtBack: fc.boolean() }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((rows) => rows.map((row, i) => lot(i + 1, row.hammer, row.boughtBack)));

/** Each step: the lots' buyer states then (and sometimes a corrected hammer). */
const steps = (lots: ConsignorLot[]) =>
  fc.array(
    fc.record({
      states: fc.array(fc.constantFrom(...paymentStates), {
        minLength: lots.length,
        maxLength: lots.length,
      }),
      corrections: fc.array(fc.integer({ min: 0, max: 3 }), {
        minLength: lots.length,
        maxLength: lots.length,
      }),
    }),
    { minLength: 1, maxLength: 8 },
  );

/** Builds a statement after every step, closing those with anything on them. */
function run(
  initial: ConsignorLot[],
  plan: { states: BuyerPaymentState[]; corrections: number[] }[],
  scheme: CommissionScheme,
  fees: ConsignorFees,
) {
  let history: ClosedStatement[] = [];
  let lots = initial;
  let current = new Map<string, BuyerPaymentState>();
  const nets: number[] = [];
  for (const step of plan) {
    // A correction (1 in 4) moves the hammer by a cent, as a clerk's fix would.
    lots = lots.map((one, i) =>
      step.corrections[i] === 0 ? { ...one, hammer: one.hammer + 1 } : one,
    );
    current = new Map(lots.map((one, i) => [one.lotId, step.states[i] as BuyerPaymentState]));
    const next = nextStatement(lots, current, history, scheme, fees);
    if (settlesAnything(next)) {
      history = close(history, next);
      nets.push(next.totals.net);
    }
  }
  return { history, lots, current, nets };
}

describe('statements over a sale’s life (properties)', () => {
  it('add up to what is paid less what was taken back, and building again adds nothing', () => {
    fc.assert(
      fc.property(
        sale.chain((lots) => fc.tuple(fc.constant(lots), steps(lots), schemes, feeTerms)),
        ([lots, plan, scheme, fees]) => {
          const { history, lots: final, current, nets } = run(lots, plan, scheme, fees);
          const total = nets.reduce((a, b) => a + b, 0);
          const settled = settledLots(history);
          // Net of everything paid minus everything later reversed = the nets of what stays settled.
          expect(total).toBe([...settled.values()].reduce((a, { line }) => a + line.net, 0));
          // Exactly the lots payable now are settled, each at its current hammer.
          const payableNow = final.filter(
            (one) => one.boughtBack || current.get(one.lotId) === 'paid',
          );
          expect([...settled.keys()].sort()).toEqual(payableNow.map((one) => one.lotId).sort());
          for (const one of payableNow)
            expect(settled.get(one.lotId)?.line.hammer).toBe(one.hammer);
          if (scheme.kind !== 'cumulative') {
            // Per-lot schemes: the same as settling today's payable lots in one statement.
            expect(total).toBe(settlementMath(payableNow, scheme, fees, 0).netPayable);
          }
          // Idempotent: with nothing changed, the next build has nothing to settle.
          const again = nextStatement(final, current, history, scheme, fees);
          expect(settlesAnything(again)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a cumulative scale takes the same commission split over statements as at once', () => {
    fc.assert(
      fc.property(
        sale,
        scale,
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
        (lots, bands, paidAtStep) => {
          const scheme: CommissionScheme = { kind: 'cumulative', scale: bands, minimumPerLot: 0 };
          const sold = lots.map((one) => ({ ...one, boughtBack: false }));
          let history: ClosedStatement[] = [];
          for (let step = 0; step < 4; step += 1) {
            const paid = new Map(
              sold.map((one, i) => [
                one.lotId,
                (paidAtStep[i] as number) <= step ? ('paid' as const) : ('unpaid' as const),
              ]),
            );
            const next = nextStatement(sold, paid, history, scheme, noFees);
            if (settlesAnything(next)) history = close(history, next);
          }
          const commission = history
            .flatMap((statement) => statement.lines)
            .reduce((a, line) => a + line.commission, 0);
          expect(commission).toBe(settlementMath(sold, scheme, noFees, 0).commissionTotal);
        },
      ),
      { numRuns: 300 },
    );
  });
});
