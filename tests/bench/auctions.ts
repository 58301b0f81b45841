import { randomUUID } from 'node:crypto';
import type { Container, JSONObject } from '@azure/cosmos';
import type { AuctionRecord, LotRecord } from '../../functions/src/auctions/auctions.repo.js';
import type { BidderRecord } from '../../functions/src/bidders/bidders.repo.js';
import { startTestStack } from '../support/test-stack.js';
import { generatePeople, generator, statsFor, type Random } from './bidder-data.js';
import { agent, cosmosFor, json, multipart, newOwner, send } from './client.js';
import { round, summarise } from './stats.js';

/**
 * Figures for the auctions feature, each part on a throw-away stack of its own:
 *  1. GET /listAuctions at 5,000 auctions in one account: a filtered, sorted page of 50 (and a
 *     later page of a search), one request at a time and at 8 concurrent clients, against the
 *     same Cosmos query issued directly with the SDK in the same run.
 *  2. GET /auctions/{id}/assessment at 10,000 bidders (an auction of 300 lots).
 *  3. A 2,000-lot CSV through POST /auctions/{id}/lots/import, then the same file again (every
 *     row an update).
 * Auctions, lots and bidders are written straight to Cosmos in transactional batches.
 */

const AUCTIONS = 5_000;
const BIDDERS = 10_000;
const ASSESSED_LOTS = 300;
const IMPORT_LOTS = 2_000;
const LIST_SEQUENTIAL = 60;
const LIST_CONCURRENCY = 8;
const LIST_LOADED = 200;
const ASSESSMENTS = 30;

const progress = (message: string) => process.stderr.write(`bench · auctions: ${message}\n`);

const DAY = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);

/** Documents written a hundred at a time, all or none each, four batches at once. */
export async function writeAll(container: Container, accountId: string, documents: object[]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < documents.length) {
        const batch = documents.slice(next, next + 100);
        next += 100;
        const response = await container.items.batch(
          batch.map((document) => ({
            operationType: 'Create' as const,
            resourceBody: document as JSONObject,
          })),
          accountId,
        );
        if (response.result?.some((entry) => entry.statusCode >= 400))
          throw new Error('a seeding batch was refused');
      }
    }),
  );
}

const HOUSES = ['Harborview Auctions', 'Lakeside Auction Gallery', 'North Pier Rooms'];
const THEMES = [
  'Spring',
  'Summer',
  'Autumn',
  'Winter',
  'Estate',
  'Collectors',
  'Modern',
  'Classic',
];

/** Auction records as the service writes them, across every status, category and house. */
async function auctionRecords(accountId: string, count: number, random: Random) {
  const { auctionInputSchema, auctionCategories, auctionCategoryLabels, platforms } =
    await import('../../functions/src/auctions/auctions.schema.js');
  const now = Date.now();
  return Array.from({ length: count }, (_, index): AuctionRecord => {
    const category = random.pick(auctionCategories);
    const company = random.pick(HOUSES);
    const title = `${random.pick(THEMES)} ${auctionCategoryLabels[category]} Sale ${index + 1}`;
    const starts = new Date(now + random.int(-600, 400) * DAY);
    const ends = new Date(starts.getTime() + random.int(0, 3) * DAY + 4 * 3_600_000);
    const status =
      ends.getTime() < now
        ? random.next() < 0.1
          ? 'Cancelled'
          : 'Completed'
        : starts.getTime() < now
          ? 'Active'
          : random.next() < 0.2
            ? 'Draft'
            : 'Upcoming';
    const {
      startDate: _sd,
      startTime: _st,
      endDate: _ed,
      endTime: _et,
      timeZone: _tz,
      ...fields
    } = auctionInputSchema.parse({
      title,
      category,
      startDate: day(starts),
      startTime: '18:00',
      endDate: day(ends),
      endTime: '22:00',
    });
    const imported = random.next() < 0.4 ? random.pick(platforms) : null;
    const at = new Date(starts.getTime() - 30 * DAY).toISOString();
    return {
      ...fields,
      id: randomUUID(),
      accountId,
      kind: 'auction',
      status,
      company,
      auctionHouseName: company,
      startsAt: starts.toISOString(),
      endsAt: ends.toISOString(),
      timeZone: 'UTC',
      startDay: day(starts),
      endDay: day(ends),
      searchText: `${title} ${company}`.toLowerCase(),
      sortTitle: title.toLowerCase(),
      sortCompany: company.toLowerCase(),
      revision: 1,
      lotCount: random.int(0, 400),
      biddersRegistered: random.int(0, 300),
      registrationTurns: 0,
      importedFrom: imported,
      source: imported ? { platform: imported, externalId: `X-${index}`, lastSyncAt: null } : null,
      createdAt: at,
      createdBy: null,
      updatedAt: at,
      publishedAt: status === 'Draft' ? null : at,
      closedAt: status === 'Completed' ? ends.toISOString() : null,
      cancelledAt: status === 'Cancelled' ? ends.toISOString() : null,
      cancelReason: status === 'Cancelled' ? 'Consignor withdrew' : null,
    };
  });
}

