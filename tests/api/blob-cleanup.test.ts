import { randomUUID } from 'node:crypto';
import type { Timer } from '@azure/functions';
import { BlobServiceClient } from '@azure/storage-blob';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { InventoryItem } from '../../functions/src/inventory/inventory.schema.js';
import type { TimerFunction } from '../../functions/src/platform/functions.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { domain, type Owner } from '../support/bidders.js';
import { call, clearSandboxStarts, database, type Session } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The blob helpers and the sandbox expiry job run here, in the test's process, against the
// stack's Azurite and database; the blobs are then read from Azurite directly.
usePlatformEnvironment();
const { deleteAccountBlobs, deleteBlobsUnder } =
  await import('../../functions/src/platform/blob.js');
const { functionsFor } = await import('../../functions/src/registry.js');
const { InvocationContext } = await import('../../functions/dev/host/azure-functions.js');

const { db, dispose } = await database();
afterAll(dispose);

const storage = BlobServiceClient.fromConnectionString(inject('storageConnection'));
const PHOTOS = 'inventory-photos';

/** Every blob named under `prefix` in any container, as "container/name". */
async function blobsUnder(prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const container of storage.listContainers()) {
    const client = storage.getContainerClient(container.name);
    for await (const blob of client.listBlobsFlat({ prefix })) {
      names.push(`${container.name}/${blob.name}`);
    }
  }
  return names.sort();
}

const blobsOf = (accountId: string) => blobsUnder(`${accountId}/`);

async function putRaw(container: string, name: string): Promise<void> {
  const client = storage.getContainerClient(container);
  await client.createIfNotExists();
  await client.getBlockBlobClient(name).uploadData(Buffer.from(name));
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);

async function upload(token: string, path: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)]), 'photo.png');
  return fetch(`${inject('domainUrl')}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

/** A new item with `photos` photos, as the house's screens add them. */
async function itemWithPhotos(token: string, photos = 1): Promise<InventoryItem> {
  const created = await domain<InventoryItem>('POST', '/inventory/items', {
    token,
    body: {
      title: `Carved walnut box ${randomUUID().slice(0, 6)}`,
      category: 'Furniture',
      estimatedValue: { low: 20_000, high: 40_000 },
      condition: 'Good',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  let item = created.body;
  for (let n = 0; n < photos; n += 1) {
    const reply = await upload(token, `/inventory/items/${item.id}/photos`);
    expect(reply.status).toBe(201);
    item = (await reply.json()) as InventoryItem;
  }
  expect(item.photos).toHaveLength(photos);
  return item;
}

async function photoStatus(token: string, item: InventoryItem): Promise<number> {
  const photo = item.photos[0];
  const reply = await fetch(
    `${inject('domainUrl')}/inventory/items/${item.id}/photos/${photo?.id}`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  await reply.arrayBuffer();
  return reply.status;
}

describe('deleting an inventory item', () => {
  let house: Owner;
  beforeAll(async () => {
    house = await ownerWithAddOns();
  });

  it('deletes its photos, and any blob an interrupted upload left under it, but no other item’s', async () => {
    const [doomed, kept] = [
      await itemWithPhotos(house.token, 2),
      await itemWithPhotos(house.token),
    ];
    // As if an upload had stored its bytes and then failed to record them or to clean up.
    await putRaw(PHOTOS, `${house.accountId}/${doomed.id}/${randomUUID()}`);
    expect(await blobsUnder(`${house.accountId}/${doomed.id}/`)).toHaveLength(3);

    const removed = await domain('DELETE', `/inventory/items/${doomed.id}`, {
      token: house.token,
    });
    expect(removed.status).toBe(204);

    expect(await blobsUnder(`${house.accountId}/${doomed.id}/`)).toEqual([]);
    expect(await blobsUnder(`${house.accountId}/${kept.id}/`)).toHaveLength(1);
    expect(await photoStatus(house.token, kept)).toBe(200);
  });
});

describe('deleteAccountBlobs', () => {
  let gone: Owner;
  let other: Owner;
  beforeAll(async () => {
    [gone, other] = await Promise.all([ownerWithAddOns(), ownerWithAddOns()]);
  });

  it('deletes every blob of the account in every container, page by page, even twice at once', async () => {
    await itemWithPhotos(gone.token);
    const logo = await upload(gone.token, '/settings/payment-portal/logo');
    expect(logo.status).toBe(200);
    // More than one listing page, in a second container the helper is not told about.
    const extra = `blob-cleanup-${randomUUID().slice(0, 8)}`;
    await Promise.all(
      Array.from({ length: 230 }, (_, n) => putRaw(extra, `${gone.accountId}/bulk/${n}`)),
    );
    // A name that merely starts with the account's id is another account's.
    await putRaw(extra, `${gone.accountId}0/lookalike`);
    const keptItem = await itemWithPhotos(other.token);
    const before = await blobsOf(gone.accountId);
    expect(before.filter((name) => name.startsWith(`${PHOTOS}/`))).toHaveLength(1);
    expect(before.filter((name) => name.startsWith('portal-logos/'))).toHaveLength(1);
    expect(before).toHaveLength(232);

    const runs = await Promise.all([
      deleteAccountBlobs(gone.accountId),
      deleteAccountBlobs(gone.accountId),
    ]);

    // Each blob was deleted by exactly one of the runs; the other found it gone.
    expect(runs[0] + runs[1]).toBe(before.length);
    expect(await blobsOf(gone.accountId)).toEqual([]);
    expect(await deleteAccountBlobs(gone.accountId)).toBe(0);
    expect(await blobsUnder(`${gone.accountId}0/`)).toEqual([
      `${extra}/${gone.accountId}0/lookalike`,
    ]);
    expect(await blobsOf(other.accountId)).toHaveLength(1);
    expect(await photoStatus(other.token, keptItem)).toBe(200);
    await storage.getContainerClient(extra).delete();
  });

  it('refuses what is not an account id or a folder prefix, deleting nothing', async () => {
    await expect(deleteAccountBlobs('')).rejects.toThrow('Not an account id');
    await expect(deleteAccountBlobs(`${other.accountId}/x`)).rejects.toThrow('Not an account id');
    for (const prefix of [
      '',
      '/',
      other.accountId,
      `${other.accountId}//`,
      `/${other.accountId}/`,
    ]) {
      await expect(deleteBlobsUnder(PHOTOS, prefix)).rejects.toThrow('not a folder prefix');
    }
    expect(await blobsOf(other.accountId)).toHaveLength(1);
  });

  it('answers 0 for a container that does not exist', async () => {
    expect(
      await deleteBlobsUnder(`absent-${randomUUID().slice(0, 8)}`, `${other.accountId}/`),
    ).toBe(0);
  });
});

