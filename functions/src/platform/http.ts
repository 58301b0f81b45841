import { randomUUID } from 'node:crypto';
import type {
  HttpMethod,
  HttpRequest,
  HttpResponseBodyInit,
  HttpResponseInit,
  InvocationContext,
} from '@azure/functions';
import type { z } from 'zod';
import { AppError, forbidden, payloadTooLarge } from './errors.js';
import { toAppError } from './error-mapping.js';
import type { HttpFunction, RoutePermission } from './functions.js';
import { contextLogger } from './invocation-log.js';
import type { Logger } from './logging.js';
import { authenticate, hasPermission, type Principal } from './principal.js';
import { parseInput, validationError } from './validation.js';

export const CORRELATION_HEADER = 'x-correlation-id';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface RouteRequest<P, Q, B, Perm extends RoutePermission> {
  params: P;
  query: Q;
  body: B;
  principal: Perm extends 'public' ? Principal | undefined : Principal;
  request: HttpRequest;
  context: InvocationContext;
  log: Logger;
  correlationId: string;
}

export type RouteResult =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status?: number; body: HttpResponseBodyInit; headers?: Record<string, string> }
  | { status: 204; headers?: Record<string, string> };

export interface RouteSpec<P, Q, B, Perm extends RoutePermission> {
  name: string;
  route: string;
  methods: HttpMethod[];
  permission: Perm;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Defaults to 1 MiB; uploads raise it. */
  maxBodyBytes?: number;
  /** Usable while the account's MFA policy makes the caller enrol (MFA setup, profile, sign-out). */
  allowDuringMfaSetup?: boolean;
  handler(input: RouteRequest<P, Q, B, Perm>): Promise<RouteResult>;
}

const safeCorrelationId = /^[A-Za-z0-9._-]{8,100}$/;

function correlationIdOf(request: HttpRequest): string {
  const given = request.headers.get(CORRELATION_HEADER);
  return given && safeCorrelationId.test(given) ? given : randomUUID();
}

async function readJsonBody(request: HttpRequest, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes)
    throw payloadTooLarge(`The request body is larger than ${maxBytes} bytes`);
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes) {
    throw payloadTooLarge(`The request body is larger than ${maxBytes} bytes`);
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError([{ location: 'body', field: 'body', message: 'is not valid JSON' }]);
  }
}

async function resolvePrincipal(
  request: HttpRequest,
  permission: RoutePermission,
  allowDuringMfaSetup: boolean,
): Promise<Principal | undefined> {
  const authorization = request.headers.get('authorization');
  if (permission === 'public') {
    return authorization ? authenticate(authorization).catch(() => undefined) : undefined;
  }
  const principal = await authenticate(authorization);
  if (principal.mfaSetupRequired && !allowDuringMfaSetup) {
    throw new AppError(
      'forbidden',
      'Your account requires two-factor authentication. Set it up under Security to continue.',
      { reason: 'mfa_setup_required' },
    );
  }
  if (permission !== 'authenticated' && !hasPermission(principal, permission)) {
    throw forbidden(`You need the ${permission} permission to do this`);
  }
  return principal;
}

function toResponse(result: RouteResult, headers: Record<string, string>): HttpResponseInit {
  const merged = { 'cache-control': 'no-store', ...headers, ...(result.headers ?? {}) };
  if ('json' in result) {
    return { status: result.status ?? 200, jsonBody: result.json, headers: merged };
  }
  if ('body' in result) return { status: result.status ?? 200, body: result.body, headers: merged };
  return { status: 204, headers: merged };
}

export function errorResponse(
  error: AppError,
  correlationId: string,
  extraHeaders: Record<string, string> = {},
): HttpResponseInit {
  return {
    status: error.status,
    jsonBody: error.toBody(),
    headers: {
      'cache-control': 'no-store',
      [CORRELATION_HEADER]: correlationId,
      ...extraHeaders,
      ...(error.headers ?? {}),
    },
  };
}

/**
 * Declares an HTTP function: its route, methods, the permission it needs and the zod schemas of
 * its input. The wrapper authenticates, authorises, validates, logs with a correlation id and maps
 * every failure to `{ error: { code, message, details } }` without leaking internals.
 */
export function httpRoute<
  P = Record<string, never>,
  Q = Record<string, never>,
  B = undefined,
  Perm extends RoutePermission = RoutePermission,
>(spec: RouteSpec<P, Q, B, Perm>): HttpFunction {
  const handler = async (
    request: HttpRequest,
    context: InvocationContext,
  ): Promise<HttpResponseInit> => {
    const started = performance.now();
    const correlationId = correlationIdOf(request);
    const log = contextLogger(context, {
      correlationId,
      function: spec.name,
      invocationId: context.invocationId,
    });
    const baseHeaders = { [CORRELATION_HEADER]: correlationId };
    let response: HttpResponseInit;
    let principal: Principal | undefined;
    try {
      principal = await resolvePrincipal(
        request,
        spec.permission,
        spec.allowDuringMfaSetup ?? false,
      );
      const params = spec.params
        ? parseInput('params', spec.params, { ...request.params })
        : ({} as P);
      const query = spec.query
        ? parseInput('query', spec.query, Object.fromEntries(request.query.entries()))
        : ({} as Q);
      const body = spec.body
        ? parseInput(
            'body',
            spec.body,
            await readJsonBody(request, spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
          )
        : (undefined as B);
      const result = await spec.handler({
        params,
        query,
        body,
        principal: principal as RouteRequest<P, Q, B, Perm>['principal'],
        request,
        context,
        log,
        correlationId,
      });
      response = toResponse(result, baseHeaders);
    } catch (error) {
      const known = toAppError(error);
      if (known) {
        response = errorResponse(known, correlationId);
        if (known.status >= 500) log.warn('dependency unavailable', { error });
      } else {
        log.error('unhandled error', { error });
        response = errorResponse(
          new AppError('internal', `Something went wrong on our side. Reference: ${correlationId}`),
          correlationId,
        );
      }
    }
    log.info('request', {
      method: request.method,
      route: spec.route,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      userId: principal?.userId,
      accountId: principal?.accountId,
    });
    return response;
  };
  return {
    kind: 'http',
    name: spec.name,
    route: spec.route,
    methods: spec.methods,
    permission: spec.permission,
    handler,
  };
}
