import { Button } from '@fluentui/react-components';
import { DarkThemeRegular, WeatherMoonRegular, WeatherSunnyRegular } from '@fluentui/react-icons';
import { useThemePreference, type ThemePreference } from '../lib/theme';

const next: Record<ThemePreference, ThemePreference> = {
  system: 'light',
  light: 'dark',
  dark: 'system',
};
const labels: Record<ThemePreference, string> = {
  system: 'system setting',
  light: 'light',
  dark: 'dark',
};

/**
 * The theme switch of the signed-out screens: one button cycling system, light and dark. Lighter
 * than the shell's menu, so the sign-in screen loads less.
 */
export function ThemeToggle() {
  const { preference, setPreference } = useThemePreference();
  const icon =
    preference === 'system' ? (
      <DarkThemeRegular />
    ) : preference === 'light' ? (
      <WeatherSunnyRegular />
    ) : (
      <WeatherMoonRegular />
    );
  return (
    <Button
      appearance="subtle"
      icon={icon}
      aria-label={`Theme: ${labels[preference]}. Switch to ${labels[next[preference]]}.`}
      onClick={() => setPreference(next[preference])}
    />
  );
}
