import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CosmosClient, type Container, type SqlQuerySpec } from '@azure/cosmos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedProcess } from '../../functions/dev/processes.js';
import { startCosmos } from '../../functions/dev/stack.js';
import { freePort } from '../support/ports.js';
import { quietOutput } from '../support/test-stack.js';

/**
 * The emulator answers a query confined to one partition from that partition alone. These check
 * that doing so never changes an answer: every partition-confined query is compared with the same
 * question asked of the whole container (an OR keeps the emulator from narrowing it).
 */

const dataDir = mkdtempSync(join(tmpdir(), 'lotwise-partitions-'));
let cosmos: ManagedProcess;
let cosmosUrl: string;
let client: CosmosClient;
let things: Container;
let people: Container;

async function start() {
  const port = await freePort();
  cosmos = await startCosmos(port, dataDir, quietOutput());
  cosmosUrl = `http://localhost:${port}`;
  client = new CosmosClient({
    endpoint: cosmosUrl,
    key: 'local',
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  const { database } = await client.databases.createIfNotExists({ id: 'partitions' });
  ({ container: things } = await database.containers.createIfNotExists({
    id: 'things',
    partitionKey: { paths: ['/accountId'] },
  }));
  ({ container: people } = await database.containers.createIfNotExists({
    id: 'people',
    partitionKey: { paths: ['/accountId'] },
    uniqueKeyPolicy: { uniqueKeys: [{ paths: ['/email'] }] },
  }));
}

async function stop() {
  client.dispose();
  await cosmos.stop();
}

beforeAll(start);
afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const ids = (items: { id: string }[]) => items.map((item) => item.id);

async function query(spec: SqlQuerySpec | string, partitionKey?: string, container = things) {
  const { resources } = await container.items
    .query<{ id: string }>(spec, partitionKey === undefined ? {} : { partitionKey })
    .fetchAll();
  return resources;
}

/** The partition's documents in _rid order, asked three ways: two narrowed, one not. */
async function partitionSeenEveryWay(accountId: string, container = things) {
  const byHeader = ids(await query('SELECT * FROM c', accountId, container));
  const byWhere = ids(
    await query(
      {
        query: 'SELECT * FROM c WHERE c.accountId = @accountId',
        parameters: [{ name: '@accountId', value: accountId }],
      },
      undefined,
      container,
    ),
  );
  const wholeContainer = ids(
    await query(
      {
        query: 'SELECT * FROM c WHERE c.accountId = @accountId OR c.accountId = @accountId',
        parameters: [{ name: '@accountId', value: accountId }],
      },
      undefined,
      container,
    ),
  );
  expect(byHeader).toEqual(wholeContainer);
  expect(byWhere).toEqual(wholeContainer);
  return wholeContainer;
}

describe('queries confined to a partition', () => {
  beforeAll(async () => {
    for (const accountId of ['p-a', 'p-b', 'p-c']) {
      for (let n = 0; n < 5; n += 1) {
        await things.items.create({ id: `${accountId}-${n}`, accountId, n, kind: 'seed' });
      }
    }
  });

  it('see only the partition the request names, as Cosmos does', async () => {
    expect(ids(await query("SELECT * FROM c WHERE c.kind = 'seed'", 'p-b'))).toEqual([
      'p-b-0',
      'p-b-1',
      'p-b-2',
      'p-b-3',
      'p-b-4',
    ]);
    // A request for one partition with a WHERE naming another finds nothing.
    expect(await query("SELECT * FROM c WHERE c.accountId = 'p-a'", 'p-b')).toEqual([]);
    expect(await query('SELECT * FROM c', 'nobody')).toEqual([]);
  });

  it('see only the partition their WHERE pins, by literal or parameter', async () => {
    expect(ids(await query("SELECT * FROM c WHERE c.accountId = 'p-c' AND c.n >= 3"))).toEqual([
      'p-c-3',
      'p-c-4',
    ]);
    const [count] = await query({
      query: 'SELECT VALUE COUNT(1) FROM c WHERE c.n < 2 AND c.accountId = @accountId',
      parameters: [{ name: '@accountId', value: 'p-a' }],
    });
    expect(count).toBe(2);
  });

  it('still see every partition when they pin none', async () => {
    const everything = await query("SELECT c.id FROM c WHERE c.kind = 'seed' ORDER BY c.id");
    expect(everything).toHaveLength(15);
    const either = await query(
      "SELECT c.id FROM c WHERE c.accountId = 'p-a' OR c.accountId = 'p-c' ORDER BY c.id DESC",
    );
    expect(ids(either)).toEqual(
      [...ids(everything).filter((id) => !id.startsWith('p-b'))].reverse(),
    );
  });

  it('page with continuation tokens within the partition', async () => {
    const iterator = things.items.query<{ id: string }>('SELECT c.id FROM c ORDER BY c.n DESC', {
      partitionKey: 'p-a',
      maxItemCount: 2,
    });
    const pages: string[][] = [];
    while (iterator.hasMoreResults()) {
      const { resources } = await iterator.fetchNext();
      if (resources.length) pages.push(ids(resources));
    }
    expect(pages).toEqual([['p-a-4', 'p-a-3'], ['p-a-2', 'p-a-1'], ['p-a-0']]);
  });

  it('are planned without being run', async () => {
    // The SDK asks for a plan beside every query; the emulator answers it without running the query.
    const plan = async (query: string) => {
      const response = await fetch(`${cosmosUrl}/dbs/partitions/colls/things/docs`, {
        method: 'POST',
        headers: {
          'content-type': 'application/query+json',
          'x-ms-cosmos-is-query-plan-request': 'True',
          'x-ms-documentdb-query-enablecrosspartition': 'true',
        },
        body: JSON.stringify({ query }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const planned = await plan('SELECT c.id FROM c ORDER BY c.n DESC');
    expect(planned.status).toBe(200);
    expect(planned.body).toMatchObject({ queryInfo: { orderBy: [] }, queryRanges: [{}] });
    expect(planned.body).not.toHaveProperty('Documents');
    expect((await plan('SELECT FROM WHERE')).status).toBe(400);
  });
});

describe('the partition index', () => {
  it('follows creates, replaces, upserts, patches and deletes', async () => {
    await things.items.create({ id: 'w-1', accountId: 'w-a', name: 'one' });
    await things.items.create({ id: 'w-2', accountId: 'w-a', name: 'two' });
    await things.items.create({ id: 'w-1', accountId: 'w-b', name: 'same id, other partition' });
    await things.item('w-1', 'w-a').replace({ id: 'w-1', accountId: 'w-a', name: 'one again' });
    await things.items.upsert({ id: 'w-3', accountId: 'w-b', name: 'three' });
    await things.items.upsert({ id: 'w-3', accountId: 'w-b', name: 'three again' });
    await things.item('w-2', 'w-a').patch([{ op: 'set', path: '/name', value: 'patched' }]);
    await things.item('w-1', 'w-b').delete();

    expect(await partitionSeenEveryWay('w-a')).toEqual(['w-1', 'w-2']);
    expect(await partitionSeenEveryWay('w-b')).toEqual(['w-3']);
    const names = await query('SELECT c.id, c.name FROM c', 'w-a');
    expect(names).toEqual([
      { id: 'w-1', name: 'one again' },
      { id: 'w-2', name: 'patched' },
    ]);
    await things.item('w-3', 'w-b').delete();
    expect(await partitionSeenEveryWay('w-b')).toEqual([]);
  });

  it('is put back with the partition when a transactional batch fails', async () => {
    await things.items.create({ id: 'b-kept', accountId: 'b-a', name: 'kept' });
    await things.items.create({ id: 'b-also', accountId: 'b-a', name: 'also' });
    const failed = await things.items.batch(
      [
        { operationType: 'Create', resourceBody: { id: 'b-new', accountId: 'b-a' } },
        {
          operationType: 'Replace',
          id: 'b-kept',
          resourceBody: { id: 'b-kept', accountId: 'b-a', name: 'changed' },
        },
        { operationType: 'Delete', id: 'b-also' },
        { operationType: 'Create', resourceBody: { id: 'b-new', accountId: 'b-a' } },
      ],
      'b-a',
    );
    expect(failed.result?.map((result) => result.statusCode)).toContain(409);
    expect(await partitionSeenEveryWay('b-a')).toEqual(['b-kept', 'b-also']);
    expect(ids(await query("SELECT * FROM c WHERE c.name = 'kept'", 'b-a'))).toEqual(['b-kept']);

    const succeeded = await things.items.batch(
      [
        { operationType: 'Create', resourceBody: { id: 'b-new', accountId: 'b-a' } },
        { operationType: 'Delete', id: 'b-kept' },
      ],
      'b-a',
    );
    expect(succeeded.result?.map((result) => result.statusCode)).toEqual([201, 204]);
    expect(await partitionSeenEveryWay('b-a')).toEqual(['b-also', 'b-new']);
  });

  it('enforces unique keys within each partition only', async () => {
    await people.items.create({ id: 'u-1', accountId: 'u-a', email: 'same@example.com' });
    await people.items.create({ id: 'u-2', accountId: 'u-b', email: 'same@example.com' });
    const clash = await people.items
      .create({ id: 'u-3', accountId: 'u-a', email: 'same@example.com' })
      .catch((error: { code?: number }) => error);
    expect((clash as { code?: number }).code).toBe(409);
    // A replace that would take another's key in the same partition is refused too.
    await people.items.create({ id: 'u-4', accountId: 'u-a', email: 'other@example.com' });
    const taken = await people
      .item('u-4', 'u-a')
      .replace({ id: 'u-4', accountId: 'u-a', email: 'same@example.com' })
      .catch((error: { code?: number }) => error);
    expect((taken as { code?: number }).code).toBe(409);
    expect(await partitionSeenEveryWay('u-a', people)).toEqual(['u-1', 'u-4']);
    expect(await partitionSeenEveryWay('u-b', people)).toEqual(['u-2']);
  });

  it('is rebuilt from disk after a restart', async () => {
    const before = {
      a: await partitionSeenEveryWay('w-a'),
      b: await partitionSeenEveryWay('b-a'),
      p: await partitionSeenEveryWay('p-b'),
    };
    await stop();
    await start();
    expect({
      a: await partitionSeenEveryWay('w-a'),
      b: await partitionSeenEveryWay('b-a'),
      p: await partitionSeenEveryWay('p-b'),
    }).toEqual(before);
    await things.items.create({ id: 'w-4', accountId: 'w-a' });
    expect(await partitionSeenEveryWay('w-a')).toEqual([...before.a, 'w-4']);
  });
});
