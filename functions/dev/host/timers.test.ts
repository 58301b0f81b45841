import { describe, expect, it } from 'vitest';
import type { Timer } from '@azure/functions';
import { nextOccurrence, startTimers } from './timers.js';

describe('NCRONTAB schedules', () => {
  it('reads the seconds field first, in UTC', () => {
    const after = new Date('2026-03-01T10:02:03Z');
    expect(nextOccurrence('0 */5 * * * *', after).toISOString()).toBe('2026-03-01T10:05:00.000Z');
    expect(nextOccurrence('30 0 2 * * *', after).toISOString()).toBe('2026-03-02T02:00:30.000Z');
    expect(nextOccurrence('0 0 9 * * 1-5', new Date('2026-03-06T10:00:00Z')).toISOString()).toBe(
      '2026-03-09T09:00:00.000Z',
    );
  });

  it('refuses a malformed schedule', () => {
    expect(() => nextOccurrence('every five minutes', new Date())).toThrow();
  });

  it('fires a timer function on its schedule', async () => {
    const fired: Timer[] = [];
    const running = startTimers([
      {
        kind: 'timer',
        name: 'every-second',
        schedule: '* * * * * *',
        handler: async (timer) => void fired.push(timer),
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    running.stop();
    expect(fired.length).toBeGreaterThanOrEqual(1);
    expect(fired[0]?.isPastDue).toBe(false);
    expect(Date.parse(fired[0]?.scheduleStatus.next ?? '')).toBeGreaterThan(Date.now() - 2_000);
  });
});
