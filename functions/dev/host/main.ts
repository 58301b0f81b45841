import { setTimeout as sleep } from 'node:timers/promises';
import { bootstrapCosmos } from '../../src/platform/cosmos.js';
import type { HttpFunction, QueueFunction, TimerFunction } from '../../src/platform/functions.js';
import { createLogger, stdoutSink } from '../../src/platform/logging.js';
import { settings, SettingsError } from '../../src/platform/settings.js';
import { containerDefinitions, functionsFor, installPrincipalGuards } from '../../src/registry.js';
import { repoRoot } from '../local-settings.js';
import { seedDemoTenant } from '../seed/demo-tenant.js';
import { readHostConfig } from './host-config.js';
import { startHttpHost } from './http-host.js';
import { startQueues } from './queues.js';
import { startTimers } from './timers.js';

/**
 * The local stand-in for `func start`: serves the auth table on one port and the domain table on
 * another, runs timers and queue triggers, after making sure the database exists. With
 * FUNCTIONS_SERVICE `auth` or `domain` it is that Function App alone, as in Azure.
 */
const log = createLogger(stdoutSink, 'info', { component: 'dev-host' });

try {
  settings();
} catch (error) {
  if (error instanceof SettingsError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const config = settings();
installPrincipalGuards();
const hostConfig = readHostConfig(`${repoRoot}/host.json`);
if (hostConfig.extensions.http.routePrefix !== '') {
  throw new Error(
    'host.json must set extensions.http.routePrefix to "" (the spec paths have none)',
  );
}

// The emulator may still be starting; Cosmos in Azure answers at once.
for (let attempt = 1; ; attempt += 1) {
  try {
    await bootstrapCosmos(containerDefinitions);
    break;
  } catch (error) {
    if (attempt >= 30) throw error;
    await sleep(500);
  }
}

// Split into two apps, the domain app's host seeds, so the two never race.
if (process.env.LOTWISE_SEED !== 'false' && config.FUNCTIONS_SERVICE !== 'auth') {
  await seedDemoTenant(log);
}

const service = config.FUNCTIONS_SERVICE;
const apps = (['auth', 'domain'] as const).filter((app) => service === 'all' || service === app);
const ports = {
  auth: Number(process.env.LOTWISE_AUTH_PORT ?? 7071),
  domain: Number(process.env.LOTWISE_DOMAIN_PORT ?? 7072),
};
const served = functionsFor(service);

const hosts = await Promise.all(
  apps.map((app) =>
    startHttpHost({
      name: app,
      port: ports[app],
      functions: functionsFor(app).filter((fn): fn is HttpFunction => fn.kind === 'http'),
      allowedOrigins: config.WEB_ORIGINS,
    }),
  ),
);
const timers = startTimers(served.filter((fn): fn is TimerFunction => fn.kind === 'timer'));
const queues = startQueues(
  served.filter((fn): fn is QueueFunction => fn.kind === 'queue'),
  hostConfig.extensions.queues,
);
log.info('dev host ready', Object.fromEntries(apps.map((app, at) => [app, hosts[at]?.url])));

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  timers.stop();
  void Promise.all([queues.stop(), ...hosts.map((host) => host.close())]).then(() =>
    process.exit(0),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// Started by the dev tooling: when it goes, so does this.
process.on('disconnect', shutdown);
