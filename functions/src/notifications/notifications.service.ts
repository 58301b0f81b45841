import { randomUUID } from 'node:crypto';
import { notFound } from '../platform/errors.js';
import type { TenantScope } from '../platform/repo.js';
import type { NotificationView } from './notifications.schema.js';
import { notificationsRepo, type NotificationRecord } from './notifications.repo.js';

const VISIBLE = 'c.userId = @userId AND IS_NULL(c.dismissedAt)';

const toView = (record: NotificationRecord): NotificationView => ({
  id: record.id,
  kind: record.kind,
  title: record.title,
  body: record.body,
  link: record.link,
  createdAt: record.createdAt,
  readAt: record.readAt,
});

/** Leaves a notification for one person in one account (other features call this). */
export async function notify(
  accountId: string,
  userIds: string[],
  message: { kind: string; title: string; body: string; link?: string },
): Promise<void> {
  const createdAt = new Date().toISOString();
  await Promise.all(
    [...new Set(userIds)].map((userId) =>
      notificationsRepo.create(
        { accountId },
        {
          id: randomUUID(),
          userId,
          kind: message.kind,
          title: message.title,
          body: message.body,
          link: message.link ?? null,
          createdAt,
          readAt: null,
          dismissedAt: null,
        },
      ),
    ),
  );
}

export async function unreadCount(scope: TenantScope, userId: string): Promise<number> {
  return notificationsRepo.count(scope, {
    where: `${VISIBLE} AND IS_NULL(c.readAt)`,
    parameters: [{ name: '@userId', value: userId }],
  });
}

export async function listNotifications(
  scope: TenantScope,
  userId: string,
  query: { status: 'all' | 'unread'; limit: number; continuationToken?: string | undefined },
) {
  const page = await notificationsRepo.page(scope, {
    where: query.status === 'unread' ? `${VISIBLE} AND IS_NULL(c.readAt)` : VISIBLE,
    parameters: [{ name: '@userId', value: userId }],
    orderBy: 'c.userId ASC, c.createdAt DESC',
    pageSize: query.limit,
    ...(query.continuationToken ? { continuationToken: query.continuationToken } : {}),
  });
  return {
    notifications: page.items.map(toView),
    unreadCount: await unreadCount(scope, userId),
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  };
}

async function own(scope: TenantScope, userId: string, id: string) {
  const found = await notificationsRepo.find(scope, id);
  // Someone else's notification is as absent as a missing one.
  if (!found || found.userId !== userId || found.dismissedAt)
    throw notFound('Notification not found');
  return found;
}

export async function markRead(scope: TenantScope, userId: string, id: string) {
  const found = await own(scope, userId, id);
  if (found.readAt) return toView(found);
  return toView(
    await notificationsRepo.replace(
      scope,
      { ...found, readAt: new Date().toISOString() },
      found._etag,
    ),
  );
}

export async function markAllRead(scope: TenantScope, userId: string): Promise<number> {
  const unread = await notificationsRepo.all(scope, {
    where: `${VISIBLE} AND IS_NULL(c.readAt)`,
    parameters: [{ name: '@userId', value: userId }],
  });
  const now = new Date().toISOString();
  await Promise.all(
    unread.map((record) =>
      notificationsRepo.replace(scope, { ...record, readAt: now }, record._etag),
    ),
  );
  return unread.length;
}

export async function dismiss(scope: TenantScope, userId: string, id: string): Promise<void> {
  const found = await own(scope, userId, id);
  await notificationsRepo.replace(
    scope,
    { ...found, dismissedAt: new Date().toISOString() },
    found._etag,
  );
}
