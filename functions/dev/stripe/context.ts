import Stripe from 'stripe';
import { StripeError, type Headers, type Params } from './http.js';
import { newId, unixNow } from './ids.js';
import type { List, StripeEvent, WireObject } from './model.js';
import type { StripeState, StripeStore } from './store.js';

/** The API version the installed SDK pins, which every event carries. */
export const API_VERSION: string = Stripe.API_VERSION;

/** What a handler gets: the store, the parsed parameters and a way to record events. */
export class Context {
  readonly now = unixNow();
  /** Events this request raised, delivered to webhooks once the answer has gone. */
  readonly events: StripeEvent[] = [];

  constructor(
    readonly store: StripeStore,
    readonly params: Params,
    readonly headers: Headers,
    /** The server's own root as the client reached it (`http://localhost:12111`). */
    readonly origin: string,
    readonly auth: 'secret' | 'publishable',
    readonly idempotencyKey: string | null,
  ) {}

  get state(): StripeState {
    return this.store.state;
  }

  /** Records an event with a copy of the object as it is now. */
  emit(type: string, object: WireObject, previous?: Record<string, unknown>): void {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now,
      data: {
        object: structuredClone(object),
        ...(previous && Object.keys(previous).length ? { previous_attributes: previous } : {}),
      },
      livemode: false,
      pending_webhooks: 0,
      request: { id: newId('req'), idempotency_key: this.idempotencyKey },
      type,
    };
    this.state.events[event.id] = event;
    this.events.push(event);
  }

  /** A stored object of one kind, or Stripe's 404 `No such customer: 'cus_x'`. */
  get<T>(collection: Record<string, T>, kind: string, id: string, param = 'id'): T {
    const found = collection[id];
    if (!found || (found as { deleted?: boolean }).deleted)
      throw StripeError.missing(kind, id, param);
    return found;
  }
}

/** The top-level fields that changed, with their old values: an update event's `previous_attributes`. */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
    if (JSON.stringify(old[key]) !== JSON.stringify(now[key])) previous[key] = old[key] ?? null;
  }
  return previous;
}

/**
 * One page of a list, newest first, with Stripe's `limit` (default 10, at most 100),
 * `starting_after` and `ending_before`.
 */
export function page<T extends { id: string }>(
  context: Context,
  newestFirst: T[],
  url: string,
): List<T> {
  const { params } = context;
  const limit = params.int('limit') ?? 10;
  if (limit < 1 || limit > 100) {
    throw StripeError.invalid(
      'This value must be greater than or equal to 1 and less than or equal to 100.',
      'limit',
    );
  }
  const after = params.string('starting_after');
  const before = params.string('ending_before');
  const indexOf = (id: string, param: string) => {
    const index = newestFirst.findIndex((item) => item.id === id);
    if (index < 0) throw StripeError.invalid(`No such object: '${id}'`, param, 'resource_missing');
    return index;
  };
  if (before) {
    const end = indexOf(before, 'ending_before');
    const start = Math.max(0, end - limit);
    return { object: 'list', data: newestFirst.slice(start, end), has_more: start > 0, url };
  }
  const start = after ? indexOf(after, 'starting_after') + 1 : 0;
  const data = newestFirst.slice(start, start + limit);
  return { object: 'list', data, has_more: start + limit < newestFirst.length, url };
}

/** A collection newest first. */
export const newestFirst = <T>(collection: Record<string, T>): T[] =>
  Object.values(collection).reverse();

/** What a deleted object answers with. */
export const deletedView = (object: { id: string; object: string }) => ({
  id: object.id,
  object: object.object,
  deleted: true,
});

/**
 * Swaps ids for objects along `expand[]` paths (`latest_invoice`, `data.customer`,
 * `items.data.price.product`), as Stripe does; ids it does not know stay ids.
 */
export function expand(store: StripeStore, value: unknown, paths: string[]): unknown {
  let result = value;
  for (const path of paths) result = expandPath(store, result, path.split('.'));
  return result;
}

function expandPath(store: StripeStore, value: unknown, segments: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => expandPath(store, item, segments));
  if (typeof value === 'string') {
    const found = store.find(value);
    if (!found) return value;
    const copy = structuredClone(found) as unknown;
    return segments.length ? expandPath(store, copy, segments) : copy;
  }
  if (typeof value !== 'object' || value === null || segments.length === 0) return value;
  const [key, ...rest] = segments as [string, ...string[]];
  const record = value as Record<string, unknown>;
  if (!(key in record)) return value;
  return { ...record, [key]: expandPath(store, record[key], rest) };
}
