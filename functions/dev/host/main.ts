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
 * another, runs timers and queue triggers, after making sure the database exists.
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

if (process.env.LOTWISE_SEED !== 'false') await seedDemoTenant(log);

const http = (selection: 'auth' | 'domain') =>
  functionsFor(selection).filter((fn): fn is HttpFunction => fn.kind === 'http');
const all = functionsFor('all');

const hosts = await Promise.all([
  startHttpHost({
    name: 'auth',
    port: Number(process.env.LOTWISE_AUTH_PORT ?? 7071),
    functions: http('auth'),
    allowedOrigins: config.WEB_ORIGINS,
  }),
  startHttpHost({
    name: 'domain',
    port: Number(process.env.LOTWISE_DOMAIN_PORT ?? 7072),
    functions: http('domain'),
    allowedOrigins: config.WEB_ORIGINS,
  }),
]);
const timers = startTimers(all.filter((fn): fn is TimerFunction => fn.kind === 'timer'));
const queues = startQueues(
  all.filter((fn): fn is QueueFunction => fn.kind === 'queue'),
  hostConfig.extensions.queues,
);
log.info('dev host ready', { auth: hosts[0].url, domain: hosts[1].url });

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
// TEMP-DBG
import { appendFileSync, existsSync } from 'node:fs';
import v8dbg from 'node:v8';
if (existsSync('/tmp/dbg/NOPRETENURE'))
  v8dbg.setFlagsFromString('--no-allocation-site-pretenuring');
if (existsSync('/tmp/hostmem.enable')) {
  setInterval(() => {
    const m = process.memoryUsage();
    const mb = (n: number) => (n / 1048576).toFixed(0);
    appendFileSync(
      '/tmp/hostmem.log',
      `${new Date().toISOString()} rss=${mb(m.rss)} heap=${mb(m.heapUsed)}/${mb(m.heapTotal)} ext=${mb(m.external)} ab=${mb(m.arrayBuffers)} ${v8dbg
        .getHeapSpaceStatistics()
        .map(
          (x) =>
            `${x.space_name.replace('_space', '')}=${mb(x.space_used_size)}/${mb(x.space_size)}`,
        )
        .join(' ')}\n`,
    );
  }, 100).unref();
}
if (existsSync('/tmp/hostmem.profile')) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
  });
  setInterval(() => {
    void session
      .post('HeapProfiler.getSamplingProfile')
      .then(({ profile }) => writeFileSync('/tmp/dbg/host-major.json', JSON.stringify(profile)));
  }, 3000).unref();
}
if (existsSync('/tmp/hostmem.enable')) {
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const oldUsed = () =>
    v8dbg.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')
      ?.space_used_size ?? 0;
  let previous = oldUsed();
  let promoted = 0;
  let minors = 0;
  let majors = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail: { kind: number } }).detail.kind;
      const now = oldUsed();
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        minors += 1;
        promoted += Math.max(0, now - previous);
      } else majors += 1;
      previous = now;
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    appendFileSync(
      '/tmp/hostmem.log',
      `GC minors=${minors} majors=${majors} promotedMB=${(promoted / 1048576).toFixed(1)} lat=${(() => {
        const l = [...((globalThis as { lat?: number[] }).lat ?? [])].sort((a, b) => a - b);
        return `n${l.length} p50=${l[l.length >> 1]?.toFixed(0)} p90=${l[Math.floor(l.length * 0.9)]?.toFixed(0)}`;
      })()}\n`,
    );
  }, 2000).unref();
}
if (existsSync('/tmp/dbg/CPUPROF_HOST')) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  let chunk = 0;
  setInterval(() => {
    void session.post('Profiler.stop').then(async ({ profile }) => {
      chunk += 1;
      writeFileSync(`/tmp/dbg/host-${chunk}.cpuprofile`, JSON.stringify(profile));
      await session.post('Profiler.start');
    });
  }, 4000).unref();
}
