import { SystemStatus } from '../../features/health/components/SystemStatus';
import HelpPage from '../../features/help/components/HelpPage';
import { viewExists } from '../shell/views';

/** Help, with the services' status from the health feature. */
export default function HelpScreen() {
  return <HelpPage systemStatus={<SystemStatus />} canOpen={viewExists} />;
}
