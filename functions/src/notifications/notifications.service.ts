import { randomUUID } from 'node:crypto';
import { notFound } from '../platform/errors.js';
import type { AccountScope, RequestContext } from '../platform/context.js';
import type { NotificationSubject, NotificationView } from './notifications.schema.js';
import { notificationsRepo, type NotificationRecord } from './notifications.repo.js';

const VISIBLE = 'c.userId = @userId AND IS_NULL(c.dismissedAt)';

const toView = (record: NotificationRecord): NotificationView => ({
  id: record.id,
  kind: record.kind,
  title: record.title,
  body: record.body,
  link: record.link,
  subject: record.subject ?? null,
  createdAt: record.createdAt,
  readAt: record.readAt,
});

/** Leaves a notification for some people in the context's account (other features call this). */
export async function notify(
  ctx: { scope: AccountScope },
  userIds: string[],
  message: {
    kind: string;
    title: string;
    body: string;
    link?: string;
    subject?: NotificationSubject;
  },
): Promise<void> {
  const createdAt = new Date().toISOString();
  await Promise.all(
    [...new Set(userIds)].map((userId) =>
      notificationsRepo.create(ctx.scope, {
        id: randomUUID(),
        userId,
        kind: message.kind,
        title: message.title,
        body: message.body,
        link: message.link ?? null,
        subject: message.subject ?? null,
        createdAt,
        readAt: null,
        dismissedAt: null,
      }),
    ),
  );
}

const mine = (ctx: RequestContext) => [{ name: '@userId', value: ctx.actor.userId }];

/** The caller's own unread notifications in the account. */
export async function unreadCount(ctx: RequestContext): Promise<number> {
  return notificationsRepo.count(ctx.scope, {
    where: `${VISIBLE} AND IS_NULL(c.readAt)`,
    parameters: mine(ctx),
  });
}

export async function listNotifications(
  ctx: RequestContext,
  query: { status: 'all' | 'unread'; limit: number; continuationToken?: string | undefined },
) {
  const page = await notificationsRepo.page(ctx.scope, {
    where: query.status === 'unread' ? `${VISIBLE} AND IS_NULL(c.readAt)` : VISIBLE,
    parameters: mine(ctx),
    orderBy: 'c.userId ASC, c.createdAt DESC',
    pageSize: query.limit,
    ...(query.continuationToken ? { continuationToken: query.continuationToken } : {}),
  });
  return {
    notifications: page.items.map(toView),
    unreadCount: await unreadCount(ctx),
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  };
}

async function own(ctx: RequestContext, id: string) {
  const found = await notificationsRepo.find(ctx.scope, id);
  // Someone else's notification is as absent as a missing one.
  if (!found || found.userId !== ctx.actor.userId || found.dismissedAt)
    throw notFound('Notification not found');
  return found;
}

export async function markRead(ctx: RequestContext, id: string) {
  const found = await own(ctx, id);
  if (found.readAt) return toView(found);
  return toView(
    await notificationsRepo.patch(ctx.scope, id, [
      { op: 'set', path: '/readAt', value: new Date().toISOString() },
    ]),
  );
}

export async function markAllRead(ctx: RequestContext): Promise<number> {
  const unread = await notificationsRepo.all(ctx.scope, {
    select: 'c.id',
    where: `${VISIBLE} AND IS_NULL(c.readAt)`,
    parameters: mine(ctx),
  });
  const now = new Date().toISOString();
  await Promise.all(
    unread.map((record) =>
      notificationsRepo.patch(ctx.scope, record.id, [{ op: 'set', path: '/readAt', value: now }]),
    ),
  );
  return unread.length;
}

export async function dismiss(ctx: RequestContext, id: string): Promise<void> {
  await own(ctx, id);
  await notificationsRepo.patch(ctx.scope, id, [
    { op: 'set', path: '/dismissedAt', value: new Date().toISOString() },
  ]);
}