type DemoSession = Session & { accessToken: string };

async function sandbox(): Promise<DemoSession> {
  const reply = await call<DemoSession>('POST', '/login/demo');
  if (reply.status !== 200) {
    throw new Error(`Try the demo failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

/** As if the demo period of this sandbox had passed. */
async function expire(session: DemoSession): Promise<void> {
  const id = session.account?.id as string;
  await db
    .container('sandboxes')
    .item(id, id)
    .patch([{ op: 'set', path: '/expiresAt', value: new Date(Date.now() - 1000).toISOString() }]);
}

async function runExpiryJob(): Promise<void> {
  const job = functionsFor('auth').find(
    (fn): fn is TimerFunction => fn.kind === 'timer' && fn.name === 'sandbox-expiry',
  );
  if (!job) throw new Error('the auth app registers no sandbox-expiry timer');
  const now = new Date().toISOString();
  const timer: Timer = {
    isPastDue: false,
    schedule: { adjustForDST: true },
    scheduleStatus: { last: now, next: now, lastUpdated: now },
  };
  await job.handler(
    timer,
    new InvocationContext({
      invocationId: randomUUID(),
      functionName: job.name,
      logHandler: () => undefined,
    }),
  );
}

describe('removing an expired sandbox', () => {
  beforeEach(clearSandboxStarts);

  it('deletes its photos and logo with it, and no other sandbox’s or account’s', async () => {
    const [gone, kept] = [await sandbox(), await sandbox()];
    const [goneId, keptId] = [gone.account?.id as string, kept.account?.id as string];
    await itemWithPhotos(gone.accessToken, 2);
    expect((await upload(gone.accessToken, '/settings/payment-portal/logo')).status).toBe(200);
    const keptItem = await itemWithPhotos(kept.accessToken);
    const house = await ownerWithAddOns();
    const houseItem = await itemWithPhotos(house.token);
    expect(await blobsOf(goneId)).toHaveLength(3);

    await expire(gone);
    await Promise.all([runExpiryJob(), runExpiryJob()]);

    expect(await blobsOf(goneId)).toEqual([]);
    expect(
      (await db.container('sandboxes').item(goneId, goneId).read()).statusCode,
      'the sandbox record goes last',
    ).toBe(404);
    expect(await blobsOf(keptId)).toHaveLength(1);
    expect(await photoStatus(kept.accessToken, keptItem)).toBe(200);
    expect(await blobsOf(house.accountId)).toHaveLength(1);
    expect(await photoStatus(house.token, houseItem)).toBe(200);
  });
});
