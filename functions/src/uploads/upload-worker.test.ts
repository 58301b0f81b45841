import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { systemContext } from '../platform/context.js';
import { withStatus } from '../platform/cosmos-errors.js';
import { AppError, forbidden, notFound } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import type * as UploadsRepo from './uploads.repo.js';
import type { UploadErrorsRecord, UploadRecord } from './uploads.repo.js';
import { MAX_LISTED_ERRORS, type UploadFile } from './uploads.schema.js';

/**
 * The worker against stores held in memory, so each interleaving (a crash, a stale write, a
 * second worker, a delete) is played out exactly: the answers are the ones the SDKs give (412
 * for a stale ETag, 404 for a missing document, 409 for a taken id).
 */
const store = vi.hoisted(() => ({
  uploads: new Map<string, { record: UploadRecord; etag: number }>(),
  blobs: new Map<string, Buffer>(),
  /** Fails the blob's stream after this many bytes. */
  failBlobAfter: undefined as number | undefined,
  bidders: new Map<string, { id: string; bidderId: string; email: string }>(),
  writes: 0,
  audits: [] as { action: string; after?: unknown }[],
  /** Runs once before the next replace of an upload: another writer's turn. */
  beforeReplace: undefined as ((record: UploadRecord) => void) | undefined,
  /** Ledger documents written, by id. */
  ledger: new Map<
    string,
    { run: number; entries: { id: string; before: unknown }[]; landed?: (string | false | null)[] }
  >(),
  /** Error batches written with checkpoints, by id. */
  errorBatches: new Map<string, UploadErrorsRecord>(),
  /** Thrown by the importer's start when set. */
  refuseStart: undefined as Error | undefined,
}));

const etagOf = (n: number) => `"${n}"`;
const ACCOUNT_ID = vi.hoisted(() => 'acct-1');

vi.mock('./uploads.repo.js', async (importOriginal) => {
  const original = await importOriginal<typeof UploadsRepo>();
  const stored = (id: string) => {
    const entry = store.uploads.get(id);
    return entry
      ? ({
          ...structuredClone(entry.record),
          _etag: etagOf(entry.etag),
          _ts: 0,
        } as Stored<UploadRecord>)
      : undefined;
  };
  /** The record and the error batches, all or none (a transactional batch). */
  const replace = (
    record: UploadRecord,
    etag: string,
    batches: readonly Omit<UploadErrorsRecord, 'accountId'>[],
  ) => {
    const turn = store.beforeReplace;
    store.beforeReplace = undefined;
    turn?.(record);
    const entry = store.uploads.get(record.id);
    if (!entry) return Promise.reject(withStatus(404, 'gone'));
    if (etagOf(entry.etag) !== etag) return Promise.reject(withStatus(412, 'stale'));
    const { _etag: _e, _ts: _t, ...plain } = record as Stored<UploadRecord>;
    store.uploads.set(record.id, { record: structuredClone(plain), etag: entry.etag + 1 });
    for (const batch of batches) {
      store.errorBatches.set(batch.id, structuredClone({ ...batch, accountId: ACCOUNT_ID }));
    }
    return Promise.resolve(stored(record.id));
  };
  return {
    ...original,
    findUpload: (_scope: unknown, id: string) => Promise.resolve(stored(id)),
    replaceUpload: (_scope: unknown, record: UploadRecord, etag: string) =>
      replace(record, etag, []),
    replaceUploadWith: (
      _scope: unknown,
      record: UploadRecord,
      etag: string,
      batches: readonly Omit<UploadErrorsRecord, 'accountId'>[],
    ) => replace(record, etag, batches),
    pageUploadErrors: (_scope: unknown, uploadId: string, run: number) =>
      Promise.resolve({
        items: [...store.errorBatches.values()]
          .filter((batch) => batch.uploadId === uploadId && batch.run === run)
          .sort((a, b) => a.seq - b.seq),
      }),
    deleteUploadErrorsOf: (_scope: unknown, uploadId: string) => {
      for (const [id, batch] of store.errorBatches) {
        if (batch.uploadId === uploadId) store.errorBatches.delete(id);
      }
      return Promise.resolve();
    },
    createLedgerBatch: (
      _scope: unknown,
      document: { id: string; run: number; entries: { id: string; before: unknown }[] },
    ) => {
      store.ledger.set(document.id, structuredClone(document));
      return Promise.resolve(document);
    },
    pageLedger: () =>
      Promise.resolve({ items: [...store.ledger.values()].sort((a, b) => b.run - a.run) }),
    markLedgerLanded: (_scope: unknown, id: string, landed: (string | false | null)[]) => {
      const document = store.ledger.get(id);
      if (document) document.landed = [...landed];
      return Promise.resolve(document);
    },
  };
});

