import { accountNameOf, housesOf } from '../identity/accounts/accounts.service.js';
import { writeAudit } from '../platform/audit.js';
import { systemContext, type AccountScope, type RequestContext } from '../platform/context.js';
import { conflict, notFound } from '../platform/errors.js';
import { sendMessage } from '../platform/mail.js';
import { settings as serviceSettings } from '../platform/settings.js';
import { stripeCall } from '../platform/stripe.js';
import type { Currency } from '../auctions/auctions.schema.js';
import type { PaymentPortalInput, PortalInvoice } from '../settings/settings.schema.js';
import { paymentMethodLabels } from '../settings/settings.schema.js';
import { paymentPortalOf } from '../settings/settings.service.js';
import { signPaymentLink, verifyPaymentLink } from '../settings/payment-link.js';
import { applyIntent, startCardPayment } from './card-payments.service.js';
import type { PortalCardPayment, PortalPayment } from './payments.schema.js';
import { findInvoice, transactionByIntent, transactionsOfInvoice } from './payments.repo.js';
import { eventBy, getInvoiceRecord, money, reviseInvoice, toInvoice } from './payments.service.js';

/**
 * The buyer's side of an invoice: Send Email mails a signed, expiring link to `/pay/{token}`; the
 * page (the settings' portal route) shows the invoice branded with the house's portal and the
 * ways to pay; a card is paid online through Stripe, the other methods show instructions.
 */

async function houseNameOf(scope: AccountScope) {
  const houses = [...(await housesOf(scope))].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  return houses[0]?.name ?? (await accountNameOf(scope.accountId));
}

export async function sendInvoice(ctx: RequestContext, id: string) {
  const current = await getInvoiceRecord(ctx, id);
  if (current.status === 'draft' || current.status === 'void') {
    throw conflict(
      current.status === 'draft'
        ? 'Approve the invoice before sending it'
        : 'A void invoice cannot be sent',
    );
  }
  if (!current.bidderEmail) throw conflict('This bidder has no email address to send to');
  const portal = await paymentPortalOf(ctx.scope);
  if (!portal.enabled) {
    throw conflict('Turn on the payment portal (Settings › Payments) before sending invoices');
  }
  const { token, expiresAt } = await signPaymentLink(
    ctx.scope.accountId,
    { kind: 'buyer', id },
    portal.defaultExpirationDays,
  );
  const url = `${serviceSettings().PUBLIC_WEB_URL}/pay/${token}`;
  const house = portal.companyName || (await houseNameOf(ctx.scope));
  await sendMessage({
    channel: 'email',
    to: current.bidderEmail,
    kind: 'buyer-invoice',
    subject: `Invoice ${current.number} from ${house}`,
    text: [
      `Dear ${current.bidderName || 'customer'},`,
      '',
      `Your invoice ${current.number}${current.auctionTitle ? ` for ${current.auctionTitle}` : ''} is ready: ${money(current.balance, current.currency)} due by ${current.dueDate}.`,
      '',
      `View and pay it here: ${url}`,
      `This link works until ${expiresAt.slice(0, 10)}.`,
      '',
      house,
    ].join('\n'),
  });
  const saved = await reviseInvoice(ctx, id, async (invoice) => {
    const { _etag, _ts, accountId, ...rest } = invoice;
    void _etag;
    void _ts;
    void accountId;
    return {
      next: {
        ...rest,
        status: invoice.status === 'approved' ? 'sent' : invoice.status,
        sentAt: new Date().toISOString(),
        history: [...invoice.history, eventBy(ctx, 'Sent', `Emailed to ${invoice.bidderEmail}`)],
      },
      result: (record) => record,
    };
  });
  await writeAudit(ctx, {
    action: 'payments.invoice.send',
    entity: { type: 'invoice', id },
    before: { status: current.status },
    after: { status: saved.status, sentTo: current.bidderEmail, expiresAt },
  });
  return { invoice: toInvoice(saved), url, expiresAt, sentTo: current.bidderEmail };
}

/** How the buyer may pay: a card online (when the house takes cards); the rest by instruction. */
function optionsOf(settings: PaymentPortalInput, house: string, number: string) {
  const contact = settings.supportEmail || settings.supportPhone;
  const ask = contact ? ` Contact ${contact} for the details.` : '';
  return settings.enabledPaymentMethods.map((method) => {
    const label = paymentMethodLabels[method];
    if (method === 'credit_card') {
      return { method, label, online: true, instructions: 'Pay securely by card on this page.' };
    }
    const instructions =
      method === 'wire' || method === 'ach'
        ? `Send a ${label.toLowerCase()} to ${house}, quoting invoice ${number} as the reference.${ask}`
        : `Pay ${house} by ${label}, quoting invoice ${number}.${ask}`;
    return { method, label, online: false, instructions };
  });
}

