import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { validSamples } from './support/arbitraries.js';
import { excerpt } from './support/checks.js';
import { invoke, signUp, type Caller } from './support/http.js';
import { allIds, crawlIds } from './support/ids.js';
import { operations, paramsOf, type Operation } from './support/routes.js';

/**
 * Lost updates, from the route tables: every route that requires If-Match gets 200 writers at
 * once on one record, all holding the same ETag and each sending a different valid body. Exactly
 * one may win; the other 199 get 412; and reading the record afterwards shows the winner's ETag
 * and the winner's change. The record is read (and its ETag taken) with a GET on the same path.
 */

const WRITERS = 200;

const ops = await operations();
const guarded = ops.filter((op) => op.contract.concurrency === 'if-match');

/**
 * Routes whose record is read elsewhere than with a GET on their own path, with the reason.
 * Kept tiny; an entry whose route gains a GET on its own path fails, so it goes too.
 */
const readElsewhere: Record<string, { read: string; field: string; reason: string }> = {
  'PUT /bidders/{id}/scores/local': {
    read: 'bidders/{id}',
    field: 'localScore',
    reason:
      'the local score is part of the bidder and takes the bidder’s ETag, but there is no GET /bidders/{id}/scores/local to read it from',
  },
  'PUT /auction-house/users/{id}/role': {
    read: 'users/{id}',
    field: 'role',
    reason: 'a role is part of the team member and takes the member’s ETag',
  },
  'PUT /users/{id}/auction-house-access': {
    read: 'users/{id}',
    field: 'houses',
    reason: 'house access is part of the team member and takes the member’s ETag',
  },
};

/**
 * The valid, distinct bodies of each route's writers, made before any request is sent: making
 * them holds the event loop for a while, and a pause like that between two bursts would let the
 * server close idle keep-alive connections the client has not noticed closing yet.
 */
const bodiesOf = new Map(
  guarded.map((op, index) => [
    op.key,
    op.contract.body
      ? validSamples(
          op.contract.body,
          WRITERS,
          9000 + index,
          (value) => typeof value === 'object' && value !== null && Object.keys(value).length > 0,
        )
      : [],
  ]),
);

const getOn = (route: string) => ops.find((op) => op.method === 'GET' && op.route === route);
let writers = 0;

afterAll(() => {
  process.stdout.write(
    `[reliability] contention: ${guarded.length} if-match routes (${guarded.map((op) => op.key).join(', ')}), ${writers} writers in all\n`,
  );
});

/**
 * Values for the read route's parameters that name a record: an id the account already lists,
 * or one made through the POST on the collection the parameter belongs to.
 */
async function recordParams(owner: Caller, read: Operation, seed: number) {
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
      const create = ops.find(
        (op) => op.method === 'POST' && op.route === collection && op.contract.body,
      );
      if (!create?.contract.body) {
        throw new Error(
          `no record to read at ${read.route} and no POST /${collection} to make one`,
        );
      }
      for (const body of validSamples(create.contract.body, 5, seed)) {
        const made = await invoke(create, { params, body: { json: body }, token: owner.token });
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

/** True when every field of `expected` is in `actual` with the same value (recursively). */
function holdsAll(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected)) {
    return isDeepStrictEqual(actual, expected);
  }
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) =>
    holdsAll((actual as Record<string, unknown>)[key], value),
  );
}

describe(`${WRITERS} concurrent writers on one record`, () => {
  it('every If-Match route has a GET on its own path to read the record and its ETag', () => {
    expect(guarded.length).toBeGreaterThan(0);
    const missing = guarded
      .filter((op) => !getOn(op.route) && !readElsewhere[op.key])
      .map((op) => `${op.key} has no GET /${op.route}`);
    const stale = Object.keys(readElsewhere)
      .filter((key) => guarded.find((op) => op.key === key && getOn(op.route)))
      .map((key) => `${key} now has a GET on its own path: remove it from readElsewhere`);
    expect([...missing, ...stale]).toEqual([]);
  });

  it.each(guarded.map((op, index) => [op.key, op, index] as const))(
    '%s: one wins, 199 get 412, nothing is lost',
    async (_key, op, index) => {
      const readRoute = readElsewhere[op.key]?.read ?? op.route;
      const read = getOn(readRoute);
      if (!read) throw new Error(`${op.key} has no GET /${readRoute} to read its record from`);
      expect(paramsOf(readRoute)).toEqual(op.params);
      // A fresh account per route, so what one route's winner changes cannot disturb another.
      const owner = await signUp('contention owner');
      const params = await recordParams(owner, read, 7000 + index);
      const before = await invoke(read, { params, token: owner.token });
      const etag = before.headers.get('etag');
      if (!etag) throw new Error(`GET /${readRoute} answers no ETag header`);
      if (!op.contract.body) throw new Error(`${op.key} declares no body to write`);
      const body = op.contract.body;
      const bodies = bodiesOf.get(op.key) ?? [];
      expect(bodies, 'distinct valid bodies for every writer').toHaveLength(WRITERS);

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
      const field = readElsewhere[op.key]?.field;
      const state = field ? (after.json as Record<string, unknown>)[field] : after.json;
      expect(
        holdsAll(state, sent),
        `the record holds the winner's change ${JSON.stringify(sent)}`,
      ).toBe(true);
    },
  );
});
