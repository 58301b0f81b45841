import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuctionListItem } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Conflict } from '../../functions/src/conflicts/conflicts.schema.js';
import type {
  InventoryItem,
  InventoryListItem,
} from '../../functions/src/inventory/inventory.schema.js';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import type {
  OverwritePreview,
  Upload,
  UploadFile,
  UploadStatusView,
} from '../../functions/src/uploads/uploads.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import { createBidder, domain, freshOwner, messageOf, type Owner } from '../support/bidders.js';
import { ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

/**
 * The category importers of the Data Processing Center (inventory, auctions, legal) driven as a
 * house drives them: files sent to POST /data-upload/general, processed by the stack's own
 * worker, the records found through each feature's own routes, then re-run and undone.
 */

// The resume test stages an upload and runs the worker in this process, so it can crash it.
usePlatformEnvironment();
const { processUpload } = await import('../../functions/src/uploads/upload-worker.js');
const { systemContext } = await import('../../functions/src/platform/context.js');
const { getBlob, putBlobStream } = await import('../../functions/src/platform/blob.js');
const repo = await import('../../functions/src/uploads/uploads.repo.js');

let owner: Owner;
beforeAll(async () => {
  owner = await ownerWithAddOns();
});

const tagOf = () => randomUUID().slice(0, 8);

interface FilePart {
  name: string;
  data: Buffer;
}

const csv = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
async function xlsx(rows: unknown[][]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

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
    body: (text ? JSON.parse(text) : {}) as { uploadId: string } & Record<string, unknown>,
  };
}

/** The upload as the history lists it (with its runs and ETag). */
async function uploadNamed(id: string, name: string, token = owner.token): Promise<Upload> {
  const reply = await domain<{ items: Upload[] }>(
    'GET',
    `/data-upload/history?search=${encodeURIComponent(name)}`,
    { token },
  );
  const found = reply.body.items.find((upload) => upload.id === id);
  if (!found) throw new Error(`upload ${id} not in the history`);
  return found;
}

