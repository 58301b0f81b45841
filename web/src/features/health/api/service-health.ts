import { healthReportSchema, type HealthReport } from '@contracts/health/health.schema';
import useSWR from 'swr';
import { services, type ServiceDescriptor, type ServiceId } from '../../../lib/config';

/** The spec's health check timeout. */
export const HEALTH_TIMEOUT_MS = 5000;

export type ServiceStatus = 'online' | 'offline' | 'checking' | 'unknown';

export interface HealthResult {
  status: 'online' | 'offline';
  responseTimeMs: number;
  /** "HTTP {status}" or the error text when offline. */
  error?: string;
  report?: HealthReport;
  checkedAt: Date;
}

/** Online when the service answers OK within the timeout; offline otherwise, saying why. */
export async function checkService(service: ServiceDescriptor): Promise<HealthResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(service.healthUrl, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
      cache: 'no-store',
    });
    const responseTimeMs = elapsed();
    const parsed = healthReportSchema.safeParse(await response.json().catch(() => undefined));
    const report = parsed.success ? parsed.data : undefined;
    return response.ok
      ? { status: 'online', responseTimeMs, report, checkedAt: new Date() }
      : {
          status: 'offline',
          responseTimeMs,
          error: `HTTP ${response.status}`,
          report,
          checkedAt: new Date(),
        };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return {
      status: 'offline',
      responseTimeMs: elapsed(),
      error: timedOut
        ? `No answer within ${HEALTH_TIMEOUT_MS / 1000} seconds`
        : error instanceof Error
          ? error.message
          : String(error),
      checkedAt: new Date(),
    };
  }
}

export type HealthBoard = Record<ServiceId, HealthResult>;

async function checkAll(): Promise<HealthBoard> {
  const results = await Promise.all(services.map(checkService));
  return Object.fromEntries(
    services.map((service, index) => [service.id, results[index]]),
  ) as HealthBoard;
}

export type Overall = 'ready' | 'checking' | 'online' | 'offline';

/** Checks all six services together; re-checks every minute and on demand. */
export function useServiceHealth() {
  const { data, isValidating, mutate } = useSWR('service-health', checkAll, {
    revalidateOnFocus: false,
    refreshInterval: 60_000,
  });
  const statusOf = (id: ServiceId): ServiceStatus =>
    isValidating ? 'checking' : (data?.[id]?.status ?? 'unknown');
  const results = data ? Object.values(data) : [];
  const overall: Overall = !data
    ? isValidating
      ? 'checking'
      : 'ready'
    : results.some((result) => result.status === 'offline')
      ? 'offline'
      : 'online';
  return {
    board: data,
    statusOf,
    overall,
    offlineCount: results.filter((result) => result.status === 'offline').length,
    checking: isValidating,
    recheck: () => mutate(),
  };
}
