import type { ContainerClient } from '@azure/storage-blob';
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
