import {
  Button,
  Menu,
  MenuItemRadio,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Tooltip,
} from '@fluentui/react-components';
import { DarkThemeRegular, WeatherMoonRegular, WeatherSunnyRegular } from '@fluentui/react-icons';
import { useThemePreference, type ThemePreference } from '../lib/theme';

const labels: Record<ThemePreference, string> = {
  system: 'Use system setting',
  light: 'Light',
  dark: 'Dark',
};

export function ThemeMenu({ className }: { className?: string }) {
  const { preference, mode, setPreference } = useThemePreference();
  return (
    <Menu
      checkedValues={{ theme: [preference] }}
      onCheckedValueChange={(_, data) => setPreference(data.checkedItems[0] as ThemePreference)}
    >
      <MenuTrigger disableButtonEnhancement>
        <Tooltip content={`Theme: ${labels[preference]}`} relationship="label">
          <Button
            className={className}
            appearance="subtle"
            icon={mode === 'dark' ? <WeatherMoonRegular /> : <WeatherSunnyRegular />}
          />
        </Tooltip>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {(Object.keys(labels) as ThemePreference[]).map((value) => (
            <MenuItemRadio
              key={value}
              name="theme"
              value={value}
              icon={value === 'system' ? <DarkThemeRegular /> : undefined}
            >
              {labels[value]}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
