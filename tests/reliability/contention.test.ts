import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type {
  HouseAccessGrant,
  RoleChange,
  TeamMember,
} from '../../functions/src/identity/team/team.schema.js';
import { schemaSamples, validSamples } from './support/arbitraries.js';
import { excerpt } from './support/checks.js';
import { invoke, signUp, signUpWithAddOns, type Caller } from './support/http.js';
import { allIds, crawlIds } from './support/ids.js';
import {
  invitedMember,
  poolsFor,
  verifiedAuthenticator,
  withReferences,
  type Pools,
  type ReferenceKind,
} from './support/records.js';
import { operations, paramsOf, type Operation } from './support/routes.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

/**
 * Lost updates, from the route tables: every route that requires If-Match gets 200 writers at
 * once on one record, all holding the same ETag and each sending a different valid body. Exactly
 * one may win; the other 199 get 412; and reading the record afterwards shows the winner's ETag
 * and the winner's change. The record is read (and its ETag taken) with a GET on the same path,
 * or the one its preparation (below) names.
 */

const WRITERS = 200;

const ops = await operations();
const guarded = ops.filter((op) => op.contract.concurrency === 'if-match');

/**
 * What a route needs that the generic way cannot give it, with the reason. The generic way: the
 * record is one the account's lists show, or one the POST on its collection makes from a
 * generated body; the bodies are generated from the contract; the record read afterwards holds
 * the winning body as sent. Kept small; an entry for a route that is not guarded, or whose `read`
 * is no longer needed because the route gained a GET on its own path, fails the first case.
 */
interface Preparation {
  reason: string;
  /** The GET the record is read from (with its ETag) when the route has none on its own path. */
  read?: string;
  /** The route that makes the record when it is not the POST on the record's collection. */
  madeBy?: string;
  /** Makes the record when no route does it alone; answers the read route's parameters. */
  record?: (owner: Caller, pools: Pools) => Promise<Record<string, string>>;
  /** Fields of the bodies (and of the body that makes the record) that must name real things. */
  references?: Record<string, ReferenceKind>;
  /** What the record read afterwards holds when `sent` won, given the record read before. */
  change?: (sent: unknown, before: unknown) => unknown;
  /**
   * The writers' bodies, when a body valid to the contract may still be refused by a rule of the
   * record (a schedule that ends before it starts, a status it cannot move to).
   */
  bodies?: (count: number) => unknown[];
}

/** Makes a record through a route of the table, for the preparations below. */
async function made(owner: Caller, key: string, params: Record<string, string>, json: unknown) {
  const op = ops.find((candidate) => candidate.key === key);
  if (!op) throw new Error(`no route ${key}`);
  const answer = await invoke(op, { params, body: { json }, token: owner.token });
  const id = (answer.json as { id?: unknown } | undefined)?.id;
  if (answer.status >= 300 || typeof id !== 'string') {
    throw new Error(`${key} answered ${answer.status} ${excerpt(answer.text, 200)}`);
  }
  return id;
}

/** A draft Manual Invoice of 50.00 for a new bidder of the account. */
async function manualInvoice(owner: Caller) {
  const bidderId = await made(
    owner,
    'POST /bidders',
    {},
    { firstName: 'Contended', lastName: 'Buyer', email: 'contended.buyer@example.com' },
  );
  return made(
    owner,
    'POST /payments/invoices',
    {},
    { bidderId, lines: [{ description: 'Contended lot', amount: 5000 }] },
  );
}

const newAuction = {
  title: 'Contended sale',
  category: 'art',
  startDate: '2031-04-10',
  startTime: '18:00',
  endDate: '2031-04-11',
  endTime: '18:00',
};

/** A case on file and an import of it that differs in eight fields (2^8 merges to choose from). */
const contendedCase = {
  onFile: {
    caseType: 'payment_dispute',
    category: 'post_sale',
    priority: 'high',
    title: 'Contended case',
    jurisdiction: 'Massachusetts',
    description: 'On file',
  },
  imported: {
    title: 'Contended case (court filing)',
    description: 'From the court',
    jurisdiction: 'Rhode Island',
    priority: 'critical',
    category: 'regulatory',
    legalCounsel: 'Hale and Dorr',
    courtCaseNumber: 'RI-2026-0042',
    resolutionNotes: 'Imported',
  },
};

