import { readFileSync, writeFileSync } from 'node:fs';
import type { Container, JSONObject, SqlParameter } from '@azure/cosmos';
import { startTestStack, type TestStack } from '../support/test-stack.js';
import { generatePeople, generator, pairKey, statsFor } from './bidder-data.js';
import { agent, cosmosFor, json, multipart, newOwner, send, type Owner } from './client.js';
import { round, summarise, type Summary } from './stats.js';

/**
 * Figures for the bidders feature:
 *  1. GET /listBidders on a 50,000-bidder tenant at 20 concurrent clients, against the same
 *     Cosmos query issued directly with the SDK in the same run.
 *  2. A 100,000-row CSV through POST /data-upload/bidders/import: rows per second and the dev
 *     host's peak RSS while it runs.
 *  3. findDuplicates in-process over 100,000 bidders with 2% injected near-duplicates: time,
 *     recall and precision; and POST /duplicates/scan end to end on the 50,000-bidder tenant.
 *  4. Recomputing 50,000 custom scores after PUT /scoring/settings, until the job completes.
 *  5. One tenant's list (as in 1) at 20,000 bidders alone, and again once nine more tenants hold
 *     20,000 each.
 * Each stack-backed part starts its own throw-away stack, so one part's data and background work
 * never weigh on another's figures.
 */

const TENANT_BIDDERS = 50_000;
const TENANT_DUPLICATES = 1_000;
const TENANTS = 10;
const TENANTS_BIDDERS = 20_000;
const IMPORT_ROWS = 100_000;
const MATCH_BIDDERS = 100_000;
const MATCH_DUPLICATES = 2_000;
const CONCURRENCY = 20;
// 400 samples a way: a p95 of fewer is one or two slow requests.
const LIST_ROUNDS = 10;
const LIST_REQUESTS_PER_ROUND = 40;
const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

const progress = (message: string) => process.stderr.write(`bench · bidders: ${message}\n`);

/** Scored bidders written straight to Cosmos in transactional batches of 100. */
async function seedTenant(
  bidders: Container,
  accountId: string,
  options: { count: number; duplicates: number; seed: number; statsSeed: number } = {
    count: TENANT_BIDDERS,
    duplicates: TENANT_DUPLICATES,
    seed: 4242,
    statsSeed: 99,
  },
) {
  const { buildBidder } = await import('../../functions/src/bidders/bidders.service.js');
  const { defaultScoringSettings } = await import('../../functions/src/scoring/scoring.service.js');
  const settings = defaultScoringSettings();
  const { people, injected } = generatePeople(options.count, options.duplicates, options.seed, 't');
  const random = generator(options.statsSeed);
  const now = new Date();
  const started = performance.now();
  const records = people.map((person, index) => ({
    ...buildBidder(
      { scope: { accountId }, actor: null },
      {
        bidderId: `S${String(index).padStart(6, '0')}`,
        firstName: person.firstName,
        lastName: person.lastName,
        email: person.email ?? '',
        ...(person.phone ? { phone: person.phone } : {}),
        address: person.address,
        status: person.status,
        preferredCategories: [],
        preferredPaymentMethod: 'Credit Card',
        marketingOptOut: false,
        stats: statsFor(random, now),
      },
      settings,
      now,
    ),
    email: person.email,
  }));
  const built = performance.now() - started;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < records.length) {
        const batch = records.slice(next, next + 100);
        next += 100;
        const response = await bidders.items.batch(
          batch.map((record) => ({
            operationType: 'Create' as const,
            resourceBody: record as unknown as JSONObject,
          })),
          accountId,
        );
        if (response.result?.some((entry) => entry.statusCode >= 400))
          throw new Error('a seeding batch was refused');
      }
    }),
  );
  return {
    bidders: records.length,
    injectedDuplicates: injected.size,
    buildMs: built,
    seconds: (performance.now() - started) / 1000,
  };
}

/** `requests` calls spread over `concurrency` clients; the latency of each that succeeded. */
async function load(action: () => Promise<void>, requests: number, concurrency = CONCURRENCY) {
  const samples: number[] = [];
  const failures: string[] = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < requests) {
        issued += 1;
        const begin = performance.now();
        try {
          await action();
          samples.push(performance.now() - begin);
        } catch (error) {
          failures.push(String((error as Error).message ?? error).slice(0, 120));
        }
      }
    }),
  );
  return { samples, failures, seconds: (performance.now() - started) / 1000 };
}

