/**
 * The money arithmetic of payments: buyer's premium, tax, invoices, credit notes and consignor
 * settlements. Pure functions over integer minor units (cents for USD); rates are basis points
 * (1 bp = 0.01%, so 26% = 2600, 100% = 10000).
 *
 * Rounding: every rounding is half-up to the minor unit (all amounts rounded are non-negative, so
 * half-up and half-away-from-zero agree), and each figure is rounded exactly once:
 * - a sliding scale is summed exactly across its bands, then rounded (never band by band);
 * - premium and commission are rounded once per lot;
 * - tax is rounded once per invoice component (hammer, premium, charges) on that component's total.
 * This matches how houses print invoices (a premium per lot line, one tax figure per kind) and keeps
 * the sum of the printed lines equal to the printed total.
 *
 * Products such as amount * rateBps can exceed 2^53 (1e12 cents * 10000 = 1e16), so they are taken
 * in BigInt; every result is checked to be a safe integer. Bad input throws a RangeError naming the
 * offending field.
 */

/** A band of a sliding scale: the rate applies to the part of the amount up to `upTo` (minor units, exclusive of the previous band's upTo); null = everything above. Bands ascending; last has upTo null. */
export interface RateBand {
  upTo: number | null;
  rateBps: number;
}
/** A flat rate is `[{ upTo: null, rateBps }]`. */
export type RateScale = RateBand[];

const MAX_BPS = 10_000;
const BPS = 10_000n;
const HALF = 5_000n;

function assertAmount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative integer of minor units (got ${value})`);
  }
}

function assertSignedAmount(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be an integer of minor units (got ${value})`);
  }
}

function assertRate(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_BPS) {
    throw new RangeError(
      `${what} must be an integer of basis points from 0 to 10000 (got ${value})`,
    );
  }
}

/** Throws a RangeError unless `scale` is a valid scale: ascending bands, only the last open-ended, rates 0..10000 bp. */
export function assertRateScale(scale: RateScale, what = 'scale'): void {
  if (!Array.isArray(scale) || scale.length === 0) {
    throw new RangeError(`${what} must have at least one band`);
  }
  let previous = 0;
  scale.forEach((band, i) => {
    assertRate(band.rateBps, `${what}[${i}].rateBps`);
    const last = i === scale.length - 1;
    if (band.upTo === null) {
      if (!last) throw new RangeError(`${what}[${i}].upTo may be null only on the last band`);
      return;
    }
    if (last) throw new RangeError(`${what}[${i}].upTo must be null on the last band`);
    assertAmount(band.upTo, `${what}[${i}].upTo`);
    if (band.upTo <= previous) {
      throw new RangeError(
        `${what}[${i}].upTo must be above the previous band's (bands ascending)`,
      );
    }
    previous = band.upTo;
  });
}

export const flatRate = (rateBps: number): RateScale => {
  assertRate(rateBps, 'rateBps');
  return [{ upTo: null, rateBps }];
};

/** Christie's (26% up to $1M, 21% up to $6M, 15% above), as an example constant for USD (cents) */
export const CHRISTIES_PREMIUM_USD: RateScale = [
  { upTo: 100_000_000, rateBps: 2600 },
  { upTo: 600_000_000, rateBps: 2100 },
  { upTo: null, rateBps: 1500 },
];
CHRISTIES_PREMIUM_USD.forEach((band) => Object.freeze(band));
Object.freeze(CHRISTIES_PREMIUM_USD);

/** The scaled amount in hundredths of a basis point of a minor unit (exact), for a valid scale. */
function exactScaled(amount: bigint, scale: RateScale): bigint {
  let sum = 0n;
  let floor = 0n;
  for (const band of scale) {
    const top = band.upTo === null ? amount : BigInt(band.upTo);
    const ceiling = top < amount ? top : amount;
    if (ceiling <= floor) break;
    sum += (ceiling - floor) * BigInt(band.rateBps);
    floor = ceiling;
  }
  return sum;
}

const roundHalfUp = (exact: bigint): bigint => (exact + HALF) / BPS;