/** A conflict over a case of the account, recorded in-process as the case importer records it. */
async function contendedConflict(owner: Caller) {
  const id = await made(owner, 'POST /cases', {}, contendedCase.onFile);
  usePlatformEnvironment();
  const { recordConflict } = await import('../../functions/src/conflicts/conflicts.service.js');
  const { systemContext } = await import('../../functions/src/platform/context.js');
  const { caseEtag, getCase } = await import('../../functions/src/legal/legal.service.js');
  const ctx = systemContext(owner.accountId);
  const onFile: Record<string, unknown> = contendedCase.onFile;
  const recorded = await recordConflict(ctx, {
    key: `contention:${id}`,
    subject: { type: 'legal', existingId: id, imported: contendedCase.imported },
    conflictType: 'related',
    source: { kind: 'upload', uploadId: 'contention', uploadName: 'Contended cases.csv' },
    uploadName: 'Contended cases.csv',
    matchScore: 90,
    existingRecord: { id, ...onFile },
    importedRecord: contendedCase.imported,
    guard: { existing: caseEtag(await getCase(ctx, id)), imported: null },
    fields: Object.entries(contendedCase.imported).map(([field, imported]) => ({
      field,
      label: field,
      existing: onFile[field] ?? '',
      imported,
    })),
  });
  return recorded.id;
}

/** A house grant as the member view shows it, for what was sent (permissions only if any). */
const grantOf = (houseId: string, role: string, permissions?: string[]) => ({
  houseId,
  role,
  ...(permissions?.length ? { permissions } : {}),
});

