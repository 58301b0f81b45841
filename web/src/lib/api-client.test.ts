import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiRequest, ApiError } from './api-client';
import { getAuthState, setAuthState, tokens } from './auth-store';
import { memoryStorage } from './memory-storage.test-support';

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('navigator', {});
  tokens.setAccess(null);
});
afterEach(() => vi.unstubAllGlobals());

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers });

describe('apiRequest', () => {
  it('sends JSON with the access token and returns the parsed answer', async () => {
    tokens.setAccess('access-1');
    const fetchMock = vi.fn(async () => json(200, { id: 'b1', name: 'Ada' }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiRequest('http://api/bidders', {
      method: 'POST',
      body: { name: 'Ada' },
      schema: z.object({ id: z.string(), name: z.string() }),
    });
    expect(result).toEqual({ id: 'b1', name: 'Ada' });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const headers = init.headers as Record<string, string>;
    expect(init.body).toBe('{"name":"Ada"}');
    expect(headers['content-type']).toBe('application/json');
    expect(headers.authorization).toBe('Bearer access-1');
  });

  it('turns the service error body into an ApiError with its message and field errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(
          400,
          {
            error: {
              code: 'validation_failed',
              message: 'email: Invalid email address',
              details: {
                fields: [{ location: 'body', field: 'email', message: 'Invalid email address' }],
              },
            },
          },
          { 'x-correlation-id': 'c-1' },
        ),
      ),
    );
    const error = await apiRequest('http://api/x', { auth: false }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'email: Invalid email address',
      correlationId: 'c-1',
    });
    expect((error as ApiError).fieldErrors()).toEqual({ email: 'Invalid email address' });
  });

  it('words a refusal by the permission the service names, never as a failure to retry', async () => {
    const refusal = (permission: string) =>
      json(403, {
        error: {
          code: 'forbidden',
          message: `You need the ${permission} permission to do this`,
          details: { permission },
        },
      });
    vi.stubGlobal('fetch', async () => refusal('bidders:edit'));
    await expect(apiRequest('http://api/bidders/1', { method: 'PUT', body: {} })).rejects.toEqual(
      expect.objectContaining({
        status: 403,
        message: "You don't have permission to edit bidders",
      }),
    );
    vi.stubGlobal('fetch', async () => refusal('bidders:history_edit'));
    await expect(apiRequest('http://api/bidders/1/notes', { method: 'POST' })).rejects.toEqual(
      expect.objectContaining({
        message: "You don't have permission to add notes to bidder history",
      }),
    );
    // A key the catalogue does not know keeps the service's own words.
    vi.stubGlobal('fetch', async () => refusal('made:up'));
    await expect(apiRequest('http://api/x')).rejects.toEqual(
      expect.objectContaining({ message: 'You need the made:up permission to do this' }),
    );
  });

  it('falls back to the status when the body is not an error body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(apiRequest('http://api/x', { auth: false })).rejects.toMatchObject({
      status: 502,
      message: 'HTTP 502 Bad Gateway',
    });
  });

  it('reports an unreachable service as a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('http://api/x', { auth: false })).rejects.toMatchObject({
      status: 0,
      code: 'network',
      message: 'Failed to fetch',
    });
  });

  it('refreshes once on a 401, keeps the rotated refresh token and retries', async () => {
    tokens.setAccess('expired');
    localStorage.setItem('lotwise.refreshToken', 'r1.old');
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      if (url.endsWith('/me/refresh'))
        return json(200, { accessToken: 'fresh', refreshToken: 'r1.new' });
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer fresh'
        ? json(200, { ok: true })
        : json(401, { error: { code: 'unauthorized', message: 'expired' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    expect(await apiRequest('http://api/thing')).toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(localStorage.getItem('lotwise.refreshToken')).toBe('r1.new');
    expect(tokens.access()).toBe('fresh');
  });

  it('signs out cleanly when the refresh is refused', async () => {
    setAuthState({ status: 'loading' });
    tokens.setAccess('expired');
    localStorage.setItem('lotwise.refreshToken', 'r1.stolen');
    localStorage.setItem('lotwise.user', '{}');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(401, {
          error: { code: 'unauthorized', message: 'This sign-in has ended. Sign in again.' },
        }),
      ),
    );
    await expect(apiRequest('http://api/thing')).rejects.toMatchObject({ status: 401 });
    expect(getAuthState()).toEqual({
      status: 'signed-out',
      notice: 'Your session has ended. Sign in again.',
    });
    expect(localStorage.getItem('lotwise.refreshToken')).toBeNull();
    expect(localStorage.getItem('lotwise.user')).toBeNull();
  });

  it('keeps the stored session when a refresh gets no answer', async () => {
    setAuthState({ status: 'loading' });
    tokens.setAccess('expired');
    localStorage.setItem('lotwise.refreshToken', 'r1.kept');
    localStorage.setItem('lotwise.user', '{}');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.endsWith('/me/refresh')) throw new TypeError('Failed to fetch');
        return json(401, { error: { code: 'unauthorized', message: 'expired' } });
      }),
    );
    await expect(apiRequest('http://api/thing')).rejects.toMatchObject({ code: 'network' });
    expect(getAuthState()).toEqual({ status: 'loading' });
    expect(localStorage.getItem('lotwise.refreshToken')).toBe('r1.kept');
    expect(localStorage.getItem('lotwise.user')).toBe('{}');
  });
});
