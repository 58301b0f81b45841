import type { Container } from '@azure/cosmos';
import { sandboxControl } from '../../functions/dev/platforms/client.js';
import type { BidderRecord, DuplicateRecord } from '../../functions/src/bidders/bidders.repo.js';
import type { SyncRun } from '../../functions/src/integrations/integrations.schema.js';
import { startTestStack, type TestStack } from '../support/test-stack.js';
import { bidderRecords, writeAll } from './auctions.js';
import { generator, type Random } from './bidder-data.js';
import { agent, cosmosFor, json, newOwner } from './client.js';
import { round } from './stats.js';

/**
 * Figures for platform integrations, each part on a throw-away stack of its own, against the
 * local platform sandbox the stack starts (ProxyBid's API: keyed, paged, money in cents):
 *  1. `auctions`: the first sync of 1,000 platform auctions of 50 lots each into an empty
 *     account, then a sync when nothing changed on the platform.
 *  2. `bidders`: a 20,000-bidder platform account of which 1,000 (5%) are already Lotwise
 *     bidders among 10,000, brought in by Bidder data sync: the time, and how many of the 1,000
 *     Lotwise found (linked by e-mail, merged, or set for review), with precision and recall.
 */

const SYNC_AUCTIONS = 1_000;
const LOTS_PER_AUCTION = 50;
const PLATFORM_BIDDERS = 20_000;
const LOTWISE_BIDDERS = 10_000;
const KNOWN = 1_000;

const progress = (message: string) => process.stderr.write(`bench · integrations: ${message}\n`);

async function stackWithOwner(label: string) {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  const owner = await newOwner(testStack, label);
  return {
    testStack,
    owner,
    sandbox: sandboxControl(`http://localhost:${testStack.ports.platforms}`),
  };
}

/** The account's Sync settings: by hand only, so nothing runs beside the measured syncs. */
async function saveSync(testStack: TestStack, token: string, changes: Record<string, unknown>) {
  const url = `${testStack.stack.domainUrl}/settings/sync`;
  const read = await json<{ etag: string }>('GET', url, { token });
  await json('PUT', url, {
    token,
    body: { frequency: 'manual', realTimeSync: false, ...changes },
    headers: { 'if-match': read.etag },
  });
}

async function connect(testStack: TestStack, token: string, apiKey: string) {
  await json('PUT', `${testStack.stack.domainUrl}/platforms/ProxyBid/connection`, {
    token,
    body: { apiKey },
  });
}

/** Starts a sync and waits for its run to end, polling its log as View Logs does. */
async function timedSync(testStack: TestStack, token: () => Promise<string>) {
  const started = performance.now();
  const run = await json<SyncRun>('POST', `${testStack.stack.domainUrl}/platforms/sync/ProxyBid`, {
    token: await token(),
  });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { runs } = await json<{ runs: SyncRun[] }>(
      'GET',
      `${testStack.stack.domainUrl}/platforms/ProxyBid/logs`,
      { token: await token() },
    );
    const done = runs.find((entry) => entry.id === run.id);
    if (done && done.status !== 'queued' && done.status !== 'running') {
      // Partial is a finished run: the sandbox, like a platform, has some records Lotwise refuses.
      if (done.status === 'failed') throw new Error(`the sync failed: ${done.error}`);
      return { seconds: round((performance.now() - started) / 1000, 1), counts: done.counts };
    }
  }
}

/** A token that is renewed before its 15 minutes run out. */
function freshToken(owner: Awaited<ReturnType<typeof newOwner>>) {
  let token: { value: string; at: number } | null = null;
  return async () => {
    if (!token || Date.now() - token.at > 10 * 60_000) {
      token = { value: await owner.token(), at: Date.now() };
    }
    return token.value;
  };
}

async function count(container: Container, accountId: string, where: string) {
  const { resources } = await container.items
    .query<number>({
      query: `SELECT VALUE COUNT(1) FROM c WHERE c.accountId = @account AND ${where}`,
      parameters: [{ name: '@account', value: accountId }],
    })
    .fetchAll();
  return resources[0] ?? 0;
}

