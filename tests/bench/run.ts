import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, get } from 'node:http';
import { repoRoot } from '../../functions/dev/local-settings.js';
import { AUCTION_PARTS, auctionFigures, type AuctionFigures } from './auctions.js';
import { BIDDER_PARTS, bidderFigures, type BidderFigures } from './bidders.js';
import { identityFigures } from './identity.js';
import { INTEGRATION_PARTS, integrationFigures, type IntegrationFigures } from './integrations.js';
import { legalFigures, type LegalFigures } from './legal.js';
import { paymentFigures, paymentsSummary } from './payments.js';
import { round, summarise, type Summary } from './stats.js';
import { UPLOAD_PARTS, uploadFigures, uploadsSummary } from './uploads.js';

/**
 * `npm run bench`: figures for the foundation, in one run (or some parts of it, see PARTS).
 *  1. The emulator's query engine at 20,000 documents, before and after our patch.
 *  2. The dev host's overhead per request against a bare node:http handler.
 *  3. Sign-in and access-token costs.
 *  4. Bidders: the list at 50,000 bidders against the bare SDK query, a 100,000-row import, the
 *     duplicate matcher's speed, recall and precision, a full custom-score recompute, and one
 *     tenant's list alone and among ten tenants.
 *  5. Auctions: the list at 5,000 auctions against the bare SDK query, the bidder assessment at
 *     10,000 bidders, and a 2,000-lot catalogue import.
 *  6. Platform integrations: the first sync of 1,000 auctions of 50 lots and a no-change sync,
 *     and a 20,000-bidder platform import with 5% already known.
 *  7. Legal: the case list at 10,000 cases (the screen's 1,000 rows, a filtered page, a later
 *     page of a search) against the bare SDK query.
 *  8. Payments: invoices for 2,000 lots and 500 buyers, settlements and a statement PDF, and an
 *     .xlsx export of 50,000 transactions (time and the host's memory).
 *  9. Uploads: a 100 MB upload through the browser path, 500,000 bidder rows through the queue
 *     worker (rows/s and the host's peak RSS), 10,000 conflicts listed and 1,000 resolved in bulk.
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

/**
 * BENCH=identity,query,host,bidders,auctions,integrations,legal,payments,uploads picks the parts (all by default), BENCH_BIDDERS the
 * bidder parts (see bidders.ts) and BENCH_AUCTIONS the auction parts (see auctions.ts); a part
 * may also be named as an argument (`npm run bench -- auctions`). A run of every part writes
 * tests/artifacts/bench.json; a partial run writes tests/artifacts/bench-<parts>.json, so it
 * never replaces the full figures.
 */
const PARTS = [
  'identity',
  'query',
  'host',
  'bidders',
  'auctions',
  'integrations',
  'legal',
  'payments',
  'uploads',
];
const named = process.argv.slice(2).filter((argument) => PARTS.includes(argument));
const parts = named.length ? named : process.env.BENCH ? process.env.BENCH.split(',') : PARTS;
const bidderParts = process.env.BENCH_BIDDERS ? process.env.BENCH_BIDDERS.split(',') : BIDDER_PARTS;
const auctionParts = process.env.BENCH_AUCTIONS
  ? process.env.BENCH_AUCTIONS.split(',')
  : AUCTION_PARTS;
const uploadParts = process.env.BENCH_UPLOADS ? process.env.BENCH_UPLOADS.split(',') : UPLOAD_PARTS;
const integrationParts = process.env.BENCH_INTEGRATIONS
  ? process.env.BENCH_INTEGRATIONS.split(',')
  : INTEGRATION_PARTS;
const everything =
  PARTS.every((part) => parts.includes(part)) &&
  BIDDER_PARTS.every((part) => bidderParts.includes(part)) &&
  AUCTION_PARTS.every((part) => auctionParts.includes(part)) &&
  INTEGRATION_PARTS.every((part) => integrationParts.includes(part)) &&
  UPLOAD_PARTS.every((part) => uploadParts.includes(part));
const when = async <T>(part: string, figures: () => Promise<T>) =>
  parts.includes(part) ? figures() : null;

const identity = await when('identity', identityFigures);
const queries = await when('query', async () => ({
  before: await queryFigures('unpatched'),
  after: await queryFigures('patched'),
}));
const host = await when('host', hostFigures);
const bidders = await when('bidders', () => bidderFigures(bidderParts));
const auctions = await when('auctions', () => auctionFigures(auctionParts));
const integrations = await when('integrations', () => integrationFigures(integrationParts));
const legal = await when('legal', legalFigures);
const payments = await when('payments', paymentFigures);
const uploads = await when('uploads', () => uploadFigures(uploadParts));

