import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { load } from '@azure/app-configuration-provider';
import { DefaultAzureCredential } from '@azure/identity';
import {
  ConfigurationMapFeatureFlagProvider,
  ConfigurationObjectFeatureFlagProvider,
  FeatureManager,
  type IFeatureFilter,
  type IFeatureFlagProvider,
} from '@microsoft/feature-management';
import { z } from 'zod';
import { settings } from './settings.js';

/** Who a flag is evaluated for. */
export interface FlagContext {
  userId: string;
  groups: string[];
  tier: string;
  houseCount: number;
}

/** Flags and caches refresh every five minutes, as the spec says. */
export const FLAG_REFRESH_MS = 5 * 60 * 1000;

/** A stable 0-99 bucket per user and flag, so a user stays in or out of a rollout. */
export function percentageBucket(userId: string, flag: string): number {
  return createHash('sha256').update(`${flag}:${userId}`).digest().readUInt32BE(0) % 100;
}

const percentageFilter: IFeatureFilter = {
  name: 'Lotwise.Percentage',
  evaluate: ({ featureName, parameters }, appContext) => {
    const { Value } = z.object({ Value: z.number().min(0).max(100) }).parse(parameters);
    return percentageBucket((appContext as FlagContext).userId, featureName) < Value;
  },
};

const tierFilter: IFeatureFilter = {
  name: 'Lotwise.SubscriptionTier',
  evaluate: ({ parameters }, appContext) => {
    const { Tiers } = z.object({ Tiers: z.array(z.string()) }).parse(parameters);
    return Tiers.includes((appContext as FlagContext).tier || 'free');
  },
};

const houseSizeFilter: IFeatureFilter = {
  name: 'Lotwise.AuctionHouseSize',
  evaluate: ({ parameters }, appContext) => {
    const { Min, Max } = z
      .object({ Min: z.number().int().min(0).default(0), Max: z.number().int().optional() })
      .parse(parameters);
    const count = (appContext as FlagContext).houseCount;
    return count >= Min && (Max === undefined || count <= Max);
  },
};

/** Used when a flag is not defined anywhere (the spec's fallbacks). */
export function fallbackFlag(name: string): boolean {
  if (name === 'inventory' || name === 'payments') return false;
  if (name === 'beta-features') return settings().ENVIRONMENT === 'development';
  return true;
}

export const knownFlags = [
  'inventory',
  'payments',
  'beta-features',
  'advanced-scoring',
  'bulk-operations',
] as const;

interface FlagSource {
  provider: IFeatureFlagProvider;
  manager: FeatureManager;
  loadedAt: number;
  refresh(): Promise<void>;
}

let source: Promise<FlagSource | undefined> | undefined;

function managerFor(provider: IFeatureFlagProvider): FeatureManager {
  return new FeatureManager(provider, {
    customFilters: [percentageFilter, tierFilter, houseSizeFilter],
  });
}

async function fileSource(path: string): Promise<FlagSource> {
  const absolute = resolve(path);
  const read = async () =>
    new ConfigurationObjectFeatureFlagProvider(
      JSON.parse(await readFile(absolute, 'utf8')) as Record<string, unknown>,
    );
  let modified = (await stat(absolute)).mtimeMs;
  const state: FlagSource = {
    provider: await read(),
    manager: undefined as unknown as FeatureManager,
    loadedAt: Date.now(),
    refresh: async () => {
      const now = (await stat(absolute)).mtimeMs;
      if (now === modified) return;
      modified = now;
      state.provider = await read();
      state.manager = managerFor(state.provider);
      state.loadedAt = Date.now();
    },
  };
  state.manager = managerFor(state.provider);
  return state;
}

async function appConfigurationSource(endpoint: string): Promise<FlagSource> {
  const appConfig = await load(endpoint, new DefaultAzureCredential(), {
    // Flags only; the app's other settings come from the Function App.
    selectors: [{ keyFilter: '.appconfig.featureflag/*' }],
    featureFlagOptions: {
      enabled: true,
      refresh: { enabled: true, refreshIntervalInMs: FLAG_REFRESH_MS },
    },
  });
  const provider = new ConfigurationMapFeatureFlagProvider(appConfig);
  const state: FlagSource = {
    provider,
    manager: managerFor(provider),
    loadedAt: Date.now(),
    refresh: async () => {
      await appConfig.refresh();
      state.loadedAt = Date.now();
    },
  };
  return state;
}

async function flagSource(): Promise<FlagSource | undefined> {
  const config = settings();
  source ??= config.APP_CONFIGURATION_ENDPOINT
    ? appConfigurationSource(config.APP_CONFIGURATION_ENDPOINT)
    : config.FEATURE_FLAGS_FILE
      ? fileSource(config.FEATURE_FLAGS_FILE)
      : Promise.resolve(undefined);
  const current = await source;
  if (current && Date.now() - current.loadedAt > FLAG_REFRESH_MS) {
    await current.refresh().catch(() => undefined);
    current.loadedAt = Date.now();
  }
  return current;
}

export interface FlagEvaluation {
  value: boolean;
  defined: boolean;
}

/** One flag for one person: its definition when there is one, else the fallback. */
export async function evaluateFlag(name: string, context: FlagContext): Promise<FlagEvaluation> {
  const current = await flagSource();
  const definition = current ? await current.provider.getFeatureFlag(name) : undefined;
  if (!current || !definition) return { value: fallbackFlag(name), defined: false };
  return { value: await current.manager.isEnabled(name, context), defined: true };
}

/** Every known or defined flag for one person. */
export async function evaluateFlags(context: FlagContext): Promise<Record<string, FlagEvaluation>> {
  const current = await flagSource();
  const defined = current ? (await current.provider.getFeatureFlags()).map((flag) => flag.id) : [];
  const names = [...new Set<string>([...knownFlags, ...defined])];
  const entries = await Promise.all(
    names.map(async (name) => [name, await evaluateFlag(name, context)] as const),
  );
  return Object.fromEntries(entries);
}