interface ListVariant {
  name: string;
  query: Record<string, string>;
  /** The same filter as bidders.service.ts listFilter builds for that query. */
  where: string;
  parameters: SqlParameter[];
  orderBy: string;
}

/** A tenant whose list is timed: its stack, its bidders container, its account and a token. */
interface ListTarget {
  testStack: TestStack;
  bidders: Container;
  accountId: string;
  token: string;
}

/**
 * For each variant and target: one request at a time, then `CONCURRENCY` clients, route and SDK.
 * The rounds of every target and of both ways alternate, so the machine's load drifting during the
 * run falls on all of them alike.
 */
async function listFigures<K extends string>(targets: Record<K, ListTarget>) {
  const { LIST_FIELDS } = await import('../../functions/src/bidders/bidders.repo.js');
  const select = LIST_FIELDS.map((field) => `c.${field}`).join(', ');
  const variants: ListVariant[] = [
    {
      name: 'filtered',
      query: {
        status: 'Active',
        minScore: '40',
        sort: 'desc',
        scoreType: 'lotwise',
        limit: '50',
      },
      where: 'c.status = @status AND c.lotwiseScore.score >= @minScore',
      parameters: [
        { name: '@status', value: 'Active' },
        { name: '@minScore', value: 40 },
      ],
      orderBy: 'c.lotwiseScore.score DESC',
    },
    {
      name: 'search',
      query: { search: 'Sullivan', sort: 'desc', scoreType: 'lotwise', limit: '50' },
      where: 'CONTAINS(c.searchText, @search)',
      parameters: [{ name: '@search', value: 'sullivan' }],
      orderBy: 'c.lotwiseScore.score DESC',
    },
  ];
  const names = Object.keys(targets) as K[];

  const prepare = async (variant: ListVariant, target: ListTarget) => {
    const { testStack, bidders, accountId, token } = target;
    const url = `${testStack.stack.domainUrl}/listBidders?${new URLSearchParams(variant.query).toString()}`;
    const querySpec = {
      query: `SELECT ${select} FROM c WHERE c.accountId = @accountId AND (${variant.where}) ORDER BY ${variant.orderBy}`,
      parameters: [{ name: '@accountId', value: accountId }, ...variant.parameters],
    };
    const viaRoute = async () => {
      const reply = await send('GET', url, { token });
      if (reply.status !== 200)
        throw new Error(`GET /listBidders answered ${reply.status}: ${reply.text.slice(0, 300)}`);
      JSON.parse(reply.text);
    };
    const viaSdk = async () => {
      const { resources } = await bidders.items
        .query(querySpec, { partitionKey: accountId, maxItemCount: 50 })
        .fetchNext();
      JSON.stringify(resources);
    };

    // The two give the same page.
    const page = JSON.parse((await send('GET', url, { token })).text) as {
      bidders: { id: string }[];
      total: number;
    };
    const direct = await bidders.items
      .query<{ id: string }>(querySpec, { partitionKey: accountId, maxItemCount: 50 })
      .fetchNext();
    const samePage =
      page.bidders.map((bidder) => bidder.id).join() ===
      direct.resources.map((bidder) => bidder.id).join();

    // What the route's total costs when its one-minute cache is cold.
    const countSpec = {
      query: `SELECT VALUE COUNT(1) FROM c WHERE c.accountId = @accountId AND (${variant.where})`,
      parameters: querySpec.parameters,
    };
    const countStarted = performance.now();
    await bidders.items.query(countSpec, { partitionKey: accountId }).fetchAll();
    const countMs = performance.now() - countStarted;
    return {
      url: url.replace(testStack.stack.domainUrl, ''),
      sql: querySpec.query,
      total: page.total,
      samePage,
      countMs,
      viaRoute,
      viaSdk,
      sequential: { route: [] as number[], sdk: [] as number[] },
      loaded: {
        route: { samples: [] as number[], failures: [] as string[], seconds: 0 },
        sdk: { samples: [] as number[], failures: [] as string[], seconds: 0 },
      },
    };
  };

  const measure = async (variant: ListVariant) => {
    const prepared = [] as [K, Awaited<ReturnType<typeof prepare>>][];
    for (const name of names) prepared.push([name, await prepare(variant, targets[name])]);

    // One at a time first (no queueing in the emulator), then CONCURRENCY clients.
    for (let run = 0; run < 6; run += 1) {
      for (const [, target] of prepared) {
        for (const way of ['route', 'sdk'] as const) {
          const begin = performance.now();
          await (way === 'route' ? target.viaRoute() : target.viaSdk());
          target.sequential[way].push(performance.now() - begin);
        }
      }
    }
    for (let round = 0; round < LIST_ROUNDS; round += 1) {
      for (const way of ['route', 'sdk'] as const) {
        for (const [, target] of prepared) {
          const result = await load(
            way === 'route' ? target.viaRoute : target.viaSdk,
            LIST_REQUESTS_PER_ROUND,
          );
          target.loaded[way].samples.push(...result.samples);
          target.loaded[way].failures.push(...result.failures);
          target.loaded[way].seconds += result.seconds;
        }
      }
    }
    return Object.fromEntries(
      prepared.map(([name, target]) => {
        const route = summarise(target.loaded.route.samples);
        const sdk = summarise(target.loaded.sdk.samples);
        const one = {
          route: summarise(target.sequential.route),
          sdk: summarise(target.sequential.sdk),
        };
        const routeFailures = target.loaded.route.failures;
        const sdkFailures = target.loaded.sdk.failures;
        return [
          name,
          {
            url: target.url,
            sql: target.sql,
            total: target.total,
            samePageAsSdk: target.samePage,
            concurrency: CONCURRENCY,
            requests: LIST_ROUNDS * LIST_REQUESTS_PER_ROUND,
            failed: {
              route: routeFailures.length,
              sdk: sdkFailures.length,
              ...(routeFailures.length || sdkFailures.length
                ? { first: routeFailures[0] ?? sdkFailures[0] }
                : {}),
            },
            routeMs: { p50: round(route.p50), p95: round(route.p95), mean: round(route.mean) },
            sdkMs: { p50: round(sdk.p50), p95: round(sdk.p95), mean: round(sdk.mean) },
            perSecond: {
              route: round(route.count / target.loaded.route.seconds, 1),
              sdk: round(sdk.count / target.loaded.sdk.seconds, 1),
            },
            ratio: {
              p50: round(route.p50 / sdk.p50),
              p95: round(route.p95 / sdk.p95),
              mean: round(route.mean / sdk.mean),
            },
            oneAtATimeMs: {
              route: round(one.route.p50),
              sdk: round(one.sdk.p50),
              ratio: round(one.route.p50 / one.sdk.p50),
            },
            countQueryMs: round(target.countMs),
          },
        ];
      }),
    ) as Record<K, ListFigure>;
  };
  const measured: [string, Record<K, ListFigure>][] = [];
  for (const variant of variants) measured.push([variant.name, await measure(variant)]);
  return Object.fromEntries(
    names.map((name) => [
      name,
      Object.fromEntries(measured.map(([variant, figures]) => [variant, figures[name]])),
    ]),
  ) as Record<K, Record<string, ListFigure>>;
}

