import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { writeAudit } from '../../platform/audit.js';
import type { AccountScope, RequestContext } from '../../platform/context.js';
import { conflict, notFound, payloadTooLarge, type AppError } from '../../platform/errors.js';
import { fieldProblems, validationError, type FieldProblem } from '../../platform/validation.js';
import { zipStream, type ZipEntry } from '../../platform/zip.js';
import type { FormPart } from '../../uploads/files.js';
import { eventOf, getCase, reviseCase } from '../legal.service.js';
import type { Person } from '../legal.schema.js';
import { archiveFileName, archiveNames } from './document-archive.js';
import { downloadName, extensionOf, holds, uploadedFileName } from './document-content.js';
import { signDocumentLink, verifyDocumentLink } from './document-link.js';
import {
  blobNameOf,
  createDocuments,
  deleteDocumentFile,
  deleteDocuments,
  documentsOf,
  findDocument,
  putDocumentFile,
  readDocumentFile,
  type CaseDocumentRecord,
} from './documents.repo.js';
import {
  DOCUMENT_LINK_SECONDS,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_NAME,
  MAX_DOCUMENTS_PER_UPLOAD,
  documentContentPath,
  documentContentTypes,
  documentExtensions,
  documentMetadataSchema,
  documentTypeLabels,
  isDocumentFileField,
  uploadMetadataSchema,
  type CaseDocument,
  type DocumentExtension,
  type UploadMetadata,
} from './documents.schema.js';

/** A `metadata` part is a few names and types, never more than this. */
const MAX_METADATA_BYTES = 64 * 1024;

const personOf = (ctx: RequestContext): Person | null =>
  ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };

const problem = (field: string, message: string) =>
  validationError([{ location: 'body', field, message }]);

const toDocument = (record: CaseDocumentRecord): CaseDocument => ({
  id: record.id,
  caseId: record.caseId,
  name: record.name,
  type: record.type,
  fileName: record.fileName,
  size: record.size,
  contentType: record.contentType,
  uploadedBy: record.uploadedBy,
  uploadedAt: record.uploadedAt,
  downloadUrl: documentContentPath(record.caseId, record.id),
});

/** All of a stream, refused with `tooLarge` as soon as it holds more than `max` bytes. */
async function readAtMost(stream: Readable, max: number, tooLarge: () => AppError) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** A file of the upload, checked and in Blob Storage, waiting for its record. */
interface StagedFile {
  id: string;
  field: string;
  fileName: string;
  extension: DocumentExtension;
  size: number;
  blobName: string;
}

const acceptedList = documentExtensions.map((extension) => `.${extension}`).join(', ');

async function stage(
  scope: AccountScope,
  caseId: string,
  part: Extract<FormPart, { kind: 'file' }>,
): Promise<StagedFile> {
  const fileName = uploadedFileName(part.name).slice(0, 255);
  const extension = extensionOf(fileName);
  if (!extension) {
    throw problem(part.field, `${fileName || 'The file'} is not one of ${acceptedList}`);
  }
  const data = await readAtMost(part.stream, MAX_DOCUMENT_BYTES, () =>
    payloadTooLarge(
      `${fileName} is larger than ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MB, the most a document may be`,
    ),
  );
  if (!holds(data, extension)) {
    throw problem(part.field, `${fileName} does not contain what a .${extension} file should`);
  }
  const id = randomUUID();
  const blobName = blobNameOf(scope, caseId, id);
  await putDocumentFile(blobName, data, documentContentTypes[extension]);
  return { id, field: part.field, fileName, extension, size: data.length, blobName };
}

function parseMetadata(text: string): UploadMetadata {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw problem('metadata', 'is not valid JSON');
  }
  const parsed = uploadMetadataSchema.safeParse(json, { reportInput: true });
  if (!parsed.success) {
    throw validationError(
      fieldProblems('body', parsed.error).map((entry) => ({
        ...entry,
        field: entry.field === 'body' ? 'metadata' : `metadata.${entry.field}`,
      })),
    );
  }
  return parsed.data;
}

/** Where one value of a file's metadata came from, so a problem names that field. */
interface Given {
  value: string | undefined;
  field: string;
}

/**
 * A file's name and type: from its entry of a `metadata` list, else from a `metadata` object or
 * the form's `name` and `type`, which speak for every file (a name only for a single one). The
 * name is the file's own when none is given.
 */
