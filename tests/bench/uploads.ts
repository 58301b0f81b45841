import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startTestStack, type TestStack } from '../support/test-stack.js';
import { generatePeople } from './bidder-data.js';
import { agent, cosmosFor, json, newOwner, send, type Owner } from './client.js';
import { round, summarise } from './stats.js';

/**
 * Figures for the Data Processing Center on throw-away stacks (no demo tenant; responses not
 * checked against their schemas, as in Azure):
 *  (a) `transfer`: a 100 MB CSV (category historical: stored, every row read and counted) the
 *      way the Uploads screen sends it: POST /data-upload/sessions, 4 MiB blocks put one after
 *      another to Blob Storage with the write-only SAS URL, the block list, POST .../complete,
 *      then GET /data-upload/status polled until completed. MB/s of the transfer and the time
 *      from complete to completed.
 *  (b) `bidders`: a 500,000-row bidder CSV the same way, through the queue worker, shaped as in
 *      Azure: the auth and domain apps in hosts of their own (signing up never touches the domain
 *      host), each run with the Node arguments infra/ gives the Function Apps (the heap cap; not
 *      the source maps local.settings.sample.json adds).
 *      Rows per second from complete to completed, and the domain host's RSS while it runs (the
 *      issue asks for under 300 MB). `bidders-uncapped`: the same without the node arguments, to
 *      tell what V8 leaves uncollected from what the import holds. BENCH_NODE_ARGUMENTS replaces
 *      the hosts' node arguments in `bidders`, to try other caps.
 *  (c) `conflicts`: 10,000 conflicts listed, a page at a time, through GET
 *      /data-upload/conflicts, and 1,000 resolved with POST /data-upload/conflicts/bulk-resolve.
 * `npm run bench -- uploads` (BENCH_UPLOADS=transfer,conflicts,bidders,bidders-uncapped picks the
 * parts), or alone: `tsx tests/bench/uploads.ts`.
 */

export const UPLOAD_PARTS = ['transfer', 'conflicts', 'bidders', 'bidders-uncapped'];

/** What the web sends per request (web/src/features/data-upload/api/uploads.ts BLOCK_BYTES). */
const BLOCK_BYTES = 4 * 1024 * 1024;
const TRANSFER_BYTES = 100 * 1024 * 1024;
const BIDDER_ROWS = 500_000;
const RSS_LIMIT_MB = 300;
const CONFLICTS = 10_000;
const BULK_RESOLVED = 1_000;
/** The Conflict Resolution tab asks for 25 at a time (web/src/features/data-upload/api/conflicts.ts). */
const CONFLICT_PAGE = 25;
/** How often the bench asks for an upload's status (the screen asks every 2 s). */
const POLL_MS = 250;

const progress = (message: string) => process.stderr.write(`bench · uploads: ${message}\n`);

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    rssMb: field('VmRSS') / 1024,
    peakMb: field('VmHWM') / 1024,
    /** The node binary and libraries mapped from disk (shared, reclaimable). */
    fileMb: field('RssFile') / 1024,
  };
};

/** The machine's load when a part starts and ends: other engineers run tests on it too. */
const loadAverage = async () => (await import('node:os')).loadavg().map((value) => round(value));

/** The host running the queue worker: the domain app's, or the one serving both. */
function hostPid(testStack: TestStack) {
  const { processes } = testStack.stack;
  const pid = (processes['host-domain'] ?? processes.host)?.child.pid;
  if (!pid) throw new Error('no dev host process');
  return pid;
}

