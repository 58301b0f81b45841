import { randomUUID } from 'node:crypto';
import type {
  HttpMethod,
  HttpRequest,
  HttpResponseBodyInit,
  HttpResponseInit,
  InvocationContext,
} from '@azure/functions';
import type { z } from 'zod';
import {
  apiKeyContextOf,
  contextOf,
  type CallerContext,
  type PublicContext,
  type UserContext,
} from './context.js';
import { AppError, forbidden, payloadTooLarge, preconditionRequired } from './errors.js';
import { toAppError } from './error-mapping.js';
import type {
  Callers,
  Concurrency,
  HttpFunction,
  PlanFeature,
  RoutePermission,
} from './functions.js';
import { contextLogger } from './invocation-log.js';
import type { Logger } from './logging.js';
import {
  authenticate,
  authenticateCaller,
  hasPermission,
  isApiKeyPrincipal,
  type ApiKeyPrincipal,
  type Principal,
} from './principal.js';
import { settings } from './settings.js';
import { parseInput, validationError } from './validation.js';

export const CORRELATION_HEADER = 'x-correlation-id';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * What a handler knows of its caller: on a public route whoever sent a valid token; a person on
 * `authenticated` routes and routes for people only; else a person or one of the house's systems
 * with an API key.
 */
export type ContextFor<Perm extends RoutePermission, K extends Callers> = Perm extends 'public'
  ? PublicContext
  : Perm extends 'authenticated'
    ? UserContext
    : K extends 'people'
      ? UserContext
      : CallerContext;

export interface RouteRequest<
  P,
  Q,
  B,
  Perm extends RoutePermission,
  C extends Concurrency,
  K extends Callers = 'people-and-keys',
> {
  /** Who is calling and in which account. */
  ctx: ContextFor<Perm, K>;
  params: P;
  query: Q;
  body: B;
  /** The ETag the caller's change was made against (from `If-Match`), without quotes. */
  ifMatch: C extends 'if-match' ? string : string | undefined;
  request: HttpRequest;
  log: Logger;
}

interface ResultBase {
  status?: number;
  headers?: Record<string, string>;
  /** The ETag of the record answered, sent as the `ETag` header. */
  etag?: string;
}

export type RouteResult<R = unknown> =
  | (ResultBase & { json: R })
  | (ResultBase & { body: HttpResponseBodyInit })
  | { status: 204; headers?: Record<string, string> };

export interface RouteSpec<
  P,
  Q,
  B,
  R,
  Perm extends RoutePermission,
  C extends Concurrency,
  K extends Callers = 'people-and-keys',
