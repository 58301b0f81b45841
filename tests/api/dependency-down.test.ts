import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthReportSchema } from '../../functions/src/health/health.schema.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { azuriteConnectionString } from '../../functions/dev/local-settings.js';
import type { ManagedProcess } from '../../functions/dev/processes.js';
import { startCosmos, startHost } from '../../functions/dev/stack.js';
import { freePorts } from '../support/ports.js';
import { quietOutput } from '../support/test-stack.js';

/** A host of its own, on the two ports given, whose dependencies this file can take away. */
async function isolatedHost(overrides: Record<string, string>, [auth, domain]: [number, number]) {
  const ports = { auth, domain };
  const host = await startHost({
    dataDir: '',
    ports,
    settings: { ...inject('settings'), ...overrides },
    output: quietOutput(),
  });
  return {
    host,
    authUrl: `http://localhost:${ports.auth}`,
    domainUrl: `http://localhost:${ports.domain}`,
  };
}

describe('health with Cosmos stopped', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lotwise-cosmos-down-'));
  let cosmos: ManagedProcess;
  let host: ManagedProcess;
  let urls: { authUrl: string; domainUrl: string };

  beforeAll(async () => {
    const [cosmosPort, ...hostPorts] = (await freePorts(3)) as [number, number, number];
    cosmos = await startCosmos(cosmosPort, dataDir, quietOutput());
    const started = await isolatedHost(
      { COSMOS_ENDPOINT: `http://localhost:${cosmosPort}`, DEPENDENCY_TIMEOUT_MS: '1500' },
      hostPorts,
    );
    host = started.host;
    urls = started;
  });

  afterAll(async () => {
    await host?.stop();
    await cosmos?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is healthy while Cosmos runs, and 503 naming Cosmos once it stops', async () => {
    expect((await fetch(`${urls.domainUrl}/bidders/health`)).status).toBe(200);

    await cosmos.stop();

    for (const url of [`${urls.authUrl}/health`, `${urls.domainUrl}/bidders/health`]) {
      const response = await fetch(url);
      expect(response.status).toBe(503);
      const report = healthReportSchema.parse(await response.json());
      expect(report.status).toBe('unavailable');
      const byName = Object.fromEntries(
        report.dependencies.map((dependency) => [dependency.name, dependency]),
      );
      expect(byName.cosmos).toMatchObject({ status: 'down' });
      expect(byName.cosmos?.error).toMatch(/unreachable|timed out/);
      expect(byName.storage).toMatchObject({ status: 'up' });
    }
  });
});

describe('health with Storage unreachable', () => {
  let host: ManagedProcess;
  let domainUrl: string;

  beforeAll(async () => {
    // Chosen together, so the host cannot be given a port that stands for Storage here.
    const [blob, queue, ...hostPorts] = (await freePorts(4)) as [number, number, number, number];
    const started = await isolatedHost(
      {
        AzureWebJobsStorage: azuriteConnectionString({ blob, queue }),
        DEPENDENCY_TIMEOUT_MS: '1500',
      },
      hostPorts,
    );
    host = started.host;
    domainUrl = started.domainUrl;
  });

  afterAll(async () => {
    await host?.stop();
  });

  it('answers 503 naming Storage, within the timeout', async () => {
    const started = Date.now();
    const response = await fetch(`${domainUrl}/scoring/health`);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(503);
    const report = healthReportSchema.parse(await response.json());
    const storage = report.dependencies.find((dependency) => dependency.name === 'storage');
    expect(storage).toMatchObject({ status: 'down' });
    expect(report.dependencies.find((dependency) => dependency.name === 'cosmos')).toMatchObject({
      status: 'up',
    });
    expect(JSON.stringify(report)).not.toMatch(/127\.0\.0\.1|devstoreaccount1|AccountKey/);
  });
});
