import { randomUUID } from 'node:crypto';
import { BlobServiceClient } from '@azure/storage-blob';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import type { ApiKeyCreated } from '../../functions/src/api-keys/api-keys.schema.js';
import type { LegalCase, TimelineEntry } from '../../functions/src/legal/legal.schema.js';
import type {
  CaseDocument,
  DocumentLink,
} from '../../functions/src/legal/documents/documents.schema.js';
import {
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  signedInToken,
  type Owner,
} from '../support/bidders.js';
import { database, demo } from '../support/identity.js';

/** A small but real PDF: one empty page, with its cross-reference table. */
function pdfBytes(title: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Title (${title}) >>`,
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(text));
    text += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text);
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  text += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // A byte no text encoding would keep, so a byte-for-byte comparison means something.
  return Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3])]);
}

const pngBytes = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

type Part =
  | { field: string; file: Buffer; fileName: string; contentType?: string }
  | { field: string; value: string };

async function upload(token: string, caseId: string, parts: Part[]) {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.field, part.value);
    else {
      form.append(
        part.field,
        new Blob([new Uint8Array(part.file)], {
          type: part.contentType ?? 'application/octet-stream',
        }),
        part.fileName,
      );
    }
  }
  const response = await fetch(`${inject('domainUrl')}/cases/${caseId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await response.json()) as { documents: CaseDocument[] } & {
    error?: { message: string; details?: { fields?: { field: string }[] } };
  };
  return { status: response.status, body, headers: response.headers };
}

const fileFields = (reply: Awaited<ReturnType<typeof upload>>) =>
  (reply.body.error?.details?.fields ?? []).map((entry) => entry.field);