interface ListVariant {
  name: string;
  query: Record<string, string>;
  /** The same filter and order as auctions.repo.ts writes for that query. */
  sql: string;
  parameters: { name: string; value: string | string[] }[];
  page: number;
}

const listVariants: ListVariant[] = [
  {
    name: 'filtered',
    query: { category: 'art', sortBy: 'startsAt', sortOrder: 'desc', limit: '50' },
    sql: "c.kind = 'auction' AND c.category = @category ORDER BY c.startsAt DESC",
    parameters: [{ name: '@category', value: 'art' }],
    page: 1,
  },
  {
    name: 'search, page 3',
    query: {
      view: 'past',
      search: 'sale',
      sortBy: 'title',
      sortOrder: 'asc',
      limit: '50',
      page: '3',
    },
    sql: "c.kind = 'auction' AND ARRAY_CONTAINS(@statuses, c.status) AND CONTAINS(c.searchText, @search) ORDER BY c.sortTitle ASC",
    parameters: [
      { name: '@statuses', value: ['Completed', 'Cancelled'] },
      { name: '@search', value: 'sale' },
    ],
    page: 3,
  },
];

/** `requests` calls over `concurrency` clients; the latency of each. */
async function loaded(action: () => Promise<void>, requests: number, concurrency: number) {
  const samples: number[] = [];
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < requests) {
        issued += 1;
        const begin = performance.now();
        await action();
        samples.push(performance.now() - begin);
      }
    }),
  );
  return summarise(samples);
}

const figure = (summary: ReturnType<typeof summarise>) => ({
  p50: round(summary.p50),
  p95: round(summary.p95),
  mean: round(summary.mean),
});