const report = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  emulatorQuery: queries && emulatorQueryReport(queries.before, queries.after),
  devHost: host && devHostReport(host),
  identity: identity && identityReport(identity),
  bidders,
  auctions,
  integrations,
  legal,
  payments,
  uploads,
};

function emulatorQueryReport(before: QueryFigures, after: QueryFigures) {
  return {
    query: 'SELECT TOP 50 * … WHERE accountId AND tier ORDER BY lotwiseScore DESC',
    documents: after.documents,
    engineOnlyMs: { before: round(before.engineOnly.p50), after: round(after.engineOnly.p50) },
    throughEmulatorMs: {
      before: round(before.throughEmulator.p50),
      after: round(after.throughEmulator.p50),
      afterP95: round(after.throughEmulator.p95),
    },
    speedup: round(before.throughEmulator.p50 / after.throughEmulator.p50, 1),
  };
}

function devHostReport(host: Awaited<ReturnType<typeof hostFigures>>) {
  return {
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
  };
}

function identityReport(identity: Awaited<ReturnType<typeof identityFigures>>) {
  return {
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
  };
}

const artifact = everything
  ? 'bench.json'
  : `bench-${[
      ...parts,
      ...(parts.includes('bidders') ? bidderParts : []),
      ...(parts.includes('auctions') ? auctionParts : []),
      ...(parts.includes('integrations') ? integrationParts : []),
      ...(parts.includes('uploads') ? uploadParts : []),
    ].join('-')}.json`;
mkdirSync(join(repoRoot, 'tests', 'artifacts'), { recursive: true });
writeFileSync(
  join(repoRoot, 'tests', 'artifacts', artifact),
  `${JSON.stringify(report, null, 2)}\n`,
);
process.stdout.write(
  `\n${[
    report.emulatorQuery && emulatorQuerySummary(report.emulatorQuery),
    report.devHost && host && devHostSummary(report.devHost, host),
    report.identity && identitySummary(report.identity),
    bidders && biddersSummary(bidders),
    auctions && auctionsSummary(auctions),
    integrations && integrationsSummary(integrations),
    legal && legalSummary(legal),
    payments && paymentsSummary(payments),
    uploads && uploadsSummary(uploads),
  ]
    .filter(Boolean)
    .join('\n')}\nSaved to tests/artifacts/${artifact}\n`,
);

function emulatorQuerySummary(figures: ReturnType<typeof emulatorQueryReport>) {
  return `Emulator query, ${figures.documents} documents (${figures.query})
  engine alone        before ${figures.engineOnlyMs.before} ms   after ${figures.engineOnlyMs.after} ms (p50)
  through emulator    before ${figures.throughEmulatorMs.before} ms   after ${figures.throughEmulatorMs.after} ms (p50; p95 ${figures.throughEmulatorMs.afterP95} ms)
  speed-up            ${figures.speedup}x
`;
}

function devHostSummary(
  figures: ReturnType<typeof devHostReport>,
  measured: Awaited<ReturnType<typeof hostFigures>>,
) {
  return `Dev host, ${measured.requests} GET requests at concurrency ${measured.concurrency} (best of 3 interleaved rounds)
  bare node:http      ${figures.meanMs.bare} ms mean   ${figures.requestsPerSecond.bare} req/s
  dev host, raw       ${figures.meanMs.hostRaw} ms mean   ${figures.requestsPerSecond.hostRaw} req/s   ratio ${figures.overheadRatio.hostRaw}x
  dev host + wrapper  ${figures.meanMs.hostWrapped} ms mean   ${figures.requestsPerSecond.hostWrapped} req/s   ratio ${figures.overheadRatio.hostWrapped}x
`;
}

function identitySummary(figures: ReturnType<typeof identityReport>) {
  return `Sign-in (Argon2id m=${figures.argon2.memoryCost} KiB, t=${figures.argon2.timeCost}, p=${figures.argon2.parallelism})
  password hash       ${figures.passwordHashMs} ms   verify ${figures.passwordVerifyMs} ms (p50)
  POST /login         p50 ${figures.signInMs.p50} ms   p95 ${figures.signInMs.p95} ms (one at a time)
  8 at once           p50 ${figures.signInAt8Concurrent.p50} ms   p95 ${figures.signInAt8Concurrent.p95} ms   ${figures.signInAt8Concurrent.perSecond} sign-ins/s
  access token        ${figures.tokenVerificationMicros.signatureOnly} µs signature only   ${figures.tokenVerificationMicros.withSessionCheck} µs with the session check
`;
}