const prepared: Record<string, Preparation> = {
  'PUT /bidders/{id}/scores/local': {
    reason:
      'the local score is part of the bidder and takes the bidder’s ETag, but there is no GET /bidders/{id}/scores/local to read it from',
    read: 'bidders/{id}',
    change: (sent) => ({ localScore: sent }),
  },
  'PUT /auction-houses/{id}': {
    reason: 'houses are made in the current account, not by a POST on /auction-houses',
    madeBy: 'POST /accounts/current/auction-houses',
  },
  'PUT /auction-house-groups/{id}': {
    reason: 'a group names houses of its account, and a new account has none',
    references: { houseIds: 'house' },
  },
  'PUT /auction-house/users/{id}/role': {
    reason:
      'the only member of a new account is its owner, whom no one may change: the record is an invited member (read as a team member, whose ETag a role takes), in houses the body may name, with permissions from the catalogue',
    read: 'users/{id}',
    record: async (owner, pools) => ({ id: await invitedMember(owner, pools.house ?? []) }),
    references: { houseId: 'house', permissions: 'permission' },
    change: (sent, before) => {
      const { role, permissions, houseId } = sent as RoleChange;
      const member = before as TeamMember;
      // A role for one house changes that house's grant only (it goes last); without a house,
      // the account role and every grant.
      if (!houseId) {
        return {
          accountRole: role,
          auctionHouseAccess: member.auctionHouseAccess.map((grant) =>
            grantOf(grant.houseId, role, permissions),
          ),
        };
      }
      return {
        accountRole: member.accountRole,
        auctionHouseAccess: [
          ...member.auctionHouseAccess
            .filter((grant) => grant.houseId !== houseId)
            .map((grant) => grantOf(grant.houseId, grant.role, grant.permissions)),
          grantOf(houseId, role, permissions),
        ],
      };
    },
  },
  'PUT /users/{id}/auction-house-access': {
    reason:
      'as for a role: an invited member, read as a team member, and bodies naming the account’s houses and the catalogue’s permissions',
    read: 'users/{id}',
    record: async (owner, pools) => ({ id: await invitedMember(owner, pools.house ?? []) }),
    references: { houseId: 'house', permissions: 'permission' },
    change: (sent) => ({
      auctionHouseAccess: (sent as { houses: HouseAccessGrant[] }).houses.map((grant) =>
        grantOf(grant.houseId, grant.role, grant.permissions),
      ),
    }),
  },
  'PUT /auctions/{id}': {
    reason:
      'an auction moves only along its lifecycle and its schedule must end after it starts, so writers change what any auction may change',
    record: async (owner) => ({ id: await made(owner, 'POST /auctions', {}, newAuction) }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        title: `Contended sale ${index}`,
        description: `Writer ${index}`,
        buyersPremium: index % 40,
      })),
  },
  'PUT /auctions/{id}/lots/{lotId}': {
    reason:
      'a lot belongs to an auction, and its estimates must stay in order, so writers change its title and estimates together',
    record: async (owner) => {
      const id = await made(owner, 'POST /auctions', {}, newAuction);
      const lotId = await made(
        owner,
        'POST /auctions/{id}/lots',
        { id },
        {
          lotNumber: '1',
          title: 'Contended lot',
        },
      );
      return { id, lotId };
    },
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        title: `Contended lot ${index}`,
        estimateLow: index * 100,
        estimateHigh: index * 100 + 50,
      })),
  },
  'PUT /cases/{id}': {
    reason:
      'a case may name only an auction, bidder and assignee of its account, which generated strings are not, so writers change what any case may change',
    record: async (owner) => ({
      id: await made(
        owner,
        'POST /cases',
        {},
        {
          caseType: 'payment_dispute',
          category: 'post_sale',
          priority: 'high',
          title: 'Contended case',
          jurisdiction: 'Massachusetts',
        },
      ),
    }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        title: `Contended case ${index}`,
        description: `Writer ${index}`,
        legalCounsel: `Counsel ${index}`,
        priority: (['critical', 'high', 'medium', 'low'] as const)[index % 4],
      })),
  },
  'PUT /workflows/rules/{id}': {
    reason:
      'the rules an account lists first are its built-in ones, which take only a switch, and a custom rule’s actions must name the account’s members and moves its conditions allow, which generated ones do not: the record is a custom rule and writers change what any rule may change',
    record: async (owner) => ({
      id: await made(
        owner,
        'POST /workflows/rules',
        {},
        {
          name: 'Contended rule',
          trigger: 'case_created',
          actions: [{ type: 'notify', permission: 'legal:view' }],
        },
      ),
    }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        name: `Contended rule ${index}`,
        description: `Writer ${index}`,
        priority: index,
        enabled: index % 2 === 0,
      })),
  },
  'PUT /workflows/settings': {
    reason:
      'a department head named by id must be an active member of the account, which generated ids are not: writers name a role or everyone who may escalate',
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        departmentHead: [
          { type: 'escalators' },
          { type: 'role', role: 'owner' },
          { type: 'role', role: 'admin' },
          { type: 'role', role: 'staff' },
        ][index % 4],
      })),
  },
  'PUT /webhooks/{id}': {
    reason:
      'a webhook’s URL must reach an address webhooks may (checked on the server, here loopback, which the test stack allows), which generated strings do not',
    record: async (owner) => ({
      id: await made(
        owner,
        'POST /webhooks',
        {},
        {
          url: 'http://127.0.0.1:9/contended',
          events: ['bidder.created'],
        },
      ),
    }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        url: `http://127.0.0.1:9/contended-${index}`,
        description: `Writer ${index}`,
        events: index % 2 ? ['bidder.created'] : ['auction.published', 'auction.closed'],
        enabled: index % 3 !== 0,
      })),
  },
  'PUT /consignor-agreements/{id}': {
    reason:
      'an agreement is its consignor’s (another consignor’s name is refused), so writers keep the name and change the terms',
    record: async (owner) => ({
      id: await made(
        owner,
        'POST /consignor-agreements',
        {},
        {
          consignorName: 'Contended Consignor',
          commission: { kind: 'none' },
          fees: { perLot: 0, insuranceBps: 0, buyBackBps: 0 },
        },
      ),
    }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        consignorName: 'Contended Consignor',
        commission: { kind: 'fixed', rateBps: index * 10, minimumPerLot: index },
        fees: { perLot: index, insuranceBps: 0, buyBackBps: 0 },
        payoutDetails: `Writer ${index}`,
      })),
  },
  'PUT /payments/auctions/{auctionId}/terms': {
    reason: 'terms belong to an auction of the account, made by the auctions’ POST',
    record: async (owner) => ({ auctionId: await made(owner, 'POST /auctions', {}, newAuction) }),
  },
  'PUT /payments/invoices/{id}': {
    reason:
      'a draft invoice is made for a bidder of the account (a Manual Invoice), and its due date may not fall before the day it was issued, so writers change its charges and notes',
    record: async (owner) => ({ id: await manualInvoice(owner) }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        charges: [{ label: `Shipping ${index}`, amount: 1000 + index }],
        notes: `Writer ${index}`,
      })),
  },
  'PUT /payments/transactions/{id}/shipping': {
    reason:
      'a transaction is a payment of an invoice, so it is made by paying a Manual Invoice by hand, and shipping is part of the transaction',
    read: 'payments/transactions/{id}',
    record: async (owner) => ({
      id: await made(
        owner,
        'POST /payments/invoices/{id}/payments',
        { id: await manualInvoice(owner) },
        { amount: 5000, method: 'Check' },
      ),
    }),
  },
  'POST /data-upload/conflicts/{conflictId}/resolve': {
    reason:
      'conflicts are recorded by imports and syncs, never by a route: the record is a conflict over a case, recorded in-process as the importer records it, and each writer sends a different merge of its eight fields (a merge names every field, so generated bodies are refused)',
    read: 'data-upload/conflicts/{conflictId}',
    record: async (owner) => ({ conflictId: await contendedConflict(owner) }),
    bodies: (count) =>
      Array.from({ length: count }, (_, index) => ({
        resolution: 'merge',
        choices: Object.fromEntries(
          Object.keys(contendedCase.imported).map((field, bit) => [
            field,
            index & (1 << bit) ? 'imported' : 'existing',
          ]),
        ),
      })),
    change: (sent) => ({
      status: 'resolved',
      resolution: 'merge',
      choices: (sent as { choices: unknown }).choices,
    }),
  },
  'PUT /security/2fa/methods/{id}': {
    reason: 'a method is made in two steps, setup and a first code from the authenticator',
    record: async (owner) => ({ id: await verifiedAuthenticator(owner) }),
  },
};

