import { changedFields, newestFirst, page, type Context } from '../context.js';
import { StripeError, mergeMetadata, type Route } from '../http.js';
import { newId } from '../ids.js';
import type { Plan, Price, Product } from '../model.js';

/** Products and prices. */

function createProduct(context: Context): Product {
  const { params } = context;
  const product: Product = {
    id: params.string('id') ?? newId('prod'),
    object: 'product',
    active: params.bool('active') ?? true,
    created: context.now,
    default_price: null,
    description: params.nullable('description') ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: mergeMetadata({}, params.metadata()),
    name: params.required('name'),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: params.nullable('statement_descriptor') ?? null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: params.nullable('unit_label') ?? null,
    updated: context.now,
    url: null,
  };
  if (context.state.products[product.id]) {
    throw StripeError.invalid(`Product already exists.`, 'id', 'resource_already_exists');
  }
  context.state.products[product.id] = product;
  context.emit('product.created', product);
  return product;
}

function updateProduct(context: Context, id: string): Product {
  const { params } = context;
  const product = context.get(context.state.products, 'product', id);
  const before = structuredClone(product);
  product.name = params.string('name') ?? product.name;
  const description = params.nullable('description');
  if (description !== undefined) product.description = description;
  product.active = params.bool('active') ?? product.active;
  product.metadata = mergeMetadata(product.metadata, params.metadata());
  const defaultPrice = params.nullable('default_price');
  if (defaultPrice !== undefined) product.default_price = defaultPrice;
  product.updated = context.now;
  context.emit('product.updated', product, changedFields(before, product));
  return product;
}

function listProducts(context: Context) {
  const active = context.params.bool('active');
  const products = newestFirst(context.state.products).filter(
    (product) => active === undefined || product.active === active,
  );
  return page(context, products, '/v1/products');
}

function createPrice(context: Context): Price {
  const { params } = context;
  const productData = params.object('product_data');
  let productId = params.string('product');
  if (!productId && productData) {
    const product: Product = {
      ...createProductShell(context),
      name: productData.required('name'),
    };
    context.state.products[product.id] = product;
    context.emit('product.created', product);
    productId = product.id;
  }
  if (!productId) throw StripeError.invalid('Missing required param: product.', 'product');
  context.get(context.state.products, 'product', productId, 'product');
  const unitAmount = params.int('unit_amount');
  if (unitAmount === undefined)
    throw StripeError.invalid('Missing required param: unit_amount.', 'unit_amount');
  const recurring = params.object('recurring');
  const usageType = recurring?.oneOf('usage_type', ['licensed', 'metered'] as const) ?? 'licensed';
  const meter = recurring?.string('meter') ?? null;
  if (usageType === 'metered' && !meter) {
    throw StripeError.invalid('Missing required param: recurring[meter].', 'recurring[meter]');
  }
  if (meter) context.get(context.state.meters, 'billing.meter', meter, 'recurring[meter]');
  const lookupKey = params.nullable('lookup_key') ?? null;
  if (lookupKey !== null) {
    const taken = Object.values(context.state.prices).find(
      (price) => price.lookup_key === lookupKey,
    );
    if (taken) {
      if (params.bool('transfer_lookup_key')) taken.lookup_key = null;
      else {
        throw StripeError.invalid(
          `A price (\`${taken.id}\`) already uses that lookup key.`,
          'lookup_key',
        );
      }
    }
  }
  const price: Price = {
    id: newId('price'),
    object: 'price',
    active: params.bool('active') ?? true,
    billing_scheme: 'per_unit',
    created: context.now,
    currency: params.required('currency').toLowerCase(),
    custom_unit_amount: null,
    livemode: false,
    lookup_key: lookupKey,
    metadata: mergeMetadata({}, params.metadata()),
    nickname: params.nullable('nickname') ?? null,
    product: productId,
    recurring: recurring
      ? {
          interval: recurring.oneOf('interval', ['month', 'year'] as const) ?? 'month',
          interval_count: 1,
          meter,
          trial_period_days: null,
          usage_type: usageType,
        }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  };
  context.state.prices[price.id] = price;
  context.emit('price.created', price);
  return price;
}

function createProductShell(context: Context): Product {
  return {
    id: newId('prod'),
    object: 'product',
    active: true,
    created: context.now,
    default_price: null,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name: '',
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: context.now,
    url: null,
  };
}

function updatePrice(context: Context, id: string): Price {
  const { params } = context;
  const price = context.get(context.state.prices, 'price', id);
  const before = structuredClone(price);
  price.active = params.bool('active') ?? price.active;
  const nickname = params.nullable('nickname');
  if (nickname !== undefined) price.nickname = nickname;
  const lookupKey = params.nullable('lookup_key');
  if (lookupKey !== undefined) {
    const taken = Object.values(context.state.prices).find(
      (other) => other.id !== id && lookupKey !== null && other.lookup_key === lookupKey,
    );
    if (taken && !params.bool('transfer_lookup_key')) {
      throw StripeError.invalid(
        `A price (\`${taken.id}\`) already uses that lookup key.`,
        'lookup_key',
      );
    }
    if (taken) taken.lookup_key = null;
    price.lookup_key = lookupKey;
  }
  price.metadata = mergeMetadata(price.metadata, params.metadata());
  context.emit('price.updated', price, changedFields(before, price));
  return price;
}

function listPrices(context: Context) {
  const { params } = context;
  const lookupKeys = params.strings('lookup_keys');
  const active = params.bool('active');
  const product = params.string('product');
  const type = params.string('type');
  const prices = newestFirst(context.state.prices).filter(
    (price) =>
      (lookupKeys.length === 0 ||
        (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) &&
      (active === undefined || price.active === active) &&
      (product === undefined || price.product === product) &&
      (type === undefined || price.type === type),
  );
  return page(context, prices, '/v1/prices');
}

/** The legacy `plan` a subscription item carries beside its price. */
export function planOf(price: Price): Plan {
  if (!price.recurring) throw new Error(`price ${price.id} is not recurring`);
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring.interval,
    interval_count: 1,
    livemode: false,
    metadata: price.metadata,
    meter: price.recurring.meter,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: price.recurring.usage_type,
  };
}

export const catalogueRoutes: Route<Context>[] = [
  { method: 'POST', pattern: '/v1/products', handler: createProduct },
  { method: 'GET', pattern: '/v1/products', handler: listProducts },
  {
    method: 'GET',
    pattern: '/v1/products/:id',
    handler: (c, p) => c.get(c.state.products, 'product', p.id as string),
  },
  {
    method: 'POST',
    pattern: '/v1/products/:id',
    handler: (c, p) => updateProduct(c, p.id as string),
  },
  { method: 'POST', pattern: '/v1/prices', handler: createPrice },
  { method: 'GET', pattern: '/v1/prices', handler: listPrices },
  {
    method: 'GET',
    pattern: '/v1/prices/:id',
    handler: (c, p) => c.get(c.state.prices, 'price', p.id as string),
  },
  { method: 'POST', pattern: '/v1/prices/:id', handler: (c, p) => updatePrice(c, p.id as string) },
];
