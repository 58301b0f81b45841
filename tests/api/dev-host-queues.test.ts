import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { QueueFunction } from '../../functions/src/platform/functions.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

usePlatformEnvironment();
const { enqueue, queueClient } = await import('../../functions/src/platform/queue.js');
const { startQueues } = await import('../../functions/dev/host/queues.js');
const { decodeQueueMessage } = await import('../../functions/dev/host/queues.js');

const settings = {
  maxPollingInterval: 200,
  visibilityTimeout: 0,
  batchSize: 16,
  maxDequeueCount: 5,
};

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

describe('queue functions in the dev host', () => {
  it('hands the handler the decoded JSON message and removes it when done', async () => {
    const queueName = `test-ok-${randomUUID().slice(0, 8)}`;
    const received: unknown[] = [];
    const fn: QueueFunction = {
      kind: 'queue',
      name: 'test-ok',
      queueName,
      handler: async (message) => {
        received.push(message);
      },
    };
    const running = startQueues([fn], settings);
    try {
      await enqueue(queueName, { job: 'recalculate', accountId: 'a1' });
      await until(() => received.length === 1);
      expect(received[0]).toEqual({ job: 'recalculate', accountId: 'a1' });
      const client = await queueClient(queueName);
      await until(async () => (await client.getProperties()).approximateMessagesCount === 0);
    } finally {
      await running.stop();
    }
  });

  it('keeps a message hidden while its handler runs past the lease, and hands it out once', async () => {
    const queueName = `test-lease-${randomUUID().slice(0, 8)}`;
    const deliveries: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fn: QueueFunction = {
      kind: 'queue',
      name: 'test-lease',
      queueName,
      handler: async (_message, context) => {
        deliveries.push(Number(context.triggerMetadata?.dequeueCount));
        await released;
      },
    };
    // A two-second lease, renewed every second: unrenewed, the message would show again at once.
    const running = startQueues([fn], settings, 2);
    try {
      await enqueue(queueName, { job: 'long' });
      await until(() => deliveries.length === 1);
      const client = await queueClient(queueName);
      // Over two and a half leases, nobody else could take it (a peek sees visible messages only).
      const watchedUntil = Date.now() + 5_000;
      while (Date.now() < watchedUntil) {
        expect((await client.peekMessages()).peekedMessageItems).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      release();
      await until(async () => (await client.getProperties()).approximateMessagesCount === 0);
      expect(deliveries).toEqual([1]);
    } finally {
      release();
      await running.stop();
    }
  });

  it('retries a failing message five times, then moves it to the poison queue', async () => {
    const queueName = `test-poison-${randomUUID().slice(0, 8)}`;
    const attempts: number[] = [];
    const fn: QueueFunction = {
      kind: 'queue',
      name: 'test-poison',
      queueName,
      handler: async (_message, context) => {
        attempts.push(Number(context.triggerMetadata?.dequeueCount));
        throw new Error('always fails');
      },
    };
    const running = startQueues([fn], settings);
    try {
      await enqueue(queueName, { job: 'doomed' });
      const poison = await queueClient(`${queueName}-poison`);
      await until(async () => (await poison.peekMessages()).peekedMessageItems.length === 1);
      expect(attempts).toEqual([1, 2, 3, 4, 5]);
      const [item] = (await poison.peekMessages()).peekedMessageItems;
      expect(decodeQueueMessage(item?.messageText ?? '')).toEqual({ job: 'doomed' });
    } finally {
      await running.stop();
    }
  });
});