function metadataOf(
  files: StagedFile[],
  fields: Map<string, string>,
  metadata: UploadMetadata | undefined,
): { name: Given; type: Given }[] {
  if (Array.isArray(metadata) && metadata.length !== files.length) {
    throw problem(
      'metadata',
      `has ${metadata.length} entries for ${files.length} file${files.length === 1 ? '' : 's'}`,
    );
  }
  const shared = (key: 'name' | 'type'): Given =>
    metadata && !Array.isArray(metadata) && metadata[key] !== undefined
      ? { value: metadata[key], field: `metadata.${key}` }
      : { value: fields.get(key), field: key };
  const sharedName = shared('name');
  if (sharedName.value !== undefined && files.length > 1 && !Array.isArray(metadata)) {
    throw problem(sharedName.field, 'names one file; send a metadata list to name several');
  }
  return files.map((file, index) => {
    const entry = Array.isArray(metadata) ? metadata[index] : undefined;
    const own = (key: 'name' | 'type'): Given | undefined =>
      entry?.[key] === undefined
        ? undefined
        : { value: entry[key], field: `metadata.${index}.${key}` };
    // A list names each file itself: a name it leaves out is the file's own.
    const name = own('name') ?? (entry ? { value: undefined, field: file.field } : sharedName);
    return {
      name:
        name.value === undefined
          ? { value: file.fileName.slice(0, MAX_DOCUMENT_NAME), field: file.field }
          : name,
      type: own('type') ?? shared('type'),
    };
  });
}

function recordsOf(
  caseId: string,
  files: StagedFile[],
  given: { name: Given; type: Given }[],
  by: Person | null,
  at: string,
): Omit<CaseDocumentRecord, 'accountId'>[] {
  const problems: FieldProblem[] = [];
  const records = files.flatMap((file, index) => {
    const { name, type } = given[index] as { name: Given; type: Given };
    const parsed = documentMetadataSchema.safeParse(
      { name: name.value, type: type.value },
      { reportInput: true },
    );
    if (!parsed.success) {
      problems.push(
        ...fieldProblems('body', parsed.error).map((entry) => ({
          ...entry,
          field: entry.field === 'name' ? name.field : type.field,
        })),
      );
      return [];
    }
    return [
      {
        id: file.id,
        kind: 'document' as const,
        caseId,
        name: parsed.data.name ?? file.fileName,
        type: parsed.data.type,
        fileName: file.fileName,
        extension: file.extension,
        contentType: documentContentTypes[file.extension],
        size: file.size,
        blobName: file.blobName,
        uploadedBy: by,
        uploadedAt: at,
      },
    ];
  });
  if (problems.length > 0) throw validationError(problems);
  return records;
}

/**
 * Keeps the files of an upload form as documents of the case, all or none. Each file is checked
 * (extension, content, size) as it arrives and goes to Blob Storage before its record is written,
 * so no record ever names a missing file; when anything fails the files already stored go again.
 */
export async function uploadDocuments(
  ctx: RequestContext,
  caseId: string,
  form: AsyncIterable<FormPart>,
): Promise<CaseDocument[]> {
  await getCase(ctx, caseId);
  const staged: StagedFile[] = [];
  const fields = new Map<string, string>();
  let metadata: UploadMetadata | undefined;
  let records: Omit<CaseDocumentRecord, 'accountId'>[];
  try {
    for await (const part of form) {
      if (part.kind === 'field') {
        if (part.name === 'metadata') metadata = parseMetadata(part.value);
        else fields.set(part.name, part.value);
      } else if (part.field === 'metadata') {
        const text = await readAtMost(part.stream, MAX_METADATA_BYTES, () =>
          problem('metadata', `is larger than ${MAX_METADATA_BYTES / 1024} KB`),
        );
        metadata = parseMetadata(text.toString('utf8'));
      } else if (!isDocumentFileField(part.field)) {
        throw problem(part.field, 'is not where files go: send them as file, or file_0, file_1, …');
      } else if (staged.length >= MAX_DOCUMENTS_PER_UPLOAD) {
        throw problem(
          part.field,
          `is one file too many: at most ${MAX_DOCUMENTS_PER_UPLOAD} at once`,
        );
      } else {
        staged.push(await stage(ctx.scope, caseId, part));
      }
    }
    if (staged.length === 0) throw problem('file', 'is required: choose a file to upload');
    records = recordsOf(
      caseId,
      staged,
      metadataOf(staged, fields, metadata),
      personOf(ctx),
      new Date().toISOString(),
    );
    await createDocuments(ctx.scope, records);
    try {
      await reviseCase(ctx, caseId, undefined, 'legal_case.document_upload', (_current, now) => ({
        changes: {},
        events: records.map((record) =>
          eventOf(caseId, now, personOf(ctx), {
            action: 'Document uploaded',
            detail: `${record.name} (${documentTypeLabels[record.type]})`,
          }),
        ),
      }));
    } catch (error) {
      // The case went while the files arrived: its records go before their files do.
      await deleteDocuments(
        ctx.scope,
        records.map((record) => record.id),
      ).catch(() => undefined);
      throw error;
    }
  } catch (error) {
    await Promise.allSettled(staged.map((file) => deleteDocumentFile(file.blobName)));
    throw error;
  }
  for (const record of records) {
    await writeAudit(ctx, {
      action: 'legal_document.create',
      entity: { type: 'legal_document', id: record.id },
      after: record,
    });
  }
  return records.map((record) => toDocument({ ...record, accountId: ctx.scope.accountId }));
}

export async function listDocuments(ctx: RequestContext, caseId: string) {
  await getCase(ctx, caseId);
  return (await documentsOf(ctx.scope, caseId)).map(toDocument);
}

