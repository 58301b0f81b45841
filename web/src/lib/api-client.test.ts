import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiRequest, ApiError } from './api-client';

afterEach(() => vi.unstubAllGlobals());

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  vi.fn(
    async () => new Response(body === undefined ? null : JSON.stringify(body), { status, headers }),
  );

describe('apiRequest', () => {
  it('sends JSON and returns the parsed answer', async () => {
    const fetchMock = answer(200, { id: 'b1', name: 'Ada' });
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiRequest('http://api/bidders', {
      method: 'POST',
      body: { name: 'Ada' },
      schema: z.object({ id: z.string(), name: z.string() }),
    });
    expect(result).toEqual({ id: 'b1', name: 'Ada' });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe('{"name":"Ada"}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('turns the service error body into an ApiError with its message', async () => {
    vi.stubGlobal(
      'fetch',
      answer(
        400,
        { error: { code: 'validation_failed', message: 'email: Invalid email address' } },
        { 'x-correlation-id': 'c-1' },
      ),
    );
    const error = await apiRequest('http://api/x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'email: Invalid email address',
      correlationId: 'c-1',
    });
  });

  it('falls back to the status when the body is not an error body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(apiRequest('http://api/x')).rejects.toMatchObject({
      status: 502,
      message: 'HTTP 502 Bad Gateway',
    });
  });

  it('reports an unreachable service as a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('http://api/x')).rejects.toMatchObject({
      status: 0,
      code: 'network',
      message: 'Failed to fetch',
    });
  });
});
