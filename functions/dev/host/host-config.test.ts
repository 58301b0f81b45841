import { describe, expect, it } from 'vitest';
import { readHostConfig } from './host-config.js';
import { decodeQueueMessage } from './queues.js';

describe('host.json', () => {
  it('has the empty route prefix and the queue retry settings the dev host honours', () => {
    const config = readHostConfig(new URL('../../../host.json', import.meta.url));
    expect(config.extensions.http.routePrefix).toBe('');
    expect(config.extensions.queues).toEqual({
      maxPollingInterval: 2_000,
      visibilityTimeout: 5_000,
      batchSize: 16,
      maxDequeueCount: 5,
    });
  });
});

describe('queue message decoding', () => {
  it('decodes base64 JSON as the Functions trigger does, and passes plain text through', () => {
    expect(decodeQueueMessage(Buffer.from('{"a":1}').toString('base64'))).toEqual({ a: 1 });
    expect(decodeQueueMessage(Buffer.from('hello').toString('base64'))).toBe('hello');
    expect(decodeQueueMessage('{"b":2}')).toEqual({ b: 2 });
  });
});
