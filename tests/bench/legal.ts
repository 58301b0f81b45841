import { randomUUID } from 'node:crypto';
import type { CaseCounter, CaseRecord } from '../../functions/src/legal/legal.repo.js';
import type { CaseType, PendingApproval, Person } from '../../functions/src/legal/legal.schema.js';
import { startTestStack } from '../support/test-stack.js';
import { writeAll } from './auctions.js';
import { generatePeople, generator, type Random } from './bidder-data.js';
import { agent, cosmosFor, newOwner, send } from './client.js';
import { round, summarise, type Summary } from './stats.js';

/**
 * Figures for the legal case list on a throw-away stack: GET /listLegalCases at 10,000 cases in
 * one account (the case screen's load of 1,000 rows, a filtered page of 50 and a later page of a
 * search), one request at a time and at 8 concurrent clients, against the same Cosmos query
 * issued directly with the SDK in the same run, and a point read of one case as the fixed cost
 * of any route. The cases are written straight to Cosmos in transactional batches, shaped as
 * legal.service.ts writes them and as its automation leaves them (nothing for it to move or
 * remind about while the figures are taken).
 */

const CASES = 10_000;
const LIST_SEQUENTIAL = 60;
const LIST_CONCURRENCY = 8;
const LIST_LOADED = 200;

const progress = (message: string) => process.stderr.write(`bench · legal: ${message}\n`);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const TITLES: Record<CaseType, readonly string[]> = {
  payment_dispute: ['Non-payment for lot {n}', 'Chargeback on invoice INV-{n}', 'Partial payment'],
  authenticity_claim: ['Authenticity of lot {n} questioned', 'Forgery claim on lot {n}'],
  condition_dispute: ['Lot {n} not as catalogued', 'Damage in transit, lot {n}'],
  title_dispute: ['Ownership claim on lot {n}', 'Stolen property claim, lot {n}'],
  contract_breach: ['Consignment agreement breached', "Buyer's premium terms disputed"],
  bidder_complaint: ['Complaint about bidding increments', 'Absentee bid {n} not executed'],
  consigner_dispute: ['Reserve not honoured on lot {n}', 'Late settlement to consigner'],
  other: ['Data access request', 'Trademark notice about catalogue {n}'],
};
const JURISDICTIONS = [
  ['New York, NY', 'USD'],
  ['New York, NY', 'USD'],
  ['Boston, MA', 'USD'],
  ['Los Angeles, CA', 'USD'],
  ['Chicago, IL', 'USD'],
  ['London, England', 'GBP'],
  ['Paris, France', 'EUR'],
  ['Tokyo, Japan', 'JPY'],
] as const;
const PRIORITIES = [
  'critical',
  'high',
  'high',
  'medium',
  'medium',
  'medium',
  'low',
  'low',
] as const;
const COUNSEL = ['Hale & Morrow LLP', 'Brightwater Legal', 'Osei Carrington', 'In-house'];
const THEMES = ['Spring', 'Autumn', 'Estate', 'Collectors', 'Modern', 'Classic'];
const HOUSE = 'Bench Legal Auctions';

/** When, between `from` and `until`, as an ISO instant. */
const between = (random: Random, from: number, until: number) =>
  new Date(from + random.next() * Math.max(0, until - from)).toISOString();

/**
 * Case records as the service writes them, over every status, priority, type and category,
 * filed over two years and numbered in filing order. Automation (spec 4.2) has done its work:
 * unless paused, a PENDING case is under a day old, a RESOLVED one resolved under a week ago, a
 * DISMISSED one under 30 days ago, a SETTLED one not yet paid, a quiet one already reminded.
 */
