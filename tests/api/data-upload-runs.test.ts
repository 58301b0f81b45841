import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Conflict } from '../../functions/src/conflicts/conflicts.schema.js';
import {
  PROCESS_QUEUE,
  type OverwritePreview,
  type Upload,
  type UploadFile,
  type UploadPreview,
  type UploadSession,
  type UploadStatusView,
} from '../../functions/src/uploads/uploads.schema.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  listAll,
  messageOf,
  saveSettings,
  type Owner,
} from '../support/bidders.js';
import { demo, ifMatch, signedIn } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// Runs that go through the API are processed by the stack's own queue worker; the tests that
// crash a run part way (or need it to start at a moment of their choosing) stage the upload
// directly and run the worker in this process, so nothing races them.
usePlatformEnvironment();
const { processUpload } = await import('../../functions/src/uploads/upload-worker.js');
const { systemContext } = await import('../../functions/src/platform/context.js');
const { putBlobStream } = await import('../../functions/src/platform/blob.js');
const { enqueue } = await import('../../functions/src/platform/queue.js');
const repo = await import('../../functions/src/uploads/uploads.repo.js');
const { newRun, withRun } = await import('../../functions/src/uploads/run-record.js');

let owner: Owner;
let other: Owner;
beforeAll(async () => {
  [owner, other] = await Promise.all([freshOwner(), freshOwner()]);
});

const tagOf = () => randomUUID().slice(0, 8);

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
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as { uploadId: string } & Record<string, unknown>,
    headers: response.headers,
  };
}

/** The upload as the history lists it (with its runs and ETag). */
async function uploadNamed(token: string, id: string, name: string): Promise<Upload> {
  const reply = await domain<{ items: Upload[] }>(
    'GET',
    `/data-upload/history?search=${encodeURIComponent(name)}`,
    { token },
  );
  const found = reply.body.items.find((upload) => upload.id === id);
  if (!found) throw new Error(`upload ${id} not in the history`);
  return found;
}