async function auctionSyncFigures() {
  const { testStack, owner, sandbox } = await stackWithOwner('sync');
  try {
    const token = freshToken(owner);
    const platform = await sandbox.createAccount({
      platform: 'ProxyBid',
      auctions: SYNC_AUCTIONS,
      lotsPerAuction: LOTS_PER_AUCTION,
      bidders: 200,
    });
    await saveSync(testStack, await token(), { autoImport: true, bidderDataSync: false });
    await connect(testStack, await token(), platform.key);
    progress(`first sync of ${SYNC_AUCTIONS} auctions × ${LOTS_PER_AUCTION} lots`);
    const first = await timedSync(testStack, token);
    const { auctions } = cosmosFor(testStack);
    const imported = {
      auctions: await count(auctions, owner.accountId, "c.kind = 'auction'"),
      lots: await count(auctions, owner.accountId, "c.kind = 'lot'"),
    };
    progress(`first sync ${JSON.stringify({ ...first, imported })}`);
    const again = await timedSync(testStack, token);
    return {
      auctions: SYNC_AUCTIONS,
      lotsPerAuction: LOTS_PER_AUCTION,
      firstSync: { ...first, imported },
      noChangeSync: again,
    };
  } finally {
    await testStack.stop();
  }
}

/** `size` distinct items, chosen at random. */
function sample<T>(random: Random, items: readonly T[], size: number): T[] {
  const pool = [...items];
  for (let index = 0; index < size; index += 1) {
    const other = random.int(index, pool.length - 1);
    [pool[index], pool[other]] = [pool[other] as T, pool[index] as T];
  }
  return pool.slice(0, size);
}

/** The platform's copy of a Lotwise bidder: the same e-mail, perhaps cased or misspelt. */
function plantedFrom(random: Random, bidder: BidderRecord, variant: 'same' | 'typo' | 'gmail') {
  const email = bidder.email ?? '';
  const [local = '', domain = ''] = email.split('@');
  const firstName =
    variant === 'typo' && bidder.firstName.length > 3
      ? `${bidder.firstName.slice(0, 2)}${bidder.firstName.slice(3)}`
      : bidder.firstName;
  const planted =
    variant === 'gmail'
      ? `${local.replace(/\./g, '')}+auctions@${domain}`
      : random.next() < 0.5
        ? email.toUpperCase()
        : email;
  return { firstName, lastName: bidder.lastName, email: planted };
}

