import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { BlobServiceClient } from '@azure/storage-blob';
import JSZip from 'jszip';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type {
  Upload,
  UploadSession,
  UploadStatusView,
} from '../../functions/src/uploads/uploads.schema.js';
import { codeOf, domain, fieldsOf, freshOwner, messageOf, type Owner } from '../support/bidders.js';
import { demo, signedIn } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The held-while-processing test sets an upload's state directly, as a running worker leaves it.
usePlatformEnvironment();
const repo = await import('../../functions/src/uploads/uploads.repo.js');
const { STALLED_AFTER_MS } = await import('../../functions/src/uploads/uploads.service.js');

const storage = BlobServiceClient.fromConnectionString(inject('storageConnection'));
const CONTAINER = 'data-uploads';
const MB = 1024 * 1024;

/** The names of an account's upload blobs, straight from Azurite. */
async function blobsOf(accountId: string): Promise<string[]> {
  const client = storage.getContainerClient(CONTAINER);
  if (!(await client.exists())) return [];
  const names: string[] = [];
  for await (const blob of client.listBlobsFlat({ prefix: `${accountId}/` })) names.push(blob.name);
  return names.sort();
}

const csv = Buffer.from('name,email\nAda Lovelace,ada@example.com\nBo Diddley,bo@example.com\n');
const MZ = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120)]);

interface FilePart {
  name: string;
  data: Buffer;
}

const fields = (overrides: Record<string, string> = {}) => ({
  name: 'Spring consignments',
  description: 'Bidders from the spring sale',
  category: 'bidders',
  ...overrides,
});

