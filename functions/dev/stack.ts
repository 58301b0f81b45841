import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  startProcess,
  waitForHttp,
  waitForPort,
  type ManagedProcess,
  type OutputSink,
} from './processes.js';
import { repoRoot } from './local-settings.js';
import { startPlatformSandbox, type PlatformSandbox } from './platforms/server.js';
import { startLocalStripe, type LocalStripe } from './stripe/server.js';

const require = createRequire(import.meta.url);

export interface StackPorts {
  auth: number;
  domain: number;
  /** Omitted when the settings point at a real Cosmos DB account. */
  cosmos?: number;
  /** Omitted when the settings point at a real Storage account. */
  azurite?: { blob: number; queue: number };
  /** The local platform sandbox; omitted when the settings point at the platforms themselves. */
  platforms?: number;
  /** The local Stripe; omitted when STRIPE_API_URL points at Stripe itself. */
  stripe?: number;
}

export interface StackOptions {
  /** Where the emulators keep their data (`.data` for `npm start`). */
  dataDir: string;
  ports: StackPorts;
  /** The service settings (local.settings.json Values plus overrides). */
  settings: Record<string, string>;
  output: OutputSink;
  /**
   * `per-app`: the auth and domain apps in hosts of their own (processes `host-auth` and
   * `host-domain`), as the two Function Apps run in Azure; else one host serves both (`host`).
   */
  hosts?: 'one' | 'per-app';
}

export interface RunningStack {
  authUrl: string;
  domainUrl: string;
  /** The local platform sandbox's root (`/<platform>/...`, `/__sandbox/...`), when it runs. */
  platformsUrl: string | null;
  /** The local Stripe's root (`/v1/...`, `/v3/`, `/__stripe/...`), when it runs. */
  stripeUrl: string | null;
  processes: Record<string, ManagedProcess>;
  stop(): Promise<void>;
}

const tsx = (script: string, args: string[] = []) => ({
  command: process.execPath,
  args: ['--import', 'tsx', join(repoRoot, script), ...args],
});

/** Runs a command under supervised.ts, so it ends with this process. */
export const supervised = (commandLine: string[]) =>
  tsx('functions/dev/supervised.ts', commandLine);

/** A process that never became ready is stopped before the error goes on. */
async function stopOnFailure(children: ManagedProcess[], ready: Promise<unknown>): Promise<void> {
  try {
    await ready;
  } catch (error) {
    await Promise.all(children.map((child) => child.stop()));
    throw error;
  }
}

/** Starts the Cosmos emulator as its own process, keeping data in `dataDir/cosmos`. */
export async function startCosmos(
  port: number,
  dataDir: string,
  output: OutputSink,
): Promise<ManagedProcess> {
  const cosmos = startProcess({
    name: 'cosmos',
    ...tsx('functions/dev/cosmos/main.ts', [
      '--port',
      String(port),
      '--data',
      join(dataDir, 'cosmos'),
    ]),
    cwd: repoRoot,
    env: process.env,
    output,
  });
  // The port opens before the data on disk is loaded; the ready line comes after.
  await stopOnFailure([cosmos], cosmos.waitForLine(/cosmos emulator ready/, 120_000));
  return cosmos;
}

/** Starts Azurite's blob and queue services, keeping data in `dataDir/azurite`. */
export async function startAzurite(
  ports: { blob: number; queue: number },
  dataDir: string,
  output: OutputSink,
): Promise<ManagedProcess[]> {
  const location = join(dataDir, 'azurite');
  mkdirSync(location, { recursive: true });
  const common = [
    '--location',
    location,
    '--skipApiVersionCheck',
    '--silent',
    '--disableTelemetry',
  ];
  const blob = startProcess({
    name: 'azurite-blob',
    ...supervised([
      process.execPath,
      require.resolve('azurite/dist/src/blob/main.js'),
      '--blobPort',
      String(ports.blob),
      ...common,
    ]),
    cwd: repoRoot,
    env: process.env,
    output,
  });
  const queue = startProcess({
    name: 'azurite-queue',
    ...supervised([
      process.execPath,
      require.resolve('azurite/dist/src/queue/main.js'),
      '--queuePort',
      String(ports.queue),
      ...common,
    ]),
    cwd: repoRoot,
    env: process.env,
    output,
  });
  await stopOnFailure(
    [blob, queue],
    Promise.all([waitForPort(ports.blob, blob), waitForPort(ports.queue, queue)]),
  );
  return [blob, queue];
}

/**
 * The functions and the dev host as plain JavaScript, the way Azure runs a Function App: a
 * TypeScript loader would cost the host a thread of its own and every module's inline source map
 * (some 65 MB of its memory). Each host gets its own build, so hosts started side by side (the
 * tests beside `npm start`) never read one another's half-written files.
 */