async function download(path: string, token?: string) {
  const response = await fetch(path.startsWith('http') ? path : `${inject('domainUrl')}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return {
    status: response.status,
    data: Buffer.from(await response.arrayBuffer()),
    headers: response.headers,
  };
}

const listed = async (token: string, caseId: string) =>
  domain<{ documents: CaseDocument[] }>('GET', `/cases/${caseId}/documents`, { token });

/** The files kept for a case in Blob Storage. */
async function blobsOf(accountId: string, caseId: string) {
  const service = BlobServiceClient.fromConnectionString(inject('storageConnection'));
  const container = service.getContainerClient('legal-documents');
  if (!(await container.exists())) return [];
  const names: string[] = [];
  for await (const blob of container.listBlobsFlat({ prefix: `${accountId}/cases/${caseId}/` })) {
    names.push(blob.name);
  }
  return names;
}

async function fileCase(token: string) {
  const reply = await domain<LegalCase>('POST', '/cases', {
    token,
    body: {
      caseType: 'authenticity_claim',
      category: 'post_sale',
      priority: 'medium',
      title: `Disputed attribution ${randomUUID().slice(0, 8)}`,
      jurisdiction: 'Massachusetts',
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

let fresh: Owner;
let owner: string;
let staff: string;
let viewer: string;
let lakeside: string;

beforeAll(async () => {
  [fresh, owner, staff, viewer, lakeside] = await Promise.all([
    freshOwner(),
    signedInToken(demo.owner),
    signedInToken(demo.staff),
    signedInToken(demo.viewer),
    signedInToken(demo.lakesideOwner),
  ]);
});

describe('uploading a document', () => {
  it('keeps a PDF byte for byte, lists it, and records it on the timeline', async () => {
    const filed = await fileCase(fresh.token);
    const pdf = pdfBytes('Condition report');
    const reply = await upload(fresh.token, filed.id, [
      { field: 'name', value: 'Condition report' },
      { field: 'type', value: 'evidence' },
      { field: 'file', file: pdf, fileName: 'report.pdf', contentType: 'application/pdf' },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const [document] = reply.body.documents;
    expect(document).toMatchObject({
      caseId: filed.id,
      name: 'Condition report',
      type: 'evidence',
      fileName: 'report.pdf',
      size: pdf.length,
      contentType: 'application/pdf',
      uploadedBy: { name: expect.any(String) },
    });
    expect((await listed(fresh.token, filed.id)).body.documents).toEqual(reply.body.documents);

    const content = await download(document!.downloadUrl, fresh.token);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(content.headers.get('content-disposition')).toBe(
      `attachment; filename="Condition report.pdf"; filename*=UTF-8''Condition%20report.pdf`,
    );
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.data.equals(pdf)).toBe(true);
    expect((await download(document!.downloadUrl)).status).toBe(401);

    const timeline = await domain<{ entries: TimelineEntry[] }>(
      'GET',
      `/cases/${filed.id}/timeline`,
      { token: fresh.token },
    );
    expect(timeline.body.entries[0]).toMatchObject({
      action: 'Document uploaded',
      detail: 'Condition report (Evidence)',
    });
    expect(await blobsOf(fresh.accountId, filed.id)).toEqual([
      `${fresh.accountId}/cases/${filed.id}/${document!.id}`,
    ]);
  });

  it('takes several files with a metadata list, naming each by its file when not told', async () => {
    const filed = await fileCase(fresh.token);
    const reply = await upload(fresh.token, filed.id, [
      {
        field: 'metadata',
        value: JSON.stringify([{ name: 'Sale contract', type: 'contract' }, { type: 'reference' }]),
      },
      { field: 'file_0', file: pdfBytes('Contract'), fileName: 'contract.pdf' },
      { field: 'file_1', file: pngBytes, fileName: 'Photo Ölgemälde.PNG' },
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.documents.map((d) => [d.name, d.type, d.contentType])).toEqual([
      ['Sale contract', 'contract', 'application/pdf'],
      ['Photo Ölgemälde.PNG', 'reference', 'image/png'],
    ]);
    const photo = await download(reply.body.documents[1]!.downloadUrl, fresh.token);
    expect(photo.data.equals(pngBytes)).toBe(true);
    expect(photo.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''Photo%20%C3%96lgem%C3%A4lde.PNG`,
    );
    expect((await listed(fresh.token, filed.id)).body.documents).toHaveLength(2);
  });

  it('takes the metadata as a JSON part, and one type for every file', async () => {
    const filed = await fileCase(fresh.token);
    const form: Part[] = [
      { field: 'file', file: pdfBytes('One'), fileName: 'one.pdf' },
      { field: 'file', file: pdfBytes('Two'), fileName: 'two.pdf' },
      {
        field: 'metadata',
        file: Buffer.from(JSON.stringify({ type: 'correspondence' })),
        fileName: 'metadata.json',
        contentType: 'application/json',
      },
    ];
    const reply = await upload(fresh.token, filed.id, form);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.documents.map((d) => [d.name, d.type])).toEqual([
      ['one.pdf', 'correspondence'],
      ['two.pdf', 'correspondence'],
    ]);
  });

  it('refuses a file whose content is not what its name says, keeping nothing', async () => {
    const filed = await fileCase(fresh.token);
    const reply = await upload(fresh.token, filed.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file_0', file: pdfBytes('Fine'), fileName: 'fine.pdf' },
      { field: 'file_1', file: pdfBytes('Disguised'), fileName: 'photo.png' },
    ]);
    expect(reply.status).toBe(400);
    expect(fileFields(reply)).toEqual(['file_1']);
    expect(reply.body.error?.message).toBe(
      'file_1: photo.png does not contain what a .png file should',
    );
    expect((await listed(fresh.token, filed.id)).body.documents).toEqual([]);
    // The file that was fine was stored first, and went again with the rest of the upload.
    expect(await blobsOf(fresh.accountId, filed.id)).toEqual([]);
  });

  it('refuses a file of a kind it does not take', async () => {
    const filed = await fileCase(fresh.token);
    const reply = await upload(fresh.token, filed.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file', file: Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), fileName: 'setup.exe' },
    ]);
    expect(reply.status).toBe(400);
    expect(fileFields(reply)).toEqual(['file']);
    expect(reply.body.error?.message).toBe(
      'file: setup.exe is not one of .pdf, .doc, .docx, .jpg, .png',
    );
  });

  it('refuses a file over 25 MB with 413, keeping nothing', async () => {
    const filed = await fileCase(fresh.token);
    const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    big.write('%PDF-1.4\n');
    const reply = await upload(fresh.token, filed.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file', file: big, fileName: 'huge.pdf' },
    ]);
    expect(reply.status).toBe(413);
    expect(reply.body.error?.message).toContain('huge.pdf is larger than 25 MB');
    expect((await listed(fresh.token, filed.id)).body.documents).toEqual([]);
    expect(await blobsOf(fresh.accountId, filed.id)).toEqual([]);
    // A file of exactly 25 MB is within the limit.
    const exact = await upload(fresh.token, filed.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file', file: big.subarray(0, 25 * 1024 * 1024), fileName: 'exact.pdf' },
    ]);
    expect(exact.status).toBe(201);
  });

  it('names the field of a missing or blank name, type or file', async () => {
    const filed = await fileCase(fresh.token);
    const pdf = { field: 'file', file: pdfBytes('Named'), fileName: 'named.pdf' };
    const cases: [Part[], string, string][] = [
      [
        [{ field: 'name', value: '   ' }, { field: 'type', value: 'evidence' }, pdf],
        'name',
        'is required',
      ],
      [[{ field: 'name', value: 'Report' }, pdf], 'type', 'is required'],
      [[{ field: 'type', value: ' ' }, pdf], 'type', 'must be one of: legal-filing, evidence'],
      [[{ field: 'type', value: 'invoice' }, pdf], 'type', ''],
      [[{ field: 'type', value: 'evidence' }], 'file', 'is required: choose a file to upload'],
      [[{ field: 'metadata', value: '{"type":' }, pdf], 'metadata', 'is not valid JSON'],
      [
        [
          { field: 'metadata', value: JSON.stringify([{ type: 'evidence' }, { type: 'other' }]) },
          pdf,
        ],
        'metadata',
        'has 2 entries for 1 file',
      ],
      [
        [{ field: 'metadata', value: JSON.stringify([{ name: '', type: 'evidence' }]) }, pdf],
        'metadata.0.name',
        'is required',
      ],
      [
        [
          { field: 'type', value: 'evidence' },
          { field: 'files', file: pdf.file, fileName: 'x.pdf' },
        ],
        'files',
        '',
      ],
    ];
    for (const [parts, field, message] of cases) {
      const reply = await upload(fresh.token, filed.id, parts);
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(fileFields(reply)[0], JSON.stringify(reply.body)).toBe(field);
      expect(reply.body.error?.message).toContain(`${field}: ${message}`);
    }
    expect((await listed(fresh.token, filed.id)).body.documents).toEqual([]);
  });

  it('refuses a body that is not a form, naming file', async () => {
    const filed = await fileCase(fresh.token);
    const reply = await domain('POST', `/cases/${filed.id}/documents`, {
      token: fresh.token,
      body: { name: 'x', type: 'evidence' },
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['file']);
    expect(messageOf(reply)).toBe('file: Send the files as multipart/form-data');
  });
});