interface ListFigure {
  url: string;
  sql: string;
  total: number;
  samePageAsSdk: boolean;
  concurrency: number;
  requests: number;
  failed: { route: number; sdk: number; first?: string };
  routeMs: { p50: number; p95: number; mean: number };
  sdkMs: { p50: number; p95: number; mean: number };
  perSecond: { route: number; sdk: number };
  ratio: { p50: number; p95: number; mean: number };
  oneAtATimeMs: { route: number; sdk: number; ratio: number };
  countQueryMs: number;
}

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: field('VmRSS') / 1024, peakMb: field('VmHWM') / 1024 };
};

/** CSV files of compact rows, as few as fit under the 10 MB limit each and in all. */
function importCsv(rows: number) {
  const { people } = generatePeople(rows, 0, 77, 'i');
  const header = 'bidderId,firstName,lastName,email\n';
  const lines = people.map(
    (person, index) =>
      `I${String(index).padStart(6, '0')},${person.firstName},${person.lastName},${
        person.email ?? `${person.firstName}.${person.lastName}.${index}@example.com`.toLowerCase()
      }\n`,
  );
  const text = header + lines.join('');
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_IMPORT_BYTES - 64 * 1024)
    return [{ name: 'bidders.csv', data: Buffer.from(text) }];
  throw new Error(`${rows} rows take ${bytes} bytes, over the 10 MB limit: split them`);
}

