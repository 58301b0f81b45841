/**
 * The objects the local Stripe keeps, in the wire shapes of the installed `stripe` SDK's API
 * version (`shapes.ts` checks them against its types). References to other objects are ids; the
 * `expand[]` parameter swaps them for the objects when a client asks.
 */

export type Metadata = Record<string, string>;

export interface Address {
  city: string | null;
  country: string | null;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  state: string | null;
}

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
  total_count?: number;
}

interface Base {
  id: string;
  created: number;
  livemode: false;
}

export interface Customer extends Base {
  object: 'customer';
  address: Address | null;
  balance: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  description: string | null;
  email: string | null;
  invoice_prefix: string;
  invoice_settings: {
    custom_fields: null;
    default_payment_method: string | null;
    footer: string | null;
    rendering_options: null;
  };
  metadata: Metadata;
  name: string | null;
  next_invoice_sequence: number;
  phone: string | null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: 'none';
  /** Set once deleted: Stripe then answers only `{ id, object, deleted }`. */
  deleted?: true;
}

export interface TaxId extends Base {
  object: 'tax_id';
  country: string | null;
  customer: string;
  customer_account: null;
  owner: { type: 'customer'; customer: string; account?: undefined; application?: undefined };
  type: string;
  value: string;
  verification: { status: 'unavailable'; verified_address: null; verified_name: null };
}

export interface Product extends Base {
  object: 'product';
  active: boolean;
  default_price: string | null;
  description: string | null;
  images: string[];
  marketing_features: [];
  metadata: Metadata;
  name: string;
  package_dimensions: null;
  shippable: null;
  statement_descriptor: string | null;
  tax_code: null;
  tax_details: null;
  type: 'service';
  unit_label: string | null;
  updated: number;
  url: string | null;
}

export type Interval = 'month' | 'year';

