import type { PatchOperation, SqlParameter } from '@azure/cosmos';
import { isConflict, isNotFound } from '../platform/cosmos-errors.js';
import { container, type ContainerDefinition } from '../platform/cosmos.js';
import {
  MAX_BATCH_OPERATIONS,
  TenantRepository,
  type AccountScope,
  type BatchOperation,
  type Page,
  type Stored,
} from '../platform/repo.js';
import type {
  Charge,
  CreditNote,
  Dispute,
  InvoiceKind,
  InvoiceLine,
  InvoiceStatus,
  PaymentMethod,
  PaymentStatus,
  Refund,
  TaxRates,
} from './payments.schema.js';

/**
 * Payments keeps one container per account partition: auction invoice terms, buyer invoices (with
 * their credit notes), transactions, number counters and the markers of applied Stripe events.
 */
export const paymentsContainer: ContainerDefinition = {
  id: 'payments',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/kind', order: 'ascending' },
      { path: '/createdAt', order: 'descending' },
    ],
    [
      { path: '/kind', order: 'ascending' },
      { path: '/dueDate', order: 'ascending' },
    ],
  ],
};

interface Person {
  id: string;
  name: string;
}

export interface HistoryEvent {
  at: string;
  action: string;
  by: Person | null;
  detail: string;
}

type Band = { upTo: number | null; rateBps: number };

export interface TermsRecord {
  id: string;
  accountId: string;
  kind: 'terms';
  auctionId: string;
  premium: Band[];
  internetPremium: Band[] | null;
  tax: TaxRates;
  defaultCharges: Charge[];
  paymentDueDays: number;
  revision: number;
  updatedAt: string;
}

