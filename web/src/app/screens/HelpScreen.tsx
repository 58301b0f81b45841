import { SystemStatus } from '../../features/health/components/SystemStatus';
import HelpPage from '../../features/help/components/HelpPage';

/** Help, with the services' status from the health feature. */
export default function HelpScreen() {
  return <HelpPage systemStatus={<SystemStatus />} />;
}