async function importFigures() {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const owner = await newOwner(testStack, 'import');
    const token = await owner.token();
    const files = importCsv(IMPORT_ROWS);
    progress(`importing ${IMPORT_ROWS} CSV rows`);
    const { body, contentType } = multipart(files);
    const pid = testStack.stack.processes.host?.child.pid;
    if (!pid) throw new Error('no dev host process');
    const before = rssOf(pid);
    // Resets the kernel's high-water mark (VmHWM) so it covers only the import.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    let sampledPeak = before.rssMb;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, rssOf(pid).rssMb);
    }, 50);
    const started = performance.now();
    const reply = await send('POST', `${testStack.stack.domainUrl}/data-upload/bidders/import`, {
      token,
      body,
      headers: { 'content-type': contentType },
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = rssOf(pid);
    if (reply.status !== 200) throw new Error(`import answered ${reply.status}: ${reply.text}`);
    const result = JSON.parse(reply.text) as {
      totalProcessed: number;
      successful: number;
      failed: number;
      duplicates: number;
    };
    const { client, bidders } = cosmosFor(testStack);
    const { resources } = await bidders.items
      .query<number>(
        {
          query: 'SELECT VALUE COUNT(1) FROM c WHERE c.accountId = @accountId',
          parameters: [{ name: '@accountId', value: owner.accountId }],
        },
        { partitionKey: owner.accountId },
      )
      .fetchAll();
    client.dispose();
    return {
      rows: IMPORT_ROWS,
      files: files.length,
      fileBytes: files.map((file) => file.data.length),
      requestBytes: body.length,
      columns: 'bidderId,firstName,lastName,email',
      result: {
        totalProcessed: result.totalProcessed,
        successful: result.successful,
        failed: result.failed,
        duplicates: result.duplicates,
      },
      storedAfterwards: resources[0] ?? 0,
      seconds: round(seconds, 1),
      rowsPerSecond: round(IMPORT_ROWS / seconds, 0),
      hostRssMb: {
        before: round(before.rssMb, 0),
        peakSampled: round(sampledPeak, 0),
        peakKernel: round(after.peakMb, 0),
        after: round(after.rssMb, 0),
      },
      rssMethod:
        'the dev host process (serves both the auth and domain apps) is the test stack’s host child; /proc/<pid>/status VmRSS sampled every 50 ms, and VmHWM after writing 5 to /proc/<pid>/clear_refs just before the request',
    };
  } finally {
    await testStack.stop();
  }
}

/** findDuplicates in this process over 100,000 generated bidders with 2% near-duplicates. */
async function matcherFigures() {
  const { findDuplicates, MIN_CONFIDENCE } =
    await import('../../functions/src/bidders/duplicate-matcher.js');
  const { AUTO_MERGE_DEFAULT } = await import('../../functions/src/scoring/scoring.schema.js');
  const { people, injected } = generatePeople(MATCH_BIDDERS, MATCH_DUPLICATES);
  findDuplicates(people.slice(0, 5000));
  const times: number[] = [];
  let pairs: ReturnType<typeof findDuplicates> = [];
  for (let run = 0; run < 3; run += 1) {
    const started = performance.now();
    pairs = findDuplicates(people);
    times.push(performance.now() - started);
  }
  let truePositives = 0;
  let autoMergeable = 0;
  let wronglyAutoMergeable = 0;
  for (const pair of pairs) {
    const hit = injected.has(pairKey(pair.a, pair.b));
    if (hit) truePositives += 1;
    if (pair.confidence >= AUTO_MERGE_DEFAULT) {
      autoMergeable += 1;
      if (!hit) wronglyAutoMergeable += 1;
    }
  }
  const timing: Summary = summarise(times);
  return {
    bidders: people.length,
    injectedPairs: injected.size,
    households: 'about 1% of people share an address, landline and last name with another person',
    minConfidence: MIN_CONFIDENCE,
    seconds: round(timing.p50 / 1000, 2),
    reportedPairs: pairs.length,
    truePositives,
    recall: round(truePositives / injected.size, 4),
    precision: round(truePositives / (pairs.length || 1), 4),
    atAutoMergeThreshold: {
      threshold: AUTO_MERGE_DEFAULT,
      pairs: autoMergeable,
      notInjected: wronglyAutoMergeable,
    },
  };
}

/** What is timed on the 50,000-bidder tenant, in this order (the scan merges, so it comes last). */
type TenantStep = 'list' | 'recompute' | 'scan';

