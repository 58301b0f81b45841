import { listAuctionsResponseSchema } from '@contracts/auctions/auctions.schema';
import { listResponseSchema } from '@contracts/bidders/bidders.schema';
import {
  cardPaymentSchema,
  generateInvoicesResultSchema,
  invoicePageSchema,
  invoiceSchema,
  invoiceTermsSchema,
  overviewSchema,
  sendInvoiceResultSchema,
  transactionPageSchema,
  transactionSchema,
  type CreditNoteInput,
  type InvoiceStatus,
  type InvoiceTermsInput,
  type PaymentStatus,
  type ShippingUpdate,
  type manualInvoiceInputSchema,
  type offlinePaymentInputSchema,
  type refundInputSchema,
} from '@contracts/payments/payments.schema';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

export type ManualInvoiceBody = z.input<typeof manualInvoiceInputSchema>;
export type OfflinePaymentBody = z.input<typeof offlinePaymentInputSchema>;
export type RefundBody = z.input<typeof refundInputSchema>;

const base = domainApi('/payments');
const overviewKey = `${base}/overview`;
const transactionsPrefix = `${base}/transactions`;
const invoicesPrefix = `${base}/invoices`;
const transactionKey = (id: string) => `${transactionsPrefix}/${encodeURIComponent(id)}`;
const invoiceKey = (id: string) => `${invoicesPrefix}/${encodeURIComponent(id)}`;
const termsKey = (auctionId: string) => `${base}/auctions/${encodeURIComponent(auctionId)}/terms`;
const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

const PAGE_SIZE = 25;

export interface TransactionFilters {
  search?: string;
  statuses?: PaymentStatus[];
  invoiceId?: string;
}

function transactionQuery(filters: TransactionFilters, continuationToken: string | null) {
  const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
  if (filters.search?.trim()) query.set('search', filters.search.trim());
  if (filters.statuses?.length === 1) query.set('status', filters.statuses[0] as string);
  else if (filters.statuses?.length) query.set('statuses', filters.statuses.join(','));
  if (filters.invoiceId) query.set('invoiceId', filters.invoiceId);
  if (continuationToken) query.set('continuationToken', continuationToken);
  return `${transactionsPrefix}?${query.toString()}`;
}

export interface InvoiceFilters {
  search?: string;
  status?: InvoiceStatus;
  auctionId?: string;
  /** Only invoices still owed past their due date, oldest due first. */
  overdue?: boolean;
}

function invoiceQuery(filters: InvoiceFilters, continuationToken: string | null) {
  const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
  if (filters.search?.trim()) query.set('search', filters.search.trim());
  if (filters.status) query.set('status', filters.status);
  if (filters.auctionId) query.set('auctionId', filters.auctionId);
  if (filters.overdue) query.set('overdue', 'true');
  if (continuationToken) query.set('continuationToken', continuationToken);
  return `${invoicesPrefix}?${query.toString()}`;
}

/** Pages of a list that pages with continuation tokens: "Load more" asks for the next. */
function pagedKey<P extends { continuationToken: string | null }>(
  url: (token: string | null) => string,
) {
  return (index: number, previous: P | null) => {
    if (index === 0) return url(null);
    return previous?.continuationToken ? url(previous.continuationToken) : null;
  };
}

export const useOverview = () => useSWR(overviewKey, fetchWith(overviewSchema));

/** Transactions, newest first, a page at a time. */
export const useTransactions = (filters: TransactionFilters) =>
  useSWRInfinite(
    pagedKey<z.infer<typeof transactionPageSchema>>((token) => transactionQuery(filters, token)),
    fetchWith(transactionPageSchema),
    { keepPreviousData: true, revalidateAll: true },
  );

/** Invoices, newest first, a page at a time. */
export const useInvoices = (filters: InvoiceFilters) =>
  useSWRInfinite(
    pagedKey<z.infer<typeof invoicePageSchema>>((token) => invoiceQuery(filters, token)),
    fetchWith(invoicePageSchema),
    { keepPreviousData: true, revalidateAll: true },
  );

/** The first page of invoices in one status (Pending Actions). */
export const useInvoicePage = (filters: InvoiceFilters) =>
  useSWR(invoiceQuery(filters, null), fetchWith(invoicePageSchema));
/** The first page of transactions matching the filters (Pending Actions, an invoice's payments). */
export const useTransactionPage = (filters: TransactionFilters | null) =>
  useSWR(filters ? transactionQuery(filters, null) : null, fetchWith(transactionPageSchema));

export const useTransaction = (id: string | null) =>
  useSWR(id ? transactionKey(id) : null, fetchWith(transactionSchema));
export const useInvoice = (id: string | null) =>
  useSWR(id ? invoiceKey(id) : null, fetchWith(invoiceSchema));
export const useTerms = (auctionId: string | null) =>
  useSWR(auctionId ? termsKey(auctionId) : null, fetchWith(invoiceTermsSchema));

/** The account's auctions of one status, by title (the pickers of Invoices and Settlements). */
export const useAuctionsByStatus = (status: 'Completed', search = '') => {
  const query = new URLSearchParams({ status, limit: '50', sortBy: 'startsAt', sortOrder: 'desc' });
  if (search.trim()) query.set('search', search.trim());
  return useSWR(
    domainApi(`/listAuctions?${query.toString()}`),
    fetchWith(listAuctionsResponseSchema),
    { keepPreviousData: true },
  );
};

