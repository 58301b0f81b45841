import type { IncomingHttpHeaders } from 'node:http';
import type { StripeErrorBody } from './model.js';

/** Stripe's error answer: thrown by handlers, sent as `{ error: { type, code, message, param } }`. */
export class StripeError extends Error {
  /**
   * Whether the changes made before the error stay (a declined PaymentIntent keeps its
   * `last_payment_error`); otherwise the request changes nothing, as with Stripe.
   */
  keep = false;
  /** More of the error object: the PaymentIntent or SetupIntent a decline happened on. */
  extra: Record<string, unknown> = {};

  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }

  static invalid(message: string, param?: string, code?: string): StripeError {
    return new StripeError(400, {
      type: 'invalid_request_error',
      message,
      ...(code ? { code } : {}),
      ...(param ? { param } : {}),
    });
  }

  static missing(kind: string, id: string, param = 'id'): StripeError {
    return new StripeError(404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${id}'`,
      param,
    });
  }

  static card(code: string, message: string, declineCode?: string, param?: string): StripeError {
    return new StripeError(402, {
      type: 'card_error',
      code,
      message,
      ...(declineCode ? { decline_code: declineCode } : {}),
      ...(param ? { param } : {}),
      doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
    });
  }
}

/**
 * A form body or query string as `qs` parsed it (bracket notation), read with Stripe's checks:
 * a missing or malformed parameter is a 400 naming it as Stripe names it (`items[0][price]`).
 */
export class Params {
  constructor(
    readonly values: Record<string, unknown>,
    private readonly prefix = '',
  ) {}

  private name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.values[key] !== undefined;
  }

  /** A string; `''` (Stripe's way to unset a field) comes back as `''`. */
  string(key: string): string | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string')
      throw StripeError.invalid(`Invalid string: ${this.name(key)}`, this.name(key));
    return value;
  }

  required(key: string): string {
    const value = this.string(key);
    if (value === undefined || value === '') {
      throw StripeError.invalid(`Missing required param: ${this.name(key)}.`, this.name(key));
    }
    return value;
  }

  /** A string, with `''` meaning "clear it" (null). */
  nullable(key: string): string | null | undefined {
    const value = this.string(key);
    return value === '' ? null : value;
  }

  int(key: string): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value))
      throw StripeError.invalid(`Invalid integer: ${value}`, this.name(key));
    return Number(value);
  }

  bool(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') {
      throw StripeError.invalid(`Invalid boolean: ${value}`, this.name(key));
    }
    return value === 'true';
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw StripeError.invalid(
        `Invalid ${this.name(key)}: must be one of ${allowed.join(', ')}`,
        this.name(key),
      );
    }
    return value as T;
  }

  object(key: string): Params | undefined {
    const value = this.values[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw StripeError.invalid(`Invalid object: ${this.name(key)}`, this.name(key));
    }
    return new Params(value as Record<string, unknown>, this.name(key));
  }

  /** `items[0][price]=…`: an array of hashes (qs gives an array, or an object past its array limit). */
  list(key: string): Params[] {
    const value = this.values[key];
    if (value === undefined || value === '') return [];
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : typeof value === 'object' && value !== null
        ? Object.entries(value)
        : null;
    if (entries === null)
      throw StripeError.invalid(`Invalid array: ${this.name(key)}`, this.name(key));
    return entries.map(([index, item]) => {
      if (typeof item !== 'object' || item === null) {
        throw StripeError.invalid(
          `Invalid hash: ${this.name(key)}[${index}]`,
          `${this.name(key)}[${index}]`,
        );
      }
      return new Params(item as Record<string, unknown>, `${this.name(key)}[${index}]`);
    });
  }

  /** `expand[]=a&expand[]=b`, `lookup_keys[0]=x`: an array of strings. */
  strings(key: string): string[] {
    const value = this.values[key];
    if (value === undefined || value === '') return [];
    if (typeof value === 'string') return [value];
    const items = Array.isArray(value)
      ? value
      : typeof value === 'object' && value
        ? Object.values(value)
        : [];
    return items.filter((item): item is string => typeof item === 'string');
  }

  /** `metadata[k]=v`; `metadata=` clears it, `metadata[k]=` removes one key (see `mergeMetadata`). */
  metadata(key = 'metadata'): Record<string, string> | null | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (value === '') return null;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw StripeError.invalid(`Invalid hash: ${this.name(key)}`, this.name(key));
    }
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  }
}

/** Stripe's metadata update: keys merge, an empty value deletes its key, an empty hash clears all. */
export function mergeMetadata(
  current: Record<string, string>,
  update: Record<string, string> | null | undefined,
): Record<string, string> {
  if (update === undefined) return current;
  if (update === null) return {};
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export interface HttpReply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

export const jsonReply = (status: number, body: unknown): HttpReply => ({
  status,
  body: JSON.stringify(body, null, 2),
  contentType: 'application/json',
});

export interface Route<C> {
  method: string;
  /** `/v1/customers/:id/tax_ids` */
  pattern: string;
  handler: (context: C, path: Record<string, string>) => unknown;
  /** Client-side calls Stripe.js makes with the publishable key and a client secret. */
  publishable?: boolean;
}

function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const found: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = decodeURIComponent(have[index] as string);
    if (segment.startsWith(':')) found[segment.slice(1)] = actual;
    else if (segment !== actual) return null;
  }
  return found;
}

/** The route for a request; literal segments are listed before parameters, so they win. */
export function findRoute<C>(
  routes: Route<C>[],
  method: string,
  path: string,
): { route: Route<C>; path: Record<string, string> } | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const found = match(route.pattern, path);
    if (found) return { route, path: found };
  }
  return null;
}

export type Headers = IncomingHttpHeaders;
