import { randomUUID } from 'node:crypto';
import { createCase } from '../legal/legal.service.js';
import { writeAudit } from '../platform/audit.js';
import { systemContext, type RequestContext } from '../platform/context.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import { conflict } from '../platform/errors.js';
import type { Logger } from '../platform/logging.js';
import type { BatchOperation, Stored } from '../platform/repo.js';
import { stripeBrowserSettings, stripeCall, type Stripe } from '../platform/stripe.js';
import type { CardPayment, PaymentStatus, Refund, RefundInput } from './payments.schema.js';
import {
  findTransaction,
  markerExists,
  markerOperation,
  paymentsRepo,
  transactionsOfInvoice,
  writeAll,
  type InvoiceRecord,
  type PaymentsDocument,
  type TransactionRecord,
} from './payments.repo.js';
import {
  afterPayment,
  balanceOf,
  eventBy,
  fieldError,
  getInvoiceRecord,
  getTransactionRecord,
  money,
  nextNumbers,
  payable,
  personOf,
  toTransaction,
  transactionBase,
  transactionSearchText,
  withPayment,
} from './payments.service.js';

/**
 * Card payments of buyer invoices through Stripe PaymentIntents, their refunds and disputes, and
 * the Stripe events about them. Every PaymentIntent carries `metadata.lotwise = 'buyer-invoice'`
 * with the account, invoice and transaction, so an event finds its way back without a lookup.
 */

export const BUYER_INVOICE_METADATA = 'buyer-invoice';

type Scoped = Pick<RequestContext, 'scope'>;
type Intent = Stripe.PaymentIntent;

const unwrap = ({ _etag, _ts, ...rest }: Stored<TransactionRecord>) => {
  void _etag;
  void _ts;
  return rest;
};

const invoiceWithout = ({ _etag, _ts, accountId, ...rest }: Stored<InvoiceRecord>) => {
  void _etag;
  void _ts;
  void accountId;
  return rest;
};

const intentKey = (accountId: string, transactionId: string, attempt: number) =>
  `lotwise-buyer-${accountId}-${transactionId}-${attempt}`;

async function createIntent(
  scope: { accountId: string },
  transaction: Pick<
    TransactionRecord,
    'id' | 'invoiceId' | 'invoiceNumber' | 'amount' | 'currency'
  >,
  attempt: number,
): Promise<Intent> {
  return stripeCall((client) =>
    client.paymentIntents.create(
      {
        amount: transaction.amount,
        currency: transaction.currency.toLowerCase(),
        description: `Invoice ${transaction.invoiceNumber}`,
        metadata: {
          lotwise: BUYER_INVOICE_METADATA,
          accountId: scope.accountId,
          invoiceId: transaction.invoiceId,
          transactionId: transaction.id,
        },
      },
      // A double click (or a retried request) makes one PaymentIntent.
      { idempotencyKey: intentKey(scope.accountId, transaction.id, attempt) },
    ),
  );
}

function cardPaymentOf(transaction: Stored<TransactionRecord>, intent: Intent): CardPayment {
  const browser = stripeBrowserSettings();
  return {
    transaction: toTransaction(transaction),
    paymentIntentId: intent.id,
    clientSecret: intent.client_secret ?? '',
    publishableKey: browser.publishableKey,
    stripeJsUrl: browser.stripeJsUrl,
    amount: transaction.amount,
    currency: transaction.currency as CardPayment['currency'],
  };
}

const collectable = (intent: Intent) =>
  ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status) &&
  !intent.last_payment_error;

/**
 * A card payment of the invoice's balance (or `amount` of it): the open one when there is one for
 * the same amount, else a new transaction (Pending) with its PaymentIntent. The transaction id
 * follows the invoice's card payments, and the PaymentIntent's idempotency key follows that id,
 * so two clicks at once make one PaymentIntent and one transaction.
 */