/** The upload once its run has finished (polled: the stack's worker runs it). */
async function settled(token: string, id: string, name: string): Promise<Upload> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reply = await domain<UploadStatusView>('GET', `/data-upload/status/${id}`, { token });
    expect(reply.status).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'error') {
      return uploadNamed(token, id, name);
    }
    if (Date.now() > deadline) throw new Error(`upload ${id} still ${reply.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** What a browser does with a SAS URL: one block, then the block list. */
async function putBlob(url: string, data: Buffer) {
  const id = Buffer.from('000000').toString('base64');
  const block = await fetch(`${url}&comp=block&blockid=${encodeURIComponent(id)}`, {
    method: 'PUT',
    headers: { 'x-ms-version': '2021-08-06' },
    body: new Uint8Array(data),
  });
  expect(block.status).toBe(201);
  const list = await fetch(`${url}&comp=blocklist`, {
    method: 'PUT',
    headers: { 'x-ms-version': '2021-08-06', 'x-ms-blob-content-type': 'text/csv' },
    body: `<?xml version="1.0" encoding="utf-8"?><BlockList><Latest>${id}</Latest></BlockList>`,
  });
  expect(list.status).toBe(201);
}

const rerun = (token: string, id: string, etag: string | undefined, body: unknown) =>
  domain<Upload>('POST', `/data-upload/${id}/rerun`, { token, body, headers: ifMatch(etag) });

/** An upload whose files are in storage and which is `processing`, nothing queued. */
async function stage(accountId: string, name: string, files: { name: string; data: string }[]) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const described: UploadFile[] = [];
  for (const [index, file] of files.entries()) {
    await putBlobStream(
      repo.UPLOADS_BLOB_CONTAINER,
      repo.uploadBlobName(accountId, id, index),
      Readable.from([Buffer.from(file.data)]),
      'text/csv',
    );
    described.push({
      index,
      name: file.name,
      size: Buffer.byteLength(file.data),
      format: 'csv',
      received: true,
    });
  }
  await repo.createUpload(
    { accountId },
    {
      id,
      kind: 'upload',
      name,
      description: 'Staged by the runs test',
      category: 'bidders',
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
      searchText: name.toLowerCase(),
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

/** Puts an upload in the state the route leaves it in for a run, with nothing queued. */
async function begin(
  accountId: string,
  id: string,
  kind: 'import' | 'undo',
  mode: 'update' | null = null,
) {
  const record = await recordOf(accountId, id);
  await repo.replaceUpload(
    { accountId },
    {
      ...withRun(record, newRun(record, kind, mode, null)),
      status: 'processing',
      progress: 0,
      checkpoint: null,
    },
    record._etag,
  );
}

/**
 * A bidder on file, and the cells of the same person's second registration as a CSV row with the
 * columns firstName,lastName,email,phone,street,city,state,zip (another email, the phone written
 * differently): a likely duplicate, below the default auto-merge threshold.
 */
async function marcusOnFile(token: string, tag: string) {
  const address = { street: '12 Bellevue Avenue', city: 'Newport', state: 'RI', zip: '02840' };
  const onFile = await createBidder(token, {
    firstName: 'Marcus',
    lastName: `Brennan${tag}`,
    email: `marcus-${tag}@example.com`,
    phone: '+1 401 555 0142',
    address,
  });
  const again = `Marcus,Brennan${tag},m.brennan-${tag}@work.example.com,401-555-0142,${Object.values(address).join(',')}`;
  return { onFile, again };
}

async function notesOf(token: string, bidderId: string) {
  const reply = await domain<{ notes: { note: string }[] }>('GET', `/bidders/${bidderId}/notes`, {
    token,
  });
  expect(reply.status).toBe(200);
  return reply.body.notes.map((note) => note.note);
}

function bidderRows(tag: string, prefix: string, rows: number) {
  const lines = ['firstName,lastName,email'];
  for (let row = 1; row <= rows; row += 1) {
    lines.push(`${prefix}${row},${tag},${prefix.toLowerCase()}${row}-${tag}@example.com`);
  }
  return `${lines.join('\n')}\n`;
}

describe('the column mapping', () => {
  it('previews a file still uploading, refuses a bad mapping, and imports odd headers once mapped', async () => {
    const tag = tagOf();
    const name = `Odd headers ${tag}`;
    const csv = Buffer.from(
      `Given,Family,Contact,Shoe\nAda,Map${tag},ada-${tag}@example.com,38\nBo,Map${tag},bo-${tag}@example.com,41\n`,
    );
    const session = await domain<UploadSession>('POST', '/data-upload/sessions', {
      token: owner.token,
      body: {
        name,
        description: 'Headers nobody would guess',
        category: 'bidders',
        files: [{ name: 'odd.csv', size: csv.length }],
      },
    });
    expect(session.status).toBe(201);
    const id = session.body.upload.id;
    expect(session.body.upload).toMatchObject({
      runs: [],
      undone: false,
      cancelRequested: false,
      auctionId: null,
    });
    await putBlob(session.body.targets[0]?.url as string, csv);

    const preview = await domain<UploadPreview>('GET', `/data-upload/${id}/preview`, {
      token: owner.token,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.fields.filter((field) => field.required).map((field) => field.key)).toEqual(
      ['firstName', 'lastName', 'email'],
    );
    expect(preview.body.files).toEqual([
      {
        index: 0,
        name: 'odd.csv',
        format: 'csv',
        columns: ['Given', 'Family', 'Contact', 'Shoe'],
        rows: [
          { Given: 'Ada', Family: `Map${tag}`, Contact: `ada-${tag}@example.com`, Shoe: '38' },
          { Given: 'Bo', Family: `Map${tag}`, Contact: `bo-${tag}@example.com`, Shoe: '41' },
        ],
        mapping: { Given: null, Family: null, Contact: null, Shoe: null },
        missingRequired: ['firstName', 'lastName', 'email'],
        problem: null,
      },
    ]);

    const complete = (body: unknown) =>
      domain<Upload>('POST', `/data-upload/${id}/complete`, { token: owner.token, body });
    const unknownField = await complete({
      mappings: [{ file: 0, mapping: { Given: 'nickname' } }],
    });
    expect(unknownField.status).toBe(400);
    expect(fieldsOf(unknownField)).toEqual(['mappings.0.mapping.Given']);
    const noSuchFile = await complete({ mappings: [{ file: 3, mapping: {} }] });
    expect(noSuchFile.status).toBe(400);
    expect(fieldsOf(noSuchFile)).toEqual(['mappings.0.file']);

    const mapping = { Given: 'firstName', Family: 'lastName', Contact: 'email' };
    const completed = await complete({ mappings: [{ file: 0, mapping }] });
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('processing');
    expect(completed.body.runs).toMatchObject([{ number: 1, kind: 'import', mode: 'new' }]);
    const done = await settled(owner.token, id, name);
    expect(done.results).toMatchObject({ recordsProcessed: 2, recordsImported: 2, errorCount: 0 });
    expect(done.runs).toMatchObject([{ number: 1, created: 2, updated: 0, cancelled: false }]);
    expect(done.runs[0]?.finishedAt).not.toBeNull();
    expect((await listAll(owner.token, { search: `Map${tag}` })).bidders).toHaveLength(2);

    const saved = await domain<UploadPreview>('GET', `/data-upload/${id}/preview`, {
      token: owner.token,
    });
    expect(saved.body.files[0]).toMatchObject({
      mapping: { ...mapping, Shoe: null },
      missingRequired: [],
    });
  });

  it('takes a mapping with the form, and without one every row of odd headers fails', async () => {
    const tag = tagOf();
    const csv = Buffer.from(
      `Given,Family,Contact\nCy,Form${tag},cy-${tag}@example.com\nDi,Form${tag},di-${tag}@example.com\n`,
    );
    const fields = (name: string) => ({ name, description: 'Form upload', category: 'bidders' });

    const plainName = `Unmapped ${tag}`;
    const plain = await postForm(owner.token, fields(plainName), [{ name: 'odd.csv', data: csv }]);
    expect(plain.status).toBe(201);
    const failed = await settled(owner.token, plain.body.uploadId, plainName);
    expect(failed.results).toMatchObject({
      recordsProcessed: 2,
      recordsImported: 0,
      errorCount: 2,
    });
    expect(failed.results.errors[0]).toEqual({
      file: 'odd.csv',
      row: 1,
      field: 'firstName',
      message: 'is required',
    });

    const badTarget = await postForm(
      owner.token,
      {
        ...fields(`Bad ${tag}`),
        mappings: JSON.stringify([{ file: 0, mapping: { Given: 'nickname' } }]),
      },
      [{ name: 'odd.csv', data: csv }],
    );
    expect(badTarget.status).toBe(400);
    expect(fieldsOf(badTarget as never)).toEqual(['mappings.0.mapping.Given']);
    const badFile = await postForm(
      owner.token,
      { ...fields(`Bad ${tag}`), mappings: JSON.stringify([{ file: 2, mapping: {} }]) },
      [{ name: 'odd.csv', data: csv }],
    );
    expect(badFile.status).toBe(400);
    expect(fieldsOf(badFile as never)).toEqual(['mappings.0.file']);
    const notJson = await postForm(owner.token, { ...fields(`Bad ${tag}`), mappings: '{oops' }, [
      { name: 'odd.csv', data: csv },
    ]);
    expect(notJson.status).toBe(400);
    expect(fieldsOf(notJson as never)).toEqual(['mappings']);

    const mappedName = `Mapped ${tag}`;
    const mapped = await postForm(
      owner.token,
      {
        ...fields(mappedName),
        mappings: JSON.stringify([
          { file: 0, mapping: { Given: 'firstName', Family: 'lastName', Contact: 'email' } },
        ]),
      },
      [{ name: 'odd.csv', data: csv }],
    );
    expect(mapped.status).toBe(201);
    const imported = await settled(owner.token, mapped.body.uploadId, mappedName);
    expect(imported.results).toMatchObject({ recordsImported: 2, errorCount: 0 });
  });
});

describe('Excel and JSON files', () => {
  it('previews the first rows of each and imports them with their mappings', async () => {
    const tag = tagOf();
    const name = `Workbook ${tag}`;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Bidders');
    sheet.addRow(['Prénom', 'Nom', 'Courriel']);
    for (let row = 1; row <= 12; row += 1) {
      sheet.addRow([`X${row}`, `Xl${tag}`, `x${row}-${tag}@example.com`]);
    }
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const json = Buffer.from(
      JSON.stringify({
        bidders: [{ given: 'Jo', family: `Xl${tag}`, contact: { mail: `jo-${tag}@example.com` } }],
      }),
    );
    const posted = await postForm(
      owner.token,
      {
        name,
        description: 'Two shapes',
        category: 'bidders',
        mappings: JSON.stringify([
          { file: 0, mapping: { Prénom: 'firstName', Nom: 'lastName', Courriel: 'email' } },
          { file: 1, mapping: { given: 'firstName', family: 'lastName' } },
        ]),
      },
      [
        { name: 'bidders.xlsx', data: xlsx },
        { name: 'bidders.json', data: json },
      ],
    );
    expect(posted.status).toBe(201);
    const done = await settled(owner.token, posted.body.uploadId, name);
    expect(done.results).toMatchObject({
      recordsProcessed: 13,
      recordsImported: 13,
      errorCount: 0,
    });

    const preview = await domain<UploadPreview>('GET', `/data-upload/${done.id}/preview`, {
      token: owner.token,
    });
    const [sheetFile, jsonFile] = preview.body.files;
    expect(sheetFile).toMatchObject({
      format: 'xlsx',
      columns: ['Prénom', 'Nom', 'Courriel'],
      mapping: { Prénom: 'firstName', Nom: 'lastName', Courriel: 'email' },
      missingRequired: [],
      problem: null,
    });
    expect(sheetFile?.rows).toHaveLength(10);
    expect(sheetFile?.rows[0]).toEqual({
      Prénom: 'X1',
      Nom: `Xl${tag}`,
      Courriel: `x1-${tag}@example.com`,
    });
    expect(jsonFile).toMatchObject({
      format: 'json',
      columns: ['given', 'family', 'mail'],
      rows: [{ given: 'Jo', family: `Xl${tag}`, mail: `jo-${tag}@example.com` }],
      mapping: { given: 'firstName', family: 'lastName', mail: 'email' },
      missingRequired: [],
    });
  });
});

describe('re-runs', () => {
  it('runs failed rows again, new rows only, and updates after showing what it would overwrite', async () => {
    const tag = tagOf();
    const name = `Runs ${tag}`;
    const csv = [
      'First Name,Last Name,Email,Phone,City',
      `Rae,Run${tag},rae-${tag}@example.com,555-010-0001,Oslo`,
      `Rob,Run${tag},rob-${tag}@example.com,not a phone,Oslo`,
      `Ria,Run${tag},ria-${tag}@example.com,555-010-0003,Oslo`,
      `Roy,Run${tag},roy-${tag}@example.com,x,Oslo`,
    ].join('\n');
    const posted = await postForm(
      owner.token,
      { name, description: 'Re-run me', category: 'bidders' },
      [{ name: 'runs.csv', data: Buffer.from(csv) }],
    );
    expect(posted.status).toBe(201);
    const first = await settled(owner.token, posted.body.uploadId, name);
    const id = first.id;
    expect(first.results).toMatchObject({ recordsProcessed: 4, recordsImported: 2, errorCount: 2 });
    expect(first.results.errors.map((error) => [error.row, error.field])).toEqual([
      [2, 'phone'],
      [4, 'phone'],
    ]);

    expect((await rerun(owner.token, id, 'stale', { mode: 'failed' })).status).toBe(412);
    const badMapping = await rerun(owner.token, id, first.etag, {
      mode: 'failed',
      mappings: [{ file: 0, mapping: { Phone: 'telephone' } }],
    });
    expect(badMapping.status).toBe(400);
    expect(fieldsOf(badMapping)).toEqual(['mappings.0.mapping.Phone']);
    const badMode = await rerun(owner.token, id, first.etag, { mode: 'sideways' });
    expect(badMode.status).toBe(400);
    expect(fieldsOf(badMode)).toEqual(['mode']);

    // The failed rows only, with the phone column left out this time.
    const failedRun = await rerun(owner.token, id, first.etag, {
      mode: 'failed',
      mappings: [{ file: 0, mapping: { Phone: null } }],
    });
    expect(failedRun.status).toBe(200);
    expect(failedRun.body.status).toBe('processing');
    expect(failedRun.body.runs.map((run) => run.mode)).toEqual(['new', 'failed']);
    const second = await settled(owner.token, id, name);
    expect(second.results).toMatchObject({
      recordsProcessed: 2,
      recordsImported: 2,
      errorCount: 0,
      errorReportUrl: null,
    });
    expect(second.runs[1]).toMatchObject({ kind: 'import', mode: 'failed', created: 2 });
    const bidders = (await listAll(owner.token, { search: `Run${tag}` })).bidders;
    expect(bidders).toHaveLength(4);
    const noneFailed = await rerun(owner.token, id, second.etag, { mode: 'failed' });
    expect(noneFailed.status).toBe(400);
    expect(fieldsOf(noneFailed)).toEqual(['mode']);

    const overwrites = () =>
      domain<OverwritePreview>('GET', `/data-upload/${id}/overwrites`, { token: owner.token });
    expect((await overwrites()).body).toEqual({
      rowsRead: 4,
      complete: true,
      wouldUpdate: 0,
      wouldCreate: 0,
      changes: [],
    });

    // Someone moves Rae; the file still says Oslo.
    const rae = bidders.find((bidder) => bidder.firstName === 'Rae');
    const raeNow = await getBidder(owner.token, rae?.id as string);
    const moved = await domain('PUT', `/bidders/${rae?.id}`, {
      token: owner.token,
      body: { address: { ...raeNow.body.address, city: 'Bergen' } },
      headers: ifMatch(raeNow.body.etag),
    });
    expect(moved.status).toBe(200);
    const preview = await overwrites();
    expect(preview.body).toMatchObject({ rowsRead: 4, wouldUpdate: 1, wouldCreate: 0 });
    expect(preview.body.changes).toEqual([
      {
        file: 'runs.csv',
        row: 1,
        entity: 'bidder',
        recordId: rae?.id,
        title: `Rae Run${tag}`,
        fields: [{ field: 'city', existing: 'Bergen', imported: 'Oslo' }],
      },
    ]);

    const again = await rerun(owner.token, id, second.etag, { mode: 'new' });
    expect(again.status).toBe(200);
    const third = await settled(owner.token, id, name);
    expect(third.results).toMatchObject({ recordsProcessed: 4, recordsImported: 0, duplicates: 4 });
    expect((await getBidder(owner.token, rae?.id as string)).body.address.city).toBe('Bergen');

    const update = await rerun(owner.token, id, third.etag, { mode: 'update' });
    expect(update.status).toBe(200);
    const fourth = await settled(owner.token, id, name);
    expect(fourth.runs.map((run) => run.mode)).toEqual(['new', 'failed', 'new', 'update']);
    expect(fourth.runs[3]).toMatchObject({ created: 0, updated: 1 });
    expect(fourth.results).toMatchObject({ recordsImported: 1, duplicates: 3 });
    expect((await getBidder(owner.token, rae?.id as string)).body.address.city).toBe('Oslo');
  });

  it('refuses a re-run or an undo while the upload is processing', async () => {
    const tag = tagOf();
    const name = `Busy ${tag}`;
    const id = await stage(owner.accountId, name, [
      { name: 'busy.csv', data: bidderRows(tag, 'B', 2) },
    ]);
    const busy = await uploadNamed(owner.token, id, name);
    const reply = await rerun(owner.token, id, busy.etag, { mode: 'new' });
    expect(reply.status).toBe(409);
    expect(messageOf(reply)).toMatch(/being processed/);
    const undo = await domain('POST', `/data-upload/${id}/undo`, {
      token: owner.token,
      headers: ifMatch(busy.etag),
    });
    expect(undo.status).toBe(409);
    await processUpload(systemContext(owner.accountId), id);
    expect((await recordOf(owner.accountId, id)).status).toBe('completed');
  });
});

describe('bidder conflicts', () => {
  it('records each possible duplicate below the auto-merge threshold once, as a conflict', async () => {
    const tag = tagOf();
    const name = `Conflicts ${tag}`;
    const address = { street: '12 Harbour Rd', city: 'Boston', state: 'MA', zip: '02110' };
    const nora = await createBidder(owner.token, {
      firstName: 'Nora',
      lastName: `Dup${tag}`,
      email: `nora-a-${tag}@example.com`,
      phone: '555-010-4242',
      address: { ...address, country: 'USA' },
    });
    const csv = [
      'First Name,Last Name,Email,Phone,Street,City,State,ZIP',
      `Nora,Dup${tag},nora-b-${tag}@example.com,555-010-4242,12 Harbour Rd,Boston,MA,02110`,
    ].join('\n');
    const posted = await postForm(
      owner.token,
      { name, description: 'A likely duplicate', category: 'bidders' },
      [{ name: 'dup.csv', data: Buffer.from(csv) }],
    );
    const done = await settled(owner.token, posted.body.uploadId, name);
    expect(done.results.recordsImported).toBe(1);
    expect(done.results.notes?.map((note) => note.message)).toContain(
      '1 possible duplicate waits for a decision under Conflict Resolution.',
    );
    const listed = () =>
      domain<{ items: Conflict[] }>('GET', `/data-upload/conflicts?uploadId=${done.id}`, {
        token: owner.token,
      });
    const [conflict, ...others] = (await listed()).body.items;
    expect(others).toEqual([]);
    expect(conflict).toMatchObject({
      type: 'bidder',
      conflictType: 'duplicate',
      status: 'pending',
      uploadId: done.id,
      uploadName: name,
      existingId: nora.id,
      matchScore: 70,
      source: { kind: 'upload', uploadId: done.id, uploadName: name },
    });
    expect(conflict?.fields).toContainEqual({
      field: 'email',
      label: 'Email',
      existing: `nora-a-${tag}@example.com`,
      imported: `nora-b-${tag}@example.com`,
    });
    expect(conflict?.importedRecord).toMatchObject({ email: `nora-b-${tag}@example.com` });

    // Run again, the same pair is not recorded twice.
    expect((await rerun(owner.token, done.id, done.etag, { mode: 'update' })).status).toBe(200);
    const again = await settled(owner.token, done.id, name);
    expect((await listed()).body.items).toHaveLength(1);

    // Undone, the import's bidder is gone: its conflict is closed, and no choice applies to it.
    const undo = await domain('POST', `/data-upload/${done.id}/undo`, {
      token: owner.token,
      headers: ifMatch(again.etag),
    });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    const undone = await settled(owner.token, done.id, name);
    expect(undone.results.notes?.at(-1)?.message).toBe(
      'Undone: 1 record removed, 0 put back, 0 kept because they were changed after the import. 1 conflict it left for a decision was closed.',
    );
    const [closed] = (await listed()).body.items;
    expect(closed).toMatchObject({
      status: 'skipped',
      resolution: null,
      resolvedBy: { id: expect.any(String), name: expect.any(String) },
      note: 'Skipped: the import that recorded it was undone.',
    });
    const resolve = await domain('POST', `/data-upload/conflicts/${closed?.id}/resolve`, {
      token: owner.token,
      body: { resolution: 'use_imported' },
      headers: ifMatch(closed?.etag),
    });
    expect(resolve.status).toBe(409);
  });
});

describe('undo', () => {
  it('removes what the runs created, puts back what they changed, and keeps what was edited since', async () => {
    const tag = tagOf();
    const name = `Undo ${tag}`;
    const xena = await createBidder(owner.token, {
      firstName: 'Xena',
      lastName: `Undo${tag}`,
      email: `xena-${tag}@example.com`,
      address: { street: '1 Quay', city: 'Oslo', state: '', zip: '0150', country: 'Norway' },
    });
    const csv = [
      'First Name,Last Name,Email,City,Phone',
      `Xena,Undo${tag},xena-${tag}@example.com,Bergen,`,
      `Uma,Undo${tag},uma-${tag}@example.com,Oslo,555-010-0001`,
      `Ugo,Undo${tag},ugo-${tag}@example.com,Oslo,555-010-0002`,
      `Una,Undo${tag},una-${tag}@example.com,Oslo,555-010-0003`,
    ].join('\n');
    // The first run leaves the phones out; the update brings them in.
    const posted = await postForm(
      owner.token,
      {
        name,
        description: 'To be undone',
        category: 'bidders',
        mappings: JSON.stringify([{ file: 0, mapping: { Phone: null } }]),
      },
      [{ name: 'undo.csv', data: Buffer.from(csv) }],
    );
    const first = await settled(owner.token, posted.body.uploadId, name);
    const id = first.id;
    expect(first.results).toMatchObject({ recordsImported: 3, duplicates: 1 });
    const created = (await listAll(owner.token, { search: `Undo${tag}` })).bidders;
    const idOf = (firstName: string) =>
      created.find((bidder) => bidder.firstName === firstName)?.id as string;
    const edit = async (bidderId: string, body: Record<string, unknown>) => {
      const now = await getBidder(owner.token, bidderId);
      const reply = await domain('PUT', `/bidders/${bidderId}`, {
        token: owner.token,
        body: typeof body.city === 'string' ? { address: { ...now.body.address, ...body } } : body,
        headers: ifMatch(now.body.etag),
      });
      expect(reply.status).toBe(200);
    };
    // Between the runs someone moves Una; the update moves her back (and adds the phones).
    await edit(idOf('Una'), { city: 'Bergen' });
    const update = await rerun(owner.token, id, first.etag, {
      mode: 'update',
      mappings: [{ file: 0, mapping: { Phone: 'phone' } }],
    });
    expect(update.status).toBe(200);
    const updated = await settled(owner.token, id, name);
    expect(updated.runs[1]).toMatchObject({ mode: 'update', created: 0, updated: 4 });
    expect((await getBidder(owner.token, xena.id)).body.address.city).toBe('Bergen');
    // After the runs someone gives Ugo another phone.
    await edit(idOf('Ugo'), { phone: '555-010-0099' });

    const undo = (etag: string | undefined) =>
      domain<{ uploadId: string; status: string }>('POST', `/data-upload/${id}/undo`, {
        token: owner.token,
        headers: ifMatch(etag),
      });
    expect((await undo('stale')).status).toBe(412);
    const asked = await undo(updated.etag);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ uploadId: id, status: 'processing' });
    const undone = await settled(owner.token, id, name);
    expect(undone).toMatchObject({ status: 'completed', undone: true });
    expect(undone.runs.map((run) => run.kind)).toEqual(['import', 'import', 'undo']);
    expect(undone.runs[2]).toMatchObject({ removed: 1, restored: 1, kept: 2, cancelled: false });
    expect(undone.results.notes?.at(-1)).toMatchObject({
      kind: 'undo',
      message: expect.stringMatching(/^Undone: 1 record removed, 1 put back/),
    });

    // Uma was the import's alone: gone. Xena is as she was. Una keeps the move made between
    // the runs (without the phone the update gave her); Ugo keeps the edit made after them.
    const left = (await listAll(owner.token, { search: `Undo${tag}` })).bidders;
    expect(left.map((bidder) => bidder.firstName).sort()).toEqual(['Ugo', 'Una', 'Xena']);
    expect((await getBidder(owner.token, xena.id)).body.address.city).toBe('Oslo');
    const una = (await getBidder(owner.token, idOf('Una'))).body;
    expect([una.address.city, una.phone]).toEqual(['Bergen', null]);
    expect((await getBidder(owner.token, idOf('Ugo'))).body.phone).toBe('555-010-0099');

    const twice = await undo(undone.etag);
    expect(twice.status).toBe(409);
    // Undone, it can be imported again: what was removed comes back.
    expect((await rerun(owner.token, id, undone.etag, { mode: 'new' })).status).toBe(200);
    const back = await settled(owner.token, id, name);
    expect(back).toMatchObject({ undone: false });
    expect(back.runs[3]).toMatchObject({ kind: 'import', created: 1 });
  });

  it('finishes after a crash part way, without taking anything back twice', async () => {
    const tag = tagOf();
    const name = `Crash undo ${tag}`;
    const id = await stage(owner.accountId, name, [
      { name: 'many.csv', data: bidderRows(tag, 'C', 120) },
    ]);
    const ctx = systemContext(owner.accountId);
    await processUpload(ctx, id);
    const imported = await recordOf(owner.accountId, id);
    expect(imported.runs).toMatchObject([{ kind: 'import', created: 120 }]);
    expect((await listAll(owner.token, { search: tag, limit: 200 })).bidders).toHaveLength(120);

    // The undo as the route leaves it, without a message for the stack's worker to take.
    await begin(owner.accountId, id, 'undo');
    await expect(processUpload(ctx, id, { failAfterRows: 70 })).rejects.toThrow('Injected failure');
    const crashed = await recordOf(owner.accountId, id);
    expect(crashed.status).toBe('processing');
    const leftAtCrash = (await listAll(owner.token, { search: tag, limit: 200 })).bidders.length;
    expect(leftAtCrash).toBeGreaterThan(0);
    expect(leftAtCrash).toBeLessThan(120);

    await processUpload(ctx, id);
    const record = await recordOf(owner.accountId, id);
    expect(record).toMatchObject({ status: 'completed', undone: true, progress: 100 });
    const run = record.runs[1];
    expect(run).toMatchObject({ kind: 'undo', restored: 0, kept: 0, cancelled: false });
    // Those removed by the crashed run are found gone by the second, and not counted again.
    expect(run?.removed).toBeGreaterThanOrEqual(leftAtCrash);
    expect(run?.removed).toBeLessThanOrEqual(120);
    expect((await listAll(owner.token, { search: tag, limit: 200 })).bidders).toHaveLength(0);
  });
});

describe('runs stopped by a crash part way', () => {
  const ctx = () => systemContext(owner.accountId);
  const named = async (tag: string, firstName: string) => {
    const found = (await listAll(owner.token, { search: tag, limit: 200 })).bidders.find(
      (bidder) => bidder.firstName === firstName,
    );
    if (!found) throw new Error(`no bidder ${firstName}`);
    return found;
  };

  it("undo keeps a record edited after the run's write landed, though the run ended later", async () => {
    const tag = tagOf();
    const id = await stage(owner.accountId, `Edited meanwhile ${tag}`, [
      { name: 'first.csv', data: bidderRows(tag, 'E', 30) },
      { name: 'second.csv', data: bidderRows(tag, 'F', 30) },
    ]);
    // The first file is written and checkpointed; the run stops ten rows into the second.
    await expect(processUpload(ctx(), id, { failAfterRows: 40 })).rejects.toThrow(
      'Injected failure',
    );
    // While the run waits to resume, someone edits a bidder it wrote.
    const edited = await named(tag, 'E7');
    const reply = await domain('PUT', `/bidders/${edited.id}`, {
      token: owner.token,
      body: { phone: '555-030-0007' },
      headers: ifMatch((await getBidder(owner.token, edited.id)).body.etag),
    });
    expect(reply.status).toBe(200);
    await processUpload(ctx(), id);
    const imported = await recordOf(owner.accountId, id);
    expect(imported.runs[0]).toMatchObject({ kind: 'import', created: 60 });
    const finishedAt = Date.parse(imported.runs[0]?.finishedAt ?? '');
    const editedAt = Date.parse((await getBidder(owner.token, edited.id)).body.updatedAt);
    expect(finishedAt).toBeGreaterThan(editedAt);

    await begin(owner.accountId, id, 'undo');
    await processUpload(ctx(), id);
    const undone = await recordOf(owner.accountId, id);
    expect(undone.runs[1]).toMatchObject({ kind: 'undo', removed: 59, restored: 0, kept: 1 });
    const left = (await listAll(owner.token, { search: tag, limit: 200 })).bidders;
    expect(left.map((bidder) => [bidder.firstName, bidder.phone])).toEqual([
      ['E7', '555-030-0007'],
    ]);
  });

  it('pairs, once resumed, the bidders it wrote before the crash with those on file', async () => {
    const tag = tagOf();
    const { onFile, again } = await marcusOnFile(owner.token, tag);
    // The same person's second registration is the first file's first row.
    const first = [
      'firstName,lastName,email,phone,street,city,state,zip',
      again,
      ...bidderRows(tag, 'G', 29)
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => `${line},,,,,`),
    ];
    const id = await stage(owner.accountId, `Paired after a crash ${tag}`, [
      { name: 'first.csv', data: `${first.join('\n')}\n` },
      { name: 'second.csv', data: bidderRows(tag, 'H', 30) },
    ]);
    await expect(processUpload(ctx(), id, { failAfterRows: 40 })).rejects.toThrow(
      'Injected failure',
    );
    await processUpload(ctx(), id);
    const record = await recordOf(owner.accountId, id);
    expect(record.runs[0]).toMatchObject({ kind: 'import', created: 60 });
    const pending = await domain<{
      duplicates: { bidder1: { id: string }; bidder2: { id: string } }[];
    }>('GET', '/duplicates?status=pending', { token: owner.token });
    expect(
      pending.body.duplicates.filter((pair) =>
        [pair.bidder1.id, pair.bidder2.id].includes(onFile.id),
      ),
    ).toHaveLength(1);
    expect(record.results.notes?.map((note) => note.message)).toContain(
      '1 possible duplicate waits for a decision under Conflict Resolution.',
    );
  });

  it('an update that crashed updates, once resumed, the records an earlier run created', async () => {
    const tag = tagOf();
    const id = await stage(owner.accountId, `Update resumed ${tag}`, [
      { name: 'people.csv', data: bidderRows(tag, 'P', 60) },
    ]);
    await processUpload(ctx(), id);
    expect((await recordOf(owner.accountId, id)).runs[0]).toMatchObject({ created: 60 });
    // The file now brings phones; the update stops after its first batch of fifty.
    const phones = ['firstName,lastName,email,phone'];
    for (let row = 1; row <= 60; row += 1) {
      phones.push(
        `P${row},${tag},p${row}-${tag}@example.com,555-040-${String(row).padStart(4, '0')}`,
      );
    }
    await putBlobStream(
      repo.UPLOADS_BLOB_CONTAINER,
      repo.uploadBlobName(owner.accountId, id, 0),
      Readable.from([Buffer.from(`${phones.join('\n')}\n`)]),
      'text/csv',
    );
    await begin(owner.accountId, id, 'import', 'update');
    await expect(processUpload(ctx(), id, { failAfterRows: 55 })).rejects.toThrow(
      'Injected failure',
    );
    await processUpload(ctx(), id);
    const record = await recordOf(owner.accountId, id);
    expect(record.runs[1]).toMatchObject({ kind: 'import', mode: 'update', created: 0 });
    const bidders = (await listAll(owner.token, { search: tag, limit: 200 })).bidders;
    expect(bidders).toHaveLength(60);
    expect(
      bidders.filter((bidder) => bidder.phone === null).map((bidder) => bidder.firstName),
    ).toEqual([]);
  });
});

describe('undo after an automatic merge', () => {
  it('puts back the bidder on file that an import merged a row into', async () => {
    const house = await freshOwner();
    expect((await saveSettings(house.token, { autoMergeThreshold: 70 })).status).toBe(200);
    const tag = tagOf();
    // On file with no bidding yet; the import's row of the same person brings some.
    const { onFile, again } = await marcusOnFile(house.token, tag);
    const rows = [
      'bidderId,firstName,lastName,email,phone,street,city,state,zip,auctions,lots,wins,note',
      `MB-${tag},${again},2,5,3,Registered at the preview`,
      `,Nora,Other${tag},nora-${tag}@example.com,,,,,,,,,`,
    ];
    const id = await stage(house.accountId, `Merged ${tag}`, [
      { name: 'merge.csv', data: `${rows.join('\n')}\n` },
    ]);
    const ctx = systemContext(house.accountId);
    await processUpload(ctx, id);
    const imported = await recordOf(house.accountId, id);
    expect(imported.runs[0]).toMatchObject({ kind: 'import', created: 2 });
    expect((await listAll(house.token, { search: tag })).bidders).toHaveLength(2);
    // The row became part of the bidder on file, whose figures now count its bidding.
    const merged = (await getBidder(house.token, onFile.id)).body;
    expect(merged.stats).toMatchObject({ totalAuctionsBid: 2, totalLotsBid: 5, wins: 3 });
    expect(merged.aliases).toEqual([`MB-${tag}`]);
    expect(await notesOf(house.token, onFile.id)).toEqual(['Registered at the preview']);

    await begin(house.accountId, id, 'undo');
    await processUpload(ctx, id);
    const undone = await recordOf(house.accountId, id);
    expect(undone.runs[1]).toMatchObject({ kind: 'undo', removed: 1, restored: 1, kept: 0 });
    const left = (await listAll(house.token, { search: tag })).bidders;
    expect(left.map((bidder) => bidder.id)).toEqual([onFile.id]);
    const restored = (await getBidder(house.token, onFile.id)).body;
    expect(restored.stats).toMatchObject({ totalAuctionsBid: 0, totalLotsBid: 0, wins: 0 });
    // Nothing of the row stays with it: not its bidder ID, nor its note.
    expect(restored.aliases).toEqual([]);
    expect(await notesOf(house.token, onFile.id)).toEqual([]);
    expect((await listAll(house.token, { search: `MB-${tag}` })).bidders).toEqual([]);
  });
});

describe('undo cut short inside a ledger document', () => {
  it('counts what it removed before the crash once, as removed', async () => {
    const tag = tagOf();
    const name = `Cut short ${tag}`;
    const id = await stage(owner.accountId, name, [
      { name: 'many.csv', data: bidderRows(tag, 'K', 120) },
    ]);
    const ctx = systemContext(owner.accountId);
    await processUpload(ctx, id);
    const imported = await recordOf(owner.accountId, id);
    expect(imported.runs).toMatchObject([{ kind: 'import', created: 120 }]);
    await begin(owner.accountId, id, 'undo');
    // The ledger holds batches of 50, 50 and 20 bidders, taken back newest first: the crash comes
    // 25 entries into the second document.
    await expect(processUpload(ctx, id, { failAfterRows: 45 })).rejects.toThrow('Injected failure');
    const leftAtCrash = (await listAll(owner.token, { search: tag, limit: 200 })).bidders.length;
    expect(leftAtCrash).toBeLessThan(100);

    await processUpload(ctx, id);
    const record = await recordOf(owner.accountId, id);
    expect(record).toMatchObject({ status: 'completed', undone: true });
    expect(record.runs[1]).toMatchObject({
      kind: 'undo',
      removed: 120,
      restored: 0,
      kept: 0,
      cancelled: false,
    });
    expect(record.results.notes?.at(-1)?.message).toMatch(/^Undone: 120 records removed/);
    expect((await listAll(owner.token, { search: tag, limit: 200 })).bidders).toHaveLength(0);
  });
});

describe('a file written again through its link after it was checked', () => {
  it('is neither served nor read again: the download answers 409 and a re-run names the file', async () => {
    const tag = tagOf();
    const name = `Written again ${tag}`;
    const data = Buffer.from(`firstName,lastName,email\nAda,Again${tag},ada-${tag}@example.com\n`);
    const session = await domain<UploadSession>('POST', '/data-upload/sessions', {
      token: owner.token,
      body: {
        name,
        description: 'Checked, then overwritten',
        category: 'bidders',
        files: [{ name: 'people.csv', size: data.length }],
      },
    });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const id = session.body.upload.id;
    const url = session.body.targets[0]?.url as string;
    await putBlob(url, data);
    const complete = await domain<Upload>('POST', `/data-upload/${id}/complete`, {
      token: owner.token,
    });
    expect(complete.status, JSON.stringify(complete.body)).toBe(200);
    const done = await settled(owner.token, id, name);
    expect(done.results).toMatchObject({ recordsImported: 1, errorCount: 0 });

    // The link still writes for a while: a program put there afterwards goes nowhere.
    await putBlob(url, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]));
    const download = await domain('GET', `/data-upload/download/${id}`, { token: owner.token });
    expect(download.status).toBe(409);
    expect(messageOf(download)).toBe(
      'people.csv was written again after it was checked; upload it anew',
    );
    const again = await rerun(owner.token, id, done.etag, { mode: 'new' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const reread = await settled(owner.token, id, name);
    expect(reread.results.errors).toEqual([
      {
        file: 'people.csv',
        row: null,
        field: null,
        message: 'was written again after it was checked; upload it anew',
      },
    ]);
  });
});

describe('cancel', () => {
  it('removes an upload still uploading, with its files', async () => {
    const tag = tagOf();
    const session = await domain<UploadSession>('POST', '/data-upload/sessions', {
      token: owner.token,
      body: {
        name: `Cancel early ${tag}`,
        description: 'Never finished',
        category: 'bidders',
        files: [{ name: 'a.csv', size: 20 }],
      },
    });
    const id = session.body.upload.id;
    await putBlob(session.body.targets[0]?.url as string, Buffer.from('a,b\n1,2\n'));
    const cancel = () =>
      domain<{ uploadId: string; status: string }>('POST', `/data-upload/${id}/cancel`, {
        token: owner.token,
      });
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ uploadId: id, status: 'error' });
    expect((await domain('GET', `/data-upload/status/${id}`, { token: owner.token })).status).toBe(
      404,
    );
    expect(await repo.findUpload({ accountId: owner.accountId }, id)).toBeUndefined();
  });

  it('stops a run under way at its next checkpoint, keeping what it imported for Undo', async () => {
    const tag = tagOf();
    const name = `Cancel run ${tag}`;
    const id = await stage(owner.accountId, name, [
      { name: 'first.csv', data: bidderRows(tag, 'F', 60) },
      { name: 'second.csv', data: bidderRows(tag, 'S', 60) },
    ]);
    const ctx = systemContext(owner.accountId);
    await expect(processUpload(ctx, id, { failAfterRows: 30 })).rejects.toThrow('Injected failure');
    const running = await uploadNamed(owner.token, id, name);
    expect(running.status).toBe('processing');
    const asked = await domain<{ uploadId: string; status: string }>(
      'POST',
      `/data-upload/${id}/cancel`,
      { token: owner.token, headers: ifMatch(running.etag) },
    );
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ uploadId: id, status: 'processing' });
    expect((await recordOf(owner.accountId, id)).cancelRequested).toBe(true);

    // The run resumes and stops at its first checkpoint: the end of the first file at the latest.
    await processUpload(ctx, id);
    const record = await recordOf(owner.accountId, id);
    expect(record).toMatchObject({ status: 'error', cancelRequested: false });
    expect(record.runs).toMatchObject([{ kind: 'import', cancelled: true }]);
    const kept = (await listAll(owner.token, { search: tag, limit: 200 })).bidders;
    expect(kept.length).toBeGreaterThanOrEqual(30);
    expect(kept.every((bidder) => bidder.firstName.startsWith('F'))).toBe(true);
    expect(record.runs[0]?.created).toBe(kept.length);
    expect(record.results.notes?.at(-1)?.message).toMatch(/Undo removes them/);

    const done = await uploadNamed(owner.token, id, name);
    const again = await domain('POST', `/data-upload/${id}/cancel`, {
      token: owner.token,
      headers: ifMatch(done.etag),
    });
    expect(again.status).toBe(409);
    const undo = await domain('POST', `/data-upload/${id}/undo`, {
      token: owner.token,
      headers: ifMatch(done.etag),
    });
    expect(undo.status).toBe(200);
    const undone = await settled(owner.token, id, name);
    expect(undone.runs[1]).toMatchObject({ kind: 'undo', removed: kept.length });
    expect((await listAll(owner.token, { search: tag, limit: 200 })).bidders).toHaveLength(0);
  });
});

describe('a run the queue gave up on', () => {
  it('ends in error at its last checkpoint, saying so, and what it imported can be undone', async () => {
    const tag = tagOf();
    const name = `Given up ${tag}`;
    const id = await stage(owner.accountId, name, [
      { name: 'first.csv', data: bidderRows(tag, 'F', 60) },
      { name: 'second.csv', data: bidderRows(tag, 'S', 60) },
    ]);
    const ctx = systemContext(owner.accountId);
    await expect(processUpload(ctx, id, { failAfterRows: 70 })).rejects.toThrow('Injected failure');
    expect((await recordOf(owner.accountId, id)).status).toBe('processing');

    // Its last try failed too: the stack's host moves the message to the poison queue, as here.
    await enqueue(`${PROCESS_QUEUE}-poison`, { accountId: owner.accountId, uploadId: id });
    const stopped = await settled(owner.token, id, name);
    expect(stopped.status).toBe('error');
    expect(stopped.runs).toMatchObject([{ kind: 'import', cancelled: false, stopped: true }]);
    expect(stopped.runs[0]?.finishedAt).not.toBeNull();
    const kept = (await listAll(owner.token, { search: tag, limit: 200 })).bidders;
    expect(kept.length).toBeGreaterThanOrEqual(60);
    expect(stopped.runs[0]?.created).toBeGreaterThanOrEqual(60);
    expect(stopped.results.notes?.at(-1)?.message).toBe(
      `Stopped: processing failed again each time it was tried. The ${stopped.results.recordsImported} records it imported before stopping stay; Undo removes them.`,
    );

    // Undo takes back everything the run wrote, those after its last checkpoint included.
    const undo = await domain('POST', `/data-upload/${id}/undo`, {
      token: owner.token,
      headers: ifMatch(stopped.etag),
    });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    const undone = await settled(owner.token, id, name);
    expect(undone).toMatchObject({ status: 'completed', undone: true });
    expect((await listAll(owner.token, { search: tag, limit: 200 })).bidders).toHaveLength(0);
  });
});

describe('who may', () => {
  it("reads one upload; answers 404 for another account's and 403 without data:import", async () => {
    const tag = tagOf();
    const name = `Private ${tag}`;
    const posted = await postForm(owner.token, { name, description: 'Mine', category: 'bidders' }, [
      { name: 'p.csv', data: Buffer.from(bidderRows(tag, 'P', 1)) },
    ]);
    const upload = await settled(owner.token, posted.body.uploadId, name);
    const id = upload.id;
    const own = await domain<Upload>('GET', `/data-upload/${id}`, { token: owner.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(upload);
    expect(own.headers.get('etag')).toBe(`"${upload.etag}"`);
    const attempts: [string, string][] = [
      ['GET', `/data-upload/${id}`],
      ['GET', `/data-upload/${id}/preview`],
      ['GET', `/data-upload/${id}/overwrites`],
      ['POST', `/data-upload/${id}/rerun`],
      ['POST', `/data-upload/${id}/undo`],
      ['POST', `/data-upload/${id}/cancel`],
    ];
    for (const [method, path] of attempts) {
      const reply = await domain(method, path, {
        token: other.token,
        headers: ifMatch(upload.etag),
        ...(path.endsWith('rerun') ? { body: { mode: 'new' } } : {}),
      });
      expect(reply.status, `${method} ${path}`).toBe(404);
    }
    for (const email of [demo.staff, demo.viewer]) {
      const { accessToken } = await signedIn(email);
      for (const path of [`/data-upload/${id}`, `/data-upload/${id}/preview`]) {
        const reply = await domain('GET', path, { token: accessToken });
        expect(reply.status).toBe(403);
        expect(codeOf(reply)).toBe('forbidden');
      }
    }
  });
});
