import { errorBodySchema } from '@contracts/platform/error-body.schema';
import { permissionCatalogue } from '@contracts/identity/permissions';
import type { z } from 'zod';
import { forgetEverything, setAuthState, tokens } from './auth-store';
import { config } from './config';
import { fieldSentence } from './field-errors';

/** A failed call, with the service's own message when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: unknown,
    readonly correlationId?: string,
    /** The HTTP reason phrase, when the service answered ("Not Found"). */
    readonly statusText?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The field-level problems of a 400, keyed by field name, each as a sentence. */
  fieldErrors(): Record<string, string> {
    const fields =
      (this.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
    return Object.fromEntries(
      fields.map((problem) => [problem.field, fieldSentence(problem.field, problem.message)]),
    );
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
  /** Send the access token (refreshing it once on a 401). Default true. */
  auth?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export const authApi = (path: string) => `${config.authApiUrl}${path}`;
export const domainApi = (path: string) => `${config.domainApiUrl}${path}`;

/** A 403 in words, from the permission the service names: "You don't have permission to edit bidders". */
function refusalMessage(details: unknown): string | null {
  const key = (details as { permission?: unknown } | undefined)?.permission;
  if (typeof key !== 'string' || !(key in permissionCatalogue)) return null;
  const label = permissionCatalogue[key as keyof typeof permissionCatalogue];
  return `You don't have permission to ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
}

export async function errorFrom(response: Response): Promise<ApiError> {
  const correlationId = response.headers.get('x-correlation-id') ?? undefined;
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    const refused = response.status === 403 ? refusalMessage(details) : null;
    return new ApiError(
      refused ?? message,
      response.status,
      code,
      details,
      correlationId,
      response.statusText,
    );
  }
  return new ApiError(
    `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    response.status,
    'http_error',
    undefined,
    correlationId,
    response.statusText,
  );
}

async function send(
  url: string,
  options: RequestOptions<unknown>,
  accessToken: string | null,
): Promise<Response> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    return await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
  } catch (error) {
    if (timeout.aborted) throw new ApiError('The service did not answer in time', 0, 'timeout');
    throw new ApiError(
      url.startsWith(config.authApiUrl)
        ? 'Cannot connect to authentication service. Please contact support if this issue persists.'
        : error instanceof Error && error.message
          ? error.message
          : 'The service could not be reached',
      0,
      'network',
    );
  }
}

let refreshing: Promise<string> | null = null;

/** One refresh at a time, across tabs: each uses the newest refresh token in storage. */
async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  return navigator.locks ? navigator.locks.request('lotwise-refresh', work) : work();
}

export function refreshAccessToken(): Promise<string> {
  refreshing ??= withRefreshLock(async () => {
    const refreshToken = tokens.refresh();
    if (!refreshToken)
      throw new ApiError('No session token found. Please login first.', 401, 'unauthorized');
    const response = await send(
      authApi('/me/refresh'),
      { method: 'POST', body: { refreshToken } },
      null,
    );
    if (!response.ok) throw await errorFrom(response);
    const body = (await response.json()) as { accessToken: string | null; refreshToken: string };
    tokens.setRefresh(body.refreshToken);
    tokens.setAccess(body.accessToken);
    if (!body.accessToken) throw new ApiError('Choose an account to continue', 401, 'unauthorized');
    return body.accessToken;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Ends the local session after the server refused it, with a note for the sign-in screen. */
export function endSession(notice: string): void {
  forgetEverything();
  setAuthState({ status: 'signed-out', notice });
}

/**
 * The one way the web app calls the services: JSON in and out, a timeout always, errors as
 * ApiError, and the access token refreshed once when the service says it has expired.
 */
export async function apiRequest<T>(url: string, options: RequestOptions<T> = {}): Promise<T> {
  const useAuth = options.auth ?? true;
  let accessToken = useAuth ? tokens.access() : null;
  if (useAuth && !accessToken && tokens.refresh()) {
    accessToken = await refreshAccessToken().catch(() => null);
  }
  let response = await send(url, options as RequestOptions<unknown>, accessToken);
  if (useAuth && response.status === 401 && tokens.refresh()) {
    try {
      accessToken = await refreshAccessToken();
    } catch (refusal) {
      // A refresh that got no answer is not a refused session: keep it for the next try.
      if (!(refusal instanceof ApiError && refusal.status === 401)) throw refusal;
      endSession('Your session has ended. Sign in again.');
      throw await errorFrom(response);
    }
    response = await send(url, options as RequestOptions<unknown>, accessToken);
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : {};
  return options.schema ? options.schema.parse(json) : (json as T);
}

/** The message to show for any failure. */
export function messageOf(error: unknown, fallback = 'An unexpected error occurred'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