export async function startCardPayment(
  ctx: RequestContext,
  invoiceId: string,
  requested?: number,
): Promise<CardPayment> {
  const invoice = await getInvoiceRecord(ctx, invoiceId);
  if (invoice.status === 'draft') throw conflict('Approve the invoice before taking a payment');
  const amount = requested ?? invoice.balance;
  payable(invoice, amount);
  const existing = await transactionsOfInvoice(ctx.scope, invoiceId);
  const cards = existing.filter((row) => row.paymentMethod === 'Credit Card');
  const open = cards.find(
    (row) => row.paymentStatus === 'Pending' && row.amount === amount && row.stripePaymentIntentId,
  );
  if (open?.stripePaymentIntentId) {
    const intent = await stripeCall((client) =>
      client.paymentIntents.retrieve(open.stripePaymentIntentId ?? ''),
    );
    if (collectable(intent)) return cardPaymentOf(open, intent);
  }
  const id = `txn-card-${invoiceId}-${cards.length + 1}`;
  const now = new Date().toISOString();
  const [transactionNumber] = await nextNumbers(ctx.scope, 'TXN', 1);
  const record: Omit<TransactionRecord, 'accountId'> = {
    id,
    kind: 'transaction',
    transactionId: transactionNumber ?? id,
    ...transactionBase(invoice),
    amount,
    paymentMethod: 'Credit Card',
    paymentStatus: 'Pending',
    paymentDate: null,
    reference: '',
    failureMessage: null,
    refunds: [],
    refundedAmount: 0,
    dispute: null,
    stripePaymentIntentId: null,
    attempt: 1,
    itemsShipped: false,
    shippingTrackingNumber: '',
    notes: '',
    searchText: '',
    history: [
      eventBy(ctx, 'Pending', `Card payment of ${money(amount, invoice.currency)} started`),
    ],
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
  record.searchText = transactionSearchText(record);
  const intent = await createIntent(ctx.scope, record, 1);
  record.stripePaymentIntentId = intent.id;
  try {
    const saved = (await paymentsRepo.create(ctx.scope, record)) as Stored<TransactionRecord>;
    await writeAudit(ctx, {
      action: 'payments.transaction.create',
      entity: { type: 'transaction', id },
      after: { amount, method: 'Credit Card', invoiceId, paymentIntentId: intent.id },
    });
    return cardPaymentOf(saved, intent);
  } catch (error) {
    // The other click made it: the same PaymentIntent, answered the same way.
    if (!isConflict(error)) throw error;
    return cardPaymentOf(await getTransactionRecord(ctx, id), intent);
  }
}

/** Tries a failed card payment again: the next PaymentIntent of the same transaction. */
export async function retryPayment(ctx: RequestContext, id: string): Promise<CardPayment> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await getTransactionRecord(ctx, id);
    if (current.paymentMethod !== 'Credit Card') {
      throw conflict('Only a card payment is retried; record the payment again instead');
    }
    if (current.paymentStatus === 'Pending' && current.stripePaymentIntentId) {
      const intent = await stripeCall((client) =>
        client.paymentIntents.retrieve(current.stripePaymentIntentId ?? ''),
      );
      if (collectable(intent)) return cardPaymentOf(current, intent);
    }
    if (current.paymentStatus !== 'Failed') {
      throw conflict(`Only a failed payment can be retried; this one is ${current.paymentStatus}`);
    }
    const invoice = await getInvoiceRecord(ctx, current.invoiceId);
    payable(invoice, current.amount);
    const next = current.attempt + 1;
    const intent = await createIntent(ctx.scope, current, next);
    const record: TransactionRecord = {
      ...unwrap(current),
      paymentStatus: 'Pending',
      failureMessage: null,
      stripePaymentIntentId: intent.id,
      attempt: next,
      history: [...current.history, eventBy(ctx, 'Retry', `Attempt ${next}`)],
      revision: current.revision + 1,
      updatedAt: new Date().toISOString(),
    };
    try {
      const saved = (await paymentsRepo.replace(
        ctx.scope,
        record,
        current._etag,
      )) as Stored<TransactionRecord>;
      await writeAudit(ctx, {
        action: 'payments.transaction.retry',
        entity: { type: 'transaction', id },
        after: { attempt: next, paymentIntentId: intent.id },
      });
      return cardPaymentOf(saved, intent);
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}

/** What a PaymentIntent's state means for its transaction; undefined = nothing to change. */
function statusOfIntent(
  intent: Intent,
): { status: PaymentStatus; message: string | null } | undefined {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'Completed', message: null };
    case 'processing':
      return { status: 'Processing', message: null };
    case 'canceled':
      return { status: 'Failed', message: 'The payment was cancelled' };
    case 'requires_payment_method':
      return intent.last_payment_error
        ? {
            status: 'Failed',
            message: intent.last_payment_error.message ?? 'The card was declined',
          }
        : undefined;
    default:
      return undefined;
  }
}