async function bidderImportFigures() {
  const { testStack, owner, sandbox } = await stackWithOwner('bidders');
  try {
    const token = freshToken(owner);
    const { bidders, ...cosmos } = cosmosFor(testStack);
    const database = cosmos.client.database(testStack.settings.COSMOS_DATABASE as string);
    progress(`seeding ${LOTWISE_BIDDERS} Lotwise bidders`);
    const records = await bidderRecords(owner.accountId, LOTWISE_BIDDERS);
    await writeAll(bidders, owner.accountId, records);
    // 5% of the platform's bidders are the house's: 600 with the same address (some in capitals),
    // 200 of those with a misspelt first name, and 200 Gmail users under a dotless, tagged alias.
    const random = generator(2026);
    const gmail = records.filter((record) => record.email?.endsWith('@gmail.com'));
    const others = records.filter((record) => !record.email?.endsWith('@gmail.com'));
    const truth: BidderRecord[] = [
      ...sample(random, others, 800),
      ...sample(random, gmail, KNOWN - 800),
    ];
    const include = truth.map((record, index) =>
      plantedFrom(random, record, index < 600 ? 'same' : index < 800 ? 'typo' : 'gmail'),
    );
    const platform = await sandbox.createAccount({
      platform: 'ProxyBid',
      auctions: 0,
      bidders: PLATFORM_BIDDERS,
      include,
    });
    const snapshot = await sandbox.account(platform.key);
    const truthOf = new Map<string, string>();
    snapshot.bidders.slice(0, KNOWN).forEach((bidder, index) => {
      const planted = include[index];
      if (bidder.firstName !== planted?.firstName || bidder.email !== planted.email)
        throw new Error('the sandbox did not keep the planted bidders first');
      truthOf.set(bidder.externalId, (truth[index] as BidderRecord).id);
    });
    await saveSync(testStack, await token(), { autoImport: false, bidderDataSync: true });
    await connect(testStack, await token(), platform.key);
    progress(`importing ${PLATFORM_BIDDERS} platform bidders`);
    const sync = await timedSync(testStack, token);

    const known = new Set(records.map((record) => record.id));
    const { resources: linked } = await bidders.items
      .query<Pick<BidderRecord, 'id' | 'mergedIds' | 'platformIdentities'>>({
        query:
          'SELECT c.id, c.mergedIds, c.platformIdentities FROM c WHERE c.accountId = @account AND ARRAY_LENGTH(c.platformIdentities) > 0',
        parameters: [{ name: '@account', value: owner.accountId }],
      })
      .fetchAll();
    // Which Lotwise bidder (of those there before) each platform bidder was found to be.
    const found = new Map<string, Set<string>>();
    const note = (externalId: string, lotwiseId: string) =>
      found.set(externalId, (found.get(externalId) ?? new Set()).add(lotwiseId));
    const platformOfBidder = new Map<string, string[]>();
    let sameBidder = 0;
    for (const bidder of linked) {
      const externalIds = (bidder.platformIdentities ?? []).map((identity) => identity.externalId);
      platformOfBidder.set(bidder.id, externalIds);
      for (const id of [bidder.id, ...(bidder.mergedIds ?? [])]) {
        if (!known.has(id)) continue;
        for (const externalId of externalIds) {
          note(externalId, id);
          sameBidder += 1;
        }
      }
    }
    const { resources: pairs } = await database
      .container('bidderDuplicates')
      .items.query<Pick<DuplicateRecord, 'bidder1Id' | 'bidder2Id'>>({
        query:
          "SELECT c.bidder1Id, c.bidder2Id FROM c WHERE c.accountId = @account AND c.status = 'pending'",
        parameters: [{ name: '@account', value: owner.accountId }],
      })
      .fetchAll();
    let forReview = 0;
    for (const pair of pairs) {
      for (const [lotwise, imported] of [
        [pair.bidder1Id, pair.bidder2Id],
        [pair.bidder2Id, pair.bidder1Id],
      ] as const) {
        if (!known.has(lotwise)) continue;
        for (const externalId of platformOfBidder.get(imported) ?? []) {
          note(externalId, lotwise);
          forReview += 1;
        }
      }
    }
    let correct = 0;
    let claimed = 0;
    for (const [externalId, lotwiseIds] of found) {
      claimed += lotwiseIds.size;
      if (lotwiseIds.has(truthOf.get(externalId) ?? '')) correct += 1;
    }
    return {
      platformBidders: PLATFORM_BIDDERS,
      lotwiseBidders: LOTWISE_BIDDERS,
      alreadyKnown: KNOWN,
      seconds: sync.seconds,
      perSecond: Math.round(PLATFORM_BIDDERS / sync.seconds),
      counts: sync.counts,
      found: { sameBidder, forReview, total: claimed },
      recall: round(correct / KNOWN, 4),
      precision: round(correct / (claimed || 1), 4),
      biddersAfterwards: await count(bidders, owner.accountId, 'true'),
    };
  } finally {
    await testStack.stop();
  }
}

/** BENCH_INTEGRATIONS picks the parts (all by default): `auctions`, `bidders`. */
export const INTEGRATION_PARTS = ['auctions', 'bidders'];

export async function integrationFigures(parts: readonly string[] = INTEGRATION_PARTS) {
  const report = async <T>(name: string, figures: () => Promise<T>): Promise<T | null> => {
    if (!parts.includes(name)) return null;
    progress(name);
    const result = await figures();
    progress(`${name} ${JSON.stringify(result)}`);
    return result;
  };
  try {
    return {
      auctions: await report('auctions', auctionSyncFigures),
      bidders: await report('bidders', bidderImportFigures),
    };
  } finally {
    agent.destroy();
  }
}

export type IntegrationFigures = Awaited<ReturnType<typeof integrationFigures>>;