async function listFigures() {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const owner = await newOwner(testStack, 'auctions');
    const { client, auctions } = cosmosFor(testStack);
    progress(`seeding ${AUCTIONS} auctions`);
    const started = performance.now();
    await writeAll(
      auctions,
      owner.accountId,
      await auctionRecords(owner.accountId, AUCTIONS, generator(31)),
    );
    const seededSeconds = (performance.now() - started) / 1000;
    const token = await owner.token();
    // The fixed cost of any route (host, token, one point read): what a list adds is above it.
    const [someAuction] = (
      await auctions.items
        .query<{ id: string }>(
          {
            query: 'SELECT TOP 1 c.id FROM c WHERE c.accountId = @accountId',
            parameters: [{ name: '@accountId', value: owner.accountId }],
          },
          { partitionKey: owner.accountId },
        )
        .fetchAll()
    ).resources;
    const floorUrl = `${testStack.stack.domainUrl}/auctions/${someAuction?.id ?? ''}`;
    const floor: number[] = [];
    const figures: Record<string, unknown> = {};
    for (const variant of listVariants) {
      const url = `${testStack.stack.domainUrl}/listAuctions?${new URLSearchParams(variant.query).toString()}`;
      const querySpec = {
        query: `SELECT * FROM c WHERE c.accountId = @accountId AND ${variant.sql}`,
        parameters: [{ name: '@accountId', value: owner.accountId }, ...variant.parameters],
      };
      const viaRoute = async () => {
        const reply = await send('GET', url, { token });
        if (reply.status !== 200)
          throw new Error(`listAuctions answered ${reply.status}: ${reply.text}`);
        return JSON.parse(reply.text) as { auctions: { id: string }[]; total: number };
      };
      const viaSdk = async () => {
        const iterator = auctions.items.query<{ id: string }>(querySpec, {
          partitionKey: owner.accountId,
          maxItemCount: 50,
        });
        let page: { id: string }[] = [];
        for (let at = 0; at < variant.page; at += 1) page = (await iterator.fetchNext()).resources;
        JSON.stringify(page);
        return page;
      };
      const [routePage, sdkPage] = [await viaRoute(), await viaSdk()];
      const samePage =
        routePage.auctions.map((auction) => auction.id).join() ===
        sdkPage.map((auction) => auction.id).join();
      const sequential = { route: [] as number[], sdk: [] as number[] };
      for (let run = 0; run < LIST_SEQUENTIAL; run += 1) {
        for (const way of ['route', 'sdk'] as const) {
          const begin = performance.now();
          await (way === 'route' ? viaRoute() : viaSdk());
          sequential[way].push(performance.now() - begin);
        }
        const reply = await send('GET', floorUrl, { token });
        if (reply.status !== 200) throw new Error(`GET /auctions/{id} answered ${reply.status}`);
        floor.push(reply.ms);
      }
      const route = summarise(sequential.route);
      const sdk = summarise(sequential.sdk);
      const loadedRoute = await loaded(
        async () => void (await viaRoute()),
        LIST_LOADED,
        LIST_CONCURRENCY,
      );
      const loadedSdk = await loaded(
        async () => void (await viaSdk()),
        LIST_LOADED,
        LIST_CONCURRENCY,
      );
      figures[variant.name] = {
        url: url.replace(testStack.stack.domainUrl, ''),
        sql: querySpec.query,
        total: routePage.total,
        samePageAsSdk: samePage,
        oneAtATime: {
          requests: LIST_SEQUENTIAL,
          routeMs: figure(route),
          sdkMs: figure(sdk),
          ratio: { p50: round(route.p50 / sdk.p50), p95: round(route.p95 / sdk.p95) },
        },
        concurrent: {
          clients: LIST_CONCURRENCY,
          requests: LIST_LOADED,
          routeMs: figure(loadedRoute),
          sdkMs: figure(loadedSdk),
          ratio: {
            p50: round(loadedRoute.p50 / loadedSdk.p50),
            p95: round(loadedRoute.p95 / loadedSdk.p95),
          },
        },
      };
    }
    client.dispose();
    return {
      auctions: AUCTIONS,
      seededSeconds: round(seededSeconds, 1),
      variants: figures,
      getOneAuctionMs: figure(summarise(floor)),
    };
  } finally {
    await testStack.stop();
  }
}

