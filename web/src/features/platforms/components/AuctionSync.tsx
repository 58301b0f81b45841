import {
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import {
  platforms,
  type Platform,
  type SyncDirection,
} from '@contracts/integrations/integrations.schema';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePlatformActions, usePlatforms, useSyncHistory } from '../api/platforms';

const useStyles = makeStyles({
  runs: { listStyle: 'none', margin: 0, padding: 0 },
  run: {
    paddingBlock: tokens.spacingVerticalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
});

const asPlatform = (name: string | null) => platforms.find((platform) => platform === name) ?? null;

const directionText: Record<SyncDirection, (platform: Platform) => string> = {
  push: (platform) => `Push to ${platform}`,
  pull: (platform) => `Pull from ${platform}`,
  'two-way': () => 'Two-way sync',
};

function useAuctionSync(auctionId: string) {
  const notify = useNotify();
  const { syncAuction } = usePlatformActions();
  return useAction(
    async (platform: Platform, direction: SyncDirection) => {
      const run = await syncAuction(auctionId, platform, direction);
      const [change] = run.changes;
      notify.success(
        `${directionText[direction](platform)}: ${run.status}`,
        change
          ? [change.action, change.fields.join(', '), change.message].filter(Boolean).join(' · ')
          : 'Nothing to change',
      );
    },
    { onError: (message) => notify.error('The sync did not finish', message) },
  );
}

/**
 * An auction's sync: for an imported one, "Sync with {platform}" (push, pull, two-way); for one
 * made in Lotwise, "Push to platform" for each connected platform.
 */
export function AuctionSyncActions({
  auctionId,
  importedFrom,
}: {
  auctionId: string;
  importedFrom: string | null;
}) {
  const can = useCan();
  const may = can('auctions:edit');
  const { data } = usePlatforms();
  const sync = useAuctionSync(auctionId);
  const source = asPlatform(importedFrom);
  const connected = data?.platforms.filter((platform) => platform.connected) ?? [];
  if (!source && connected.length === 0) return null;
  const label = source ? `Sync with ${source}` : 'Push to platform';
  const sourceConnected = source ? connected.some((entry) => entry.platform === source) : true;
  return (
    <Menu positioning="below-start">
      <MenuTrigger disableButtonEnhancement>
        <Button icon={<ArrowSyncRegular />} disabled={sync.busy}>
          {sync.busy ? 'Syncing...' : label}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {source
            ? (['push', 'pull', 'two-way'] as const).map((direction) => (
                <MenuItem
                  key={direction}
                  disabled={!may || !sourceConnected}
                  subText={
                    !may
                      ? needsPermission('auctions:edit')
                      : !sourceConnected
                        ? `${source} is not connected`
                        : undefined
                  }
                  onClick={() => void sync.run(source, direction)}
                >
                  {directionText[direction](source)}
                </MenuItem>
              ))
            : connected.map((entry) => (
                <MenuItem
                  key={entry.platform}
                  disabled={!may}
                  subText={may ? undefined : needsPermission('auctions:edit')}
                  onClick={() => void sync.run(entry.platform, 'push')}
                >
                  Push to {entry.platform}
                </MenuItem>
              ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/** "Sync with {platform}" in the auction list's row menu: a two-way sync now. */
export function AuctionSyncMenuItem({
  auctionId,
  platform,
}: {
  auctionId: string;
  platform: string;
}) {
  const can = useCan();
  const sync = useAuctionSync(auctionId);
  const source = asPlatform(platform);
  if (!source) return null;
  const may = can('auctions:edit');
  return (
    <MenuItem
      icon={<ArrowSyncRegular />}
      disabled={!may || sync.busy}
      subText={may ? undefined : needsPermission('auctions:edit')}
      onClick={() => void sync.run(source, 'two-way')}
    >
      Sync with {source}
    </MenuItem>
  );
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The auction's Sync History: each import, push and pull, with what it changed. */
export function AuctionSyncHistory({ auctionId }: { auctionId: string }) {
  const styles = useStyles();
  const { data, error } = useSyncHistory(auctionId);
  if (error) return <MessageBar intent="error">{messageOf(error)}</MessageBar>;
  if (!data) {
    return (
      <Skeleton aria-label="Loading sync history">
        <SkeletonItem size={32} />
      </Skeleton>
    );
  }
  if (data.runs.length === 0) return null;
  return (
    <Card className={styles.card}>
      <section className={styles.section} aria-labelledby={`sync-history-${auctionId}`}>
        <Subtitle2 as="h2" id={`sync-history-${auctionId}`}>
          Sync History
        </Subtitle2>
        <ul className={styles.runs}>
          {data.runs.map((run) => {
            const [change] = run.changes;
            return (
              <li key={run.id} className={styles.run}>
                <Body1>
                  {run.direction === 'two-way'
                    ? 'Two-way sync'
                    : run.trigger === 'import'
                      ? 'Imported'
                      : run.direction === 'push'
                        ? 'Pushed'
                        : 'Pulled'}{' '}
                  · {run.platform} · {run.status}
                </Body1>
                <Caption1 className={styles.muted}>
                  {when(run.startedAt)} · by {run.by}
                  {change
                    ? ` · ${change.action}${change.fields.length ? `: ${change.fields.join(', ')}` : ''}`
                    : ''}
                  {run.error ? ` · ${run.error}` : ''}
                </Caption1>
              </li>
            );
          })}
        </ul>
      </section>
    </Card>
  );
}
