import {
  Body1,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { CopyButton } from '../../../components/CopyButton';
import { config } from '../../../lib/config';

const useStyles = makeStyles({
  definitions: {
    display: 'grid',
    gridTemplateColumns: 'max-content 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    margin: 0,
    alignItems: 'baseline',
    '& dt': { color: tokens.colorNeutralForeground3 },
    '& dd': { margin: 0, overflowWrap: 'anywhere' },
  },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  steps: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  copyRow: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
});

function ConfigurationGuide() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  return (
    <Card className={grid.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Configuration guide</Subtitle2>}
        description={<Caption1>Where this web app finds the Lotwise services.</Caption1>}
      />
      <dl className={styles.definitions}>
        <dt>Authentication</dt>
        <dd className={styles.code}>VITE_AUTH_API_URL = {config.authApiUrl}</dd>
        <dt>All other services</dt>
        <dd className={styles.code}>VITE_DOMAIN_API_URL = {config.domainApiUrl}</dd>
      </dl>
      <ol className={styles.steps}>
        <li>
          <Body1>
            Locally, <span className={styles.code}>npm start</span> runs the authentication service
            on port 7071 and the other services on port 7072.
          </Body1>
        </li>
        <li>
          <Body1>
            A deployment sets both addresses when it builds the web app; the services read theirs
            from the Function App settings listed in{' '}
            <span className={styles.code}>local.settings.sample.json</span>.
          </Body1>
        </li>
        <li>
          <Body1>
            If a service shows as offline, its health answer names the dependency (Cosmos DB or
            Storage) that failed.
          </Body1>
        </li>
      </ol>
    </Card>
  );
}

function DeploymentInfo() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const origin = window.location.origin;
  return (
    <Card className={grid.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Deployment</Subtitle2>}
        description={
          <Caption1>What the services must allow for this web app to call them.</Caption1>
        }
      />
      <dl className={styles.definitions}>
        <dt>Origin</dt>
        <dd className={styles.code}>{origin}</dd>
        <dt>CORS pattern</dt>
        <dd>
          <div className={styles.copyRow}>
            <span className={styles.code}>{origin}</span>
            <CopyButton text={origin} size="small" label="Copy" aria-label="Copy CORS origin" />
          </div>
        </dd>
      </dl>
      <ol className={styles.steps}>
        <li>
          <Body1>Add this origin to the allowed CORS origins of both Function Apps.</Body1>
        </li>
        <li>
          <Body1>Check all services above; each should show as online.</Body1>
        </li>
        <li>
          <Body1>Sign in with an owner account to set up your auction houses and team.</Body1>
        </li>
      </ol>
    </Card>
  );
}

/** Account Settings › Config: service health, configuration guide and deployment details. */
export function ConfigurationTab({ health }: { health: ReactNode }) {
  const grid = useCardGridStyles();
  return (
    <div className={grid.stack}>
      {health}
      <div className={grid.columns}>
        <ConfigurationGuide />
        <DeploymentInfo />
      </div>
    </div>
  );
}
