import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  partitionFromHeader,
  partitionFromQuery,
  type QueryParameter,
} from './partition-target.js';

const require = createRequire(import.meta.url);
const engine = (require('@zeit/cosmosdb-query') as { default: (sql: string) => { ast: unknown } })
  .default;

const target = (sql: string, parameters: QueryParameter[] = [], path = ['accountId']) =>
  partitionFromQuery(engine(sql).ast, parameters, path);

describe('the partition a query is confined to', () => {
  it('is the value of a top-level equality on the partition key path', () => {
    expect(target("SELECT * FROM c WHERE c.accountId = 'a'")).toEqual({ found: true, value: 'a' });
    expect(
      target('SELECT c.id FROM c WHERE c.status = @s AND c.accountId = @a ORDER BY c.x DESC', [
        { name: '@s', value: 'Active' },
        { name: '@a', value: 'acct-1' },
      ]),
    ).toEqual({ found: true, value: 'acct-1' });
    expect(target("SELECT * FROM c WHERE 'a' = c.accountId")).toEqual({ found: true, value: 'a' });
    expect(target("SELECT * FROM c WHERE c['accountId'] = 'a'")).toEqual({
      found: true,
      value: 'a',
    });
    expect(target("SELECT * FROM root r WHERE r.accountId = 'a' AND (r.x = 1 OR r.y = 2)")).toEqual(
      { found: true, value: 'a' },
    );
    expect(target('SELECT VALUE COUNT(1) FROM c WHERE c.n = 1 AND (c.accountId = 7)')).toEqual({
      found: true,
      value: 7,
    });
    expect(target('SELECT * FROM c WHERE c.accountId = null')).toEqual({
      found: true,
      value: null,
    });
    expect(target("SELECT * FROM c WHERE c.owner.id = 'u'", [], ['owner', 'id'])).toEqual({
      found: true,
      value: 'u',
    });
  });

  it('is any partition when the equality does not bind every match', () => {
    const any = { found: false };
    expect(target('SELECT * FROM c')).toEqual(any);
    expect(target("SELECT * FROM c WHERE c.accountId = 'a' OR c.accountId = 'b'")).toEqual(any);
    expect(target("SELECT * FROM c WHERE NOT (c.accountId = 'a')")).toEqual(any);
    expect(target("SELECT * FROM c WHERE c.accountId != 'a'")).toEqual(any);
    expect(target("SELECT * FROM c WHERE c.accountId >= 'a'")).toEqual(any);
    expect(target("SELECT * FROM c WHERE c.other.accountId = 'a'")).toEqual(any);
    expect(target("SELECT * FROM c WHERE LOWER(c.accountId) = 'a'")).toEqual(any);
    expect(target('SELECT * FROM c WHERE c.accountId = c.other')).toEqual(any);
    // A parameter that is missing or not a single value matches nothing or needs a deep compare.
    expect(target('SELECT * FROM c WHERE c.accountId = @a')).toEqual(any);
    expect(
      target('SELECT * FROM c WHERE c.accountId = @a', [{ name: '@a', value: ['a'] }]),
    ).toEqual(any);
    expect(target('SELECT * FROM c WHERE c.accountId = {"a": 1}')).toEqual(any);
    // Documents iterated from inside each document are not the container's documents.
    expect(target("SELECT * FROM t IN c.tags WHERE t.accountId = 'a'")).toEqual(any);
    expect(target("SELECT * FROM c WHERE c.id = 'a'")).toEqual(any);
  });

  it('comes from the partition key header when the request names one', () => {
    expect(partitionFromHeader('["acct-1"]')).toEqual({ found: true, value: 'acct-1' });
    expect(partitionFromHeader(['[42]'])).toEqual({ found: true, value: 42 });
    expect(partitionFromHeader('[null]')).toEqual({ found: true, value: null });
    expect(partitionFromHeader(undefined)).toEqual({ found: false });
    expect(partitionFromHeader('[{}]')).toEqual({ found: false });
    expect(partitionFromHeader('["a","b"]')).toEqual({ found: false });
    expect(partitionFromHeader('not json')).toEqual({ found: false });
  });
});
