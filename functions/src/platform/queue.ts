import type { QueueClient } from '@azure/storage-queue';
import { queueServiceClient } from './storage.js';

const ensured = new Map<string, Promise<QueueClient>>();

export async function queueClient(name: string): Promise<QueueClient> {
  let pending = ensured.get(name);
  if (!pending) {
    const client = queueServiceClient().getQueueClient(name);
    pending = client.createIfNotExists().then(() => client);
    pending.catch(() => ensured.delete(name));
    ensured.set(name, pending);
  }
  return pending;
}

/** Base64 JSON, the encoding the Functions queue trigger decodes by default. */
export function encodeQueueMessage(message: unknown): string {
  return Buffer.from(JSON.stringify(message), 'utf8').toString('base64');
}

export async function enqueue(
  queueName: string,
  message: unknown,
  options: { delaySeconds?: number } = {},
): Promise<void> {
  const client = await queueClient(queueName);
  await client.sendMessage(encodeQueueMessage(message), {
    ...(options.delaySeconds ? { visibilityTimeout: options.delaySeconds } : {}),
  });
}