const settled: PaymentStatus[] = ['Completed', 'Refunded', 'Disputed'];

/**
 * Applies a PaymentIntent's state to its transaction, at most once: a completed payment is added
 * to the invoice in the same batch (with the event's marker, when an event brought it), and a
 * settled transaction never moves back. Answers whether anything changed.
 */
export async function applyIntent(
  ctx: RequestContext,
  transactionId: string,
  intent: Intent,
  marker?: { key: string; type: string },
): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await findTransaction(ctx.scope, transactionId);
    if (!current) return false;
    const wanted = statusOfIntent(intent);
    const markers: BatchOperation<PaymentsDocument>[] = marker
      ? [markerOperation(marker.key, marker.type)]
      : [];
    const current_intent = current.stripePaymentIntentId === intent.id;
    const unchanged =
      !wanted ||
      settled.includes(current.paymentStatus) ||
      wanted.status === current.paymentStatus ||
      // A failure of an earlier attempt says nothing of the current one.
      (!current_intent && wanted.status !== 'Completed');
    try {
      if (unchanged) {
        if (markers.length) await writeAll(ctx.scope, markers);
        return false;
      }
      const now = new Date().toISOString();
      const record: Omit<TransactionRecord, 'accountId'> = {
        ...unwrap(current),
        paymentStatus: wanted.status,
        failureMessage: wanted.message,
        stripePaymentIntentId: intent.id,
        ...(wanted.status === 'Completed' ? { paymentDate: now } : {}),
        history: [
          ...current.history,
          eventBy(null, wanted.status, wanted.message ?? `Card ${intent.id}`),
        ],
        revision: current.revision + 1,
        updatedAt: now,
      };
      const operations: BatchOperation<PaymentsDocument>[] = [
        { op: 'replace', document: record, etag: current._etag },
      ];
      let invoice: Stored<InvoiceRecord> | undefined;
      if (wanted.status === 'Completed') {
        invoice = await getInvoiceRecord(ctx, current.invoiceId);
        operations.push({
          op: 'replace',
          document: {
            ...withPayment(null, invoice, current.amount, current.transactionId, now),
            revision: invoice.revision + 1,
            updatedAt: now,
          } as Omit<InvoiceRecord, 'accountId'>,
          etag: invoice._etag,
        });
      }
      const written = await writeAll(ctx.scope, [...operations, ...markers]);
      await writeAudit(ctx, {
        action: 'payments.transaction.status',
        entity: { type: 'transaction', id: transactionId },
        before: { paymentStatus: current.paymentStatus },
        after: { paymentStatus: wanted.status, paymentIntentId: intent.id },
      });
      if (invoice) await afterPayment(ctx, written[1] as Stored<InvoiceRecord>);
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      if (!isStale(error) || attempt >= 8) throw error;
    }
  }
}

/** Re-reads a card payment's PaymentIntent from Stripe and applies it (no webhook needed). */
export async function confirmCardPayment(ctx: RequestContext, id: string) {
  const current = await getTransactionRecord(ctx, id);
  if (!current.stripePaymentIntentId) throw conflict('This payment has no card payment to check');
  const intent = await stripeCall((client) =>
    client.paymentIntents.retrieve(current.stripePaymentIntentId ?? ''),
  );
  await applyIntent(ctx, id, intent);
  return toTransaction(await getTransactionRecord(ctx, id));
}

// ---- Refunds ----

function withRefund(
  current: Stored<TransactionRecord>,
  refund: Refund,
): Omit<TransactionRecord, 'accountId'> {
  const refundedAmount = current.refundedAmount + refund.amount;
  return {
    ...unwrap(current),
    refunds: [...current.refunds, refund],
    refundedAmount,
    paymentStatus: refundedAmount >= current.amount ? 'Refunded' : current.paymentStatus,
    history: [
      ...current.history,
      {
        at: refund.createdAt,
        action: refundedAmount >= current.amount ? 'Refunded' : 'Partly refunded',
        by: refund.createdBy,
        detail: `${money(refund.amount, current.currency)}${refund.reason ? `: ${refund.reason}` : ''}`,
      },
    ],
    revision: current.revision + 1,
    updatedAt: refund.createdAt,
  };
}

