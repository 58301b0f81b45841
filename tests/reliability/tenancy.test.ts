import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo } from '../support/identity.js';
import { validSample } from './support/arbitraries.js';
import { answerProblems, excerpt } from './support/checks.js';
import { invoke, keepSignedIn, signIn, signUpWithAddOns, type Caller } from './support/http.js';
import { allIds, crawlIds, validQuery } from './support/ids.js';
import { operations, type Operation } from './support/routes.js';

/**
 * Tenancy from the route tables: ids that belong to tenant A (Harborview), found by crawling
 * what A's owner can list, sent to every route with path parameters by tenant B's owner
 * (Lakeside, who holds every permission in B; on the add-ons' routes, which Lakeside's free plan
 * is refused, the owner of a new account whose plan has them). Each answer must be a 404, or a
 * refusal that has nothing to do with the id (400, 409, 428): never a success, and never A's data.
 */

const ops = await operations();
const withParams = ops.filter((op) => op.params.length > 0);

/** How many ids of each kind are tried: a few are enough to show a kind is scoped. */
const PER_KIND = 2;
const PARALLEL = 6;
/** Answers that say nothing about A's record. */
const harmless = new Set([400, 404, 409, 428]);

let tenantA: Caller;
let tenantB: Caller;
let tenantBWithAddOns: Caller;
let candidates: { id: string; kind: string }[] = [];
let aOnly = new Set<string>();
let pairs = 0;
const statuses = new Map<number, number>();

beforeAll(async () => {
  tenantA = await signIn('Harborview owner', demo.owner, DEMO_PASSWORD);
  tenantB = await signIn('Lakeside owner', demo.lakesideOwner, DEMO_PASSWORD);
  tenantBWithAddOns = await signUpWithAddOns('tenancy add-ons owner');
  const [idsOfA, idsOfB] = [await crawlIds(tenantA, ops), await crawlIds(tenantB, ops)];
  // An id both tenants see (a person who works for both, say) is not A's alone.
  const seenByB = allIds(idsOfB);
  aOnly = new Set([...allIds(idsOfA)].filter((id) => !seenByB.has(id)));
  const chosen = new Map<string, string>();
  for (const [kind, ids] of idsOfA) {
    for (const id of ids.filter((each) => aOnly.has(each)).slice(0, PER_KIND)) {
      if (!chosen.has(id)) chosen.set(id, kind);
    }
  }
  candidates = [...chosen].map(([id, kind]) => ({ id, kind }));
});

afterAll(() => {
  process.stdout.write(
    `[reliability] tenancy: ${candidates.length} ids of tenant A (${new Set(candidates.map((c) => c.kind)).size} kinds) × ${withParams.length} routes with path parameters = ${pairs} (route, id) pairs checked; answers ${[...statuses].map(([status, count]) => `${status}×${count}`).join(', ')}\n`,
  );
});

/** Valid values for everything but the id under test, so the request gets to the lookup. */
function probeFor(op: Operation, seed: number) {
  const params = op.contract.params
    ? (validSample(op.contract.params, seed) as Record<string, string>)
    : {};
  const body = op.contract.body ? validSample(op.contract.body, seed) : undefined;
  return {
    params,
    query: validQuery(op.contract.query, seed),
    ...(body === undefined ? {} : { body: { json: body } }),
    headers: (op.contract.concurrency === 'none'
      ? {}
      : { 'if-match': '"tenancy-probe"' }) as Record<string, string>,
  };
}

describe('another tenant’s ids', () => {
  it('are found in tenant A, and not seen by tenant B', () => {
    expect(tenantA.accountId).not.toBe(tenantB.accountId);
    expect(tenantB.role).toBe('owner');
    expect(candidates.length).toBeGreaterThan(10);
  });

  it.each(withParams.map((op, index) => [op.key, op, index] as const))(
    '%s answers 404 for them',
    async (_key, op, index) => {
      const problems: string[] = [];
      const probe = probeFor(op, 1000 + index);
      const b = op.contract.feature ? tenantBWithAddOns : tenantB;
      const probes = op.params.flatMap((param) =>
        candidates.map((candidate) => ({ param, ...candidate })),
      );
      // B's probes change nothing and depend on nothing, so a few go at once.
      for (let start = 0; start < probes.length; start += PARALLEL) {
        const batch = probes.slice(start, start + PARALLEL);
        const answers = await Promise.all(
          batch.map(({ param, id }) =>
            invoke(op, {
              ...probe,
              params: { ...probe.params, [param]: id },
              token: b.token,
            }),
          ),
        );
        for (const [at, answer] of answers.entries()) {
          const { param, id, kind } = batch[at] as (typeof probes)[number];
          pairs += 1;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const what = `${param}=${id} (${kind})`;
          problems.push(...answerProblems(answer).map((problem) => `${what}: ${problem}`));
          if (!harmless.has(answer.status)) {
            problems.push(
              `${what}: expected 404, got ${answer.status} ${excerpt(answer.text, 200)}`,
            );
          }
          const leaked = [...aOnly].filter((other) => other !== id && answer.text.includes(other));
          if (leaked.length || /harborview/i.test(answer.text)) {
            problems.push(
              `${what}: the answer shows tenant A's data: ${excerpt(answer.text, 200)}`,
            );
          }
        }
        // Only a change that went through can have ended B's own sign-in.
        if (op.method !== 'GET' && answers.some((answer) => answer.status < 300)) {
          await keepSignedIn(b);
        }
      }
      expect(problems).toEqual([]);
    },
  );
});
