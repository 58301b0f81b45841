import { makeStyles, Tab, TabList, Title2, tokens } from '@fluentui/react-components';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useSignedIn } from '../../../lib/auth-store';
import { MfaPolicyTab } from './MfaPolicyTab';
import { MySecurityTab } from './MySecurityTab';
import { SecuritySettingsTab } from './SecuritySettingsTab';
import { UsersTab } from './UsersTab';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  title: { margin: 0 },
  tabs: { overflowX: 'auto' },
});

/** Security & Users: everyone's own security; users and policies for owners and admins. */
export default function SecurityPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { tab } = useParams();
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
  const current = tabs.find((candidate) => candidate.id === tab);
  if (!current) return <Navigate to="/security/my-security" replace />;
  return (
    <div className={styles.page}>
      <Title2 as="h1" className={styles.title}>
        Security &amp; Users
      </Title2>
      <TabList
        className={styles.tabs}
        selectedValue={current.id}
        onTabSelect={(_, data) => navigate(`/security/${String(data.value)}`)}
        aria-label="Security sections"
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
