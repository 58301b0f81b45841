import { setTimeout as sleep } from 'node:timers/promises';
import { InvocationContext } from './azure-functions.js';
import type { DequeuedMessageItem, QueueClient } from '@azure/storage-queue';
import type { QueueFunction } from '../../src/platform/functions.js';
import { queueClient } from '../../src/platform/queue.js';
import type { HostConfig } from './host-config.js';
import { invocationLogHandler } from './invocation-log.js';

type QueueSettings = HostConfig['extensions']['queues'];

/** What the Functions queue trigger hands a handler: base64 decoded, JSON parsed when it is JSON. */
export function decodeQueueMessage(messageText: string): unknown {
  const decoded = Buffer.from(messageText, 'base64').toString('utf8');
  const text =
    Buffer.from(decoded, 'utf8').toString('base64') === messageText ? decoded : messageText;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

// How long a message stays hidden while its handler runs.
const LEASE_SECONDS = 5 * 60;

export interface RunningQueues {
  stop(): Promise<void>;
}

async function processMessage(
  fn: QueueFunction,
  client: QueueClient,
  message: DequeuedMessageItem,
  settings: QueueSettings,
): Promise<void> {
  const context = new InvocationContext({
    invocationId: message.messageId,
    functionName: fn.name,
    logHandler: invocationLogHandler(fn.name),
    triggerMetadata: {
      id: message.messageId,
      dequeueCount: message.dequeueCount,
      insertionTime: message.insertedOn.toISOString(),
      expirationTime: message.expiresOn.toISOString(),
      nextVisibleTime: message.nextVisibleOn.toISOString(),
      popReceipt: message.popReceipt,
    },
  });
  try {
    await fn.handler(decodeQueueMessage(message.messageText), context);
    await client.deleteMessage(message.messageId, message.popReceipt);
  } catch (error) {
    if (message.dequeueCount >= settings.maxDequeueCount) {
      const poison = await queueClient(`${fn.queueName}-poison`);
      await poison.sendMessage(message.messageText);
      await client.deleteMessage(message.messageId, message.popReceipt);
      context.error(
        `Message ${message.messageId} failed ${message.dequeueCount} times; moved to ${fn.queueName}-poison`,
        error,
      );
    } else {
      await client.updateMessage(
        message.messageId,
        message.popReceipt,
        undefined,
        Math.round(settings.visibilityTimeout / 1000),
      );
      context.warn(`Message ${message.messageId} failed (try ${message.dequeueCount})`, error);
    }
  }
}

/** Polls each function's queue as the Functions queue trigger does, with the same retry rules. */
export function startQueues(functions: QueueFunction[], settings: QueueSettings): RunningQueues {
  const stopper = new AbortController();
  const loops = functions.map(async (fn) => {
    let idleDelay = 100;
    while (!stopper.signal.aborted) {
      try {
        const client = await queueClient(fn.queueName);
        const { receivedMessageItems } = await client.receiveMessages({
          numberOfMessages: settings.batchSize,
          visibilityTimeout: LEASE_SECONDS,
          abortSignal: stopper.signal,
        });
        if (receivedMessageItems.length) {
          idleDelay = 100;
          await Promise.all(
            receivedMessageItems.map((message) => processMessage(fn, client, message, settings)),
          );
          continue;
        }
      } catch (error) {
        if (stopper.signal.aborted) break;
        process.stderr.write(
          `${JSON.stringify({ level: 'warn', message: 'queue poll failed', queue: fn.queueName, error: String(error) })}\n`,
        );
      }
      idleDelay = Math.min(idleDelay * 2, settings.maxPollingInterval);
      await sleep(idleDelay, undefined, { signal: stopper.signal }).catch(() => undefined);
    }
  });
  return {
    stop: async () => {
      stopper.abort();
      await Promise.allSettled(loops);
    },
  };
}