async function buildHost(): Promise<string> {
  const { build } = await import('esbuild');
  const functions = join(repoRoot, 'functions');
  const cache = join(repoRoot, 'node_modules/.cache/lotwise-host');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(join(cache, 'build-'));
  const sources = ['src', 'dev'].flatMap((folder) =>
    readdirSync(join(functions, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => join(functions, folder, file)),
  );
  await build({
    entryPoints: sources,
    outbase: functions,
    outdir,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(functions, 'tsconfig.json'),
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'error',
  }).catch((error: unknown) => {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  });
  // Its name and version for the settings, and "type": "module" for the output.
  copyFileSync(join(functions, 'package.json'), join(outdir, 'package.json'));
  return outdir;
}

/**
 * Starts a dev host serving the auth and domain route tables, or one app's alone. Node runs it
 * with the arguments of `languageWorkers__node__arguments` alone (the heap cap, and locally source
 * maps), as the Functions host runs its Node worker.
 */
export async function startHost(
  options: StackOptions,
  app: 'auth' | 'domain' | 'all' = 'all',
): Promise<ManagedProcess> {
  const build = await buildHost();
  const nodeArguments = (options.settings.languageWorkers__node__arguments ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const host = startProcess({
    name: app === 'all' ? 'host' : `host-${app}`,
    command: process.execPath,
    args: [...nodeArguments, join(build, 'dev/host/main.js')],
    cwd: repoRoot,
    env: {
      ...process.env,
      ...options.settings,
      ...(app === 'all' ? {} : { FUNCTIONS_SERVICE: app }),
      LOTWISE_ROOT: repoRoot,
      LOTWISE_AUTH_PORT: String(options.ports.auth),
      LOTWISE_DOMAIN_PORT: String(options.ports.domain),
    },
    output: options.output,
  });
  void host.exited.then(() => rmSync(build, { recursive: true, force: true }));
  await stopOnFailure(
    [host],
    Promise.all(
      (['auth', 'domain'] as const)
        .filter((served) => app === 'all' || app === served)
        .map((served) => waitForHttp(`http://localhost:${options.ports[served]}/health`, host)),
    ),
  );
  return host;
}

/** The whole local back end: emulators where the settings ask for them, then the dev host. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  mkdirSync(options.dataDir, { recursive: true });
  const processes: Record<string, ManagedProcess> = {};
  let platforms: PlatformSandbox | undefined;
  let stripe: LocalStripe | undefined;
  const stop = async () => {
    for (const name of [
      'host',
      'host-auth',
      'host-domain',
      'azurite-queue',
      'azurite-blob',
      'cosmos',
    ]) {
      await processes[name]?.stop();
    }
    await platforms?.close();
    await stripe?.close();
  };
  try {
    const { cosmos, azurite } = options.ports;
    // In this process: it is small, seeded in memory, and ready as soon as it listens.
    if (options.ports.platforms !== undefined) {
      platforms = await startPlatformSandbox({ port: options.ports.platforms });
    }
    // In this process too; its state persists under `dataDir/stripe`, and its webhooks go to the
    // domain service (retried until the host is up).
    if (options.ports.stripe !== undefined) {
      const { settings } = options;
      stripe = await startLocalStripe({
        port: options.ports.stripe,
        dataDir: options.dataDir,
        ...(settings.STRIPE_SECRET_KEY ? { secretKey: settings.STRIPE_SECRET_KEY } : {}),
        ...(settings.STRIPE_PUBLISHABLE_KEY
          ? { publishableKey: settings.STRIPE_PUBLISHABLE_KEY }
          : {}),
        ...(settings.STRIPE_WEBHOOK_SECRET
          ? {
              webhook: {
                url: `http://localhost:${options.ports.domain}/billing/webhook`,
                secret: settings.STRIPE_WEBHOOK_SECRET,
              },
            }
          : {}),
      });
    }
    const started = await Promise.allSettled([
      cosmos === undefined
        ? []
        : startCosmos(cosmos, options.dataDir, options.output).then((p) => [p]),
      azurite === undefined ? [] : startAzurite(azurite, options.dataDir, options.output),
    ]);
    for (const result of started) {
      if (result.status === 'fulfilled')
        for (const child of result.value) processes[child.name] = child;
    }
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    if (options.hosts === 'per-app') {
      const hosts = await Promise.allSettled([
        startHost(options, 'auth'),
        startHost(options, 'domain'),
      ]);
      for (const result of hosts) {
        if (result.status === 'fulfilled') processes[result.value.name] = result.value;
      }
      const refused = hosts.find((result) => result.status === 'rejected');
      if (refused) throw refused.reason;
    } else {
      processes.host = await startHost(options);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    authUrl: `http://localhost:${options.ports.auth}`,
    domainUrl: `http://localhost:${options.ports.domain}`,
    platformsUrl: platforms?.url ?? null,
    stripeUrl: stripe?.url ?? null,
    processes,
    stop,
  };
}
