import { randomUUID } from 'node:crypto';
import { getAuction } from '../auctions/auctions.service.js';
import type { Currency } from '../auctions/auctions.schema.js';
import type { Lot } from '../auctions/lots/lots.schema.js';
import { listLots } from '../auctions/lots/lots.service.js';
import { recordPaymentOutcome } from '../bidders/payment-outcomes.service.js';
import { getBidder } from '../bidders/bidders.service.js';
import { housesOf } from '../identity/accounts/accounts.service.js';
import {
  getCase,
  listCases,
  recordNonPaymentPayment,
  recordSettlementPayment,
} from '../legal/legal.service.js';
import { runRulesFor } from '../legal/rules/rules.service.js';
import { writeAudit } from '../platform/audit.js';
import { moneyText } from './settlements/money-text.js';
import { systemContext, type AccountScope, type RequestContext } from '../platform/context.js';
import type { Logger } from '../platform/logging.js';
import { isConflict, isNotFound, isStale } from '../platform/cosmos-errors.js';
import { AppError, conflict, notFound, preconditionFailed } from '../platform/errors.js';
import { inFlight } from '../platform/in-flight.js';
import { sendMessage } from '../platform/mail.js';
import { MAX_BATCH_OPERATIONS, type BatchOperation, type Stored } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import {
  applyCredit,
  creditMath,
  flatRate,
  invoiceMath,
  type InvoiceMath,
  type InvoiceTerms as MathTerms,
} from './money-math.js';
import {
  DEFAULT_PAYMENT_DUE_DAYS,
  RECENT_TRANSACTIONS,
  paymentMethods,
  type CreditNote,
  type CreditNoteInput,
  type Invoice,
  type InvoiceLine,
  type InvoiceListItem,
  type InvoiceTerms,
  type InvoiceTermsInput,
  type InvoiceUpdate,
  type ListInvoicesQuery,
  type ListTransactionsQuery,
  type LotPaymentFact,
  type ManualInvoiceInput,
  type OfflinePaymentInput,
  overviewSchema,
  type Overview,
  type ShippingUpdate,
  type Transaction,
} from './payments.schema.js';
import {
  accountsWithOpenInvoices,
  countOf,
  findInvoice,
  findTerms,
  findTransaction,
  invoicesOfAuction,
  listOrders,
  owedDueBefore,
  pageOf,
  paymentsBetween,
  paymentsRepo,
  recentTransactions,
  reserveNumbers,
  termsId,
  transactionFigures,
  transactionsOfInvoice,
  transactionsOfInvoices,
  unpaidDueBefore,
  writeAll,
  type Filters,
  type HistoryEvent,
  type InvoiceRecord,
  type PaymentsDocument,
  type TermsRecord,
  type TransactionRecord,
} from './payments.repo.js';

export type { LotPaymentFact } from './payments.schema.js';

// ---- Shared helpers ----

type Scoped = Pick<RequestContext, 'scope'>;

export const personOf = (ctx: RequestContext) =>
  ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };

export const eventBy = (ctx: RequestContext | null, action: string, detail = ''): HistoryEvent => ({
  at: new Date().toISOString(),
  action,
  by: ctx ? personOf(ctx) : null,
  detail,
});

export const fieldError = (field: string, message: string) =>
  validationError([{ location: 'body', field, message }]);

/** A calendar day in a time zone, as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: Date): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A money amount for mail and history lines, in the currency's own minor units (the yen has
 * none), exactly as statements and exports print it.
 */
export const money = (amount: number, currency: string) =>
  // Invoices and transactions take their currency from an auction or the manual invoice's
  // contract, both the auction currencies.
  moneyText(amount, currency as Currency);

const numberOf = (prefix: string, year: number, value: number) =>
  `${prefix}-${year}-${String(value).padStart(5, '0')}`;

export async function nextNumbers(scope: AccountScope, prefix: string, count: number) {
  const year = new Date().getUTCFullYear();
  const first = await reserveNumbers(scope, `${prefix}-${year}`, count);
  return Array.from({ length: count }, (_, index) => numberOf(prefix, year, first + index));
}

export const isAppStatus = (error: unknown, status: number) =>
  error instanceof AppError && error.status === status;

const searchTextOf = (parts: string[]) => parts.join(' ').toLowerCase();

// ---- Views ----

export function toInvoice(record: Stored<InvoiceRecord>): Invoice {
  return {
    id: record.id,
    number: record.number,
    kind: record.invoiceKind,
    status: record.status,
    auctionId: record.auctionId,
    auctionTitle: record.auctionTitle,
    bidderId: record.bidderId,
    bidderName: record.bidderName,
    bidderEmail: record.bidderEmail,
    currency: record.currency as Currency,
    lines: record.lines,
    charges: record.charges,
    premium: record.premium,
    internetPremium: record.internetPremium,
    taxRates: record.taxRates,
    hammerTotal: record.hammerTotal,
    premiumTotal: record.premiumTotal,
    chargesTotal: record.chargesTotal,
    tax: record.tax,
    grandTotal: record.grandTotal,
    creditedTotal: record.creditedTotal,
    paidTotal: record.paidTotal,
    refundedTotal: record.refundedTotal,
    balance: record.balance,
    credits: record.credits,
    notes: record.notes,
    dueDate: record.dueDate,
    issuedAt: record.issuedAt,
    approvedAt: record.approvedAt,
    sentAt: record.sentAt,
    viewedAt: record.viewedAt,
    paidAt: record.paidAt,
    voidedAt: record.voidedAt,
    overdueAt: record.overdueAt,
    history: record.history,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    etag: record._etag,
  };
}

const toListItem = (record: Stored<InvoiceRecord>): InvoiceListItem => {
  const { history: _history, credits: _credits, ...rest } = toInvoice(record);
  return rest;
};

export function toTransaction(record: Stored<TransactionRecord>): Transaction {
  return {
    id: record.id,
    transactionId: record.transactionId,
    invoiceId: record.invoiceId,
    invoiceNumber: record.invoiceNumber,
    bidderId: record.bidderId,
    bidderName: record.bidderName,
    bidderEmail: record.bidderEmail,
    auctionId: record.auctionId,
    auctionTitle: record.auctionTitle,
    lotNumbers: record.lotNumbers,
    totalAmount: record.totalAmount,
    buyersPremium: record.buyersPremium,
    taxes: record.taxes,
    shippingFees: record.shippingFees,
    grandTotal: record.grandTotal,
    amount: record.amount,
    currency: record.currency as Currency,
    paymentMethod: record.paymentMethod,
    paymentStatus: record.paymentStatus,
    dueDate: record.dueDate,
    paymentDate: record.paymentDate,
    reference: record.reference,
    failureMessage: record.failureMessage,
    refunds: record.refunds,
    refundedAmount: record.refundedAmount,
    dispute: record.dispute,
    stripePaymentIntentId: record.stripePaymentIntentId,
    itemsShipped: record.itemsShipped,
    shippingTrackingNumber: record.shippingTrackingNumber,
    notes: record.notes,
    history: record.history,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    etag: record._etag,
  };
}

// ---- Invoice terms ----

type Auction = Awaited<ReturnType<typeof getAuction>>;

/** Spec default: the auction's premium as a flat rate, no tax, no charges, due in 7 days. */
function defaultTerms(auction: Auction): InvoiceTermsInput {
  return {
    premium: flatRate(Math.round(auction.buyersPremium * 100)),
    internetPremium: null,
    tax: { hammerBps: 0, premiumBps: 0, chargesBps: 0 },
    defaultCharges: [],
    paymentDueDays: DEFAULT_PAYMENT_DUE_DAYS,
  };
}