type ListFigures = NonNullable<BidderFigures['list']>;

function listLine(name: string, figures: ListFigures[string]) {
  return `  ${name.padEnd(18)}  route p50 ${figures.routeMs.p50} ms  p95 ${figures.routeMs.p95} ms   SDK p50 ${figures.sdkMs.p50} ms  p95 ${figures.sdkMs.p95} ms   ratio p50 ${figures.ratio.p50}x  p95 ${figures.ratio.p95}x   (one at a time: ${figures.oneAtATimeMs.route} vs ${figures.oneAtATimeMs.sdk} ms; failed ${figures.failed.route}/${figures.failed.sdk})`;
}

function listLines(list: ListFigures) {
  return Object.entries(list)
    .map(([name, figures]) => listLine(name, figures))
    .join('\n');
}

function biddersSummary(figures: BidderFigures) {
  const { list, matcher, recompute, duplicateScan, seeding, multiTenant } = figures;
  const importing = figures.import;
  return [
    'Bidders',
    list &&
      seeding &&
      `  GET /listBidders, ${seeding.bidders} bidders (seeded in ${seeding.seconds} s), ${Object.values(list)[0]?.concurrency} concurrent clients, page of 50\n${listLines(list)}`,
    importing &&
      `  import              ${importing.rows} CSV rows (${importing.files} file, ${round(importing.requestBytes / 1048576, 1)} MB) in ${importing.seconds} s = ${importing.rowsPerSecond} rows/s; dev host RSS ${importing.hostRssMb.before} MB before, peak ${importing.hostRssMb.peakKernel} MB`,
    matcher &&
      `  duplicate matcher   ${matcher.bidders} bidders, ${matcher.injectedPairs} injected pairs: ${matcher.seconds} s, recall ${matcher.recall}, precision ${matcher.precision}`,
    duplicateScan &&
      `  duplicate scan      POST /duplicates/scan over ${duplicateScan.scanned} bidders: ${duplicateScan.seconds} s (${duplicateScan.pending} pending, ${duplicateScan.autoMerged} auto-merged)`,
    recompute &&
      `  recompute           ${recompute.bidders} custom scores: ${recompute.seconds} s from PUT to completed (job ${recompute.jobSeconds} s); progress seen at ${recompute.progressSeen.length} counts while running, polled every 250 ms`,
    multiTenant &&
      `  one tenant of ${multiTenant.biddersPerTenant} alone\n${listLines(multiTenant.alone)}\n  the same tenant among ${multiTenant.tenants} of ${multiTenant.biddersPerTenant} each\n${listLines(multiTenant.amongTenants)}\n${Object.entries(
        multiTenant.ratioToAlone,
      )
        .map(
          ([name, ratio]) =>
            `  ${name.padEnd(18)}  among ${multiTenant.tenants} / alone: route p50 ${ratio.route.p50}x  p95 ${ratio.route.p95}x  one at a time ${ratio.route.oneAtATime}x   SDK p50 ${ratio.sdk.p50}x  p95 ${ratio.sdk.p95}x  one at a time ${ratio.sdk.oneAtATime}x`,
        )
        .join('\n')}`,
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}

function auctionsSummary(figures: AuctionFigures) {
  const { list, assessment } = figures;
  const importing = figures.import;
  type Variant = {
    url: string;
    total: number;
    samePageAsSdk: boolean;
    oneAtATime: Record<'routeMs' | 'sdkMs', { p50: number; p95: number }> & {
      ratio: { p50: number; p95: number };
    };
    concurrent: Record<'routeMs' | 'sdkMs', { p50: number; p95: number }> & {
      clients: number;
      ratio: { p50: number; p95: number };
    };
  };
  const variantLine = ([name, variant]: [string, Variant]) =>
    `  ${name.padEnd(16)}  one at a time: route p50 ${variant.oneAtATime.routeMs.p50} ms  p95 ${variant.oneAtATime.routeMs.p95} ms   SDK p50 ${variant.oneAtATime.sdkMs.p50} ms  p95 ${variant.oneAtATime.sdkMs.p95} ms   ratio p50 ${variant.oneAtATime.ratio.p50}x  p95 ${variant.oneAtATime.ratio.p95}x\n  ${''.padEnd(16)}  ${variant.concurrent.clients} at once:    route p50 ${variant.concurrent.routeMs.p50} ms  p95 ${variant.concurrent.routeMs.p95} ms   SDK p50 ${variant.concurrent.sdkMs.p50} ms  p95 ${variant.concurrent.sdkMs.p95} ms   ratio p50 ${variant.concurrent.ratio.p50}x  p95 ${variant.concurrent.ratio.p95}x   (${variant.total} match; same page as SDK: ${variant.samePageAsSdk})`;
  return [
    'Auctions',
    list &&
      `  GET /listAuctions, ${list.auctions} auctions (seeded in ${list.seededSeconds} s), page of 50\n${Object.entries(
        list.variants as Record<string, Variant>,
      )
        .map(variantLine)
        .join(
          '\n',
        )}\n  ${'GET one auction'.padEnd(16)}  one at a time: p50 ${list.getOneAuctionMs.p50} ms  p95 ${list.getOneAuctionMs.p95} ms (the fixed cost of a route: host, token, a point read)`,
    assessment &&
      `  assessment          ${assessment.bidders} bidders, ${assessment.lots} lots: route p50 ${assessment.routeMs.p50} ms  p95 ${assessment.routeMs.p95} ms (${assessment.requests} requests; the facts query alone p50 ${assessment.factsQueryMs.p50} ms)`,
    importing &&
      `  catalogue import    ${importing.lots} lots (${Math.round(importing.fileBytes / 1024)} KB CSV): ${importing.newLots.seconds} s new, ${importing.sameFileAgain.seconds} s again as updates; lot count ${importing.lotCountAfterwards}`,
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}

function integrationsSummary({ auctions, bidders }: IntegrationFigures) {
  return [
    'Platform integrations (ProxyBid in the local platform sandbox)',
    auctions &&
      `  first sync          ${auctions.auctions} auctions × ${auctions.lotsPerAuction} lots: ${auctions.firstSync.seconds} s (${auctions.firstSync.imported.auctions} auctions, ${auctions.firstSync.imported.lots} lots imported)\n  no-change sync      ${auctions.noChangeSync.seconds} s (${auctions.noChangeSync.counts.unchanged} unchanged)`,
    bidders &&
      `  bidder import       ${bidders.platformBidders} platform bidders, ${bidders.alreadyKnown} of them among ${bidders.lotwiseBidders} Lotwise bidders: ${bidders.seconds} s (${bidders.perSecond}/s)\n  known ones found    ${bidders.found.sameBidder} as the same bidder, ${bidders.found.forReview} for review; recall ${bidders.recall}, precision ${bidders.precision}`,
  ]
    .filter(Boolean)
    .join('\n');
}

function legalSummary({ cases, seededSeconds, variants, getOneCaseMs }: LegalFigures) {
  const pair = (route: { p50: number; p95: number }, sdk: { p50: number; p95: number }) =>
    `route p50 ${route.p50} ms  p95 ${route.p95} ms   SDK p50 ${sdk.p50} ms  p95 ${sdk.p95} ms`;
  return `Legal
  GET /listLegalCases, ${cases} cases (seeded in ${seededSeconds} s)
${Object.entries(variants)
  .map(
    ([name, variant]) =>
      `  ${name.padEnd(18)}  one at a time: ${pair(variant.oneAtATime.routeMs, variant.oneAtATime.sdkMs)}   ratio p50 ${variant.oneAtATime.ratio.p50}x  p95 ${variant.oneAtATime.ratio.p95}x   (the count alone p50 ${variant.oneAtATime.countSdkMs.p50} ms)\n  ${''.padEnd(18)}  ${variant.concurrent.clients} at once:    ${pair(variant.concurrent.routeMs, variant.concurrent.sdkMs)}   ratio p50 ${variant.concurrent.ratio.p50}x  p95 ${variant.concurrent.ratio.p95}x   (${variant.rows} of ${variant.total} rows, ${Math.round(variant.routeBytes / 1024)} KB; same page as SDK: ${variant.samePageAsSdk})`,
  )
  .join('\n')}
  ${'GET one case'.padEnd(18)}  one at a time: p50 ${getOneCaseMs.p50} ms  p95 ${getOneCaseMs.p95} ms (the fixed cost of a route: host, token, a point read)
`;
}
