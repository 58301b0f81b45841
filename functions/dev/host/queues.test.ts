import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepLease, leaseSecondsOf } from './queues.js';

describe('the queue lease', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A queue client whose renewals answer receipts r1, r2, … (or fail when told to). */
  function fakeClient() {
    const calls: { popReceipt: string; seconds: number | undefined }[] = [];
    let failNext = false;
    return {
      calls,
      failNext: () => {
        failNext = true;
      },
      updateMessage: (
        _messageId: string,
        popReceipt: string,
        _message?: string,
        seconds?: number,
      ) => {
        calls.push({ popReceipt, seconds });
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('renewal refused'));
        }
        return Promise.resolve({ popReceipt: `r${calls.length}` });
      },
    };
  }

  it('is renewed at half the lease with the latest receipt, and stops when the handler ends', async () => {
    const client = fakeClient();
    const lease = keepLease(
      client as unknown as Parameters<typeof keepLease>[0],
      {
        messageId: 'm1',
        popReceipt: 'r0',
      },
      4,
    );
    await vi.advanceTimersByTimeAsync(1_999);
    expect(client.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.calls).toEqual([{ popReceipt: 'r0', seconds: 4 }]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(client.calls).toEqual([
      { popReceipt: 'r0', seconds: 4 },
      { popReceipt: 'r1', seconds: 4 },
    ]);
    expect(await lease.end()).toBe('r2');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.calls).toHaveLength(2);
  });

  it('keeps the receipt it has when a renewal fails, and tries again next time', async () => {
    const client = fakeClient();
    const lease = keepLease(
      client as unknown as Parameters<typeof keepLease>[0],
      {
        messageId: 'm1',
        popReceipt: 'r0',
      },
      2,
    );
    client.failNext();
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(client.calls.map((call) => call.popReceipt)).toEqual(['r0', 'r0']);
    expect(await lease.end()).toBe('r2');
  });

  it('is five minutes unless LOTWISE_QUEUE_LEASE_SECONDS names whole seconds', () => {
    expect(leaseSecondsOf({})).toBe(300);
    expect(leaseSecondsOf({ LOTWISE_QUEUE_LEASE_SECONDS: '2' })).toBe(2);
    for (const wrong of ['0', '-3', '1.5', 'soon', '']) {
      expect(leaseSecondsOf({ LOTWISE_QUEUE_LEASE_SECONDS: wrong })).toBe(300);
    }
  });
});
