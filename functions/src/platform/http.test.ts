import azureFunctions, { type HttpResponseInit } from '@azure/functions';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useSampleSettings } from '../../dev/local-settings.js';

useSampleSettings();
const { HttpRequest, InvocationContext } = azureFunctions;
const { httpRoute } = await import('./http.js');
const { AppError, conflict } = await import('./errors.js');
const { ACCESS_TOKEN_AUDIENCE, installApiKeyVerifier, signingKey } = await import('./principal.js');
const { unauthorized } = await import('./errors.js');
const { settings } = await import('./settings.js');

const logged: string[] = [];
const context = () =>
  new InvocationContext({
    functionName: 'test',
    logHandler: (_level, ...args) => logged.push(args.map(String).join(' ')),
  });

function request(init: {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}) {
  return new HttpRequest({
    method: init.method ?? 'POST',
    url: `http://localhost/${init.path ?? 'things'}`,
    headers: { 'content-type': 'application/json', ...init.headers },
    params: init.params ?? {},
    ...(init.body === undefined ? {} : { body: { string: init.body } }),
  });
}

async function token(claims: Record<string, unknown>, expiresIn = '5m') {
  return new SignJWT({
    sid: 'session-1',
    email: 'owner@example.com',
    name: 'Olive Owner',
    houses: [],
    feat: [],
    ...claims,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setIssuer(settings().AUTH_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(signingKey());
}

const body = (response: HttpResponseInit) =>
  response.jsonBody as { error: { code: string; message: string } };

describe('httpRoute', () => {
  const create = httpRoute({
    name: 'things-create',
    route: 'things/{kind}',
    methods: ['POST'],
    permission: 'things:create',
    params: z.object({ kind: z.enum(['small', 'large']) }),
    query: z.object({ dryRun: z.enum(['true', 'false']).optional() }),
    body: z.object({ name: z.string().min(1), count: z.number().int() }),
    maxBodyBytes: 200,
    handler: async ({ params, body: input, ctx, query }) => ({
      status: 201,
      json: {
        kind: params.kind,
        ...input,
        by: ctx.actor.userId,
        account: ctx.scope.accountId,
        dryRun: query.dryRun,
      },
    }),
  });

  let ownerToken: string;
  let viewerToken: string;
  beforeAll(async () => {
    ownerToken = await token({ acc: 'acct-1', role: 'owner', perms: [] });
    viewerToken = await token({ acc: 'acct-1', role: 'viewer', perms: ['things:view'] });
  });

  it('passes validated input and the verified principal to the handler', async () => {
    const response = await create.handler(
      request({
        path: 'things/small?dryRun=true',
        params: { kind: 'small' },
        body: JSON.stringify({ name: 'Lamp', count: 2 }),
        headers: { authorization: `Bearer ${ownerToken}` },
      }),
      context(),
    );
    expect(response).toMatchObject({
      status: 201,
      jsonBody: {
        kind: 'small',
        name: 'Lamp',
        count: 2,
        by: 'user-1',
        account: 'acct-1',
        dryRun: 'true',
      },
    });
    expect(
      (response as HttpResponseInit & { headers: Record<string, string> }).headers[
        'x-correlation-id'
      ],
    ).toBeTruthy();
  });

  it('answers 401 without a token, with a bad token and with an expired token', async () => {
    const expired = await token({ acc: 'acct-1', role: 'owner', perms: [] }, '-1m');
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer ${expired}`, 'Basic abc']) {
      const response = (await create.handler(
        request({
          params: { kind: 'small' },
          body: '{}',
          headers: authorization ? { authorization } : {},
        }),
        context(),
      )) as HttpResponseInit;
      expect(response.status).toBe(401);
      expect(body(response).error.code).toBe('unauthorized');
    }
  });

  it('answers 403 naming the permission the caller lacks', async () => {
    const response = (await create.handler(
      request({
        params: { kind: 'small' },
        body: '{}',
        headers: { authorization: `Bearer ${viewerToken}` },
      }),
      context(),
    )) as HttpResponseInit;
    expect(response.status).toBe(403);
    expect(body(response).error.message).toContain('things:create');
  });

  it('answers 400 naming the param, query or body field at fault', async () => {
    const call = (init: Parameters<typeof request>[0]) =>
      create.handler(
        request({ headers: { authorization: `Bearer ${ownerToken}` }, ...init }),
        context(),
      ) as Promise<HttpResponseInit>;
    const badParam = await call({ params: { kind: 'huge' }, body: '{"name":"a","count":1}' });
    expect(body(badParam).error.message).toMatch(/^kind: /);
    const badQuery = await call({
      path: 'things/small?dryRun=maybe',
      params: { kind: 'small' },
      body: '{"name":"a","count":1}',
    });
    expect(body(badQuery).error.message).toMatch(/^dryRun: /);
    const badBody = await call({ params: { kind: 'small' }, body: '{"name":"a","count":1.5}' });
    expect(badBody.status).toBe(400);
    expect(body(badBody).error.message).toMatch(/^count: /);
    const missing = await call({ params: { kind: 'small' }, body: '' });
    expect(body(missing).error.message).toBe('body: is required');
  });

  it('answers 413 for a body over the limit', async () => {
    const response = (await create.handler(
      request({
        params: { kind: 'small' },
        body: JSON.stringify({ name: 'x'.repeat(500), count: 1 }),
        headers: { authorization: `Bearer ${ownerToken}` },
      }),
      context(),
    )) as HttpResponseInit;
    expect(response.status).toBe(413);
  });

  it('maps known errors to their status and hides unknown ones behind a reference', async () => {
    const failing = (error: unknown) =>
      httpRoute({
        name: 'failing',
        route: 'fail',
        methods: ['GET'],
        permission: 'public',
        handler: async () => {
          throw error;
        },
      });
    const call = async (error: unknown) =>
      (await failing(error).handler(
        request({ method: 'GET', path: 'fail' }),
        context(),
      )) as HttpResponseInit;

    expect((await call(conflict('Bidder ID already used'))).status).toBe(409);
    expect((await call(Object.assign(new Error('precondition'), { code: 412 }))).status).toBe(412);
    expect(
      (await call(Object.assign(new Error('throttled'), { code: 429, retryAfterInMs: 1500 })))
        .status,
    ).toBe(429);
    expect(
      (await call(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })))
        .status,
    ).toBe(503);
    expect((await call(new AppError('payload_too_large', 'Too big'))).status).toBe(413);

    const secret = new Error('database password is hunter2');
    const hidden = await call(secret);
    expect(hidden.status).toBe(500);
    const text = JSON.stringify(hidden.jsonBody);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    expect(body(hidden).error.message).toMatch(/Reference: [0-9a-f-]{36}/);
    expect(logged.some((line) => line.includes('hunter2'))).toBe(true);
  });

  it('lets public routes run without a token and still see one when given', async () => {
    const whoAmI = httpRoute({
      name: 'who',
      route: 'who',
      methods: ['GET'],
      permission: 'public',
      handler: async ({ ctx }) => ({ json: { userId: ctx.caller?.actor.userId ?? null } }),
    });
    const anonymous = (await whoAmI.handler(
      request({ method: 'GET', path: 'who' }),
      context(),
    )) as HttpResponseInit;
    expect(anonymous.jsonBody).toEqual({ userId: null });
    const known = (await whoAmI.handler(
      request({ method: 'GET', path: 'who', headers: { authorization: `Bearer ${ownerToken}` } }),
      context(),
    )) as HttpResponseInit;
    expect(known.jsonBody).toEqual({ userId: 'user-1' });
  });

  it('writes one structured log line per request with its correlation id', async () => {
    logged.length = 0;
    await create.handler(
      request({
        params: { kind: 'small' },
        body: '{}',
        headers: { 'x-correlation-id': 'corr-abcdefgh' },
      }),
      context(),
    );
    const line = logged
      .map((entry) => JSON.parse(entry) as Record<string, unknown>)
      .find((entry) => entry.message === 'request');
    expect(line).toMatchObject({
      correlationId: 'corr-abcdefgh',
      status: 401,
      function: 'things-create',
      level: 'info',
    });
  });

  describe('concurrency and contracts', () => {
    const update = httpRoute({
      name: 'things-update',
      route: 'things/{id}',
      methods: ['PUT'],
      permission: 'things:create',
      concurrency: 'if-match',
      response: z.object({ id: z.string(), seen: z.string() }),
      handler: async ({ ifMatch, ctx }) => ({
        json: { id: ctx.correlationId.slice(0, 4), seen: ifMatch },
        etag: 'etag-2',
      }),
    });
    const broken = httpRoute({
      name: 'things-broken',
      route: 'things/broken',
      methods: ['GET'],
      permission: 'things:create',
      response: z.object({ id: z.string() }),
      handler: async () => ({ json: { id: 42 } as unknown as { id: string } }),
    });
    const put = (headers: Record<string, string>) =>
      update.handler(
        request({
          method: 'PUT',
          path: 'things/1',
          headers: { authorization: `Bearer ${ownerToken}`, ...headers },
        }),
        context(),
      ) as Promise<HttpResponseInit>;

    it('answers 428 when a change comes without If-Match', async () => {
      const response = await put({});
      expect(response.status).toBe(428);
      expect(body(response).error.code).toBe('precondition_required');
    });

    it('hands the handler the unquoted ETag and sends the new one back', async () => {
      const response = await put({ 'if-match': 'W/"etag-1"' });
      expect(response.status).toBe(200);
      expect((response.jsonBody as { seen: string }).seen).toBe('etag-1');
      expect((response.headers as Record<string, string>).etag).toBe('"etag-2"');
    });

    it('refuses a reply outside the declared response schema when checking is on', async () => {
      const previous = settings().CHECK_RESPONSES;
      Object.assign(settings(), { CHECK_RESPONSES: true });
      try {
        const response = (await broken.handler(
          request({
            method: 'GET',
            path: 'things/broken',
            headers: { authorization: `Bearer ${ownerToken}` },
          }),
          context(),
        )) as HttpResponseInit;
        expect(response.status).toBe(500);
      } finally {
        Object.assign(settings(), { CHECK_RESPONSES: previous });
      }
    });

    it('describes its contract for the API description', () => {
      expect(update.contract).toMatchObject({ concurrency: 'if-match', maxBodyBytes: 1048576 });
      expect(update.contract?.response).toBeDefined();
    });
  });

  describe('API keys', () => {
    // The keys are a feature's records; here a stand-in verifier knows two.
    installApiKeyVerifier({
      recognises: (token) => token.startsWith('lw_test_'),
      verify: async (token) => {
        if (token === 'lw_test_writer') {
          return {
            kind: 'api_key',
            keyId: 'k1',
            name: 'ERP sync',
            accountId: 'acc-1',
            permissions: new Set(['things:create']),
          };
        }
        if (token === 'lw_test_reader') {
          return {
            kind: 'api_key',
            keyId: 'k2',
            name: 'Reports',
            accountId: 'acc-1',
            permissions: new Set(['things:view']),
          };
        }
        throw unauthorized('The API key is not valid');
      },
    });
    const forPeople = httpRoute({
      name: 'things-people',
      route: 'things/people',
      methods: ['POST'],
      permission: 'things:create',
      callers: 'people',
      handler: async ({ ctx }) => ({ json: { session: ctx.actor.sessionId } }),
    });
    const mine = httpRoute({
      name: 'things-mine',
      route: 'things/mine',
      methods: ['GET'],
      permission: 'authenticated',
      handler: async ({ ctx }) => ({ json: { user: ctx.actor.userId } }),
    });
    const open = httpRoute({
      name: 'things-open',
      route: 'things/open',
      methods: ['GET'],
      permission: 'public',
      handler: async ({ ctx }) => ({ json: { caller: ctx.caller?.actor.kind ?? null } }),
    });
    const send = (fn: typeof create, key: string, init: Parameters<typeof request>[0] = {}) =>
      fn.handler(
        request({ ...init, headers: { authorization: `Bearer ${key}` } }),
        context(),
      ) as Promise<HttpResponseInit>;
    const valid = { params: { kind: 'small' }, body: '{"name":"n","count":1}' };

    it('runs a route with the key as the actor, in the key’s account', async () => {
      const response = await send(create, 'lw_test_writer', valid);
      expect(response.status).toBe(201);
      expect(response.jsonBody).toMatchObject({ by: 'api-key:k1', account: 'acc-1' });
    });

    it('checks the route’s permission against the key’s, as for a person', async () => {
      const response = await send(create, 'lw_test_reader', valid);
      expect(response.status).toBe(403);
      expect(body(response).error.message).toContain('things:create');
    });

    it('answers 401 for a key it does not know', async () => {
      expect((await send(create, 'lw_test_other', valid)).status).toBe(401);
    });

    it('refuses keys on routes for people and on a person’s own routes', async () => {
      for (const fn of [forPeople, mine]) {
        const response = await send(fn, 'lw_test_writer');
        expect(response.status).toBe(401);
        expect(body(response).error.message).toMatch(/API keys are not accepted here/);
      }
      expect(forPeople.contract?.apiKeys).toBe(false);
      expect(mine.contract?.apiKeys).toBe(false);
      expect(create.contract?.apiKeys).toBe(true);
    });

    it('treats a key on a public route as no caller at all', async () => {
      const response = await send(open, 'lw_test_writer', { method: 'GET' });
      expect(response.jsonBody).toEqual({ caller: null });
    });
  });
});
