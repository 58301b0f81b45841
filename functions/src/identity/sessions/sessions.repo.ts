import { container } from '../../platform/cosmos.js';
import { isStale } from '../../platform/cosmos-errors.js';
import { deleteAll, type Stored } from '../../platform/repo.js';
import type {
  OneTimeTokenRecord,
  RefreshTokenRecord,
  SessionRecord,
} from '../shared/identity.model.js';
import { readItem } from '../shared/read-item.js';

const sessions = () => container('sessions');
const tokens = () => container('tokens');

/** Sessions and their refresh tokens, partitioned by the person they belong to. */
export const sessionsRepo = {
  async findSession(userId: string, sessionId: string) {
    const found = await readItem<SessionRecord>(sessions(), sessionId, userId);
    return found?.type === 'session' ? found : undefined;
  },
  async findRefresh(userId: string, tokenId: string) {
    const found = await readItem<RefreshTokenRecord>(sessions(), tokenId, userId);
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
  /** Every session and refresh token of a person, gone. */
  eraseAllOf(userId: string): Promise<number> {
    return deleteAll(
      sessions(),
      {
        query: 'SELECT c.id, c.userId AS pk FROM c WHERE c.userId = @userId',
        parameters: [{ name: '@userId', value: userId }],
      },
      { partitionKey: userId },
    );
  },
};

/** One-time tokens, each its own partition; read and written only by one-time-tokens.service. */
export const oneTimeTokensRepo = {
  find: (id: string) => readItem<OneTimeTokenRecord>(tokens(), id),

  async create(record: OneTimeTokenRecord): Promise<void> {
    await tokens().items.create(record);
  },

  /** Writes the token in place of whatever had its id (a code sent again). */
  async put(record: OneTimeTokenRecord): Promise<void> {
    await tokens().items.upsert(record);
  },

  /**
   * Writes a changed token only if nobody changed it since it was read: of two concurrent uses
   * one wins, and the other is told (false).
   */
  async replaceIfUnchanged(record: Stored<OneTimeTokenRecord>): Promise<boolean> {
    try {
      await tokens()
        .item(record.id, record.id)
        .replace(record, { accessCondition: { type: 'IfMatch', condition: record._etag } });
      return true;
    } catch (error) {
      if (isStale(error)) return false;
      throw error;
    }
  },

  /** Every token issued to a person or for an account (invitations), gone. */
  eraseOf(owner: { userId: string; accountId: string }): Promise<number> {
    return deleteAll(tokens(), {
      query: 'SELECT c.id, c.id AS pk FROM c WHERE c.userId = @userId OR c.accountId = @accountId',
      parameters: [
        { name: '@userId', value: owner.userId },
        { name: '@accountId', value: owner.accountId },
      ],
    });
  },

  async unspentOf(
    userId: string,
    purpose: OneTimeTokenRecord['purpose'],
  ): Promise<Stored<OneTimeTokenRecord>[]> {
    const { resources } = await tokens()
      .items.query<Stored<OneTimeTokenRecord>>({
        query:
          'SELECT * FROM c WHERE c.userId = @userId AND c.purpose = @purpose AND IS_NULL(c.usedAt)',
        parameters: [
          { name: '@userId', value: userId },
          { name: '@purpose', value: purpose },
        ],
      })
      .fetchAll();
    return resources;
  },
};
