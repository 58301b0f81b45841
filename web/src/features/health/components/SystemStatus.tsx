import { Badge } from '@fluentui/react-components';
import { useServiceHealth } from '../api/service-health';
import { countOf } from '../../../lib/plural';

/** All services in one badge: operational, how many are not responding, or still checking. */
export function SystemStatus() {
  const health = useServiceHealth();
  if (health.overall === 'online') {
    return (
      <Badge appearance="tint" color="success" size="large">
        All systems operational
      </Badge>
    );
  }
  if (health.overall === 'offline') {
    return (
      <Badge appearance="tint" color="danger" size="large">
        {countOf(health.offlineCount, 'service')} not responding
      </Badge>
    );
  }
  return (
    <Badge appearance="tint" color="informative" size="large">
      Checking…
    </Badge>
  );
}