async function postForm(token: string, values: Record<string, string>, files: FilePart[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.append(name, value);
  files.forEach((file, index) =>
    form.append(`file_${index}`, new Blob([new Uint8Array(file.data)]), file.name),
  );
  const response = await fetch(`${inject('domainUrl')}/data-upload/general`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    headers: response.headers,
  };
}

/**
 * A multipart body written as it is generated (chunked, no length declared), so a test can send
 * more than the limit without holding it, or stop part way. Answers as soon as the server does.
 */
function streamForm(
  token: string,
  chunks: () => Generator<Buffer>,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${inject('domainUrl')}/data-upload/general`);
    let answered = false;
    const outgoing = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
    });
    outgoing.on('response', (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({
          status: response.statusCode ?? 0,
          body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
          headers: new Headers(),
        });
        outgoing.destroy();
      });
    });
    outgoing.on('error', (error) => {
      // Once the server has answered, it may close on the rest of a body it no longer wants.
      if (!answered) reject(error);
    });
    const source = chunks();
    const pump = () => {
      for (;;) {
        if (answered) return;
        const next = source.next();
        if (next.done) {
          outgoing.end();
          return;
        }
        if (!outgoing.write(next.value)) {
          outgoing.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

const BOUNDARY = '----lotwise-test-boundary';
const fieldPart = (name: string, value: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
const fileHead = (field: string, name: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`,
  );
const formFields = () =>
  Buffer.concat(Object.entries(fields()).map(([name, value]) => fieldPart(name, value)));

async function history(token: string, query = '') {
  return domain<{ items: Upload[]; continuationToken: string | null }>(
    'GET',
    `/data-upload/history${query}`,
    { token },
  );
}

async function startSession(token: string, files: { name: string; size: number }[]) {
  return domain<UploadSession>('POST', '/data-upload/sessions', {
    token,
    body: { ...fields({ name: `Browser upload ${randomUUID().slice(0, 6)}` }), files },
  });
}

/** What a browser does with a SAS URL: Put Block for each piece, then Put Block List. */
async function putBlocks(url: string, data: Buffer, blockBytes = 64 * 1024): Promise<void> {
  const ids: string[] = [];
  for (let start = 0; start < data.length; start += blockBytes) {
    const id = Buffer.from(String(ids.length).padStart(6, '0')).toString('base64');
    ids.push(id);
    const put = await fetch(`${url}&comp=block&blockid=${encodeURIComponent(id)}`, {
      method: 'PUT',
      headers: { 'x-ms-version': '2021-08-06' },
      body: new Uint8Array(data.subarray(start, start + blockBytes)),
    });
    expect(put.status, await put.text()).toBe(201);
  }
  const list = await fetch(`${url}&comp=blocklist`, {
    method: 'PUT',
    headers: { 'x-ms-version': '2021-08-06', 'x-ms-blob-content-type': 'text/csv' },
    body: `<?xml version="1.0" encoding="utf-8"?><BlockList>${ids
      .map((id) => `<Latest>${id}</Latest>`)
      .join('')}</BlockList>`,
  });
  expect(list.status, await list.text()).toBe(201);
}

let owner: Owner;
let other: Owner;
let accepted: string;

beforeAll(async () => {
  [owner, other] = await Promise.all([freshOwner(), freshOwner()]);
  const reply = await postForm(owner.token, fields(), [
    { name: 'bidders.csv', data: csv },
    { name: 'notes.txt', data: Buffer.from('Collected at the door.\n') },
  ]);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  accepted = reply.body.uploadId as string;
});

describe('POST /data-upload/general', () => {
  it('stores the files in Blob Storage and queues the upload', async () => {
    const status = await domain<UploadStatusView>('GET', `/data-upload/status/${accepted}`, {
      token: owner.token,
    });
    expect(status.status).toBe(200);
    expect(['processing', 'completed']).toContain(status.body.status);
    expect(status.body.results.downloadUrl).toBe(`/data-upload/download/${accepted}`);
    expect(await blobsOf(owner.accountId)).toEqual(
      expect.arrayContaining([
        `${owner.accountId}/${accepted}/0`,
        `${owner.accountId}/${accepted}/1`,
      ]),
    );
    const [listed] = (await history(owner.token)).body.items;
    expect(listed?.id).toBe(accepted);
    expect(listed?.files).toEqual([
      { index: 0, name: 'bidders.csv', size: csv.length, format: 'csv', received: true },
      expect.objectContaining({ index: 1, name: 'notes.txt', format: 'text', received: true }),
    ]);
    expect(listed?.uploadedBy?.name).toBeTruthy();
  });

  it('names each missing field, with the form message', async () => {
    const none = await postForm(owner.token, {}, []);
    expect(none.status).toBe(400);
    expect(messageOf(none)).toBe('Please fill in all fields and select files');
    expect(fieldsOf(none).sort()).toEqual(['category', 'description', 'files', 'name']);

    const noDescription = await postForm(owner.token, fields({ description: ' ' }), [
      { name: 'a.csv', data: csv },
    ]);
    expect(noDescription.status).toBe(400);
    expect(fieldsOf(noDescription)).toEqual(['description']);

    const badCategory = await postForm(owner.token, fields({ category: 'gossip' }), [
      { name: 'a.csv', data: csv },
    ]);
    expect(badCategory.status).toBe(400);
    expect(fieldsOf(badCategory)).toEqual(['category']);
  });

  it('refuses a renamed program by its content, and keeps nothing of the upload', async () => {
    const fresh = await freshOwner();
    const reply = await postForm(fresh.token, fields(), [
      { name: 'ok.csv', data: csv },
      { name: 'bidders.csv', data: MZ },
    ]);
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe('file_1: is a Windows executable');
    expect(await blobsOf(fresh.accountId)).toEqual([]);
    expect((await history(fresh.token)).body.items).toEqual([]);
  });

  it('refuses a zip bomb', async () => {
    const fresh = await freshOwner();
    const zip = new JSZip();
    zip.file('bidders.csv', 'name\nAda\n');
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    // The directory now says the one small file unpacks to almost 4 GB.
    bytes.writeUInt32LE(0xfffffff0, bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    const reply = await postForm(fresh.token, fields(), [{ name: 'archive.zip', data: bytes }]);
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toMatch(/^file_0: is a zip bomb/);
    expect(await blobsOf(fresh.accountId)).toEqual([]);
    expect((await history(fresh.token)).body.items).toEqual([]);
  });

  it('refuses more than 100 MB in all with 413 while it streams, and keeps nothing', async () => {
    const fresh = await freshOwner();
    const rows = Buffer.from('name,email\n' + 'Ada Lovelace,ada@example.com\n'.repeat(36_000));
    const reply = await streamForm(fresh.token, function* () {
      yield formFields();
      yield fileHead('file_0', 'first.csv');
      for (let sent = 0; sent < 60 * MB; sent += rows.length) yield rows;
      yield Buffer.from('\r\n');
      yield fileHead('file_1', 'second.csv');
      for (let sent = 0; sent < 50 * MB; sent += rows.length) yield rows;
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    });
    expect(reply.status).toBe(413);
    expect(reply.body.error).toMatchObject({ message: 'Total file size cannot exceed 100MB' });
    expect(await blobsOf(fresh.accountId)).toEqual([]);
    expect((await history(fresh.token)).body.items).toEqual([]);
  }, 120_000);

  it('refuses a body cut off part way with 400, and keeps nothing', async () => {
    const fresh = await freshOwner();
    const reply = await streamForm(fresh.token, function* () {
      yield formFields();
      yield fileHead('file_0', 'whole.csv');
      yield csv;
      yield Buffer.from('\r\n');
      yield fileHead('file_1', 'cut.csv');
      yield csv;
      // No closing boundary: the form ends inside a file.
    });
    expect(reply.status).toBe(400);
    expect(await blobsOf(fresh.accountId)).toEqual([]);
    expect((await history(fresh.token)).body.items).toEqual([]);
  });
});

describe('browser uploads with SAS URLs', () => {
  it('puts blocks to a write-only URL, then completes; completing again answers the same', async () => {
    const data = Buffer.concat([csv, Buffer.from('Cy Twombly,cy@example.com\n'.repeat(8000))]);
    const session = await startSession(owner.token, [{ name: 'large.csv', size: data.length }]);
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    expect(session.body.upload.status).toBe('uploading');
    const [target] = session.body.targets;
    expect(target?.url).toMatch(/sp=cw&/);
    const uploadId = session.body.upload.id;

    // The web's origin may put blocks from the browser.
    const preflight = await fetch(target?.url as string, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4280',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'x-ms-version',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:4280');

    // Write-only: the URL reads nothing back.
    expect((await fetch(target?.url as string)).status).toBe(403);

    await putBlocks(target?.url as string, data);
    const complete = await domain<Upload>('POST', `/data-upload/${uploadId}/complete`, {
      token: owner.token,
    });
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    expect(complete.body.files).toEqual([
      { index: 0, name: 'large.csv', size: data.length, format: 'csv', received: true },
    ]);
    expect(['processing', 'completed']).toContain(complete.body.status);
    const again = await domain<Upload>('POST', `/data-upload/${uploadId}/complete`, {
      token: owner.token,
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(uploadId);

    const download = await fetch(`${inject('domainUrl')}/data-upload/download/${uploadId}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('large.csv');
    expect(Buffer.from(await download.arrayBuffer()).equals(data)).toBe(true);
  });

  it('answers 409 naming a file that has not arrived, and completes once it has', async () => {
    const session = await startSession(owner.token, [
      { name: 'a.csv', size: csv.length },
      { name: 'b.csv', size: csv.length },
    ]);
    const uploadId = session.body.upload.id;
    await putBlocks(session.body.targets[0]?.url as string, csv);
    const early = await domain('POST', `/data-upload/${uploadId}/complete`, { token: owner.token });
    expect(early.status).toBe(409);
    expect(messageOf(early)).toBe('file_1: b.csv has not arrived');
    const still = await domain<UploadStatusView>('GET', `/data-upload/status/${uploadId}`, {
      token: owner.token,
    });
    expect(still.body.status).toBe('uploading');

    await putBlocks(session.body.targets[1]?.url as string, csv);
    const done = await domain<Upload>('POST', `/data-upload/${uploadId}/complete`, {
      token: owner.token,
    });
    expect(done.status).toBe(200);
    expect(done.body.files.every((file) => file.received)).toBe(true);
  });

  it('refuses a program sent to Blob Storage when completing, and deletes it', async () => {
    const fresh = await freshOwner();
    const session = await startSession(fresh.token, [{ name: 'list.csv', size: MZ.length }]);
    await putBlocks(session.body.targets[0]?.url as string, MZ);
    const reply = await domain('POST', `/data-upload/${session.body.upload.id}/complete`, {
      token: fresh.token,
    });
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe('file_0: is a Windows executable');
    expect(await blobsOf(fresh.accountId)).toEqual([]);
    const status = await domain<UploadStatusView>(
      'GET',
      `/data-upload/status/${session.body.upload.id}`,
      { token: fresh.token },
    );
    expect(status.body.status).toBe('error');
  });

  it('refuses a session declaring more than 100 MB, naming files', async () => {
    const reply = await startSession(owner.token, [
      { name: 'a.csv', size: 60 * MB },
      { name: 'b.csv', size: 50 * MB },
    ]);
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['files']);
    expect(messageOf(reply)).toBe('files: Total file size cannot exceed 100MB');
  });
});

describe('history, download and delete', () => {
  it('pages newest first with continuation tokens, and searches', async () => {
    const fresh = await freshOwner();
    const first = await postForm(fresh.token, fields({ name: 'Older list' }), [
      { name: 'older.csv', data: csv },
    ]);
    const second = await postForm(fresh.token, fields({ name: 'Newer list' }), [
      { name: 'newer.csv', data: csv },
    ]);
    const page1 = await history(fresh.token, '?pageSize=1');
    expect(page1.body.items.map((item) => item.id)).toEqual([second.body.uploadId]);
    expect(page1.body.continuationToken).toBeTruthy();
    const page2 = await history(
      fresh.token,
      `?pageSize=1&continuationToken=${encodeURIComponent(page1.body.continuationToken as string)}`,
    );
    expect(page2.body.items.map((item) => item.id)).toEqual([first.body.uploadId]);
    const found = await history(fresh.token, '?search=OLDER.CSV');
    expect(found.body.items.map((item) => item.id)).toEqual([first.body.uploadId]);
    const none = await history(fresh.token, '?category=legal');
    expect(none.body.items).toEqual([]);
  });

  it('downloads the original bytes; no error report is a 404', async () => {
    const reply = await fetch(`${inject('domainUrl')}/data-upload/download/${accepted}?file=0`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-disposition')).toContain(
      'attachment; filename="bidders.csv"',
    );
    expect(Buffer.from(await reply.arrayBuffer()).equals(csv)).toBe(true);
    const missing = await domain('GET', `/data-upload/download/${accepted}?file=7`, {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
  });

  it('deletes an upload with its blobs and record', async () => {
    const fresh = await freshOwner();
    const session = await startSession(fresh.token, [{ name: 'a.csv', size: csv.length }]);
    await putBlocks(session.body.targets[0]?.url as string, csv);
    const uploadId = session.body.upload.id;
    expect(await blobsOf(fresh.accountId)).toHaveLength(1);
    const deleted = await domain('DELETE', `/data-upload/${uploadId}`, { token: fresh.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, recordsKept: 0 });
    expect(await blobsOf(fresh.accountId)).toEqual([]);
    const gone = await domain('GET', `/data-upload/status/${uploadId}`, { token: fresh.token });
    expect(gone.status).toBe(404);
  });

  it('refuses to delete an upload a worker is processing, and lets a stalled one go', async () => {
    const scope = { accountId: owner.accountId };
    const made = await postForm(owner.token, fields({ category: 'other' }), [
      { name: 'notes.txt', data: Buffer.from('Held while it is processed.\n') },
    ]);
    expect(made.status).toBe(201);
    const uploadId = made.body.uploadId as string;
    // Once the stack's worker has finished it, nothing else writes the record.
    await expect
      .poll(
        async () =>
          (
            await domain<UploadStatusView>('GET', `/data-upload/status/${uploadId}`, {
              token: owner.token,
            })
          ).body.status,
        { timeout: 30_000, interval: 100 },
      )
      .toBe('completed');
    const processing = async (updatedAt: string) => {
      const current = await repo.findUpload(scope, uploadId);
      if (!current) throw new Error('the upload is gone');
      const { _etag, _ts, ...record } = current;
      void _ts;
      await repo.replaceUpload(scope, { ...record, status: 'processing', updatedAt }, _etag);
    };
    await processing(new Date().toISOString());
    const held = await domain('DELETE', `/data-upload/${uploadId}`, { token: owner.token });
    expect(held.status).toBe(409);

    await processing(new Date(Date.now() - STALLED_AFTER_MS - 60_000).toISOString());
    const stalled = await domain('DELETE', `/data-upload/${uploadId}`, { token: owner.token });
    expect(stalled.status).toBe(200);
    expect(await blobsOf(owner.accountId)).not.toContain(`${owner.accountId}/${uploadId}/0`);
  });
});

describe('who may', () => {
  it("answers 404 for another tenant's upload on every route", async () => {
    const paths: [string, string][] = [
      ['GET', `/data-upload/status/${accepted}`],
      ['GET', `/data-upload/download/${accepted}`],
      ['GET', `/data-upload/download/${accepted}?report=errors`],
      ['POST', `/data-upload/${accepted}/complete`],
      ['DELETE', `/data-upload/${accepted}`],
    ];
    for (const [method, path] of paths) {
      const reply = await domain(method, path, { token: other.token });
      expect(reply.status, `${method} ${path}`).toBe(404);
    }
    expect((await history(other.token)).body.items).toEqual([]);
    expect(await blobsOf(owner.accountId)).toContain(`${owner.accountId}/${accepted}/0`);
  });

  it('refuses staff and viewers (no data:import)', async () => {
    for (const email of [demo.staff, demo.viewer]) {
      const { accessToken } = await signedIn(email);
      const form = await postForm(accessToken, fields(), [{ name: 'a.csv', data: csv }]);
      expect(form.status).toBe(403);
      const session = await startSession(accessToken, [{ name: 'a.csv', size: 10 }]);
      expect(session.status).toBe(403);
      const list = await history(accessToken);
      expect(list.status).toBe(403);
      expect(codeOf(list)).toBe('forbidden');
    }
  });
});
