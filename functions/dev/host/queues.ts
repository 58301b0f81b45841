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

/**
 * How long a received message stays hidden; renewed at half that while its handler runs, as the
 * Functions queue trigger keeps its 10-minute lease, so a handler longer than the lease never
 * sees its message handed out again. A host that dies mid-message leaves it hidden for at most
 * this long: LOTWISE_QUEUE_LEASE_SECONDS shortens it where a host is killed on purpose (the
 * reliability tests), so the next host picks the message up within seconds.
 */
const DEFAULT_LEASE_SECONDS = 5 * 60;

export function leaseSecondsOf(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.LOTWISE_QUEUE_LEASE_SECONDS);
  return Number.isInteger(seconds) && seconds >= 1 ? seconds : DEFAULT_LEASE_SECONDS;
}

type LeaseClient = Pick<QueueClient, 'updateMessage'>;

/**
 * Keeps a received message hidden while its handler runs: renews the lease every half lease,
 * each renewal giving the pop receipt the next call must use. `end` stops renewing and answers
 * the latest receipt. A renewal that fails leaves the message to show again when its lease ends
 * (the handlers are safe to run twice).
 */
export function keepLease(
  client: LeaseClient,
  message: Pick<DequeuedMessageItem, 'messageId' | 'popReceipt'>,
  leaseSeconds: number,
) {
  let popReceipt = message.popReceipt;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing
      .then(async () => {
        const renewed = await client.updateMessage(
          message.messageId,
          popReceipt,
          undefined,
          leaseSeconds,
        );
        if (renewed.popReceipt) popReceipt = renewed.popReceipt;
      })
      .catch(() => undefined);
  }, leaseSeconds * 500);
  return {
    async end(): Promise<string> {
      clearInterval(timer);
      await renewing;
      return popReceipt;
    },
  };
}

export interface RunningQueues {
  stop(): Promise<void>;
}

async function processMessage(
  fn: QueueFunction,
  client: QueueClient,
  message: DequeuedMessageItem,
  settings: QueueSettings,
  leaseSeconds: number,
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
  const lease = keepLease(client, message, leaseSeconds);
  try {
    await fn.handler(decodeQueueMessage(message.messageText), context);
    await client.deleteMessage(message.messageId, await lease.end());
  } catch (error) {
    const popReceipt = await lease.end();
    if (message.dequeueCount >= settings.maxDequeueCount) {
      const poison = await queueClient(`${fn.queueName}-poison`);
      await poison.sendMessage(message.messageText);
      await client.deleteMessage(message.messageId, popReceipt);
      context.error(
        `Message ${message.messageId} failed ${message.dequeueCount} times; moved to ${fn.queueName}-poison`,
        error,
      );
    } else {
      await client.updateMessage(
        message.messageId,
        popReceipt,
        undefined,
        Math.round(settings.visibilityTimeout / 1000),
      );
      context.warn(`Message ${message.messageId} failed (try ${message.dequeueCount})`, error);
    }
  }
}

/** Polls each function's queue as the Functions queue trigger does, with the same retry rules. */
export function startQueues(
  functions: QueueFunction[],
  settings: QueueSettings,
  leaseSeconds = leaseSecondsOf(process.env),
): RunningQueues {
  const stopper = new AbortController();
  const loops = functions.map(async (fn) => {
    let idleDelay = 100;
    while (!stopper.signal.aborted) {
      try {
        const client = await queueClient(fn.queueName);
        const { receivedMessageItems } = await client.receiveMessages({
          numberOfMessages: settings.batchSize,
          visibilityTimeout: leaseSeconds,
          abortSignal: stopper.signal,
        });
        if (receivedMessageItems.length) {
          idleDelay = 100;
          await Promise.all(
            receivedMessageItems.map((message) =>
              processMessage(fn, client, message, settings, leaseSeconds),
            ),
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
