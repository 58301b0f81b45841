import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, get } from 'node:http';
import { repoRoot } from '../../functions/dev/local-settings.js';
import { bidderFigures } from './bidders.js';
import { identityFigures } from './identity.js';
import { round, summarise, type Summary } from './stats.js';

/**
 * `npm run bench`: figures for the foundation, in one run.
 *  1. The emulator's query engine at 20,000 documents, before and after our patch.
 *  2. The dev host's overhead per request against a bare node:http handler.
 *  3. Sign-in and access-token costs.
 *  4. Bidders: the list at 50,000 bidders against the bare SDK query, a 100,000-row import, the
 *     duplicate matcher's speed, recall and precision, and a full custom-score recompute.
 */

function runChild(script: string, args: string[] = []) {
  return spawn(process.execPath, ['--import', 'tsx', join(repoRoot, script), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function firstJsonLine<T>(child: ReturnType<typeof runChild>): Promise<T> {
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (line.startsWith('{')) return JSON.parse(line) as T;
  }
  throw new Error('the benchmark child printed no result');
}

interface QueryFigures {
  engine: string;
  documents: number;
  returned: number;
  engineOnly: Summary;
  throughEmulator: Summary;
}

async function queryFigures(engine: 'patched' | 'unpatched'): Promise<QueryFigures> {
  const child = runChild('tests/bench/emulator-query.ts', ['--engine', engine, '--docs', '20000']);
  const result = await firstJsonLine<QueryFigures>(child);
  await new Promise((resolve) => child.once('exit', resolve));
  return result;
}

async function load(url: string, agent: Agent, requests: number, concurrency: number) {
  const samples: number[] = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < requests) {
        issued += 1;
        const begin = performance.now();
        await new Promise<void>((resolve, reject) => {
          get(url, { agent }, (response) => {
            response.resume();
            response.once('end', () =>
              response.statusCode === 200
                ? resolve()
                : reject(new Error(`${url} answered ${response.statusCode}`)),
            );
          }).once('error', reject);
        });
        samples.push(performance.now() - begin);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...summarise(samples), perSecond: requests / seconds };
}

async function hostFigures() {
  const child = runChild('tests/bench/http-servers.ts');
  const urls = await firstJsonLine<{ bare: string; hostRaw: string; hostWrapped: string }>(child);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const requests = 4000;
  const concurrency = 16;
  try {
    for (const url of Object.values(urls)) await load(url, agent, 500, concurrency);
    // Interleaved rounds so that drift in the machine's load falls on all three alike.
    const rounds: Record<keyof typeof urls, Awaited<ReturnType<typeof load>>[]> = {
      bare: [],
      hostRaw: [],
      hostWrapped: [],
    };
    for (let round = 0; round < 3; round += 1) {
      for (const key of Object.keys(urls) as (keyof typeof urls)[]) {
        rounds[key].push(await load(urls[key], agent, requests, concurrency));
      }
    }
    const best = (key: keyof typeof urls) =>
      rounds[key].reduce((fastest, candidate) =>
        candidate.mean < fastest.mean ? candidate : fastest,
      );
    return {
      requests,
      concurrency,
      bare: best('bare'),
      hostRaw: best('hostRaw'),
      hostWrapped: best('hostWrapped'),
    };
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
  }
}

const identity = await identityFigures();
const before = await queryFigures('unpatched');
const after = await queryFigures('patched');
const host = await hostFigures();
const bidders = await bidderFigures();

const report = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  emulatorQuery: {
    query: 'SELECT TOP 50 * … WHERE accountId AND tier ORDER BY lotwiseScore DESC',
    documents: after.documents,
    engineOnlyMs: { before: round(before.engineOnly.p50), after: round(after.engineOnly.p50) },
    throughEmulatorMs: {
      before: round(before.throughEmulator.p50),
      after: round(after.throughEmulator.p50),
      afterP95: round(after.throughEmulator.p95),
    },
    speedup: round(before.throughEmulator.p50 / after.throughEmulator.p50, 1),
  },
  devHost: {
    requests: host.requests,
    concurrency: host.concurrency,
    meanMs: {
      bare: round(host.bare.mean, 3),
      hostRaw: round(host.hostRaw.mean, 3),
      hostWrapped: round(host.hostWrapped.mean, 3),
    },
    requestsPerSecond: {
      bare: Math.round(host.bare.perSecond),
      hostRaw: Math.round(host.hostRaw.perSecond),
      hostWrapped: Math.round(host.hostWrapped.perSecond),
    },
    overheadRatio: {
      hostRaw: round(host.hostRaw.mean / host.bare.mean),
      hostWrapped: round(host.hostWrapped.mean / host.bare.mean),
    },
  },
  identity: {
    argon2: identity.argon2.options,
    passwordHashMs: round(identity.argon2.hashMs.p50),
    passwordVerifyMs: round(identity.argon2.verifyMs.p50),
    signInMs: {
      p50: round(identity.signIn.sequentialMs.p50),
      p95: round(identity.signIn.sequentialMs.p95),
    },
    signInAt8Concurrent: {
      p50: round(identity.signIn.concurrent8Ms.p50),
      p95: round(identity.signIn.concurrent8Ms.p95),
      perSecond: round(identity.signIn.concurrentPerSecond, 1),
    },
    tokenVerificationMicros: {
      signatureOnly: round(identity.tokenVerification.signatureOnlyMicros, 1),
      withSessionCheck: round(identity.tokenVerification.withSessionCheckMicros, 1),
    },
  },
  bidders,
};

