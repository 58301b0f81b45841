import { RoutedTabsPage } from '../../../components/RoutedTabsPage';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ProfileForm } from './ProfileForm';
import { SessionsList } from './SessionsList';

const tabs = [
  { id: 'details', label: 'Profile', render: () => <ProfileForm /> },
  { id: 'password', label: 'Password', render: () => <ChangePasswordForm /> },
  { id: 'email', label: 'Email', render: () => <ChangeEmailForm /> },
  { id: 'sessions', label: 'Active sessions', render: () => <SessionsList /> },
];

/** The signed-in person's own profile, password, email and sessions. */
export default function ProfilePage() {
  return (
    <RoutedTabsPage
      title="Your profile"
      base="/profile"
      label="Profile sections"
      tabs={tabs}
      scrollableTabs
    />
  );
}
