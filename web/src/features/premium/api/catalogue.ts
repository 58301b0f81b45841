import { tiersResponseSchema, type AddOnView } from '@contracts/billing/billing.schema';
import useSWR from 'swr';
import { domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

/** The plans and add-ons on sale, with what they cost (the same key the Plan tab reads). */
export const useCatalogue = () =>
  useSWR(domainApi('/billing/tiers'), fetchWith(tiersResponseSchema));

export type { AddOnView };