function toSafe(value: bigint, what: string): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result))
    throw new RangeError(`${what} is too large to represent exactly`);
  return result;
}

const scaledUnchecked = (amount: number, scale: RateScale): number =>
  Number(roundHalfUp(exactScaled(BigInt(amount), scale)));

const percentUnchecked = (amount: number, rateBps: number): number =>
  Number(roundHalfUp(BigInt(amount) * BigInt(rateBps)));

/** Marginal ("sliding") amount: each band's rate on the slice of `amount` inside it, summed exactly and rounded once, half-up, to a minor unit. */
export function scaledAmount(amount: number, scale: RateScale): number {
  assertAmount(amount, 'amount');
  assertRateScale(scale);
  return scaledUnchecked(amount, scale);
}

/** rate of amount, rounded half-up once */
export function percentOf(amount: number, rateBps: number): number {
  assertAmount(amount, 'amount');
  assertRate(rateBps, 'rateBps');
  return percentUnchecked(amount, rateBps);
}

function total(values: readonly number[], what: string): number {
  return toSafe(
    values.reduce((sum, value) => sum + BigInt(value), 0n),
    what,
  );
}

// ---- Buyer invoices and credit notes ----

export interface InvoiceLineInput {
  lotNumber: string;
  hammer: number;
  internet: boolean;
}
export interface InvoiceTerms {
  /** per lot on its hammer */
  premium: RateScale;
  /** for lots won by internet bidders; null = same as premium */
  internetPremium: RateScale | null;
  /** separate rates, as Bidlogix keeps them */
  tax: { hammerBps: number; premiumBps: number; chargesBps: number };
}
/** shipping, handling, storage... */
export interface InvoiceCharge {
  label: string;
  amount: number;
}
export interface InvoiceMath {
  lines: { lotNumber: string; hammer: number; premium: number }[];
  hammerTotal: number;
  premiumTotal: number;
  chargesTotal: number;
  tax: { hammer: number; premium: number; charges: number; total: number };
  grandTotal: number;
}
type InvoiceLine = InvoiceMath['lines'][number];

function assertTerms(terms: InvoiceTerms): void {
  assertRateScale(terms.premium, 'terms.premium');
  if (terms.internetPremium !== null)
    assertRateScale(terms.internetPremium, 'terms.internetPremium');
  assertRate(terms.tax.hammerBps, 'terms.tax.hammerBps');
  assertRate(terms.tax.premiumBps, 'terms.tax.premiumBps');
  assertRate(terms.tax.chargesBps, 'terms.tax.chargesBps');
}

/** Totals and tax of priced lines and a charges total (tax once per component). */
function assemble(
  lines: InvoiceLine[],
  chargesTotal: number,
  tax: InvoiceTerms['tax'],
): InvoiceMath {
  const hammerTotal = total(
    lines.map((line) => line.hammer),
    'hammerTotal',
  );
  const premiumTotal = total(
    lines.map((line) => line.premium),
    'premiumTotal',
  );
  const taxes = {
    hammer: percentUnchecked(hammerTotal, tax.hammerBps),
    premium: percentUnchecked(premiumTotal, tax.premiumBps),
    charges: percentUnchecked(chargesTotal, tax.chargesBps),
  };
  const taxTotal = total([taxes.hammer, taxes.premium, taxes.charges], 'tax.total');
  return {
    lines,
    hammerTotal,
    premiumTotal,
    chargesTotal,
    tax: { ...taxes, total: taxTotal },
    grandTotal: total([hammerTotal, premiumTotal, chargesTotal, taxTotal], 'grandTotal'),
  };
}

