import { apiRequest } from './api-client';

/** SWR keys are the full URLs; the fetcher is the shared, authenticated client. */
export const fetcher = <T>(url: string) => apiRequest<T>(url);