vi.mock('../platform/blob.js', () => ({
  openBlobStream: (_container: string, name: string) => {
    const data = store.blobs.get(name);
    if (!data) return Promise.resolve(undefined);
    const failAt = store.failBlobAfter;
    async function* pieces() {
      for (let start = 0; start < data!.length; start += 100) {
        if (failAt !== undefined && start >= failAt) throw new Error('connection reset');
        yield data!.subarray(start, start + 100);
      }
    }
    return Promise.resolve(Readable.from(pieces()));
  },
  putBlobStream: async (_container: string, name: string, stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as string));
    store.blobs.set(name, Buffer.concat(chunks));
  },
  deleteBlob: (_container: string, name: string) => {
    store.blobs.delete(name);
    return Promise.resolve();
  },
  readBlobRange: (_container: string, name: string, offset: number, length: number) =>
    Promise.resolve(store.blobs.get(name)?.subarray(offset, offset + length) ?? Buffer.alloc(0)),
  isChangedBlob: () => false,
}));

vi.mock('../platform/audit.js', () => ({
  writeAudit: (_ctx: unknown, entry: { action: string; after?: unknown }) => {
    store.audits.push(entry);
    return Promise.resolve(entry);
  },
}));

vi.mock('../scoring/scoring.service.js', () => ({
  scoringSettings: () =>
    store.refuseStart
      ? Promise.reject(store.refuseStart)
      : Promise.resolve({ autoMergeThreshold: 95 }),
}));

vi.mock('../bidders/bidders.service.js', () => ({
  buildBidder: (
    _ctx: unknown,
    input: { bidderId?: string; email: string },
    _settings: unknown,
    now: Date,
    id: string,
  ) => ({
    id,
    bidderId: input.bidderId ?? `B-${id.slice(0, 6)}`,
    email: input.email,
    matchKeys: [],
    createdAt: now.toISOString(),
  }),
  firstNoteOf: () => null,
  getBidder: (_ctx: unknown, id: string) => {
    const found = store.bidders.get(id);
    return found
      ? Promise.resolve({ ...found, matchKeys: [] })
      : Promise.reject(notFound('Bidder not found'));
  },
}));

vi.mock('../bidders/bidder-import.service.js', async () => {
  const { ImportIndex } = await import('../bidders/import-index.js');
  return {
    indexOfAccount: () => {
      const index = new ImportIndex();
      for (const bidder of store.bidders.values()) {
        index.claim(bidder.bidderId, [], bidder.email);
        index.place(bidder.id, []);
      }
      return Promise.resolve(index);
    },
    recordImportMatches: () => Promise.resolve({ merged: 0, pending: 0 }),
    writeNewBidders: (
      _ctx: unknown,
      bidders: { record: { id: string; bidderId: string; email: string }; notes: [] }[],
    ) => {
      const intended = new Set(
        [...store.ledger.values()].flatMap((document) => document.entries.map(({ id }) => id)),
      );
      // The ledger names a bidder before it is written, so an undo after a crash finds it.
      const unnamed = bidders.filter(({ record }) => !intended.has(record.id));
      if (unnamed.length) return Promise.reject(new Error('written before the ledger named it'));
      const written = bidders.filter(({ record }) => {
        if (store.bidders.has(record.id)) return false;
        store.bidders.set(record.id, record);
        store.writes += 1;
        return true;
      });
      return Promise.resolve({ written, clashes: bidders.length - written.length });
    },
  };
});