async function caseRecords(accountId: string, count: number, random: Random) {
  const {
    DIRECTOR_APPROVAL_ABOVE,
    caseCategories,
    caseStatuses,
    caseTypes,
    caseTypeLabels,
    isActiveStatus,
    priorityWeights,
  } = await import('../../functions/src/legal/legal.schema.js');
  const { currencyExponent } = await import('../../functions/src/auctions/auctions.schema.js');
  const { people } = generatePeople(count, 0, 1201, 'l');
  const staff: Person[] = [
    'Dana Whitfield',
    'Marcus Okafor',
    'Priya Lindqvist',
    'Owen Brennan',
  ].map((name) => ({ id: randomUUID(), name }));
  const now = Date.now();
  const filed = Array.from({ length: count }, () => {
    const status = random.pick(caseStatuses);
    const paused = random.next() < 0.08;
    const createdAt =
      status === 'PENDING' && !paused
        ? between(random, now - 20 * HOUR, now - HOUR)
        : between(random, now - 730 * DAY, now - HOUR);
    return { status, paused, createdAt };
  });
  filed.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return filed.map(({ status, paused, createdAt }, index): CaseRecord => {
    const caseType = random.pick(caseTypes);
    const priority = random.pick(PRIORITIES);
    const [jurisdiction, currency] = random.pick(JURISDICTIONS);
    const claimAmount = random.int(50, 250_000) * 10 ** currencyExponent[currency];
    const person = people[index] as (typeof people)[number];
    const name = `${person.firstName} ${person.lastName}`;
    const lot = random.int(1, 400);
    const title = random.pick(TITLES[caseType]).replace('{n}', String(lot));
    const auction =
      random.next() < 0.5
        ? { id: randomUUID(), title: `${random.pick(THEMES)} Sale ${random.int(1, 300)}` }
        : null;
    const bidder =
      caseType === 'payment_dispute' || random.next() < 0.4 ? { id: randomUUID(), name } : null;
    const houseFirst = random.next() < 0.6;
    const house = { name: HOUSE, type: 'business' as const, email: 'legal@bench.example.com' };
    const other = { name, type: 'individual' as const, email: person.email ?? '' };
    const active = isActiveStatus(status);
    const created = Date.parse(createdAt);
    const statusChangedAt =
      status === 'SUBMITTED'
        ? createdAt
        : !paused && status === 'RESOLVED'
          ? between(random, Math.max(created, now - 6 * DAY), now)
          : !paused && status === 'DISMISSED'
            ? between(random, Math.max(created, now - 29 * DAY), now)
            : between(random, created, now);
    const updatedAt = between(random, Date.parse(statusChangedAt), now);
    const assignedTo =
      status === 'SUBMITTED' && !paused ? null : random.next() < 0.95 ? random.pick(staff) : null;
    const quiet = active && assignedTo !== null && Date.parse(updatedAt) < now - 29 * DAY;
    const settled = status === 'SETTLED' || (status === 'CLOSED' && random.next() < 0.3);
    const settlementAmount = settled ? Math.round(claimAmount * (0.3 + random.next() * 0.6)) : null;
    // A settlement above the director's threshold waits for approval.
    const waiting: PendingApproval | null =
      (status === 'MEDIATION' || status === 'LITIGATION') &&
      claimAmount * 0.7 > DIRECTOR_APPROVAL_ABOVE * 10 ** currencyExponent[currency] &&
      random.next() < 0.1
        ? {
            to: 'SETTLED',
            settlementAmount: Math.round(claimAmount * 0.7),
            reason: 'Parties agreed terms in principle',
            requestedBy: random.pick(staff),
            requestedAt: between(random, Date.parse(updatedAt), now),
          }
        : null;
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    const record: CaseRecord = {
      id: randomUUID(),
      accountId,
      kind: 'case',
      caseNumber: `LC-${createdAt.slice(0, 4)}-${String(index + 1).padStart(4, '0')}`,
      caseType,
      category: random.pick(caseCategories),
      priority,
      priorityWeight: priorityWeights[priority],
      title,
      description: `${caseTypeLabels[caseType]} raised by ${name} about lot ${lot}.`,
      jurisdiction,
      claimAmount,
      currency,
      plaintiff: houseFirst ? house : other,
      defendant: houseFirst ? other : house,
      auction,
      bidder,
      status,
      active,
      assignedTo,
      legalCounsel: ['MEDIATION', 'LITIGATION', 'SETTLED'].includes(status)
        ? random.pick(COUNSEL)
        : '',
      courtCaseNumber:
        status === 'LITIGATION' ? `${createdAt.slice(0, 4)}-CV-${random.int(1000, 99999)}` : '',
      estimatedResolutionDate:
        active && random.next() < 0.5 ? day(now + random.int(10, 365) * DAY) : null,
      filingDeadline:
        status === 'LITIGATION' && random.next() < 0.7 ? day(now + random.int(5, 120) * DAY) : null,
      settlementAmount,
      settlementPayment:
        status === 'CLOSED' && settlementAmount !== null
          ? {
              amount: settlementAmount,
              receivedOn: statusChangedAt.slice(0, 10),
              reference: `WIRE-${random.int(10000, 99999)}`,
              recordedBy: random.pick(staff),
              recordedAt: statusChangedAt,
            }
          : null,
      resolutionNotes: active ? '' : 'Outcome recorded on the timeline.',
      pendingApproval: waiting,
      automationPaused: paused,
      searchText: '',
      revision: status === 'SUBMITTED' ? 1 : random.int(2, 12),
      createdAt,
      filedDay: createdAt.slice(0, 10),
      createdBy: random.pick(staff),
      updatedAt,
      statusChangedAt,
      // Reminded 30 days into the quiet spell, and again every 30 days: last within the month.
      remindedAt:
        quiet && !paused
          ? between(
              random,
              Math.min(now, Math.max(Date.parse(updatedAt) + 30 * DAY, now - 29 * DAY)),
              now,
            )
          : null,
    };
    // As searchTextOf in legal.service.ts.
    record.searchText = [
      record.caseNumber,
      record.title,
      caseTypeLabels[record.caseType],
      record.caseType,
      record.auction?.title ?? '',
      record.auction?.id ?? '',
      record.bidder?.name ?? '',
    ]
      .join(' ')
      .toLowerCase();
    return record;
  });
}

