import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CosmosClient } from '@azure/cosmos';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { azuriteConnectionString } from '../../functions/dev/local-settings.js';
import type { ManagedProcess } from '../../functions/dev/processes.js';
import { startAzurite, startHost } from '../../functions/dev/stack.js';
import type {
  UploadSession,
  UploadStatusView,
} from '../../functions/src/uploads/uploads.schema.js';
import { freshOwner, type Owner } from '../support/bidders.js';
import { freePorts } from '../support/ports.js';
import { quietOutput } from '../support/test-stack.js';

/**
 * The upload worker killed as a real process in the middle of a file, and started again.
 *
 * A dev host of its own (the same build `npm start` runs, both apps, its queue poller and
 * timers) against the suite's Cosmos and a Storage emulator of its own, so no other host polls
 * its queue. A bidder CSV goes the screen's way (session, blocks to Blob with the SAS URL,
 * complete); once the upload's status shows rows written, the host gets SIGKILL: no shutdown, no
 * last checkpoint, writes cut off wherever they were. A second host on the same data then takes
 * the message when its lease lapses (LOTWISE_QUEUE_LEASE_SECONDS, 2 s here) and resumes.
 *
 * The file has good rows, rows repeating an earlier one (duplicates, to skip), and bad rows (an
 * e-mail that is not one, a missing first name) on both sides of the kill. At the end the upload
 * is `completed` with every count right, the account holds exactly the good rows' bidders (none
 * twice, none lost), and the error report lists each bad row once, in order.
 */

const ROWS = 12_000;
const LEASE_SECONDS = 2;
const WAIT_MS = 25_000;

type Kind = 'good' | 'duplicate' | 'badEmail' | 'noFirstName';

