import { RoutedTabsPage } from '../../../components/RoutedTabsPage';
import { useSignedIn } from '../../../lib/auth-store';
import { MfaPolicyTab } from './MfaPolicyTab';
import { MySecurityTab } from './MySecurityTab';
import { SecuritySettingsTab } from './SecuritySettingsTab';
import { UsersTab } from './UsersTab';

/** Security & Users: everyone's own security; users and policies for owners and admins. */
export default function SecurityPage() {
  const { account, mfaSetupRequired } = useSignedIn();
  const admin = account.role === 'owner' || account.role === 'admin';
  const tabs = [
    { id: 'my-security', label: 'My Security', render: () => <MySecurityTab /> },
    ...(admin && !mfaSetupRequired
      ? [
          { id: 'users', label: 'Users', render: () => <UsersTab /> },
          { id: 'mfa-policy', label: 'MFA Policy', render: () => <MfaPolicyTab /> },
          {
            id: 'security-settings',
            label: 'Security Settings',
            render: () => <SecuritySettingsTab />,
          },
        ]
      : []),
  ];
  return (
    <RoutedTabsPage
      title="Security & Users"
      base="/security"
      label="Security sections"
      tabs={tabs}
      scrollableTabs
    />
  );
}