/**
 * A real buyer invoice as the portal page shows it, with what is left to pay and how; opening it
 * marks a sent invoice viewed. A void or unknown invoice is not shown.
 */
export async function buyerInvoiceView(
  scope: AccountScope,
  invoiceId: string,
  settings: PaymentPortalInput,
): Promise<{ invoice: PortalInvoice; payment: PortalPayment }> {
  const found = await findInvoice(scope, invoiceId);
  if (!found || found.status === 'void' || found.status === 'draft') {
    throw notFound('This payment link is not valid');
  }
  const ctx = systemContext(scope.accountId);
  const invoice =
    found.status === 'sent'
      ? await reviseInvoice(ctx, invoiceId, async (current) => {
          const { _etag, _ts, accountId, ...rest } = current;
          void _etag;
          void _ts;
          void accountId;
          return {
            next:
              current.status === 'sent'
                ? {
                    ...rest,
                    status: 'viewed',
                    viewedAt: new Date().toISOString(),
                    history: [
                      ...current.history,
                      eventBy(null, 'Viewed', 'The buyer opened the link'),
                    ],
                  }
                : null,
            result: (record) => record,
          };
        })
      : found;
  const house = settings.companyName || (await houseNameOf(scope));
  const open = (await transactionsOfInvoice(scope, invoiceId)).find(
    (row) => row.paymentMethod === 'Credit Card' && row.paymentStatus === 'Pending',
  );
  const subtotal = invoice.hammerTotal + invoice.premiumTotal + invoice.chargesTotal;
  return {
    invoice: {
      kind: 'buyer',
      number: invoice.number,
      houseName: house,
      buyerName: invoice.bidderName,
      issuedAt: invoice.issuedAt,
      currency: invoice.currency as Currency,
      lines: invoice.lines.map((line) => ({
        lotNumber: line.lotNumber,
        title: line.title,
        hammer: line.hammer,
      })),
      hammerTotal: invoice.hammerTotal,
      buyersPremiumRate: invoice.hammerTotal ? invoice.premiumTotal / invoice.hammerTotal : 0,
      buyersPremium: invoice.premiumTotal,
      taxRate: subtotal ? invoice.tax.total / subtotal : 0,
      tax: invoice.tax.total,
      total: invoice.grandTotal,
    },
    payment: {
      invoiceId: invoice.id,
      status: invoice.status,
      dueDate: invoice.dueDate,
      grandTotal: invoice.grandTotal,
      creditedTotal: invoice.creditedTotal,
      paidTotal: invoice.paidTotal - invoice.refundedTotal,
      balance: Math.max(0, invoice.balance),
      charges: invoice.charges,
      options: optionsOf(settings, house, invoice.number),
      openPaymentIntentId: open?.stripePaymentIntentId ?? null,
    },
  };
}

async function buyerLink(token: string) {
  const link = await verifyPaymentLink(token);
  if (link.invoice.kind !== 'buyer') throw notFound('This payment link is not valid');
  const scope = { accountId: link.accountId };
  const settings = await paymentPortalOf(scope);
  if (!settings.enabled) throw notFound('This payment portal is not enabled');
  return { scope, invoiceId: link.invoice.id, settings };
}

/** The portal's card payment: the open PaymentIntent for the balance, or a new one. */
export async function portalCardPayment(token: string): Promise<PortalCardPayment> {
  const { scope, invoiceId, settings } = await buyerLink(token);
  if (!settings.enabledPaymentMethods.includes('credit_card')) {
    throw conflict('This house does not take card payments online');
  }
  const payment = await startCardPayment(systemContext(scope.accountId), invoiceId);
  const { transaction: _transaction, ...rest } = payment;
  void _transaction;
  return rest;
}

/** After Stripe.js confirmed: the PaymentIntent is read again from Stripe and applied. */
export async function portalConfirm(token: string, paymentIntentId: string) {
  const { scope, invoiceId } = await buyerLink(token);
  const transaction = await transactionByIntent(scope, paymentIntentId);
  if (!transaction || transaction.invoiceId !== invoiceId) {
    throw notFound('No payment of this invoice has that id');
  }
  const intent = await stripeCall((client) => client.paymentIntents.retrieve(paymentIntentId));
  const ctx = systemContext(scope.accountId);
  await applyIntent(ctx, transaction.id, intent);
  const [after, invoice] = await Promise.all([
    transactionByIntent(scope, paymentIntentId),
    getInvoiceRecord(ctx, invoiceId),
  ]);
  return {
    paymentStatus: after?.paymentStatus ?? transaction.paymentStatus,
    invoiceStatus: invoice.status,
    balance: Math.max(0, invoice.balance),
    message: after?.failureMessage ?? null,
  };
}