/** The upload once its run has finished (the stack's worker runs it). */
async function settled(id: string, name: string, token = owner.token): Promise<Upload> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reply = await domain<UploadStatusView>('GET', `/data-upload/status/${id}`, { token });
    expect(reply.status).toBe(200);
    if (reply.body.status === 'completed' || reply.body.status === 'error') {
      return uploadNamed(id, name, token);
    }
    if (Date.now() > deadline) throw new Error(`upload ${id} still ${reply.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Sends the files as one upload of the category and waits for its first run to finish. */
async function upload(
  category: string,
  name: string,
  files: FilePart[],
  extra: Record<string, string> = {},
) {
  const reply = await postForm(
    owner.token,
    { name, description: 'Importer test', category, ...extra },
    files,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return settled(reply.body.uploadId, name);
}

/** Runs a finished upload again in `mode` and waits for it. */
async function rerun(done: Upload, mode: 'new' | 'failed' | 'update') {
  const reply = await domain<Upload>('POST', `/data-upload/${done.id}/rerun`, {
    token: owner.token,
    body: { mode },
    headers: ifMatch(done.etag),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return settled(done.id, done.name);
}

/** Undoes everything an upload's runs wrote and waits for it. */
async function undo(done: Upload) {
  const reply = await domain('POST', `/data-upload/${done.id}/undo`, {
    token: owner.token,
    headers: ifMatch(done.etag),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const after = await settled(done.id, done.name);
  expect(after.undone).toBe(true);
  return after.runs.at(-1);
}

const lastRun = (done: Upload) => done.runs.at(-1);

async function items(search: string) {
  const reply = await domain<{ items: InventoryListItem[]; total: number }>(
    'GET',
    `/inventory/items?search=${encodeURIComponent(search)}&limit=100`,
    { token: owner.token },
  );
  expect(reply.status).toBe(200);
  return reply.body.items;
}

async function auctionsNamed(search: string) {
  const reply = await domain<{ auctions: AuctionListItem[] }>(
    'GET',
    `/listAuctions?search=${encodeURIComponent(search)}`,
    { token: owner.token },
  );
  expect(reply.status).toBe(200);
  return reply.body.auctions;
}

async function lotsOf(auctionId: string) {
  const reply = await domain<{ lots: Lot[] }>('GET', `/auctions/${auctionId}/lots`, {
    token: owner.token,
  });
  expect(reply.status).toBe(200);
  return reply.body.lots;
}

async function casesNamed(search: string) {
  const reply = await domain<{ cases: LegalCase[] }>(
    'GET',
    `/listLegalCases?search=${encodeURIComponent(search)}`,
    { token: owner.token },
  );
  expect(reply.status).toBe(200);
  return reply.body.cases;
}

describe('an inventory upload', () => {
  it('imports items from CSV, Excel and JSON, names a bad row, re-runs without doubles, updates and undoes', async () => {
    const tag = tagOf();
    const name = `Inventory ${tag}`;
    const done = await upload('inventory', name, [
      {
        name: 'items.csv',
        data: csv([
          'Title,Category,Low Estimate,High Estimate,Condition,Location',
          `Teapot ${tag},Silver,"1,250.00",2000,Good,Vault`,
          `Chair ${tag},Furniture,lots,450,Fair,`,
        ]),
      },
      {
        name: 'items.xlsx',
        data: await xlsx([
          ['Item Name', 'Category', 'Low Estimate', 'High Estimate', 'Condition'],
          [`Ring ${tag}`, 'Jewelry', 300.5, 500, 'excellent'],
        ]),
      },
      {
        name: 'items.json',
        data: json({
          items: [
            {
              title: `Quilt ${tag}`,
              category: 'Textiles',
              estimateLow: '80',
              estimateHigh: 120,
              condition: 'Poor',
            },
          ],
        }),
      },
    ]);
    expect(done.status, JSON.stringify(done.results)).toBe('completed');
    expect(done.results.recordsImported, JSON.stringify(done.results)).toBe(3);
    expect(done.results.errors).toEqual([
      { file: 'items.csv', row: 2, field: 'estimateLow', message: 'is an amount like 1,250.00' },
    ]);
    const found = await items(tag);
    expect(found.map((item) => item.title).sort()).toEqual([
      `Quilt ${tag}`,
      `Ring ${tag}`,
      `Teapot ${tag}`,
    ]);
    const byTitle = (title: string) =>
      found.find((item) => item.title === title) as InventoryListItem;
    expect(byTitle(`Teapot ${tag}`)).toMatchObject({
      estimatedValue: { low: 125000, high: 200000 },
      currency: 'USD',
      condition: 'Good',
      location: 'Vault',
      status: 'Available',
    });
    expect(byTitle(`Ring ${tag}`)).toMatchObject({
      category: 'Jewelry & Watches',
      estimatedValue: { low: 30050, high: 50000 },
    });

    // The same rows again take nothing twice.
    const again = await rerun(done, 'new');
    expect(lastRun(again)).toMatchObject({ mode: 'new', created: 0, updated: 0 });
    expect(again.results.duplicates, JSON.stringify(again.results)).toBe(3);
    expect(await items(tag)).toHaveLength(3);

    // Another file of the same item: left as it is, until it is run in `update` mode.
    const updateName = `Inventory update ${tag}`;
    const second = await upload('inventory', updateName, [
      {
        name: 'revalued.csv',
        data: csv([
          'Title,Category,Low Estimate,High Estimate,Condition,Location',
          `teapot  ${tag},Silver,"1,250.00",2500,Good,`,
          // The same item again in the same batch: it moves on top of the row before.
          `Teapot ${tag},Silver,"1,250.00",2500,Good,Strongroom`,
        ]),
      },
    ]);
    expect(second.results).toMatchObject({ recordsImported: 0, duplicates: 2 });
    const preview = await domain<OverwritePreview>('GET', `/data-upload/${second.id}/overwrites`, {
      token: owner.token,
    });
    expect(preview.body).toMatchObject({
      rowsRead: 2,
      complete: true,
      wouldUpdate: 2,
      wouldCreate: 0,
    });
    expect(preview.body.changes[0]).toMatchObject({
      entity: 'inventory-item',
      title: `Teapot ${tag}`,
      fields: [
        {
          field: 'estimatedValue',
          existing: 'USD 1,250.00 – USD 2,000.00',
          imported: 'USD 1,250.00 – USD 2,500.00',
        },
      ],
    });
    const updated = await rerun(second, 'update');
    expect(lastRun(updated)).toMatchObject({ mode: 'update', created: 0, updated: 2 });
    const teapot = byTitle(`Teapot ${tag}`);
    const revalued = await domain<InventoryItem>('GET', `/inventory/items/${teapot.id}`, {
      token: owner.token,
    });
    expect(revalued.body).toMatchObject({
      estimatedValue: { low: 125000, high: 250000 },
      location: 'Strongroom',
    });

    // Undo puts the teapot back as it was.
    expect(await undo(updated)).toMatchObject({ kind: 'undo', restored: 1, removed: 0 });
    const putBack = await domain<InventoryItem>('GET', `/inventory/items/${teapot.id}`, {
      token: owner.token,
    });
    expect(putBack.body).toMatchObject({
      estimatedValue: { low: 125000, high: 200000 },
      location: 'Vault',
    });

    // Someone edits the quilt after the run: undoing the first upload keeps it.
    const quilt = byTitle(`Quilt ${tag}`);
    const edited = await domain('PATCH', `/inventory/items/${quilt.id}`, {
      token: owner.token,
      body: { location: 'Textile store' },
      headers: ifMatch(quilt.etag),
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const latest = await uploadNamed(done.id, name);
    expect(await undo(latest)).toMatchObject({ kind: 'undo', removed: 2, kept: 1 });
    expect((await items(tag)).map((item) => item.title)).toEqual([`Quilt ${tag}`]);
  });
});

describe('an auctions upload', () => {
  it('creates the auctions its rows name as Drafts, lots keyed by number, and undoes them', async () => {
    const tag = tagOf();
    const name = `Catalogue ${tag}`;
    const done = await upload('auctions', name, [
      {
        name: 'catalogue.csv',
        data: csv([
          'Auction Title,Auction Start Date,Auction Category,Lot Number,Title,Low Estimate,High Estimate',
          `Spring ${tag},2031-04-10,Art,1,Oil on canvas,"1,250.00",2000`,
          `Spring ${tag},2031-04-10,Art,2,Watercolour,100,abc`,
          `Spring ${tag},2031-04-10,,3,Etching,50,80`,
          `Autumn ${tag},2031-10-01,,1,Bronze,10,20`,
        ]),
      },
    ]);
    expect(done.status, JSON.stringify(done.results)).toBe('completed');
    // The auction and its two lots.
    expect(done.results.recordsImported, JSON.stringify(done.results)).toBe(3);
    expect(done.results.errors).toEqual([
      {
        file: 'catalogue.csv',
        row: 2,
        field: 'estimateHigh',
        message: 'is an amount like 1,250.00',
      },
      {
        file: 'catalogue.csv',
        row: 4,
        field: 'auctionCategory',
        message: `is required to create the auction "Autumn ${tag}" (2031-10-01)`,
      },
    ]);
    const [spring, ...others] = await auctionsNamed(tag);
    expect(others).toEqual([]);
    expect(spring).toMatchObject({
      title: `Spring ${tag}`,
      status: 'Draft',
      category: 'art',
      startDate: '2031-04-10',
      lotCount: 2,
    });
    const lots = await lotsOf(spring?.id ?? '');
    expect(lots.map((lot) => [lot.lotNumber, lot.title, lot.estimateLow])).toEqual([
      ['1', 'Oil on canvas', 125000],
      ['3', 'Etching', 5000],
    ]);

    const again = await rerun(done, 'new');
    expect(lastRun(again)).toMatchObject({ created: 0, updated: 0 });
    expect(await lotsOf(spring?.id ?? '')).toHaveLength(2);
    expect(await auctionsNamed(tag)).toHaveLength(1);

    expect(await undo(again)).toMatchObject({ removed: 3, kept: 0 });
    expect(await auctionsNamed(tag)).toEqual([]);
  });

  it('puts lots from Excel and JSON into the auction of the Import dialog, in its currency', async () => {
    const tag = tagOf();
    const auction = await createAuction(owner.token, { title: `Netsuke ${tag}`, currency: 'JPY' });
    const done = await upload(
      'auctions',
      `Netsuke lots ${tag}`,
      [
        {
          name: 'lots.xlsx',
          data: await xlsx([
            ['Lot', 'Title', 'Low Estimate', 'High Estimate'],
            ['10', 'Netsuke', 150_000, 200_000],
            [11, 'Inro', '¥80,000', 120_000.5],
          ]),
        },
        {
          name: 'lots.json',
          data: json({ lots: [{ lotNumber: 12, title: 'Tsuba', reserve: 5000 }] }),
        },
      ],
      { auctionId: auction.id },
    );
    expect(done.results.recordsImported, JSON.stringify(done.results)).toBe(2);
    expect(done.results.errors).toEqual([
      { file: 'lots.xlsx', row: 2, field: 'estimateHigh', message: 'has whole units' },
    ]);
    expect(
      (await lotsOf(auction.id)).map((lot) => [lot.lotNumber, lot.estimateLow, lot.reserve]),
    ).toEqual([
      ['10', 150000, null],
      ['12', null, 5000],
    ]);

    // A revised catalogue: lot 10 is on file, so it waits for `update`, which undo takes back.
    const revisedName = `Netsuke revised ${tag}`;
    const revised = await upload(
      'auctions',
      revisedName,
      [
        {
          name: 'revised.csv',
          data: csv(['Lot Number,Title,Reserve', '10,Netsuke of a hare,90000']),
        },
      ],
      { auctionId: auction.id },
    );
    expect(revised.results).toMatchObject({ recordsImported: 0, duplicates: 1 });
    const preview = await domain<OverwritePreview>('GET', `/data-upload/${revised.id}/overwrites`, {
      token: owner.token,
    });
    expect(preview.body.changes[0]?.fields).toEqual([
      { field: 'title', existing: 'Netsuke', imported: 'Netsuke of a hare' },
      { field: 'reserve', existing: null, imported: 90000 },
    ]);
    const updated = await rerun(revised, 'update');
    expect(lastRun(updated)).toMatchObject({ created: 0, updated: 1 });
    const lot10 = async () => (await lotsOf(auction.id)).find((lot) => lot.lotNumber === '10');
    // Blank cells say nothing: the estimates stay.
    expect(await lot10()).toMatchObject({
      title: 'Netsuke of a hare',
      reserve: 90000,
      estimateLow: 150000,
      estimateHigh: 200000,
    });
    expect(await undo(updated)).toMatchObject({ restored: 1, removed: 0, kept: 0 });
    expect(await lot10()).toMatchObject({ title: 'Netsuke', reserve: null, estimateLow: 150000 });
  });
});

describe('catalogue batches written under a kept catalogue', () => {
  it('reads a lot changed meanwhile afresh, and an update changes only the columns its row gives', async () => {
    const { writeCatalogue } =
      await import('../../functions/src/auctions/lots/catalogue-import.service.js');
    const { getLot, updateLot } = await import('../../functions/src/auctions/lots/lots.service.js');
    const ctx = systemContext(owner.accountId);
    const auction = await createAuction(owner.token, { title: `Kept ${tagOf()}` });
    const lot = (lotNumber: string, title: string, description: string) => ({
      lotNumber,
      title,
      description,
      category: null,
      estimateLow: null,
      estimateHigh: null,
      reserve: null,
      consignor: null,
      inventoryItemId: null,
    });
    const all = new Set(['lotNumber', 'title', 'description'] as const);
    const first = await writeCatalogue(
      ctx,
      auction.id,
      [{ row: 0, lot: lot('1', 'Vase', 'Blue') }],
      all,
    );
    expect(first.created).toEqual(['1']);
    const [written] = [...first.state.catalogue.byNumber.values()];
    if (!written) throw new Error('no lot written');
    // Someone describes the lot differently after the import kept the catalogue.
    await updateLot(ctx, auction.id, written.id, written._etag, { description: 'Cobalt blue' });

    const second = await writeCatalogue(
      ctx,
      auction.id,
      [
        {
          row: 0,
          lot: lot('1', 'Ming vase', 'Blue'),
          columns: new Set(['lotNumber', 'title'] as const),
        },
      ],
      all,
      first.state,
    );
    expect(second).toMatchObject({ created: [], updated: ['1'], errors: [] });
    expect(await getLot(ctx, auction.id, written.id)).toMatchObject({
      title: 'Ming vase',
      description: 'Cobalt blue',
    });
  });
});

describe('a legal upload', () => {
  it('files cases with their bidders, names unknown ones, and records a differing case as a conflict', async () => {
    const tag = tagOf();
    const email = `ada-${tag}@example.com`;
    const bidder = await createBidder(owner.token, { email });
    const name = `Cases ${tag}`;
    const done = await upload('legal', name, [
      {
        name: 'cases.csv',
        data: csv([
          'Case Number,Case Type,Category,Priority,Title,Jurisdiction,Claim Amount,Bidder Email',
          `HV-${tag}-1,Payment Dispute,Post-sale,High,Unpaid lot 14,New York,"1,250.00",${email}`,
          `HV-${tag}-2,Payment Dispute,Post-sale,High,Unpaid lot 15,New York,100,nobody-${tag}@example.com`,
        ]),
      },
      {
        name: 'cases.xlsx',
        data: await xlsx([
          ['Case Number', 'Type', 'Category', 'Priority', 'Title', 'Jurisdiction', 'Bidder ID'],
          [
            `HV-${tag}-3`,
            'Authenticity Claim',
            'Pre-sale',
            'Low',
            'Forged signature',
            'London',
            bidder.bidderId,
          ],
        ]),
      },
      {
        name: 'cases.json',
        data: json({
          cases: [
            {
              caseType: 'other',
              category: 'administrative',
              priority: 'medium',
              title: `Misc ${tag}`,
              jurisdiction: 'Paris',
            },
          ],
        }),
      },
    ]);
    expect(done.status, JSON.stringify(done.results)).toBe('completed');
    expect(done.results.recordsImported, JSON.stringify(done.results)).toBe(3);
    expect(done.results.errors).toEqual([
      {
        file: 'cases.csv',
        row: 2,
        field: 'bidderEmail',
        message: 'is not a bidder of this account',
      },
    ]);
    const filed = await casesNamed(`hv-${tag}`);
    const first = filed.find((found) => found.caseNumber === `HV-${tag}-1`);
    expect(first).toMatchObject({
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'high',
      claimAmount: 125000,
      bidder: { id: bidder.id },
      status: 'SUBMITTED',
    });
    expect(filed.find((found) => found.caseNumber === `HV-${tag}-3`)).toMatchObject({
      caseType: 'authenticity_claim',
      bidder: { id: bidder.id },
    });
    const [misc] = await casesNamed(`Misc ${tag}`);
    expect(misc?.caseNumber).toMatch(/^LC-\d{4}-\d{4}$/);

    // The same cases from another file: one the same (a duplicate), one differing (a conflict).
    const conflictName = `Cases again ${tag}`;
    const second = await upload('legal', conflictName, [
      {
        name: 'cases-again.csv',
        data: csv([
          'Case Number,Case Type,Category,Priority,Title,Jurisdiction,Bidder ID',
          `HV-${tag}-1,Payment Dispute,Post-sale,Low,Unpaid lot 14,New York,${bidder.bidderId}`,
          `HV-${tag}-3,Authenticity Claim,Pre-sale,Low,Forged signature,London,${bidder.bidderId}`,
        ]),
      },
    ]);
    expect(second.results).toMatchObject({ recordsImported: 0, duplicates: 1, errorCount: 0 });
    const preview = await domain<OverwritePreview>('GET', `/data-upload/${second.id}/overwrites`, {
      token: owner.token,
    });
    expect(preview.body.changes).toEqual([
      expect.objectContaining({
        entity: 'legal-case',
        recordId: first?.id,
        fields: [{ field: 'priority', existing: 'high', imported: 'low' }],
      }),
    ]);
    const conflicts = await domain<{ items: Conflict[] }>(
      'GET',
      `/data-upload/conflicts?type=legal&uploadId=${second.id}`,
      { token: owner.token },
    );
    expect(conflicts.status).toBe(200);
    expect(conflicts.body.items).toHaveLength(1);
    expect(conflicts.body.items[0]).toMatchObject({
      type: 'legal',
      conflictType: 'mismatch',
      status: 'pending',
      uploadName: conflictName,
      existingId: first?.id,
      fields: [{ field: 'priority', existing: 'high', imported: 'low' }],
    });
    // Run again, the conflict is not recorded twice.
    await rerun(second, 'new');
    const still = await domain<{ items: Conflict[] }>(
      'GET',
      `/data-upload/conflicts?type=legal&uploadId=${second.id}`,
      { token: owner.token },
    );
    expect(still.body.items).toHaveLength(1);

    const again = await rerun(done, 'new');
    expect(lastRun(again)).toMatchObject({ created: 0, updated: 0 });
    expect(await casesNamed(`hv-${tag}`)).toHaveLength(2);

    expect(await undo(again)).toMatchObject({ removed: 3, kept: 0 });
    expect(await casesNamed(`hv-${tag}`)).toEqual([]);
    expect(await casesNamed(`Misc ${tag}`)).toEqual([]);
  });
});

/** An upload of one CSV already in storage and `processing`, nothing queued for it. */
const stage = (category: 'inventory' | 'legal', name: string, data: string) =>
  stageFiles(category, name, [{ name: 'rows.csv', data }]);

/** An upload of CSV files already in storage and `processing`, nothing queued for it. */
async function stageFiles(
  category: 'inventory' | 'legal' | 'auctions',
  name: string,
  files: { name: string; data: string }[],
  auctionId: string | null = null,
) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const { accountId } = owner;
  const described: UploadFile[] = [];
  for (const [index, file] of files.entries()) {
    await putBlobStream(
      repo.UPLOADS_BLOB_CONTAINER,
      repo.uploadBlobName(accountId, id, index),
      Readable.from([Buffer.from(file.data)]),
      'text/csv',
    );
    const size = Buffer.byteLength(file.data);
    described.push({ index, name: file.name, size, format: 'csv', received: true });
  }
  await repo.createUpload(
    { accountId },
    {
      id,
      kind: 'upload',
      name,
      description: 'Staged by the importers test',
      category,
      auctionId,
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

describe('a run that crashes part way', () => {
  it('resumes without a second record of any row, items written in batches or cases one by one', async () => {
    const tag = tagOf();
    const ctx = systemContext(owner.accountId);
    const itemLines = ['Title,Category,Low Estimate,High Estimate,Condition'];
    for (let row = 1; row <= 40; row += 1) itemLines.push(`Vase ${row} ${tag},Ceramics,10,20,Good`);
    const inventory = await stage('inventory', `Crash items ${tag}`, `${itemLines.join('\n')}\n`);
    // The first batch of 25 has landed, the second is cut off before its writes start.
    await expect(processUpload(ctx, inventory, { failAfterRows: 30 })).rejects.toThrow(
      'Injected failure',
    );
    const atCrash = (await items(tag)).length;
    expect(atCrash).toBeGreaterThan(0);
    expect(atCrash).toBeLessThan(40);
    await processUpload(ctx, inventory);
    const resumed = await uploadNamed(inventory, `Crash items ${tag}`);
    expect(resumed.results).toMatchObject({ recordsImported: 40, duplicates: 0, errorCount: 0 });
    expect(await items(tag)).toHaveLength(40);

    // Cases with neither number, bidder nor auction: only their ids tell them apart.
    const caseLines = ['Case Type,Category,Priority,Title,Jurisdiction'];
    for (let row = 1; row <= 12; row += 1) {
      caseLines.push(`Other,Administrative,Low,Crash ${tag} ${row},Boston`);
    }
    const legal = await stage('legal', `Crash cases ${tag}`, `${caseLines.join('\n')}\n`);
    await expect(processUpload(ctx, legal, { failAfterRows: 5 })).rejects.toThrow(
      'Injected failure',
    );
    expect(await casesNamed(`Crash ${tag}`)).toHaveLength(5);
    await processUpload(ctx, legal);
    const filed = await uploadNamed(legal, `Crash cases ${tag}`);
    expect(filed.results).toMatchObject({ recordsImported: 12, duplicates: 0, errorCount: 0 });
    expect(await casesNamed(`Crash ${tag}`)).toHaveLength(12);
  });
});

describe('an upload its importer refuses as a whole', () => {
  it('ends an inventory upload of an account without the add-on in error, each file naming why', async () => {
    const plain = await freshOwner();
    const tag = tagOf();
    const name = `No add-on ${tag}`;
    const reply = await postForm(
      plain.token,
      { name, description: 'No plan', category: 'inventory' },
      [
        {
          name: 'items.csv',
          data: csv([
            'Title,Category,Low Estimate,High Estimate,Condition',
            `Lamp ${tag},Furniture,10,20,Good`,
          ]),
        },
        {
          name: 'items.json',
          data: json([{ title: `Rug ${tag}`, estimateLow: 5, estimateHigh: 9, condition: 'Fair' }]),
        },
      ],
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const done = await settled(reply.body.uploadId, name, plain.token);
    const message = 'Access denied: inventory feature not available in your plan';
    expect(done).toMatchObject({
      status: 'error',
      results: { recordsProcessed: 0, recordsImported: 0, errorCount: 2 },
    });
    expect(done.results.errors).toEqual([
      { file: 'items.csv', row: null, field: null, message },
      { file: 'items.json', row: null, field: null, message },
    ]);
    expect(done.runs).toMatchObject([
      { number: 1, kind: 'import', mode: 'new', created: 0, updated: 0, cancelled: false },
    ]);
    expect(done.runs[0]?.finishedAt).not.toBeNull();
    const ledger = await repo.pageLedger({ accountId: plain.accountId }, done.id, 10);
    expect(ledger.items).toEqual([]);
  });

  it('ends a catalogue upload for an auction cancelled since in error, writing no lot', async () => {
    const tag = tagOf();
    const auction = await createAuction(owner.token, { title: `Withdrawn ${tag}` });
    const cancelled = await domain('POST', `/auctions/${auction.id}/cancel`, {
      token: owner.token,
      body: { reason: 'Consignor withdrew' },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const done = await upload(
      'auctions',
      `Withdrawn lots ${tag}`,
      [{ name: 'lots.csv', data: csv(['Lot Number,Title', '1,Vase', '2,Bowl']) }],
      { auctionId: auction.id },
    );
    expect(done).toMatchObject({
      status: 'error',
      results: { recordsProcessed: 0, recordsImported: 0, errorCount: 1 },
    });
    expect(done.results.errors).toEqual([
      {
        file: 'lots.csv',
        row: null,
        field: null,
        message: 'The catalogue of a Cancelled auction cannot change',
      },
    ]);
    expect(done.runs[0]?.finishedAt).not.toBeNull();
    expect(await lotsOf(auction.id)).toEqual([]);
  });

  it('ends a catalogue upload whose auction is gone in error instead of trying it forever', async () => {
    const tag = tagOf();
    const name = `Lost auction ${tag}`;
    const id = await stageFiles(
      'auctions',
      name,
      [
        { name: 'a.csv', data: 'Lot Number,Title\n1,Vase\n' },
        { name: 'b.csv', data: 'Lot Number,Title\n2,Bowl\n' },
      ],
      randomUUID(),
    );
    await processUpload(systemContext(owner.accountId), id);
    const done = await uploadNamed(id, name);
    const message = 'The auction this upload is for is no longer on file';
    expect(done).toMatchObject({
      status: 'error',
      results: { recordsProcessed: 0, recordsImported: 0, errorCount: 2 },
    });
    expect(done.results.errors).toEqual([
      { file: 'a.csv', row: null, field: null, message },
      { file: 'b.csv', row: null, field: null, message },
    ]);
    expect(done.runs[0]?.finishedAt).not.toBeNull();
    expect((await repo.pageLedger({ accountId: owner.accountId }, id, 10)).items).toEqual([]);
  });
});

describe('the overwrite preview of a file already imported as it is', () => {
  const nothingToDo = (rowsRead: number) => ({
    rowsRead,
    complete: true,
    wouldUpdate: 0,
    wouldCreate: 0,
    changes: [],
  });

  /** The preview of running `done` again in `update` mode, then that run. */
  async function updateUnchanged(done: Upload, rowsRead: number, duplicates: number) {
    const preview = await domain<OverwritePreview>('GET', `/data-upload/${done.id}/overwrites`, {
      token: owner.token,
    });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual(nothingToDo(rowsRead));
    const updated = await rerun(done, 'update');
    expect(lastRun(updated)).toMatchObject({ mode: 'update', created: 0, updated: 0 });
    expect(updated.results).toMatchObject({ recordsImported: 0, duplicates });
  }

  it('counts inventory items on file and unchanged as neither new nor updated', async () => {
    const tag = tagOf();
    const done = await upload('inventory', `Same items ${tag}`, [
      {
        name: 'items.csv',
        data: csv([
          'Title,Category,Low Estimate,High Estimate,Condition,Location',
          `Clock ${tag},Furniture,100,200,Good,Hall`,
          `Mirror ${tag},Art,50,80,Fair,`,
          `Bad ${tag},Furniture,cheap,80,Fair,`,
        ]),
      },
    ]);
    expect(done.results).toMatchObject({ recordsImported: 2, errorCount: 1 });
    await updateUnchanged(done, 3, 2);
  });

  it('counts lots on file and unchanged as neither new nor updated', async () => {
    const tag = tagOf();
    const done = await upload('auctions', `Same lots ${tag}`, [
      {
        name: 'lots.csv',
        data: csv([
          'Auction Title,Auction Start Date,Auction Category,Lot Number,Title,Low Estimate,Reserve',
          `Summer ${tag},2031-07-01,Art,1,Study in blue,100,150`,
          `Summer ${tag},2031-07-01,Art,2,Study in red,,`,
        ]),
      },
    ]);
    // The auction and its two lots.
    expect(done.results).toMatchObject({ recordsImported: 3, errorCount: 0 });
    await updateUnchanged(done, 2, 2);
  });

  it('counts legal cases on file and unchanged as neither new nor updated', async () => {
    const tag = tagOf();
    const email = `same-${tag}@example.com`;
    await createBidder(owner.token, { email });
    const done = await upload('legal', `Same cases ${tag}`, [
      {
        name: 'cases.csv',
        data: csv([
          'Case Number,Case Type,Category,Priority,Title,Jurisdiction,Claim Amount,Bidder Email',
          `SM-${tag}-1,Payment Dispute,Post-sale,High,Unpaid lot 3,Boston,"1,250.00",${email}`,
          `,Authenticity Claim,Pre-sale,Low,Doubtful provenance,Boston,,${email}`,
        ]),
      },
    ]);
    expect(done.results).toMatchObject({ recordsImported: 2, errorCount: 0 });
    await updateUnchanged(done, 2, 2);
  });
});

describe('the error report', () => {
  /** The report's lines after its header. */
  async function reportLines(id: string) {
    const blob = await getBlob(
      repo.UPLOADS_BLOB_CONTAINER,
      repo.errorReportBlobName(owner.accountId, id),
    );
    const lines = blob?.data.toString('utf8').trimEnd().split('\r\n') ?? [];
    expect(lines[0]).toBe('file,row,field,message');
    return lines.slice(1);
  }

  it('lists every error of a long run once, those found only while writing too, across a crash', async () => {
    const tag = tagOf();
    const expected: string[] = [];
    /** Every 10th row a bad priority (found reading it), every 7th a good case, the rest a bidder not on file (found only while writing). */
    const file = (name: string, prefix: string, rows: number) => {
      const lines = ['Case Type,Category,Priority,Title,Jurisdiction,Bidder Email'];
      for (let row = 1; row <= rows; row += 1) {
        const title = `Report ${tag} ${prefix}${row}`;
        if (row % 10 === 0) {
          lines.push(`Other,Administrative,Whenever,${title},Boston,`);
          expected.push(`${name},${row},priority,"must be one of Critical, High, Medium, Low"`);
        } else if (row % 7 === 0) {
          lines.push(`Other,Administrative,Low,${title},Boston,`);
        } else {
          lines.push(
            `Other,Administrative,Low,${title},Boston,nobody-${prefix}${row}-${tag}@example.com`,
          );
          expected.push(`${name},${row},bidderEmail,is not a bidder of this account`);
        }
      }
      return { name, data: `${lines.join('\n')}\n` };
    };
    const name = `Long report ${tag}`;
    const id = await stageFiles('legal', name, [
      file('first.csv', 'A', 150),
      file('second.csv', 'B', 80),
    ]);
    const ctx = systemContext(owner.accountId);
    await expect(processUpload(ctx, id, { failAfterRows: 190 })).rejects.toThrow(
      'Injected failure',
    );
    // The crash came after the first file's checkpoint had stored its errors beyond the list.
    const stored = await repo.pageUploadErrors({ accountId: owner.accountId }, id, 1, 100);
    expect(stored.items.length).toBeGreaterThan(0);

    await processUpload(ctx, id);
    const done = await uploadNamed(id, name);
    const good = 230 - expected.length;
    expect(done.status).toBe('completed');
    expect(done.results).toMatchObject({
      recordsProcessed: 230,
      recordsImported: good,
      errorCount: expected.length,
    });
    expect(done.results.errors).toHaveLength(100);
    const lines = await reportLines(id);
    expect(lines).toHaveLength(expected.length);
    expect(lines).toEqual(expected);
    expect(await casesNamed(`Report ${tag}`)).toHaveLength(good);
    // The report holds them now: the stored batches are gone.
    expect((await repo.pageUploadErrors({ accountId: owner.accountId }, id, 1, 100)).items).toEqual(
      [],
    );

    // A run of the failed rows reads them all from the report, and names them all again.
    const again = await rerun(done, 'failed');
    expect(again.results).toMatchObject({
      recordsProcessed: expected.length,
      recordsImported: 0,
      errorCount: expected.length,
    });
    expect(await reportLines(id)).toEqual(expected);
  });
});

describe('a legal conflict over a claim amount', () => {
  it('shows the amounts as the house reads them, also when refreshed after the case changed', async () => {
    const tag = tagOf();
    const header = 'Case Number,Case Type,Category,Priority,Title,Jurisdiction,Claim Amount';
    const first = await upload('legal', `Claims ${tag}`, [
      {
        name: 'claims.csv',
        data: csv([
          header,
          `CL-${tag},Payment Dispute,Post-sale,High,Unpaid lot 7,Boston,"1,250.00"`,
        ]),
      },
    ]);
    expect(first.results.recordsImported).toBe(1);
    const secondName = `Claims again ${tag}`;
    const second = await upload('legal', secondName, [
      {
        name: 'claims-again.csv',
        data: csv([header, `CL-${tag},Payment Dispute,Post-sale,High,Unpaid lot 7,Boston,2000`]),
      },
    ]);
    expect(second.results).toMatchObject({ recordsImported: 0, errorCount: 0 });
    const listed = await domain<{ items: Conflict[] }>(
      'GET',
      `/data-upload/conflicts?type=legal&uploadId=${second.id}`,
      { token: owner.token },
    );
    const [conflict] = listed.body.items;
    const amounts = {
      field: 'claimAmount',
      label: 'Claim Amount',
      existing: '$1,250.00',
      imported: '$2,000.00',
    };
    expect(conflict?.fields).toEqual([amounts]);
    expect(conflict?.existingRecord).toMatchObject({ claimAmount: '$1,250.00' });

    // The legal team retitles the case: the choice is refused and the conflict shows the case now.
    const [filed] = await casesNamed(`CL-${tag}`);
    const onFile = await domain<LegalCase>('GET', `/cases/${filed?.id}`, { token: owner.token });
    const edited = await domain('PUT', `/cases/${filed?.id}`, {
      token: owner.token,
      body: { title: 'Unpaid lot 7 (retitled)' },
      headers: ifMatch(onFile.body.etag),
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const refused = await domain('POST', `/data-upload/conflicts/${conflict?.id}/resolve`, {
      token: owner.token,
      body: { resolution: 'use_imported' },
      headers: ifMatch(conflict?.etag),
    });
    expect(refused.status).toBe(412);
    expect(messageOf(refused)).toMatch(/record on file changed/);
    const refreshed = await domain<Conflict>('GET', `/data-upload/conflicts/${conflict?.id}`, {
      token: owner.token,
    });
    expect(refreshed.body.fields).toEqual([amounts]);
    expect(refreshed.body.existingRecord).toMatchObject({
      title: 'Unpaid lot 7 (retitled)',
      claimAmount: '$1,250.00',
    });
  });
});
