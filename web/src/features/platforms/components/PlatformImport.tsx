import {
  Badge,
  Body1,
  Button,
  Caption1,
  Checkbox,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Option,
  Radio,
  RadioGroup,
  Skeleton,
  SkeletonItem,
  tokens,
} from '@fluentui/react-components';
import type { Platform } from '@contracts/integrations/integrations.schema';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  usePlatformActions,
  usePlatformAuctions,
  usePlatformBidders,
  usePlatforms,
} from '../api/platforms';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  list: {
    maxHeight: '320px',
    overflowY: 'auto',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalS,
  },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
});

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const money = (minor: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(
    minor / (currency === 'JPY' ? 1 : 100),
  );

/** Connected platforms to choose from; the others are listed but cannot be chosen. */
function PlatformChoice({
  what,
  platform,
  onChange,
}: {
  what: 'auctions' | 'bidders';
  platform: Platform | null;
  onChange(platform: Platform): void;
}) {
  const navigate = useNavigate();
  const { data, error } = usePlatforms();
  if (error) return <MessageBar intent="error">{messageOf(error)}</MessageBar>;
  if (!data) {
    return (
      <Skeleton aria-label="Loading platforms">
        <SkeletonItem size={32} />
      </Skeleton>
    );
  }
  if (!data.platforms.some((entry) => entry.connected)) {
    return (
      <MessageBar intent="info" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>No Platforms Connected</MessageBarTitle>
          You need to connect at least one bidding platform in your Account Settings before you can
          import {what}.
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => navigate('/settings/integrations')}>Go to Settings</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  return (
    <Field label="Platform">
      <Dropdown
        placeholder="Choose a connected platform"
        value={platform ?? ''}
        selectedOptions={platform ? [platform] : []}
        onOptionSelect={(_, option) =>
          option.optionValue && onChange(option.optionValue as Platform)
        }
      >
        {data.platforms.map((entry) => (
          <Option key={entry.platform} value={entry.platform} disabled={!entry.connected}>
            {entry.connected ? entry.platform : `${entry.platform} (not connected)`}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

/** The Import Auctions dialog's Platform Import: one platform auction, brought in with its lots. */
export function AuctionPlatformImport({ onImported }: { onImported(auctionId: string): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const [platform, setPlatform] = useState<Platform | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const { data, error, size, setSize, isValidating } = usePlatformAuctions(platform);
  const { importAuction } = usePlatformActions();
  const auctions = data?.flatMap((page) => page.auctions) ?? [];
  const more = data?.at(-1)?.next;
  const run = useAction(
    async () => {
      if (!platform || !chosen) return;
      const { change } = await importAuction(platform, chosen);
      notify.success(
        change.action === 'created'
          ? `Imported "${change.title}"`
          : `"${change.title}" is up to date`,
        change.message ?? undefined,
      );
      if (change.localId) onImported(change.localId);
    },
    { onError: (message) => notify.error('The auction was not imported', message) },
  );
  return (
    <div className={styles.stack}>
      <PlatformChoice
        what="auctions"
        platform={platform}
        onChange={(next) => {
          setPlatform(next);
          setChosen(null);
        }}
      />
      {platform ? (
        error ? (
          <MessageBar intent="error">{messageOf(error)}</MessageBar>
        ) : !data ? (
          <Skeleton aria-label={`Loading ${platform} auctions`}>
            <SkeletonItem size={64} />
          </Skeleton>
        ) : auctions.length === 0 ? (
          <Body1>{platform} lists no auctions for this account.</Body1>
        ) : (
          <div className={styles.list}>
            <RadioGroup
              aria-label={`${platform} auctions`}
              value={chosen ?? ''}
              onChange={(_, option) => setChosen(option.value)}
            >
              {auctions.map((auction) => (
                <Radio
                  key={auction.externalId}
                  value={auction.externalId}
                  label={
                    <span className={styles.row}>
                      <span>
                        {auction.title}
                        <br />
                        <Caption1 className={styles.muted}>
                          {day(auction.startsAt)} · {countOf(auction.lotCount, 'lot')} ·{' '}
                          {auction.status}
                        </Caption1>
                      </span>
                      {auction.auctionId ? (
                        <Badge appearance="tint" color="success">
                          Imported
                        </Badge>
                      ) : null}
                    </span>
                  }
                />
              ))}
            </RadioGroup>
            {more ? (
              <Button
                appearance="subtle"
                disabled={isValidating}
                onClick={() => void setSize(size + 1)}
              >
                Load more
              </Button>
            ) : null}
          </div>
        )
      ) : null}
      <div className={styles.actions}>
        <Button appearance="primary" disabled={!chosen || run.busy} onClick={() => void run.run()}>
          {run.busy ? 'Importing...' : 'Import Auction'}
        </Button>
      </div>
    </div>
  );
}

/** The Import Bidders dialog's Platform Import: chosen platform bidders, through duplicate detection. */
export function BidderPlatformImport({ onImported }: { onImported(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const [platform, setPlatform] = useState<Platform | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const { data, error, size, setSize, isValidating, mutate } = usePlatformBidders(platform);
  const { importBidders } = usePlatformActions();
  const bidders = data?.flatMap((page) => page.bidders) ?? [];
  const more = data?.at(-1)?.next;
  const toggle = (externalId: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(externalId);
    else next.delete(externalId);
    setChosen(next);
  };
  const run = useAction(
    async () => {
      if (!platform || chosen.size === 0) return;
      const result = await importBidders(platform, [...chosen]);
      const { created, updated, unchanged, failed } = result.counts;
      notify.success(
        `${countOf(created, 'bidder')} added, ${updated} matched to bidders you have`,
        failed
          ? `${failed} could not be imported: see the sync log`
          : unchanged
            ? `${unchanged} already up to date`
            : undefined,
      );
      setChosen(new Set());
      await mutate();
      onImported();
    },
    { onError: (message) => notify.error('The bidders were not imported', message) },
  );
  return (
    <div className={styles.stack}>
      <PlatformChoice
        what="bidders"
        platform={platform}
        onChange={(next) => {
          setPlatform(next);
          setChosen(new Set());
        }}
      />
      {platform ? (
        error ? (
          <MessageBar intent="error">{messageOf(error)}</MessageBar>
        ) : !data ? (
          <Skeleton aria-label={`Loading ${platform} bidders`}>
            <SkeletonItem size={64} />
          </Skeleton>
        ) : bidders.length === 0 ? (
          <Body1>{platform} lists no bidders for this account.</Body1>
        ) : (
          <div className={styles.list} role="group" aria-label={`${platform} bidders`}>
            {bidders.map((bidder) => (
              <div key={bidder.externalId} className={styles.row}>
                <Checkbox
                  checked={chosen.has(bidder.externalId)}
                  onChange={(_, state) => toggle(bidder.externalId, state.checked === true)}
                  label={
                    <span>
                      {bidder.firstName} {bidder.lastName}
                      {bidder.email ? ` · ${bidder.email}` : ''}
                      <br />
                      <Caption1 className={styles.muted}>
                        {bidder.status} · {countOf(bidder.totalBids, 'bid')} ·{' '}
                        {countOf(bidder.totalWins, 'win')} ·{' '}
                        {money(bidder.totalSpent, bidder.currency)} spent
                        {bidder.lastActive ? ` · last active ${day(bidder.lastActive)}` : ''}
                      </Caption1>
                    </span>
                  }
                />
                {bidder.bidderId ? (
                  <Badge appearance="tint" color="success">
                    Linked
                  </Badge>
                ) : null}
              </div>
            ))}
            {more ? (
              <Button
                appearance="subtle"
                disabled={isValidating}
                onClick={() => void setSize(size + 1)}
              >
                Load more
              </Button>
            ) : null}
          </div>
        )
      ) : null}
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={chosen.size === 0 || run.busy}
          onClick={() => void run.run()}
        >
          {run.busy ? 'Importing...' : `Import ${countOf(chosen.size, 'Bidder')}`}
        </Button>
      </div>
    </div>
  );
}