async function documentOf(scope: AccountScope, caseId: string, documentId: string) {
  const found = await findDocument(scope, caseId, documentId);
  if (!found) throw notFound('Document not found');
  return found;
}

export interface DocumentFile {
  data: Buffer;
  contentType: string;
  /** What the download is saved as. */
  fileName: string;
}

async function fileOf(scope: AccountScope, caseId: string, documentId: string) {
  const record = await documentOf(scope, caseId, documentId);
  const file = await readDocumentFile(record.blobName);
  if (!file) throw notFound('Document not found');
  return {
    data: file.data,
    contentType: record.contentType,
    fileName: downloadName(record.name, record.extension),
  } satisfies DocumentFile;
}

export async function documentFile(
  ctx: RequestContext,
  caseId: string,
  documentId: string,
): Promise<DocumentFile> {
  await getCase(ctx, caseId);
  return fileOf(ctx.scope, caseId, documentId);
}

export interface DocumentsArchive {
  /** The zip, written as it is read. */
  data: Readable;
  /** What the download is saved as: `{case number}-documents.zip`. */
  fileName: string;
}

const NOTHING_TO_EXPORT = 'This case has no documents to export';

/**
 * Every document of a case in one zip, oldest first, each under its file's own name (the same
 * name again numbered " (2)"). Files are read from Blob Storage one at a time as the zip is
 * written, so memory holds one document however many the case has; the first is read before the
 * reply starts, so a store that does not answer is a 503 rather than a cut-off zip. A file
 * deleted while the zip is written is left out.
 */
export async function exportDocuments(
  ctx: RequestContext,
  caseId: string,
): Promise<DocumentsArchive> {
  const found = await getCase(ctx, caseId);
  const records = (await documentsOf(ctx.scope, caseId)).sort((a, b) =>
    a.uploadedAt.localeCompare(b.uploadedAt),
  );
  if (records.length === 0) throw conflict(NOTHING_TO_EXPORT);
  const names = archiveNames(records.map((record) => record.fileName));
  async function* entries(): AsyncGenerator<ZipEntry> {
    for (const [index, record] of records.entries()) {
      const file = await readDocumentFile(record.blobName);
      if (file) {
        yield { name: names[index] as string, data: file.data, date: new Date(record.uploadedAt) };
      }
    }
  }
  const files = entries();
  const first = await files.next();
  if (first.done) throw conflict(NOTHING_TO_EXPORT);
  const firstEntry = first.value;
  async function* all(): AsyncGenerator<ZipEntry> {
    yield firstEntry;
    yield* files;
  }
  const fileName = archiveFileName(found.caseNumber);
  try {
    await writeAudit(ctx, {
      action: 'legal_case.documents_export',
      entity: { type: 'legal_case', id: caseId },
      after: {
        fileName,
        documents: records.map((record, index) => ({ id: record.id, entry: names[index] })),
      },
    });
  } catch (error) {
    await files.return(undefined);
    throw error;
  }
  return { data: zipStream(all()), fileName };
}

/** A token that opens the document without signing in, for DOCUMENT_LINK_SECONDS. */
export async function documentLinkToken(
  ctx: RequestContext,
  caseId: string,
  documentId: string,
): Promise<{ token: string; expiresAt: string }> {
  await getCase(ctx, caseId);
  await documentOf(ctx.scope, caseId, documentId);
  const expires = Math.floor(Date.now() / 1000) + DOCUMENT_LINK_SECONDS;
  return {
    token: signDocumentLink({ accountId: ctx.scope.accountId, caseId, documentId, expires }),
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

/** The document a link's token names, while the token is genuine and unexpired and it exists. */
export async function linkedDocumentFile(token: string): Promise<DocumentFile> {
  const claims = verifyDocumentLink(token);
  return fileOf({ accountId: claims.accountId }, claims.caseId, claims.documentId);
}

/** Removes a document: its record first, so nothing ever names a file that is gone. */
export async function deleteDocument(ctx: RequestContext, caseId: string, documentId: string) {
  await getCase(ctx, caseId);
  const record = await documentOf(ctx.scope, caseId, documentId);
  await deleteDocuments(ctx.scope, [record.id]);
  await deleteDocumentFile(record.blobName);
  await reviseCase(ctx, caseId, undefined, 'legal_case.document_delete', (_current, now) => ({
    changes: {},
    events: [
      eventOf(caseId, now, personOf(ctx), {
        action: 'Document deleted',
        detail: `${record.name} (${documentTypeLabels[record.type]})`,
      }),
    ],
  }));
  const { _etag, _ts, ...before } = record;
  await writeAudit(ctx, {
    action: 'legal_document.delete',
    entity: { type: 'legal_document', id: record.id },
    before,
  });
}

/** The stored files of a case's documents, to remove once the case itself is gone. */
export async function caseFiles(ctx: RequestContext, caseId: string): Promise<string[]> {
  return (await documentsOf(ctx.scope, caseId)).map((record) => record.blobName);
}

/** Removes files no record names any more (a deleted case's). */
export async function removeFiles(blobNames: string[]): Promise<void> {
  for (const blobName of blobNames) await deleteDocumentFile(blobName);
}
