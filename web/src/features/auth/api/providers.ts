import { providersResponseSchema } from '@contracts/identity/auth/auth.schema';
import useSWR from 'swr';
import { apiRequest, authApi } from '../../../lib/api-client';

/** Which extra ways to sign in this deployment offers (Microsoft, the demo). */
export function useProviders() {
  return useSWR(authApi('/auth/providers'), (url: string) =>
    apiRequest(url, { auth: false, schema: providersResponseSchema }),
  );
}
