import { errorBodySchema } from '@contracts/platform/error-body.schema';
import type { z } from 'zod';

/** A failed call, with the service's own message when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: unknown,
    readonly correlationId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Validates the answer against the service's contract. */
  schema?: z.ZodType<T>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

async function errorFrom(response: Response): Promise<ApiError> {
  const correlationId = response.headers.get('x-correlation-id') ?? undefined;
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(message, response.status, code, details, correlationId);
  }
  return new ApiError(
    `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    response.status,
    'http_error',
    undefined,
    correlationId,
  );
}

/** One place that calls the services: JSON in and out, errors as ApiError, a timeout always. */
export async function apiRequest<T>(url: string, options: RequestOptions<T> = {}): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
  } catch (error) {
    if (timeout.aborted) {
      throw new ApiError('The service did not answer in time', 0, 'timeout');
    }
    throw new ApiError(
      error instanceof Error && error.message ? error.message : 'The service could not be reached',
      0,
      'network',
    );
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const json: unknown = await response.json();
  return options.schema ? options.schema.parse(json) : (json as T);
}