/** Records a refund on the transaction and the invoice together, once per refund id. */
async function recordRefund(
  ctx: Scoped,
  transactionId: string,
  refund: Refund,
  marker?: { key: string; type: string },
) {
  for (let attempt = 0; ; attempt += 1) {
    const current = await getTransactionRecord(ctx, transactionId);
    if (current.refunds.some((known) => known.id === refund.id)) return current;
    if (refund.amount > current.amount - current.refundedAmount) {
      throw fieldError(
        'amount',
        `is more than the ${money(current.amount - current.refundedAmount, current.currency)} left to refund`,
      );
    }
    const invoice = await getInvoiceRecord(ctx, current.invoiceId);
    const nextInvoice = {
      ...invoiceWithout(invoice),
      refundedTotal: invoice.refundedTotal + refund.amount,
      history: [
        ...invoice.history,
        {
          at: refund.createdAt,
          action: 'Refund',
          by: refund.createdBy,
          detail: `${money(refund.amount, invoice.currency)} of ${current.transactionId}`,
        },
      ],
      revision: invoice.revision + 1,
      updatedAt: refund.createdAt,
    };
    try {
      const written = await writeAll(ctx.scope, [
        { op: 'replace', document: withRefund(current, refund), etag: current._etag },
        {
          op: 'replace',
          document: { ...nextInvoice, balance: balanceOf(nextInvoice) } as Omit<
            InvoiceRecord,
            'accountId'
          >,
          etag: invoice._etag,
        },
        ...(marker ? [markerOperation(marker.key, marker.type)] : []),
      ]);
      return written[0] as Stored<TransactionRecord>;
    } catch (error) {
      if (isConflict(error)) return current;
      if (!isStale(error) || attempt >= 8) throw error;
    }
  }
}

/**
 * Refunds all or part of a completed payment, never more than was paid less what was refunded.
 * A card payment is refunded through Stripe (the idempotency key names the amount refunded
 * before, so a double click refunds once); money returned by hand is recorded.
 */
export async function refundTransaction(ctx: RequestContext, id: string, input: RefundInput) {
  const current = await getTransactionRecord(ctx, id);
  if (current.paymentStatus === 'Disputed') {
    throw conflict('A disputed payment is settled through its dispute, not refunded');
  }
  if (current.paymentStatus !== 'Completed' && current.paymentStatus !== 'Refunded') {
    throw conflict(
      `Only a completed payment can be refunded; this one is ${current.paymentStatus}`,
    );
  }
  const left = current.amount - current.refundedAmount;
  const amount = input.amount ?? left;
  if (left <= 0) throw fieldError('amount', 'cannot be refunded: this payment is refunded in full');
  if (amount > left) {
    throw fieldError('amount', `is more than the ${money(left, current.currency)} left to refund`);
  }
  const createdAt = new Date().toISOString();
  let refund: Refund;
  if (current.paymentMethod === 'Credit Card' && current.stripePaymentIntentId) {
    const made = await stripeCall((client) =>
      client.refunds.create(
        {
          payment_intent: current.stripePaymentIntentId ?? '',
          amount,
          metadata: {
            lotwise: BUYER_INVOICE_METADATA,
            accountId: ctx.scope.accountId,
            transactionId: id,
          },
        },
        {
          idempotencyKey: `lotwise-refund-${ctx.scope.accountId}-${id}-${current.refundedAmount}-${amount}`,
        },
      ),
    );
    refund = {
      id: made.id,
      amount: made.amount,
      reason: input.reason,
      stripeRefundId: made.id,
      status: made.status === 'succeeded' ? 'succeeded' : 'pending',
      createdAt,
      createdBy: personOf(ctx),
    };
  } else {
    refund = {
      id: `rf-${randomUUID()}`,
      amount,
      reason: input.reason,
      stripeRefundId: null,
      status: 'succeeded',
      createdAt,
      createdBy: personOf(ctx),
    };
  }
  const saved = await recordRefund(ctx, id, refund);
  await writeAudit(ctx, {
    action: 'payments.transaction.refund',
    entity: { type: 'transaction', id },
    before: { refundedAmount: current.refundedAmount, paymentStatus: current.paymentStatus },
    after: {
      refundedAmount: saved.refundedAmount,
      paymentStatus: saved.paymentStatus,
      refund: refund.amount,
    },
  });
  return toTransaction(saved);
}

// ---- Disputes ----