interface ListVariant {
  name: string;
  query: Record<string, string>;
  /** The filter and order legal.repo.ts's listCondition and listCasePage build for that query. */
  where: string;
  orderBy: string;
  parameters: { name: string; value: string | string[] }[];
  page: number;
  limit: number;
}

const listVariants: ListVariant[] = [
  {
    name: 'screen, 1000 rows',
    query: { limit: '1000' },
    where: "c.kind = 'case'",
    orderBy: 'c.createdAt DESC',
    parameters: [],
    page: 1,
    limit: 1000,
  },
  {
    name: 'filtered',
    query: {
      status: 'PENDING,IN REVIEW,MEDIATION',
      priority: 'critical,high',
      sortBy: 'priority',
      limit: '50',
    },
    where:
      "c.kind = 'case' AND ARRAY_CONTAINS(@statuses, c.status) AND ARRAY_CONTAINS(@priorities, c.priority)",
    orderBy: 'c.priorityWeight DESC',
    parameters: [
      { name: '@statuses', value: ['PENDING', 'IN REVIEW', 'MEDIATION'] },
      { name: '@priorities', value: ['critical', 'high'] },
    ],
    page: 1,
    limit: 50,
  },
  {
    name: 'search, page 3',
    query: { search: 'dispute', sortBy: 'amount', sortOrder: 'asc', limit: '50', page: '3' },
    where: "c.kind = 'case' AND CONTAINS(c.searchText, @search)",
    orderBy: 'c.claimAmount ASC',
    parameters: [{ name: '@search', value: 'dispute' }],
    page: 3,
    limit: 50,
  },
];