/** Premium per lot (rounded per lot), tax per component on the invoice totals (rounded once per component), grand total = hammer + premium + charges + tax. Lot numbers must be unique. */
export function invoiceMath(
  lines: readonly InvoiceLineInput[],
  terms: InvoiceTerms,
  charges: readonly InvoiceCharge[],
): InvoiceMath {
  assertTerms(terms);
  const seen = new Set<string>();
  const priced = lines.map((line, i): InvoiceLine => {
    if (seen.has(line.lotNumber)) {
      throw new RangeError(`lines[${i}].lotNumber ${line.lotNumber} appears twice`);
    }
    seen.add(line.lotNumber);
    assertAmount(line.hammer, `lines[${i}].hammer`);
    const scale = line.internet && terms.internetPremium ? terms.internetPremium : terms.premium;
    return {
      lotNumber: line.lotNumber,
      hammer: line.hammer,
      premium: scaledUnchecked(line.hammer, scale),
    };
  });
  charges.forEach((charge, i) => assertAmount(charge.amount, `charges[${i}].amount`));
  const chargesTotal = total(
    charges.map((charge) => charge.amount),
    'chargesTotal',
  );
  return assemble(priced, chargesTotal, terms.tax);
}

/** Throws unless `invoice` is what these terms make of its own lines and charges total. */
function assertInvoiceOf(invoice: InvoiceMath, terms: InvoiceTerms, what: string): void {
  invoice.lines.forEach((line, i) => {
    assertAmount(line.hammer, `${what}.lines[${i}].hammer`);
    assertAmount(line.premium, `${what}.lines[${i}].premium`);
  });
  assertAmount(invoice.chargesTotal, `${what}.chargesTotal`);
  const expected = assemble(invoice.lines, invoice.chargesTotal, terms.tax);
  const fields = [
    ['hammerTotal', invoice.hammerTotal, expected.hammerTotal],
    ['premiumTotal', invoice.premiumTotal, expected.premiumTotal],
    ['tax.hammer', invoice.tax.hammer, expected.tax.hammer],
    ['tax.premium', invoice.tax.premium, expected.tax.premium],
    ['tax.charges', invoice.tax.charges, expected.tax.charges],
    ['tax.total', invoice.tax.total, expected.tax.total],
    ['grandTotal', invoice.grandTotal, expected.grandTotal],
  ] as const;
  for (const [field, actual, wanted] of fields) {
    if (actual !== wanted) {
      throw new RangeError(`${what}.${field} is ${actual} but its lines and terms make ${wanted}`);
    }
  }
}

/**
 * A credit note: what must be taken off `original` (an invoice from `invoiceMath`, or a corrected
 * invoice from `applyCredit`, made with these `terms`) to credit the named lots in full and
 * `creditedCharges` of its charges. All amounts are positive (= what is credited).
 *
 * The credit is the difference between the original and the corrected invoice, so
 * invoice - credit note = the corrected invoice to the cent: credited lots keep the premium
 * printed on the invoice, and each tax component is original tax - tax of the corrected total
 * (not tax of the credited amount, which could differ by a rounding cent). A partial refund on a
 * lot's price is not a lot credit; credit it as charges or a separate adjustment.
 * For a second credit note on the same invoice, pass `applyCredit(original, firstCredit)`.
 */
export function creditMath(
  original: InvoiceMath,
  creditedLotNumbers: readonly string[],
  creditedCharges: number,
  terms: InvoiceTerms,
): InvoiceMath {
  assertTerms(terms);
  assertInvoiceOf(original, terms, 'original');
  const onInvoice = new Set(original.lines.map((line) => line.lotNumber));
  const credited = new Set<string>();
  creditedLotNumbers.forEach((lotNumber, i) => {
    if (!onInvoice.has(lotNumber)) {
      throw new RangeError(`creditedLotNumbers[${i}] ${lotNumber} is not on the invoice`);
    }
    if (credited.has(lotNumber)) {
      throw new RangeError(`creditedLotNumbers[${i}] ${lotNumber} appears twice`);
    }
    credited.add(lotNumber);
  });
  assertAmount(creditedCharges, 'creditedCharges');
  if (creditedCharges > original.chargesTotal) {
    throw new RangeError(
      `creditedCharges ${creditedCharges} is more than the invoice's charges ${original.chargesTotal}`,
    );
  }
  const corrected = assemble(
    original.lines.filter((line) => !credited.has(line.lotNumber)),
    original.chargesTotal - creditedCharges,
    terms.tax,
  );
  return {
    lines: original.lines
      .filter((line) => credited.has(line.lotNumber))
      .map((line) => ({ ...line })),
    ...difference(original, corrected),
  };
}