export interface Price extends Base {
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  currency: string;
  custom_unit_amount: null;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: {
    interval: Interval;
    interval_count: 1;
    meter: string | null;
    trial_period_days: null;
    usage_type: 'licensed' | 'metered';
  } | null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'one_time' | 'recurring';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface Plan extends Base {
  object: 'plan';
  active: boolean;
  amount: number;
  amount_decimal: string;
  billing_scheme: 'per_unit';
  currency: string;
  interval: Interval;
  interval_count: 1;
  metadata: Metadata;
  meter: string | null;
  nickname: string | null;
  product: string;
  tiers_mode: null;
  transform_usage: null;
  trial_period_days: null;
  usage_type: 'licensed' | 'metered';
}

export interface Meter extends Base {
  object: 'billing.meter';
  customer_mapping: { event_payload_key: string; type: 'by_id' };
  default_aggregation: { formula: 'sum' | 'count' | 'last' };
  display_name: string;
  event_name: string;
  event_time_window: null;
  status: 'active';
  status_transitions: { deactivated_at: null };
  updated: number;
  value_settings: { event_payload_key: string };
}

export interface MeterEvent {
  object: 'billing.meter_event';
  created: number;
  event_name: string;
  identifier: string;
  livemode: false;
  payload: Record<string, string>;
  timestamp: number;
  /** Not Stripe's: the invoice that billed it, so no event is billed twice. */
  billed_in?: string;
}

export interface BillingDetails {
  address: Address | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  tax_id: string | null;
}

export interface CardDetails {
  brand: string;
  checks: { address_line1_check: null; address_postal_code_check: null; cvc_check: 'pass' };
  country: string;
  display_brand: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  funding: string;
  generated_from: null;
  last4: string;
  networks: { available: string[]; preferred: null };
  regulated_status: 'unregulated';
  three_d_secure_usage: { supported: boolean };
  wallet: null;
}

export interface PaymentMethod extends Base {
  object: 'payment_method';
  allow_redisplay: 'unspecified';
  billing_details: BillingDetails;
  card: CardDetails;
  customer: string | null;
  customer_account: null;
  metadata: Metadata;
  type: 'card';
}

export interface StripeErrorBody {
  type: 'card_error' | 'invalid_request_error' | 'api_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  doc_url?: string;
  payment_method?: PaymentMethod;
  payment_method_type?: string;
  charge?: string;
}

export interface SetupIntent extends Base {
  object: 'setup_intent';
  application: null;
  automatic_payment_methods: null;
  cancellation_reason: null;
  client_secret: string;
  customer: string | null;
  description: string | null;
  excluded_payment_method_types: null;
  flow_directions: null;
  last_setup_error: StripeErrorBody | null;
  latest_attempt: null;
  mandate: null;
  metadata: Metadata;
  next_action: null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_configuration_details: null;
  payment_method_options: null;
  payment_method_types: string[];
  single_use_mandate: null;
  status:
    'requires_payment_method' | 'requires_confirmation' | 'processing' | 'succeeded' | 'canceled';
  usage: string;
}

export interface PaymentIntent extends Base {
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic';
  client_secret: string;
  confirmation_method: 'automatic';
  currency: string;
  customer: string | null;
  customer_account: null;
  description: string | null;
  excluded_payment_method_types: null;
  last_payment_error: StripeErrorBody | null;
  latest_charge: string | null;
  managed_payments: null;
  metadata: Metadata;
  next_action: null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_configuration_details: null;
  payment_method_options: null;
  payment_method_types: string[];
  payment_record: null;
  processing: null;
  receipt_email: string | null;
  review: null;
  setup_future_usage: null;
  shipping: null;
  source: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status:
    'requires_payment_method' | 'requires_confirmation' | 'processing' | 'succeeded' | 'canceled';
  transfer_group: null;
}

export interface Charge extends Base {
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  application: null;
  application_fee: null;
  application_fee_amount: null;
  balance_transaction: null;
  billing_details: BillingDetails;
  calculated_statement_descriptor: string;
  captured: boolean;
  currency: string;
  customer: string | null;
  description: string | null;
  disputed: boolean;
  failure_balance_transaction: null;
  failure_code: string | null;
  failure_message: string | null;
  fraud_details: Record<string, never>;
  metadata: Metadata;
  on_behalf_of: null;
  outcome: {
    network_status: string;
    reason: string | null;
    risk_level: string;
    seller_message: string;
    type: string;
  };
  paid: boolean;
  payment_intent: string | null;
  payment_method: string | null;
  payment_method_details: {
    type: 'card';
    card: {
      amount_authorized: number | null;
      authorization_code: string | null;
      brand: string;
      checks: CardDetails['checks'];
      country: string;
      electronic_commerce_indicator: null;
      exp_month: number;
      exp_year: number;
      fingerprint: string;
      funding: string;
      installments: null;
      last4: string;
      mandate: null;
      network: string;
      network_token: null;
      network_transaction_id: string | null;
      regulated_status: 'unregulated';
      three_d_secure: null;
      wallet: null;
    };
  };
  receipt_email: string | null;
  receipt_number: null;
  receipt_url: string;
  refunded: boolean;
  review: null;
  shipping: null;
  source: null;
  source_transfer: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  status: 'succeeded' | 'failed';
  transfer_data: null;
  transfer_group: null;
}

export interface Refund extends Base {
  object: 'refund';
  amount: number;
  balance_transaction: null;
  charge: string;
  currency: string;
  customer: string | null;
  customer_account: null;
  metadata: Metadata;
  payment_intent: string | null;
  payment_method: string | null;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded';
  transfer_reversal: null;
}

/** A cardholder's dispute of a charge (the fields Lotwise reads). */
export interface Dispute extends Base {
  object: 'dispute';
  amount: number;
  charge: string;
  currency: string;
  evidence: { uncategorized_text: string | null };
  is_charge_refundable: boolean;
  metadata: Metadata;
  payment_intent: string | null;
  reason: string;
  status: 'warning_needs_response' | 'needs_response' | 'under_review' | 'won' | 'lost';
}

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  billing_thresholds: null;
  created: number;
  current_period_end: number;
  current_period_start: number;
  current_trial: null;
  discounts: string[];
  metadata: Metadata;
  plan: Plan;
  price: Price;
  /** Absent on metered items, as Stripe leaves it. */
  quantity?: number;
  subscription: string;
  tax_rates: [];
}

export type SubscriptionStatus =
  'active' | 'incomplete' | 'incomplete_expired' | 'past_due' | 'canceled';

export interface Subscription extends Base {
  object: 'subscription';
  application: null;
  application_fee_percent: null;
  automatic_tax: { disabled_reason: null; enabled: false; liability: null };
  billing_cycle_anchor: number;
  billing_cycle_anchor_config: null;
  billing_thresholds: null;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: null; feedback: null; reason: string | null };
  collection_method: 'charge_automatically';
  currency: string;
  customer: string;
  customer_account: null;
  days_until_due: null;
  default_payment_method: string | null;
  default_source: null;
  description: string | null;
  discounts: string[];
  ended_at: number | null;
  items: List<SubscriptionItem>;
  latest_invoice: string | null;
  metadata: Metadata;
  next_pending_invoice_item_invoice: null;
  on_behalf_of: null;
  pause_collection: null;
  payment_settings: null;
  pending_invoice_item_interval: null;
  pending_setup_intent: null;
  pending_update: null;
  schedule: null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: null;
  transfer_data: null;
  trial_end: null;
  trial_settings: null;
  trial_start: null;
}

