import { API_VERSION, deletedView, newestFirst, page, type Context } from '../context.js';
import { StripeError, mergeMetadata, type Route } from '../http.js';
import { newId, randomText } from '../ids.js';
import type { EphemeralKey, WebhookEndpoint } from '../model.js';

/** Events, webhook endpoints added at runtime, and ephemeral keys. */

function listEvents(context: Context) {
  const type = context.params.string('type');
  const types = context.params.strings('types');
  const matches = (eventType: string) =>
    (type === undefined ||
      eventType === type ||
      (type.endsWith('.*') && eventType.startsWith(type.slice(0, -1)))) &&
    (types.length === 0 || types.includes(eventType));
  const events = newestFirst(context.state.events).filter((event) => matches(event.type));
  return page(context, events, '/v1/events');
}

function createEndpoint(context: Context): WebhookEndpoint {
  const { params } = context;
  const url = params.required('url');
  if (!/^https?:\/\//.test(url))
    throw StripeError.invalid('Invalid URL: must be an http(s) URL.', 'url');
  const events = params.strings('enabled_events');
  if (events.length === 0)
    throw StripeError.invalid('Missing required param: enabled_events.', 'enabled_events');
  const endpoint: WebhookEndpoint = {
    id: newId('we'),
    object: 'webhook_endpoint',
    api_version: params.string('api_version') ?? API_VERSION,
    application: null,
    created: context.now,
    description: params.nullable('description') ?? null,
    enabled_events: events,
    livemode: false,
    metadata: mergeMetadata({}, params.metadata()),
    secret: `whsec_${randomText(32)}`,
    status: 'enabled',
    url,
  };
  context.state.webhook_endpoints[endpoint.id] = endpoint;
  return endpoint;
}

/** Only creation shows an endpoint's signing secret, as with Stripe. */
const withoutSecret = ({ secret: _secret, ...endpoint }: WebhookEndpoint) => endpoint;

function createEphemeralKey(context: Context): EphemeralKey {
  if (!context.headers['stripe-version']) {
    throw StripeError.invalid(
      'Stripe-Version header is required when creating ephemeral keys. Please use the API version that your mobile SDK expects.',
    );
  }
  const customer = context.get(
    context.state.customers,
    'customer',
    context.params.required('customer'),
    'customer',
  );
  const key: EphemeralKey = {
    id: newId('ek'),
    object: 'ephemeral_key',
    associated_objects: [{ id: customer.id, type: 'customer' }],
    created: context.now,
    expires: context.now + 3600,
    livemode: false,
    secret: `ek_test_${randomText(64)}`,
  };
  context.state.ephemeral_keys[key.id] = key;
  return key;
}

export const eventRoutes: Route<Context>[] = [
  { method: 'GET', pattern: '/v1/events', handler: listEvents },
  {
    method: 'GET',
    pattern: '/v1/events/:id',
    handler: (c, p) => c.get(c.state.events, 'event', p.id as string),
  },
  { method: 'POST', pattern: '/v1/webhook_endpoints', handler: createEndpoint },
  {
    method: 'GET',
    pattern: '/v1/webhook_endpoints',
    handler: (c) =>
      page(c, newestFirst(c.state.webhook_endpoints).map(withoutSecret), '/v1/webhook_endpoints'),
  },
  {
    method: 'DELETE',
    pattern: '/v1/webhook_endpoints/:id',
    handler: (c, p) => {
      const endpoint = c.get(c.state.webhook_endpoints, 'webhook_endpoint', p.id as string);
      delete c.state.webhook_endpoints[endpoint.id];
      return deletedView(endpoint);
    },
  },
  { method: 'POST', pattern: '/v1/ephemeral_keys', handler: createEphemeralKey },
  {
    method: 'DELETE',
    pattern: '/v1/ephemeral_keys/:id',
    handler: (c, p) => {
      const key = c.get(c.state.ephemeral_keys, 'ephemeral_key', p.id as string);
      key.expires = c.now;
      return key;
    },
  },
];
