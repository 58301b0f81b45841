import { FluentProvider } from '@fluentui/react-components';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { ToastHost } from '../lib/toast';
import { router } from './router';
import { ThemePreferenceProvider, useThemePreference } from './theme';

function ThemedApp() {
  const { theme } = useThemePreference();
  return (
    <FluentProvider theme={theme}>
      <ToastHost>
        <SWRConfig value={{ shouldRetryOnError: false }}>
          <RouterProvider router={router} />
        </SWRConfig>
      </ToastHost>
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
