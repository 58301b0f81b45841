import { auctionsReadiness } from '../auctions/auctions.service.js';
import { database } from '../platform/cosmos.js';
import { isUnavailable } from '../platform/error-mapping.js';
import type { AppSelection } from '../platform/functions.js';
import { settings } from '../platform/settings.js';
import { blobServiceClient, queueServiceClient } from '../platform/storage.js';
import type { DependencyHealth, HealthReport } from './health.schema.js';

type Probe = (signal: AbortSignal) => Promise<unknown>;

/** What a public health answer may say about a failure: no hosts, keys or stack traces. */
function describeFailure(error: unknown, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`;
  const status =
    (error as { statusCode?: unknown; code?: unknown }).statusCode ??
    (error as { code?: unknown }).code;
  if (typeof status === 'number') return `responded HTTP ${status}`;
  if (isUnavailable(error)) return 'unreachable';
  return 'check failed';
}

async function probe(name: DependencyHealth['name'], run: Probe): Promise<DependencyHealth> {
  const timeoutMs = settings().DEPENDENCY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // The SDKs retry on their own; the race keeps the answer inside the timeout regardless.
    await Promise.race([
      run(signal),
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    ]);
    return { name, status: 'up', latencyMs: elapsed() };
  } catch (error) {
    return {
      name,
      status: 'down',
      latencyMs: elapsed(),
      error: describeFailure(error, timeoutMs, signal),
    };
  }
}

const probes: Record<'cosmos' | 'storage', Probe> = {
  cosmos: (abortSignal) => database().read({ abortSignal }),
  storage: (abortSignal) =>
    Promise.all([
      blobServiceClient().getProperties({ abortSignal }),
      queueServiceClient().getProperties({ abortSignal }),
    ]),
};

/** What a service needs of its own beyond the platform: its store, ready to answer. */
const ownProbes: Record<string, Partial<Record<DependencyHealth['name'], Probe>>> = {
  auctions: { 'auctions-store': auctionsReadiness },
};

export async function checkHealth(service: string, app: AppSelection): Promise<HealthReport> {
  const all: Partial<Record<DependencyHealth['name'], Probe>> = {
    ...probes,
    ...(ownProbes[service] ?? {}),
  };
  const dependencies = await Promise.all(
    (Object.entries(all) as [DependencyHealth['name'], Probe][]).map(([name, run]) =>
      probe(name, run),
    ),
  );
  return {
    service,
    app,
    status: dependencies.every((dependency) => dependency.status === 'up') ? 'ok' : 'unavailable',
    version: settings().APP_VERSION,
    checkedAt: new Date().toISOString(),
    dependencies,
  };
}
