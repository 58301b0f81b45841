import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { attempt } from './use-action';

describe('attempt', () => {
  it('reports success', async () => {
    expect(await attempt(async () => 'saved')).toEqual({ ok: true });
  });

  it('puts each field problem beside its field as a sentence, and says so once above', async () => {
    const error = new ApiError('phone: Enter a phone number', 400, 'validation_failed', {
      fields: [
        { location: 'body', field: 'phone', message: 'Enter a phone number' },
        { location: 'body', field: 'firstName', message: 'is required' },
      ],
    });
    expect(
      await attempt(async () => {
        throw error;
      }),
    ).toEqual({
      ok: false,
      error,
      message: 'Please correct the highlighted fields',
      fieldErrors: { phone: 'Enter a phone number', firstName: 'First name is required' },
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