describe('who may see and change documents', () => {
  let harborCase: LegalCase;
  let document: CaseDocument;
  const pdf = pdfBytes('Provenance');

  beforeAll(async () => {
    harborCase = await fileCase(owner);
    const reply = await upload(staff, harborCase.id, [
      { field: 'name', value: 'Provenance letter' },
      { field: 'type', value: 'correspondence' },
      { field: 'file', file: pdf, fileName: 'provenance.pdf' },
    ]);
    // Staff hold legal:documents_upload.
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    document = reply.body.documents[0]!;
  });

  it('lets a viewer list and download, but not upload or delete', async () => {
    const list = await listed(viewer, harborCase.id);
    expect(list.status).toBe(200);
    expect(list.body.documents.map((d) => d.id)).toContain(document.id);
    const content = await download(document.downloadUrl, viewer);
    expect(content.data.equals(pdf)).toBe(true);
    const refused = await upload(viewer, harborCase.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file', file: pdf, fileName: 'mine.pdf' },
    ]);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toContain('legal:documents_upload');
    const removal = await domain('DELETE', `/cases/${harborCase.id}/documents/${document.id}`, {
      token: viewer,
    });
    expect(removal.status).toBe(403);
  });

  it("answers 404 for another tenant's case or document", async () => {
    const own = await fileCase(lakeside);
    const paths = [
      `/cases/${harborCase.id}/documents`,
      `/cases/${harborCase.id}/documents/${document.id}/content`,
      `/cases/${harborCase.id}/documents/${document.id}/link`,
      `/cases/${own.id}/documents/${document.id}/content`,
      `/cases/${own.id}/documents/${document.id}/link`,
    ];
    for (const path of paths) {
      const reply = await domain('GET', path, { token: lakeside });
      expect(reply.status, path).toBe(404);
    }
    for (const path of [
      `/cases/${harborCase.id}/documents/${document.id}`,
      `/cases/${own.id}/documents/${document.id}`,
    ]) {
      expect((await domain('DELETE', path, { token: lakeside })).status, path).toBe(404);
    }
    const intoOther = await upload(lakeside, harborCase.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file', file: pdf, fileName: 'planted.pdf' },
    ]);
    expect(intoOther.status).toBe(404);
    expect((await listed(owner, harborCase.id)).body.documents.map((d) => d.id)).toEqual([
      document.id,
    ]);
  });

  it('answers 404 for a document of another case of the same account', async () => {
    const other = await fileCase(owner);
    const reply = await domain('GET', `/cases/${other.id}/documents/${document.id}/content`, {
      token: owner,
    });
    expect(reply.status).toBe(404);
  });
});

