import type { ClientError } from '@contracts/telemetry/telemetry.schema';
import { config } from './config';

/** Sends an error the app could not recover from to the service logs; never throws. */
export function reportError(error: unknown): void {
  const report: ClientError = {
    message:
      (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'Unknown error',
    ...(error instanceof Error && error.stack ? { stack: error.stack.slice(0, 10_000) } : {}),
    url: window.location.href.slice(0, 2000),
    userAgent: navigator.userAgent.slice(0, 500),
    occurredAt: new Date().toISOString(),
  };
  void fetch(`${config.authApiUrl}/client-errors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
    keepalive: true,
  }).catch(() => undefined);
}

/** Reports errors that escape every handler, once per page load per message. */
export function reportUnhandledErrors(): void {
  const seen = new Set<string>();
  const once = (error: unknown) => {
    const key = error instanceof Error ? error.message : String(error);
    if (seen.has(key)) return;
    seen.add(key);
    reportError(error);
  };
  window.addEventListener('error', (event) => once(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => once(event.reason));
}
