import { deleteBlob, getBlob, putBlob } from '../../platform/blob.js';
import { isNotFound } from '../../platform/cosmos-errors.js';
import { TenantRepository, type AccountScope, type Stored } from '../../platform/repo.js';
import { legalContainer } from '../legal.repo.js';
import type { Person } from '../legal.schema.js';
import type { DocumentExtension, DocumentType } from './documents.schema.js';

/**
 * A case's documents: the record beside the case in the legal container (so deleting the case
 * deletes it), the file in a private blob container under the account's own prefix.
 */
export interface CaseDocumentRecord {
  id: string;
  accountId: string;
  kind: 'document';
  caseId: string;
  name: string;
  type: DocumentType;
  fileName: string;
  extension: DocumentExtension;
  contentType: string;
  size: number;
  /** Where the file is in DOCUMENT_BLOBS. */
  blobName: string;
  uploadedBy: Person | null;
  uploadedAt: string;
}

const DOCUMENT_BLOBS = 'legal-documents';

const caseDocuments = new TenantRepository<CaseDocumentRecord>(legalContainer.id);

export const blobNameOf = (scope: AccountScope, caseId: string, documentId: string) =>
  `${scope.accountId}/cases/${caseId}/${documentId}`;

export async function findDocument(scope: AccountScope, caseId: string, id: string) {
  const found = await caseDocuments.find(scope, id);
  return found?.kind === 'document' && found.caseId === caseId ? found : undefined;
}

export const documentsOf = (scope: AccountScope, caseId: string) =>
  caseDocuments.all(scope, {
    where: "c.kind = 'document' AND c.caseId = @caseId",
    parameters: [{ name: '@caseId', value: caseId }],
    orderBy: 'c.uploadedAt DESC',
  }) as Promise<Stored<CaseDocumentRecord>[]>;

/** Writes the records of one upload, all or none. */
export const createDocuments = (
  scope: AccountScope,
  records: Omit<CaseDocumentRecord, 'accountId'>[],
) =>
  caseDocuments.batch(
    scope,
    records.map((document) => ({ op: 'create' as const, document })),
  );

export const deleteDocuments = (scope: AccountScope, ids: string[]) =>
  caseDocuments.writeBatch(
    scope,
    ids.map((id) => ({ op: 'delete' as const, id })),
  );

export const putDocumentFile = (blobName: string, data: Buffer, contentType: string) =>
  putBlob(DOCUMENT_BLOBS, blobName, data, contentType);

export const readDocumentFile = (blobName: string) => getBlob(DOCUMENT_BLOBS, blobName);

/** Removes a file; one already gone counts as removed. */
export async function deleteDocumentFile(blobName: string) {
  try {
    await deleteBlob(DOCUMENT_BLOBS, blobName);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