/** Bidders by name, bidder ID or email, for the Manual Invoice's buyer. */
export const useBidderSearch = (search: string) => {
  const query = new URLSearchParams({ limit: '20' });
  if (search.trim()) query.set('search', search.trim());
  return useSWR(domainApi(`/listBidders?${query.toString()}`), fetchWith(listResponseSchema), {
    keepPreviousData: true,
  });
};

/** Everything that changes an invoice or a transaction; each refreshes the views showing it. */
export function usePaymentActions() {
  const { mutate, cache } = useSWRConfig();
  /**
   * Every payments read: a payment moves the lists, the overview and the records it touches.
   * A filter never matches useSWRInfinite's own keys (`$inf$` and the first page's address), so
   * the paged lists are named one by one.
   */
  const refreshAll = async () => {
    const paged = [...cache.keys()].filter((key) => key.startsWith('$inf$') && key.includes(base));
    await Promise.all([
      mutate((key) => typeof key === 'string' && key.startsWith(base)),
      ...paged.map((key) => mutate(key)),
    ]);
  };
  const settleInvoice = async (saved: z.infer<typeof invoiceSchema>) => {
    await mutate(invoiceKey(saved.id), saved, { revalidate: false });
    await refreshAll();
    return saved;
  };
  const settleTransaction = async (saved: z.infer<typeof transactionSchema>) => {
    await mutate(transactionKey(saved.id), saved, { revalidate: false });
    await refreshAll();
    return saved;
  };
  return {
    refresh: refreshAll,
    fetchInvoice: async (id: string) => {
      const fresh = await apiRequest(invoiceKey(id), { schema: invoiceSchema });
      await mutate(invoiceKey(id), fresh, { revalidate: false });
      return fresh;
    },
    fetchTransaction: async (id: string) => {
      const fresh = await apiRequest(transactionKey(id), { schema: transactionSchema });
      await mutate(transactionKey(id), fresh, { revalidate: false });
      return fresh;
    },
    approve: async (id: string) =>
      settleInvoice(
        await apiRequest(`${invoiceKey(id)}/approve`, { method: 'POST', schema: invoiceSchema }),
      ),
    /** Mails the buyer the portal link; answers where it went. */
    send: async (id: string) => {
      const sent = await apiRequest(`${invoiceKey(id)}/send`, {
        method: 'POST',
        schema: sendInvoiceResultSchema,
      });
      await settleInvoice(sent.invoice);
      return sent;
    },
    recordPayment: async (id: string, body: OfflinePaymentBody) => {
      const saved = await apiRequest(`${invoiceKey(id)}/payments`, {
        method: 'POST',
        body,
        schema: transactionSchema,
      });
      await refreshAll();
      return saved;
    },
    /** Issues a credit note; answers the invoice with it (the newest of its `credits`). */
    creditNote: async (id: string, body: Partial<CreditNoteInput> & { reason: string }) =>
      settleInvoice(
        await apiRequest(`${invoiceKey(id)}/credit-notes`, {
          method: 'POST',
          body,
          schema: invoiceSchema,
        }),
      ),
    createManual: async (body: ManualInvoiceBody) =>
      settleInvoice(
        await apiRequest(invoicesPrefix, { method: 'POST', body, schema: invoiceSchema }),
      ),
    generate: async (auctionId: string) => {
      const result = await apiRequest(
        `${base}/auctions/${encodeURIComponent(auctionId)}/invoices`,
        {
          method: 'POST',
          schema: generateInvoicesResultSchema,
        },
      );
      await refreshAll();
      return result;
    },
    saveTerms: async (auctionId: string, etag: string, body: InvoiceTermsInput) => {
      const saved = await apiRequest(termsKey(auctionId), {
        method: 'PUT',
        body,
        headers: ifMatch(etag),
        schema: invoiceTermsSchema,
      });
      await mutate(termsKey(auctionId), saved, { revalidate: false });
      return saved;
    },
    fetchTerms: async (auctionId: string) => {
      const fresh = await apiRequest(termsKey(auctionId), { schema: invoiceTermsSchema });
      await mutate(termsKey(auctionId), fresh, { revalidate: false });
      return fresh;
    },
    refund: async (id: string, body: RefundBody) =>
      settleTransaction(
        await apiRequest(`${transactionKey(id)}/refunds`, {
          method: 'POST',
          body,
          schema: transactionSchema,
        }),
      ),
    /**
     * Takes up a Pending card payment, or tries a Failed one again: the PaymentIntent to pay with
     * a card (a new one after a failure).
     */
    retry: async (id: string) => {
      const started = await apiRequest(`${transactionKey(id)}/retry`, {
        method: 'POST',
        schema: cardPaymentSchema,
      });
      await mutate(transactionKey(id), started.transaction, { revalidate: false });
      await refreshAll();
      return started;
    },
    /** Reads the card payment's outcome from Stripe and records it. */
    confirm: async (id: string) =>
      settleTransaction(
        await apiRequest(`${transactionKey(id)}/confirm`, {
          method: 'POST',
          schema: transactionSchema,
        }),
      ),
    updateShipping: async (transaction: { id: string; etag: string }, changes: ShippingUpdate) =>
      settleTransaction(
        await apiRequest(`${transactionKey(transaction.id)}/shipping`, {
          method: 'PUT',
          body: changes,
          headers: ifMatch(transaction.etag),
          schema: transactionSchema,
        }),
      ),
  };
}
