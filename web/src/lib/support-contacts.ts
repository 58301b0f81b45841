import { supportContactsSchema } from '@contracts/support/support.schema';
import useSWR from 'swr';
import { apiRequest, domainApi } from './api-client';

/** How to reach support, as the deployment configures it (asked without signing in). */
export function useSupportContacts() {
  return useSWR(
    domainApi('/support/contact'),
    (url: string) => apiRequest(url, { schema: supportContactsSchema, auth: false }),
    { revalidateOnFocus: false },
  );
}
