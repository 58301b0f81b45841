import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';
import type * as FlagsModule from './flags.js';

/**
 * Flags from Azure App Configuration against the provider's contract: what `load` is asked for
 * (the flags alone, refreshed every five minutes, with the managed identity), and how its
 * refresh is used: a stale set of flags refreshes once due, and a refresh that fails keeps them.
 */
const provider = vi.hoisted(() => ({
  loads: [] as { endpoint: unknown; credential: unknown; options: unknown }[],
  refreshes: 0,
  refreshFails: false,
  flags: [] as unknown[],
}));

vi.mock('@azure/app-configuration-provider', () => ({
  load: (endpoint: unknown, credential: unknown, options: unknown) => {
    provider.loads.push({ endpoint, credential, options });
    // What the store held when loaded, or last refreshed.
    let held = provider.flags;
    const configuration = {
      get: (key: string) => (key === 'feature_management' ? { feature_flags: held } : undefined),
      refresh: () => {
        provider.refreshes += 1;
        if (provider.refreshFails) {
          return Promise.reject(new Error('App Configuration is unreachable'));
        }
        held = provider.flags;
        return Promise.resolve();
      },
    };
    return Promise.resolve(configuration);
  },
}));

let flags: typeof FlagsModule;

beforeAll(async () => {
  process.env.APP_CONFIGURATION_ENDPOINT = 'https://lotwise-dev.azconfig.io';
  useSampleSettings();
  flags = await import('./flags.js');
});

afterEach(() => vi.useRealTimers());

const person: FlagsModule.FlagContext = { userId: 'u1', groups: [], tier: 'tier-1', houseCount: 1 };

describe('flags from App Configuration', () => {
  it('loads the feature flags alone, with the five-minute refresh, as the managed identity', async () => {
    provider.flags = [{ id: 'bulk-operations', enabled: true }];
    const { DefaultAzureCredential } = await import('@azure/identity');
    const evaluated = await flags.evaluateFlag('bulk-operations', person);
    expect(evaluated).toEqual({ value: true, defined: true });
    expect(provider.loads).toHaveLength(1);
    const [first] = provider.loads;
    expect(first?.endpoint).toBe('https://lotwise-dev.azconfig.io');
    expect(first?.credential).toBeInstanceOf(DefaultAzureCredential);
    expect(first?.options).toEqual({
      selectors: [{ keyFilter: '.appconfig.featureflag/*' }],
      featureFlagOptions: {
        enabled: true,
        refresh: { enabled: true, refreshIntervalInMs: 5 * 60 * 1000 },
      },
    });
  });

  it('refreshes once the flags are five minutes old, and keeps them when that fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await flags.evaluateFlag('bulk-operations', person);
    const before = provider.refreshes;
    // Turned off in App Configuration: not seen until the flags are five minutes old.
    provider.flags = [{ id: 'bulk-operations', enabled: false }];
    vi.setSystemTime(Date.now() + flags.FLAG_REFRESH_MS - 1000);
    expect(await flags.evaluateFlag('bulk-operations', person)).toEqual({
      value: true,
      defined: true,
    });
    expect(provider.refreshes).toBe(before);

    vi.setSystemTime(Date.now() + 2000);
    expect(await flags.evaluateFlag('bulk-operations', person)).toEqual({
      value: false,
      defined: true,
    });
    expect(provider.refreshes).toBe(before + 1);

    // Unreachable at the next refresh: the flags it has stay.
    provider.refreshFails = true;
    provider.flags = [{ id: 'bulk-operations', enabled: true }];
    vi.setSystemTime(Date.now() + flags.FLAG_REFRESH_MS + 1000);
    expect(await flags.evaluateFlag('bulk-operations', person)).toEqual({
      value: false,
      defined: true,
    });
    expect(provider.refreshes).toBe(before + 2);
    expect(provider.loads).toHaveLength(1);
  });
});