function difference(a: InvoiceMath, b: InvoiceMath): Omit<InvoiceMath, 'lines'> {
  return {
    hammerTotal: a.hammerTotal - b.hammerTotal,
    premiumTotal: a.premiumTotal - b.premiumTotal,
    chargesTotal: a.chargesTotal - b.chargesTotal,
    tax: {
      hammer: a.tax.hammer - b.tax.hammer,
      premium: a.tax.premium - b.tax.premium,
      charges: a.tax.charges - b.tax.charges,
      total: a.tax.total - b.tax.total,
    },
    grandTotal: a.grandTotal - b.grandTotal,
  };
}

/** The corrected invoice: `invoice` less a credit note made from it by `creditMath`. */
export function applyCredit(invoice: InvoiceMath, credit: InvoiceMath): InvoiceMath {
  const creditedLots = new Set(credit.lines.map((line) => line.lotNumber));
  const onInvoice = new Set(invoice.lines.map((line) => line.lotNumber));
  credit.lines.forEach((line, i) => {
    if (!onInvoice.has(line.lotNumber)) {
      throw new RangeError(`credit.lines[${i}] ${line.lotNumber} is not on the invoice`);
    }
  });
  const corrected: InvoiceMath = {
    lines: invoice.lines
      .filter((line) => !creditedLots.has(line.lotNumber))
      .map((line) => ({ ...line })),
    ...difference(invoice, credit),
  };
  const amounts = [
    corrected.hammerTotal,
    corrected.premiumTotal,
    corrected.chargesTotal,
    corrected.tax.total,
    corrected.grandTotal,
  ];
  if (amounts.some((amount) => !Number.isSafeInteger(amount) || amount < 0)) {
    throw new RangeError('credit is more than the invoice');
  }
  return corrected;
}

// ---- Consignor commission and settlement ----

export type CommissionScheme =
  | { kind: 'none' }
  | { kind: 'fixed'; rateBps: number; minimumPerLot: number }
  /** per lot, marginal on each lot's hammer */
  | { kind: 'sliding'; scale: RateScale; minimumPerLot: number }
  /** marginal on the consignor's running hammer total across the sale, in lot order: a lot's commission is scaledAmount(before+hammer) - scaledAmount(before), so the total equals scaledAmount(total) */
  | { kind: 'cumulative'; scale: RateScale; minimumPerLot: number };
export interface SettlementLotInput {
  lotNumber: string;
  hammer: number;
  boughtBack: boolean;
}
/** per sold lot fee; insurance on hammer; buy-back fee on the hammer of bought-back lots */
export interface ConsignorFees {
  perLot: number;
  insuranceBps: number;
  buyBackBps: number;
}
export interface SettlementMath {
  lots: {
    lotNumber: string;
    hammer: number;
    commission: number;
    fees: number;
    net: number;
    boughtBack: boolean;
  }[];
  /** of lots sold to real buyers (not bought back) */
  hammerTotal: number;
  commissionTotal: number;
  /** per-lot and insurance fees of sold lots */
  feesTotal: number;
  /** buy-back fees of bought-back lots (their `fees` in `lots`) */
  buyBackFees: number;
  /** carried in (negative = deducted, e.g. a chargeback after the consignor was paid) */
  adjustments: number;
  /** hammerTotal - commission - fees - buyBackFees + adjustments; negative = owed by the consignor */
  netPayable: number;
}

function assertScheme(scheme: CommissionScheme): void {
  switch (scheme.kind) {
    case 'none':
      return;
    case 'fixed':
      assertRate(scheme.rateBps, 'scheme.rateBps');
      assertAmount(scheme.minimumPerLot, 'scheme.minimumPerLot');
      return;
    case 'sliding':
    case 'cumulative':
      assertRateScale(scheme.scale, 'scheme.scale');
      assertAmount(scheme.minimumPerLot, 'scheme.minimumPerLot');
      return;
    default:
      throw new RangeError(`scheme.kind ${(scheme as { kind: unknown }).kind} is not known`);
  }
}

