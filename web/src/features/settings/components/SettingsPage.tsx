import { RoutedTabsPage, type RoutedTab } from '../../../components/RoutedTabsPage';

/** Account Settings; the tabs come from the app, as some belong to other features. */
export default function SettingsPage({ tabs }: { tabs: RoutedTab[] }) {
  return (
    <RoutedTabsPage
      title="Account Settings"
      base="/settings"
      label="Settings sections"
      tabs={tabs}
      fallbackTab="configuration"
    />
  );
}
