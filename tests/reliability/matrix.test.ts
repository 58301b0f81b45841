import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo } from '../support/identity.js';
import { answerProblems, excerpt } from './support/checks.js';
import {
  domainUrl,
  invoke,
  keepSignedIn,
  request,
  signIn,
  signUp,
  type Answer,
  type Call,
  type Caller,
} from './support/http.js';
import { operations, type Operation } from './support/routes.js';

/**
 * The permission matrix of every route, from the route tables: without a token a protected route
 * answers 401; each role of the demo tenant gets 403 exactly when it lacks the route's permission
 * (and the 403 names it), and never when it holds it. An API key of the tenant (given the staff
 * role's permissions) is held to the same rule on the routes that take keys, and answers 401 on
 * every other protected route (the auth app's, a person's own, managing keys). Inputs are ones the wrapper refuses or that
 * find nothing (a random id, an empty body), so holding the permission changes nothing real.
 */

const ops = await operations();

/**
 * Routes that refuse a role holding their permission by a business rule, with the reason. Kept
 * tiny on purpose; an entry that no longer happens fails too, so it cannot outlive its reason.
 */
const forbiddenByRule: Record<string, { roles: string[]; reason: string }> = {};

const roles = [
  { label: 'owner', email: demo.owner },
  // Also staff at Lakeside, so this sign-in asks which account.
  { label: 'admin', email: demo.admin, accountName: 'Harborview Auctions' },
  { label: 'staff', email: demo.staff },
  { label: 'viewer', email: demo.viewer },
];
const callers: Caller[] = [];
/** An owner whose plan has neither add-on: every route of an add-on refuses them. */
let freePlan: Caller;
let featureRefusals = 0;
/** The house's API key: its permissions, as given. */
const apiKey = { token: '', permissions: [] as string[] };
let cases = 0;
let refused = 0;
let signInsEnded = 0;

beforeAll(async () => {
  for (const role of roles) {
    callers.push(await signIn(role.label, role.email, DEMO_PASSWORD, role.accountName));
  }
  freePlan = await signUp('matrix-free-plan');
  const [owner, , staff] = callers;
  const created = await request(domainUrl(), 'POST', '/api-keys', {
    token: owner?.token,
    body: { json: { name: 'Reliability matrix', permissions: staff?.permissions } },
  });
  if (created.status !== 201) throw new Error(`creating the API key failed: ${created.text}`);
  const key = created.json as { key: string; permissions: string[] };
  Object.assign(apiKey, { token: key.key, permissions: key.permissions });
});

afterAll(() => {
  process.stdout.write(
    `[reliability] matrix: ${ops.length} routes × (anonymous + ${roles.length} roles + an API key) = ${cases} cases, ${refused} of them a 403 for a missing permission; ${featureRefusals} refusals of an add-on the plan lacks; ${signInsEnded} sign-ins ended by a case and renewed\n`,
  );
});

const holds = (caller: Caller, permission: string) =>
  permission === 'public' ||
  permission === 'authenticated' ||
  caller.role === 'owner' ||
  caller.permissions.includes(permission);

function inputsFor(op: Operation): Call {
  return {
    params: Object.fromEntries(op.params.map((name) => [name, `matrix-${randomUUID()}`])),
    ...(op.method === 'GET' || op.method === 'HEAD' ? {} : { body: { json: {} } }),
  };
}

const said = (answer: Answer) => `${answer.status} ${excerpt(answer.text, 160)}`;

describe('the permission matrix', () => {
  it('covers every route of both apps, with the demo roles the product describes', () => {
    expect(ops.length).toBeGreaterThan(100);
    expect(callers.map((caller) => caller.role)).toEqual(['owner', 'admin', 'staff', 'viewer']);
    expect(apiKey.permissions.length).toBeGreaterThan(0);
    expect(ops.some((op) => op.contract.apiKeys)).toBe(true);
    for (const key of Object.keys(forbiddenByRule)) {
      expect(
        ops.map((op) => op.key),
        `exception for an unknown route ${key}`,
      ).toContain(key);
    }
  });

  it.each(ops.map((op) => [op.key, op] as const))('%s', async (_key, op) => {
    const exception = forbiddenByRule[op.key];
    const anonymously = async () => {
      const anonymous = await invoke(op, inputsFor(op));
      const problems = answerProblems(anonymous).map((problem) => `anonymous: ${problem}`);
      if (op.permission !== 'public' && anonymous.status !== 401) {
        problems.push(`anonymous: expected 401, got ${said(anonymous)}`);
      }
      return problems;
    };
    // The callers are different people, so one's case cannot disturb another's: all at once.
    const asRole = async (caller: Caller) => {
      const answer = await invoke(op, { ...inputsFor(op), token: caller.token });
      const problems = answerProblems(answer).map((problem) => `${caller.label}: ${problem}`);
      const message = (answer.json as { error?: { message?: string } } | undefined)?.error?.message;
      if (!holds(caller, op.permission)) {
        refused += 1;
        if (answer.status !== 403) {
          problems.push(
            `${caller.label} lacks ${op.permission}: expected 403, got ${said(answer)}`,
          );
        } else if (!message?.includes(op.permission)) {
          problems.push(`${caller.label}: the 403 does not name ${op.permission}: "${message}"`);
        }
      } else if (answer.status === 403 && !exception?.roles.includes(caller.label)) {
        problems.push(`${caller.label} holds ${op.permission} but got ${said(answer)}`);
      } else if (answer.status !== 403 && exception?.roles.includes(caller.label)) {
        problems.push(`${caller.label} is listed in forbiddenByRule but got ${said(answer)}`);
      }
      // A GET changes nothing, so only other methods can end the caller's sign-in.
      if (op.method !== 'GET' && (await keepSignedIn(caller))) signInsEnded += 1;
      return problems;
    };
    const withKey = async () => {
      if (op.permission === 'public') return [];
      const answer = await invoke(op, { ...inputsFor(op), token: apiKey.token });
      const problems = answerProblems(answer).map((problem) => `API key: ${problem}`);
      const message = (answer.json as { error?: { message?: string } } | undefined)?.error?.message;
      if (!op.contract.apiKeys) {
        if (answer.status !== 401) {
          problems.push(`API key on a route that takes none: expected 401, got ${said(answer)}`);
        }
      } else if (!apiKey.permissions.includes(op.permission)) {
        refused += 1;
        if (answer.status !== 403 || !message?.includes(op.permission)) {
          problems.push(
            `API key lacks ${op.permission}: expected 403 naming it, got ${said(answer)}`,
          );
        }
      } else if (answer.status === 401 || answer.status === 403) {
        problems.push(`API key holds ${op.permission} but got ${said(answer)}`);
      }
      return problems;
    };
    // The owner holds every permission, so only the plan can refuse them.
    const withoutAddOn = async () => {
      const feature = op.contract.feature;
      if (!feature) return [];
      featureRefusals += 1;
      const answer = await invoke(op, { ...inputsFor(op), token: freePlan.token });
      const message = (answer.json as { error?: { message?: string } } | undefined)?.error?.message;
      const expected = `Access denied: ${feature} feature not available in your plan`;
      return answer.status === 403 && message === expected
        ? []
        : [`free plan: expected 403 "${expected}", got ${said(answer)}`];
    };
    const problems = (
      await Promise.all([anonymously(), withKey(), withoutAddOn(), ...callers.map(asRole)])
    ).flat();
    cases += 2 + callers.length + (op.contract.feature ? 1 : 0);
    expect(problems).toEqual([]);
  });
});