/** `requests` calls over `concurrency` clients; the latency of each. */
async function loaded(action: () => Promise<unknown>, requests: number, concurrency: number) {
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

const figure = (summary: Summary) => ({
  p50: round(summary.p50),
  p95: round(summary.p95),
  mean: round(summary.mean),
});

const ratio = (route: Summary, sdk: Summary) => ({
  p50: round(route.p50 / sdk.p50),
  p95: round(route.p95 / sdk.p95),
});

async function listFigures() {
  const testStack = await startTestStack('http://localhost:4280', {
    LOG_LEVEL: 'error',
    LOTWISE_SEED: 'false',
  });
  try {
    const owner = await newOwner(testStack, 'legal');
    const { client } = cosmosFor(testStack);
    const { legalContainer } = await import('../../functions/src/legal/legal.repo.js');
    const legal = client
      .database(testStack.settings.COSMOS_DATABASE as string)
      .container(legalContainer.id);
    progress(`seeding ${CASES} cases`);
    const started = performance.now();
    const cases = await caseRecords(owner.accountId, CASES, generator(4242));
    const counter: CaseCounter = {
      id: 'case-counter',
      accountId: owner.accountId,
      kind: 'counter',
      next: CASES + 1,
    };
    await writeAll(legal, owner.accountId, [...cases, counter]);
    const seededSeconds = (performance.now() - started) / 1000;
    const token = await owner.token();
    // The fixed cost of any route (host, token, one point read): what a list adds is above it.
    const floorUrl = `${testStack.stack.domainUrl}/cases/${cases[0]?.id ?? ''}`;
    const floor: number[] = [];
    const variants: Record<string, ReturnType<typeof variantFigures>> = {};
    for (const variant of listVariants) {
      progress(variant.name);
      const url = `${testStack.stack.domainUrl}/listLegalCases?${new URLSearchParams(variant.query).toString()}`;
      const querySpec = {
        query: `SELECT * FROM c WHERE c.accountId = @accountId AND (${variant.where}) ORDER BY ${variant.orderBy}`,
        parameters: [{ name: '@accountId', value: owner.accountId }, ...variant.parameters],
      };
      let routeBytes = 0;
      const viaRoute = async () => {
        const reply = await send('GET', url, { token });
        if (reply.status !== 200)
          throw new Error(`listLegalCases answered ${reply.status}: ${reply.text}`);
        routeBytes = Buffer.byteLength(reply.text);
        return JSON.parse(reply.text) as { cases: { id: string }[]; total: number };
      };
      // The page read as a caller of the SDK would: pages of `limit` until the wanted one.
      const viaSdk = async () => {
        const iterator = legal.items.query<{ id: string }>(querySpec, {
          partitionKey: owner.accountId,
          maxItemCount: variant.limit,
        });
        const wanted = variant.page * variant.limit;
        const rows: { id: string }[] = [];
        let more = true;
        while (more && rows.length < wanted) {
          const response = await iterator.fetchNext();
          rows.push(...response.resources);
          more = response.hasMoreResults;
        }
        const page = rows.slice(wanted - variant.limit, wanted);
        JSON.stringify(page);
        return page;
      };
      // The route also counts the matches (in parallel with the page): the same count, alone.
      const countSpec = {
        query: `SELECT VALUE COUNT(1) FROM c WHERE c.accountId = @accountId AND (${variant.where})`,
        parameters: querySpec.parameters,
      };
      const countViaSdk = async () => {
        const begin = performance.now();
        await legal.items.query<number>(countSpec, { partitionKey: owner.accountId }).fetchAll();
        return performance.now() - begin;
      };
      const [routePage, sdkPage] = [await viaRoute(), await viaSdk()];
      const samePage =
        routePage.cases.map((legalCase) => legalCase.id).join() ===
        sdkPage.map((row) => row.id).join();
      const sequential = { route: [] as number[], sdk: [] as number[], count: [] as number[] };
      for (let run = 0; run < LIST_SEQUENTIAL; run += 1) {
        for (const way of ['route', 'sdk'] as const) {
          const begin = performance.now();
          await (way === 'route' ? viaRoute() : viaSdk());
          sequential[way].push(performance.now() - begin);
        }
        sequential.count.push(await countViaSdk());
        const reply = await send('GET', floorUrl, { token });
        if (reply.status !== 200) throw new Error(`GET /cases/{id} answered ${reply.status}`);
        floor.push(reply.ms);
      }
      const loadedRoute = await loaded(viaRoute, LIST_LOADED, LIST_CONCURRENCY);
      const loadedSdk = await loaded(viaSdk, LIST_LOADED, LIST_CONCURRENCY);
      variants[variant.name] = variantFigures({
        url: url.replace(testStack.stack.domainUrl, ''),
        sql: querySpec.query,
        total: routePage.total,
        rows: routePage.cases.length,
        routeBytes,
        samePageAsSdk: samePage,
        sequential: {
          route: summarise(sequential.route),
          sdk: summarise(sequential.sdk),
          count: summarise(sequential.count),
        },
        concurrent: { route: loadedRoute, sdk: loadedSdk },
      });
    }
    client.dispose();
    return {
      cases: CASES,
      seededSeconds: round(seededSeconds, 1),
      variants,
      getOneCaseMs: figure(summarise(floor)),
    };
  } finally {
    await testStack.stop();
  }
}

function variantFigures(measured: {
  url: string;
  sql: string;
  total: number;
  rows: number;
  routeBytes: number;
  samePageAsSdk: boolean;
  sequential: { route: Summary; sdk: Summary; count: Summary };
  concurrent: { route: Summary; sdk: Summary };
}) {
  const { sequential, concurrent, ...rest } = measured;
  return {
    ...rest,
    oneAtATime: {
      requests: LIST_SEQUENTIAL,
      routeMs: figure(sequential.route),
      sdkMs: figure(sequential.sdk),
      ratio: ratio(sequential.route, sequential.sdk),
      countSdkMs: figure(sequential.count),
    },
    concurrent: {
      clients: LIST_CONCURRENCY,
      requests: LIST_LOADED,
      routeMs: figure(concurrent.route),
      sdkMs: figure(concurrent.sdk),
      ratio: ratio(concurrent.route, concurrent.sdk),
    },
  };
}

export async function legalFigures() {
  try {
    progress('list');
    const result = await listFigures();
    progress(`list ${JSON.stringify(result)}`);
    return result;
  } finally {
    agent.destroy();
  }
}

export type LegalFigures = Awaited<ReturnType<typeof legalFigures>>;
