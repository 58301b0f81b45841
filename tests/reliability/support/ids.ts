import type { z } from 'zod';
import { validSample } from './arbitraries.js';
import { invoke, type Caller } from './http.js';
import type { Operation } from './routes.js';

/** Ids found in an account's replies, by kind: `{route}:{field path}`, e.g. `listBidders:bidders.id`. */
export type IdsByKind = Map<string, string[]>;

const isIdField = (key: string) => key === 'id' || /Ids?$/.test(key);

function collect(value: unknown, kind: string, into: IdsByKind, field?: string): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, kind, into, field);
    return;
  }
  if (typeof value === 'string' && field !== undefined && value.length > 0) {
    const ids = into.get(kind) ?? [];
    if (!ids.includes(value)) ids.push(value);
    into.set(kind, ids);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const path = `${kind}${kind.includes(':') ? '.' : ':'}${key}`;
    collect(child, path, into, isIdField(key) ? key : undefined);
  }
}

/** Every id-like value (a field named `id` or ending in `Id`) in a JSON reply. */
export function idsIn(json: unknown, route: string, into: IdsByKind = new Map()): IdsByKind {
  collect(json, route, into);
  return into;
}

/** A query a route accepts: none, or a generated valid one when it needs some. */
export function queryStrings(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined && item !== null && typeof item !== 'object')
      .map(([key, item]) => [key, String(item)]),
  );
}

export const validQuery = (schema: z.ZodType | undefined, seed: number) =>
  schema && !schema.safeParse({}).success ? queryStrings(validSample(schema, seed)) : {};

/**
 * What an account holds, found the way a client finds it: every parameterless GET that needs a
 * sign-in, called as the caller, its JSON replies searched for ids.
 */
export async function crawlIds(caller: Caller, ops: Operation[]): Promise<IdsByKind> {
  const found: IdsByKind = new Map();
  const lists = ops.filter(
    (op) => op.method === 'GET' && op.params.length === 0 && op.permission !== 'public',
  );
  for (const op of lists) {
    const answer = await invoke(op, {
      token: caller.token,
      query: validQuery(op.contract.query, 1),
    });
    if (answer.status === 200 && answer.json !== undefined) idsIn(answer.json, op.route, found);
  }
  return found;
}

export const allIds = (ids: IdsByKind) => new Set([...ids.values()].flat());