/** Bidders with preferences and histories, so the assessment has categories to weigh. */
export async function bidderRecords(accountId: string, count: number) {
  const { buildBidder } = await import('../../functions/src/bidders/bidders.service.js');
  const { defaultScoringSettings } = await import('../../functions/src/scoring/scoring.service.js');
  const { preferredCategories } = await import('../../functions/src/bidders/bidders.schema.js');
  const { auctionCategoryLabels } = await import('../../functions/src/auctions/auctions.schema.js');
  const settings = defaultScoringSettings();
  const { people } = generatePeople(count, 0, 808, 'a');
  const random = generator(909);
  const now = new Date();
  const labels = Object.values(auctionCategoryLabels);
  return people.map((person, index): BidderRecord => {
    const record = buildBidder(
      { scope: { accountId }, actor: null },
      {
        bidderId: `A${String(index).padStart(6, '0')}`,
        firstName: person.firstName,
        lastName: person.lastName,
        email: person.email ?? `bidder${index}@example.com`,
        address: person.address,
        status: person.status,
        preferredCategories: [
          ...new Set(
            Array.from({ length: random.int(0, 3) }, () => random.pick(preferredCategories)),
          ),
        ],
        preferredPaymentMethod: 'Credit Card',
        marketingOptOut: random.next() < 0.05,
        stats: statsFor(random, now),
      },
      settings,
      now,
    );
    record.history = Array.from({ length: random.int(0, 4) }, (_, entry) => ({
      id: `auction:seed-${index}-${entry}`,
      isInternal: true,
      auctionTitle: `Earlier sale ${entry}`,
      generalCategory: random.pick(labels),
      auctionHouse: 'Bench House',
      auctionDate: new Date(now.getTime() - random.int(10, 900) * DAY).toISOString(),
      totalSpent: random.int(0, 20_000),
      totalBids: random.int(0, 12),
      wonItems: random.int(0, 3),
      highestBid: null,
      lotNumbers: [],
      paymentStatus: 'Paid',
      pickupStatus: 'Completed',
      specialNotes: null,
    }));
    return record;
  });
}

/** An auction of `lots` lots across a few categories, written as the catalogue import would. */
async function auctionWithLots(auctions: Container, accountId: string, lots: number) {
  const random = generator(77);
  const [auction] = await auctionRecords(accountId, 1, random);
  if (!auction) throw new Error('no auction');
  Object.assign(auction, { category: 'art', status: 'Upcoming', lotCount: lots });
  const categories = ['Art', 'Art', 'Art', 'Antiques', 'Jewelry', 'Watches', 'Furniture'];
  const now = new Date().toISOString();
  const documents = Array.from({ length: lots }, (_, index): LotRecord => {
    const low = random.int(2, 400) * 5_000;
    return {
      id: randomUUID(),
      accountId,
      kind: 'lot',
      auctionId: auction.id,
      lotNumber: String(index + 1),
      position: index + 1,
      title: `Lot ${index + 1}`,
      description: '',
      category: random.pick(categories),
      estimateLow: low,
      estimateHigh: low * 2,
      reserve: null,
      consignor: null,
      inventoryItemId: null,
      result: null,
      createdAt: now,
      updatedAt: now,
    };
  });
  await writeAll(auctions, accountId, [auction, ...documents]);
  return auction;
}

async function assessmentFigures() {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const owner = await newOwner(testStack, 'assessment');
    const { client, bidders, auctions } = cosmosFor(testStack);
    progress(`seeding ${BIDDERS} bidders and an auction of ${ASSESSED_LOTS} lots`);
    await writeAll(bidders, owner.accountId, await bidderRecords(owner.accountId, BIDDERS));
    const auction = await auctionWithLots(auctions, owner.accountId, ASSESSED_LOTS);
    const token = await owner.token();
    const url = `${testStack.stack.domainUrl}/auctions/${auction.id}/assessment?limit=50`;
    const samples: number[] = [];
    let counts: Record<string, number> = {};
    for (let run = 0; run < ASSESSMENTS + 3; run += 1) {
      const reply = await send('GET', url, { token });
      if (reply.status !== 200)
        throw new Error(`assessment answered ${reply.status}: ${reply.text}`);
      if (run >= 3) samples.push(reply.ms);
      counts = (JSON.parse(reply.text) as { counts: Record<string, number> }).counts;
    }
    // What reading the bidders' facts alone costs: the projection the service asks for.
    const { outreachFactsQuery } = await import('../../functions/src/bidders/bidders.repo.js');
    const read: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const begin = performance.now();
      await bidders.items
        .query(
          {
            query: `SELECT ${outreachFactsQuery} FROM c WHERE c.accountId = @accountId`,
            parameters: [{ name: '@accountId', value: owner.accountId }],
          },
          { partitionKey: owner.accountId },
        )
        .fetchAll();
      read.push(performance.now() - begin);
    }
    client.dispose();
    const timing = summarise(samples);
    return {
      bidders: BIDDERS,
      lots: ASSESSED_LOTS,
      requests: ASSESSMENTS,
      routeMs: figure(timing),
      factsQueryMs: figure(summarise(read)),
      underTwoSecondsAtP95: timing.p95 < 2000,
      counts,
    };
  } finally {
    await testStack.stop();
  }
}

