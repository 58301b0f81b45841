import type { ContainerClient } from '@azure/storage-blob';
import { isNotFound } from './cosmos-errors.js';
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
