import { FluentProvider } from '@fluentui/react-components';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { fetcher } from '../lib/swr';
import { ToastHost } from '../lib/toast';
import { ErrorBoundary } from './ErrorBoundary';
import { router } from './router';
import { ThemePreferenceProvider, useThemePreference } from '../lib/theme';

function ThemedApp() {
  const { theme } = useThemePreference();
  return (
    <FluentProvider theme={theme}>
      <ErrorBoundary>
        <ToastHost>
          <SWRConfig value={{ fetcher, shouldRetryOnError: false, revalidateOnFocus: false }}>
            <RouterProvider router={router} />
          </SWRConfig>
        </ToastHost>
      </ErrorBoundary>
    </FluentProvider>
  );
}

export function App() {
  return (
    <ThemePreferenceProvider>
      <ThemedApp />
    </ThemePreferenceProvider>
  );
}