/** Opens the legal case of a dispute, once (a marker claims it first). */
async function openDisputeCase(ctx: RequestContext, transaction: Stored<TransactionRecord>) {
  const dispute = transaction.dispute;
  if (!dispute || dispute.caseId) return;
  try {
    await writeAll(ctx.scope, [
      markerOperation(`dispute-case-${dispute.stripeDisputeId}`, 'dispute-case'),
    ]);
  } catch (error) {
    if (isConflict(error)) return;
    throw error;
  }
  const input = {
    caseType: 'payment_dispute' as const,
    category: 'post_sale' as const,
    priority: 'high' as const,
    title: `Card payment disputed: invoice ${transaction.invoiceNumber}`,
    description: `The cardholder disputed ${transaction.transactionId} (${money(dispute.amount, transaction.currency)}), reason: ${dispute.reason}. Stripe dispute ${dispute.stripeDisputeId}.`,
    jurisdiction: 'Card network dispute',
    claimAmount: dispute.amount,
    currency: transaction.currency as 'USD',
    plaintiff: {
      name: transaction.bidderName,
      type: 'individual' as const,
      email: transaction.bidderEmail,
    },
    defendant: { name: '', type: 'business' as const, email: '' },
    auctionId: transaction.auctionId,
    bidderId: transaction.bidderId,
    assignedTo: null,
  };
  const created = await createCase(ctx, input).catch(() =>
    // The bidder or auction may be gone; the case still stands without them.
    createCase(ctx, { ...input, auctionId: null, bidderId: null }),
  );
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await getTransactionRecord(ctx, transaction.id);
    if (!current.dispute) return;
    try {
      await paymentsRepo.replace(
        ctx.scope,
        {
          ...unwrap(current),
          dispute: { ...current.dispute, caseId: created.id },
          accountId: ctx.scope.accountId,
        },
        current._etag,
      );
      return;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
}

async function applyDispute(
  ctx: RequestContext,
  transactionId: string,
  dispute: Stripe.Dispute,
  marker: { key: string; type: string },
): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await findTransaction(ctx.scope, transactionId);
    if (!current) return false;
    const closed = dispute.status === 'won' || dispute.status === 'lost';
    const known = current.dispute?.stripeDisputeId === dispute.id ? current.dispute : null;
    const now = new Date().toISOString();
    const unchanged = known && known.status === dispute.status;
    try {
      if (unchanged) {
        await writeAll(ctx.scope, [markerOperation(marker.key, marker.type)]);
        return false;
      }
      const record: Omit<TransactionRecord, 'accountId'> = {
        ...unwrap(current),
        paymentStatus: closed && dispute.status === 'won' ? 'Completed' : 'Disputed',
        dispute: {
          stripeDisputeId: dispute.id,
          amount: dispute.amount,
          reason: dispute.reason,
          status: dispute.status,
          openedAt: known?.openedAt ?? now,
          closedAt: closed ? now : null,
          caseId: known?.caseId ?? null,
        },
        history: [
          ...current.history,
          eventBy(
            null,
            closed ? `Dispute ${dispute.status}` : 'Disputed',
            `${money(dispute.amount, current.currency)}: ${dispute.reason}`,
          ),
        ],
        revision: current.revision + 1,
        updatedAt: now,
      };
      const invoice = await getInvoiceRecord(ctx, current.invoiceId);
      const written = await writeAll(ctx.scope, [
        { op: 'replace', document: record, etag: current._etag },
        {
          op: 'replace',
          document: {
            ...invoiceWithout(invoice),
            history: [
              ...invoice.history,
              eventBy(
                null,
                closed ? `Dispute ${dispute.status}` : 'Payment disputed',
                current.transactionId,
              ),
            ],
            revision: invoice.revision + 1,
            updatedAt: now,
          } as Omit<InvoiceRecord, 'accountId'>,
          etag: invoice._etag,
        },
        markerOperation(marker.key, marker.type),
      ]);
      await writeAudit(ctx, {
        action: 'payments.transaction.dispute',
        entity: { type: 'transaction', id: transactionId },
        before: { paymentStatus: current.paymentStatus, dispute: current.dispute },
        after: { paymentStatus: record.paymentStatus, dispute: record.dispute },
      });
      await openDisputeCase(ctx, written[0] as Stored<TransactionRecord>);
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      if (!isStale(error) || attempt >= 8) throw error;
    }
  }
}

// ---- Stripe events ----

interface Ours {
  accountId: string;
  transactionId: string;
}