describe('download links', () => {
  it('download the file without a token for five minutes, and refuse a tampered one', async () => {
    const filed = await fileCase(fresh.token);
    const pdf = pdfBytes('Linked');
    const uploaded = await upload(fresh.token, filed.id, [
      { field: 'name', value: 'Expert opinion' },
      { field: 'type', value: 'expert-opinion' },
      { field: 'file', file: pdf, fileName: 'opinion.pdf' },
    ]);
    const [document] = uploaded.body.documents;
    const started = Date.now();
    const link = await domain<DocumentLink>(
      'GET',
      `/cases/${filed.id}/documents/${document!.id}/link`,
      { token: fresh.token },
    );
    expect(link.status).toBe(200);
    const lifetime = Date.parse(link.body.expiresAt) - started;
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000 + 1000);
    expect(link.body.url.startsWith(inject('domainUrl'))).toBe(true);

    const fetched = await download(link.body.url);
    expect(fetched.status).toBe(200);
    expect(fetched.data.equals(pdf)).toBe(true);
    expect(fetched.headers.get('content-disposition')).toContain('filename="Expert opinion.pdf"');

    const url = new URL(link.body.url);
    const token = url.searchParams.get('token') as string;
    const [version, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      e: number;
    };
    const longer = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 86_400 })).toString(
      'base64url',
    );
    for (const forged of [
      `${version}.${longer}.${signature}`,
      `${version}.${payload}.${signature.slice(0, -3)}abc`,
      'garbage',
    ]) {
      url.searchParams.set('token', forged);
      const refused = await domain('GET', `${url.pathname}${url.search}`);
      expect(refused.status, forged).toBe(403);
      expect(messageOf(refused)).toBe('This download link is not valid');
    }
    expect((await domain('GET', url.pathname)).status).toBe(400);
  });

  it('refuse an expired link', async () => {
    Object.assign(process.env, inject('settings'));
    const { signDocumentLink } =
      await import('../../functions/src/legal/documents/document-link.js');
    const filed = await fileCase(fresh.token);
    const uploaded = await upload(fresh.token, filed.id, [
      { field: 'type', value: 'other' },
      { field: 'file', file: pdfBytes('Old'), fileName: 'old.pdf' },
    ]);
    const token = signDocumentLink({
      accountId: fresh.accountId,
      caseId: filed.id,
      documentId: uploaded.body.documents[0]!.id,
      expires: Math.floor(Date.now() / 1000) - 1,
    });
    const reply = await domain('GET', `/legal/documents/download?token=${token}`);
    expect(reply.status).toBe(403);
    expect(messageOf(reply)).toContain('expired');
  });
});

