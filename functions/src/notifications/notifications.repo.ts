import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository } from '../platform/repo.js';

export interface NotificationRecord {
  id: string;
  accountId: string;
  userId: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
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
