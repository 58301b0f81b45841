import { DateTime } from 'luxon';
import { listAuctions } from '../auctions/auctions.service.js';
import type { OfflinePaymentInput } from '../payments/payments.schema.js';
import {
  approveInvoice,
  listInvoices,
  recordOfflinePayment,
} from '../payments/payments.service.js';
import {
  approveStatement,
  buildSettlements,
  getStatement,
} from '../payments/settlements/settlements.service.js';
import type { RequestContext } from '../platform/context.js';

/**
 * The money after Harborview's closed sales, as a newcomer should find it: the autumn evening
 * sale's invoices approved and all but one paid by hand (by wire, check or cash, within days of
 * the sale), its consignors' statements built and the first approved; the silver sale's invoices
 * all paid; the jewelry sale's invoices approved and waiting for the buyers. Built through the
 * payments services; the invoices themselves were made when the sales closed.
 */
const PAID_SALE = 'Autumn Fine Art Evening Sale';
const WAITING_SALE = 'Estate Jewelry & Watches';
/** The specialist silver sale, paid in full within days. */
const SETTLED_SALE = 'Important American Silver';

const methods: OfflinePaymentInput['method'][] = [
  'Bank Transfer',
  'Check',
  'Bank Transfer',
  'Cash',
];

async function saleNamed(ctx: RequestContext, title: string) {
  const { auctions } = await listAuctions(ctx, {
    view: 'past',
    search: title,
    page: 1,
    limit: 10,
    sortBy: 'startsAt',
    sortOrder: 'desc',
  });
  return auctions.find((auction) => auction.title === title);
}

async function invoicesOf(ctx: RequestContext, auctionId: string) {
  const { items } = await listInvoices(ctx, { auctionId, pageSize: 200 });
  return items.sort((a, b) => a.number.localeCompare(b.number));
}

export async function seedDemoPayments(ctx: RequestContext, today = DateTime.utc()) {
  const paid = await saleNamed(ctx, PAID_SALE);
  if (paid) {
    const invoices = await invoicesOf(ctx, paid.id);
    for (const [index, invoice] of invoices.entries()) {
      await approveInvoice(ctx, invoice.id);
      // The last buyer has not paid yet: the one open invoice of the sale.
      if (index === invoices.length - 1) continue;
      await recordOfflinePayment(ctx, invoice.id, {
        amount: invoice.balance,
        method: methods[index % methods.length] ?? 'Bank Transfer',
        receivedOn: today.minus({ days: 60 - (index % 5) }).toISODate() ?? undefined,
        reference: `Demo ${invoice.number}`,
        notes: '',
      });
    }
    const { statements } = await buildSettlements(ctx, paid.id);
    const first = statements[0] && (await getStatement(ctx, statements[0].id));
    if (first) await approveStatement(ctx, first.id, first.etag);
  }
  const settled = await saleNamed(ctx, SETTLED_SALE);
  if (settled) {
    for (const [index, invoice] of (await invoicesOf(ctx, settled.id)).entries()) {
      await approveInvoice(ctx, invoice.id);
      await recordOfflinePayment(ctx, invoice.id, {
        amount: invoice.balance,
        method: methods[index % methods.length] ?? 'Bank Transfer',
        receivedOn: today.minus({ days: 35 - (index % 5) }).toISODate() ?? undefined,
        reference: `Demo ${invoice.number}`,
        notes: '',
      });
    }
  }
  const waiting = await saleNamed(ctx, WAITING_SALE);
  if (waiting) {
    for (const invoice of await invoicesOf(ctx, waiting.id)) {
      await approveInvoice(ctx, invoice.id);
    }
  }
}
