import { makeStyles, Tab, TabList, Title2, tokens } from '@fluentui/react-components';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ConfigurationTab } from './ConfigurationTab';
import { ScoringTab } from './ScoringTab';

/** The Account Settings tabs that exist so far, by the spec's identifiers. */
const tabs = [
  { id: 'bidder-scoring', label: 'Scoring', render: () => <ScoringTab /> },
  { id: 'configuration', label: 'Config', render: () => <ConfigurationTab /> },
] as const;

type TabId = (typeof tabs)[number]['id'];

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  title: { margin: 0 },
});

export default function SettingsPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { tab } = useParams();
  const current = tabs.find((candidate) => candidate.id === tab);
  if (!current) return <Navigate to="/settings/configuration" replace />;
  return (
    <div className={styles.page}>
      <Title2 as="h1" className={styles.title}>
        Account Settings
      </Title2>
      <TabList
        selectedValue={current.id}
        onTabSelect={(_, data) => navigate(`/settings/${data.value as TabId}`)}
        aria-label="Settings sections"
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