describe('deleting a document', () => {
  it('removes its record and its file, and the timeline says so', async () => {
    const filed = await fileCase(fresh.token);
    const uploaded = await upload(fresh.token, filed.id, [
      { field: 'name', value: 'Draft' },
      { field: 'type', value: 'legal-filing' },
      { field: 'file', file: pdfBytes('Draft'), fileName: 'draft.pdf' },
    ]);
    const [document] = uploaded.body.documents;
    const link = await domain<DocumentLink>(
      'GET',
      `/cases/${filed.id}/documents/${document!.id}/link`,
      { token: fresh.token },
    );
    const path = `/cases/${filed.id}/documents/${document!.id}`;
    expect((await domain('DELETE', path, { token: fresh.token })).status).toBe(204);
    expect((await listed(fresh.token, filed.id)).body.documents).toEqual([]);
    expect(await blobsOf(fresh.accountId, filed.id)).toEqual([]);
    expect((await download(document!.downloadUrl, fresh.token)).status).toBe(404);
    expect((await download(link.body.url)).status).toBe(404);
    expect((await domain('DELETE', path, { token: fresh.token })).status).toBe(404);
    const timeline = await domain<{ entries: TimelineEntry[] }>(
      'GET',
      `/cases/${filed.id}/timeline`,
      { token: fresh.token },
    );
    expect(timeline.body.entries[0]).toMatchObject({
      action: 'Document deleted',
      detail: 'Draft (Legal filing)',
    });
  });

  it('goes with its case: deleting a case removes its files', async () => {
    const filed = await fileCase(fresh.token);
    await upload(fresh.token, filed.id, [
      { field: 'name', value: 'Evidence' },
      { field: 'type', value: 'evidence' },
      { field: 'file', file: pdfBytes('Evidence'), fileName: 'evidence.pdf' },
    ]);
    expect(await blobsOf(fresh.accountId, filed.id)).toHaveLength(1);
    const removed = await domain('DELETE', `/cases/${filed.id}`, { token: fresh.token });
    expect(removed.status).toBe(204);
    expect(await blobsOf(fresh.accountId, filed.id)).toEqual([]);
  });
});

