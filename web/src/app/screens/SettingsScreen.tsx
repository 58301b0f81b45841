import { useSignedIn } from '../../lib/auth-store';
import { ServiceHealthChecker } from '../../features/health/components/ServiceHealthChecker';
import { ScoringTab } from '../../features/scoring/components/ScoringTab';
import { ConfigurationTab } from '../../features/settings/components/ConfigurationTab';
import SettingsPage from '../../features/settings/components/SettingsPage';

const scoring = { id: 'bidder-scoring', label: 'Scoring', render: () => <ScoringTab /> };
/** The services' addresses and deployment details: for those who run the account. */
const configuration = {
  id: 'configuration',
  label: 'Config',
  render: () => <ConfigurationTab health={<ServiceHealthChecker />} />,
};

/**
 * The Account Settings tabs that exist so far, by the spec's identifiers and in its order. The
 * page opens on the first; a tab someone may not see leads them there too.
 */
export default function SettingsScreen() {
  const { account } = useSignedIn();
  const runsAccount = account.role === 'owner' || account.role === 'admin';
  return <SettingsPage tabs={runsAccount ? [scoring, configuration] : [scoring]} />;
}
