import {
  Badge,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowClockwiseRegular,
  CheckmarkCircleFilled,
  DismissCircleFilled,
  QuestionCircleRegular,
} from '@fluentui/react-icons';
import type { DependencyHealth } from '@contracts/health/health.schema';
import { services, type ServiceDescriptor } from '../../../lib/config';
import {
  HEALTH_TIMEOUT_MS,
  useServiceHealth,
  type HealthResult,
  type ServiceStatus,
} from '../api/service-health';
import { agree, countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  action: { whiteSpace: 'nowrap', flexShrink: 0 },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(180px, 1.4fr) minmax(160px, 1fr) auto',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    '@media (max-width: 640px)': {
      gridTemplateColumns: '1fr',
      gap: tokens.spacingVerticalS,
      padding: tokens.spacingHorizontalM,
    },
  },
  identity: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    minWidth: 0,
  },
  address: {
    fontFamily: tokens.fontFamilyMonospace,
    color: tokens.colorNeutralForeground3,
    overflowWrap: 'anywhere',
  },
  dependencies: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  outcome: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalM,
    '@media (max-width: 640px)': { justifyContent: 'flex-start' },
  },
  timing: {
    minWidth: '64px',
    textAlign: 'right',
    fontVariantNumeric: 'tabular-nums',
    color: tokens.colorNeutralForeground2,
    '@media (max-width: 640px)': { minWidth: 0, textAlign: 'left' },
  },
  error: { color: tokens.colorPaletteRedForeground1 },
  footer: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    marginTop: tokens.spacingVerticalS,
  },
});

const statusLabel: Record<ServiceStatus, string> = {
  online: 'Online',
  offline: 'Offline',
  checking: 'Checking',
  unknown: 'Unknown',
};

function StatusBadge({ status }: { status: ServiceStatus }) {
  if (status === 'checking') {
    return <Spinner size="extra-tiny" label={statusLabel.checking} labelPosition="after" />;
  }
  const appearance = {
    online: { color: 'success', icon: <CheckmarkCircleFilled /> },
    offline: { color: 'danger', icon: <DismissCircleFilled /> },
    unknown: { color: 'informative', icon: <QuestionCircleRegular /> },
  } as const;
  const { color, icon } = appearance[status];
  return (
    <Badge appearance="tint" color={color} icon={icon} size="large">
      {statusLabel[status]}
    </Badge>
  );
}

const dependencyLabel: Record<DependencyHealth['name'], string> = {
  cosmos: 'Cosmos DB',
  storage: 'Storage',
  'auctions-store': 'Auctions store',
};

function ServiceRow({
  service,
  status,
  result,
}: {
  service: ServiceDescriptor;
  status: ServiceStatus;
  result: HealthResult | undefined;
}) {
  const styles = useStyles();
  return (
    <li className={styles.row} aria-label={`${service.label}: ${statusLabel[status]}`}>
      <div className={styles.identity}>
        <Subtitle2>{service.label}</Subtitle2>
        <Caption1 className={styles.address}>GET {service.healthUrl}</Caption1>
      </div>
      <div className={styles.dependencies}>
        {result?.report?.dependencies.map((dependency) => (
          <Badge
            key={dependency.name}
            appearance="outline"
            color={dependency.status === 'up' ? 'brand' : 'danger'}
            title={dependency.error}
          >
            {dependencyLabel[dependency.name]} ·{' '}
            {dependency.status === 'up' ? `${dependency.latencyMs} ms` : dependency.error}
          </Badge>
        ))}
        {result?.status === 'offline' && result.error ? (
          <Caption1 className={styles.error}>{result.error}</Caption1>
        ) : null}
      </div>
      <div className={styles.outcome}>
        <Text className={styles.timing} aria-label="Response time">
          {result ? `${result.responseTimeMs} ms` : '—'}
        </Text>
        <StatusBadge status={status} />
      </div>
    </li>
  );
}

function Banner({
  overall,
  offlineCount,
}: {
  overall: ReturnType<typeof useServiceHealth>['overall'];
  offlineCount: number;
}) {
  if (overall === 'offline') {
    return (
      <MessageBar intent="error">
        <MessageBarBody>
          <MessageBarTitle>Services Offline</MessageBarTitle>
          {offlineCount} of {countOf(services.length, 'service')} {agree(offlineCount, 'is', 'are')}{' '}
          not answering. Screens that depend on {agree(offlineCount, 'it', 'them')} show an error
          until {agree(offlineCount, 'it is', 'they are')} back.
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (overall === 'online') {
    return (
      <MessageBar intent="success">
        <MessageBarBody>
          <MessageBarTitle>All Services Online</MessageBarTitle>
          Every service answered its health check, with its database and storage reachable.
        </MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <MessageBar intent="info">
      <MessageBarBody>
        <MessageBarTitle>Configuration Ready</MessageBarTitle>
        The service addresses are set. {overall === 'checking' ? 'Checking them now…' : null}
      </MessageBarBody>
    </MessageBar>
  );
}

/** The Config tab's service health checker: each service's `GET /health`, 5 s timeout. */
export function ServiceHealthChecker() {
  const styles = useStyles();
  const { board, statusOf, overall, offlineCount, checking, recheck } = useServiceHealth();
  const lastChecked = board ? Object.values(board)[0]?.checkedAt : undefined;
  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Service health</Subtitle2>}
        description={
          <Caption1>
            Each service answers GET /health; a check gives up after {HEALTH_TIMEOUT_MS / 1000}{' '}
            seconds.
          </Caption1>
        }
        action={
          <Button
            className={styles.action}
            appearance="primary"
            icon={<ArrowClockwiseRegular />}
            onClick={() => void recheck()}
            disabled={checking}
          >
            Check All Services
          </Button>
        }
      />
      <Banner overall={overall} offlineCount={offlineCount} />
      <ul className={styles.list} aria-label="Services">
        {services.map((service) => (
          <ServiceRow
            key={service.id}
            service={service}
            status={statusOf(service.id)}
            result={board?.[service.id]}
          />
        ))}
      </ul>
      <div className={styles.footer}>
        <Caption1>
          {lastChecked
            ? `Last checked ${lastChecked.toLocaleTimeString()}; checked again every minute.`
            : 'Not checked yet.'}
        </Caption1>
      </div>
    </Card>
  );
}
