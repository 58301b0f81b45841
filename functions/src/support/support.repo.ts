import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository } from '../platform/repo.js';

export interface TicketRecord {
  id: string;
  accountId: string;
  reference: string;
  userId: string;
  email: string;
  name: string;
  subject: string;
  category: string;
  description: string;
  status: 'open' | 'closed';
  createdAt: string;
}

export const supportContainer: ContainerDefinition = {
  id: 'support',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/userId', order: 'ascending' },
      { path: '/createdAt', order: 'descending' },
    ],
  ],
};

export const ticketsRepo = new TenantRepository<TicketRecord>(supportContainer.id);
