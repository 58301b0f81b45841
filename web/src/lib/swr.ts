import type { z } from 'zod';
import { apiRequest } from './api-client';

/** SWR keys are the full URLs; the fetcher is the shared, authenticated client. */
export const fetcher = <T>(url: string) => apiRequest<T>(url);

/** A fetcher that checks the answer against the service's contract. */
export const fetchWith =
  <T>(schema: z.ZodType<T>) =>
  (url: string) =>
    apiRequest(url, { schema });
