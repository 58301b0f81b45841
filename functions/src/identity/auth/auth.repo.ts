import { container } from '../../platform/cosmos.js';
import { isNotFound } from '../../platform/cosmos-errors.js';
import type { Stored } from '../../platform/repo.js';
import type { ThrottleRecord } from '../shared/identity.model.js';

/** Failed sign-in counts, one record per email address or client address. */
const throttle = () => container('throttle');

export const throttleRepo = {
  async find(id: string): Promise<Stored<ThrottleRecord> | undefined> {
    try {
      const { resource } = await throttle().item(id, id).read<Stored<ThrottleRecord>>();
      return resource;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  },
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
