import { RoutedTabsPage, type RoutedTab } from '../../../components/RoutedTabsPage';
import { SaveAllButton, UnsavedChangesProvider, useDirtyIds } from '../../../lib/unsaved-changes';

const BASE = '/settings';

function SettingsTabs({ tabs }: { tabs: RoutedTab[] }) {
  // A tab holding edits stays mounted while another shows, so Save All Changes can still save it.
  const dirty = useDirtyIds();
  return (
    <RoutedTabsPage
      title="Account Settings"
      base={BASE}
      label="Settings sections"
      tabs={tabs}
      scrollableTabs
      keepMounted={dirty}
      actions={<SaveAllButton />}
    />
  );
}

/**
 * Account Settings; the tabs come from the app, as some belong to other features. The bare
 * address, and a tab that is not offered, lead to the first tab.
 */
export default function SettingsPage({ tabs }: { tabs: RoutedTab[] }) {
  return (
    <UnsavedChangesProvider base={BASE} order={tabs.map((tab) => tab.id)}>
      <SettingsTabs tabs={tabs} />
    </UnsavedChangesProvider>
  );
}