/**
 * A consignor's settlement for one sale. `lots` are the consignor's lots that sold or were bought
 * back (unsold lots are left out), in sale order: the cumulative scheme walks them in that order.
 *
 * A sold lot pays commission (per the scheme, rounded once per lot, then raised to the scheme's
 * minimum but never above the hammer), the per-lot fee and insurance on its hammer; its `net` is
 * hammer - commission - fees and may be negative when fees exceed a small hammer. A bought-back
 * lot pays no commission, only the buy-back fee (its `fees`; net = -fee), and neither its hammer
 * nor its fee counts in hammerTotal/feesTotal; it does not advance the cumulative total.
 * netPayable = hammerTotal - commissionTotal - feesTotal - buyBackFees + adjustments (= the sum of
 * the lots' nets + adjustments); a negative netPayable is owed by the consignor to the house.
 */
export function settlementMath(
  lots: readonly SettlementLotInput[],
  scheme: CommissionScheme,
  fees: ConsignorFees,
  adjustments: number,
): SettlementMath {
  assertScheme(scheme);
  assertAmount(fees.perLot, 'fees.perLot');
  assertRate(fees.insuranceBps, 'fees.insuranceBps');
  assertRate(fees.buyBackBps, 'fees.buyBackBps');
  assertSignedAmount(adjustments, 'adjustments');

  const seen = new Set<string>();
  let before = 0n;
  const rows = lots.map((lot, i): SettlementMath['lots'][number] => {
    if (seen.has(lot.lotNumber)) {
      throw new RangeError(`lots[${i}].lotNumber ${lot.lotNumber} appears twice`);
    }
    seen.add(lot.lotNumber);
    assertAmount(lot.hammer, `lots[${i}].hammer`);
    const { lotNumber, hammer } = lot;
    if (lot.boughtBack) {
      const fee = percentUnchecked(hammer, fees.buyBackBps);
      return { lotNumber, hammer, commission: 0, fees: fee, net: 0 - fee, boughtBack: true };
    }
    let raw: number;
    switch (scheme.kind) {
      case 'none':
        raw = 0;
        break;
      case 'fixed':
        raw = percentUnchecked(hammer, scheme.rateBps);
        break;
      case 'sliding':
        raw = scaledUnchecked(hammer, scheme.scale);
        break;
      case 'cumulative': {
        const after = before + BigInt(hammer);
        raw = Number(
          roundHalfUp(exactScaled(after, scheme.scale)) -
            roundHalfUp(exactScaled(before, scheme.scale)),
        );
        before = after;
        break;
      }
    }
    const minimum = scheme.kind === 'none' ? 0 : scheme.minimumPerLot;
    const commission = Math.min(hammer, Math.max(raw, Math.min(minimum, hammer)));
    const lotFees = fees.perLot + percentUnchecked(hammer, fees.insuranceBps);
    assertAmount(lotFees, `lots[${i}] fees`);
    return {
      lotNumber,
      hammer,
      commission,
      fees: lotFees,
      net: hammer - commission - lotFees,
      boughtBack: false,
    };
  });

  const sold = rows.filter((row) => !row.boughtBack);
  const hammerTotal = total(
    sold.map((row) => row.hammer),
    'hammerTotal',
  );
  const commissionTotal = total(
    sold.map((row) => row.commission),
    'commissionTotal',
  );
  const feesTotal = total(
    sold.map((row) => row.fees),
    'feesTotal',
  );
  const buyBackFees = total(
    rows.filter((row) => row.boughtBack).map((row) => row.fees),
    'buyBackFees',
  );
  const netPayable = toSafe(
    BigInt(hammerTotal) -
      BigInt(commissionTotal) -
      BigInt(feesTotal) -
      BigInt(buyBackFees) +
      BigInt(adjustments),
    'netPayable',
  );
  return {
    lots: rows,
    hammerTotal,
    commissionTotal,
    feesTotal,
    buyBackFees,
    adjustments,
    netPayable,
  };
}
