import { portalViewSchema } from '@contracts/settings/settings.schema';
import useSWR from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';

/** A payment link's page, as anyone holding the link may read it: no sign-in, no token sent. */
export const usePortalView = (token: string | undefined) =>
  useSWR(token ? domainApi(`/portal/${encodeURIComponent(token)}`) : null, (url: string) =>
    apiRequest(url, { auth: false, schema: portalViewSchema }),
  );