/** The 50,000-bidder tenant: the list, the recompute and the duplicate scan, or some of them. */
async function tenantFigures(steps: readonly TenantStep[]) {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const owner = await newOwner(testStack, 'tenant');
    const { client, bidders } = cosmosFor(testStack);
    progress(`seeding ${TENANT_BIDDERS} bidders`);
    const seeding = await seedTenant(bidders, owner.accountId);
    progress(`seeded in ${round(seeding.seconds, 1)} s`);

    const list = steps.includes('list')
      ? (
          await listFigures({
            tenant: { testStack, bidders, accountId: owner.accountId, token: await owner.token() },
          })
        ).tenant
      : null;
    const seeded = {
      bidders: seeding.bidders,
      injectedDuplicates: seeding.injectedDuplicates,
      seconds: round(seeding.seconds, 1),
    };
    const recompute = steps.includes('recompute')
      ? await recomputeFigures(testStack, owner, bidders)
      : null;
    const duplicateScan = steps.includes('scan')
      ? await scanFigures(testStack, owner, seeding.injectedDuplicates)
      : null;
    client.dispose();
    return { seeding: seeded, list, recompute, duplicateScan };
  } finally {
    await testStack.stop();
  }
}

/**
 * New weights saved, then the settings polled as the screen does until the job says it is done:
 * the time to completion, and how far the progress had got at each poll (it must keep moving).
 */
async function recomputeFigures(testStack: TestStack, owner: Owner, bidders: Container) {
  progress('recomputing custom scores');
  let token = await owner.token();
  const base = `${testStack.stack.domainUrl}/scoring/settings`;
  // Saved against the version read, as the settings screen does.
  const { etag } = await json<{ etag: string }>('GET', base, { token });
  const started = performance.now();
  const saved = await json<{ version: number; recompute: { jobId: string } | null }>('PUT', base, {
    token,
    headers: { 'if-match': `"${etag}"` },
    body: {
      customWeights: {
        paymentHistory: 20,
        bidActivity: 25,
        winRate: 15,
        avgSpending: 15,
        accountAge: 5,
        communicationResponsiveness: 5,
        disputeHistory: 10,
        referrals: 5,
      },
    },
  });
  const saveMs = performance.now() - started;
  interface Progress {
    status: string;
    processed: number;
    total: number;
    startedAt: string | null;
    finishedAt: string | null;
  }
  let recompute = null as Progress | null;
  let polls = 0;
  /** The distinct `processed` counts the polls saw while the job ran. */
  const seen = new Set<number>();
  while (performance.now() - started < 8 * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (polls % 100 === 99) token = await owner.token();
    polls += 1;
    recompute = (await json<{ recompute: Progress | null }>('GET', base, { token })).recompute;
    if (recompute?.status === 'running') seen.add(recompute.processed);
    if (recompute?.status === 'completed' || recompute?.status === 'failed') break;
  }
  const recomputeSeconds = (performance.now() - started) / 1000;
  if (recompute?.status !== 'completed')
    throw new Error(`recompute ended ${recompute?.status ?? 'never'}`);
  const { resources: stale } = await bidders.items
    .query<number>(
      {
        query:
          'SELECT VALUE COUNT(1) FROM c WHERE c.accountId = @accountId AND c.customVersion != @version',
        parameters: [
          { name: '@accountId', value: owner.accountId },
          { name: '@version', value: saved.version },
        ],
      },
      { partitionKey: owner.accountId },
    )
    .fetchAll();

  return {
    bidders: recompute.total,
    processed: recompute.processed,
    seconds: round(recomputeSeconds, 1),
    saveMs: round(saveMs),
    jobSeconds:
      recompute.startedAt && recompute.finishedAt
        ? round((Date.parse(recompute.finishedAt) - Date.parse(recompute.startedAt)) / 1000, 1)
        : null,
    progressSeen: [...seen].sort((x, y) => x - y),
    progressPolls: polls,
    notRescored: stale[0] ?? null,
  };
}

/** POST /duplicates/scan end to end (it merges the surest pairs). */
async function scanFigures(testStack: TestStack, owner: Owner, injectedPairs: number) {
  progress('scanning for duplicates');
  const token = await owner.token();
  const scanReply = await send('POST', `${testStack.stack.domainUrl}/duplicates/scan`, { token });
  if (scanReply.status !== 200) throw new Error(`scan answered ${scanReply.status}`);
  const scan = JSON.parse(scanReply.text) as {
    scanned: number;
    pending: number;
    autoMerged: number;
  };
  return { ...scan, injectedPairs, seconds: round(scanReply.ms / 1000, 1) };
}

/**
 * The same list for one tenant when it is alone in the container and when nine others hold as
 * many bidders each: the emulator should answer from the tenant's partition only, as Cosmos does.
 * Two stacks run side by side, with the same bidders for the tenant timed, and their rounds
 * alternate.
 */
