import { healthReportSchema } from '../../functions/src/health/health.schema.js';
import { describe, expect, inject, it } from 'vitest';

const authUrl = inject('authUrl');
const domainUrl = inject('domainUrl');

const bases = [
  { service: 'auth', url: `${authUrl}/health` },
  { service: 'bidders', url: `${domainUrl}/bidders/health` },
  { service: 'auctions', url: `${domainUrl}/auctions/health` },
  { service: 'legal', url: `${domainUrl}/legal/health` },
  { service: 'uploads', url: `${domainUrl}/data-upload/health` },
  { service: 'scoring', url: `${domainUrl}/scoring/health` },
];

describe('GET {base}/health', () => {
  it.each(bases)(
    '$service reports itself, its version, both dependencies and its own store',
    async ({ service, url }) => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const report = healthReportSchema.parse(await response.json());
      expect(report.service).toBe(service);
      expect(report.status).toBe('ok');
      expect(report.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(report.dependencies.map((dependency) => dependency.name).sort()).toEqual(
        service === 'auctions' ? ['auctions-store', 'cosmos', 'storage'] : ['cosmos', 'storage'],
      );
      for (const dependency of report.dependencies) {
        expect(dependency.status).toBe('up');
        expect(dependency.latencyMs).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it('answers for the domain app as a whole', async () => {
    const report = healthReportSchema.parse(await (await fetch(`${domainUrl}/health`)).json());
    expect(report).toMatchObject({ service: 'domain', app: 'domain', status: 'ok' });
  });

  it('routes case-insensitively, as Functions does', async () => {
    const response = await fetch(`${domainUrl}/Bidders/HEALTH`);
    expect(response.status).toBe(200);
  });
});

describe('errors', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const response = await fetch(`${domainUrl}/no/such/route`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({
      error: { code: 'not_found', message: 'No route matches GET /no/such/route' },
    });
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await fetch(`${authUrl}/health`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe('method_not_allowed');
  });

  it('answers a body with a bad field with a 400 naming the field', async () => {
    const response = await fetch(`${authUrl}/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'Render failed',
        url: 'not a url',
        occurredAt: new Date().toISOString(),
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { code: string; message: string; details: { fields: { field: string }[] } };
    };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toMatch(/^url: /);
    expect(body.error.details.fields.map((problem) => problem.field)).toEqual(['url']);
  });

  it('names a missing field as required', async () => {
    const response = await fetch(`${authUrl}/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://localhost:4280/', occurredAt: new Date().toISOString() }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('message: is required');
  });

  it('answers malformed JSON with a 400 about the body', async () => {
    const response = await fetch(`${authUrl}/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message": ',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('body: is not valid JSON');
  });

  it('refuses a body over the route limit with 413', async () => {
    const response = await fetch(`${authUrl}/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(20_000) }),
    });
    expect(response.status).toBe(413);
  });

  it('accepts a valid client error report', async () => {
    const response = await fetch(`${authUrl}/client-errors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'Render failed',
        url: 'http://localhost:4280/settings',
        occurredAt: new Date().toISOString(),
      }),
    });
    expect(response.status).toBe(202);
  });
});

describe('correlation and CORS', () => {
  it('echoes a caller correlation id and makes one otherwise', async () => {
    const given = await fetch(`${authUrl}/health`, {
      headers: { 'x-correlation-id': 'test-correlation-123' },
    });
    expect(given.headers.get('x-correlation-id')).toBe('test-correlation-123');
    const made = await fetch(`${authUrl}/health`);
    expect(made.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('allows the web origin and no other', async () => {
    const preflight = (origin: string) =>
      fetch(`${domainUrl}/bidders/health`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    const allowed = await preflight('http://localhost:4280');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:4280');
    expect(allowed.headers.get('access-control-allow-headers')).toBe('authorization');
    const other = await preflight('https://elsewhere.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    const simple = await fetch(`${domainUrl}/bidders/health`, {
      headers: { origin: 'http://localhost:4280' },
    });
    expect(simple.headers.get('access-control-allow-origin')).toBe('http://localhost:4280');
    expect(simple.headers.get('access-control-expose-headers')).toContain('x-correlation-id');
  });
});