/** Samples the host's RSS every 50 ms from the moment it is started, and its kernel peak. */
function rssSampler(pid: number) {
  const before = rssOf(pid);
  // Resets the kernel's high-water mark (VmHWM) so it covers only what is measured.
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  let peak = before.rssMb;
  const samples: { atMs: number; rssMb: number }[] = [];
  const started = performance.now();
  const timer = setInterval(() => {
    const { rssMb } = rssOf(pid);
    peak = Math.max(peak, rssMb);
    samples.push({ atMs: performance.now() - started, rssMb });
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      const after = rssOf(pid);
      return {
        before: round(before.rssMb, 0),
        fileBacked: round(after.fileMb, 0),
        peakSampled: round(Math.max(peak, after.rssMb), 0),
        peakKernel: round(after.peakMb, 0),
        after: round(after.rssMb, 0),
        samples,
      };
    },
  };
}

interface Session {
  upload: { id: string };
  targets: { index: number; url: string }[];
}

interface StatusView {
  status: string;
  progress: number;
  results: {
    recordsProcessed: number;
    recordsImported: number;
    errorCount: number;
    duplicates?: number;
  };
}

const blockId = (index: number) =>
  Buffer.from(`block-${String(index).padStart(6, '0')}`).toString('base64');

const withQuery = (sasUrl: string, query: string) =>
  `${sasUrl}${sasUrl.includes('?') ? '&' : '?'}${query}`;

/** Puts a file into its blob as the browser does: 4 MiB blocks one after another, then the list. */
async function putFile(sasUrl: string, data: Buffer) {
  const ids: string[] = [];
  for (let start = 0, index = 0; start < data.length; start += BLOCK_BYTES, index += 1) {
    const id = blockId(index);
    ids.push(id);
    const reply = await send(
      'PUT',
      withQuery(sasUrl, `comp=block&blockid=${encodeURIComponent(id)}`),
      { body: data.subarray(start, Math.min(start + BLOCK_BYTES, data.length)) },
    );
    if (reply.status !== 201) throw new Error(`Put Block answered ${reply.status}: ${reply.text}`);
  }
  const list = `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids
    .map((id) => `<Latest>${id}</Latest>`)
    .join('')}</BlockList>`;
  const reply = await send('PUT', withQuery(sasUrl, 'comp=blocklist'), {
    body: list,
    headers: { 'content-type': 'application/xml', 'x-ms-blob-content-type': 'text/csv' },
  });
  if (reply.status !== 201)
    throw new Error(`Put Block List answered ${reply.status}: ${reply.text}`);
  return ids.length;
}

