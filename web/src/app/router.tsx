import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Spinner } from '@fluentui/react-components';
import { AppFrame } from './AppFrame';
import { RouteError } from './ErrorBoundary';

// Each view is its own chunk, so the first screen loads only what it shows.
const SettingsPage = lazy(() => import('../features/settings/components/SettingsPage'));
const NotFoundPage = lazy(() => import('./NotFoundPage'));

const loading = <Spinner label="Loading…" />;

export const router = createBrowserRouter([
  {
    element: <AppFrame />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/settings/configuration" replace /> },
      { path: 'settings', element: <Navigate to="/settings/configuration" replace /> },
      {
        path: 'settings/:tab',
        element: (
          <Suspense fallback={loading}>
            <SettingsPage />
          </Suspense>
        ),
      },
      {
        path: '*',
        element: (
          <Suspense fallback={loading}>
            <NotFoundPage />
          </Suspense>
        ),
      },
    ],
  },
]);
