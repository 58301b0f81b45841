import type { Readable } from 'node:stream';
import {
  BlobSASPermissions,
  generateBlobSASQueryParameters,
  SASProtocol,
  StorageSharedKeyCredential,
  type BlobServiceClient,
  type ContainerClient,
  type UserDelegationKey,
} from '@azure/storage-blob';
import { isNotFound, statusOf } from './cosmos-errors.js';
import { blobServiceClient } from './storage.js';

const ensured = new Map<string, Promise<ContainerClient>>();

async function blobContainer(name: string): Promise<ContainerClient> {
  let pending = ensured.get(name);
  if (!pending) {
    const client = blobServiceClient().getContainerClient(name);
    pending = client.createIfNotExists().then(() => client);
    pending.catch(() => ensured.delete(name));
    ensured.set(name, pending);
  }
  return pending;
}

export async function putBlob(
  containerName: string,
  blobName: string,
  data: Buffer,
  contentType: string,
): Promise<void> {
  const client = await blobContainer(containerName);
  await client
    .getBlockBlobClient(blobName)
    .uploadData(data, { blobHTTPHeaders: { blobContentType: contentType } });
}

export async function getBlob(
  containerName: string,
  blobName: string,
): Promise<{ data: Buffer; contentType: string } | undefined> {
  const client = (await blobContainer(containerName)).getBlockBlobClient(blobName);
  if (!(await client.exists())) return undefined;
  const [data, properties] = await Promise.all([client.downloadToBuffer(), client.getProperties()]);
  return { data, contentType: properties.contentType ?? 'application/octet-stream' };
}

export async function deleteBlob(containerName: string, blobName: string): Promise<void> {
  await (await blobContainer(containerName)).deleteBlob(blobName, { deleteSnapshots: 'include' });
}

/** Blobs listed, then deleted together, per step of emptying a prefix. */
const DELETE_PAGE_SIZE = 100;