export interface Pricing {
  type: 'price_details';
  price_details: { price: string; product: string };
  unit_amount_decimal: string;
}

export interface ProrationDetails {
  credited_items: { invoice: string; invoice_line_items: string[] } | null;
}

export interface LineParent {
  type: 'subscription_item_details' | 'invoice_item_details';
  subscription_item_details: {
    invoice_item: string | null;
    proration: boolean;
    proration_details: ProrationDetails | null;
    subscription: string | null;
    subscription_item: string;
  } | null;
  invoice_item_details: {
    invoice_item: string;
    proration: boolean;
    proration_details: ProrationDetails | null;
    subscription: string | null;
  } | null;
}

export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  discount_amounts: [];
  discountable: boolean;
  discounts: string[];
  invoice: string;
  livemode: false;
  metadata: Metadata;
  parent: LineParent;
  period: { start: number; end: number };
  pretax_credit_amounts: [];
  pricing: Pricing;
  quantity: number;
  subscription: string | null;
  subtotal: number;
  taxes: [];
}

export interface InvoiceItem extends Omit<Base, 'created'> {
  object: 'invoiceitem';
  amount: number;
  currency: string;
  customer: string;
  customer_account: null;
  date: number;
  description: string;
  discountable: boolean;
  discounts: string[];
  invoice: string | null;
  metadata: Metadata;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; subscription_item?: string } | null;
  } | null;
  period: { start: number; end: number };
  pricing: Pricing;
  proration: boolean;
  quantity: number;
  tax_rates: [];
  test_clock: null;
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface Invoice extends Base {
  object: 'invoice';
  account_country: string;
  account_name: string;
  account_tax_ids: null;
  amount_due: number;
  amount_overpaid: number;
  amount_paid: number;
  amount_remaining: number;
  amount_shipping: number;
  application: null;
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  automatic_tax: {
    disabled_reason: null;
    enabled: false;
    liability: null;
    provider: null;
    status: null;
  };
  automatically_finalizes_at: null;
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  collection_method: 'charge_automatically';
  currency: string;
  custom_fields: null;
  customer: string;
  customer_account: null;
  customer_address: Address | null;
  customer_email: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_shipping: null;
  customer_tax_exempt: 'none';
  customer_tax_ids: { type: string; value: string }[];
  default_payment_method: string | null;
  default_source: null;
  default_tax_rates: [];
  description: string | null;
  discounts: string[];
  due_date: number | null;
  effective_at: number | null;
  ending_balance: number | null;
  footer: null;
  from_invoice: null;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  issuer: { type: 'self' };
  last_finalization_error: null;
  latest_revision: null;
  lines: List<InvoiceLine>;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string | null;
  on_behalf_of: null;
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { metadata: Metadata; subscription: string };
  } | null;
  payment_settings: {
    default_mandate: null;
    payment_method_options: null;
    payment_method_types: null;
  };
  period_end: number;
  period_start: number;
  post_payment_credit_notes_amount: number;
  pre_payment_credit_notes_amount: number;
  receipt_number: null;
  rendering: null;
  shipping_cost: null;
  shipping_details: null;
  starting_balance: number;
  statement_descriptor: null;
  status: InvoiceStatus;
  status_transitions: {
    finalized_at: number | null;
    marked_uncollectible_at: number | null;
    paid_at: number | null;
    voided_at: number | null;
  };
  subtotal: number;
  subtotal_excluding_tax: number;
  test_clock: null;
  total: number;
  total_discount_amounts: [];
  total_excluding_tax: number;
  total_pretax_credit_amounts: [];
  total_taxes: [];
  webhooks_delivered_at: number | null;
}

export interface StripeEvent extends Base {
  object: 'event';
  api_version: string;
  data: { object: WireObject; previous_attributes?: Record<string, unknown> };
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface WebhookEndpoint extends Base {
  object: 'webhook_endpoint';
  api_version: string | null;
  application: null;
  description: string | null;
  enabled_events: string[];
  metadata: Metadata;
  secret?: string;
  status: 'enabled' | 'disabled';
  url: string;
}

export interface EphemeralKey extends Base {
  object: 'ephemeral_key';
  associated_objects: { id: string; type: 'customer' }[];
  expires: number;
  secret: string;
}

/** Every object the server stores, with an `object` tag to tell them apart. */
export type WireObject =
  | Customer
  | Dispute
  | TaxId
  | Product
  | Price
  | Meter
  | PaymentMethod
  | SetupIntent
  | PaymentIntent
  | Charge
  | Refund
  | Subscription
  | Invoice
  | InvoiceItem
  | StripeEvent
  | WebhookEndpoint
  | EphemeralKey;
