import { container, type ContainerDefinition } from '../platform/cosmos.js';
import { isConflict, isNotFound, isStale } from '../platform/cosmos-errors.js';
import { deleteAll, deleteIfPresent, TenantRepository, type Stored } from '../platform/repo.js';

/** The demo sandboxes that exist, and how many each client address started lately. */
export const sandboxContainer: ContainerDefinition = { id: 'sandboxes', partitionKey: '/id' };

/** One demo sandbox: written before anything of it exists, removed after everything of it. */
export interface SandboxRecord {
  /** The sandbox account's id. */
  id: string;
  type: 'sandbox';
  visitorUserId: string;
  visitorEmail: string;
  createdAt: string;
  expiresAt: string;
}

/** The sandboxes one client address started in the current window. */
export interface StartsRecord {
  /** `starts:{hash of the address}` */
  id: string;
  type: 'starts';
  at: string[];
  lastAt: string;
}

const sandboxes = () => container(sandboxContainer.id);

export const sandboxRepo = {
  async create(record: SandboxRecord): Promise<void> {
    await sandboxes().items.create(record);
  },

  /** Sandboxes whose time is up (a few at most per run: they expire as they were started). */
  async expired(now: string): Promise<SandboxRecord[]> {
    const { resources } = await sandboxes()
      .items.query<SandboxRecord>({
        query: "SELECT * FROM c WHERE c.type = 'sandbox' AND c.expiresAt <= @now",
        parameters: [{ name: '@now', value: now }],
      })
      .fetchAll();
    return resources;
  },

  remove: (id: string) => deleteIfPresent(sandboxes(), id, id),

  async starts(id: string): Promise<Stored<StartsRecord> | undefined> {
    try {
      const { resource } = await sandboxes().item(id, id).read<Stored<StartsRecord>>();
      return resource;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  },

  /**
   * Writes an address's starts only if nobody changed them since they were read (`etag`), or
   * creates them when there were none; false when another start got there first.
   */
  async saveStarts(record: StartsRecord, etag: string | undefined): Promise<boolean> {
    try {
      if (etag) {
        await sandboxes()
          .item(record.id, record.id)
          .replace(record, { accessCondition: { type: 'IfMatch', condition: etag } });
      } else {
        await sandboxes().items.create(record);
      }
      return true;
    } catch (error) {
      if (isStale(error) || isConflict(error)) return false;
      throw error;
    }
  },

  /** Forgets addresses whose last start is before `before`. */
  forgetStartsBefore: (before: string) =>
    deleteAll(sandboxes(), {
      query: "SELECT c.id, c.id AS pk FROM c WHERE c.type = 'starts' AND c.lastAt < @before",
      parameters: [{ name: '@before', value: before }],
    }),

  /** Every document of the sandbox's account in one account-partitioned container. */
  purgeTenant: (containerId: string, accountId: string) =>
    new TenantRepository(containerId).purge({ accountId }),
};