describe('exporting a case’s documents', () => {
  const exportPath = (caseId: string) => `/cases/${caseId}/documents/export`;

  /** The entries of a zip, each with its bytes, in the archive's order. */
  async function entriesOf(zip: Buffer) {
    const archive = await JSZip.loadAsync(zip);
    const entries: [string, Buffer][] = [];
    for (const file of Object.values(archive.files)) {
      entries.push([file.name, await file.async('nodebuffer')]);
    }
    return entries;
  }

  async function exportAudits(accountId: string, caseId: string) {
    const { db, dispose } = await database();
    try {
      const { resources } = await db
        .container('audit')
        .items.query<{ action: string; actor: { userId: string | null }; after?: unknown }>({
          query:
            'SELECT * FROM c WHERE c.accountId = @accountId AND c.entity.id = @id AND c.action = @action',
          parameters: [
            { name: '@accountId', value: accountId },
            { name: '@id', value: caseId },
            { name: '@action', value: 'legal_case.documents_export' },
          ],
        })
        .fetchAll();
      return resources;
    } finally {
      dispose();
    }
  }

  it('downloads every document in one zip named for the case, byte for byte, numbering a name again', async () => {
    const filed = await fileCase(fresh.token);
    const report = pdfBytes('Report');
    const again = pdfBytes('Report, revised');
    for (const [name, file, fileName] of [
      ['Condition report', report, 'report.pdf'],
      ['Photo', pngBytes, 'Photo Ölgemälde.PNG'],
      ['Revised report', again, 'report.pdf'],
    ] as const) {
      const reply = await upload(fresh.token, filed.id, [
        { field: 'name', value: name },
        { field: 'type', value: 'evidence' },
        { field: 'file', file, fileName },
      ]);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    }

    const zip = await download(exportPath(filed.id), fresh.token);
    expect(zip.status, zip.data.toString('utf8').slice(0, 300)).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(filed.caseNumber).toMatch(/^LC-\d{4}-\d{4,}$/);
    expect(zip.headers.get('content-disposition')).toBe(
      `attachment; filename="${filed.caseNumber}-documents.zip"; filename*=UTF-8''${filed.caseNumber}-documents.zip`,
    );
    expect(zip.headers.get('x-content-type-options')).toBe('nosniff');
    expect(zip.data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);

    const entries = await entriesOf(zip.data);
    // Oldest first, each under its file's own name; the same name again is numbered.
    expect(entries.map(([name]) => name)).toEqual([
      'report.pdf',
      'Photo Ölgemälde.PNG',
      'report (2).pdf',
    ]);
    expect(entries[0]![1].equals(report)).toBe(true);
    expect(entries[1]![1].equals(pngBytes)).toBe(true);
    expect(entries[2]![1].equals(again)).toBe(true);

    const audits = await exportAudits(fresh.accountId, filed.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: { userId: expect.any(String) },
      after: {
        fileName: `${filed.caseNumber}-documents.zip`,
        documents: [
          { entry: 'report.pdf' },
          { entry: 'Photo Ölgemälde.PNG' },
          { entry: 'report (2).pdf' },
        ],
      },
    });
  });

  it('answers 409 for a case with no documents, or none left', async () => {
    const filed = await fileCase(fresh.token);
    const empty = await domain('GET', exportPath(filed.id), { token: fresh.token });
    expect(empty.status).toBe(409);
    expect(messageOf(empty)).toBe('This case has no documents to export');

    const uploaded = await upload(fresh.token, filed.id, [
      { field: 'type', value: 'other' },
      { field: 'file', file: pdfBytes('Gone'), fileName: 'gone.pdf' },
    ]);
    const path = `/cases/${filed.id}/documents/${uploaded.body.documents[0]!.id}`;
    expect((await domain('DELETE', path, { token: fresh.token })).status).toBe(204);
    const gone = await domain('GET', exportPath(filed.id), { token: fresh.token });
    expect(gone.status).toBe(409);
    expect(messageOf(gone)).toBe('This case has no documents to export');
    expect(await exportAudits(fresh.accountId, filed.id)).toEqual([]);
  });

  it('is for whoever may see documents: a viewer may, a key without legal:documents may not', async () => {
    const harborCase = await fileCase(owner);
    const pdf = pdfBytes('Shared');
    await upload(staff, harborCase.id, [
      { field: 'type', value: 'correspondence' },
      { field: 'file', file: pdf, fileName: 'shared.pdf' },
    ]);
    // Viewers hold legal:documents.
    const asViewer = await download(exportPath(harborCase.id), viewer);
    expect(asViewer.status).toBe(200);
    expect((await entriesOf(asViewer.data)).map(([name]) => name)).toEqual(['shared.pdf']);
    expect((await download(exportPath(harborCase.id))).status).toBe(401);

    const filed = await fileCase(fresh.token);
    await upload(fresh.token, filed.id, [
      { field: 'type', value: 'other' },
      { field: 'file', file: pdf, fileName: 'kept.pdf' },
    ]);
    const created = await domain<ApiKeyCreated>('POST', '/api-keys', {
      token: fresh.token,
      body: { name: 'Case reader', permissions: ['legal:view'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const refused = await domain('GET', exportPath(filed.id), { token: created.body.key });
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toContain('legal:documents');
    expect(await exportAudits(fresh.accountId, filed.id)).toEqual([]);
  });

  it("answers 404 for another tenant's case, and for no case at all", async () => {
    const harborCase = await fileCase(owner);
    await upload(owner, harborCase.id, [
      { field: 'type', value: 'evidence' },
      { field: 'file', file: pdfBytes('Private'), fileName: 'private.pdf' },
    ]);
    const reply = await domain('GET', exportPath(harborCase.id), { token: lakeside });
    expect(reply.status).toBe(404);
    expect(messageOf(reply)).toBe('Case not found');
    expect((await domain('GET', exportPath(randomUUID()), { token: owner })).status).toBe(404);
  });
});
