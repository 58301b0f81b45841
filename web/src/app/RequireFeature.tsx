import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSignedIn } from '../lib/auth-store';
import { FEATURE_FALLBACK } from './shell/views';

/**
 * Inventory and Payments need the feature on the account. Opened from the navigation without it,
 * the upgrade offer shows; an address typed or bookmarked without it falls back to bidders.
 */
export function RequireFeature({
  feature,
  offer,
  children,
}: {
  feature: string;
  offer: ReactNode;
  children: ReactNode;
}) {
  const { account } = useSignedIn();
  const location = useLocation();
  const fromNavigation = (location.state as { fromNavigation?: boolean } | null)?.fromNavigation;
  if (account.features.includes(feature)) return <>{children}</>;
  if (fromNavigation) return <>{offer}</>;
  return <Navigate to={FEATURE_FALLBACK} replace />;
}
