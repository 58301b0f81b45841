import { container } from '../platform/cosmos.js';
import type { Stored } from '../platform/repo.js';
import type { RefreshTokenRecord, SessionRecord } from './identity.model.js';

const sessions = () => container('sessions');

async function read<T>(userId: string, id: string): Promise<Stored<T> | undefined> {
  try {
    const { resource } = await sessions().item(id, userId).read<Stored<T>>();
    return resource;
  } catch (error) {
    if ((error as { code?: unknown }).code === 404) return undefined;
    throw error;
  }
}

/** Sessions and their refresh tokens, partitioned by the person they belong to. */
export const sessionsRepo = {
  async findSession(userId: string, sessionId: string) {
    const found = await read<SessionRecord>(userId, sessionId);
    return found?.type === 'session' ? found : undefined;
  },
  async findRefresh(userId: string, tokenId: string) {
    const found = await read<RefreshTokenRecord>(userId, tokenId);
    return found?.type === 'refresh' ? found : undefined;
  },
  async create<T extends SessionRecord | RefreshTokenRecord>(record: T): Promise<Stored<T>> {
    const { resource } = await sessions().items.create(record);
    return resource as Stored<T>;
  },
  async replace<T extends SessionRecord | RefreshTokenRecord>(
    record: Stored<T>,
  ): Promise<Stored<T>> {
    const { resource } = await sessions()
      .item(record.id, record.userId)
      .replace<T>(record, { accessCondition: { type: 'IfMatch', condition: record._etag } });
    return resource as unknown as Stored<T>;
  },
  /** Changes some fields without If-Match, for updates that may race harmlessly (last seen). */
  async patch(
    userId: string,
    id: string,
    changes: Partial<SessionRecord>,
  ): Promise<Stored<SessionRecord>> {
    const { resource } = await sessions()
      .item(id, userId)
      .patch<SessionRecord>(
        Object.entries(changes).map(([key, value]) => ({
          op: 'set' as const,
          path: `/${key}`,
          value,
        })),
      );
    return resource as unknown as Stored<SessionRecord>;
  },
  async sessionsOf(userId: string): Promise<Stored<SessionRecord>[]> {
    const { resources } = await sessions()
      .items.query<Stored<SessionRecord>>(
        {
          query: "SELECT * FROM c WHERE c.userId = @userId AND c.type = 'session'",
          parameters: [{ name: '@userId', value: userId }],
        },
        { partitionKey: userId },
      )
      .fetchAll();
    return resources;
  },
};
