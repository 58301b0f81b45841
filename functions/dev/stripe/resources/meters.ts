import { newestFirst, page, type Context } from '../context.js';
import { StripeError, type Route } from '../http.js';
import { newId, randomText } from '../ids.js';
import type { Meter, MeterEvent } from '../model.js';
import type { StripeState } from '../store.js';

/** Billing meters and their usage events: a metered subscription item bills their sum. */

function createMeter(context: Context): Meter {
  const { params } = context;
  const eventName = params.required('event_name');
  if (Object.values(context.state.meters).some((meter) => meter.event_name === eventName)) {
    throw StripeError.invalid(
      `A meter with event_name ${eventName} already exists.`,
      'event_name',
      'resource_already_exists',
    );
  }
  const meter: Meter = {
    id: newId('mtr'),
    object: 'billing.meter',
    created: context.now,
    customer_mapping: {
      event_payload_key:
        params.object('customer_mapping')?.string('event_payload_key') ?? 'stripe_customer_id',
      type: 'by_id',
    },
    default_aggregation: {
      formula:
        params.object('default_aggregation')?.oneOf('formula', ['sum', 'count', 'last'] as const) ??
        'sum',
    },
    display_name: params.required('display_name'),
    event_name: eventName,
    event_time_window: null,
    livemode: false,
    status: 'active',
    status_transitions: { deactivated_at: null },
    updated: context.now,
    value_settings: {
      event_payload_key: params.object('value_settings')?.string('event_payload_key') ?? 'value',
    },
  };
  context.state.meters[meter.id] = meter;
  return meter;
}

const publicEvent = ({ billed_in: _billed, ...event }: MeterEvent) => event;

function createMeterEvent(context: Context): MeterEvent {
  const { params } = context;
  const eventName = params.required('event_name');
  const payload = params.metadata('payload');
  if (!payload) throw StripeError.invalid('Missing required param: payload.', 'payload');
  const meter = Object.values(context.state.meters).find((found) => found.event_name === eventName);
  if (meter) {
    const customerKey = meter.customer_mapping.event_payload_key;
    if (!payload[customerKey]) {
      throw StripeError.invalid(
        `Missing required param: payload[${customerKey}].`,
        `payload[${customerKey}]`,
      );
    }
    const value = payload[meter.value_settings.event_payload_key];
    if (value !== undefined && !/^-?\d+(\.\d+)?$/.test(value)) {
      throw StripeError.invalid(
        `The value in payload[${meter.value_settings.event_payload_key}] must be a number.`,
        `payload[${meter.value_settings.event_payload_key}]`,
      );
    }
  }
  const identifier = params.string('identifier') ?? randomText(32);
  // The same identifier is the same event: Stripe counts it once.
  const existing = context.state.meter_events[identifier];
  if (existing) return publicEvent(existing);
  const event: MeterEvent = {
    object: 'billing.meter_event',
    created: context.now,
    event_name: eventName,
    identifier,
    livemode: false,
    payload,
    timestamp: params.int('timestamp') ?? context.now,
  };
  context.state.meter_events[identifier] = event;
  return publicEvent(event);
}

/**
 * A meter's aggregate for one customer up to `end`, over the events not billed yet, which are
 * then marked billed on `invoice` (so an event in the very second a period turns is billed once).
 */
export function billUsage(
  state: StripeState,
  meterId: string,
  customer: string,
  end: number,
  invoice: string,
): number {
  const meter = state.meters[meterId];
  if (!meter) return 0;
  const events = Object.values(state.meter_events).filter(
    (event) =>
      event.billed_in === undefined &&
      event.event_name === meter.event_name &&
      event.payload[meter.customer_mapping.event_payload_key] === customer &&
      event.timestamp <= end,
  );
  for (const event of events) event.billed_in = invoice;
  const values = events.map((event) =>
    Number(event.payload[meter.value_settings.event_payload_key] ?? 1),
  );
  switch (meter.default_aggregation.formula) {
    case 'count':
      return events.length;
    case 'last':
      return values.at(-1) ?? 0;
    case 'sum':
      return values.reduce((sum, value) => sum + value, 0);
  }
}

export const meterRoutes: Route<Context>[] = [
  { method: 'POST', pattern: '/v1/billing/meters', handler: createMeter },
  {
    method: 'GET',
    pattern: '/v1/billing/meters',
    handler: (c) => page(c, newestFirst(c.state.meters), '/v1/billing/meters'),
  },
  {
    method: 'GET',
    pattern: '/v1/billing/meters/:id',
    handler: (c, p) => c.get(c.state.meters, 'billing.meter', p.id as string),
  },
  { method: 'POST', pattern: '/v1/billing/meter_events', handler: createMeterEvent },
];
