import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { azuriteConnectionString, loadSampleSettings } from '../../functions/dev/local-settings.js';
import { sandboxSettings } from '../../functions/dev/platforms/server.js';
import type { OutputSink } from '../../functions/dev/processes.js';
import { startStack, type RunningStack } from '../../functions/dev/stack.js';
import { freePorts } from './ports.js';

export interface TestStack {
  stack: RunningStack;
  settings: Record<string, string>;
  dataDir: string;
  ports: {
    auth: number;
    domain: number;
    cosmos: number;
    blob: number;
    queue: number;
    platforms: number;
    stripe: number;
  };
  stop(): Promise<void>;
}

/** Keeps the services' output for a failing run without flooding a passing one. */
export function quietOutput(): OutputSink & { dump(): string } {
  const lines: string[] = [];
  const sink: OutputSink = (name, line) => {
    lines.push(`[${name}] ${line}`);
    if (lines.length > 2000) lines.shift();
  };
  return Object.assign(sink, { dump: () => lines.join('\n') });
}

/**
 * The whole local back end on free ports with a throw-away data directory, configured from
 * local.settings.sample.json exactly as a new developer's first `npm start` is (the platform
 * sandbox included, its URLs in the PLATFORM_URL_* settings).
 */
export async function startTestStack(
  webOrigin: string,
  extraSettings: Record<string, string> = {},
  options: { hosts?: 'one' | 'per-app' } = {},
): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lotwise-test-'));
  const [auth, domain, cosmos, blob, queue, platforms, stripe] = (await freePorts(7)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ports = { auth, domain, cosmos, blob, queue, platforms, stripe };
  const settings = {
    ...loadSampleSettings(),
    COSMOS_ENDPOINT: `http://localhost:${ports.cosmos}`,
    AzureWebJobsStorage: azuriteConnectionString(ports),
    ...sandboxSettings(`http://localhost:${ports.platforms}`),
    STRIPE_API_URL: `http://localhost:${ports.stripe}`,
    STRIPE_JS_URL: `http://localhost:${ports.stripe}/v3/`,
    WEB_ORIGINS: webOrigin,
    PUBLIC_WEB_URL: webOrigin,
    LOG_LEVEL: 'warn',
    CHECK_RESPONSES: 'true',
    ...extraSettings,
  };
  const output = quietOutput();
  let stack: RunningStack;
  try {
    stack = await startStack({
      dataDir,
      ports: {
        auth: ports.auth,
        domain: ports.domain,
        cosmos: ports.cosmos,
        azurite: { blob: ports.blob, queue: ports.queue },
        platforms: ports.platforms,
        stripe: ports.stripe,
      },
      settings,
      output,
      ...options,
    });
  } catch (error) {
    process.stderr.write(output.dump());
    throw error;
  }
  return {
    stack,
    settings,
    dataDir,
    ports,
    stop: async () => {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