const { processUpload, uploadWorkerFunction } = await import('./upload-worker.js');

const ACCOUNT = ACCOUNT_ID;
const ctx = systemContext(ACCOUNT);

function stage(
  id: string,
  category: UploadRecord['category'],
  files: { name: string; format: UploadFile['format']; data: string | Buffer }[],
) {
  files.forEach((file, index) =>
    store.blobs.set(`${ACCOUNT}/${id}/${index}`, Buffer.from(file.data)),
  );
  const record: UploadRecord = {
    id,
    accountId: ACCOUNT,
    kind: 'upload',
    name: 'Test',
    description: 'Test',
    category,
    files: files.map((file, index) => ({
      index,
      name: file.name,
      size: file.data.length,
      format: file.format,
      received: true,
    })),
    totalBytes: files.reduce((sum, file) => sum + file.data.length, 0),
    status: 'processing',
    progress: 0,
    uploadDate: '2026-11-25T08:00:00.000Z',
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
    runs: [],
    undone: false,
    cancelRequested: false,
    auctionId: null,
    searchText: 'test',
    checkpoint: null,
    revision: 1,
    createdAt: '2026-11-25T08:00:00.000Z',
    updatedAt: '2026-11-25T08:00:00.000Z',
  };
  store.uploads.set(id, { record, etag: 1 });
}

const recordOf = (id: string) => store.uploads.get(id)?.record as UploadRecord;

