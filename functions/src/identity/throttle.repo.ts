import { container } from '../platform/cosmos.js';
import type { Stored } from '../platform/repo.js';
import type { ThrottleRecord } from './identity.model.js';

const throttle = () => container('throttle');

export const throttleRepo = {
  async find(id: string): Promise<Stored<ThrottleRecord> | undefined> {
    try {
      const { resource } = await throttle().item(id, id).read<Stored<ThrottleRecord>>();
      return resource;
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return undefined;
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
        if ((error as { code?: unknown }).code !== 404) throw error;
      });
  },
};
