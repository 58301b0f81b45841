import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Page, type Stored } from '../platform/repo.js';
import type { Upload, UploadCategory, UploadStatus } from './uploads.schema.js';

/**
 * One document per upload in the account's partition; its files are blobs in
 * UPLOADS_BLOB_CONTAINER named `{accountId}/{uploadId}/{index}`. History lists newest first.
 */
export const uploadsContainer: ContainerDefinition = {
  id: 'uploads',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/uploadDate', order: 'descending' },
      { path: '/id', order: 'descending' },
    ],
  ],
};

export interface UploadRecord extends Omit<Upload, 'etag'> {
  accountId: string;
  kind: 'upload';
  /** Lower-case name, description and file names, for the history's search. */
  searchText: string;
  /** Where the worker got to, so a retried message resumes instead of starting over. */
  checkpoint: { file: number; row: number; imported: number; processed: number } | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export const UPLOADS_BLOB_CONTAINER = 'data-uploads';

/** Names start with the account id: `deleteAccountBlobs` relies on it. */
export const uploadBlobName = (accountId: string, uploadId: string, index: number) =>
  `${accountId}/${uploadId}/${index}`;
export const errorReportBlobName = (accountId: string, uploadId: string) =>
  `${accountId}/${uploadId}/errors.csv`;
/** Every blob of one upload, for `deleteBlobsUnder`. */
export const uploadBlobPrefix = (accountId: string, uploadId: string) =>
  `${accountId}/${uploadId}/`;

const uploads = new TenantRepository<UploadRecord>(uploadsContainer.id);

export async function findUpload(
  scope: AccountScope,
  id: string,
): Promise<Stored<UploadRecord> | undefined> {
  const found = await uploads.find(scope, id);
  return found?.kind === 'upload' ? found : undefined;
}

export function createUpload(
  scope: AccountScope,
  record: Omit<UploadRecord, 'accountId'>,
): Promise<Stored<UploadRecord>> {
  return uploads.create(scope, record);
}

/** Replaces only over `etag`; a raw 412 otherwise (check with `isStale`). */
export function replaceUpload(
  scope: AccountScope,
  record: UploadRecord,
  etag: string,
): Promise<Stored<UploadRecord>> {
  return uploads.replace(scope, record, etag);
}

export function deleteUploadRecord(scope: AccountScope, id: string, etag?: string) {
  return uploads.delete(scope, id, etag);
}

export interface HistoryFilters {
  category?: UploadCategory;
  status?: UploadStatus;
  /** Lower-case already. */
  search?: string;
}

/** One page of the account's uploads, newest first. */
export function pageUploads(
  scope: AccountScope,
  filters: HistoryFilters,
  pageSize: number,
  continuationToken?: string,
): Promise<Page<Stored<UploadRecord>>> {
  const clauses = ["c.kind = 'upload'"];
  const parameters: { name: string; value: string }[] = [];
  if (filters.category) {
    clauses.push('c.category = @category');
    parameters.push({ name: '@category', value: filters.category });
  }
  if (filters.status) {
    clauses.push('c.status = @status');
    parameters.push({ name: '@status', value: filters.status });
  }
  if (filters.search) {
    clauses.push('CONTAINS(c.searchText, @search)');
    parameters.push({ name: '@search', value: filters.search });
  }
  return uploads.page(scope, {
    where: clauses.join(' AND '),
    parameters,
    orderBy: 'c.uploadDate DESC, c.id DESC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  });
}
