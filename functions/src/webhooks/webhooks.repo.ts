import type { ContainerDefinition } from '../platform/cosmos.js';
import { container } from '../platform/cosmos.js';
import { deleteAll, TenantRepository, type AccountScope } from '../platform/repo.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookEvent } from './webhooks.schema.js';

export interface EndpointRecord {
  id: string;
  accountId: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  /** The signing secret, sealed (AES-GCM): it is needed to sign, so it cannot be hashed. */
  secret: string;
  secretHint: string;
  /** After a rotation, the previous secret signs too for a day, so receivers can switch over. */
  previousSecret: string | null;
  previousSecretUntil: string | null;
  createdAt: string;
  createdBy: { userId: string; name: string };
  updatedAt: string;
}

export interface DeliveryRecord {
  id: string;
  accountId: string;
  webhookId: string;
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  /** When a worker took the delivery to send it (status `sending`). */
  claimedAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  lastError: string | null;
  resendOf: string | null;
  /** A test delivery is tried once, at once, and never retried. */
  retries: boolean;
}

export const webhookEndpointsContainer: ContainerDefinition = {
  id: 'webhookEndpoints',
  partitionKey: '/accountId',
};

export const webhookDeliveriesContainer: ContainerDefinition = {
  id: 'webhookDeliveries',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/webhookId', order: 'ascending' },
      { path: '/createdAt', order: 'descending' },
    ],
  ],
};

export const endpointsRepo = new TenantRepository<EndpointRecord>(webhookEndpointsContainer.id);
export const deliveriesRepo = new TenantRepository<DeliveryRecord>(webhookDeliveriesContainer.id);

/** The account's enabled endpoints that subscribe to an event. */
export const subscribedEndpoints = (scope: AccountScope, type: string) =>
  endpointsRepo.all(scope, {
    where: 'c.enabled = true AND ARRAY_CONTAINS(c.events, @type)',
    parameters: [{ name: '@type', value: type }],
  });

/** One endpoint's deliveries, newest first. */
export const deliveriesPage = (
  scope: AccountScope,
  webhookId: string,
  page: { pageSize: number; continuationToken?: string | undefined },
) =>
  deliveriesRepo.page(scope, {
    where: 'c.webhookId = @webhookId',
    parameters: [{ name: '@webhookId', value: webhookId }],
    orderBy: 'c.webhookId ASC, c.createdAt DESC',
    pageSize: page.pageSize,
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  });

export const deleteDeliveriesOf = (scope: AccountScope, webhookId: string) =>
  deleteAll(
    container(webhookDeliveriesContainer.id),
    {
      query:
        'SELECT c.id, c.accountId AS pk FROM c WHERE c.accountId = @accountId AND c.webhookId = @webhookId',
      parameters: [
        { name: '@accountId', value: scope.accountId },
        { name: '@webhookId', value: webhookId },
      ],
    },
    { partitionKey: scope.accountId },
  );

/**
 * Deliveries in every account that should have been attempted by now and were not: queued ones
 * whose message was lost, and ones a worker took and never finished.
 */
export async function overdueDeliveries(overdueBefore: string, stuckBefore: string, limit: number) {
  const { resources } = await container(webhookDeliveriesContainer.id)
    .items.query<{ id: string; accountId: string }>({
      query:
        "SELECT TOP @limit c.id, c.accountId FROM c WHERE ((c.status = 'pending' OR c.status = 'retrying') AND c.nextAttemptAt <= @overdue) OR (c.status = 'sending' AND c.claimedAt <= @stuck)",
      parameters: [
        { name: '@limit', value: limit },
        { name: '@overdue', value: overdueBefore },
        { name: '@stuck', value: stuckBefore },
      ],
    })
    .fetchAll();
  return resources;
}
