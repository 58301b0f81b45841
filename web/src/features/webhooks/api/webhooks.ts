import {
  deliveryListSchema,
  deliverySchema,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
  type WebhookInput,
} from '@contracts/webhooks/webhooks.schema';
import useSWR, { useSWRConfig } from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

const listKey = domainApi('/webhooks');
const one = (id: string) => domainApi(`/webhooks/${encodeURIComponent(id)}`);
const deliveriesKey = (id: string) => `${one(id)}/deliveries?limit=50`;

export const useWebhooks = () => useSWR(listKey, fetchWith(webhookListSchema));

/**
 * An endpoint's delivery log; polled while a delivery is about to be sent (a retry may be hours
 * away, so those are not waited for).
 */
export const useDeliveries = (id: string | null) =>
  useSWR(id ? deliveriesKey(id) : null, fetchWith(deliveryListSchema), {
    refreshInterval: (data) =>
      data?.deliveries.some((delivery) => ['pending', 'sending'].includes(delivery.status))
        ? 2000
        : 0,
  });

/** The calls that change webhooks; each refreshes what it affects. */
export function useWebhookActions() {
  const { mutate } = useSWRConfig();
  const refreshList = () => mutate(listKey);
  return {
    create: async (body: WebhookInput) => {
      const created = await apiRequest(listKey, {
        method: 'POST',
        body,
        schema: webhookWithSecretSchema,
      });
      await refreshList();
      return created;
    },
    update: async (id: string, etag: string, body: WebhookInput) => {
      const saved = await apiRequest(one(id), {
        method: 'PUT',
        body,
        headers: { 'if-match': `"${etag}"` },
        schema: webhookSchema,
      });
      await refreshList();
      return saved;
    },
    remove: async (id: string) => {
      await apiRequest(one(id), { method: 'DELETE' });
      await refreshList();
    },
    rotateSecret: async (id: string) => {
      const rotated = await apiRequest(`${one(id)}/rotate-secret`, {
        method: 'POST',
        schema: webhookWithSecretSchema,
      });
      await refreshList();
      return rotated;
    },
    test: async (id: string) => {
      const delivery = await apiRequest(`${one(id)}/test`, {
        method: 'POST',
        schema: deliverySchema,
      });
      await mutate(deliveriesKey(id));
      return delivery;
    },
    resend: async (id: string, deliveryId: string) => {
      const delivery = await apiRequest(
        `${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
        { method: 'POST', schema: deliverySchema },
      );
      await mutate(deliveriesKey(id));
      return delivery;
    },
  };
}