export interface InvoiceRecord {
  id: string;
  accountId: string;
  kind: 'invoice';
  number: string;
  invoiceKind: InvoiceKind;
  status: InvoiceStatus;
  auctionId: string | null;
  auctionTitle: string;
  bidderId: string;
  bidderName: string;
  bidderEmail: string;
  currency: string;
  lines: InvoiceLine[];
  charges: Charge[];
  premium: Band[];
  internetPremium: Band[] | null;
  taxRates: TaxRates;
  hammerTotal: number;
  premiumTotal: number;
  chargesTotal: number;
  tax: { hammer: number; premium: number; charges: number; total: number };
  grandTotal: number;
  creditedTotal: number;
  paidTotal: number;
  refundedTotal: number;
  balance: number;
  credits: CreditNote[];
  notes: string;
  dueDate: string;
  issuedAt: string;
  approvedAt: string | null;
  sentAt: string | null;
  viewedAt: string | null;
  paidAt: string | null;
  voidedAt: string | null;
  overdueAt: string | null;
  /** Lower-cased number, bidder name and email, auction title: what search matches. */
  searchText: string;
  /** The receipt mail went out (once). */
  receiptSentAt: string | null;
  history: HistoryEvent[];
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export interface TransactionRecord {
  id: string;
  accountId: string;
  kind: 'transaction';
  transactionId: string;
  invoiceId: string;
  invoiceNumber: string;
  bidderId: string;
  bidderName: string;
  bidderEmail: string;
  auctionId: string | null;
  auctionTitle: string;
  lotNumbers: string[];
  totalAmount: number;
  buyersPremium: number;
  taxes: number;
  shippingFees: number;
  grandTotal: number;
  amount: number;
  currency: string;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  dueDate: string;
  paymentDate: string | null;
  reference: string;
  failureMessage: string | null;
  refunds: Refund[];
  refundedAmount: number;
  dispute: Dispute | null;
  stripePaymentIntentId: string | null;
  /** Card payments: how many PaymentIntents were made (a retry makes the next). */
  attempt: number;
  itemsShipped: boolean;
  shippingTrackingNumber: string;
  notes: string;
  searchText: string;
  history: HistoryEvent[];
  revision: number;
  createdAt: string;
  updatedAt: string;
}

interface CounterRecord {
  id: string;
  accountId: string;
  kind: 'counter';
  value: number;
}

/** A Stripe event applied (or a once-only effect done), written in the batch that applies it. */
export interface MarkerRecord {
  id: string;
  accountId: string;
  kind: 'marker';
  type: string;
  at: string;
}

export type PaymentsDocument =
  TermsRecord | InvoiceRecord | TransactionRecord | CounterRecord | MarkerRecord;

export const paymentsRepo = new TenantRepository<PaymentsDocument>(paymentsContainer.id);

export const termsId = (auctionId: string) => `terms-${auctionId}`;
export const markerId = (key: string) => `marker-${key}`;

export async function findTerms(scope: AccountScope, auctionId: string) {
  const found = await paymentsRepo.find(scope, termsId(auctionId));
  return found?.kind === 'terms' ? (found as Stored<TermsRecord>) : undefined;
}

export async function findInvoice(scope: AccountScope, id: string) {
  const found = await paymentsRepo.find(scope, id);
  return found?.kind === 'invoice' ? (found as Stored<InvoiceRecord>) : undefined;
}

export async function findTransaction(scope: AccountScope, id: string) {
  const found = await paymentsRepo.find(scope, id);
  return found?.kind === 'transaction' ? (found as Stored<TransactionRecord>) : undefined;
}

export async function markerExists(scope: AccountScope, key: string) {
  return (await paymentsRepo.find(scope, markerId(key))) !== undefined;
}

export const markerOperation = (key: string, type: string): BatchOperation<PaymentsDocument> => ({
  op: 'create',
  document: {
    id: markerId(key),
    kind: 'marker',
    type,
    at: new Date().toISOString(),
  } as Omit<MarkerRecord, 'accountId'>,
});

/** Writes all or none (one partition); a marker's 409 means another delivery applied it first. */
export const writeAll = (scope: AccountScope, operations: BatchOperation<PaymentsDocument>[]) =>
  paymentsRepo.batch(scope, operations);

/**
 * Reserves `count` consecutive numbers of a counter (`INV-2026`, ...) and answers the first. The
 * increment is one atomic patch, so concurrent callers never get the same number.
 */
export async function reserveNumbers(
  scope: AccountScope,
  counter: string,
  count: number,
): Promise<number> {
  const id = `counter-${counter}`;
  const operations: PatchOperation[] = [{ op: 'incr', path: '/value', value: count }];
  for (let attempt = 0; ; attempt += 1) {
    try {
      const saved = (await paymentsRepo.patch(scope, id, operations)) as CounterRecord;
      return saved.value - count + 1;
    } catch (error) {
      if (!isNotFound(error) || attempt >= 3) throw error;
    }
    try {
      await paymentsRepo.create(scope, { id, kind: 'counter', value: count } as Omit<
        CounterRecord,
        'accountId'
      >);
      return 1;
    } catch (error) {
      // Someone else made it first: increment theirs.
      if (!isConflict(error)) throw error;
    }
  }
}

export async function invoicesOfAuction(scope: AccountScope, auctionId: string) {
  return (await paymentsRepo.all(scope, {
    where: "c.kind = 'invoice' AND c.auctionId = @auctionId",
    parameters: [{ name: '@auctionId', value: auctionId }],
  })) as Stored<InvoiceRecord>[];
}

export async function transactionsOfInvoice(scope: AccountScope, invoiceId: string) {
  return (await paymentsRepo.all(scope, {
    where: "c.kind = 'transaction' AND c.invoiceId = @invoiceId",
    parameters: [{ name: '@invoiceId', value: invoiceId }],
  })) as Stored<TransactionRecord>[];
}

export async function transactionsOfInvoices(scope: AccountScope, invoiceIds: string[]) {
  const found: Stored<TransactionRecord>[] = [];
  for (let start = 0; start < invoiceIds.length; start += 500) {
    found.push(
      ...((await paymentsRepo.all(scope, {
        where: "c.kind = 'transaction' AND ARRAY_CONTAINS(@ids, c.invoiceId)",
        parameters: [{ name: '@ids', value: invoiceIds.slice(start, start + 500) }],
      })) as Stored<TransactionRecord>[]),
    );
  }
  return found;
}

export async function transactionByIntent(scope: AccountScope, paymentIntentId: string) {
  const [found] = (await paymentsRepo.all(scope, {
    where: "c.kind = 'transaction' AND c.stripePaymentIntentId = @intent",
    parameters: [{ name: '@intent', value: paymentIntentId }],
  })) as Stored<TransactionRecord>[];
  return found;
}

export interface Filters {
  where: string[];
  parameters: SqlParameter[];
}

/** The orders lists page in; each has its composite index in `paymentsContainer`. */
export const listOrders = {
  newestFirst: 'c.kind ASC, c.createdAt DESC',
  oldestDueFirst: 'c.kind ASC, c.dueDate ASC',
} as const;

export async function pageOf<T extends PaymentsDocument>(
  scope: AccountScope,
  kind: T['kind'],
  filters: Filters,
  pageSize: number,
  continuationToken: string | undefined,
  orderBy: (typeof listOrders)[keyof typeof listOrders] = listOrders.newestFirst,
): Promise<Page<Stored<T>>> {
  const page = await paymentsRepo.page(scope, {
    where: [`c.kind = @kind`, ...filters.where].join(' AND '),
    parameters: [{ name: '@kind', value: kind }, ...filters.parameters],
    orderBy,
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  });
  return page as unknown as Page<Stored<T>>;
}

/** How many documents of a kind match the filters (a list's total). */
export const countOf = (scope: AccountScope, kind: PaymentsDocument['kind'], filters: Filters) =>
  paymentsRepo.count(scope, {
    where: [`c.kind = @kind`, ...filters.where].join(' AND '),
    parameters: [{ name: '@kind', value: kind }, ...filters.parameters],
  });

/**
 * Invoices still owed and due before `day` (the house's today): approved, sent or viewed with a
 * balance left, as the overdue timer counts them, whether or not it has marked them yet.
 */
export const owedDueBefore = (day: string): Filters => ({
  where: [
    "(c.status = 'approved' OR c.status = 'sent' OR c.status = 'viewed')",
    'c.balance > 0',
    'c.dueDate < @dueBefore',
  ],
  parameters: [{ name: '@dueBefore', value: day }],
});

/** Every transaction's figures the overview sums (small rows). */
export async function transactionFigures(scope: AccountScope) {
  return (await paymentsRepo.all(scope, {
    select: 'c.amount, c.refundedAmount, c.currency, c.paymentStatus, c.paymentMethod',
    where: "c.kind = 'transaction'",
  })) as unknown as Pick<
    TransactionRecord,
    'amount' | 'refundedAmount' | 'currency' | 'paymentStatus' | 'paymentMethod'
  >[];
}

export async function recentTransactions(scope: AccountScope, count: number) {
  return paymentsRepo.firstRows<Stored<TransactionRecord>>(
    scope,
    { where: "c.kind = 'transaction'", orderBy: 'c.kind ASC, c.createdAt DESC' },
    count,
  );
}

/** Completed card and offline payments with money in a period (by payment date), minor units. */
export async function paymentsBetween(scope: AccountScope, fromIso: string, toIso: string) {
  return (await paymentsRepo.all(scope, {
    select: 'c.amount, c.refundedAmount, c.paymentStatus, c.dispute',
    where:
      "c.kind = 'transaction' AND IS_STRING(c.paymentDate) AND c.paymentDate >= @from AND c.paymentDate < @to",
    parameters: [
      { name: '@from', value: fromIso },
      { name: '@to', value: toIso },
    ],
  })) as unknown as Pick<
    TransactionRecord,
    'amount' | 'refundedAmount' | 'paymentStatus' | 'dispute'
  >[];
}

/** Unpaid invoices due before a day (the overdue timer's candidates). */
export async function unpaidDueBefore(scope: AccountScope, day: string) {
  return (await paymentsRepo.all(scope, {
    where:
      "c.kind = 'invoice' AND (c.status = 'sent' OR c.status = 'viewed' OR c.status = 'approved') AND c.dueDate < @day AND IS_NULL(c.overdueAt)",
    parameters: [{ name: '@day', value: day }],
  })) as Stored<InvoiceRecord>[];
}

/** Accounts that have invoices not yet overdue-checked (the timer's work list). */
export async function accountsWithOpenInvoices(): Promise<string[]> {
  const { resources } = await container(paymentsContainer.id)
    .items.query<{ accountId: string }>({
      query:
        "SELECT c.accountId FROM c WHERE c.kind = 'invoice' AND (c.status = 'sent' OR c.status = 'viewed' OR c.status = 'approved') AND IS_NULL(c.overdueAt)",
    })
    .fetchAll();
  return [...new Set(resources.map((row) => row.accountId))];
}

export { MAX_BATCH_OPERATIONS };