const defaultEtag = (auctionId: string) => `default-${auctionId}`;

function termsView(auction: Auction, record: Stored<TermsRecord> | undefined): InvoiceTerms {
  const terms = record ?? defaultTerms(auction);
  return {
    auctionId: auction.id,
    currency: auction.currency,
    premium: terms.premium,
    internetPremium: terms.internetPremium,
    tax: terms.tax,
    defaultCharges: terms.defaultCharges,
    paymentDueDays: terms.paymentDueDays,
    saved: record !== undefined,
    updatedAt: record?.updatedAt ?? null,
    etag: record?._etag ?? defaultEtag(auction.id),
  };
}

export async function getTerms(ctx: Scoped, auctionId: string): Promise<InvoiceTerms> {
  const auction = await getAuction(ctx, auctionId);
  return termsView(auction, await findTerms(ctx.scope, auctionId));
}

export async function updateTerms(
  ctx: RequestContext,
  auctionId: string,
  input: InvoiceTermsInput,
  ifMatch: string,
): Promise<InvoiceTerms> {
  const auction = await getAuction(ctx, auctionId);
  const current = await findTerms(ctx.scope, auctionId);
  const record: Omit<TermsRecord, 'accountId'> = {
    id: termsId(auctionId),
    kind: 'terms',
    auctionId,
    ...input,
    revision: (current?.revision ?? 0) + 1,
    updatedAt: new Date().toISOString(),
  };
  let saved: Stored<TermsRecord>;
  try {
    if (current) {
      saved = (await paymentsRepo.replace(
        ctx.scope,
        { ...record, accountId: ctx.scope.accountId },
        ifMatch,
      )) as Stored<TermsRecord>;
    } else {
      if (ifMatch !== defaultEtag(auctionId)) throw preconditionFailed();
      saved = (await paymentsRepo.create(ctx.scope, record)) as Stored<TermsRecord>;
    }
  } catch (error) {
    if (isStale(error) || isConflict(error)) throw preconditionFailed();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'payments.terms.update',
    entity: { type: 'auction', id: auctionId },
    before: current ? termsView(auction, current) : null,
    after: input,
  });
  return termsView(auction, saved);
}

const mathTermsOf = (record: Pick<InvoiceRecord, 'premium' | 'internetPremium' | 'taxRates'>) =>
  ({
    premium: record.premium,
    internetPremium: record.internetPremium,
    tax: record.taxRates,
  }) satisfies MathTerms;

/**
 * Whether a lot was won online: every lot of an online sale or one imported from a bidding
 * platform. A clerked result does not say whether a hybrid sale's buyer bid in the room (paddles
 * are given at registration), so those lots take the room's premium.
 */
const wonOnline = (auction: Auction) => auction.type === 'Online' || auction.importedFrom !== null;

// ---- Invoice arithmetic over a record ----

/** The invoice as money-math keeps it, from the stored figures. */
function mathOf(
  record: Pick<
    InvoiceRecord,
    'lines' | 'hammerTotal' | 'premiumTotal' | 'chargesTotal' | 'tax' | 'grandTotal'
  >,
): InvoiceMath {
  return {
    lines: record.lines.map((line) => ({
      lotNumber: line.lotNumber,
      hammer: line.hammer,
      premium: line.premium,
    })),
    hammerTotal: record.hammerTotal,
    premiumTotal: record.premiumTotal,
    chargesTotal: record.chargesTotal,
    tax: record.tax,
    grandTotal: record.grandTotal,
  };
}

/** The balance: grand total less credit notes, less what was paid and kept (payments − refunds). */
export const balanceOf = (
  record: Pick<InvoiceRecord, 'grandTotal' | 'creditedTotal' | 'paidTotal' | 'refundedTotal'>,
) => record.grandTotal - record.creditedTotal - (record.paidTotal - record.refundedTotal);

function priced(
  record: Omit<InvoiceRecord, 'accountId'>,
  lines: { lotNumber: string; hammer: number; internet: boolean }[],
): Omit<InvoiceRecord, 'accountId'> {
  const math = invoiceMath(lines, mathTermsOf(record), record.charges);
  const next = {
    ...record,
    lines: record.lines.map((line, index) => ({
      ...line,
      premium: math.lines[index]?.premium ?? 0,
    })),
    hammerTotal: math.hammerTotal,
    premiumTotal: math.premiumTotal,
    chargesTotal: math.chargesTotal,
    tax: math.tax,
    grandTotal: math.grandTotal,
  };
  return { ...next, balance: balanceOf(next) };
}

// ---- Invoices after the close ----

interface Buyer {
  id: string;
  name: string;
  email: string;
}

async function buyersOf(
  ctx: RequestContext,
  buyers: Map<string, string>,
): Promise<Map<string, Buyer>> {
  const found = new Map<string, Buyer>();
  const reads = inFlight(16);
  for (const [id, recordedName] of buyers) {
    await reads.add(
      getBidder(ctx, id).then(
        (bidder) => {
          const name = `${bidder.firstName} ${bidder.lastName}`.trim() || recordedName;
          found.set(id, { id, name, email: bidder.email ?? '' });
        },
        (error: unknown) => {
          // A buyer deleted since the sale keeps the name the clerk recorded.
          if (!isAppStatus(error, 404) && !isNotFound(error)) {
            throw error;
          }
          found.set(id, { id, name: recordedName, email: '' });
        },
      ),
    );
  }
  await reads.finish();
  return found;
}

/**
 * Brings a closed auction's invoices in line with its results: run at the close, again for every
 * result corrected afterwards, and by Generate invoices. Idempotent, so a retried close writes
 * nothing twice. See `reconcileOnce` for what a correction does.
 */
export async function invoicesAfterClose(
  ctx: RequestContext,
  auctionId: string,
): Promise<{ created: number }> {
  const { created } = await generateInvoices(ctx, auctionId);
  return { created };
}

export const auctionInvoiceId = (auctionId: string, buyerId: string) =>
  `inv-${auctionId}-${buyerId}`;

/** The second and later invoices of one buyer in one sale (lots sold to them after the first). */
const supplementaryInvoiceId = (auctionId: string, buyerId: string, ordinal: number) =>
  ordinal === 1
    ? auctionInvoiceId(auctionId, buyerId)
    : `${auctionInvoiceId(auctionId, buyerId)}-${ordinal}`;

/** How a sold lot is to be invoiced. */
interface WantedLine {
  lot: Pick<Lot, 'id' | 'position' | 'lotNumber'>;
  buyerId: string;
  line: InvoiceLine;
}

async function generateInvoices(ctx: RequestContext, auctionId: string) {
  const auction = await getAuction(ctx, auctionId);
  let created = 0;
  // A pass that lost a race with a concurrent one (an id it meant to create exists now) runs
  // again over what that one wrote; a few passes settle any real interleaving.
  for (let pass = 0; pass < 4; pass += 1) {
    const outcome = await reconcileOnce(ctx, auction);
    created += outcome.created;
    if (outcome.settled) {
      if (outcome.changed) {
        await writeAudit(ctx, {
          action: 'payments.invoices.generate',
          entity: { type: 'auction', id: auctionId },
          after: { created, buyers: outcome.buyers },
        });
      }
      return { created, total: outcome.total };
    }
  }
  throw conflict('The invoices of this sale are being changed by someone else; try again');
}

