import { approvalDecisionSchema, caseSchema } from '@contracts/legal/legal.schema';
import { notificationListSchema } from '@contracts/notifications/notifications.schema';
import useSWR, { useSWRConfig } from 'swr';
import { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';

const listKey = domainApi('/notifications?limit=50');
const countKey = domainApi('/notifications/unread-count');
/** Any cached read of a case or the case list: a decision changes them. */
const casesKeys = (key: unknown) =>
  typeof key === 'string' && (key.includes('/cases/') || key.includes('/listLegalCases'));

export function useUnreadCount() {
  return useSWR(
    countKey,
    (url: string) => apiRequest(url, { schema: z.object({ unreadCount: z.number() }) }),
    {
      refreshInterval: 60_000,
    },
  );
}

export function useNotifications(enabled: boolean) {
  return useSWR(enabled ? listKey : null, (url: string) =>
    apiRequest(url, { schema: notificationListSchema }),
  );
}

/** Mark read, mark all read and dismiss; each refreshes the list and the bell's count. */
export function useNotificationActions() {
  const { mutate } = useSWRConfig();
  const refresh = () => Promise.all([mutate(listKey), mutate(countKey)]);
  return {
    markRead: async (id: string) => {
      await apiRequest(domainApi(`/notifications/${id}/read`), { method: 'POST' });
      await refresh();
    },
    markAllRead: async () => {
      await apiRequest(domainApi('/notifications/read-all'), { method: 'POST' });
      await refresh();
    },
    /** Decides a settlement the notification asks about, then marks the notification read. */
    decideSettlement: async (
      notificationId: string,
      caseId: string,
      decision: z.input<typeof approvalDecisionSchema>,
    ) => {
      await apiRequest(domainApi(`/cases/${encodeURIComponent(caseId)}/approval`), {
        method: 'POST',
        body: approvalDecisionSchema.parse(decision),
        schema: caseSchema,
      });
      await apiRequest(domainApi(`/notifications/${notificationId}/read`), { method: 'POST' });
      await Promise.all([refresh(), mutate(casesKeys)]);
    },
    dismiss: async (id: string) => {
      await apiRequest(domainApi(`/notifications/${id}`), { method: 'DELETE' });
      await refresh();
    },
  };
}