/**
 * The distinct candidate bodies of each route's writers, made before any request is sent: making
 * them holds the event loop for a while, and a pause like that between two bursts would let the
 * server close idle keep-alive connections the client has not noticed closing yet. A route whose
 * bodies name real things gets more candidates, as they become valid (and some alike) only once
 * those things exist.
 */
const nonEmpty = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.keys(value).length > 0;
const candidatesOf = new Map(
  guarded.map((op, index) => {
    const body = op.contract.body;
    if (!body) return [op.key, []];
    return [
      op.key,
      prepared[op.key]?.references
        ? schemaSamples(body, WRITERS * 3, 9000 + index, nonEmpty)
        : validSamples(body, WRITERS, 9000 + index, nonEmpty),
    ];
  }),
);

/** The writers' bodies: the candidates naming the account's things, valid and distinct. */
function bodiesFor(op: Operation, body: z.ZodType, pools: Pools): unknown[] {
  const given = prepared[op.key]?.bodies;
  if (given) return given(WRITERS).filter((json) => body.safeParse(json).success);
  const references = prepared[op.key]?.references ?? {};
  const found = new Map<string, unknown>();
  for (const candidate of candidatesOf.get(op.key) ?? []) {
    const json = withReferences(candidate, references, pools);
    if (found.size < WRITERS && body.safeParse(json).success && nonEmpty(json)) {
      found.set(JSON.stringify(json), json);
    }
  }
  return [...found.values()];
}

const getOn = (route: string) => ops.find((op) => op.method === 'GET' && op.route === route);
let writers = 0;

afterAll(() => {
  process.stdout.write(
    `[reliability] contention: ${guarded.length} if-match routes (${guarded.map((op) => op.key).join(', ')}), ${Object.keys(prepared).length} of them prepared, ${writers} writers in all\n`,
  );
});

/**
 * Values for the read route's parameters that name a record: an id the account already lists,
 * or one made through the POST on the collection the parameter belongs to (or the route the
 * preparation names), its body naming the account's things where it must.
 */
async function recordParams(
  owner: Caller,
  read: Operation,
  seed: number,
  preparation: Preparation | undefined,
  pools: Pools,
) {
  const params: Record<string, string> = {};
  const known = [...allIds(await crawlIds(owner, ops))];
  for (const param of read.params) {
    const readable = async (id: string) =>
      (await invoke(read, { params: { ...params, [param]: id }, token: owner.token })).status ===
      200;
    let found: string | undefined;
    for (const id of known) {
      if (await readable(id)) {
        found = id;
        break;
      }
    }
    if (!found) {
      const collection = read.route.slice(0, read.route.indexOf(`{${param}`)).replace(/\/$/, '');
      const maker = preparation?.madeBy ?? `POST /${collection}`;
      const create = ops.find((op) => op.key === maker && op.contract.body);
      if (!create?.contract.body) {
        throw new Error(`no record to read at ${read.route} and no ${maker} to make one`);
      }
      for (const body of validSamples(create.contract.body, 5, seed)) {
        const json = withReferences(body, preparation?.references ?? {}, pools);
        const made = await invoke(create, { params, body: { json }, token: owner.token });
        const id = (made.json as { id?: unknown } | undefined)?.id;
        if (made.status < 300 && typeof id === 'string' && (await readable(id))) {
          found = id;
          break;
        }
      }
    }
    if (!found) throw new Error(`found no record to read at ${read.route} for ${param}`);
    params[param] = found;
  }
  return params;
}

