import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { LaptopRegular } from '@fluentui/react-icons';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useSessionActions, useSessions } from '../api/profile';
import { countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    maxWidth: '760px',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  item: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  icon: { fontSize: '24px' },
});

/** A readable device name from a user agent. */
function deviceOf(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Mac OS X/.test(userAgent)
      ? 'macOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/.test(userAgent)
          ? 'iOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'unknown system';
  return `${browser} on ${system}`;
}

export function SessionsList() {
  const styles = useStyles();
  const notify = useNotify();
  const { data, error, isLoading } = useSessions();
  const actions = useSessionActions();
  const revoke = useAction(
    async (id: string) => {
      await actions.revoke(id);
      notify.success('Session signed out');
    },
    { onError: (message) => notify.error('Could not sign out that session', message) },
  );
  const revokeOthers = useAction(
    async () => {
      const reply = await actions.revokeOthers();
      notify.success(`Signed out of ${countOf(reply.revoked, 'other session')}`);
    },
    { onError: (message) => notify.error('Could not sign out the other sessions', message) },
  );
  const others = data?.sessions.filter((session) => !session.current).length ?? 0;
  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Active sessions</Subtitle2>}
        description={<Caption1>Everywhere your sign-in is open now.</Caption1>}
        action={
          others ? (
            <Button onClick={() => void revokeOthers.run()}>Sign out everywhere else</Button>
          ) : undefined
        }
      />
      {isLoading ? (
        <Spinner label="Loading sessions..." />
      ) : error ? (
        <Body1>{messageOf(error)}</Body1>
      ) : (
        <ul className={styles.list} aria-label="Active sessions">
          {data?.sessions.map((session) => (
            <li key={session.id} className={styles.item}>
              <LaptopRegular className={styles.icon} aria-hidden />
              <div className={styles.text}>
                <Body1>
                  {deviceOf(session.userAgent)}{' '}
                  {session.current ? (
                    <Badge appearance="tint" color="success">
                      This device
                    </Badge>
                  ) : null}
                </Body1>
                <Caption1>
                  {session.ipAddress} · signed in {new Date(session.createdAt).toLocaleString()} ·
                  last active {new Date(session.lastSeenAt).toLocaleString()}
                </Caption1>
              </div>
              {session.current ? null : (
                <Button
                  size="small"
                  onClick={() => void revoke.run(session.id)}
                  aria-label={`Sign out ${deviceOf(session.userAgent)} session`}
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
