import { createHash } from 'node:crypto';
import { generate } from 'otplib';
import { latestMail, linkParam, signup, uniqueEmail } from '../../support/identity.js';
import { validSamples } from './arbitraries.js';
import { authUrl, invoke, request, type Caller } from './http.js';
import type { Operation } from './routes.js';

/**
 * Records and references the generic crawl cannot make: things of an account a body must name
 * (its houses, the catalogue's permissions), a team member other than the owner, a verified MFA
 * method. Each is made through the product's own routes, as a client would.
 */

/** What a body may have to name for the server to accept it. */
export type ReferenceKind = 'house' | 'permission';
export type Pools = Partial<Record<ReferenceKind, string[]>>;

/** Houses an account gets for bodies to name: at least as many as a generated list holds. */
const HOUSES = 4;

function opOf(ops: Operation[], key: string): Operation {
  const found = ops.find((op) => op.key === key);
  if (!found) throw new Error(`no route ${key} in the tables`);
  return found;
}

/** The values of each kind the account can name, made or read through the route tables. */
export async function poolsFor(
  owner: Caller,
  ops: Operation[],
  kinds: ReferenceKind[],
  seed: number,
): Promise<Pools> {
  const pools: Pools = {};
  if (kinds.includes('house')) {
    const create = opOf(ops, 'POST /accounts/current/auction-houses');
    if (!create.contract.body) throw new Error(`${create.key} declares no body`);
    const houses: string[] = [];
    for (const json of validSamples(create.contract.body, HOUSES, seed)) {
      const made = await invoke(create, { body: { json }, token: owner.token });
      if (made.status !== 201) throw new Error(`making a house answered ${made.text}`);
      houses.push((made.json as { id: string }).id);
    }
    if (houses.length < HOUSES) throw new Error(`made only ${houses.length} houses`);
    pools.house = houses;
  }
  if (kinds.includes('permission')) {
    const catalogue = await invoke(opOf(ops, 'GET /permissions'), { token: owner.token });
    pools.permission = (catalogue.json as { permissions: { key: string }[] }).permissions.map(
      (entry) => entry.key,
    );
  }
  return pools;
}

const DROP = Symbol('dropped');

const hashOf = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);

/** A value of the pool chosen by `text`, one not used yet in this list; none when all are. */
function pick(pool: string[], text: string, used: Set<string>): string | undefined {
  const start = hashOf(text) % pool.length;
  for (let step = 0; step < pool.length; step += 1) {
    const candidate = pool[(start + step) % pool.length] as string;
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
  return undefined;
}

function substitute(
  value: unknown,
  fields: Record<string, ReferenceKind>,
  pools: Pools,
  used: Map<ReferenceKind, Set<string>>,
): unknown {
  if (Array.isArray(value)) {
    // The items of one list name each thing once, as a client sends them, so the record can show
    // exactly what was sent (a group keeps each house once, however often it is named).
    const inList = new Map<ReferenceKind, Set<string>>();
    return value.flatMap((item) => {
      const next = substitute(item, fields, pools, inList);
      return next === DROP ? [] : [next];
    });
  }
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const kind = fields[key];
    if (!kind) {
      copy[key] = substitute(child, fields, pools, used);
      continue;
    }
    const pool = pools[kind];
    if (!pool?.length) throw new Error(`no ${kind} to name in ${key}`);
    if (typeof child === 'string') {
      const set = used.get(kind) ?? new Set<string>();
      used.set(kind, set);
      const chosen = pick(pool, child, set);
      if (chosen === undefined) return DROP;
      copy[key] = chosen;
    } else if (Array.isArray(child)) {
      const set = new Set<string>();
      copy[key] = child.flatMap((item) =>
        typeof item === 'string' ? (pick(pool, item, set) ?? []) : [item],
      );
    } else {
      copy[key] = child;
    }
  }
  return copy;
}

/**
 * The body with each field named in `fields` (a string, or a list of strings) naming real things
 * of the account instead: each generated value maps to one of the pool's, so distinct bodies
 * mostly stay distinct, and one list never names a thing twice.
 */
export function withReferences(
  body: unknown,
  fields: Record<string, ReferenceKind>,
  pools: Pools,
): unknown {
  const next = substitute(body, fields, pools, new Map());
  return next === DROP ? undefined : next;
}

/** A staff member of the owner's account, made by a real invitation accepted at sign-up. */
export async function invitedMember(owner: Caller, houseIds: string[]): Promise<string> {
  const email = uniqueEmail('contention-member');
  const invited = await request(authUrl(), 'POST', '/auction-house/invite', {
    token: owner.token,
    body: { json: { email, role: 'staff', auctionHouseIds: houseIds } },
  });
  if (invited.status !== 201) throw new Error(`inviting ${email} answered ${invited.text}`);
  const code = linkParam(await latestMail(email, 'invitation'), 'invitation');
  const joined = await signup({ email, invitationCode: code });
  if (joined.status !== 201) throw new Error(`${email} could not join: ${joined.status}`);
  return joined.body.user.id;
}

/** A verified authenticator-app method of the caller's own, enrolled as a person would. */
export async function verifiedAuthenticator(caller: Caller): Promise<string> {
  const setup = await request(authUrl(), 'POST', '/security/2fa/setup', {
    token: caller.token,
    body: { json: { type: 'authenticator', name: 'Contention phone' } },
  });
  if (setup.status !== 201) throw new Error(`starting MFA setup answered ${setup.text}`);
  const { methodId, secret } = setup.json as { methodId: string; secret: string };
  const verified = await request(authUrl(), 'POST', '/mfa/verify', {
    token: caller.token,
    body: { json: { methodId, code: await generate({ secret }) } },
  });
  if (verified.status !== 200) throw new Error(`verifying the method answered ${verified.text}`);
  return methodId;
}