interface Planned {
  row: number;
  kind: Kind;
  bidderId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The file: mostly good rows; every 97th repeats the good row 40 before, every 101st is bad. */
function plan(tag: string): Planned[] {
  const rows: Planned[] = [];
  for (let row = 1; row <= ROWS; row += 1) {
    const own = {
      row,
      bidderId: `K${tag}-${row}`,
      email: `k${row}.${tag}@example.com`,
      firstName: `Kim${row}`,
      lastName: `Row${row}${tag}`,
    };
    const earlier = rows[row - 41];
    if (row % 97 === 0 && earlier?.kind === 'good')
      rows.push({ ...earlier, row, kind: 'duplicate' });
    else if (row % 101 === 0) rows.push({ ...own, kind: 'badEmail', email: `not-an-email-${row}` });
    else if (row % 101 === 50) rows.push({ ...own, kind: 'noFirstName', firstName: '' });
    else rows.push({ ...own, kind: 'good' });
  }
  return rows;
}

const csvOf = (rows: Planned[]) =>
  Buffer.from(
    `First Name,Last Name,Email,Bidder ID\n${rows
      .map((row) => `${row.firstName},${row.lastName},${row.email},${row.bidderId}\n`)
      .join('')}`,
  );

let owner: Owner;
let settings: Record<string, string>;
let dataDir: string;
let storage: ManagedProcess[] = [];
const hosts: ManagedProcess[] = [];
const output = quietOutput();

/** A dev host on fresh ports against the suite's Cosmos and this file's Storage emulator. */
async function host() {
  const [auth, domain] = (await freePorts(2)) as [number, number];
  const started = await startHost({ dataDir, ports: { auth, domain }, settings, output });
  hosts.push(started);
  return { process: started, url: `http://localhost:${domain}` };
}

async function api<T>(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${owner.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
}

const statusOf = (base: string, uploadId: string) =>
  api<UploadStatusView>(base, 'GET', `/data-upload/status/${uploadId}`);

/** Asks for the status until `done` holds (every 50 ms: the host's checkpoints are the events). */
async function until(
  base: string,
  uploadId: string,
  done: (status: UploadStatusView) => boolean,
): Promise<UploadStatusView> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const status = await statusOf(base, uploadId);
    if (done(status)) return status;
    if (Date.now() > deadline) {
      throw new Error(`upload ${uploadId} still ${status.status}: ${JSON.stringify(status)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The bidder IDs of the account's bidders, straight from Cosmos (every one, duplicates too). */
async function storedBidderIds(accountId: string): Promise<string[]> {
  const client = new CosmosClient({
    endpoint: settings.COSMOS_ENDPOINT as string,
    key: settings.COSMOS_KEY as string,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  try {
    const { resources } = await client
      .database(settings.COSMOS_DATABASE as string)
      .container('bidders')
      .items.query<string>(
        {
          query: 'SELECT VALUE c.bidderId FROM c WHERE c.accountId = @accountId',
          parameters: [{ name: '@accountId', value: accountId }],
        },
        { partitionKey: accountId },
      )
      .fetchAll();
    return resources;
  } finally {
    client.dispose();
  }
}

beforeAll(async () => {
  owner = await freshOwner();
  dataDir = mkdtempSync(join(tmpdir(), 'lotwise-kill-'));
  const [blob, queue] = (await freePorts(2)) as [number, number];
  storage = await startAzurite({ blob, queue }, dataDir, output);
  settings = {
    ...inject('settings'),
    AzureWebJobsStorage: azuriteConnectionString({ blob, queue }),
    LOTWISE_SEED: 'false',
    LOTWISE_QUEUE_LEASE_SECONDS: String(LEASE_SECONDS),
  };
});

afterAll(async () => {
  for (const started of [...hosts, ...storage]) await started.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the upload worker killed mid-file', () => {
  it('resumes on a new host and ends with every bidder once and the error report right', async () => {
    try {
      const tag = randomUUID().slice(0, 6);
      const rows = plan(tag);
      const data = csvOf(rows);
      const good = rows.filter((row) => row.kind === 'good');
      const duplicates = rows.filter((row) => row.kind === 'duplicate');
      const bad = rows.filter((row) => row.kind === 'badEmail' || row.kind === 'noFirstName');
      expect(bad.length).toBeGreaterThan(100);

      const first = await host();
      const session = await api<UploadSession>(first.url, 'POST', '/data-upload/sessions', {
        name: `Kill test ${tag}`,
        description: 'A bidder file whose worker is killed part way',
        category: 'bidders',
        files: [{ name: 'bidders.csv', size: data.length }],
      });
      const target = session.targets[0];
      if (!target) throw new Error('no upload URL');
      const put = await fetch(target.url, {
        method: 'PUT',
        headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': 'text/csv' },
        body: data,
      });
      expect(put.status).toBe(201);
      const uploadId = session.upload.id;
      await api(first.url, 'POST', `/data-upload/${uploadId}/complete`);

      // Rows written and checkpointed: the host dies at once, whatever it is doing.
      const seen = await until(
        first.url,
        uploadId,
        (status) => status.status !== 'processing' || status.results.recordsImported > 0,
      );
      first.process.child.kill('SIGKILL');
      await first.process.exited;
      expect(seen.status).toBe('processing');

      // The suite's own host reads the same record: still processing, part of the file done.
      const domainUrl = inject('domainUrl');
      const atKill = await statusOf(domainUrl, uploadId);
      expect(atKill.status).toBe('processing');
      expect(atKill.results.recordsImported).toBeGreaterThan(0);
      expect(atKill.results.recordsImported).toBeLessThan(good.length);
      // What the killed host wrote past its last checkpoint is there too, to be found again.
      expect((await storedBidderIds(owner.accountId)).length).toBeGreaterThanOrEqual(
        atKill.results.recordsImported,
      );

      // A new host: the message shows again when the killed host's lease lapses, and it resumes.
      const second = await host();
      const finished = await until(
        second.url,
        uploadId,
        (status) => status.status !== 'processing',
      );
      expect(finished.status).toBe('completed');
      expect(finished.progress).toBe(100);
      expect(finished.results).toMatchObject({
        recordsProcessed: ROWS,
        recordsImported: good.length,
        duplicates: duplicates.length,
        errorCount: bad.length,
      });

      const stored = await storedBidderIds(owner.accountId);
      expect(stored).toHaveLength(good.length);
      expect([...stored].sort()).toEqual(good.map((row) => row.bidderId).sort());

      const expectedErrors = bad.map((row) => ({
        file: 'bidders.csv',
        row: String(row.row),
        field: row.kind === 'badEmail' ? 'email' : 'firstName',
      }));
      const report = parse(
        await api<string>(second.url, 'GET', `/data-upload/download/${uploadId}?report=errors`),
        { columns: true },
      ) as { file: string; row: string; field: string; message: string }[];
      expect(report.map(({ file, row, field }) => ({ file, row, field }))).toEqual(expectedErrors);
      for (const line of report) expect(line.message).not.toBe('');
      // The record lists the first of them as the report does.
      expect(
        finished.results.errors.map(({ file, row, field, message }) => ({
          file,
          row: String(row),
          field,
          message,
        })),
      ).toEqual(report.slice(0, finished.results.errors.length));
      expect(finished.results.errors.length).toBe(100);
    } catch (error) {
      process.stderr.write(`${output.dump()}\n`);
      throw error;
    }
  });
});
