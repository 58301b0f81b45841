import { changedFields, deletedView, newestFirst, page, type Context } from '../context.js';
import { StripeError, mergeMetadata, type Params, type Route } from '../http.js';
import { newId, randomText } from '../ids.js';
import type { Address, Customer, TaxId } from '../model.js';

/** Customers and their tax ids. */

export function readAddress(params: Params | undefined): Address | null {
  if (!params) return null;
  return {
    city: params.nullable('city') ?? null,
    country: params.nullable('country') ?? null,
    line1: params.nullable('line1') ?? null,
    line2: params.nullable('line2') ?? null,
    postal_code: params.nullable('postal_code') ?? null,
    state: params.nullable('state') ?? null,
  };
}

/** The default payment method must be one of the customer's own, as Stripe insists. */
function checkDefaultMethod(context: Context, customer: Customer, id: string | null): void {
  if (id === null) return;
  const method = context.state.payment_methods[id];
  if (!method || method.customer !== customer.id) {
    throw StripeError.invalid(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      'invoice_settings[default_payment_method]',
      'resource_missing',
    );
  }
}

function applyUpdate(context: Context, customer: Customer): void {
  const { params } = context;
  const fields = ['email', 'name', 'phone', 'description'] as const;
  for (const field of fields) {
    const value = params.nullable(field);
    if (value !== undefined) customer[field] = value;
  }
  if (params.has('address')) customer.address = readAddress(params.object('address'));
  const prefix = params.string('invoice_prefix');
  if (prefix !== undefined) {
    if (!/^[A-Z0-9]{3,12}$/.test(prefix)) {
      throw StripeError.invalid(
        'Invoice prefix must be 3-12 uppercase letters or numbers.',
        'invoice_prefix',
      );
    }
    customer.invoice_prefix = prefix;
  }
  customer.metadata = mergeMetadata(customer.metadata, params.metadata());
  const settings = params.object('invoice_settings');
  const method = settings?.nullable('default_payment_method');
  if (method !== undefined) {
    checkDefaultMethod(context, customer, method);
    customer.invoice_settings.default_payment_method = method;
  }
  const footer = settings?.nullable('footer');
  if (footer !== undefined) customer.invoice_settings.footer = footer;
}

function create(context: Context): Customer {
  const customer: Customer = {
    id: newId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: context.now,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: null,
    invoice_prefix: randomText(8, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: {},
    name: null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
  };
  context.state.customers[customer.id] = customer;
  applyUpdate(context, customer);
  // The payment method given at creation is attached to the new customer first.
  const method = context.params.string('payment_method');
  if (method) {
    const found = context.get(
      context.state.payment_methods,
      'PaymentMethod',
      method,
      'payment_method',
    );
    found.customer = customer.id;
  }
  context.emit('customer.created', customer);
  return customer;
}

function retrieve(context: Context, id: string) {
  const customer = context.state.customers[id];
  if (!customer) throw StripeError.missing('customer', id);
  return customer.deleted ? deletedView(customer) : customer;
}

function update(context: Context, id: string): Customer {
  const customer = context.get(context.state.customers, 'customer', id);
  const before = structuredClone(customer);
  applyUpdate(context, customer);
  const previous = changedFields(before, customer);
  if (Object.keys(previous).length) context.emit('customer.updated', customer, previous);
  return customer;
}

function remove(context: Context, id: string) {
  const customer = context.get(context.state.customers, 'customer', id);
  customer.deleted = true;
  for (const subscription of Object.values(context.state.subscriptions)) {
    if (subscription.customer === id && subscription.status !== 'canceled') {
      subscription.status = 'canceled';
      subscription.canceled_at = context.now;
      subscription.ended_at = context.now;
      context.emit('customer.subscription.deleted', subscription);
    }
  }
  context.emit('customer.deleted', customer);
  return deletedView(customer);
}

function list(context: Context) {
  const email = context.params.string('email');
  const customers = newestFirst(context.state.customers).filter(
    (customer) => !customer.deleted && (email === undefined || customer.email === email),
  );
  return page(context, customers, '/v1/customers');
}

/** The country a tax id type implies (`eu_vat` takes it from the number, `DE123…`). */
function taxCountry(type: string, value: string): string | null {
  if (type === 'eu_vat') return value.slice(0, 2).toUpperCase().replace('EL', 'GR');
  const prefix = type.split('_')[0] ?? '';
  return prefix.length === 2 ? prefix.toUpperCase() : null;
}

function createTaxId(context: Context, customerId: string): TaxId {
  const customer = context.get(context.state.customers, 'customer', customerId);
  const type = context.params.required('type');
  const value = context.params.required('value');
  const taxId: TaxId = {
    id: newId('txi'),
    object: 'tax_id',
    country: taxCountry(type, value),
    created: context.now,
    customer: customer.id,
    customer_account: null,
    livemode: false,
    owner: { type: 'customer', customer: customer.id },
    type,
    value,
    verification: { status: 'unavailable', verified_address: null, verified_name: null },
  };
  context.state.tax_ids[taxId.id] = taxId;
  context.emit('customer.tax_id.created', taxId);
  return taxId;
}

function listTaxIds(context: Context, customerId: string) {
  context.get(context.state.customers, 'customer', customerId);
  const taxIds = newestFirst(context.state.tax_ids).filter((tax) => tax.customer === customerId);
  return page(context, taxIds, `/v1/customers/${customerId}/tax_ids`);
}

function deleteTaxId(context: Context, customerId: string, id: string) {
  const taxId = context.state.tax_ids[id];
  if (!taxId || taxId.customer !== customerId) throw StripeError.missing('tax_id', id);
  delete context.state.tax_ids[id];
  context.emit('customer.tax_id.deleted', taxId);
  return deletedView(taxId);
}

export const customerRoutes: Route<Context>[] = [
  { method: 'POST', pattern: '/v1/customers', handler: create },
  { method: 'GET', pattern: '/v1/customers', handler: list },
  { method: 'GET', pattern: '/v1/customers/:id', handler: (c, p) => retrieve(c, p.id as string) },
  { method: 'POST', pattern: '/v1/customers/:id', handler: (c, p) => update(c, p.id as string) },
  { method: 'DELETE', pattern: '/v1/customers/:id', handler: (c, p) => remove(c, p.id as string) },
  {
    method: 'POST',
    pattern: '/v1/customers/:id/tax_ids',
    handler: (c, p) => createTaxId(c, p.id as string),
  },
  {
    method: 'GET',
    pattern: '/v1/customers/:id/tax_ids',
    handler: (c, p) => listTaxIds(c, p.id as string),
  },
  {
    method: 'DELETE',
    pattern: '/v1/customers/:id/tax_ids/:tax',
    handler: (c, p) => deleteTaxId(c, p.id as string, p.tax as string),
  },
];