function bidderCsv(rows: number, bad: (row: number) => boolean = () => false) {
  const lines = ['firstName,lastName,email,bidderId'];
  for (let row = 1; row <= rows; row += 1) {
    lines.push(
      `F${row},L${row},${bad(row) ? 'broken' : `r${row}@example.com`},${row % 2 ? `X-${row}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

beforeEach(() => {
  store.uploads.clear();
  store.blobs.clear();
  store.bidders.clear();
  store.audits = [];
  store.writes = 0;
  store.failBlobAfter = undefined;
  store.beforeReplace = undefined;
  store.ledger.clear();
  store.errorBatches.clear();
  store.refuseStart = undefined;
});

describe('processUpload', () => {
  it('lists the first errors, counts them all and reports every one', async () => {
    stage('u1', 'bidders', [
      { name: 'b.csv', format: 'csv', data: bidderCsv(170, (row) => row > 20) },
    ]);
    await processUpload(ctx, 'u1');
    const record = recordOf('u1');
    expect(record.status).toBe('completed');
    expect(record.results).toMatchObject({
      recordsProcessed: 170,
      recordsImported: 20,
      errorCount: 150,
      errorReportUrl: '/data-upload/download/u1?report=errors',
      downloadUrl: '/data-upload/download/u1',
    });
    expect(record.results.errors).toHaveLength(MAX_LISTED_ERRORS);
    const report = store.blobs.get(`${ACCOUNT}/u1/errors.csv`)?.toString().trimEnd().split('\r\n');
    expect(report).toHaveLength(151);
    expect(report?.[150]).toBe('b.csv,170,email,Enter a valid email address');
    expect(store.audits.map((entry) => entry.action)).toEqual(['upload.process']);
    // Those beyond the list waited in batches for the report, which holds them now.
    expect(store.errorBatches.size).toBe(0);
  });

  it('reports every error once across a crash: those stored with a checkpoint are kept, later ones found again', async () => {
    const bad = (row: number) => row % 2 === 0;
    stage('u8', 'bidders', [
      { name: 'a.csv', format: 'csv', data: bidderCsv(400, bad) },
      { name: 'b.csv', format: 'csv', data: bidderCsv(300, bad) },
    ]);
    await expect(processUpload(ctx, 'u8', { failAfterRows: 550 })).rejects.toThrow(
      'Injected failure',
    );
    // The first file's checkpoint stored its 100 errors beyond the list with the record.
    const atCrash = [...store.errorBatches.values()].flatMap((batch) => batch.errors);
    expect(atCrash.length).toBe(recordOf('u8').results.errorCount - MAX_LISTED_ERRORS);
    expect(atCrash.length).toBeGreaterThanOrEqual(100);
    await processUpload(ctx, 'u8');
    expect(recordOf('u8').results).toMatchObject({ recordsProcessed: 700, errorCount: 350 });
    const report = store.blobs.get(`${ACCOUNT}/u8/errors.csv`)?.toString().trimEnd().split('\r\n');
    const expected = [
      ...Array.from(
        { length: 200 },
        (_, index) => `a.csv,${(index + 1) * 2},email,Enter a valid email address`,
      ),
      ...Array.from(
        { length: 150 },
        (_, index) => `b.csv,${(index + 1) * 2},email,Enter a valid email address`,
      ),
    ];
    expect(report).toEqual(['file,row,field,message', ...expected]);
  });

  it('ends in error when the importer refuses the upload, each file naming why, and tries a platform failure again', async () => {
    stage('u9', 'bidders', [
      { name: 'a.csv', format: 'csv', data: bidderCsv(3) },
      { name: 'b.csv', format: 'csv', data: bidderCsv(2) },
    ]);
    store.refuseStart = forbidden('Not in your plan');
    await processUpload(ctx, 'u9');
    const record = recordOf('u9');
    expect(record).toMatchObject({ status: 'error', progress: 100 });
    expect(record.results).toMatchObject({
      recordsProcessed: 0,
      recordsImported: 0,
      errorCount: 2,
    });
    expect(record.results.errors).toEqual([
      { file: 'a.csv', row: null, field: null, message: 'Not in your plan' },
      { file: 'b.csv', row: null, field: null, message: 'Not in your plan' },
    ]);
    expect(record.runs).toMatchObject([{ number: 1, created: 0, cancelled: false }]);
    expect(record.runs[0]?.finishedAt).not.toBeNull();
    expect(store.bidders.size).toBe(0);
    expect(store.ledger.size).toBe(0);

    stage('u10', 'bidders', [{ name: 'a.csv', format: 'csv', data: bidderCsv(3) }]);
    store.refuseStart = new AppError('service_unavailable', 'Try again');
    await expect(processUpload(ctx, 'u10')).rejects.toThrow('Try again');
    expect(recordOf('u10').status).toBe('processing');
  });

  it('resumes after a crash without writing a row twice, and a finished upload is left alone', async () => {
    stage('u2', 'bidders', [{ name: 'b.csv', format: 'csv', data: bidderCsv(300) }]);
    await expect(processUpload(ctx, 'u2', { failAfterRows: 120 })).rejects.toThrow(
      'Injected failure',
    );
    expect(recordOf('u2').status).toBe('processing');
    expect(store.bidders.size).toBe(100);
    await processUpload(ctx, 'u2');
    expect(store.bidders.size).toBe(300);
    expect(store.writes).toBe(300);
    // Every bidder written was named in the ledger (the mocked write checks it was before).
    const intended = [...store.ledger.values()].flatMap((document) => document.entries);
    expect(new Set(intended.map((entry) => entry.id))).toEqual(new Set(store.bidders.keys()));
    expect(intended.every((entry) => entry.before === null)).toBe(true);
    expect(recordOf('u2').runs).toMatchObject([{ number: 1, kind: 'import', created: 300 }]);
    expect(recordOf('u2').results).toMatchObject({
      recordsProcessed: 300,
      recordsImported: 300,
      duplicates: 0,
    });
    const finished = store.uploads.get('u2')?.etag;
    await processUpload(ctx, 'u2');
    expect(store.uploads.get('u2')?.etag).toBe(finished);
  });

  it('writes again over a record changed by something else', async () => {
    stage('u3', 'financial', [{ name: 'a.pdf', format: 'pdf', data: '%PDF-1.4' }]);
    store.beforeReplace = () => {
      const entry = store.uploads.get('u3');
      if (entry)
        store.uploads.set('u3', {
          record: { ...entry.record, name: 'Renamed' },
          etag: entry.etag + 1,
        });
    };
    await processUpload(ctx, 'u3');
    expect(recordOf('u3')).toMatchObject({ name: 'Renamed', status: 'completed', progress: 100 });
    expect(recordOf('u3').results).toMatchObject({ recordsProcessed: 1, recordsImported: 1 });
  });

  it('stops quietly when another worker has moved the upload on', async () => {
    stage('u4', 'financial', [{ name: 'a.csv', format: 'csv', data: 'a\n1\n2\n' }]);
    store.beforeReplace = () => {
      const entry = store.uploads.get('u4');
      if (entry) {
        store.uploads.set('u4', {
          record: { ...entry.record, checkpoint: { file: 0, row: 0, imported: 0, processed: 0 } },
          etag: entry.etag + 1,
        });
      }
    };
    await processUpload(ctx, 'u4');
    expect(recordOf('u4').status).toBe('processing');
    expect(store.audits).toEqual([]);
  });

  it('leaves nothing behind when the upload is deleted before it is finished', async () => {
    stage('u5', 'operations', [
      { name: 'a.json', format: 'json', data: '[1,' },
      { name: 'b.pdf', format: 'pdf', data: 'x' },
    ]);
    let writes = 0;
    const deleteOnFinal = () => {
      writes += 1;
      // The run's own writes: its start, then the end of each file; the next one is the final.
      if (writes === 4) store.uploads.delete('u5');
      else store.beforeReplace = deleteOnFinal;
    };
    store.beforeReplace = deleteOnFinal;
    await processUpload(ctx, 'u5');
    expect(store.uploads.has('u5')).toBe(false);
    expect(store.audits.map((entry) => entry.action)).toEqual(['upload.process']);
    expect(store.blobs.has(`${ACCOUNT}/u5/errors.csv`)).toBe(false);
  });

  it('throws when a blob cannot be read, so the message is tried again, and resumes', async () => {
    stage('u6', 'historical', [{ name: 'a.csv', format: 'csv', data: `n\n${'1\n'.repeat(500)}` }]);
    store.failBlobAfter = 300;
    await expect(processUpload(ctx, 'u6')).rejects.toThrow('connection reset');
    expect(recordOf('u6').status).toBe('processing');
    expect(recordOf('u6').results.errorCount).toBe(0);
    store.failBlobAfter = undefined;
    await processUpload(ctx, 'u6');
    expect(recordOf('u6')).toMatchObject({ status: 'completed' });
    expect(recordOf('u6').results).toMatchObject({ recordsProcessed: 500, recordsImported: 500 });
  });

  it('reads no row of a workbook with more shared text than it may hold, and names the file', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('xl/sharedStrings.xml', `<sst>${'<si><t>a</t></si>'.repeat(1_000_000)}</sst>`);
    const data = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    stage('u8', 'bidders', [{ name: 'big.xlsx', format: 'xlsx', data }]);
    await processUpload(ctx, 'u8');
    expect(recordOf('u8')).toMatchObject({ status: 'error' });
    expect(recordOf('u8').results.errors).toEqual([
      {
        file: 'big.xlsx',
        row: null,
        field: null,
        message:
          'holds 17 MB of text, more than a workbook may (16 MB) to be read here; save it as CSV and upload that',
      },
    ]);
  });

  it('is what the queue runs, with the message checked', async () => {
    stage('u7', 'other', [{ name: 'a.txt', format: 'text', data: 'hello' }]);
    await uploadWorkerFunction.handler({ accountId: ACCOUNT, uploadId: 'u7' }, {} as never);
    expect(recordOf('u7').status).toBe('completed');
    await expect(
      uploadWorkerFunction.handler({ accountId: ACCOUNT }, {} as never),
    ).rejects.toThrow();
  });
});
