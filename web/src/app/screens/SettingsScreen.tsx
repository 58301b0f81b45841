import { useCan, useSignedIn } from '../../lib/auth-store';
import { PlanTab } from '../../features/billing/components/PlanTab';
import { ApiKeysCard } from '../../features/api-keys/components/ApiKeysCard';
import { ServiceHealthChecker } from '../../features/health/components/ServiceHealthChecker';
import { HousesTab } from '../../features/houses/components/HousesTab';
import { ScoringTab } from '../../features/scoring/components/ScoringTab';
import { ConfigurationTab } from '../../features/settings/components/ConfigurationTab';
import { IntegrationsTab } from '../../features/settings/components/IntegrationsTab';
import {
  INVENTORY_TAB,
  InventorySettingsTab,
} from '../../features/settings/components/InventorySettingsTab';
import {
  PAYMENTS_TAB,
  PaymentPortalTab,
} from '../../features/settings/components/PaymentPortalTab';
import SettingsPage from '../../features/settings/components/SettingsPage';
import { PlatformCards } from '../../features/platforms/components/PlatformCards';
import { SyncSettingsTab } from '../../features/platforms/components/SyncSettingsTab';
import { WebhooksCard } from '../../features/webhooks/components/WebhooksCard';

const houses = { id: 'auction-houses', label: 'Houses', render: () => <HousesTab /> };
const sync = { id: 'auction-sync', label: 'Sync', render: () => <SyncSettingsTab /> };
const scoring = { id: 'bidder-scoring', label: 'Scoring', render: () => <ScoringTab /> };
const inventory = { ...INVENTORY_TAB, render: () => <InventorySettingsTab /> };
const payments = { ...PAYMENTS_TAB, render: () => <PaymentPortalTab /> };
const plan = { id: 'subscription-mgmt', label: 'Plan', render: () => <PlanTab /> };
/** How other systems reach Lotwise and hear from it: each card shows only to who may use it. */
const integrations = {
  id: 'integrations',
  label: 'APIs',
  render: () => (
    <IntegrationsTab>
      <PlatformCards />
      <ApiKeysCard />
      <WebhooksCard />
    </IntegrationsTab>
  ),
};
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
  const can = useCan();
  const runsAccount = account.role === 'owner' || account.role === 'admin';
  return (
    <SettingsPage
      tabs={[
        houses,
        sync,
        scoring,
        inventory,
        payments,
        // The plan and its billing are the owner's (or whoever holds the settings permission).
        ...(can('system:settings') ? [plan] : []),
        integrations,
        ...(runsAccount ? [configuration] : []),
      ]}
    />
  );
}
