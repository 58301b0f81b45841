import { portalCardPaymentSchema, portalConfirmSchema } from '@contracts/payments/payments.schema';
import { portalViewSchema } from '@contracts/settings/settings.schema';
import useSWR from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';

const portalKey = (token: string) => domainApi(`/portal/${encodeURIComponent(token)}`);

/** A payment link's page, as anyone holding the link may read it: no sign-in, no token sent. */
export const usePortalView = (token: string | undefined) =>
  useSWR(token ? portalKey(token) : null, (url: string) =>
    apiRequest(url, { auth: false, schema: portalViewSchema }),
  );

/** The buyer's card payment of the balance: the PaymentIntent and what Stripe.js needs. */
export const startCardPayment = (token: string) =>
  apiRequest(`${portalKey(token)}/card-payment`, {
    method: 'POST',
    auth: false,
    schema: portalCardPaymentSchema,
  });

/** Reads the PaymentIntent's outcome from Stripe and records it against the invoice. */
export const confirmCardPayment = (token: string, paymentIntentId: string) =>
  apiRequest(`${portalKey(token)}/card-payment/confirm`, {
    method: 'POST',
    auth: false,
    body: { paymentIntentId },
    schema: portalConfirmSchema,
  });
