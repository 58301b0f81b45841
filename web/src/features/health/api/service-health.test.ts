import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkService } from './service-health';

afterEach(() => vi.unstubAllGlobals());

const service = {
  id: 'bidders' as const,
  label: 'Bidders',
  baseUrl: 'http://localhost:7072',
  healthUrl: 'http://localhost:7072/bidders/health',
};

const report = {
  service: 'bidders',
  app: 'domain',
  status: 'unavailable',
  version: '0.1.0',
  checkedAt: new Date().toISOString(),
  dependencies: [{ name: 'cosmos', status: 'down', latencyMs: 3, error: 'unreachable' }],
};

describe('checkService', () => {
  it('is online when the service answers OK, with the response time', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ ...report, status: 'ok' }), { status: 200 })),
    );
    const result = await checkService(service);
    expect(result.status).toBe('online');
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(result.report?.service).toBe('bidders');
  });

  it('is offline with "HTTP {status}" when the service answers otherwise', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(report), { status: 503 })),
    );
    const result = await checkService(service);
    expect(result).toMatchObject({ status: 'offline', error: 'HTTP 503' });
    expect(result.report?.dependencies[0]?.name).toBe('cosmos');
  });

  it('is offline with the error text when the service cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await checkService(service)).toMatchObject({
      status: 'offline',
      error: 'Failed to fetch',
    });
  });

  it('gives up after five seconds', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Promise.reject(new DOMException('The operation timed out.', 'TimeoutError')),
      ),
    );
    expect(await checkService(service)).toMatchObject({
      status: 'offline',
      error: 'No answer within 5 seconds',
    });
  });
});