async function multiTenantFigures() {
  const stacks: TestStack[] = [];
  try {
    const tenantOf = async (tenants: number) => {
      const testStack = await startTestStack('http://localhost:4280', {
        LOG_LEVEL: 'error',
        LOTWISE_SEED: 'false',
      });
      stacks.push(testStack);
      const { client, bidders } = cosmosFor(testStack);
      const owners = [];
      for (let tenant = 0; tenant < tenants; tenant += 1) {
        owners.push(await newOwner(testStack, `tenant${tenant}`));
      }
      progress(`seeding ${tenants} tenant(s) of ${TENANTS_BIDDERS} bidders`);
      const started = performance.now();
      for (const [tenant, owner] of owners.entries()) {
        await seedTenant(bidders, owner.accountId, {
          count: TENANTS_BIDDERS,
          duplicates: 0,
          seed: 5000 + tenant,
          statsSeed: 6000 + tenant,
        });
      }
      const seconds = (performance.now() - started) / 1000;
      const [timed] = owners as [(typeof owners)[number]];
      return {
        client,
        seconds,
        target: { testStack, bidders, accountId: timed.accountId, token: await timed.token() },
      };
    };
    const alone = await tenantOf(1);
    const among = await tenantOf(TENANTS);
    progress('timing the first tenant alone and among the others');
    const figures = await listFigures({ alone: alone.target, among: among.target });
    alone.client.dispose();
    among.client.dispose();
    const ratios = Object.fromEntries(
      Object.entries(figures.among).map(([name, amongTenants]) => {
        const lone = figures.alone[name] as ListFigure;
        return [
          name,
          {
            route: {
              p50: round(amongTenants.routeMs.p50 / lone.routeMs.p50),
              p95: round(amongTenants.routeMs.p95 / lone.routeMs.p95),
              oneAtATime: round(amongTenants.oneAtATimeMs.route / lone.oneAtATimeMs.route),
            },
            sdk: {
              p50: round(amongTenants.sdkMs.p50 / lone.sdkMs.p50),
              p95: round(amongTenants.sdkMs.p95 / lone.sdkMs.p95),
              oneAtATime: round(amongTenants.oneAtATimeMs.sdk / lone.oneAtATimeMs.sdk),
            },
            sameTotal: amongTenants.total === lone.total,
          },
        ];
      }),
    );
    return {
      tenants: TENANTS,
      biddersPerTenant: TENANTS_BIDDERS,
      seededSeconds: { alone: round(alone.seconds, 1), among: round(among.seconds, 1) },
      alone: figures.alone,
      amongTenants: figures.among,
      ratioToAlone: ratios,
    };
  } finally {
    for (const testStack of stacks) await testStack.stop();
  }
}

/**
 * BENCH_BIDDERS picks the parts (all by default): `matcher`, `import`, `tenant` (the 50,000-bidder
 * tenant: list, recompute, duplicate scan), or some of that tenant's steps alone (`list`,
 * `recompute`, `scan`), and `tenants` (one tenant's list alone and among ten).
 */
export const BIDDER_PARTS = ['matcher', 'import', 'tenant', 'tenants'];
const TENANT_STEPS: readonly TenantStep[] = ['list', 'recompute', 'scan'];

export async function bidderFigures(parts: readonly string[] = BIDDER_PARTS) {
  try {
    const report = async <T>(
      name: string,
      figures: () => Promise<T>,
      wanted = parts.includes(name),
    ): Promise<T | null> => {
      if (!wanted) return null;
      progress(name);
      const result = await figures();
      progress(`${name} ${JSON.stringify(result)}`);
      return result;
    };
    const matcher = await report('matcher', matcherFigures);
    const importing = await report('import', importFigures);
    const steps = parts.includes('tenant')
      ? TENANT_STEPS
      : TENANT_STEPS.filter((step) => parts.includes(step));
    const tenant = await report(
      steps.length === TENANT_STEPS.length ? 'tenant' : steps.join(','),
      () => tenantFigures(steps),
      steps.length > 0,
    );
    const tenants = await report('tenants', multiTenantFigures);
    return {
      matcher,
      import: importing,
      seeding: tenant?.seeding ?? null,
      list: tenant?.list ?? null,
      recompute: tenant?.recompute ?? null,
      duplicateScan: tenant?.duplicateScan ?? null,
      multiTenant: tenants,
    };
  } finally {
    agent.destroy();
  }
}

export type BidderFigures = Awaited<ReturnType<typeof bidderFigures>>;
