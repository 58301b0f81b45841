import type Stripe from 'stripe';
import type * as Model from './model.js';

/**
 * Compile-time checks that what the server stores and sends has the shapes the installed SDK's
 * types describe for its API version: every field we send must be assignable to Stripe's field of
 * that name (ids where Stripe allows an expandable object). Nothing here runs.
 */

type Loose<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? Loose<U>[]
    : T extends object
      ? { [K in keyof T]?: Loose<T[K]> }
      : T;

/** `A` must fit `Loose<B>`: a mismatch is a compile error naming the field. */
type Fits<A extends Loose<B>, B> = [A, B];

export type ShapeChecks = [
  Fits<Omit<Model.Customer, 'deleted'>, Stripe.Customer>,
  Fits<Model.TaxId, Stripe.TaxId>,
  Fits<Model.Product, Stripe.Product>,
  Fits<Omit<Model.Price, 'unit_amount_decimal'>, Stripe.Price>,
  Fits<Model.Meter, Stripe.Billing.Meter>,
  Fits<Omit<Model.MeterEvent, 'billed_in'>, Stripe.Billing.MeterEvent>,
  Fits<Model.PaymentMethod, Stripe.PaymentMethod>,
  Fits<Omit<Model.SetupIntent, 'last_setup_error'>, Stripe.SetupIntent>,
  Fits<Omit<Model.PaymentIntent, 'last_payment_error'>, Stripe.PaymentIntent>,
  Fits<Model.Charge, Stripe.Charge>,
  Fits<Model.Refund, Stripe.Refund>,
  Fits<Omit<Model.Subscription, 'items'>, Stripe.Subscription>,
  Fits<Omit<Model.SubscriptionItem, 'price' | 'plan'>, Stripe.SubscriptionItem>,
  Fits<Omit<Model.Invoice, 'lines'>, Stripe.Invoice>,
  Fits<Omit<Model.InvoiceLine, 'pricing'>, Stripe.InvoiceLineItem>,
  Fits<Omit<Model.InvoiceItem, 'pricing'>, Stripe.InvoiceItem>,
  Fits<Model.WebhookEndpoint, Stripe.WebhookEndpoint>,
  Fits<Omit<Model.EphemeralKey, 'associated_objects'>, Stripe.EphemeralKey>,
];