/**
 * True when every field of `expected` is in `actual` with the same value (recursively); a list
 * holds a list of as many items, each holding the one expected at its place.
 */
function holdsAll(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, at) => holdsAll(actual[at], item))
    );
  }
  if (typeof expected !== 'object' || expected === null) {
    return isDeepStrictEqual(actual, expected);
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([key, value]) =>
    holdsAll((actual as Record<string, unknown>)[key], value),
  );
}

describe(`${WRITERS} concurrent writers on one record`, () => {
  it('every If-Match route has a GET to read the record and its ETag, on its own path or prepared', () => {
    expect(guarded.length).toBeGreaterThan(0);
    const missing = guarded
      .filter((op) => !getOn(op.route) && !prepared[op.key]?.read)
      .map((op) => `${op.key} has no GET /${op.route}`);
    const stale = Object.entries(prepared)
      .filter(
        ([key, preparation]) =>
          preparation.read && guarded.find((op) => op.key === key && getOn(op.route)),
      )
      .map(([key]) => `${key} now has a GET on its own path: drop its read`);
    const unknown = Object.keys(prepared)
      .filter((key) => !guarded.some((op) => op.key === key))
      .map((key) => `${key} is prepared but is no If-Match route`);
    expect([...missing, ...stale, ...unknown]).toEqual([]);
  });

  it.each(guarded.map((op, index) => [op.key, op, index] as const))(
    '%s: one wins, 199 get 412, nothing is lost',
    async (_key, op, index) => {
      const preparation = prepared[op.key];
      const readRoute = preparation?.read ?? op.route;
      const read = getOn(readRoute);
      if (!read) throw new Error(`${op.key} has no GET /${readRoute} to read its record from`);
      expect(paramsOf(readRoute)).toEqual(op.params);
      if (!op.contract.body) throw new Error(`${op.key} declares no body to write`);
      const body = op.contract.body;
      // A fresh account per route, so what one route's winner changes cannot disturb another.
      const owner = op.contract.feature
        ? await signUpWithAddOns('contention owner')
        : await signUp('contention owner');
      const kinds = [...new Set(Object.values(preparation?.references ?? {}))];
      const pools = await poolsFor(owner, ops, kinds, 5000 + index);
      const params = preparation?.record
        ? await preparation.record(owner, pools)
        : await recordParams(owner, read, 7000 + index, preparation, pools);
      const bodies = bodiesFor(op, body, pools);
      expect(bodies, 'distinct valid bodies for every writer').toHaveLength(WRITERS);
      const before = await invoke(read, { params, token: owner.token });
      expect(before.status, `GET /${readRoute} reads the record`).toBe(200);
      const etag = before.headers.get('etag');
      if (!etag) throw new Error(`GET /${readRoute} answers no ETag header`);

      const answers = await Promise.all(
        bodies.map((json) =>
          invoke(op, { params, body: { json }, token: owner.token, headers: { 'if-match': etag } }),
        ),
      );
      writers += answers.length;
      const statuses = new Map<number, number>();
      for (const answer of answers) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
      const winners = answers.flatMap((answer, at) => (answer.status < 300 ? [at] : []));
      const odd = answers.find((answer) => answer.status >= 300 && answer.status !== 412);
      expect(
        Object.fromEntries(statuses),
        `statuses; e.g. ${odd ? `${odd.status} ${excerpt(odd.text, 200)}` : 'none odd'}`,
      ).toEqual({ [answers[winners[0] ?? 0]?.status ?? 200]: 1, 412: WRITERS - 1 });

      const winner = winners[0] as number;
      const after = await invoke(read, { params, token: owner.token });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag'), 'the record’s ETag is the winner’s').toBe(
        answers[winner]?.headers.get('etag'),
      );
      const sent = body.parse(bodies[winner]);
      const expected = preparation?.change ? preparation.change(sent, before.json) : sent;
      expect(
        holdsAll(after.json, expected),
        `the record holds the winner's change ${JSON.stringify(expected)}; it reads ${excerpt(after.text, 600)}`,
      ).toBe(true);
    },
  );
});
