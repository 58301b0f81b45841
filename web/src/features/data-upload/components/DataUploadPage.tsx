import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { RoutedTabsPage, type RoutedTab } from '../../../components/RoutedTabsPage';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { ConflictsTab } from './ConflictsTab';
import { UploadsTab } from './UploadsTab';

const tabs: RoutedTab[] = [
  { id: 'uploads', label: 'Uploads & Processing', render: () => <UploadsTab /> },
  { id: 'conflicts', label: 'Conflict Resolution', render: () => <ConflictsTab /> },
];

/** The Data Processing Center (`/data-upload/{tab}`, spec 2.7), for those who may import data. */
export default function DataUploadPage() {
  const can = useCan();
  const allowed = can('data:import');
  return (
    <RoutedTabsPage
      title="Data Processing Center"
      base="/data-upload"
      label="Data Processing sections"
      tabs={allowed ? tabs : tabs.map((tab) => ({ ...tab, render: () => null }))}
      indexTab="uploads"
      notice={
        allowed ? null : (
          <MessageBar intent="info">
            <MessageBarBody>{needsPermission('data:import')}</MessageBarBody>
          </MessageBar>
        )
      }
    />
  );
}
