import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { attempt } from './use-action';

describe('attempt', () => {
  it('reports success', async () => {
    expect(await attempt(async () => 'saved')).toEqual({ ok: true });
  });

  it('turns a service error into its message and field errors', async () => {
    const error = new ApiError('email: Invalid email address', 400, 'validation_failed', {
      fields: [{ location: 'body', field: 'email', message: 'Invalid email address' }],
    });
    expect(
      await attempt(async () => {
        throw error;
      }),
    ).toEqual({
      ok: false,
      error,
      message: 'email: Invalid email address',
      fieldErrors: { email: 'Invalid email address' },
    });
  });

  it('uses the fallback when the failure has no message', async () => {
    const outcome = await attempt(() => Promise.reject(new Error('')), 'Login failed');
    expect(outcome).toMatchObject({ ok: false, message: 'Login failed', fieldErrors: {} });
  });

  it('catches work that throws before it returns a promise', async () => {
    const outcome = await attempt(() => {
      throw new Error('Not now');
    });
    expect(outcome).toMatchObject({ ok: false, message: 'Not now' });
  });
});