mkdirSync(join(repoRoot, 'tests', 'artifacts'), { recursive: true });
writeFileSync(
  join(repoRoot, 'tests', 'artifacts', 'bench.json'),
  `${JSON.stringify(report, null, 2)}\n`,
);
process.stdout.write(`
Emulator query, ${report.emulatorQuery.documents} documents (${report.emulatorQuery.query})
  engine alone        before ${report.emulatorQuery.engineOnlyMs.before} ms   after ${report.emulatorQuery.engineOnlyMs.after} ms (p50)
  through emulator    before ${report.emulatorQuery.throughEmulatorMs.before} ms   after ${report.emulatorQuery.throughEmulatorMs.after} ms (p50; p95 ${report.emulatorQuery.throughEmulatorMs.afterP95} ms)
  speed-up            ${report.emulatorQuery.speedup}x

Dev host, ${host.requests} GET requests at concurrency ${host.concurrency} (best of 3 interleaved rounds)
  bare node:http      ${report.devHost.meanMs.bare} ms mean   ${report.devHost.requestsPerSecond.bare} req/s
  dev host, raw       ${report.devHost.meanMs.hostRaw} ms mean   ${report.devHost.requestsPerSecond.hostRaw} req/s   ratio ${report.devHost.overheadRatio.hostRaw}x
  dev host + wrapper  ${report.devHost.meanMs.hostWrapped} ms mean   ${report.devHost.requestsPerSecond.hostWrapped} req/s   ratio ${report.devHost.overheadRatio.hostWrapped}x

Sign-in (Argon2id m=${report.identity.argon2.memoryCost} KiB, t=${report.identity.argon2.timeCost}, p=${report.identity.argon2.parallelism})
  password hash       ${report.identity.passwordHashMs} ms   verify ${report.identity.passwordVerifyMs} ms (p50)
  POST /login         p50 ${report.identity.signInMs.p50} ms   p95 ${report.identity.signInMs.p95} ms (one at a time)
  8 at once           p50 ${report.identity.signInAt8Concurrent.p50} ms   p95 ${report.identity.signInAt8Concurrent.p95} ms   ${report.identity.signInAt8Concurrent.perSecond} sign-ins/s
  access token        ${report.identity.tokenVerificationMicros.signatureOnly} µs signature only   ${report.identity.tokenVerificationMicros.withSessionCheck} µs with the session check

${biddersSummary()}
Saved to tests/artifacts/bench.json
`);

function biddersSummary() {
  const { list, matcher, recompute, duplicateScan, seeding } = bidders;
  const listLine = (name: string, figures: (typeof list)[string]) =>
    `  ${name.padEnd(18)}  route p50 ${figures.routeMs.p50} ms  p95 ${figures.routeMs.p95} ms   SDK p50 ${figures.sdkMs.p50} ms  p95 ${figures.sdkMs.p95} ms   ratio p50 ${figures.ratio.p50}x  p95 ${figures.ratio.p95}x   (one at a time: ${figures.oneAtATimeMs.route} vs ${figures.oneAtATimeMs.sdk} ms; failed ${figures.failed.route}/${figures.failed.sdk})`;
  const importing = bidders.import;
  return `Bidders
  GET /listBidders, ${seeding.bidders} bidders (seeded in ${seeding.seconds} s), ${Object.values(list)[0]?.concurrency} concurrent clients, page of 50
${Object.entries(list)
  .map(([name, figures]) => listLine(name, figures))
  .join('\n')}
  import              ${importing.rows} CSV rows (${importing.files} file, ${round(importing.requestBytes / 1048576, 1)} MB) in ${importing.seconds} s = ${importing.rowsPerSecond} rows/s; dev host RSS ${importing.hostRssMb.before} MB before, peak ${importing.hostRssMb.peakKernel} MB
  duplicate matcher   ${matcher.bidders} bidders, ${matcher.injectedPairs} injected pairs: ${matcher.seconds} s, recall ${matcher.recall}, precision ${matcher.precision}
  duplicate scan      POST /duplicates/scan over ${duplicateScan.scanned} bidders: ${duplicateScan.seconds} s (${duplicateScan.pending} pending, ${duplicateScan.autoMerged} auto-merged)
  recompute           ${recompute.bidders} custom scores: ${recompute.seconds} s from PUT to completed (job ${recompute.jobSeconds} s)
`;
}
