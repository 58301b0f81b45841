import { ServiceHealthChecker } from '../../features/health/components/ServiceHealthChecker';
import { ScoringTab } from '../../features/scoring/components/ScoringTab';
import { ConfigurationTab } from '../../features/settings/components/ConfigurationTab';
import SettingsPage from '../../features/settings/components/SettingsPage';

/** The Account Settings tabs that exist so far, by the spec's identifiers. */
const tabs = [
  { id: 'bidder-scoring', label: 'Scoring', render: () => <ScoringTab /> },
  {
    id: 'configuration',
    label: 'Config',
    render: () => <ConfigurationTab health={<ServiceHealthChecker />} />,
  },
];

export default function SettingsScreen() {
  return <SettingsPage tabs={tabs} />;
}