/** Polls the upload's status until it is no longer processing; the distinct progress seen. */
async function settled(base: string, token: string, uploadId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<number>();
  for (;;) {
    const status = await json<StatusView>('GET', `${base}/data-upload/status/${uploadId}`, {
      token,
    });
    if (status.status !== 'processing') return { status, progressSeen: [...seen] };
    seen.add(status.progress);
    if (Date.now() > deadline) throw new Error(`upload ${uploadId} still processing`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * One file through the screen's path: session, blocks, complete, then polled to its end. The
 * sampler (if any) starts just before complete, so it covers the worker's run.
 */
async function browserUpload(
  testStack: TestStack,
  owner: Owner,
  file: { name: string; data: Buffer; category: string },
  options: { timeoutMs: number; sampleRss?: boolean },
) {
  const base = testStack.stack.domainUrl;
  const token = await owner.token();
  const started = performance.now();
  const session = await json<Session>('POST', `${base}/data-upload/sessions`, {
    token,
    body: {
      name: `Bench ${file.name}`,
      description: 'Benchmark upload',
      category: file.category,
      files: [{ name: file.name, size: file.data.length }],
    },
  });
  const sessionMs = performance.now() - started;
  const target = session.targets[0];
  if (!target) throw new Error('the session gave no upload URL');
  const putting = performance.now();
  const blocks = await putFile(target.url, file.data);
  const transferSeconds = (performance.now() - putting) / 1000;
  const sampler = options.sampleRss ? rssSampler(hostPid(testStack)) : null;
  const completing = performance.now();
  const completed = await send('POST', `${base}/data-upload/${session.upload.id}/complete`, {
    token,
  });
  if (completed.status !== 200) {
    throw new Error(`complete answered ${completed.status}: ${completed.text}`);
  }
  const completeMs = performance.now() - completing;
  const { status, progressSeen } = await settled(base, token, session.upload.id, options.timeoutMs);
  const processingSeconds = (performance.now() - completing) / 1000;
  const rss = sampler?.stop() ?? null;
  if (status.status !== 'completed') {
    throw new Error(`upload ended ${status.status}: ${JSON.stringify(status.results)}`);
  }
  return {
    uploadId: session.upload.id,
    bytes: file.data.length,
    blocks,
    sessionMs: round(sessionMs, 0),
    transferSeconds: round(transferSeconds, 2),
    transferMBps: round(file.data.length / 1048576 / transferSeconds, 1),
    completeMs: round(completeMs, 0),
    completeToCompletedSeconds: round(processingSeconds, 1),
    endToEndSeconds: round((performance.now() - started) / 1000, 1),
    progressSeen,
    results: status.results,
    rss,
  };
}

/** Historical records, about 100 bytes a row, to exactly `bytes`. */
function historicalCsv(bytes: number) {
  const header = 'saleDate,lotNumber,title,hammerPrice,buyer,notes\n';
  const lines: string[] = [header];
  let size = header.length;
  let row = 0;
  for (;;) {
    const line = `2019-${String((row % 12) + 1).padStart(2, '0')}-${String((row % 28) + 1).padStart(2, '0')},${row + 1},Lot ${row + 1}: a ${['chair', 'vase', 'clock', 'print', 'ring'][row % 5]} of the period,${(row * 7919) % 500_000},Buyer ${row % 5000},sold in the room\n`;
    if (size + line.length > bytes) break;
    lines.push(line);
    size += line.length;
    row += 1;
  }
  // The last row padded so the file is exactly the limit.
  const last = lines.pop() as string;
  lines.push(`${last.slice(0, -1)}${' '.repeat(bytes - size)}\n`);
  return { data: Buffer.from(lines.join('')), rows: row };
}

/** (a) a 100 MB upload end to end. */
async function transferFigures(testStack: TestStack) {
  const owner = await newOwner(testStack, 'transfer');
  const { data, rows } = historicalCsv(TRANSFER_BYTES);
  const loadBefore = await loadAverage();
  progress(`uploading ${round(data.length / 1048576, 1)} MB (${rows} rows) in 4 MiB blocks`);
  const measured = await browserUpload(
    testStack,
    owner,
    { name: 'sales-2019.csv', data, category: 'historical' },
    { timeoutMs: 15 * 60_000, sampleRss: true },
  );
  if (measured.results.recordsProcessed !== rows) {
    throw new Error(`${measured.results.recordsProcessed} rows processed of ${rows}`);
  }
  const { rss, ...rest } = measured;
  return {
    ...rest,
    rows,
    category: 'historical',
    rowsPerSecond: round(rows / measured.completeToCompletedSeconds, 0),
    hostRssMb: rss && { before: rss.before, peakKernel: rss.peakKernel, after: rss.after },
    load: { before: loadBefore, after: await loadAverage() },
  };
}

/** Compact bidder rows (the columns of the bidders bench's import), to the 100 MB limit. */
function biddersCsv(rows: number) {
  const { people } = generatePeople(rows, 0, 77, 'u');
  const text = `bidderId,firstName,lastName,email\n${people
    .map(
      (person, index) =>
        `U${String(index).padStart(6, '0')},${person.firstName},${person.lastName},${
          person.email ??
          `${person.firstName}.${person.lastName}.${index}@example.com`.toLowerCase()
        }\n`,
    )
    .join('')}`;
  return Buffer.from(text);
}

/** The RSS samples thinned to about one a second, for the report. */
const thinned = (samples: { atMs: number; rssMb: number }[]) =>
  samples
    .filter((_, index) => index % 20 === 0)
    .map(({ atMs, rssMb }) => ({ s: round(atMs / 1000, 1), mb: round(rssMb, 0) }));

/** (b) 500,000 bidder rows through the queue worker. */
async function bidderFigures(testStack: TestStack) {
  const owner = await newOwner(testStack, 'bidders');
  const data = biddersCsv(BIDDER_ROWS);
  const loadBefore = await loadAverage();
  progress(`uploading ${BIDDER_ROWS} bidder rows (${round(data.length / 1048576, 1)} MB)`);
  const measured = await browserUpload(
    testStack,
    owner,
    { name: 'bidders-500k.csv', data, category: 'bidders' },
    { timeoutMs: 60 * 60_000, sampleRss: true },
  );
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
  const rss = measured.rss as NonNullable<typeof measured.rss>;
  const { rss: _rss, ...rest } = measured;
  return {
    ...rest,
    rows: BIDDER_ROWS,
    columns: 'bidderId,firstName,lastName,email',
    storedAfterwards: resources[0] ?? 0,
    rowsPerSecond: round(BIDDER_ROWS / measured.completeToCompletedSeconds, 0),
    hostRssMb: {
      before: rss.before,
      fileBacked: rss.fileBacked,
      peakSampled: rss.peakSampled,
      peakKernel: rss.peakKernel,
      after: rss.after,
      limit: RSS_LIMIT_MB,
      underLimit: Math.max(rss.peakSampled, rss.peakKernel) < RSS_LIMIT_MB,
      timeline: thinned(rss.samples),
    },
    nodeArguments: testStack.settings.languageWorkers__node__arguments ?? '',
    rssMethod:
      'the domain app’s dev host (runs the queue worker; the auth app, which signs up, is another process) is the test stack’s host-domain child; /proc/<pid>/status VmRSS sampled every 50 ms from just before POST …/complete until the status reads completed, and VmHWM after writing 5 to /proc/<pid>/clear_refs at that start',
    load: { before: loadBefore, after: await loadAverage() },
  };
}

/** Runs `work` over `items`, `width` at a time. */
async function inTurns<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    }),
  );
}

