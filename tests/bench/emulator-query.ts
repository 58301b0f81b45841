import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CosmosClient } from '@azure/cosmos';
import { summarise } from './stats.js';
import { useUnpatchedEngine } from './unpatched-engine.js';

/**
 * One engine variant in its own process (the emulator loads the engine once):
 * `--engine patched|unpatched --docs 20000`. Prints one JSON line of figures.
 */
const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'patched' },
    docs: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '15' },
  },
});
if (values.engine === 'unpatched') useUnpatchedEngine();
const { startCosmosEmulator } = await import('../../functions/dev/cosmos/emulator.js');

const documentCount = Number(values.docs);
const runs = Number(values.runs);
const tiers = ['Premium', 'Gold', 'Silver', 'Bronze', 'New'];
const query = {
  query:
    'SELECT TOP 50 * FROM c WHERE c.accountId = @accountId AND c.tier = @tier ORDER BY c.lotwiseScore DESC',
  parameters: [
    { name: '@accountId', value: 'bench-account' },
    { name: '@tier', value: 'Gold' },
  ],
};

function bidder(index: number) {
  return {
    id: `bidder-${index}`,
    accountId: index % 10 === 0 ? 'other-account' : 'bench-account',
    firstName: `First${index}`,
    lastName: `Last${index % 997}`,
    email: `bidder${index}@example.com`,
    tier: tiers[index % tiers.length],
    lotwiseScore: (index * 7919) % 100,
    customScore: (index * 104729) % 100,
    status: index % 7 === 0 ? 'inactive' : 'active',
  };
}

async function timeIt(action: () => Promise<unknown> | unknown, count: number) {
  const samples: number[] = [];
  for (let run = 0; run < count; run += 1) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return summarise(samples);
}

// The engine alone, on the same documents the emulator holds.
const require = createRequire(import.meta.url);
const engine = (
  require('@zeit/cosmosdb-query') as {
    default: (sql: string) => { exec: (docs: unknown[], options: unknown) => unknown };
  }
).default;
const documents = Array.from({ length: documentCount }, (_, index) => ({
  ...bidder(index),
  _rid: `rid${String(index).padStart(8, '0')}`,
}));
const compiled = engine(query.query);
const engineOnly = await timeIt(
  () => compiled.exec(documents, { parameters: query.parameters }),
  values.engine === 'unpatched' ? Math.min(runs, 5) : runs,
);

// The same query through the emulator over HTTP with the real SDK.
const dataDir = mkdtempSync(join(tmpdir(), 'lotwise-bench-cosmos-'));
const emulator = await startCosmosEmulator({ port: 0, dataDir });
const client = new CosmosClient({
  endpoint: emulator.url,
  key: 'bench',
  connectionPolicy: { enableEndpointDiscovery: false },
});
const { database } = await client.databases.createIfNotExists({ id: 'bench' });
const { container } = await database.containers.createIfNotExists({
  id: 'bidders',
  partitionKey: { paths: ['/accountId'] },
});
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < documentCount) {
      const index = next;
      next += 1;
      await container.items.create(bidder(index));
    }
  }),
);
const throughEmulator = await timeIt(
  () => container.items.query(query, { partitionKey: 'bench-account' }).fetchAll(),
  values.engine === 'unpatched' ? Math.min(runs, 5) : runs,
);
const { resources } = await container.items
  .query(query, { partitionKey: 'bench-account' })
  .fetchAll();

client.dispose();
await emulator.close();
rmSync(dataDir, { recursive: true, force: true });

process.stdout.write(
  `${JSON.stringify({ engine: values.engine, documents: documentCount, returned: resources.length, engineOnly, throughEmulator })}\n`,
);
