import { z } from 'zod';
import { moneyOf } from '../../auctions/lots/catalogue-rows.js';
import { currencyExponent, type Currency, type Platform } from '../../auctions/auctions.schema.js';
import { PlatformError, type ConnectorOptions } from './connector.js';

/**
 * What every adapter does the same way: one HTTP call with the connector's timeout, each failure
 * turned into the PlatformError kind Lotwise acts on, and the answer checked against the
 * platform's wire schema (an answer that is not what the platform documents is `bad_response`,
 * never a crash further on).
 */

export interface WireRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Below the platform's base URL, e.g. `/api/v2/auctions`. */
  path: string;
  query?: Record<string, string | number | null | undefined>;
  body?: unknown;
}

export interface WireClient {
  platform: Platform;
  call<S extends z.ZodType>(
    request: WireRequest,
    schema: S,
  ): Promise<{ data: z.infer<S>; headers: Headers }>;
}

export interface WireConfig {
  platform: Platform;
  options: ConnectorOptions;
  /** Puts the key where this platform wants it: a header, or the query. */
  authorize(url: URL, headers: Headers): void;
  /** Whether a 401 or 403 says the key expired, rather than that it is wrong. */
  isExpired(status: number, body: unknown, headers: Headers): boolean;
  /** The media type of the platform's request bodies. */
  contentType?: string;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The platform's own words for what went wrong, when its error body has some. */
function detailOf(body: unknown): string {
  if (typeof body === 'string')
    return body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200);
  return JSON.stringify(body).slice(0, 300);
}

/** Why fetch could not connect: undici puts the socket's error ("ECONNREFUSED …") in `cause`. */
const reasonOf = (error: unknown) =>
  error instanceof Error
    ? ((error.cause as Error | undefined)?.message ?? error.message)
    : String(error);

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

export function wireClient(config: WireConfig): WireClient {
  const { platform, options } = config;
  const fail = (
    failure: ConstructorParameters<typeof PlatformError>[1],
    message: string,
    status?: number,
  ) => new PlatformError(platform, failure, `${platform}: ${message}`, status);

  async function call<S extends z.ZodType>(request: WireRequest, schema: S) {
    const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== null && value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers = new Headers({ accept: 'application/json' });
    config.authorize(url, headers);
    if (request.body !== undefined) {
      headers.set('content-type', config.contentType ?? 'application/json');
    }
    const method = request.method ?? 'GET';
    let status: number;
    let responseHeaders: Headers;
    let text: string;
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      status = response.status;
      responseHeaders = response.headers;
      // The body is read within the same timeout: a platform that stalls mid-answer times out too.
      text = await response.text();
    } catch (error) {
      if (isAbort(error)) throw fail('timeout', `no answer within ${options.timeoutMs} ms`);
      throw fail('unavailable', `could not be reached (${reasonOf(error)})`);
    }
    const body = parsed(text);
    if (status === 401 || status === 403) {
      throw config.isExpired(status, body, responseHeaders)
        ? fail('key_expired', 'the API key has expired', status)
        : fail('key_invalid', `the API key was refused (${detailOf(body)})`, status);
    }
    if (status === 404) throw fail('not_found', `${method} ${request.path} was not found`, status);
    if (status === 429) throw fail('rate_limited', 'too many requests; try again later', status);
    if (status >= 500) throw fail('unavailable', `answered ${status} (${detailOf(body)})`, status);
    if (status < 200 || status >= 300) {
      throw fail(
        'bad_response',
        `refused ${method} ${request.path} with ${status} (${detailOf(body)})`,
        status,
      );
    }
    if (typeof body === 'string') {
      throw fail(
        'bad_response',
        `answered ${method} ${request.path} with something not JSON`,
        status,
      );
    }
    const checked = schema.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.map(String).join('.') || 'the body';
      throw fail(
        'bad_response',
        `answered ${method} ${request.path} in an unexpected shape (${where}: ${issue?.message ?? 'is not valid'})`,
        status,
      );
    }
    return { data: checked.data as z.infer<S>, headers: responseHeaders };
  }

  return { platform, call };
}

/** A platform's amount in major units ("1250.00", 1250.5) as minor units of `currency`. */
export function minorOf(platform: Platform, value: string | number, currency: Currency): number {
  const read = moneyOf(value, currencyExponent[currency]);
  if ('problem' in read || read.minor === null) {
    throw new PlatformError(
      platform,
      'bad_response',
      `${platform}: the amount "${value}" ${'problem' in read ? read.problem : 'is empty'}`,
    );
  }
  return read.minor;
}

/** Minor units as a major-unit decimal string: 125000 USD is "1250.00", 5000 JPY is "5000". */
export function decimalOf(minor: number, currency: Currency): string {
  const exponent = currencyExponent[currency];
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** Minor units as a major-unit number (for platforms that write 1250.5). */
export const majorOf = (minor: number, currency: Currency) => Number(decimalOf(minor, currency));

/** An ISO 8601 instant with an offset (or Z), read as the UTC instant Lotwise keeps. */
export const isoInstant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString());

/** Epoch seconds or milliseconds, as the ISO instant. */
export const epochSeconds = z
  .number()
  .int()
  .min(0)
  .transform((value) => new Date(value * 1000).toISOString());
export const epochMillis = z
  .number()
  .int()
  .min(0)
  .transform((value) => new Date(value).toISOString());

/** A currency Lotwise keeps, whatever case the platform writes it in. */
export const currencyCode = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(Object.keys(currencyExponent) as [Currency, ...Currency[]]));

/** Reads every page of a list whose next page the platform names. */
export async function allPages<T>(
  read: (cursor: string | null) => Promise<{ items: T[]; next: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    items.push(...page.items);
    cursor = page.next;
  } while (cursor !== null);
  return items;
}

/** A page number, offset or similar the connector gave as `next`, checked on its way back in. */
export function counterOf(cursor: string | null, fallback: number): number {
  if (cursor === null) return fallback;
  const value = Number(cursor);
  if (!/^\d+$/.test(cursor) || !Number.isSafeInteger(value)) {
    throw new TypeError(`"${cursor}" is not a cursor this connector gave`);
  }
  return value;
}

/** How many items a connector asks for per page. */
export const PAGE_SIZE = 50;