> {
  name: string;
  route: string;
  methods: HttpMethod[];
  permission: Perm;
  /** One line for the API description. */
  summary?: string;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The success body; checked against every reply when CHECK_RESPONSES is on (tests). */
  response?: z.ZodType<R>;
  /**
   * `if-match`: a change needs the ETag it was made against (428 without it, 412 when stale);
   * `if-match-optional`: honoured when sent.
   */
  concurrency?: C;
  /** Defaults to 1 MiB; uploads raise it. */
  maxBodyBytes?: number;
  /** Usable while the account's MFA policy makes the caller enrol (MFA setup, profile, sign-out). */
  allowDuringMfaSetup?: boolean;
  /**
   * A route with a catalogue permission also takes the house's API keys, checked against the
   * key's permissions exactly as a person's; `people` refuses them (the auth app's routes).
   */
  callers?: K;
  /**
   * An add-on the account's plan must include (spec §6, feature access): without it the route
   * answers 403 "Access denied: {feature} feature not available in your plan". The plan is read
   * from the person's token, so such routes are for people only.
   */
  feature?: PlanFeature;
  handler(input: RouteRequest<P, Q, B, Perm, C, K>): Promise<RouteResult<NoInfer<R>>>;
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

/** Whether a route takes API keys: one with a catalogue permission that is not for people only. */
const takesApiKeys = (permission: RoutePermission, callers: Callers) =>
  permission !== 'public' && permission !== 'authenticated' && callers !== 'people';

function requireFeature(principal: Principal | ApiKeyPrincipal | undefined, feature: PlanFeature) {
  if (principal && !isApiKeyPrincipal(principal) && principal.features.has(feature)) return;
  throw forbidden(`Access denied: ${feature} feature not available in your plan`, { feature });
}

async function resolvePrincipal(
  request: HttpRequest,
  permission: RoutePermission,
  allowDuringMfaSetup: boolean,
  apiKeys: boolean,
): Promise<Principal | ApiKeyPrincipal | undefined> {
  const authorization = request.headers.get('authorization');
  if (permission === 'public') {
    return authorization ? authenticate(authorization).catch(() => undefined) : undefined;
  }
  const principal = apiKeys
    ? await authenticateCaller(authorization)
    : await authenticate(authorization);
  if (!isApiKeyPrincipal(principal) && principal.mfaSetupRequired && !allowDuringMfaSetup) {
    throw new AppError(
      'forbidden',
      'Your account requires two-factor authentication. Set it up under Security to continue.',
      { reason: 'mfa_setup_required' },
    );
  }
  if (permission !== 'authenticated' && !hasPermission(principal, permission)) {
    // The key in the details, so a client can name the permission in its own words.
    throw forbidden(`You need the ${permission} permission to do this`, { permission });
  }
  return principal;
}

/** An ETag as Cosmos gives it, quoted for HTTP; and back. */
export const quoteEtag = (etag: string) => `"${etag}"`;
const unquoteEtag = (value: string) => value.replace(/^W\//, '').replace(/^"|"$/g, '');

function ifMatchOf(request: HttpRequest, concurrency: Concurrency): string | undefined {
  const given = request.headers.get('if-match')?.trim();
  if (given) return unquoteEtag(given);
  if (concurrency === 'if-match') {
    throw preconditionRequired('Send If-Match with the ETag of the record you changed');
  }
  return undefined;
}

/**
 * On every answer: none is read as another type than it says, shown in a frame or sent on with a
 * referrer, and a browser keeps to HTTPS (it ignores HSTS over plain HTTP, as locally). An answer
 * is data, not a page, so it may load nothing; the one page, the API docs, says what it loads.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-frame-options': 'DENY',
};

function toResponse(result: RouteResult, headers: Record<string, string>): HttpResponseInit {
  const merged = {
    ...SECURITY_HEADERS,
    'cache-control': 'no-store',
    ...headers,
    ...('etag' in result && result.etag ? { etag: quoteEtag(result.etag) } : {}),
    ...(result.headers ?? {}),
  };
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
      ...SECURITY_HEADERS,
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
  R = unknown,
  Perm extends RoutePermission = RoutePermission,
  C extends Concurrency = 'none',
  K extends Callers = 'people-and-keys',
>(spec: RouteSpec<P, Q, B, R, Perm, C, K>): HttpFunction {
  const concurrency: Concurrency = spec.concurrency ?? 'none';
  const apiKeys = !spec.feature && takesApiKeys(spec.permission, spec.callers ?? 'people-and-keys');
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
    let principal: Principal | ApiKeyPrincipal | undefined;
    try {
      principal = await resolvePrincipal(
        request,
        spec.permission,
        spec.allowDuringMfaSetup ?? false,
        apiKeys,
      );
      if (spec.feature) requireFeature(principal, spec.feature);
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
      const ifMatch = ifMatchOf(request, concurrency);
      const caller = !principal
        ? undefined
        : isApiKeyPrincipal(principal)
          ? apiKeyContextOf(principal, correlationId)
          : contextOf(principal, correlationId);
      const ctx = spec.permission === 'public' ? { correlationId, caller } : caller;
      const result = await spec.handler({
        ctx: ctx as RouteRequest<P, Q, B, Perm, C, K>['ctx'],
        params,
        query,
        body,
        ifMatch: ifMatch as RouteRequest<P, Q, B, Perm, C, K>['ifMatch'],
        request,
        log,
      });
      if (spec.response && 'json' in result && settings().CHECK_RESPONSES) {
        checkResponse(spec.name, spec.response, result.json);
      }
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
      ...(principal && isApiKeyPrincipal(principal)
        ? { apiKeyId: principal.keyId }
        : { userId: principal?.userId }),
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
    contract: {
      ...(spec.summary ? { summary: spec.summary } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.response ? { response: spec.response } : {}),
      concurrency,
      maxBodyBytes: spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      allowDuringMfaSetup: spec.allowDuringMfaSetup ?? false,
      apiKeys,
      ...(spec.feature ? { feature: spec.feature } : {}),
    },
  };
}

/** A reply that breaks its route's declared contract is our fault: a 500 naming the route. */
function checkResponse(name: string, schema: z.ZodType, json: unknown): void {
  const checked = schema.safeParse(json);
  if (!checked.success) {
    throw new Error(
      `${name} answered outside its response schema: ${checked.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`)
        .join('; ')}`,
    );
  }
}
