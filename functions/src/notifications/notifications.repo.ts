import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository } from '../platform/repo.js';
import type { NotificationSubject } from './notifications.schema.js';

export interface NotificationRecord {
  id: string;
  accountId: string;
  userId: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  /** The record it asks someone to act on; absent on notifications that ask nothing. */
  subject?: NotificationSubject | null;
  createdAt: string;
  readAt: string | null;
  dismissedAt: string | null;
}

export const notificationsContainer: ContainerDefinition = {
  id: 'notifications',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/userId', order: 'ascending' },
      { path: '/createdAt', order: 'descending' },
    ],
  ],
};

export const notificationsRepo = new TenantRepository<NotificationRecord>(
  notificationsContainer.id,
);
