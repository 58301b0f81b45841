import { container } from '../../platform/cosmos.js';
import { isConflict } from '../../platform/cosmos-errors.js';
import { conflict } from '../../platform/errors.js';
import { deleteAll, deleteIfPresent, type Stored } from '../../platform/repo.js';
import type { UserIndexRecord, UserRecord } from './identity.model.js';
import { readItem } from './read-item.js';

/** People are global (one person can belong to several accounts): partitioned by their own id. */
const users = () => container('users');

const emailKey = (email: string) => `email:${email.toLowerCase()}`;
const externalKey = (tenantId: string, subject: string) => `ext:microsoft:${tenantId}:${subject}`;

const readOrUndefined = <T>(id: string) => readItem<T>(users(), id);

const release = (key: string) =>
  users()
    .item(key, key)
    .delete()
    .catch(() => undefined);

async function claim(index: UserIndexRecord): Promise<void> {
  try {
    await users().items.create(index);
  } catch (error) {
    if (isConflict(error)) throw conflict('An account with this email already exists');
    throw error;
  }
}

export const usersRepo = {
  find: (userId: string) => readOrUndefined<UserRecord>(userId),

  async findByEmail(email: string): Promise<Stored<UserRecord> | undefined> {
    const index = await readOrUndefined<UserIndexRecord>(emailKey(email));
    return index ? readOrUndefined<UserRecord>(index.userId) : undefined;
  },

  async findByExternal(tenantId: string, subject: string): Promise<Stored<UserRecord> | undefined> {
    const index = await readOrUndefined<UserIndexRecord>(externalKey(tenantId, subject));
    return index ? readOrUndefined<UserRecord>(index.userId) : undefined;
  },

  async findMany(userIds: string[]): Promise<Stored<UserRecord>[]> {
    if (!userIds.length) return [];
    const { resources } = await users()
      .items.query<Stored<UserRecord>>({
        query: "SELECT * FROM c WHERE c.type = 'user' AND ARRAY_CONTAINS(@ids, c.id)",
        parameters: [{ name: '@ids', value: userIds }],
      })
      .fetchAll();
    return resources;
  },

  /**
   * Claims the email first, so two sign-ups with one address cannot both succeed, then writes the
   * user. If the user cannot be written the claim is released: no half-made user stays behind.
   */
  async create(user: UserRecord): Promise<Stored<UserRecord>> {
    const index: UserIndexRecord = {
      id: emailKey(user.email),
      type: 'emailIndex',
      userId: user.id,
    };
    await claim(index);
    try {
      const { resource } = await users().items.create(user);
      return resource as Stored<UserRecord>;
    } catch (error) {
      await release(index.id);
      throw error;
    }
  },

  /** Replaces only if nobody changed the user since `etag` was read; otherwise 412. */
  async replace(user: UserRecord, etag: string): Promise<Stored<UserRecord>> {
    const { resource } = await users()
      .item(user.id, user.id)
      .replace<UserRecord>(
        { ...user, updatedAt: new Date().toISOString() },
        { accessCondition: { type: 'IfMatch', condition: etag } },
      );
    return resource as unknown as Stored<UserRecord>;
  },

  /** Records a sign-in without If-Match: two sign-ins at once must not refuse each other. */
  async touchLogin(userId: string): Promise<Stored<UserRecord>> {
    const { resource } = await users()
      .item(userId, userId)
      .patch<UserRecord>([{ op: 'set', path: '/lastLoginAt', value: new Date().toISOString() }]);
    return resource as unknown as Stored<UserRecord>;
  },

  /** Moves the user to a new email: claim the new one, update the user, release the old one. */
  async changeEmail(user: Stored<UserRecord>, newEmail: string): Promise<Stored<UserRecord>> {
    const index: UserIndexRecord = { id: emailKey(newEmail), type: 'emailIndex', userId: user.id };
    await claim(index);
    let updated: Stored<UserRecord>;
    try {
      updated = await usersRepo.replace(
        { ...user, email: newEmail, emailVerified: false },
        user._etag,
      );
    } catch (error) {
      await release(index.id);
      throw error;
    }
    await release(emailKey(user.email));
    return updated;
  },

  /** Removes a user and their email claim (undoing a sign-up that could not finish). */
  async remove(user: UserRecord): Promise<void> {
    await release(user.id);
    await release(emailKey(user.email));
  },

  /** Removes a user for good: the claims on their email and external sign-ins, then the record. */
  async erase(userId: string): Promise<void> {
    await deleteAll(users(), {
      query: 'SELECT c.id, c.id AS pk FROM c WHERE c.userId = @userId',
      parameters: [{ name: '@userId', value: userId }],
    });
    await deleteIfPresent(users(), userId, userId);
  },

  async linkExternal(tenantId: string, subject: string, userId: string): Promise<void> {
    const index: UserIndexRecord = {
      id: externalKey(tenantId, subject),
      type: 'externalIndex',
      userId,
    };
    await users().items.upsert(index);
  },
};
