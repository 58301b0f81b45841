import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { platformUrlSettings } from '../src/integrations/connectors/platform-urls.js';

/** The checkout; a built dev host (see stack.ts) runs from elsewhere and is told it. */
export const repoRoot =
  process.env.LOTWISE_ROOT ?? new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

const localSettingsSchema = z.object({
  Values: z.record(z.string(), z.string()),
});

function readValues(path: string): Record<string, string> {
  return localSettingsSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).Values;
}

/** The committed defaults, as a fresh clone has them. */
export function loadSampleSettings(root = repoRoot): Record<string, string> {
  return readValues(join(root, 'local.settings.sample.json'));
}

/**
 * The Values of local.settings.json, created from the sample on first run so a developer has a
 * file to edit. Variables already in the environment win, as with `func start`.
 */
export function loadLocalSettings(root = repoRoot): Record<string, string> {
  const path = join(root, 'local.settings.json');
  if (!existsSync(path)) copyFileSync(join(root, 'local.settings.sample.json'), path);
  // Settings added to the sample since the file was made come in with their defaults.
  const values = { ...loadSampleSettings(root), ...readValues(path) };
  const merged: Record<string, string> = { ...values };
  for (const key of Object.keys(values)) {
    const fromEnvironment = process.env[key];
    if (fromEnvironment !== undefined) merged[key] = fromEnvironment;
  }
  return merged;
}

const localHosts = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export const isLocalUrl = (value: string) => localHosts.has(new URL(value).hostname);

/**
 * The platform sandbox's port when the `PLATFORM_URL_*` settings point at this machine (each
 * platform under one sandbox), else undefined: the services then talk to the platforms themselves.
 */
export function platformSandboxPort(
  settings: Record<string, string | undefined>,
): number | undefined {
  const local = Object.values(platformUrlSettings)
    .map((name) => settings[name])
    .filter((value): value is string => !!value && isLocalUrl(value))
    .map((value) => Number(new URL(value).port || 80));
  const ports = [...new Set(local)];
  if (ports.length > 1) {
    throw new Error(
      `The PLATFORM_URL_* settings point at local ports ${ports.join(', ')}; the platform sandbox serves every platform on one port`,
    );
  }
  return ports[0];
}

/** The local Stripe's port when `STRIPE_API_URL` points at this machine, else undefined (real Stripe). */
export function localStripePort(settings: Record<string, string | undefined>): number | undefined {
  const url = settings.STRIPE_API_URL;
  if (!url || !isLocalUrl(url)) return undefined;
  return Number(new URL(url).port || 80);
}

/** Azurite's ports when the storage connection string points at it, else undefined. */
export function azuritePorts(
  connection: string | undefined,
): { blob: number; queue: number } | undefined {
  if (!connection) return undefined;
  if (/UseDevelopmentStorage=true/i.test(connection)) return { blob: 10000, queue: 10001 };
  const parts = new Map(
    connection
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
  const blob = parts.get('BlobEndpoint');
  const queue = parts.get('QueueEndpoint');
  if (!blob || !queue) return undefined;
  if (!isLocalUrl(blob) || !isLocalUrl(queue)) return undefined;
  return { blob: Number(new URL(blob).port), queue: Number(new URL(queue).port) };
}

/** The connection string for an Azurite on the given ports, with its well-known dev account. */
export function azuriteConnectionString(ports: { blob: number; queue: number }): string {
  const account = 'devstoreaccount1';
  const key =
    'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
  return [
    'DefaultEndpointsProtocol=http',
    `AccountName=${account}`,
    `AccountKey=${key}`,
    `BlobEndpoint=http://127.0.0.1:${ports.blob}/${account}`,
    `QueueEndpoint=http://127.0.0.1:${ports.queue}/${account}`,
  ].join(';');
}

/** Fills in the committed local defaults for anything not already set, for tests and scripts. */
export function useSampleSettings(): void {
  for (const [key, value] of Object.entries(loadSampleSettings())) process.env[key] ??= value;
}
