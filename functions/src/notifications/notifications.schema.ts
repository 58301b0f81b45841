import { z } from 'zod';

/**
 * What a notification asks its reader to act on, so the bell can offer the action itself: a
 * settlement waiting for approval is decided from the notification.
 */
export const notificationSubjectSchema = z.object({
  type: z.literal('settlement_approval'),
  id: z.string(),
});
export type NotificationSubject = z.infer<typeof notificationSubjectSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  subject: notificationSubjectSchema.nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationView = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int(),
  continuationToken: z.string().optional(),
});

export const notificationQuerySchema = z.object({
  status: z.enum(['all', 'unread']).default('all'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  continuationToken: z.string().max(4000).optional(),
});

export const unreadCountSchema = z.object({ unreadCount: z.number().int() });
export const readAllResultSchema = z.object({ updated: z.number().int() });
