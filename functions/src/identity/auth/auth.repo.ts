import { container } from '../../platform/cosmos.js';
import { isNotFound } from '../../platform/cosmos-errors.js';
import type { ThrottleRecord } from '../shared/identity.model.js';
import { readItem } from '../shared/read-item.js';

/** Failed sign-in counts, one record per email address or client address. */
const throttle = () => container('throttle');

export const throttleRepo = {
  find: (id: string) => readItem<ThrottleRecord>(throttle(), id),
  async save(record: ThrottleRecord): Promise<void> {
    await throttle().items.upsert(record);
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