/**
 * One pass over the sale. Every sold lot belongs on exactly one live line of an invoice of its
 * buyer, at its hammer and channel:
 * - a buyer with no invoice gets one (`inv-{auctionId}-{buyerId}`);
 * - a draft or approved invoice (not yet with the buyer) is rewritten: lines no longer right go,
 *   lots newly sold to its buyer come on, an approved one goes back to draft to be approved
 *   again, and one left with no lots is voided;
 * - a sent or paid invoice is never rewritten: its wrong lines are taken off by a credit note,
 *   and lots newly sold to its buyer go on a supplementary invoice (`...-2`, `-3`).
 */
async function reconcileOnce(ctx: RequestContext, auction: Auction) {
  const lots = await listLots(ctx, auction.id);
  const wanted = new Map<string, WantedLine>();
  const names = new Map<string, string>();
  for (const lot of lots) {
    const result = lot.result;
    if (result?.outcome !== 'sold' || !result.buyerId || !result.hammer) continue;
    names.set(result.buyerId, result.buyerName ?? '');
    wanted.set(lot.id, {
      lot,
      buyerId: result.buyerId,
      line: {
        lotId: lot.id,
        lotNumber: lot.lotNumber,
        title: lot.title,
        hammer: result.hammer,
        premium: 0,
        internet: result.channel ? result.channel === 'online' : wonOnline(auction),
      },
    });
  }
  const invoices = (await invoicesOfAuction(ctx.scope, auction.id))
    .filter((invoice) => invoice.invoiceKind === 'auction')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const open = (invoice: Stored<InvoiceRecord>) =>
    invoice.status === 'draft' || invoice.status === 'approved';
  const positions = new Map(lots.map((lot) => [lot.id, lot.position]));

  // Which live lines stand, and which are wrong now.
  const covered = new Set<string>();
  const wrong = new Map<string, string[]>();
  for (const invoice of invoices) {
    if (invoice.status === 'void') continue;
    const credited = new Set(invoice.credits.flatMap((credit) => credit.lotIds));
    for (const line of invoice.lines) {
      if (!line.lotId || credited.has(line.lotId)) continue;
      const want = wanted.get(line.lotId);
      const right =
        want &&
        want.buyerId === invoice.bidderId &&
        want.line.hammer === line.hammer &&
        want.line.internet === line.internet &&
        !covered.has(line.lotId);
      if (right) covered.add(line.lotId);
      else wrong.set(invoice.id, [...(wrong.get(invoice.id) ?? []), line.lotId]);
    }
  }
  const missing = new Map<string, WantedLine[]>();
  for (const [lotId, want] of wanted) {
    if (!covered.has(lotId))
      missing.set(want.buyerId, [...(missing.get(want.buyerId) ?? []), want]);
  }

  let changed = false;
  let voided = 0;
  // Open invoices take their buyer's missing lots and lose their wrong lines in one rewrite.
  const takenBy = new Map<string, string>();
  for (const invoice of invoices) {
    if (!open(invoice) || takenBy.has(invoice.bidderId)) continue;
    takenBy.set(invoice.bidderId, invoice.id);
  }
  for (const invoice of invoices) {
    if (invoice.status === 'void') continue;
    const drop = wrong.get(invoice.id) ?? [];
    const add =
      takenBy.get(invoice.bidderId) === invoice.id ? (missing.get(invoice.bidderId) ?? []) : [];
    if (drop.length === 0 && add.length === 0) continue;
    if (open(invoice)) {
      const done = await rewriteOpenInvoice(ctx, invoice, drop, add, positions);
      if (!done) return { created: 0, changed, settled: false, total: 0, buyers: 0 };
      changed = true;
      if (done === 'void') voided += 1;
    } else if (drop.length) {
      if (await creditCorrected(ctx, invoice, drop)) changed = true;
      else return { created: 0, changed, settled: false, total: 0, buyers: 0 };
    }
  }
  for (const buyerId of takenBy.keys()) missing.delete(buyerId);

  const buyerCount = new Set([...wanted.values()].map((want) => want.buyerId)).size;
  const live = () => invoices.filter((invoice) => invoice.status !== 'void').length - voided;
  if (missing.size === 0) {
    return { created: 0, changed, settled: true, total: live(), buyers: buyerCount };
  }
  const created = await createInvoicesFor(ctx, auction, missing, names, invoices);
  const attempted = missing.size;
  return {
    created,
    changed: changed || created > 0,
    settled: created === attempted,
    total: live() + created,
    buyers: buyerCount,
  };
}

const byPosition = (lots: WantedLine[]) =>
  [...lots].sort((a, b) => a.lot.position - b.lot.position).map((want) => want.line);

/** New invoices for buyers with lots but no open invoice. Returns how many were made. */
async function createInvoicesFor(
  ctx: RequestContext,
  auction: Auction,
  missing: Map<string, WantedLine[]>,
  names: Map<string, string>,
  invoices: Stored<InvoiceRecord>[],
) {
  const buyerIds = [...missing.keys()];
  const terms = (await findTerms(ctx.scope, auction.id)) ?? defaultTerms(auction);
  const buyers = await buyersOf(ctx, new Map(buyerIds.map((id) => [id, names.get(id) ?? ''])));
  const numbers = await nextNumbers(ctx.scope, 'INV', buyerIds.length);
  const closedAt = auction.closedAt ? new Date(auction.closedAt) : new Date();
  const dueDate = addDays(dayIn(auction.timeZone, closedAt), terms.paymentDueDays);
  const now = new Date().toISOString();
  const documents = buyerIds.map((buyerId, index) => {
    const buyer = buyers.get(buyerId) ?? { id: buyerId, name: names.get(buyerId) ?? '', email: '' };
    const earlier = invoices.filter((invoice) => invoice.bidderId === buyerId);
    const lines = byPosition(missing.get(buyerId) ?? []);
    const number = numbers[index] ?? '';
    const base: Omit<InvoiceRecord, 'accountId'> = {
      id: supplementaryInvoiceId(auction.id, buyerId, earlier.length + 1),
      kind: 'invoice',
      number,
      invoiceKind: 'auction',
      status: 'draft',
      auctionId: auction.id,
      auctionTitle: auction.title,
      bidderId: buyerId,
      bidderName: buyer.name,
      bidderEmail: buyer.email,
      currency: auction.currency,
      lines,
      charges: earlier.length ? [] : terms.defaultCharges,
      premium: terms.premium,
      internetPremium: terms.internetPremium,
      taxRates: terms.tax,
      hammerTotal: 0,
      premiumTotal: 0,
      chargesTotal: 0,
      tax: { hammer: 0, premium: 0, charges: 0, total: 0 },
      grandTotal: 0,
      creditedTotal: 0,
      paidTotal: 0,
      refundedTotal: 0,
      balance: 0,
      credits: [],
      notes: '',
      dueDate: earlier.length
        ? addDays(dayIn(auction.timeZone, new Date()), terms.paymentDueDays)
        : dueDate,
      issuedAt: earlier.length ? now : closedAt.toISOString(),
      approvedAt: null,
      sentAt: null,
      viewedAt: null,
      paidAt: null,
      voidedAt: null,
      overdueAt: null,
      searchText: searchTextOf([number, buyer.name, buyer.email, auction.title]),
      receiptSentAt: null,
      history: [
        eventBy(
          ctx,
          'Created',
          earlier.length
            ? `Supplementary to ${earlier.map((invoice) => invoice.number).join(', ')}: lots sold after the first invoice`
            : `Generated from the results of ${auction.title}`,
        ),
      ],
      revision: 1,
      createdAt: now,
      updatedAt: now,
    };
    return priced(base, lines);
  });

  let created = 0;
  const writes = inFlight(4);
  for (let start = 0; start < documents.length; start += MAX_BATCH_OPERATIONS) {
    const chunk = documents.slice(start, start + MAX_BATCH_OPERATIONS);
    await writes.add(
      createAbsent(ctx.scope, chunk).then((count) => {
        created += count;
      }),
    );
  }
  await writes.finish();
  return created;
}

