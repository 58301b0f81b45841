import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { UploadFile, UploadStatusView } from '../../functions/src/uploads/uploads.schema.js';
import { domain, freshOwner, listAll, type Owner } from '../support/bidders.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The worker runs in this process against the stack's Cosmos and Azurite, so each test decides
// when it runs (and can make it fail part way). The stack's own queue worker may pick up an
// upload sent through the API as well: what is checked holds whichever of them finishes it.
usePlatformEnvironment();
const { processUpload } = await import('../../functions/src/uploads/upload-worker.js');
const { systemContext } = await import('../../functions/src/platform/context.js');
const { getBlob, putBlobStream } = await import('../../functions/src/platform/blob.js');
const repo = await import('../../functions/src/uploads/uploads.repo.js');

let owner: Owner;
beforeAll(async () => {
  owner = await freshOwner();
});

const ctxOf = (accountId: string) => systemContext(accountId);

async function postForm(
  token: string,
  values: Record<string, string>,
  files: { name: string; data: Buffer }[],
) {
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
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as { uploadId: string } };
}

/** The upload's status once processing has finished (by this process or the stack's worker). */
async function settled(token: string, id: string, timeoutMs = 60_000): Promise<UploadStatusView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await domain<UploadStatusView>('GET', `/data-upload/status/${id}`, { token });
    expect(reply.status).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'error') return reply.body;
    if (Date.now() > deadline) throw new Error(`upload ${id} still ${reply.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Staged {
  name: string;
  format: UploadFile['format'];
  data: Buffer | (() => Readable);
  size?: number;
}

/** An upload whose files are in storage, put in place directly (nothing is queued). */
async function stage(accountId: string, category: string, files: Staged[]) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const described: UploadFile[] = [];
  for (const [index, file] of files.entries()) {
    const stream = typeof file.data === 'function' ? file.data() : Readable.from([file.data]);
    await putBlobStream(
      repo.UPLOADS_BLOB_CONTAINER,
      repo.uploadBlobName(accountId, id, index),
      stream,
      'application/octet-stream',
    );
    const size = Buffer.isBuffer(file.data) ? file.data.length : (file.size ?? 0);
    described.push({ index, name: file.name, size, format: file.format, received: true });
  }
  await repo.createUpload(
    { accountId },
    {
      id,
      kind: 'upload',
      name: `Worker test ${category}`,
      description: 'Staged by the worker test',
      category: category as 'bidders',
      files: described,
      totalBytes: described.reduce((sum, file) => sum + file.size, 0),
      status: 'processing',
      progress: 0,
      uploadDate: now,
      completedDate: null,
      results: {
        recordsProcessed: 0,
        recordsImported: 0,
        errors: [],
        errorCount: 0,
        downloadUrl: null,
        errorReportUrl: null,
      },
      uploadedBy: null,
      searchText: `worker test ${category}`,
      checkpoint: null,
      revision: 1,
      createdAt: now,
      updatedAt: now,
    },
  );
  return id;
}

const recordOf = async (accountId: string, id: string) => {
  const record = await repo.findUpload({ accountId }, id);
  if (!record) throw new Error(`no upload ${id}`);
  return record;
};

async function errorReportOf(accountId: string, id: string) {
  const blob = await getBlob(repo.UPLOADS_BLOB_CONTAINER, repo.errorReportBlobName(accountId, id));
  return blob?.data.toString('utf8').trimEnd().split('\r\n');
}

describe('a bidders upload', () => {
  it('imports the good rows, names the bad ones, skips what is on file, and reports it all', async () => {
    const tag = randomUUID().slice(0, 8);
    const existing = `on-file-${tag}@example.com`;
    const created = await domain('POST', '/bidders', {
      token: owner.token,
      body: { firstName: 'Olga', lastName: `OnFile${tag}`, email: existing, status: 'Active' },
    });
    expect(created.status).toBe(201);
    const rows = [
      'First Name,Last Name,Email,Bidder ID,Note',
      `Ann,Good${tag},ann-${tag}@example.com,W-${tag}-1,Met at the spring preview`,
      `Ben,Good${tag},not-an-email,,`,
      `Cy,Good${tag},cy-${tag}@example.com,,`,
      `,Good${tag},nofirst-${tag}@example.com,,`,
      `Dee,Good${tag},${existing},,`,
      `Eve,Good${tag},eve-${tag}@example.com,W-${tag}-1,`,
      `Fay,Good${tag},fay-${tag}@example.com,W-${tag}-2,`,
    ];
    const posted = await postForm(
      owner.token,
      {
        name: `Spring bidders ${tag}`,
        description: 'Bidders from the spring sale',
        category: 'bidders',
      },
      [{ name: 'spring.csv', data: Buffer.from(`${rows.join('\n')}\n`) }],
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const id = posted.body.uploadId;
    await processUpload(ctxOf(owner.accountId), id);
    const status = await settled(owner.token, id);

    expect(status.status).toBe('completed');
    expect(status.progress).toBe(100);
    expect(status.results).toMatchObject({
      recordsProcessed: 7,
      recordsImported: 3,
      errorCount: 2,
      duplicates: 2,
      errorReportUrl: `/data-upload/download/${id}?report=errors`,
    });
    expect(status.results.downloadUrl).toBe(`/data-upload/download/${id}`);
    expect((await recordOf(owner.accountId, id)).results.downloadUrl).toBe(
      `/data-upload/download/${id}`,
    );
    expect(status.results.errors).toEqual([
      { file: 'spring.csv', row: 2, field: 'email', message: 'Enter a valid email address' },
      { file: 'spring.csv', row: 4, field: 'firstName', message: 'is required' },
    ]);

    const imported = (await listAll(owner.token, { search: `Good${tag}` })).bidders;
    expect(imported.map((bidder) => bidder.firstName).sort()).toEqual(['Ann', 'Cy', 'Fay']);
    expect(await errorReportOf(owner.accountId, id)).toEqual([
      'file,row,field,message',
      'spring.csv,2,email,Enter a valid email address',
      'spring.csv,4,firstName,is required',
    ]);

    // A message delivered again for a finished upload changes nothing.
    const before = await recordOf(owner.accountId, id);
    await processUpload(ctxOf(owner.accountId), id);
    expect((await recordOf(owner.accountId, id))._etag).toBe(before._etag);
    expect((await listAll(owner.token, { search: `Good${tag}` })).bidders).toHaveLength(3);
  });

  it('reads JSON bidders as a stream, as an array or under "bidders"', async () => {
    const tag = randomUUID().slice(0, 8);
    const people = [1, 2, 3].map((n) => ({
      firstName: `J${n}`,
      lastName: `Json${tag}`,
      email: `json-${n}-${tag}@example.com`,
      address: { city: 'Oslo' },
    }));
    const id = await stage(owner.accountId, 'bidders', [
      { name: 'list.json', format: 'json', data: Buffer.from(JSON.stringify(people.slice(0, 2))) },
      {
        name: 'wrapped.json',
        format: 'json',
        data: Buffer.from(JSON.stringify({ source: 'crm', bidders: people.slice(2) })),
      },
      { name: 'scan.pdf', format: 'pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n') },
    ]);
    await processUpload(ctxOf(owner.accountId), id);
    const record = await recordOf(owner.accountId, id);
    expect(record.status).toBe('completed');
    expect(record.results).toMatchObject({
      recordsProcessed: 3,
      recordsImported: 3,
      errorCount: 1,
    });
    expect(record.results.errors).toEqual([
      {
        file: 'scan.pdf',
        row: null,
        field: null,
        message: 'only CSV, Excel (.xlsx) and JSON files hold bidders',
      },
    ]);
    expect((await listAll(owner.token, { search: `Json${tag}` })).bidders).toHaveLength(3);
  });
});

describe('stored categories', () => {
  it('counts the records of every file and names the one that is not what it says', async () => {
    const id = await stage(owner.accountId, 'financial', [
      { name: 'statement.pdf', format: 'pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n') },
      { name: 'ledger.json', format: 'json', data: Buffer.from('[{"a":1},{"a":2},{"a":3}]') },
      { name: 'summary.json', format: 'json', data: Buffer.from('{"total": 12}') },
      {
        name: 'sales.csv',
        format: 'csv',
        data: Buffer.from('lot,price\n1,10\n2,20\n3,30\n4,40\n'),
      },
      { name: 'broken.json', format: 'json', data: Buffer.from('[{"a":1},{"a":') },
    ]);
    await processUpload(ctxOf(owner.accountId), id);
    const record = await recordOf(owner.accountId, id);
    expect(record.status).toBe('completed');
    expect(record.completedDate).not.toBeNull();
    expect(record.results).toMatchObject({
      recordsProcessed: 1 + 3 + 1 + 4 + 1,
      recordsImported: 1 + 3 + 1 + 4,
      errorCount: 1,
      errorReportUrl: `/data-upload/download/${id}?report=errors`,
    });
    expect(record.results.errors).toEqual([
      { file: 'broken.json', row: null, field: null, message: 'is not valid JSON (it is cut off)' },
    ]);
    expect(await errorReportOf(owner.accountId, id)).toEqual([
      'file,row,field,message',
      'broken.json,,,is not valid JSON (it is cut off)',
    ]);
  });

  it('ends in error only when nothing could be read', async () => {
    const id = await stage(owner.accountId, 'operations', [
      { name: 'a.json', format: 'json', data: Buffer.from('{"cut": ') },
      { name: 'b.csv', format: 'csv', data: Buffer.from('a,b\n"open quote,1\n') },
    ]);
    await processUpload(ctxOf(owner.accountId), id);
    const record = await recordOf(owner.accountId, id);
    expect(record.status).toBe('error');
    expect(record.results.recordsProcessed).toBe(0);
    expect(record.results.errors.map((error) => error.file)).toEqual(['a.json', 'b.csv']);
  });

  it('leaves a deleted upload alone', async () => {
    const id = await stage(owner.accountId, 'other', [
      { name: 'notes.txt', format: 'text', data: Buffer.from('hello') },
    ]);
    await repo.deleteUploadRecord({ accountId: owner.accountId }, id);
    await processUpload(ctxOf(owner.accountId), id);
    expect(await repo.findUpload({ accountId: owner.accountId }, id)).toBeUndefined();
  });
});

describe('a run that fails part way', () => {
  it('resumes at its checkpoint without writing a bidder twice', async () => {
    const crashOwner = await freshOwner();
    const tag = randomUUID().slice(0, 8);
    const lines = ['firstName,lastName,email,bidderId'];
    for (let row = 1; row <= 1200; row += 1) {
      const email = row % 100 === 0 ? 'broken' : `r${row}-${tag}@example.com`;
      // Half bring their own bidder ID; the others are given one when written.
      lines.push(`R${row},Crash${tag},${email},${row % 2 ? `C-${tag}-${row}` : ''}`);
    }
    const id = await stage(crashOwner.accountId, 'bidders', [
      { name: 'crash.csv', format: 'csv', data: Buffer.from(`${lines.join('\n')}\n`) },
    ]);
    const ctx = ctxOf(crashOwner.accountId);
    await expect(processUpload(ctx, id, { failAfterRows: 700 })).rejects.toThrow(
      'Injected failure after 700 rows',
    );
    const crashed = await recordOf(crashOwner.accountId, id);
    expect(crashed.status).toBe('processing');
    const checkpoint = crashed.checkpoint;
    expect(checkpoint).not.toBeNull();
    const writtenAtCrash = (await listAll(crashOwner.token, { limit: 200 })).bidders.length;
    // The crash left bidders written after its last checkpoint: those must not come twice.
    expect(writtenAtCrash).toBeGreaterThan(checkpoint?.imported ?? 0);

    await processUpload(ctx, id);
    const record = await recordOf(crashOwner.accountId, id);
    expect(record.status).toBe('completed');
    expect(record.results).toMatchObject({
      recordsProcessed: 1200,
      recordsImported: 1188,
      errorCount: 12,
      duplicates: 0,
    });
    expect(record.results.errors.map((error) => error.row)).toEqual(
      Array.from({ length: 12 }, (_, index) => (index + 1) * 100),
    );
    const { bidders } = await listAll(crashOwner.token, { limit: 200 });
    expect(bidders).toHaveLength(1188);
    expect(new Set(bidders.map((bidder) => bidder.email)).size).toBe(1188);
    expect((await errorReportOf(crashOwner.accountId, id))?.length).toBe(13);
  });
});

describe('a large file', () => {
  it('processes 200,000 rows with memory bounded', async () => {
    const ROWS = 200_000;
    function* csv() {
      yield 'lot,title,price,notes\n';
      for (let start = 1; start <= ROWS; start += 1000) {
        const chunk: string[] = [];
        for (let row = start; row < start + 1000 && row <= ROWS; row += 1) {
          chunk.push(`${row},Item number ${row},${row * 7},"A line, quoted"\n`);
        }
        yield chunk.join('');
      }
    }
    let size = 0;
    for (const piece of csv()) size += Buffer.byteLength(piece);
    const id = await stage(owner.accountId, 'historical', [
      { name: 'archive.csv', format: 'csv', data: () => Readable.from(csv()), size },
    ]);
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const started = Date.now();
    try {
      await processUpload(ctxOf(owner.accountId), id);
    } finally {
      clearInterval(sampler);
    }
    // What the process holds is not given back at once: after the run it bounds the peak too.
    peak = Math.max(peak, process.memoryUsage().rss);
    const record = await recordOf(owner.accountId, id);
    process.stdout.write(
      `200k-row CSV (${(size / 1024 / 1024).toFixed(1)} MB): ${Date.now() - started} ms, RSS ${(baseline / 1024 / 1024).toFixed(0)} MB -> peak ${(peak / 1024 / 1024).toFixed(0)} MB\n`,
    );
    expect(record.status).toBe('completed');
    expect(record.results).toMatchObject({ recordsProcessed: ROWS, recordsImported: ROWS });
    // Loose: the file is never held whole (the benchmark measures this closely).
    expect(peak - baseline).toBeLessThan(256 * 1024 * 1024);
  }, 180_000);
});
