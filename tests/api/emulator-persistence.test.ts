import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CosmosClient } from '@azure/cosmos';
import { afterAll, describe, expect, it } from 'vitest';
import { startCosmos } from '../../functions/dev/stack.js';
import { freePort } from '../support/ports.js';
import { quietOutput } from '../support/test-stack.js';

const dataDir = mkdtempSync(join(tmpdir(), 'lotwise-persist-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function withEmulator<T>(run: (client: CosmosClient) => Promise<T>): Promise<T> {
  const port = await freePort();
  const cosmos = await startCosmos(port, dataDir, quietOutput());
  const client = new CosmosClient({
    endpoint: `http://localhost:${port}`,
    key: 'local',
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  try {
    return await run(client);
  } finally {
    client.dispose();
    await cosmos.stop();
  }
}

describe('transactional batches in the emulator', () => {
  it('apply all or nothing, as Cosmos does', async () => {
    await withEmulator(async (client) => {
      const { database } = await client.databases.createIfNotExists({ id: 'batches' });
      const { container } = await database.containers.createIfNotExists({
        id: 'things',
        partitionKey: { paths: ['/accountId'] },
      });
      await container.items.create({ id: 'existing', accountId: 'a', name: 'before' });
      const failed = await container.items.batch(
        [
          { operationType: 'Create', resourceBody: { id: 'new-one', accountId: 'a' } },
          { operationType: 'Create', resourceBody: { id: 'new-two', accountId: 'a' } },
          { operationType: 'Create', resourceBody: { id: 'existing', accountId: 'a' } },
        ],
        'a',
      );
      expect(failed.result?.map((result) => result.statusCode)).toContain(409);
      expect((await container.item('new-one', 'a').read()).statusCode).toBe(404);
      expect((await container.item('new-two', 'a').read()).statusCode).toBe(404);
      expect((await container.item('existing', 'a').read()).resource?.name).toBe('before');
      const succeeded = await container.items.batch(
        [{ operationType: 'Create', resourceBody: { id: 'new-one', accountId: 'a' } }],
        'a',
      );
      expect(succeeded.result?.[0]?.statusCode).toBe(201);
    });
  });
});

describe('the Cosmos emulator keeps its data across a restart', () => {
  it('has what was written, changed and deleted before the restart', async () => {
    const before = await withEmulator(async (client) => {
      const { database } = await client.databases.createIfNotExists({ id: 'lotwise' });
      const { container } = await database.containers.createIfNotExists({
        id: 'things',
        partitionKey: { paths: ['/accountId'] },
      });
      await container.items.create({ id: 'kept', accountId: 'a', name: 'first' });
      await container.items.create({ id: 'gone', accountId: 'a', name: 'doomed' });
      const { resource } = await container.item('kept', 'a').read();
      const { resource: replaced } = await container
        .item('kept', 'a')
        .replace({ ...resource, name: 'second' });
      await container.item('gone', 'a').delete();
      return replaced;
    });

    await withEmulator(async (client) => {
      const container = client.database('lotwise').container('things');
      const { resource } = await container.item('kept', 'a').read();
      expect(resource).toMatchObject({ id: 'kept', name: 'second', _etag: before?._etag });
      const gone = await container.item('gone', 'a').read();
      expect(gone.statusCode).toBe(404);
      // New writes after a restart do not collide with restored resource ids.
      const { resource: created } = await container.items.create({ id: 'new', accountId: 'a' });
      expect(created?._rid).not.toBe(resource?._rid);
    });

    await withEmulator(async (client) => {
      const { resources } = await client
        .database('lotwise')
        .container('things')
        .items.query('SELECT c.id FROM c ORDER BY c.id')
        .fetchAll();
      expect(resources.map((item: { id: string }) => item.id)).toEqual(['kept', 'new']);
    });
  });
});