/** A catalogue as a house exports it: every column, money in major units with separators. */
function catalogueCsv(lots: number) {
  const random = generator(5150);
  const categories = ['Art', 'Antiques', 'Jewelry', 'Watches', 'Furniture', 'Books', ''];
  const money = (minor: number) =>
    (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const lines = [
    'Lot No,Title,Description,Category,Low Estimate,High Estimate,Reserve,Consignor,Consignor Contact',
  ];
  for (let index = 0; index < lots; index += 1) {
    const low = random.int(2, 4000) * 2_500;
    lines.push(
      [
        `${index + 1}`,
        `Lot ${index + 1}: ${random.pick(THEMES)} piece`,
        `"A ${random.pick(THEMES).toLowerCase()} piece, good condition, provenance on file; see the condition report for lot ${index + 1}."`,
        random.pick(categories),
        `"${money(low)}"`,
        `"${money(low * 2)}"`,
        random.next() < 0.5 ? `"${money(Math.round(low * 0.8))}"` : '',
        `Consignor ${random.int(1, 80)}`,
        `consignor${random.int(1, 80)}@example.com`,
      ].join(','),
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

async function importFigures() {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const owner = await newOwner(testStack, 'catalogue');
    const token = await owner.token();
    const auction = await json<{ id: string }>('POST', `${testStack.stack.domainUrl}/auctions`, {
      token,
      body: {
        title: 'Bench catalogue',
        category: 'art',
        startDate: '2031-04-10',
        startTime: '18:00',
        endDate: '2031-04-10',
        endTime: '22:00',
      },
    });
    const data = catalogueCsv(IMPORT_LOTS);
    const { body, contentType } = multipart([{ name: 'catalogue.csv', data }], 'file');
    const url = `${testStack.stack.domainUrl}/auctions/${auction.id}/lots/import`;
    const run = async () => {
      const reply = await send('POST', url, {
        token,
        body,
        headers: { 'content-type': contentType },
      });
      if (reply.status !== 200) throw new Error(`import answered ${reply.status}: ${reply.text}`);
      return {
        ms: reply.ms,
        result: JSON.parse(reply.text) as { imported: number; updated: number; errors: unknown[] },
      };
    };
    progress(`importing ${IMPORT_LOTS} lots`);
    const first = await run();
    const again = await run();
    const read = await json<{ lotCount: number }>(
      'GET',
      `${testStack.stack.domainUrl}/auctions/${auction.id}`,
      {
        token,
      },
    );
    return {
      lots: IMPORT_LOTS,
      fileBytes: data.length,
      newLots: {
        seconds: round(first.ms / 1000, 2),
        imported: first.result.imported,
        errors: first.result.errors.length,
      },
      sameFileAgain: {
        seconds: round(again.ms / 1000, 2),
        updated: again.result.updated,
        errors: again.result.errors.length,
      },
      lotCountAfterwards: read.lotCount,
    };
  } finally {
    await testStack.stop();
  }
}

/** BENCH_AUCTIONS picks the parts (all by default): `list`, `assessment`, `import`. */
export const AUCTION_PARTS = ['list', 'assessment', 'import'];

export async function auctionFigures(parts: readonly string[] = AUCTION_PARTS) {
  try {
    const report = async <T>(name: string, figures: () => Promise<T>): Promise<T | null> => {
      if (!parts.includes(name)) return null;
      progress(name);
      const result = await figures();
      progress(`${name} ${JSON.stringify(result)}`);
      return result;
    };
    return {
      list: await report('list', listFigures),
      assessment: await report('assessment', assessmentFigures),
      import: await report('import', importFigures),
    };
  } finally {
    agent.destroy();
  }
}

export type AuctionFigures = Awaited<ReturnType<typeof auctionFigures>>;