interface ConflictPage {
  items: { id: string; status: string }[];
  counts: { total: number; pending: number; resolved: number };
  continuationToken: string | null;
}

/** Every page of the account's conflicts, `pageSize` at a time, as "Load more" asks for them. */
async function pageThrough(base: string, token: string, pageSize: number) {
  const pageMs: number[] = [];
  const seen = new Set<string>();
  let continuationToken: string | null = null;
  let counts: ConflictPage['counts'] | null = null;
  const started = performance.now();
  do {
    const query = new URLSearchParams({ pageSize: String(pageSize) });
    if (continuationToken) query.set('continuationToken', continuationToken);
    const reply = await send('GET', `${base}/data-upload/conflicts?${query.toString()}`, { token });
    if (reply.status !== 200) throw new Error(`list answered ${reply.status}: ${reply.text}`);
    pageMs.push(reply.ms);
    const page = JSON.parse(reply.text) as ConflictPage;
    for (const item of page.items) seen.add(item.id);
    counts = page.counts;
    continuationToken = page.continuationToken;
  } while (continuationToken);
  const seconds = (performance.now() - started) / 1000;
  const stats = summarise(pageMs);
  return {
    pageSize,
    pages: pageMs.length,
    listed: seen.size,
    seconds: round(seconds, 1),
    pageMs: {
      first: round(pageMs[0] ?? 0, 0),
      p50: round(stats.p50, 0),
      p95: round(stats.p95, 0),
      last: round(pageMs.at(-1) ?? 0, 0),
    },
    counts,
  };
}

/**
 * (c) 10,000 legal conflicts, each about a case of its own, recorded in this process through
 * `recordConflict` (what an import calls); then every page of GET /data-upload/conflicts at the
 * screen's page size and at the largest, and 1,000 resolved with POST
 * /data-upload/conflicts/bulk-resolve taking the imported values (each a real case update).
 */
