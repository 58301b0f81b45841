import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';

const dir = mkdtempSync(join(tmpdir(), 'lotwise-flags-'));
const file = join(dir, 'flags.json');
const now = Date.now();
writeFileSync(
  file,
  JSON.stringify({
    feature_management: {
      feature_flags: [
        { id: 'off-flag', enabled: false },
        { id: 'inventory', enabled: false },
        {
          id: 'half',
          enabled: true,
          conditions: {
            client_filters: [{ name: 'Lotwise.Percentage', parameters: { Value: 50 } }],
          },
        },
        {
          id: 'paid',
          enabled: true,
          conditions: {
            client_filters: [
              { name: 'Lotwise.SubscriptionTier', parameters: { Tiers: ['tier-1', 'tier-2'] } },
            ],
          },
        },
        {
          id: 'big-houses',
          enabled: true,
          conditions: {
            client_filters: [{ name: 'Lotwise.AuctionHouseSize', parameters: { Min: 3, Max: 10 } }],
          },
        },
        {
          id: 'targeted',
          enabled: true,
          conditions: {
            client_filters: [
              {
                name: 'Microsoft.Targeting',
                parameters: {
                  Audience: {
                    Users: ['vip'],
                    Groups: [{ Name: 'admin', RolloutPercentage: 100 }],
                    DefaultRolloutPercentage: 0,
                  },
                },
              },
            ],
          },
        },
        {
          id: 'windowed',
          enabled: true,
          conditions: {
            client_filters: [
              {
                name: 'Microsoft.TimeWindow',
                parameters: {
                  Start: new Date(now - 3_600_000).toUTCString(),
                  End: new Date(now + 3_600_000).toUTCString(),
                },
              },
            ],
          },
        },
        {
          id: 'expired-window',
          enabled: true,
          conditions: {
            client_filters: [
              {
                name: 'Microsoft.TimeWindow',
                parameters: {
                  Start: new Date(now - 7_200_000).toUTCString(),
                  End: new Date(now - 3_600_000).toUTCString(),
                },
              },
            ],
          },
        },
      ],
    },
  }),
);
process.env.FEATURE_FLAGS_FILE = file;
process.env.ENVIRONMENT = 'production';
// Production never offers the demo.
process.env.DEMO_ENABLED = 'false';
process.env.WEBHOOKS_ALLOW_PRIVATE = 'false';
useSampleSettings();
const { evaluateFlag, evaluateFlags, percentageBucket } = await import('./flags.js');

const context = { userId: 'user-1', groups: ['staff'], tier: 'free', houseCount: 1 };

describe('feature flags', () => {
  it('uses the spec fallbacks for flags nobody defined', async () => {
    expect(await evaluateFlag('payments', context)).toEqual({ value: false, defined: false });
    expect(await evaluateFlag('advanced-scoring', context)).toEqual({
      value: true,
      defined: false,
    });
    expect(await evaluateFlag('bulk-operations', context)).toEqual({ value: true, defined: false });
    // Beta features are on only in development; this test runs as production.
    expect(await evaluateFlag('beta-features', context)).toEqual({ value: false, defined: false });
    expect(await evaluateFlag('something-new', context)).toEqual({ value: true, defined: false });
  });

  it('honours a defined flag over the fallback', async () => {
    expect(await evaluateFlag('off-flag', context)).toEqual({ value: false, defined: true });
    expect(await evaluateFlag('inventory', context)).toEqual({ value: false, defined: true });
  });

  it('rolls out by a stable hash of the user id, about the stated share', async () => {
    const users = Array.from({ length: 2000 }, (_, index) => `user-${index}`);
    const enabled = await Promise.all(
      users.map((userId) => evaluateFlag('half', { ...context, userId })),
    );
    const share = enabled.filter((result) => result.value).length / users.length;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
    expect(percentageBucket('user-7', 'half')).toBe(percentageBucket('user-7', 'half'));
    for (const [index, result] of enabled.entries()) {
      expect(result.value).toBe(percentageBucket(users[index] as string, 'half') < 50);
    }
  });

  it('filters by subscription tier, house count, targeting and time window', async () => {
    expect((await evaluateFlag('paid', context)).value).toBe(false);
    expect((await evaluateFlag('paid', { ...context, tier: 'tier-2' })).value).toBe(true);
    expect((await evaluateFlag('big-houses', context)).value).toBe(false);
    expect((await evaluateFlag('big-houses', { ...context, houseCount: 4 })).value).toBe(true);
    expect((await evaluateFlag('targeted', context)).value).toBe(false);
    expect((await evaluateFlag('targeted', { ...context, userId: 'vip' })).value).toBe(true);
    expect((await evaluateFlag('targeted', { ...context, groups: ['admin'] })).value).toBe(true);
    expect((await evaluateFlag('windowed', context)).value).toBe(true);
    expect((await evaluateFlag('expired-window', context)).value).toBe(false);
  });

  it('lists known and defined flags together', async () => {
    const all = await evaluateFlags(context);
    expect(Object.keys(all)).toEqual(
      expect.arrayContaining(['inventory', 'payments', 'beta-features', 'half', 'windowed']),
    );
  });
});
