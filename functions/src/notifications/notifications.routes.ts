import { z } from 'zod';
import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import {
  notificationListSchema,
  notificationQuerySchema,
  notificationSchema,
  readAllResultSchema,
  unreadCountSchema,
} from './notifications.schema.js';
import {
  dismiss,
  listNotifications,
  markAllRead,
  markRead,
  unreadCount,
} from './notifications.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** Each person's own notifications in the current account; anyone signed in has theirs. */
export const notificationFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'notifications-list',
      route: 'notifications',
      methods: ['GET'],
      permission: 'authenticated',
      query: notificationQuerySchema,
      response: notificationListSchema,
      handler: async ({ ctx, query }) => ({
        json: await listNotifications(ctx, query),
      }),
    }),
    httpRoute({
      name: 'notifications-unread-count',
      route: 'notifications/unread-count',
      methods: ['GET'],
      permission: 'authenticated',
      response: unreadCountSchema,
      handler: async ({ ctx }) => ({
        json: { unreadCount: await unreadCount(ctx) },
      }),
    }),
    httpRoute({
      name: 'notifications-read-all',
      route: 'notifications/read-all',
      methods: ['POST'],
      permission: 'authenticated',
      response: readAllResultSchema,
      handler: async ({ ctx }) => ({
        json: { updated: await markAllRead(ctx) },
      }),
    }),
    httpRoute({
      name: 'notifications-read',
      route: 'notifications/{id}/read',
      methods: ['POST'],
      permission: 'authenticated',
      params: idParams,
      response: notificationSchema,
      handler: async ({ ctx, params }) => ({
        json: await markRead(ctx, params.id),
      }),
    }),
    httpRoute({
      name: 'notifications-dismiss',
      route: 'notifications/{id}',
      methods: ['DELETE'],
      permission: 'authenticated',
      params: idParams,
      handler: async ({ ctx, params }) => {
        await dismiss(ctx, params.id);
        return { status: 204 };
      },
    }),
  ],
};
