import { makeStyles, Tab, TabList, Title2, tokens } from '@fluentui/react-components';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ProfileForm } from './ProfileForm';
import { SessionsList } from './SessionsList';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  title: { margin: 0 },
  tabs: { overflowX: 'auto' },
});

const tabs = [
  { id: 'details', label: 'Profile', render: () => <ProfileForm /> },
  { id: 'password', label: 'Password', render: () => <ChangePasswordForm /> },
  { id: 'email', label: 'Email', render: () => <ChangeEmailForm /> },
  { id: 'sessions', label: 'Active sessions', render: () => <SessionsList /> },
];

/** The signed-in person's own profile, password, email and sessions. */
export default function ProfilePage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { tab } = useParams();
  const current = tabs.find((candidate) => candidate.id === tab);
  if (!current) return <Navigate to="/profile/details" replace />;
  return (
    <div className={styles.page}>
      <Title2 as="h1" className={styles.title}>
        Your profile
      </Title2>
      <TabList
        className={styles.tabs}
        selectedValue={current.id}
        onTabSelect={(_, data) => navigate(`/profile/${String(data.value)}`)}
        aria-label="Profile sections"
      >
        {tabs.map((candidate) => (
          <Tab key={candidate.id} value={candidate.id}>
            {candidate.label}
          </Tab>
        ))}
      </TabList>
      {current.render()}
    </div>
  );
}
