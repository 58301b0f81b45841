import { describe, expect, it } from 'vitest';
import { addressDelayMs, lockSeconds } from './login-throttle.js';

describe('sign-in throttle schedules', () => {
  it('locks an account or device from the 5th failure, a minute more each time, up to 15', () => {
    expect([1, 4, 5, 6, 14, 19, 20, 100].map(lockSeconds)).toEqual([
      0, 0, 60, 120, 600, 900, 900, 900,
    ]);
  });

  it('slows an address from the 11th failure, 250 ms more each time, up to 3 seconds', () => {
    expect([1, 10, 11, 12, 20, 22, 23, 10_000].map(addressDelayMs)).toEqual([
      0, 0, 250, 500, 2_500, 3_000, 3_000, 3_000,
    ]);
  });
});