function oursFrom(metadata: Stripe.Metadata | null | undefined): Ours | undefined {
  if (metadata?.lotwise !== BUYER_INVOICE_METADATA) return undefined;
  const { accountId, transactionId } = metadata;
  return accountId && transactionId ? { accountId, transactionId } : undefined;
}

const intentIdOf = (value: unknown) =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && 'id' in value
      ? String((value as { id: unknown }).id)
      : undefined;

/** Whose buyer payment an event is about: the object's metadata, or its PaymentIntent's. */
async function ownerOf(
  event: Stripe.Event,
): Promise<{ ours: Ours; intentId: string | undefined } | undefined> {
  const object = event.data.object as unknown as {
    object?: string;
    id?: string;
    metadata?: Stripe.Metadata | null;
    payment_intent?: unknown;
  };
  const intentId =
    object.object === 'payment_intent' ? object.id : intentIdOf(object.payment_intent);
  const direct = oursFrom(object.metadata);
  if (direct) return { ours: direct, intentId };
  if (!intentId || !event.type.startsWith('charge.')) return undefined;
  const intent = await stripeCall((client) => client.paymentIntents.retrieve(intentId)).catch(
    () => undefined,
  );
  const ours = oursFrom(intent?.metadata);
  return ours ? { ours, intentId } : undefined;
}

const HANDLED = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.canceled',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
]);

/**
 * A Stripe event about a buyer payment, applied once (its marker is written with the change), or
 * undefined when the event is not about one (billing handles it then). The PaymentIntent is read
 * fresh, so events arriving out of order still leave the latest state.
 */
export async function handleBuyerPaymentEvent(
  event: Stripe.Event,
  log: Logger,
): Promise<{ applied: boolean } | undefined> {
  const owner = await ownerOf(event);
  if (!owner) return undefined;
  const { ours, intentId } = owner;
  const ctx = systemContext(ours.accountId);
  const marker = { key: `evt-${event.id}`, type: event.type };
  if (!HANDLED.has(event.type) || (await markerExists(ctx.scope, marker.key))) {
    return { applied: false };
  }
  let applied = false;
  if (event.type.startsWith('payment_intent.') && intentId) {
    const intent = await stripeCall((client) => client.paymentIntents.retrieve(intentId));
    applied = await applyIntent(ctx, ours.transactionId, intent, marker);
  } else if (event.type === 'charge.refunded' && intentId) {
    applied = await applyStripeRefunds(ctx, ours.transactionId, intentId, marker);
  } else if (event.type.startsWith('charge.dispute.')) {
    const dispute = event.data.object as Stripe.Dispute;
    const fresh = await stripeCall((client) => client.disputes.retrieve(dispute.id)).catch(
      () => dispute,
    );
    applied = await applyDispute(ctx, ours.transactionId, fresh, marker);
  }
  log.info('buyer payment event', {
    type: event.type,
    event: event.id,
    applied,
    account: ours.accountId,
  });
  return { applied };
}

/** Refunds made in Stripe itself (the dashboard) are recorded too; ours are known by id. */
async function applyStripeRefunds(
  ctx: RequestContext,
  transactionId: string,
  intentId: string,
  marker: { key: string; type: string },
) {
  const refunds = await stripeCall((client) =>
    client.refunds.list({ payment_intent: intentId, limit: 100 }),
  );
  const current = await findTransaction(ctx.scope, transactionId);
  if (!current) return false;
  const unknown = refunds.data.filter(
    (refund) =>
      refund.status === 'succeeded' && !current.refunds.some((known) => known.id === refund.id),
  );
  let applied = false;
  for (const [index, refund] of unknown.entries()) {
    const recorded = await recordRefund(
      ctx,
      transactionId,
      {
        id: refund.id,
        amount: refund.amount,
        reason: 'Refunded in Stripe',
        stripeRefundId: refund.id,
        status: 'succeeded',
        createdAt: new Date(refund.created * 1000).toISOString(),
        createdBy: null,
      },
      index === unknown.length - 1 ? marker : undefined,
    ).catch((error: unknown) => {
      if (error instanceof Error && error.message.includes('left to refund')) return undefined;
      throw error;
    });
    applied ||= recorded !== undefined;
  }
  if (!unknown.length) {
    await writeAll(ctx.scope, [markerOperation(marker.key, marker.type)]).catch(
      (error: unknown) => {
        if (!isConflict(error)) throw error;
      },
    );
  }
  return applied;
}
