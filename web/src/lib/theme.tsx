import { webDarkTheme, webLightTheme, type Theme } from '@fluentui/react-components';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';

export type ThemePreference = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'lotwise.theme';
const darkQuery = '(prefers-color-scheme: dark)';

function storedPreference(): ThemePreference {
  const value = localStorage.getItem(STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

interface ThemeState {
  preference: ThemePreference;
  mode: 'light' | 'dark';
  theme: Theme;
  setPreference(preference: ThemePreference): void;
}

const ThemeContext = createContext<ThemeState | undefined>(undefined);

/** Light, dark, or whatever the system uses (the default); the choice is kept in this browser. */
export function ThemePreferenceProvider({ children }: { children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>(storedPreference);
  const [systemDark, setSystemDark] = useState(() => matchMedia(darkQuery).matches);

  useEffect(() => {
    const query = matchMedia(darkQuery);
    const onChange = (event: MediaQueryListEvent) => setSystemDark(event.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const setPreference = useCallback((next: ThemePreference) => {
    if (next === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, next);
    setPreferenceState(next);
  }, []);

  const mode = preference === 'system' ? (systemDark ? 'dark' : 'light') : preference;
  useEffect(() => {
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  const value = useMemo<ThemeState>(
    () => ({
      preference,
      mode,
      theme: mode === 'dark' ? webDarkTheme : webLightTheme,
      setPreference,
    }),
    [preference, mode, setPreference],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useThemePreference(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useThemePreference needs ThemePreferenceProvider');
  return state;
}
