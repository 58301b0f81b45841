import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CardOutcome } from './cards.js';
import type {
  Charge,
  Customer,
  EphemeralKey,
  Invoice,
  InvoiceItem,
  Meter,
  MeterEvent,
  PaymentIntent,
  PaymentMethod,
  Price,
  Product,
  Refund,
  Dispute,
  SetupIntent,
  StripeEvent,
  Subscription,
  TaxId,
  WebhookEndpoint,
  WireObject,
} from './model.js';

/**
 * Everything the local Stripe knows, as one JSON document. Collections are keyed by id and keep
 * insertion order, which is creation order: lists read them backwards for "newest first" without
 * a sort on timestamps that share a second.
 */
export interface StripeState {
  customers: Record<string, Customer>;
  tax_ids: Record<string, TaxId>;
  products: Record<string, Product>;
  prices: Record<string, Price>;
  meters: Record<string, Meter>;
  meter_events: Record<string, MeterEvent>;
  payment_methods: Record<string, PaymentMethod>;
  setup_intents: Record<string, SetupIntent>;
  payment_intents: Record<string, PaymentIntent>;
  charges: Record<string, Charge>;
  refunds: Record<string, Refund>;
  disputes: Record<string, Dispute>;
  subscriptions: Record<string, Subscription>;
  invoices: Record<string, Invoice>;
  invoice_items: Record<string, InvoiceItem>;
  events: Record<string, StripeEvent>;
  webhook_endpoints: Record<string, WebhookEndpoint>;
  ephemeral_keys: Record<string, EphemeralKey>;
  /** How each payment method's card behaves when charged (the test card it came from). */
  card_outcomes: Record<string, CardOutcome>;
  /** `Idempotency-Key` → the first answer, replayed for a repeat. */
  idempotency: Record<string, { fingerprint: string; status: number; body: unknown }>;
}

export const emptyState = (): StripeState => ({
  customers: {},
  tax_ids: {},
  products: {},
  prices: {},
  meters: {},
  meter_events: {},
  payment_methods: {},
  setup_intents: {},
  payment_intents: {},
  charges: {},
  refunds: {},
  disputes: {},
  subscriptions: {},
  invoices: {},
  invoice_items: {},
  events: {},
  webhook_endpoints: {},
  ephemeral_keys: {},
  card_outcomes: {},
  idempotency: {},
});

/** The collection an id belongs to, by its prefix (for `expand[]` and retrieval). */
const collectionByPrefix: Record<string, keyof StripeState> = {
  cus: 'customers',
  txi: 'tax_ids',
  prod: 'products',
  price: 'prices',
  mtr: 'meters',
  pm: 'payment_methods',
  seti: 'setup_intents',
  pi: 'payment_intents',
  ch: 'charges',
  re: 'refunds',
  dp: 'disputes',
  sub: 'subscriptions',
  in: 'invoices',
  ii: 'invoice_items',
  evt: 'events',
  we: 'webhook_endpoints',
  ek: 'ephemeral_keys',
};

export class StripeStore {
  state: StripeState;
  private readonly file: string | null;

  /** With a directory the state survives restarts (`{dir}/state.json`); without, memory only. */
  constructor(dir: string | null) {
    this.file = dir === null ? null : join(dir, 'state.json');
    this.state = emptyState();
    if (this.file && existsSync(this.file)) {
      this.state = {
        ...emptyState(),
        ...(JSON.parse(readFileSync(this.file, 'utf8')) as StripeState),
      };
    }
  }

  /** Any stored object by id, whatever its kind. */
  find(id: string): WireObject | undefined {
    const prefix = id.slice(0, id.indexOf('_'));
    const name = collectionByPrefix[prefix];
    if (!name) return undefined;
    const collection = this.state[name] as Record<string, unknown>;
    return collection[id] as WireObject | undefined;
  }

  /** A copy to roll back to when a request fails half way (Stripe changes nothing then). */
  snapshot(): StripeState {
    return structuredClone(this.state);
  }

  restore(snapshot: StripeState): void {
    this.state = snapshot;
  }

  /** Written whole to a temporary file and renamed over the old one, so a crash never leaves half a file. */
  save(): void {
    if (!this.file) return;
    mkdirSync(join(this.file, '..'), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }

  reset(): void {
    this.state = emptyState();
    this.save();
  }
}