async function conflictFigures(testStack: TestStack) {
  const owner = await newOwner(testStack, 'conflicts');
  Object.assign(process.env, testStack.settings);
  const { caseEtag, createCase } = await import('../../functions/src/legal/legal.service.js');
  const { recordConflict } = await import('../../functions/src/conflicts/conflicts.service.js');
  const { systemContext } = await import('../../functions/src/platform/context.js');
  const ctx = systemContext(owner.accountId);
  const seeding = performance.now();
  progress(`filing ${CONFLICTS} cases`);
  const numbers = Array.from({ length: CONFLICTS }, (_, index) => index);
  const cases: {
    id: string;
    caseNumber: string;
    title: string;
    priority: string;
    revision: number;
  }[] = [];
  await inTurns(numbers, 8, async (index) => {
    const saved = await createCase(
      ctx,
      {
        caseType: 'payment_dispute',
        category: 'post_sale',
        priority: 'medium',
        title: `Non-payment for lot ${index + 1}`,
        description: '',
        jurisdiction: 'New York, NY',
        claimAmount: 125_000,
        currency: 'USD',
        plaintiff: { name: 'Bench Auctions', type: 'business', email: 'legal@bench.example.com' },
        defendant: { name: `Buyer ${index}`, type: 'individual', email: '' },
        auctionId: null,
        bidderId: null,
        assignedTo: null,
      },
      null,
      { caseNumber: `BENCH-${String(index + 1).padStart(5, '0')}` },
    );
    cases[index] = saved;
  });
  progress(`recording ${CONFLICTS} conflicts`);
  const source = { kind: 'upload' as const, uploadId: 'bench-cases', uploadName: 'Cases.xlsx' };
  await inTurns(cases, 8, async (onFile) => {
    const imported = {
      caseNumber: onFile.caseNumber,
      title: `${onFile.title} (court filing)`,
      priority: 'high',
      jurisdiction: 'Massachusetts',
    };
    await recordConflict(ctx, {
      key: `upload:bench-cases:legal:${onFile.id}`,
      subject: { type: 'legal', existingId: onFile.id, imported },
      conflictType: 'mismatch',
      source,
      uploadName: source.uploadName,
      matchScore: null,
      existingRecord: { id: onFile.id, caseNumber: onFile.caseNumber, title: onFile.title },
      importedRecord: imported,
      guard: { existing: caseEtag(onFile), imported: null },
      fields: [
        { field: 'title', label: 'Title', existing: onFile.title, imported: imported.title },
        { field: 'priority', label: 'Priority', existing: onFile.priority, imported: 'high' },
        {
          field: 'jurisdiction',
          label: 'Jurisdiction',
          existing: 'New York, NY',
          imported: imported.jurisdiction,
        },
      ],
    });
  });
  const seededSeconds = (performance.now() - seeding) / 1000;
  const base = testStack.stack.domainUrl;
  const token = await owner.token();
  const loadBefore = await loadAverage();
  progress('listing every page');
  const screenPages = await pageThrough(base, token, CONFLICT_PAGE);
  const largestPages = await pageThrough(base, token, 100);
  progress(`resolving ${BULK_RESOLVED} in bulk`);
  const sampler = rssSampler(hostPid(testStack));
  const bulk = await send('POST', `${base}/data-upload/conflicts/bulk-resolve`, {
    token,
    body: JSON.stringify({
      filter: { type: 'legal' },
      resolution: 'use_imported',
      limit: BULK_RESOLVED,
    }),
    headers: { 'content-type': 'application/json' },
  });
  const rss = sampler.stop();
  if (bulk.status !== 200) throw new Error(`bulk-resolve answered ${bulk.status}: ${bulk.text}`);
  const outcome = JSON.parse(bulk.text) as {
    resolved: number;
    skipped: number;
    failed: unknown[];
    remaining: number;
  };
  const after = await json<ConflictPage>('GET', `${base}/data-upload/conflicts?pageSize=1`, {
    token,
  });
  return {
    conflicts: CONFLICTS,
    type: 'legal (mismatch: title, priority and jurisdiction differ), one case each',
    seededSeconds: round(seededSeconds, 1),
    list: { screen: screenPages, largest: largestPages },
    bulkResolve: {
      asked: BULK_RESOLVED,
      resolution: 'use_imported',
      seconds: round(bulk.ms / 1000, 1),
      perSecond: round(outcome.resolved / (bulk.ms / 1000), 0),
      resolved: outcome.resolved,
      failed: outcome.failed.length,
      remaining: outcome.remaining,
      countsAfterwards: after.counts,
      hostRssMb: { before: rss.before, peakKernel: rss.peakKernel, after: rss.after },
    },
    load: { before: loadBefore, after: await loadAverage() },
  };
}

