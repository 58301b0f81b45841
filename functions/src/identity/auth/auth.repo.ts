import { container } from '../../platform/cosmos.js';
import { isConflict, isNotFound, isStale } from '../../platform/cosmos-errors.js';
import type { ThrottleRecord } from '../shared/identity.model.js';
import { readItem } from '../shared/read-item.js';

/** Failed sign-in counts, one record per email address, device or client address. */
const throttle = () => container('throttle');

const MAX_TRIES = 5;

async function find(id: string) {
  return readItem<ThrottleRecord>(throttle(), id);
}

export const throttleRepo = {
  find,
  /**
   * Counts one failure: a new record when there is none or the old one has `lapsed`, otherwise an
   * atomic increment, so failures sent at the same moment are all counted.
   */
  async addFailure(
    id: string,
    at: Date,
    lapsed: (record: ThrottleRecord) => boolean,
  ): Promise<void> {
    const now = at.toISOString();
    const fresh: ThrottleRecord = { id, failures: 1, firstFailureAt: now, lastFailureAt: now };
    for (let tries = 1; ; tries += 1) {
      const existing = await find(id);
      try {
        if (!existing) await throttle().items.create(fresh);
        else if (lapsed(existing)) {
          await throttle()
            .item(id, id)
            .replace(fresh, { accessCondition: { type: 'IfMatch', condition: existing._etag } });
        } else {
          await throttle()
            .item(id, id)
            .patch([
              { op: 'incr', path: '/failures', value: 1 },
              { op: 'set', path: '/lastFailureAt', value: now },
            ]);
        }
        return;
      } catch (error) {
        // Another failure (or a sign-in's clear) got there first: count on top of what it left.
        if (tries >= MAX_TRIES || !(isConflict(error) || isStale(error) || isNotFound(error))) {
          throw error;
        }
      }
    }
  },
  async clear(id: string): Promise<void> {
    await throttle()
      .item(id, id)
      .delete()
      .catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
  },
};
