import {
  settlementMath,
  type CommissionScheme,
  type ConsignorFees,
  type SettlementLotInput,
} from '../money-math.js';
import type {
  PendingLot,
  ReversalReason,
  StatementAdjustment,
  StatementLine,
  StatementTotals,
} from './settlements.schema.js';

/**
 * What goes on a consignor's next statement for an auction, given what earlier (closed)
 * statements already settled. Statements are never rewritten once approved: the next one carries
 * the lots newly payable and takes back, as negative adjustments, lots settled earlier whose money
 * went back to the buyer (a credit note, a refund, a chargeback, even after the consignor was
 * paid). Pure, so the arithmetic is property-tested.
 */

/** One of the consignor's sold lots as the catalogue and the clerk have it now, in sale order. */
export interface ConsignorLot {
  lotId: string;
  lotNumber: string;
  title: string;
  hammer: number;
  /** The consignor bought it back: settled at once, for the buy-back fee only. */
  boughtBack: boolean;
}

/** What the buyer's side says of a lot: 'none' when no invoice names it yet. */
export type BuyerPaymentState =
  'none' | 'unpaid' | 'paid' | 'credited' | 'refunded' | 'charged_back';

/** A statement already closed (approved or paid): what it settled and what it took back. */
export interface ClosedStatement {
  id: string;
  lines: readonly StatementLine[];
  adjustments: readonly StatementAdjustment[];
}

export interface NextStatement {
  lines: StatementLine[];
  adjustments: StatementAdjustment[];
  pending: PendingLot[];
  totals: StatementTotals;
}

/** A lot settled and not taken back since: the line that paid it and the statement it is on. */
interface Settled {
  line: StatementLine;
  statementId: string;
}

/** The lots the closed statements leave settled, each with the line that settled it. */
export function settledLots(closed: readonly ClosedStatement[]): Map<string, Settled> {
  const settled = new Map<string, Settled>();
  for (const statement of closed) {
    // Within a statement a lot's reversal comes before its new line (a corrected hammer).
    for (const adjustment of statement.adjustments) settled.delete(adjustment.lotId);
    for (const line of statement.lines) {
      settled.set(line.lotId, { line, statementId: statement.id });
    }
  }
  return settled;
}

const payable = (lot: ConsignorLot, state: BuyerPaymentState) => lot.boughtBack || state === 'paid';

/** Whether the line settled earlier still says what settling the lot now would say. */
const stillMatches = (line: StatementLine, lot: ConsignorLot) =>
  line.hammer === lot.hammer && line.boughtBack === lot.boughtBack;

function reasonFor(lot: ConsignorLot | undefined, state: BuyerPaymentState): ReversalReason {
  if (!lot) return 'result_changed';
  if (state === 'credited' || state === 'refunded' || state === 'charged_back') return state;
  return payable(lot, state) ? 'result_changed' : 'unpaid';
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * The next statement: lots payable now and not settled (a buy-back at once; a sale when its buyer
 * has paid), reversals of lots settled but no longer payable (or whose result changed), and the
 * sold lots still waiting for their buyer's payment. Empty lines and adjustments = nothing to
 * settle. The cumulative scheme counts from the hammer already settled, so splitting a sale over
 * statements takes the same commission as settling it at once.
 */
export function nextStatement(
  lots: readonly ConsignorLot[],
  states: ReadonlyMap<string, BuyerPaymentState>,
  closed: readonly ClosedStatement[],
  commission: CommissionScheme,
  fees: ConsignorFees,
): NextStatement {
  const settled = settledLots(closed);
  const byId = new Map(lots.map((lot) => [lot.lotId, lot]));
  const stateOf = (lotId: string) => states.get(lotId) ?? 'none';

  const adjustments: StatementAdjustment[] = [];
  for (const [lotId, { line, statementId }] of settled) {
    const lot = byId.get(lotId);
    if (lot && payable(lot, stateOf(lotId)) && stillMatches(line, lot)) continue;
    adjustments.push({
      lotId,
      lotNumber: line.lotNumber,
      title: line.title,
      reason: reasonFor(lot, stateOf(lotId)),
      amount: -line.net,
      reverses: statementId,
    });
  }
  const reversed = new Set(adjustments.map((adjustment) => adjustment.lotId));
  const kept = (lotId: string) => settled.has(lotId) && !reversed.has(lotId);

  const toSettle = lots.filter((lot) => !kept(lot.lotId) && payable(lot, stateOf(lot.lotId)));
  const pending = lots
    .filter((lot) => !kept(lot.lotId) && !payable(lot, stateOf(lot.lotId)))
    .filter((lot) => ['none', 'unpaid'].includes(stateOf(lot.lotId)))
    .map(({ lotId, lotNumber, title, hammer }) => ({ lotId, lotNumber, title, hammer }));

  // What stays settled goes first, so a cumulative scale starts where the earlier statements ended.
  const base: SettlementLotInput[] =
    commission.kind === 'cumulative'
      ? lots
          .filter((lot) => kept(lot.lotId))
          .map(({ lotNumber, hammer, boughtBack }) => ({ lotNumber, hammer, boughtBack }))
      : [];
  const adjustmentTotal = sum(adjustments.map((adjustment) => adjustment.amount));
  const math = settlementMath(
    [
      ...base,
      ...toSettle.map(({ lotNumber, hammer, boughtBack }) => ({ lotNumber, hammer, boughtBack })),
    ],
    commission,
    fees,
    adjustmentTotal,
  );
  const rows = math.lots.slice(base.length);
  const lines: StatementLine[] = rows.map((row, index) => {
    const lot = toSettle[index] as ConsignorLot;
    return {
      lotId: lot.lotId,
      lotNumber: lot.lotNumber,
      title: lot.title,
      hammer: row.hammer,
      commission: row.commission,
      fees: row.fees,
      net: row.net,
      boughtBack: row.boughtBack,
    };
  });
  const sold = lines.filter((line) => !line.boughtBack);
  const totals = {
    hammer: sum(sold.map((line) => line.hammer)),
    commission: sum(sold.map((line) => line.commission)),
    fees: sum(sold.map((line) => line.fees)),
    buyBackFees: sum(lines.filter((line) => line.boughtBack).map((line) => line.fees)),
    adjustments: adjustmentTotal,
    pendingHammer: sum(pending.map((lot) => lot.hammer)),
  };
  return {
    lines,
    adjustments,
    pending,
    totals: {
      ...totals,
      net:
        base.length === 0
          ? math.netPayable
          : totals.hammer - totals.commission - totals.fees - totals.buyBackFees + adjustmentTotal,
    },
  };
}

/** Whether a statement would settle or take back anything. */
export const settlesAnything = (next: Pick<NextStatement, 'lines' | 'adjustments'>) =>
  next.lines.length > 0 || next.adjustments.length > 0;