const STACK_SETTINGS = {
  LOG_LEVEL: 'error',
  LOTWISE_SEED: 'false',
  // Azure does not check replies against their schemas; the bench measures what it serves.
  CHECK_RESPONSES: 'false',
};

/** `languageWorkers__node__arguments` of the Function Apps in Azure (function-app.bicep). */
function azureNodeArguments() {
  const bicep = readFileSync(
    new URL('../../infra/modules/function-app.bicep', import.meta.url),
    'utf8',
  );
  const found = /^param nodeArguments string = '([^']*)'$/m.exec(bicep)?.[1];
  if (found === undefined) throw new Error('function-app.bicep declares no nodeArguments');
  return found;
}

async function onStack<T>(
  extra: Record<string, string>,
  figures: (stack: TestStack) => Promise<T>,
  hosts: 'one' | 'per-app' = 'one',
) {
  const testStack = await startTestStack(
    'http://localhost:4280',
    { ...STACK_SETTINGS, ...extra },
    { hosts },
  );
  try {
    return await figures(testStack);
  } finally {
    await testStack.stop();
  }
}

export async function uploadFigures(parts: readonly string[] = UPLOAD_PARTS) {
  const when = async <T>(part: string, figures: () => Promise<T>) => {
    if (!parts.includes(part)) return null;
    progress(part);
    const result = await figures();
    progress(`${part} ${JSON.stringify(result)}`);
    return result;
  };
  try {
    const shared = ['transfer', 'conflicts'].some((part) => parts.includes(part));
    const first = shared
      ? await onStack({}, async (testStack) => ({
          transfer: await when('transfer', () => transferFigures(testStack)),
          conflicts: await when('conflicts', () => conflictFigures(testStack)),
        }))
      : { transfer: null, conflicts: null };
    // Fresh hosts, one per app as in Azure, so the domain host's memory before is a fresh one's.
    const tried = process.env.BENCH_NODE_ARGUMENTS;
    const bidders = await when('bidders', () =>
      onStack(
        { languageWorkers__node__arguments: tried ?? azureNodeArguments() },
        bidderFigures,
        'per-app',
      ),
    );
    // Without the heap cap: what V8 leaves uncollected is the difference.
    const biddersUncapped = await when('bidders-uncapped', () =>
      onStack({ languageWorkers__node__arguments: '' }, bidderFigures, 'per-app'),
    );
    return {
      cpus: (await import('node:os')).cpus().length,
      ...first,
      bidders,
      biddersUncapped,
    };
  } finally {
    agent.destroy();
  }
}

export type UploadFigures = Awaited<ReturnType<typeof uploadFigures>>;

const row = (name: string, value: string) => `  ${name.padEnd(34)}${value}`;

