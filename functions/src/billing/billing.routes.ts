import { z } from 'zod';
import type { FunctionTable, TimerFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { contextLogger } from '../platform/invocation-log.js';
import { pathIdSchema } from '../platform/validation.js';
import {
  addPaymentMethodSchema,
  billingAccountResponseSchema,
  billingAddressUpdateSchema,
  createSubscriptionSchema,
  freemiumResponseSchema,
  invoicesQuerySchema,
  invoicesResponseSchema,
  paymentIntentRequestSchema,
  paymentIntentResponseSchema,
  paymentMethodResponseSchema,
  paymentMethodsResponseSchema,
  processPaymentResponseSchema,
  processPaymentSchema,
  setupIntentResponseSchema,
  stripeCustomerResponseSchema,
  subscriptionResponseSchema,
  tiersResponseSchema,
  updateSubscriptionSchema,
} from './billing.schema.js';
import {
  addPaymentMethod,
  billingAccount,
  catalogue,
  createInvoicePaymentIntent,
  createSetupIntent,
  createSubscription,
  freemiumStatus,
  handleStripeWebhook,
  invoices,
  payInvoice,
  removePaymentMethod,
  runBillingMinute,
  setDefaultPaymentMethod,
  stripeCustomer,
  updateBillingAddress,
  updateSubscription,
} from './billing.service.js';

const methodParams = z.object({ id: pathIdSchema });

/** Add-ons due to end go off, and overage is reported to Stripe, every minute. */
const billingTimer: TimerFunction = {
  kind: 'timer',
  name: 'billing-minute',
  schedule: '0 * * * * *',
  handler: async (_timer, context) => {
    await runBillingMinute(
      contextLogger(context, { function: 'billing-minute', invocationId: context.invocationId }),
    );
  },
};

/**
 * Billing (spec 7.2). The plan is the owner's: everything but the catalogue needs
 * `system:settings`, which only the owner holds unless given to someone.
 */
export const billingFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    billingTimer,
    httpRoute({
      name: 'billing-tiers',
      route: 'billing/tiers',
      methods: ['GET'],
      // The prices are public knowledge; the upsell shows them to everyone signed in.
      permission: 'authenticated',
      response: tiersResponseSchema,
      handler: async () => ({ json: catalogue() }),
    }),
    httpRoute({
      name: 'billing-account',
      route: 'billing/account',
      methods: ['GET'],
      permission: 'system:settings',
      callers: 'people',
      response: billingAccountResponseSchema,
      handler: async ({ ctx }) => ({ json: { account: await billingAccount(ctx) } }),
    }),
    httpRoute({
      name: 'billing-freemium-status',
      route: 'billing/freemium-status',
      methods: ['GET'],
      permission: 'system:settings',
      callers: 'people',
      response: freemiumResponseSchema,
      handler: async ({ ctx }) => ({ json: { freemium: await freemiumStatus(ctx) } }),
    }),
    httpRoute({
      name: 'billing-subscription-create',
      route: 'billing/subscription',
      methods: ['POST'],
      permission: 'system:settings',
      callers: 'people',
      body: createSubscriptionSchema,
      response: subscriptionResponseSchema,
      handler: async ({ ctx, body }) => ({
        status: 201,
        json: { subscription: await createSubscription(ctx, body) },
      }),
    }),
    httpRoute({
      name: 'billing-subscription-update',
      route: 'billing/subscription',
      methods: ['PUT'],
      permission: 'system:settings',
      callers: 'people',
      body: updateSubscriptionSchema,
      response: subscriptionResponseSchema,
      handler: async ({ ctx, body }) => ({
        json: { subscription: await updateSubscription(ctx, body) },
      }),
    }),
    httpRoute({
      name: 'billing-payment-methods-add',
      route: 'billing/payment-methods',
      methods: ['POST'],
      permission: 'system:settings',
      callers: 'people',
      body: addPaymentMethodSchema,
      response: paymentMethodResponseSchema,
      handler: async ({ ctx, body }) => ({
        status: 201,
        json: { paymentMethod: await addPaymentMethod(ctx, body) },
      }),
    }),
    httpRoute({
      name: 'billing-payment-methods-default',
      route: 'billing/payment-methods/{id}/default',
      methods: ['POST'],
      permission: 'system:settings',
      callers: 'people',
      params: methodParams,
      response: paymentMethodsResponseSchema,
      handler: async ({ ctx, params }) => ({
        json: { paymentMethods: await setDefaultPaymentMethod(ctx, params.id) },
      }),
    }),
    httpRoute({
      name: 'billing-payment-methods-remove',
      route: 'billing/payment-methods/{id}',
      methods: ['DELETE'],
      permission: 'system:settings',
      callers: 'people',
      params: methodParams,
      response: paymentMethodsResponseSchema,
      handler: async ({ ctx, params }) => ({
        json: { paymentMethods: await removePaymentMethod(ctx, params.id) },
      }),
    }),
    httpRoute({
      name: 'billing-invoices',
      route: 'billing/invoices',
      methods: ['GET'],
      permission: 'system:settings',
      callers: 'people',
      query: invoicesQuerySchema,
      response: invoicesResponseSchema,
      handler: async ({ ctx, query }) => ({ json: await invoices(ctx, query) }),
    }),
    httpRoute({
      name: 'billing-payment-intent',
      route: 'billing/payment-intent',
      methods: ['POST'],
      permission: 'system:settings',
      callers: 'people',
      body: paymentIntentRequestSchema,
      response: paymentIntentResponseSchema,
      handler: async ({ ctx, body }) => ({
        status: 201,
        json: await createInvoicePaymentIntent(ctx, body.invoiceId),
      }),
    }),
    httpRoute({
      name: 'billing-billing-address',
      route: 'billing/billing-address',
      methods: ['PUT'],
      permission: 'system:settings',
      callers: 'people',
      body: billingAddressUpdateSchema,
      response: billingAccountResponseSchema,
      handler: async ({ ctx, body }) => ({
        json: { account: await updateBillingAddress(ctx, body) },
      }),
    }),
    httpRoute({
      name: 'billing-stripe-setup-intent',
      route: 'billing/stripe/setup-intent',
      methods: ['POST'],
      permission: 'system:settings',
      callers: 'people',
      response: setupIntentResponseSchema,
      handler: async ({ ctx }) => ({ status: 201, json: await createSetupIntent(ctx) }),
    }),
    httpRoute({
      name: 'billing-stripe-customer',
      route: 'billing/stripe/customer',
      methods: ['GET'],
      permission: 'system:settings',
      callers: 'people',
      response: stripeCustomerResponseSchema,
      handler: async ({ ctx }) => ({ json: await stripeCustomer(ctx) }),
    }),
    httpRoute({
      name: 'billing-stripe-process-payment',
      route: 'billing/stripe/process-payment',
      methods: ['POST'],
      permission: 'system:settings',
      callers: 'people',
      body: processPaymentSchema,
      response: processPaymentResponseSchema,
      handler: async ({ ctx, body }) => ({ json: await payInvoice(ctx, body) }),
    }),
    httpRoute({
      name: 'billing-webhook',
      route: 'billing/webhook',
      methods: ['POST'],
      // Stripe calls it; the signature, not a token, proves the sender.
      permission: 'public',
      summary: 'Stripe webhook events (signed with Stripe-Signature)',
      maxBodyBytes: 512 * 1024,
      handler: async ({ request, log }) => ({
        json: await handleStripeWebhook(
          await request.text(),
          request.headers.get('stripe-signature'),
          log,
        ),
      }),
    }),
  ],
};
