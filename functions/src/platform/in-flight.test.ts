import { describe, expect, it } from 'vitest';
import { inFlight } from './in-flight.js';

const later = <T>(value: T, fail = false) =>
  new Promise<T>((resolve, reject) =>
    setTimeout(() => (fail ? reject(new Error(String(value))) : resolve(value)), 5),
  );

describe('inFlight', () => {
  it('never has more than its limit running', async () => {
    const writes = inFlight(2);
    let running = 0;
    let most = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await later(null);
      running -= 1;
    };
    for (let index = 0; index < 10; index += 1) await writes.add(work());
    await writes.finish();
    expect(most).toBe(2);
    expect(running).toBe(0);
  });

  it('throws the first failure from the next add, and from finish', async () => {
    const writes = inFlight(2);
    await writes.add(later('first', true));
    await expect(writes.add(later('second'))).rejects.toThrow('first');
    await expect(writes.finish()).rejects.toThrow('first');
  });

  it('settles without throwing', async () => {
    const writes = inFlight(3);
    await writes.add(later('failed', true));
    await expect(writes.settle()).resolves.toBeUndefined();
  });
});
