import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowSyncRegular,
  DocumentTextRegular,
  LinkDismissRegular,
  PlugConnectedRegular,
} from '@fluentui/react-icons';
import type {
  Platform,
  PlatformConnection,
  PlatformStatus,
  SyncRun,
} from '@contracts/integrations/integrations.schema';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePlatformActions, usePlatformLogs, usePlatforms } from '../api/platforms';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  features: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, marginTop: 'auto' },
  run: {
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingBlock: tokens.spacingVerticalS,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  runs: { listStyle: 'none', margin: 0, padding: 0 },
});

const statusColor: Record<PlatformStatus, 'success' | 'informative' | 'danger' | 'subtle'> = {
  Connected: 'success',
  Syncing: 'informative',
  Error: 'danger',
  Disconnected: 'subtle',
};

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : 'Never';

function ConnectDialog({ platform, onClose }: { platform: Platform; onClose: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const notify = useNotify();
  const { connect } = usePlatformActions();
  const save = useAction(async () => {
    await connect(platform, apiKey.trim(), null);
    notify.success(`${platform} connected`);
    onClose();
  });
  // The platform's own reason for refusing the key, else what went wrong.
  const problem = save.fieldErrors.apiKey ?? save.error;
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          <DialogBody>
            <DialogTitle>Connect {platform}</DialogTitle>
            <DialogContent>
              <Field
                label="API key"
                required
                hint={`From your ${platform} account's API settings. Lotwise checks it with ${platform} before saving.`}
                validationMessage={problem ?? undefined}
              >
                <Input
                  type="password"
                  value={apiKey}
                  autoComplete="off"
                  onChange={(_, data) => {
                    setApiKey(data.value);
                    save.reset();
                  }}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>Cancel</Button>
              <Button
                appearance="primary"
                type="submit"
                disabled={apiKey.trim().length < 8 || save.busy}
              >
                {save.busy ? 'Checking...' : 'Connect'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

function RunSummary({ run }: { run: SyncRun }) {
  const styles = useStyles();
  const { created, updated, unchanged, skipped, conflicts, failed } = run.counts;
  return (
    <li className={styles.run}>
      <Text weight="semibold">
        {when(run.startedAt)} · {run.trigger} · {run.status}
      </Text>
      <Caption1>
        {created} created · {updated} updated · {unchanged} unchanged · {skipped} skipped ·{' '}
        {conflicts} conflicts · {failed} failed · by {run.by}
      </Caption1>
      {run.error ? <Caption1>{run.error}</Caption1> : null}
      {run.changes.slice(0, 5).map((change) => (
        <Caption1
          key={`${change.entity}:${change.externalId}:${change.action}`}
          className={styles.muted}
        >
          {change.action}: {change.title}
          {change.fields.length ? ` (${change.fields.join(', ')})` : ''}
          {change.message ? `: ${change.message}` : ''}
        </Caption1>
      ))}
    </li>
  );
}

function LogsDialog({ platform, onClose }: { platform: Platform; onClose: () => void }) {
  const styles = useStyles();
  const { data, error } = usePlatformLogs(platform);
  return (
    <Dialog open onOpenChange={(_, state) => !state.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{platform} sync log</DialogTitle>
          <DialogContent>
            {error ? (
              <MessageBar intent="error">{messageOf(error)}</MessageBar>
            ) : !data ? (
              <Skeleton aria-label="Loading the sync log">
                <SkeletonItem size={64} />
              </Skeleton>
            ) : data.runs.length === 0 ? (
              <Body1>No syncs yet.</Body1>
            ) : (
              <ul className={styles.runs}>
                {data.runs.map((run) => (
                  <RunSummary key={run.id} run={run} />
                ))}
              </ul>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function PlatformCard({ connection }: { connection: PlatformConnection }) {
  const styles = useStyles();
  const notify = useNotify();
  const { sync, disconnect } = usePlatformActions();
  const [dialog, setDialog] = useState<'connect' | 'logs' | 'disconnect' | null>(null);
  const { platform, status } = connection;
  const refresh = useAction(
    async () => {
      await sync(platform);
      notify.success(`${platform} sync started`);
    },
    { onError: (message) => notify.error(`${platform} did not start syncing`, message) },
  );
  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h3">{platform}</Subtitle2>}
        action={
          <Badge appearance="tint" color={statusColor[status]}>
            {status}
          </Badge>
        }
        description={
          <Caption1>
            {connection.accountName ? `Account: ${connection.accountName}` : 'Not connected'}
          </Caption1>
        }
      />
      {status === 'Error' && connection.message ? (
        <MessageBar intent="error">{connection.message}</MessageBar>
      ) : null}
      <div className={styles.facts}>
        <Caption1 className={styles.muted}>Last sync</Caption1>
        <Caption1>{when(connection.lastSync)}</Caption1>
        <Caption1 className={styles.muted}>Auctions imported</Caption1>
        <Caption1>{connection.auctionsImported.toLocaleString()}</Caption1>
        {connection.keyLast4 ? (
          <>
            <Caption1 className={styles.muted}>API key</Caption1>
            <Caption1>•••• {connection.keyLast4}</Caption1>
          </>
        ) : null}
      </div>
      <div className={styles.features}>
        {connection.features.map((feature) => (
          <Badge key={feature} appearance="outline" color="informative">
            {feature}
          </Badge>
        ))}
      </div>
      <div className={styles.actions}>
        {status === 'Connected' ? (
          <PermittedButton
            permission="auctions:import"
            icon={<ArrowSyncRegular />}
            disabled={refresh.busy}
            onClick={() => void refresh.run()}
          >
            Refresh
          </PermittedButton>
        ) : null}
        {status === 'Disconnected' ? (
          <PermittedButton
            permission="system:integrations"
            appearance="primary"
            icon={<PlugConnectedRegular />}
            onClick={() => setDialog('connect')}
          >
            Connect
          </PermittedButton>
        ) : (
          <>
            {status === 'Error' ? (
              <PermittedButton
                permission="system:integrations"
                icon={<PlugConnectedRegular />}
                onClick={() => setDialog('connect')}
              >
                Update Key
              </PermittedButton>
            ) : null}
            <PermittedButton
              permission="system:integrations"
              icon={<LinkDismissRegular />}
              onClick={() => setDialog('disconnect')}
            >
              Disconnect
            </PermittedButton>
          </>
        )}
        <Button icon={<DocumentTextRegular />} onClick={() => setDialog('logs')}>
          View Logs
        </Button>
      </div>
      {dialog === 'connect' ? (
        <ConnectDialog platform={platform} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'logs' ? (
        <LogsDialog platform={platform} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmDialog
        open={dialog === 'disconnect'}
        title={`Disconnect ${platform}?`}
        confirmLabel="Disconnect"
        danger
        failureTitle={`${platform} was not disconnected`}
        onConfirm={async () => {
          await disconnect(platform);
          notify.success(`${platform} disconnected`);
        }}
        onClose={() => setDialog(null)}
      >
        Lotwise forgets the API key and stops syncing. Imported auctions and bidders stay, and
        reconnecting carries on where the last sync stopped.
      </ConfirmDialog>
    </Card>
  );
}

/** Settings › APIs: a card per bidding platform with its connection and sync. */
export function PlatformCards() {
  const styles = useStyles();
  const { data, error, mutate } = usePlatforms();
  if (error) {
    return (
      <MessageBar intent="error">
        {messageOf(error)}{' '}
        <Button appearance="transparent" onClick={() => void mutate()}>
          Try again
        </Button>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading platforms">
        <SkeletonItem size={128} />
      </Skeleton>
    );
  }
  return (
    <section aria-labelledby="platforms-heading">
      <Subtitle2 as="h2" id="platforms-heading">
        Bidding platforms
      </Subtitle2>
      <div className={styles.grid}>
        {data.platforms.map((connection) => (
          <PlatformCard key={connection.platform} connection={connection} />
        ))}
      </div>
    </section>
  );
}
