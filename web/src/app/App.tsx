import { FluentProvider } from '@fluentui/react-components';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { fetcher } from '../lib/swr';
import { ToastHost } from '../lib/toast';
import { ErrorBoundary } from './ErrorBoundary';
import { featureSlots } from './feature-slots';
import { FeatureSlotsProvider } from '../lib/feature-slots';
import { router } from './router';
import { ThemePreferenceProvider, useThemePreference } from '../lib/theme';

function ThemedApp() {
  const { theme } = useThemePreference();
  return (
    <FluentProvider theme={theme}>
      <ErrorBoundary>
        <ToastHost>
          <SWRConfig value={{ fetcher, shouldRetryOnError: false, revalidateOnFocus: false }}>
            <FeatureSlotsProvider value={featureSlots}>
              <RouterProvider router={router} />
            </FeatureSlotsProvider>
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
