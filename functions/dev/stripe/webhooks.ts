import { createHmac } from 'node:crypto';
import type { StripeEvent } from './model.js';

/**
 * Webhook delivery: each endpoint gets the events it subscribes to, in creation order, signed as
 * Stripe signs them (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`). A failed attempt
 * (non-2xx, or nobody listening) is retried after the next backoff; after the last try the event
 * is given up and the endpoint moves on, so one bad event never blocks the rest for ever.
 */

export interface WebhookTarget {
  url: string;
  secret: string;
  /** `['*']` for everything. */
  events: string[];
}

export interface Delivery {
  event: string;
  type: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The receiver's last HTTP status, or null when it could not be reached. */
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

/** 1 s, 5 s, 30 s, 30 s between the five tries. */
export const defaultRetryDelaysMs = [1_000, 5_000, 30_000, 30_000];

export function signature(payload: string, secret: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export class WebhookDispatcher {
  readonly deliveries: Delivery[] = [];
  private readonly queues = new Map<
    string,
    { target: WebhookTarget; items: { event: StripeEvent; delivery: Delivery }[]; running: boolean }
  >();
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly retryDelaysMs: number[] = defaultRetryDelaysMs) {}

  /** Queues the events for every target that wants them. */
  enqueue(events: StripeEvent[], targets: WebhookTarget[]): void {
    if (this.closed) return;
    for (const target of targets) {
      const key = `${target.url}\n${target.secret}`;
      let queue = this.queues.get(key);
      if (!queue) {
        queue = { target, items: [], running: false };
        this.queues.set(key, queue);
      }
      for (const event of events) {
        if (!target.events.includes('*') && !target.events.includes(event.type)) continue;
        const delivery: Delivery = {
          event: event.id,
          type: event.type,
          url: target.url,
          status: 'pending',
          attempts: 0,
          lastStatus: null,
          lastError: null,
          deliveredAt: null,
        };
        this.deliveries.push(delivery);
        queue.items.push({ event, delivery });
      }
      void this.run(queue);
    }
  }

  private async run(queue: {
    target: WebhookTarget;
    items: { event: StripeEvent; delivery: Delivery }[];
    running: boolean;
  }) {
    if (queue.running) return;
    queue.running = true;
    try {
      while (!this.closed && queue.items.length) {
        const { event, delivery } = queue.items[0] as { event: StripeEvent; delivery: Delivery };
        const done = await this.attempt(queue.target, event, delivery);
        if (done || delivery.attempts > this.retryDelaysMs.length) {
          if (!done) delivery.status = 'failed';
          queue.items.shift();
          this.notify();
          continue;
        }
        await this.sleep(this.retryDelaysMs[delivery.attempts - 1] ?? 30_000);
      }
    } finally {
      queue.running = false;
    }
  }

  private async attempt(
    target: WebhookTarget,
    event: StripeEvent,
    delivery: Delivery,
  ): Promise<boolean> {
    const payload = JSON.stringify({ ...event, pending_webhooks: 1 }, null, 2);
    delivery.attempts += 1;
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signature(payload, target.secret, Math.floor(Date.now() / 1000)),
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer().catch(() => undefined);
      delivery.lastStatus = response.status;
      delivery.lastError = response.ok ? null : `HTTP ${response.status}`;
      if (response.ok) {
        delivery.status = 'delivered';
        delivery.deliveredAt = Math.floor(Date.now() / 1000);
      }
      return response.ok;
    } catch (error) {
      delivery.lastStatus = null;
      delivery.lastError =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      return false;
    } finally {
      this.notify();
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.timers.add(timer);
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves once `test` holds for the delivery records (checked after every attempt). */
  waitFor(test: (deliveries: Delivery[]) => boolean, timeoutMs = 10_000): Promise<Delivery[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!test(this.deliveries)) return;
        cleanup();
        resolve(this.deliveries);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`webhook deliveries did not settle: ${JSON.stringify(this.deliveries)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
