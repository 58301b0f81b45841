import {
  billingAccountResponseSchema,
  freemiumResponseSchema,
  invoicesResponseSchema,
  paymentMethodResponseSchema,
  paymentMethodsResponseSchema,
  processPaymentResponseSchema,
  setupIntentResponseSchema,
  stripeCustomerResponseSchema,
  subscriptionResponseSchema,
  tiersResponseSchema,
  type AddOnView,
  type BillingAccountView,
  type BillingIntervalValue,
  type InvoiceView,
  type PaymentMethodView,
  type SubscriptionView,
  type TierView,
} from '@contracts/billing/billing.schema';
import useSWR, { useSWRConfig } from 'swr';
import { renewAccess } from '../../../lib/access';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

export type {
  AddOnView,
  BillingAccountView,
  BillingIntervalValue,
  InvoiceView,
  PaymentMethodView,
  SubscriptionView,
  TierView,
};
export type InvoiceStatus = InvoiceView['status'];

const accountKey = domainApi('/billing/account');
const freemiumKey = domainApi('/billing/freemium-status');
const tiersKey = domainApi('/billing/tiers');
const invoicesBase = domainApi('/billing/invoices');

export const useBillingAccount = () => useSWR(accountKey, fetchWith(billingAccountResponseSchema));
export const useFreemium = () => useSWR(freemiumKey, fetchWith(freemiumResponseSchema));
export const useTiers = () => useSWR(tiersKey, fetchWith(tiersResponseSchema));

/** One page of invoices (the spec's 10), after the given invoice, optionally of one status. */
export function useInvoices(page: { after?: string; status?: InvoiceStatus }) {
  const query = new URLSearchParams({ limit: '10' });
  if (page.after) query.set('starting_after', page.after);
  if (page.status) query.set('status', page.status);
  return useSWR(`${invoicesBase}?${query.toString()}`, fetchWith(invoicesResponseSchema));
}

/** What the browser needs to collect a card with Stripe.js. */
export const fetchStripeCustomer = () =>
  apiRequest(domainApi('/billing/stripe/customer'), { schema: stripeCustomerResponseSchema });

export const createSetupIntent = () =>
  apiRequest(domainApi('/billing/stripe/setup-intent'), {
    method: 'POST',
    schema: setupIntentResponseSchema,
  });

/** Changes to the plan and cards; each refreshes what the Plan tab shows. */
export function useBillingActions() {
  const { mutate } = useSWRConfig();
  const refresh = async () => {
    await Promise.all([
      mutate(accountKey),
      mutate(freemiumKey),
      mutate((key) => typeof key === 'string' && key.startsWith(invoicesBase)),
    ]);
  };
  /** A plan change moves the account's features: take a token that carries them now. */
  const afterPlanChange = async () => {
    await Promise.all([refresh(), renewAccess()]);
  };
  return {
    refresh,
    addCard: async (setupIntentId: string, setAsDefault = true) => {
      const saved = await apiRequest(domainApi('/billing/payment-methods'), {
        method: 'POST',
        body: { setupIntentId, setAsDefault },
        schema: paymentMethodResponseSchema,
      });
      await refresh();
      return saved.paymentMethod;
    },
    makeDefault: async (id: string) => {
      await apiRequest(domainApi(`/billing/payment-methods/${encodeURIComponent(id)}/default`), {
        method: 'POST',
        schema: paymentMethodsResponseSchema,
      });
      await refresh();
    },
    removeCard: async (id: string) => {
      await apiRequest(domainApi(`/billing/payment-methods/${encodeURIComponent(id)}`), {
        method: 'DELETE',
        schema: paymentMethodsResponseSchema,
      });
      await refresh();
    },
    subscribe: async (body: {
      tierId: TierView['id'];
      interval: BillingIntervalValue;
      addOnIds: AddOnView['id'][];
      paymentMethodId?: string;
    }) => {
      const created = await apiRequest(domainApi('/billing/subscription'), {
        method: 'POST',
        body,
        schema: subscriptionResponseSchema,
      });
      await afterPlanChange();
      return created.subscription;
    },
    changePlan: async (body: {
      tierId?: TierView['id'];
      interval?: BillingIntervalValue;
      addOnIds?: AddOnView['id'][];
      cancelAtPeriodEnd?: boolean;
    }) => {
      const changed = await apiRequest(domainApi('/billing/subscription'), {
        method: 'PUT',
        body,
        schema: subscriptionResponseSchema,
      });
      await afterPlanChange();
      return changed.subscription;
    },
    saveBillingAddress: async (body: {
      billingAddress: NonNullable<BillingAccountView['billingAddress']>;
      taxId: string | null;
    }) => {
      await apiRequest(domainApi('/billing/billing-address'), {
        method: 'PUT',
        body,
        schema: billingAccountResponseSchema,
      });
      await refresh();
    },
    payInvoice: async (invoiceId: string) => {
      const paid = await apiRequest(domainApi('/billing/stripe/process-payment'), {
        method: 'POST',
        body: { invoiceId },
        schema: processPaymentResponseSchema,
      });
      await afterPlanChange();
      return paid;
    },
  };
}
