import {
  apiKeyCreatedSchema,
  apiKeyListSchema,
  apiKeySchema,
  type ApiKeyCreate,
} from '@contracts/api-keys/api-keys.schema';
import useSWR, { useSWRConfig } from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

const listKey = domainApi('/api-keys');

export const useApiKeys = () => useSWR(listKey, fetchWith(apiKeyListSchema));

/** Creating answers the key once; both calls refresh the list. */
export function useApiKeyActions() {
  const { mutate } = useSWRConfig();
  return {
    create: async (body: ApiKeyCreate) => {
      const created = await apiRequest(listKey, {
        method: 'POST',
        body,
        schema: apiKeyCreatedSchema,
      });
      await mutate(listKey);
      return created;
    },
    revoke: async (id: string) => {
      const revoked = await apiRequest(domainApi(`/api-keys/${encodeURIComponent(id)}`), {
        method: 'DELETE',
        schema: apiKeySchema,
      });
      await mutate(listKey);
      return revoked;
    },
  };
}
