import { RoutedTabsPage, type RoutedTab } from '../../../components/RoutedTabsPage';

/**
 * Account Settings; the tabs come from the app, as some belong to other features. The bare
 * address, and a tab that is not offered, lead to the first tab.
 */
export default function SettingsPage({ tabs }: { tabs: RoutedTab[] }) {
  return (
    <RoutedTabsPage
      title="Account Settings"
      base="/settings"
      label="Settings sections"
      tabs={tabs}
    />
  );
}