function bidderLines(label: string, bidders: NonNullable<UploadFigures['bidders']>) {
  return [
    `  ${label} ${bidders.rows} bidder rows (${round(bidders.bytes / 1048576, 1)} MB CSV, ${bidders.columns}) through the queue worker, node ${bidders.nodeArguments || '(no arguments)'}`,
    row('block transfer', `${bidders.transferSeconds} s = ${bidders.transferMBps} MB/s`),
    row(
      'complete → completed',
      `${bidders.completeToCompletedSeconds} s = ${bidders.rowsPerSecond} rows/s`,
    ),
    row(
      'result',
      `${bidders.results.recordsImported} imported, ${bidders.results.duplicates ?? 0} duplicates, ${bidders.results.errorCount} errors; ${bidders.storedAfterwards} bidders stored`,
    ),
    row(
      'domain host RSS',
      `${bidders.hostRssMb.before} MB before, peak ${bidders.hostRssMb.peakSampled} MB sampled / ${bidders.hostRssMb.peakKernel} MB kernel (limit ${bidders.hostRssMb.limit} MB: ${bidders.hostRssMb.underLimit ? 'under' : 'OVER'})`,
    ),
    row(
      'load average (1/5/15 min)',
      `${bidders.load.before.join(' ')} → ${bidders.load.after.join(' ')}`,
    ),
  ].join('\n');
}

export function uploadsSummary({ transfer, bidders, biddersUncapped, conflicts }: UploadFigures) {
  return [
    'Data Processing Center uploads',
    transfer &&
      [
        `  (a) ${round(transfer.bytes / 1048576, 1)} MB CSV (${transfer.rows} rows, category ${transfer.category}) through the browser path, ${transfer.blocks} blocks of 4 MiB`,
        row('session', `${transfer.sessionMs} ms`),
        row('block transfer', `${transfer.transferSeconds} s = ${transfer.transferMBps} MB/s`),
        row('complete (checks, queues)', `${transfer.completeMs} ms`),
        row(
          'complete → completed',
          `${transfer.completeToCompletedSeconds} s (${transfer.rowsPerSecond} rows/s read and counted)`,
        ),
        row('session → completed', `${transfer.endToEndSeconds} s`),
        transfer.hostRssMb &&
          row(
            'dev host RSS while processing',
            `${transfer.hostRssMb.before} MB before, peak ${transfer.hostRssMb.peakKernel} MB`,
          ),
        row(
          'load average (1/5/15 min)',
          `${transfer.load.before.join(' ')} → ${transfer.load.after.join(' ')}`,
        ),
      ]
        .filter(Boolean)
        .join('\n'),
    bidders && bidderLines('(b)', bidders),
    biddersUncapped &&
      bidderLines('(b) again, no node arguments (heap uncapped):', biddersUncapped),
    conflicts &&
      [
        `  (c) ${conflicts.conflicts} conflicts (${conflicts.type}; seeded in ${conflicts.seededSeconds} s)`,
        ...[conflicts.list.screen, conflicts.list.largest].map((list) =>
          row(
            `list, pages of ${list.pageSize}`,
            `${list.listed} listed in ${list.pages} pages, ${list.seconds} s; page p50 ${list.pageMs.p50} ms  p95 ${list.pageMs.p95} ms (first ${list.pageMs.first} ms, last ${list.pageMs.last} ms)`,
          ),
        ),
        row(
          `bulk-resolve ${conflicts.bulkResolve.asked} (${conflicts.bulkResolve.resolution})`,
          `${conflicts.bulkResolve.seconds} s = ${conflicts.bulkResolve.perSecond}/s; ${conflicts.bulkResolve.resolved} resolved, ${conflicts.bulkResolve.failed} failed, ${conflicts.bulkResolve.remaining} remaining; host RSS peak ${conflicts.bulkResolve.hostRssMb.peakKernel} MB`,
        ),
        row(
          'load average (1/5/15 min)',
          `${conflicts.load.before.join(' ')} → ${conflicts.load.after.join(' ')}`,
        ),
      ].join('\n'),
  ]
    .filter(Boolean)
    .join('\n')
    .concat('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const parts = process.env.BENCH_UPLOADS ? process.env.BENCH_UPLOADS.split(',') : UPLOAD_PARTS;
  const figures = await uploadFigures(parts);
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n\n${uploadsSummary(figures)}`);
}