/**
 * A draft or approved invoice rewritten to the results: wrong lines out, the buyer's uninvoiced
 * lots in, voided if none are left and nothing was paid. Returns what it did, or false when the
 * invoice changed meanwhile (the caller's pass starts again).
 */
async function rewriteOpenInvoice(
  ctx: RequestContext,
  invoice: Stored<InvoiceRecord>,
  drop: string[],
  add: WantedLine[],
  positions: Map<string, number>,
) {
  const dropped = new Set(drop);
  const kept = invoice.lines.filter((line) => !line.lotId || !dropped.has(line.lotId));
  const order = (line: InvoiceLine) => positions.get(line.lotId ?? '') ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...kept, ...add.map((want) => want.line)].sort((a, b) => order(a) - order(b));
  const removedNumbers = invoice.lines
    .filter((line) => line.lotId && dropped.has(line.lotId))
    .map((line) => line.lotNumber);
  const detail = [
    removedNumbers.length ? `lots off: ${removedNumbers.join(', ')}` : '',
    add.length ? `lots on: ${add.map((want) => want.line.lotNumber).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const now = new Date().toISOString();
  const base = {
    ...withoutMeta(invoice),
    lines: sorted,
    status: 'draft' as const,
    approvedAt: null,
    history: [
      ...invoice.history,
      eventBy(
        ctx,
        'Corrected',
        `Results corrected (${detail})${invoice.status === 'approved' ? '; back to draft for approval' : ''}`,
      ),
    ],
  };
  const voiding = sorted.length === 0 && invoice.paidTotal === 0;
  const next = voiding
    ? {
        ...priced(base, sorted),
        status: 'void' as const,
        voidedAt: now,
        balance: 0,
        history: [...base.history, eventBy(ctx, 'Voided', 'No lots left on it')],
      }
    : priced(base, sorted);
  const action = voiding ? 'void' : 'correct';
  return (await reviseIfUnchanged(ctx, invoice, next, action)) && action;
}

/** A sent or paid invoice's wrong lines taken off by a credit note. */
async function creditCorrected(
  ctx: RequestContext,
  invoice: Stored<InvoiceRecord>,
  drop: string[],
) {
  const [number] = await nextNumbers(ctx.scope, 'CN', 1);
  const lotNumbers = invoice.lines
    .filter((line) => line.lotId && drop.includes(line.lotId))
    .map((line) => line.lotNumber);
  const next = withCreditNote(ctx, invoice, {
    lotIds: drop,
    charges: 0,
    reason: `Result corrected after the sale (lot ${lotNumbers.join(', ')})`,
    number: number ?? '',
  });
  return reviseIfUnchanged(ctx, invoice, next, 'credit');
}

/** Writes `next` over exactly the version read; false if it changed meanwhile. */
async function reviseIfUnchanged(
  ctx: RequestContext,
  current: Stored<InvoiceRecord>,
  next: Omit<InvoiceRecord, 'accountId'>,
  action: string,
) {
  const record = { ...next, revision: current.revision + 1, updatedAt: new Date().toISOString() };
  try {
    const [saved] = await writeAll(ctx.scope, [
      { op: 'replace', document: record, etag: current._etag },
    ]);
    await auditInvoice(ctx, action, current, saved as Stored<InvoiceRecord>);
    return true;
  } catch (error) {
    if (isStale(error)) return false;
    throw error;
  }
}

/** Creates the documents in one batch; if one exists already (a concurrent close), one by one. */
async function createAbsent(scope: AccountScope, documents: Omit<InvoiceRecord, 'accountId'>[]) {
  try {
    await paymentsRepo.writeBatch(
      scope,
      documents.map((document) => ({ op: 'create', document })),
    );
    return documents.length;
  } catch (error) {
    if (!isConflict(error)) throw error;
  }
  let created = 0;
  for (const document of documents) {
    try {
      await paymentsRepo.create(scope, document);
      created += 1;
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
  return created;
}

/** POST /payments/auctions/{id}/invoices: the invoices of a Completed auction, made if missing. */
export async function generateAuctionInvoices(ctx: RequestContext, auctionId: string) {
  const auction = await getAuction(ctx, auctionId);
  if (auction.status !== 'Completed') {
    throw conflict(`Invoices are made when an auction closes; this one is ${auction.status}`);
  }
  return generateInvoices(ctx, auctionId);
}

// ---- Reading invoices ----

export async function getInvoiceRecord(ctx: Scoped, id: string) {
  const found = await findInvoice(ctx.scope, id);
  if (!found) throw notFound('Invoice not found');
  return found;
}

export const getInvoice = async (ctx: Scoped, id: string) =>
  toInvoice(await getInvoiceRecord(ctx, id));

export async function listInvoices(ctx: Scoped, query: ListInvoicesQuery) {
  const filters: Filters = { where: [], parameters: [] };
  if (query.status) {
    filters.where.push('c.status = @status');
    filters.parameters.push({ name: '@status', value: query.status });
  }
  if (query.auctionId) {
    filters.where.push('c.auctionId = @auctionId');
    filters.parameters.push({ name: '@auctionId', value: query.auctionId });
  }
  if (query.bidderId) {
    filters.where.push('c.bidderId = @bidderId');
    filters.parameters.push({ name: '@bidderId', value: query.bidderId });
  }
  if (query.search) {
    filters.where.push('CONTAINS(c.searchText, @search)');
    filters.parameters.push({ name: '@search', value: query.search.toLowerCase() });
  }
  if (query.overdue) {
    // Due dates are the house's calendar days: "past due" is before today there (the first
    // house's time zone, as the account's currency is the first house's).
    const [house] = [...(await housesOf(ctx.scope))].sort((a, b) =>
      a.createdAt.localeCompare(b.createdAt),
    );
    const overdue = owedDueBefore(dayIn(house?.timezone ?? 'UTC', new Date()));
    filters.where.push(...overdue.where);
    filters.parameters.push(...overdue.parameters);
  }
  const [page, total] = await Promise.all([
    pageOf<InvoiceRecord>(
      ctx.scope,
      'invoice',
      filters,
      query.pageSize,
      query.continuationToken,
      // Collections work from the longest owed.
      query.overdue ? listOrders.oldestDueFirst : listOrders.newestFirst,
    ),
    countOf(ctx.scope, 'invoice', filters),
  ]);
  return {
    items: page.items.map(toListItem),
    continuationToken: page.continuationToken ?? null,
    total,
  };
}

// ---- Changing invoices ----

/**
 * Re-reads the invoice and applies `change` until it is written over the version it read (with
 * any extra documents in the same batch); a change made meanwhile is re-read, never lost.
 */
export async function reviseInvoice<T>(
  ctx: Scoped,
  id: string,
  change: (current: Stored<InvoiceRecord>) => Promise<{
    next: Omit<InvoiceRecord, 'accountId'> | null;
    extra?: BatchOperation<PaymentsDocument>[];
    result: (saved: Stored<InvoiceRecord>) => T;
  }>,
  etag?: string,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await getInvoiceRecord(ctx, id);
    if (etag && attempt === 0 && current._etag !== etag) throw preconditionFailed();
    const { next, extra = [], result } = await change(current);
    if (!next) return result(current);
    const record = {
      ...next,
      revision: current.revision + 1,
      updatedAt: new Date().toISOString(),
    };
    try {
      const written = await writeAll(ctx.scope, [
        { op: 'replace', document: record, etag: current._etag },
        ...extra,
      ]);
      return result(written[0] as Stored<InvoiceRecord>);
    } catch (error) {
      if (etag && isStale(error)) throw preconditionFailed();
      if (!isStale(error) || attempt >= 8) throw error;
    }
  }
}

const withoutMeta = ({ _etag, _ts, accountId, ...rest }: Stored<InvoiceRecord>) => {
  void _etag;
  void _ts;
  void accountId;
  return rest;
};

async function auditInvoice(
  ctx: RequestContext,
  action: string,
  before: Stored<InvoiceRecord> | null,
  after: Stored<InvoiceRecord>,
) {
  const view = (record: Stored<InvoiceRecord>) => ({
    number: record.number,
    status: record.status,
    grandTotal: record.grandTotal,
    creditedTotal: record.creditedTotal,
    paidTotal: record.paidTotal,
    refundedTotal: record.refundedTotal,
    balance: record.balance,
    charges: record.charges,
    dueDate: record.dueDate,
  });
  await writeAudit(ctx, {
    action: `payments.invoice.${action}`,
    entity: { type: 'invoice', id: after.id },
    before: before ? view(before) : null,
    after: view(after),
  });
}

export async function updateInvoice(
  ctx: RequestContext,
  id: string,
  input: InvoiceUpdate,
  ifMatch: string,
) {
  let before: Stored<InvoiceRecord> | null = null;
  const saved = await reviseInvoice(
    ctx,
    id,
    async (current) => {
      before = current;
      if (current.status !== 'draft') {
        throw conflict(`Only a draft invoice can be edited; this one is ${current.status}`);
      }
      const base = {
        ...withoutMeta(current),
        ...(input.charges ? { charges: input.charges } : {}),
        ...(input.notes !== undefined ? { notes: input.notes } : {}),
        ...(input.dueDate ? { dueDate: input.dueDate } : {}),
        history: [...current.history, eventBy(ctx, 'Edited', Object.keys(input).join(', '))],
      };
      return { next: priced(base, current.lines), result: (record) => record };
    },
    ifMatch,
  );
  await auditInvoice(ctx, 'update', before, saved);
  return toInvoice(saved);
}

async function moveInvoice(
  ctx: RequestContext,
  id: string,
  action: 'approve' | 'void',
  reason = '',
) {
  let before: Stored<InvoiceRecord> | null = null;
  const saved = await reviseInvoice(ctx, id, async (current) => {
    before = current;
    const now = new Date().toISOString();
    if (action === 'approve') {
      if (current.status === 'approved') return { next: null, result: (record) => record };
      if (current.status !== 'draft') {
        throw conflict(`Only a draft invoice can be approved; this one is ${current.status}`);
      }
      return {
        next: {
          ...withoutMeta(current),
          status: 'approved',
          approvedAt: now,
          history: [...current.history, eventBy(ctx, 'Approved')],
        },
        result: (record) => record,
      };
    }
    if (current.status === 'void') return { next: null, result: (record) => record };
    if (current.status !== 'draft' && current.status !== 'approved') {
      throw conflict(
        `Only a draft or approved invoice can be voided; correct a ${current.status} one with a credit note`,
      );
    }
    if (current.paidTotal > 0) throw conflict('An invoice with payments cannot be voided');
    return {
      next: {
        ...withoutMeta(current),
        status: 'void',
        voidedAt: now,
        balance: 0,
        history: [...current.history, eventBy(ctx, 'Voided', reason)],
      },
      result: (record) => record,
    };
  });
  if (before && (before as Stored<InvoiceRecord>)._etag !== saved._etag) {
    await auditInvoice(ctx, action, before, saved);
  }
  return toInvoice(saved);
}

export const approveInvoice = (ctx: RequestContext, id: string) => moveInvoice(ctx, id, 'approve');
export const voidInvoice = (ctx: RequestContext, id: string, reason: string) =>
  moveInvoice(ctx, id, 'void', reason);

export async function createManualInvoice(ctx: RequestContext, input: ManualInvoiceInput) {
  const bidder = await getBidder(ctx, input.bidderId).catch((error: unknown) => {
    if (isAppStatus(error, 404)) {
      throw fieldError('bidderId', 'is not a bidder of this account');
    }
    throw error;
  });
  const auction = input.auctionId
    ? await getAuction(ctx, input.auctionId).catch(() => {
        throw fieldError('auctionId', 'is not an auction of this account');
      })
    : null;
  const [number] = await nextNumbers(ctx.scope, 'INV', 1);
  const now = new Date();
  const name = `${bidder.firstName} ${bidder.lastName}`.trim();
  const lines: InvoiceLine[] = input.lines.map((line, index) => ({
    lotId: null,
    lotNumber: String(index + 1),
    title: line.description,
    hammer: line.amount,
    premium: 0,
    internet: false,
  }));
  const base: Omit<InvoiceRecord, 'accountId'> = {
    id: `inv-${randomUUID()}`,
    kind: 'invoice',
    number: number ?? '',
    invoiceKind: 'manual',
    status: 'draft',
    auctionId: auction?.id ?? null,
    auctionTitle: auction?.title ?? '',
    bidderId: bidder.id,
    bidderName: name,
    bidderEmail: bidder.email ?? '',
    currency: auction?.currency ?? input.currency,
    lines,
    charges: input.charges,
    premium: flatRate(0),
    internetPremium: null,
    taxRates: input.taxRates,
    hammerTotal: 0,
    premiumTotal: 0,
    chargesTotal: 0,
    tax: { hammer: 0, premium: 0, charges: 0, total: 0 },
    grandTotal: 0,
    creditedTotal: 0,
    paidTotal: 0,
    refundedTotal: 0,
    balance: 0,
    credits: [],
    notes: input.notes,
    dueDate: input.dueDate ?? addDays(now.toISOString().slice(0, 10), DEFAULT_PAYMENT_DUE_DAYS),
    issuedAt: now.toISOString(),
    approvedAt: null,
    sentAt: null,
    viewedAt: null,
    paidAt: null,
    voidedAt: null,
    overdueAt: null,
    searchText: searchTextOf([number ?? '', name, bidder.email ?? '', auction?.title ?? '']),
    receiptSentAt: null,
    history: [eventBy(ctx, 'Created', 'Manual invoice')],
    revision: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const saved = (await paymentsRepo.create(
    ctx.scope,
    priced(base, lines),
  )) as Stored<InvoiceRecord>;
  await auditInvoice(ctx, 'create', null, saved);
  return toInvoice(saved);
}

/** A credit note: credits lots in full and/or some charges, never rewriting the invoice. */
export async function addCreditNote(ctx: RequestContext, id: string, input: CreditNoteInput) {
  const [number] = await nextNumbers(ctx.scope, 'CN', 1);
  let before: Stored<InvoiceRecord> | null = null;
  const saved = await reviseInvoice(ctx, id, async (current) => {
    before = current;
    return {
      next: withCreditNote(ctx, current, { ...input, number: number ?? '' }),
      result: (record) => record,
    };
  });
  await auditInvoice(ctx, 'credit', before, saved);
  return toInvoice(saved);
}

/** The invoice with a credit note added, after checking the note against what is left on it. */
function withCreditNote(
  ctx: RequestContext,
  current: Stored<InvoiceRecord>,
  input: CreditNoteInput & { number: string },
): Omit<InvoiceRecord, 'accountId'> {
  if (!['sent', 'viewed', 'paid'].includes(current.status)) {
    throw conflict(
      `A credit note corrects a sent or paid invoice; this one is ${current.status} (edit or void it instead)`,
    );
  }
  const creditedLots = new Set(current.credits.flatMap((credit) => credit.lotIds));
  const lines = input.lotIds.map((lotId, index) => {
    const line = current.lines.find((candidate) => candidate.lotId === lotId);
    if (!line) throw fieldError(`lotIds.${index}`, 'is not a lot on this invoice');
    if (creditedLots.has(lotId)) throw fieldError(`lotIds.${index}`, 'is credited already');
    return line;
  });
  if (new Set(input.lotIds).size !== input.lotIds.length) {
    throw fieldError('lotIds', 'names a lot twice');
  }
  let corrected = mathOf(current);
  for (const credit of current.credits) {
    corrected = applyCredit(corrected, {
      lines: credit.lotNumbers.map((lotNumber) => {
        const line = current.lines.find((candidate) => candidate.lotNumber === lotNumber);
        return { lotNumber, hammer: line?.hammer ?? 0, premium: line?.premium ?? 0 };
      }),
      hammerTotal: credit.hammerTotal,
      premiumTotal: credit.premiumTotal,
      chargesTotal: credit.chargesTotal,
      tax: credit.tax,
      grandTotal: credit.total,
    });
  }
  if (input.charges > corrected.chargesTotal) {
    throw fieldError(
      'charges',
      `is more than the ${money(corrected.chargesTotal, current.currency)} of charges left`,
    );
  }
  const math = creditMath(
    corrected,
    lines.map((line) => line.lotNumber),
    input.charges,
    mathTermsOf(current),
  );
  const note: CreditNote = {
    id: `cn-${randomUUID()}`,
    number: input.number,
    invoiceId: current.id,
    lotNumbers: lines.map((line) => line.lotNumber),
    lotIds: input.lotIds,
    hammerTotal: math.hammerTotal,
    premiumTotal: math.premiumTotal,
    chargesTotal: math.chargesTotal,
    tax: math.tax,
    total: math.grandTotal,
    reason: input.reason,
    createdAt: new Date().toISOString(),
    createdBy: personOf(ctx),
  };
  const next = {
    ...withoutMeta(current),
    credits: [...current.credits, note],
    creditedTotal: current.creditedTotal + note.total,
    history: [
      ...current.history,
      eventBy(
        ctx,
        'Credit note',
        `${note.number}: ${money(note.total, current.currency)} — ${input.reason}`,
      ),
    ],
  };
  return { ...next, balance: balanceOf(next) };
}

// ---- Transactions ----

/** The invoice's figures a transaction shows (spec 3.5). */
export function transactionBase(
  invoice: Stored<InvoiceRecord>,
): Pick<
  TransactionRecord,
  | 'invoiceId'
  | 'invoiceNumber'
  | 'bidderId'
  | 'bidderName'
  | 'bidderEmail'
  | 'auctionId'
  | 'auctionTitle'
  | 'lotNumbers'
  | 'totalAmount'
  | 'buyersPremium'
  | 'taxes'
  | 'shippingFees'
  | 'grandTotal'
  | 'currency'
  | 'dueDate'
> {
  return {
    invoiceId: invoice.id,
    invoiceNumber: invoice.number,
    bidderId: invoice.bidderId,
    bidderName: invoice.bidderName,
    bidderEmail: invoice.bidderEmail,
    auctionId: invoice.auctionId,
    auctionTitle: invoice.auctionTitle,
    lotNumbers: invoice.lines.map((line) => line.lotNumber),
    totalAmount: invoice.hammerTotal,
    buyersPremium: invoice.premiumTotal,
    taxes: invoice.tax.total,
    shippingFees: invoice.chargesTotal,
    grandTotal: invoice.grandTotal,
    currency: invoice.currency,
    dueDate: invoice.dueDate,
  };
}

export const transactionSearchText = (
  record: Pick<
    TransactionRecord,
    'transactionId' | 'bidderName' | 'bidderEmail' | 'auctionTitle' | 'lotNumbers' | 'invoiceNumber'
  >,
) =>
  searchTextOf([
    record.transactionId,
    record.invoiceNumber,
    record.bidderName,
    record.bidderEmail,
    record.auctionTitle,
    ...record.lotNumbers.map((lot) => `lot ${lot}`),
  ]);

/** Whether an invoice takes a payment now, and up to how much. */
export function payable(invoice: Stored<InvoiceRecord>, amount: number) {
  if (invoice.status === 'void') throw conflict('This invoice is void');
  if (invoice.balance <= 0) throw conflict('This invoice has nothing left to pay');
  if (amount > invoice.balance) {
    throw fieldError(
      'amount',
      `is more than the ${money(invoice.balance, invoice.currency)} balance`,
    );
  }
}

/** The invoice with a completed payment added: paid once nothing is left. */
export function withPayment(
  ctx: RequestContext | null,
  invoice: Stored<InvoiceRecord>,
  amount: number,
  transactionId: string,
  at: string,
): Omit<InvoiceRecord, 'accountId'> {
  const next = { ...withoutMeta(invoice), paidTotal: invoice.paidTotal + amount };
  const balance = balanceOf(next);
  const paid = balance <= 0 && invoice.status !== 'paid';
  return {
    ...next,
    balance,
    ...(paid ? { status: 'paid' as const, paidAt: at } : {}),
    history: [
      ...invoice.history,
      eventBy(
        ctx,
        paid ? 'Paid' : 'Payment received',
        `${money(amount, invoice.currency)} (${transactionId})`,
      ),
    ],
  };
}

/**
 * The case an offline payment names must take its settlement's payment: checked before the money
 * is recorded, so a wrong case refuses the payment rather than recording it and then failing.
 */
async function checkSettles(ctx: RequestContext, caseId: string) {
  const found = await getCase(ctx, caseId).catch((error: unknown) => {
    if (isAppStatus(error, 404)) throw fieldError('caseId', 'is not a legal case of this account');
    throw error;
  });
  if (found.status !== 'SETTLED') {
    throw fieldError(
      'caseId',
      `is a ${found.status} case; only a SETTLED case takes a settlement payment`,
    );
  }
  if (found.settlementPayment) {
    throw fieldError('caseId', "names a case whose settlement's payment is already recorded");
  }
}

export async function recordOfflinePayment(
  ctx: RequestContext,
  invoiceId: string,
  input: OfflinePaymentInput,
) {
  if (input.caseId) await checkSettles(ctx, input.caseId);
  const [transactionNumber] = await nextNumbers(ctx.scope, 'TXN', 1);
  const id = `txn-${randomUUID()}`;
  let before: Stored<InvoiceRecord> | null = null;
  const now = new Date();
  const paymentDate = input.receivedOn ? `${input.receivedOn}T12:00:00.000Z` : now.toISOString();
  const { invoice, transaction } = await reviseInvoice(ctx, invoiceId, async (current) => {
    before = current;
    payable(current, input.amount);
    const record: Omit<TransactionRecord, 'accountId'> = {
      id,
      kind: 'transaction',
      transactionId: transactionNumber ?? id,
      ...transactionBase(current),
      amount: input.amount,
      paymentMethod: input.method,
      paymentStatus: 'Completed',
      paymentDate,
      reference: input.reference,
      failureMessage: null,
      refunds: [],
      refundedAmount: 0,
      dispute: null,
      stripePaymentIntentId: null,
      attempt: 0,
      itemsShipped: false,
      shippingTrackingNumber: '',
      notes: input.notes,
      searchText: '',
      history: [
        eventBy(
          ctx,
          'Completed',
          `${input.method} payment recorded${input.reference ? ` (${input.reference})` : ''}`,
        ),
      ],
      revision: 1,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    record.searchText = transactionSearchText(record);
    return {
      next: withPayment(ctx, current, input.amount, record.transactionId, paymentDate),
      extra: [{ op: 'create', document: record }],
      result: (saved) => ({ invoice: saved, transaction: record }),
    };
  });
  await auditInvoice(ctx, 'payment', before, invoice);
  await writeAudit(ctx, {
    action: 'payments.transaction.create',
    entity: { type: 'transaction', id },
    after: { amount: input.amount, method: input.method, invoiceId },
  });
  await afterPayment(ctx, invoice);
  if (input.caseId) {
    const settled = await recordSettlementPayment(ctx, input.caseId, {
      amount: input.amount,
      receivedOn: paymentDate.slice(0, 10),
      reference: input.reference || transaction.transactionId,
    });
    // The case's rules run as for a payment recorded on the case itself; closing is a status change.
    await runRulesFor(
      ctx,
      settled.id,
      settled.status === 'SETTLED' ? 'payment_received' : ['payment_received', 'status_change'],
    );
  }
  return toTransaction(await getTransactionRecord(ctx, id));
}

export async function getTransactionRecord(ctx: Scoped, id: string) {
  const found = await findTransaction(ctx.scope, id);
  if (!found) throw notFound('Transaction not found');
  return found;
}

export const getTransaction = async (ctx: Scoped, id: string) =>
  toTransaction(await getTransactionRecord(ctx, id));

export async function listTransactions(ctx: Scoped, query: ListTransactionsQuery) {
  const filters: Filters = { where: [], parameters: [] };
  const statuses = [...(query.status ? [query.status] : []), ...(query.statuses ?? [])];
  if (statuses.length) {
    filters.where.push('ARRAY_CONTAINS(@statuses, c.paymentStatus)');
    filters.parameters.push({ name: '@statuses', value: statuses });
  }
  for (const key of ['invoiceId', 'auctionId', 'bidderId'] as const) {
    const value = query[key];
    if (value) {
      filters.where.push(`c.${key} = @${key}`);
      filters.parameters.push({ name: `@${key}`, value });
    }
  }
  if (query.search) {
    filters.where.push('CONTAINS(c.searchText, @search)');
    filters.parameters.push({ name: '@search', value: query.search.toLowerCase() });
  }
  const page = await pageOf<TransactionRecord>(
    ctx.scope,
    'transaction',
    filters,
    query.pageSize,
    query.continuationToken,
  );
  return {
    items: page.items.map(toTransaction),
    continuationToken: page.continuationToken ?? null,
  };
}

/** Items shipped, tracking number and notes: the only parts of a payment a person edits. */
export async function updateShipping(
  ctx: RequestContext,
  id: string,
  input: ShippingUpdate,
  ifMatch: string,
) {
  const current = await getTransactionRecord(ctx, id);
  if (current._etag !== ifMatch) throw preconditionFailed();
  const next: TransactionRecord = {
    ...current,
    ...input,
    history: [...current.history, eventBy(ctx, 'Shipping updated', Object.keys(input).join(', '))],
    revision: current.revision + 1,
    updatedAt: new Date().toISOString(),
  };
  let saved: Stored<TransactionRecord>;
  try {
    saved = (await paymentsRepo.replace(ctx.scope, next, ifMatch)) as Stored<TransactionRecord>;
  } catch (error) {
    if (isStale(error)) throw preconditionFailed();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'payments.transaction.shipping',
    entity: { type: 'transaction', id },
    before: {
      itemsShipped: current.itemsShipped,
      shippingTrackingNumber: current.shippingTrackingNumber,
      notes: current.notes,
    },
    after: input,
  });
  return toTransaction(saved);
}

// ---- The overview ----

async function accountCurrency(scope: AccountScope): Promise<Overview['currency']> {
  const houses = [...(await housesOf(scope))].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  const parsed = overviewSchema.shape.currency.safeParse(houses[0]?.currency);
  return parsed.success ? parsed.data : 'USD';
}

/** Money kept from a payment: completed (or refunded in part) less refunds; a dispute keeps none. */
export const keptOf = (
  row: Pick<TransactionRecord, 'amount' | 'refundedAmount' | 'paymentStatus'>,
) =>
  row.paymentStatus === 'Completed' || row.paymentStatus === 'Refunded'
    ? Math.max(0, row.amount - row.refundedAmount)
    : 0;

export async function overview(ctx: Scoped): Promise<Overview> {
  const [rows, recent, currency] = await Promise.all([
    transactionFigures(ctx.scope),
    recentTransactions(ctx.scope, RECENT_TRANSACTIONS),
    accountCurrency(ctx.scope),
  ]);
  const revenueByCurrency: Record<string, number> = {};
  let pendingAmount = 0;
  let completed = 0;
  const methodCounts = new Map<string, number>();
  for (const row of rows) {
    revenueByCurrency[row.currency] = (revenueByCurrency[row.currency] ?? 0) + keptOf(row);
    if (row.paymentStatus === 'Completed') completed += 1;
    if (
      (row.paymentStatus === 'Pending' || row.paymentStatus === 'Processing') &&
      row.currency === currency
    ) {
      pendingAmount += row.amount;
    }
    methodCounts.set(row.paymentMethod, (methodCounts.get(row.paymentMethod) ?? 0) + 1);
  }
  return {
    totalTransactions: rows.length,
    totalRevenue: revenueByCurrency[currency] ?? 0,
    currency,
    revenueByCurrency,
    pendingAmount,
    completed,
    recent: recent.map(toTransaction),
    methodShare: paymentMethods
      .map((method) => ({
        method,
        count: methodCounts.get(method) ?? 0,
        percent: rows.length
          ? Math.round(((methodCounts.get(method) ?? 0) * 1000) / rows.length) / 10
          : 0,
      }))
      .filter((share) => share.count > 0),
  };
}

// ---- What payments feed ----

/**
 * Billing usage: buyer payments completed in a period (by payment date) less their refunds, in
 * minor units. Every supported currency has two decimals; amounts are summed as they are (no
 * exchange), which is exact for a house trading in one currency.
 */
export async function revenueIn(
  scope: AccountScope,
  fromIso: string,
  toIso: string,
): Promise<number> {
  const rows = await paymentsBetween(scope, fromIso, toIso);
  return rows.reduce((sum, row) => sum + keptOf(row), 0);
}

/** Whole days from one instant to another (at least 0). */
const daysBetween = (from: string, to: string) =>
  Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 86_400_000));

/**
 * What a payment sets off once its invoice is paid: the bidder's history and payment stats (on
 * time or late against the due date, each invoice once), an open non-paying-bidder case for the
 * auction resolved, and the receipt mailed (once). Each is idempotent, so a retried call is safe.
 */
export async function afterPayment(ctx: RequestContext, invoice: Stored<InvoiceRecord>) {
  if (invoice.status !== 'paid' || !invoice.paidAt) return;
  const paidDay = invoice.paidAt.slice(0, 10);
  await recordPaymentOutcome(ctx, invoice.bidderId, {
    auctionId: invoice.auctionId,
    invoiceId: invoice.id,
    outcome: paidDay <= invoice.dueDate ? 'on_time' : 'late',
    daysToPay: daysBetween(invoice.issuedAt, invoice.paidAt),
  }).catch((error: unknown) => {
    if (!isAppStatus(error, 404)) throw error;
  });
  if (invoice.auctionId) await settleNonPayment(ctx, invoice);
  await sendReceipt(ctx, invoice);
}

async function settleNonPayment(ctx: RequestContext, invoice: Stored<InvoiceRecord>) {
  // Finished cases too: a case the bidder lost (RESOLVED, then CLOSED) still holds a strike
  // until the purchase is paid.
  const { cases } = await listCases(ctx, {
    bidderId: invoice.bidderId,
    page: 1,
    limit: 100,
    sortBy: 'date',
    sortOrder: 'desc',
  });
  for (const found of cases) {
    if (found.auction?.id !== invoice.auctionId || !found.nonPayment?.strike) continue;
    const saved = await recordNonPaymentPayment(ctx, found.id, {
      amount: Math.max(invoice.paidTotal - invoice.refundedTotal, found.nonPayment.amountDue),
      receivedOn: (invoice.paidAt ?? new Date().toISOString()).slice(0, 10),
      reference: invoice.number,
    }).catch((error: unknown) => {
      // Someone recorded it meanwhile, or the case moved on: nothing left to do.
      if (!isAppStatus(error, 409)) throw error;
      return null;
    });
    if (!saved) continue;
    // As the case's own purchase-payment route does: resolving on the payment is a status change.
    const resolved = saved.statusChangedAt === saved.nonPayment?.payment?.recordedAt;
    await runRulesFor(
      ctx,
      saved.id,
      resolved ? ['payment_received', 'status_change'] : 'payment_received',
    );
  }
}

async function sendReceipt(ctx: RequestContext, invoice: Stored<InvoiceRecord>) {
  if (!invoice.bidderEmail) return;
  let claimed = false;
  for (let attempt = 0; attempt < 8 && !claimed; attempt += 1) {
    const current = await getInvoiceRecord(ctx, invoice.id);
    if (current.receiptSentAt) return;
    try {
      await paymentsRepo.patch(
        ctx.scope,
        invoice.id,
        [{ op: 'set', path: '/receiptSentAt', value: new Date().toISOString() }],
        { etag: current._etag },
      );
      claimed = true;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
  if (!claimed) return;
  await sendMessage({
    channel: 'email',
    to: invoice.bidderEmail,
    kind: 'payment-receipt',
    subject: `Receipt for invoice ${invoice.number}`,
    text: [
      `Dear ${invoice.bidderName || 'customer'},`,
      '',
      `Thank you: invoice ${invoice.number}${invoice.auctionTitle ? ` (${invoice.auctionTitle})` : ''} is paid in full.`,
      `Total paid: ${money(invoice.paidTotal - invoice.refundedTotal, invoice.currency)}.`,
      '',
      'Keep this message as your receipt.',
    ].join('\n'),
  });
}

/**
 * Hourly: invoices still unpaid after their due date count as a payment default for the bidder
 * (stats paymentsOverdue, once per invoice) and are marked overdue. The due date already holds the
 * house's payment terms (the auction's due days); the day is UTC.
 */
export async function markOverdue(
  ctx: RequestContext,
  today = new Date().toISOString().slice(0, 10),
) {
  const due = await unpaidDueBefore(ctx.scope, today);
  let marked = 0;
  for (const invoice of due) {
    if (invoice.balance <= 0) continue;
    await recordPaymentOutcome(ctx, invoice.bidderId, {
      auctionId: invoice.auctionId,
      invoiceId: invoice.id,
      outcome: 'overdue',
      daysToPay: null,
    }).catch((error: unknown) => {
      if (!isAppStatus(error, 404)) throw error;
    });
    await reviseInvoice(ctx, invoice.id, async (current) => ({
      next:
        current.overdueAt || current.status === 'paid' || current.status === 'void'
          ? null
          : {
              ...withoutMeta(current),
              overdueAt: new Date().toISOString(),
              history: [
                ...current.history,
                eventBy(null, 'Overdue', `Unpaid after ${current.dueDate}`),
              ],
            },
      result: () => undefined,
    }));
    marked += 1;
  }
  return marked;
}

/** The hourly timer's run: each account with open invoices on its own, so one failure holds none up. */
export async function markOverdueEverywhere(log: Logger) {
  for (const accountId of await accountsWithOpenInvoices()) {
    try {
      const marked = await markOverdue(systemContext(accountId));
      if (marked) log.info('invoices overdue', { account: accountId, marked });
    } catch (error) {
      log.warn('overdue check failed', { account: accountId, error });
    }
  }
}

// ---- For consignor settlements ----

/**
 * Where each sold lot's money stands, for consignor settlements (cleared funds): `paid` once its
 * invoice is paid in full and no payment of it is disputed; `credited` when a credit note credited
 * the lot; `refunded` when the invoice's payments were refunded in full; `charged_back` when a
 * payment of it lost a dispute; otherwise `unpaid`. Void invoices are left out.
 */
export async function lotPaymentFacts(
  scope: { accountId: string },
  auctionId: string,
): Promise<LotPaymentFact[]> {
  const invoices = (await invoicesOfAuction(scope, auctionId)).filter(
    (invoice) => invoice.status !== 'void',
  );
  const transactions = await transactionsOfInvoices(
    scope,
    invoices.map((invoice) => invoice.id),
  );
  const byInvoice = new Map<string, Stored<TransactionRecord>[]>();
  for (const transaction of transactions) {
    byInvoice.set(transaction.invoiceId, [
      ...(byInvoice.get(transaction.invoiceId) ?? []),
      transaction,
    ]);
  }
  return invoices.flatMap((invoice) => {
    const payments = (byInvoice.get(invoice.id) ?? []).filter((row) =>
      ['Completed', 'Refunded', 'Disputed'].includes(row.paymentStatus),
    );
    const lost = payments.find((row) => row.dispute?.status === 'lost');
    const open = payments.some((row) => row.paymentStatus === 'Disputed' && !lost);
    const received = payments.reduce((sum, row) => sum + row.amount, 0);
    const refunded = payments.reduce((sum, row) => sum + row.refundedAmount, 0);
    const lastRefund = payments
      .flatMap((row) => row.refunds.map((refund) => refund.createdAt))
      .sort()
      .at(-1);
    return invoice.lines.flatMap((line): LotPaymentFact[] => {
      if (!line.lotId) return [];
      const credit = invoice.credits.find((note) => note.lotIds.includes(line.lotId ?? ''));
      const base = {
        lotId: line.lotId,
        lotNumber: line.lotNumber,
        hammer: line.hammer,
        buyerId: invoice.bidderId,
        invoiceId: invoice.id,
      };
      if (credit)
        return [{ ...base, state: 'credited', paidAt: null, changedAt: credit.createdAt }];
      if (lost) {
        return [
          {
            ...base,
            state: 'charged_back',
            paidAt: invoice.paidAt,
            changedAt: lost.dispute?.closedAt ?? lost.updatedAt,
          },
        ];
      }
      if (received > 0 && refunded >= received) {
        return [
          {
            ...base,
            state: 'refunded',
            paidAt: invoice.paidAt,
            changedAt: lastRefund ?? invoice.updatedAt,
          },
        ];
      }
      if (invoice.status === 'paid' && !open) {
        return [
          {
            ...base,
            state: 'paid',
            paidAt: invoice.paidAt,
            changedAt: invoice.paidAt ?? invoice.updatedAt,
          },
        ];
      }
      return [{ ...base, state: 'unpaid', paidAt: null, changedAt: invoice.updatedAt }];
    });
  });
}

export { transactionsOfInvoice };
