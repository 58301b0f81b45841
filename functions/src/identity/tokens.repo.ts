import { container } from '../platform/cosmos.js';
import type { Stored } from '../platform/repo.js';
import { sha256 } from '../platform/secrets.js';
import type { OneTimeTokenRecord } from './identity.model.js';

const tokens = () => container('tokens');

/** Single-use tokens (invitations, password resets, email checks, OAuth state), kept hashed. */
export const tokensRepo = {
  async create(token: string, record: Omit<OneTimeTokenRecord, 'id'>): Promise<void> {
    await tokens().items.create<OneTimeTokenRecord>({ ...record, id: sha256(token) });
  },

  async find(token: string): Promise<Stored<OneTimeTokenRecord> | undefined> {
    const id = sha256(token);
    try {
      const { resource } = await tokens().item(id, id).read<Stored<OneTimeTokenRecord>>();
      return resource;
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return undefined;
      throw error;
    }
  },

  /** The token's record when it exists, is for this purpose, is unspent and has not expired. */
  async findUsable(
    token: string,
    purpose: OneTimeTokenRecord['purpose'],
  ): Promise<Stored<OneTimeTokenRecord> | undefined> {
    const record = await tokensRepo.find(token);
    const usable =
      record &&
      record.purpose === purpose &&
      !record.usedAt &&
      Date.parse(record.expiresAt) >= Date.now();
    return usable ? record : undefined;
  },

  /**
   * Marks the token used, only if nobody else did first (If-Match): of two concurrent uses, one
   * wins and the other is told the token is spent.
   */
  async markUsed(record: Stored<OneTimeTokenRecord>): Promise<boolean> {
    try {
      await tokens()
        .item(record.id, record.id)
        .replace(
          { ...record, usedAt: new Date().toISOString() },
          { accessCondition: { type: 'IfMatch', condition: record._etag } },
        );
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 412) return false;
      throw error;
    }
  },

  /** Makes a spent token usable again, when what it was spent on could not be finished. */
  async restore(record: Stored<OneTimeTokenRecord>): Promise<void> {
    await tokens()
      .item(record.id, record.id)
      .replace(
        { ...record, usedAt: null },
        { accessCondition: { type: 'IfMatch', condition: record._etag } },
      );
  },

  /** Spends every unused token of a purpose for a user, e.g. older reset links. */
  async revokeFor(userId: string, purpose: OneTimeTokenRecord['purpose']): Promise<void> {
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
    await Promise.all(resources.map((record) => tokensRepo.markUsed(record)));
  },
};
