import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../lib/auth-store';
import { restoreSession } from '../features/auth/api/session';
import { HOME } from './shell/views';
import { PageLoading } from '../components/PageLoading';

const SupportPage = lazy(() => import('../features/auth/components/SupportPage'));

/** Screens for people who are not signed in. */
const signedOutPaths = ['/login', '/signup', '/forgot-password', '/reset-password'];
/** Screens that work either way. */
const openPaths = ['/verify-email', '/auth/callback', '/terms', '/privacy'];

/**
 * The spec's gate, in its order: the support page when flagged; sign-in when not signed in (or
 * still choosing an account); otherwise the app. Addresses survive the detour through sign-in.
 */
export function RootGate() {
  const auth = useAuth();
  const location = useLocation();

  useEffect(() => {
    void restoreSession();
  }, []);

  if (auth.status === 'loading') return <PageLoading fullPage />;
  if (auth.status === 'support') {
    return (
      <Suspense fallback={<PageLoading fullPage />}>
        <SupportPage support={auth.support} />
      </Suspense>
    );
  }
  const path = location.pathname;
  // A payment link's page is for buyers, who have no sign-in; it shows the same to anyone.
  const open = openPaths.includes(path) || path.startsWith('/pay/');
  const signedOutScreen = signedOutPaths.includes(path);
  if (auth.status === 'signed-out' || auth.status === 'select-account') {
    if (signedOutScreen || open) return <Outlet />;
    const next = `${path}${location.search}`;
    const invitation = new URLSearchParams(location.search).get('invitation');
    if (invitation)
      return <Navigate to={`/signup?invitation=${encodeURIComponent(invitation)}`} replace />;
    return (
      <Navigate to={path === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />
    );
  }
  if (signedOutScreen) {
    const next = new URLSearchParams(location.search).get('next');
    return <Navigate to={next && next.startsWith('/') ? next : HOME} replace />;
  }
  return <Outlet />;
}