/** Deletes a prefix's blobs one listing page at a time; a missing container holds none. */
async function emptyPrefix(container: ContainerClient, prefix: string): Promise<number> {
  let deleted = 0;
  try {
    const pages = container.listBlobsFlat({ prefix }).byPage({ maxPageSize: DELETE_PAGE_SIZE });
    for await (const page of pages) {
      const results = await Promise.all(
        page.segment.blobItems.map((blob) =>
          container.deleteBlob(blob.name, { deleteSnapshots: 'include' }).then(
            () => true,
            (error: unknown) => {
              // Gone already: another run, or the feature's own delete, got there first.
              if (isNotFound(error)) return false;
              throw error;
            },
          ),
        ),
      );
      deleted += results.filter(Boolean).length;
    }
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  return deleted;
}

/**
 * Deletes every blob named `prefix…` in one container, streaming the listing page by page. Safe
 * to run again after a failure part way, or twice at once. The prefix must end in "/", so
 * `acct/item1/` never reaches `acct/item10/…`. Answers how many blobs this run deleted.
 */
export async function deleteBlobsUnder(containerName: string, prefix: string): Promise<number> {
  if (!/^[^/]+\/(?:[^/]+\/)*$/.test(prefix)) {
    throw new Error(`Refusing to delete blobs under "${prefix}": not a folder prefix`);
  }
  return emptyPrefix(blobServiceClient().getContainerClient(containerName), prefix);
}

/**
 * Deletes every blob of an account, in every container. Features name each blob of an account
 * `<accountId>/…` (photos, documents, logos), so this finds them without knowing the features,
 * and a new feature that keeps the rule is covered. Streams container and blob listings page by
 * page; safe to re-run after a failure part way, or twice at once, so callers run it while the
 * record that makes them run again (a sandbox's) still exists.
 */
export async function deleteAccountBlobs(accountId: string): Promise<number> {
  if (!/^[^/]+$/.test(accountId)) throw new Error(`Not an account id: "${accountId}"`);
  const service = blobServiceClient();
  let deleted = 0;
  for await (const container of service.listContainers()) {
    deleted += await emptyPrefix(service.getContainerClient(container.name), `${accountId}/`);
  }
  return deleted;
}

/** A read of the version `etag` names was refused: the blob was written since (412). */
export const isChangedBlob = (error: unknown) => statusOf(error) === 412;

/**
 * A blob's bytes from `offset` on, as a stream: a large file is never held whole. The SDK resumes
 * a download cut off part way (up to `retries` times) from where it stopped. Undefined when the
 * blob is not there. With `etag`, only that version is read (`isChangedBlob` when it is not).
 */
export async function openBlobStream(
  containerName: string,
  blobName: string,
  { offset = 0, retries = 5, etag }: { offset?: number; retries?: number; etag?: string } = {},
): Promise<Readable | undefined> {
  const client = (await blobContainer(containerName)).getBlockBlobClient(blobName);
  try {
    const response = await client.download(offset, undefined, {
      maxRetryRequests: retries,
      ...(etag ? { conditions: { ifMatch: etag } } : {}),
    });
    return response.readableStreamBody as Readable | undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Size of each block staged while a stream is written to a blob, and how many go up at once. */
const STREAM_BLOCK_BYTES = 4 * 1024 * 1024;
const STREAM_BLOCKS_IN_FLIGHT = 2;

/** Writes a stream to a blob (replacing it) a few blocks at a time, never holding it whole. */
export async function putBlobStream(
  containerName: string,
  blobName: string,
  stream: Readable,
  contentType: string,
): Promise<void> {
  const client = (await blobContainer(containerName)).getBlockBlobClient(blobName);
  await client.uploadStream(stream, STREAM_BLOCK_BYTES, STREAM_BLOCKS_IN_FLIGHT, {
    blobHTTPHeaders: { blobContentType: contentType },
  });
}

/** A blob's size, type and version, or undefined when it does not exist. */
export async function blobProperties(
  containerName: string,
  blobName: string,
): Promise<{ size: number; contentType: string; etag: string | null } | undefined> {
  const client = (await blobContainer(containerName)).getBlockBlobClient(blobName);
  try {
    const properties = await client.getProperties();
    return {
      size: properties.contentLength ?? 0,
      contentType: properties.contentType ?? 'application/octet-stream',
      etag: properties.etag ?? null,
    };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** `length` bytes of a blob from `offset` (fewer at its end); with `etag`, of that version only. */
export async function readBlobRange(
  containerName: string,
  blobName: string,
  offset: number,
  length: number,
  etag?: string,
): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const client = (await blobContainer(containerName)).getBlockBlobClient(blobName);
  try {
    // Not downloadToBuffer: it fails when the blob ends before `length` bytes.
    const response = await client.download(
      offset,
      length,
      etag ? { conditions: { ifMatch: etag } } : {},
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response.readableStreamBody ?? []) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    // A range starting at or past the end holds nothing.
    if (statusOf(error) === 416) return Buffer.alloc(0);
    throw error;
  }
}

let delegationKey: { key: UserDelegationKey; expiresOn: Date } | undefined;
/** How long a user delegation key is asked for, and kept while it outlives the SAS by this. */
const DELEGATION_KEY_HOURS = 6;
const DELEGATION_KEY_MARGIN_MS = 60 * 60 * 1000;

async function userDelegationKey(service: BlobServiceClient): Promise<UserDelegationKey> {
  if (delegationKey && delegationKey.expiresOn.getTime() - Date.now() > DELEGATION_KEY_MARGIN_MS) {
    return delegationKey.key;
  }
  const startsOn = new Date(Date.now() - 5 * 60 * 1000);
  const expiresOn = new Date(Date.now() + DELEGATION_KEY_HOURS * 60 * 60 * 1000);
  const key = await service.getUserDelegationKey(startsOn, expiresOn);
  delegationKey = { key, expiresOn };
  return key;
}

/**
 * A URL that can create and write one blob (nothing else: no read, list or delete) until
 * `expiresOn`. Signed with the account key when the storage connection has one (locally), else
 * with a user delegation key of the managed identity (Azure).
 */
export async function blobWriteUrl(
  containerName: string,
  blobName: string,
  expiresOn: Date,
): Promise<string> {
  const service = blobServiceClient();
  const client = (await blobContainer(containerName)).getBlockBlobClient(blobName);
  const plainHttp = client.url.startsWith('http:');
  const values = {
    containerName,
    blobName,
    permissions: BlobSASPermissions.parse('cw'),
    // A few minutes back, for clocks that disagree.
    startsOn: new Date(Date.now() - 5 * 60 * 1000),
    expiresOn,
    protocol: plainHttp ? SASProtocol.HttpsAndHttp : SASProtocol.Https,
  };
  const credential = service.credential;
  const query =
    credential instanceof StorageSharedKeyCredential
      ? generateBlobSASQueryParameters(values, credential)
      : generateBlobSASQueryParameters(
          values,
          await userDelegationKey(service),
          service.accountName,
        );
  return `${client.url}?${query.toString()}`;
}

/** Whether the storage connection signs with an account key (and so may set service CORS). */
export function blobSignsWithAccountKey(): boolean {
  return blobServiceClient().credential instanceof StorageSharedKeyCredential;
}

/** What the browser sends and reads when it puts blocks to a SAS URL. */
const BROWSER_UPLOAD_RULE = {
  allowedMethods: 'PUT,OPTIONS',
  allowedHeaders: 'content-type,content-length,x-ms-*',
  exposedHeaders: 'etag,x-ms-*',
  maxAgeInSeconds: 3600,
};

/**
 * Lets these web origins put blocks straight to the Blob service. Idempotent: adds the rule only
 * when no rule covers the origins yet, keeping any others the account has.
 */
export async function ensureBlobCors(origins: string[]): Promise<void> {
  const service = blobServiceClient();
  const allowedOrigins = [...origins].sort().join(',');
  const { cors = [] } = await service.getProperties();
  if (cors.some((rule) => rule.allowedOrigins.split(',').sort().join(',') === allowedOrigins)) {
    return;
  }
  await service.setProperties({ cors: [...cors, { ...BROWSER_UPLOAD_RULE, allowedOrigins }] });
}
