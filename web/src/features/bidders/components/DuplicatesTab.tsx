import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Skeleton,
  SkeletonItem,
  Slider,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleRegular, ArrowSyncRegular } from '@fluentui/react-icons';
import type { BidderListItem, DuplicateView } from '@contracts/bidders/bidders.schema';
import { AUTO_MERGE_DEFAULT } from '@contracts/scoring/scoring.schema';
import { useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useBidderActions, useDuplicates, useScoringSettings } from '../api/bidders';
import { MergeDialog } from './MergeDialog';
import { StatCard } from './StatCard';
import { confidenceColour, fullName } from './score-style';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  slider: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    maxWidth: '560px',
  },
  scale: {
    display: 'flex',
    justifyContent: 'space-between',
    color: tokens.colorNeutralForeground3,
  },
  listHead: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  pair: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  pairHead: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    flexWrap: 'wrap',
  },
  sides: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    '@media (max-width: 640px)': { gridTemplateColumns: '1fr' },
  },
  side: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    minWidth: 0,
  },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  actions: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    justifyContent: 'flex-end',
    flexWrap: 'wrap',
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
    textAlign: 'center',
  },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  fullWidth: { width: '100%' },
});

function Side({ bidder }: { bidder: BidderListItem }) {
  const styles = useStyles();
  return (
    <div className={styles.side}>
      <Text weight="semibold" className={styles.ellipsis}>
        {fullName(bidder)}
      </Text>
      <Caption1 className={styles.ellipsis}>{bidder.bidderId}</Caption1>
      <Caption1 className={styles.ellipsis}>{bidder.email ?? 'No email'}</Caption1>
      <Caption1 className={styles.ellipsis}>{bidder.phone ?? 'No phone'}</Caption1>
      <Caption1 className={mergeClasses(styles.ellipsis, styles.muted)}>
        {[bidder.address.city, bidder.address.state, bidder.address.zip]
          .filter(Boolean)
          .join(', ') || 'No address'}
      </Caption1>
    </div>
  );
}

function Threshold({ canEdit }: { canEdit: boolean }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const { data } = useScoringSettings();
  const saved = data?.autoMergeThreshold ?? AUTO_MERGE_DEFAULT;
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = value ?? saved;
  const save = async () => {
    setBusy(true);
    try {
      await actions.saveSettings({ autoMergeThreshold: shown });
      setValue(null);
      notify.success(`Auto-merge threshold set to ${shown}%`);
    } catch (caught) {
      notify.error('The threshold was not saved', messageOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <MessageBar intent="info" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>Auto-merge threshold: {saved}%</MessageBarTitle>
        Pairs matching at {saved}% or more are merged automatically when bidders are added or
        imported; the rest wait here for review.
        {open ? (
          <div className={styles.slider}>
            <Field label={`Threshold: ${shown}%`} hint="Recommended: 90 to 95%.">
              <Slider
                className={styles.fullWidth}
                min={70}
                max={100}
                value={shown}
                disabled={!canEdit}
                onChange={(_, slider) => setValue(slider.value)}
              />
            </Field>
            <div className={styles.scale}>
              <Caption1>Conservative 70%</Caption1>
              <Caption1>Strict 100%</Caption1>
            </div>
            <div>
              <Button
                appearance="primary"
                size="small"
                disabled={!canEdit || busy || shown === saved}
                onClick={() => void save()}
              >
                {busy ? 'Saving...' : 'Save threshold'}
              </Button>
            </div>
          </div>
        ) : null}
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Hide Settings' : 'Adjust'}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

export function DuplicatesTab() {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const can = useCan();
  const { data, error } = useDuplicates();
  const [reviewing, setReviewing] = useState<DuplicateView | null>(null);
  const [scanning, setScanning] = useState(false);
  const canMerge = can('bidders:merge');

  const scan = async () => {
    setScanning(true);
    try {
      const result = await actions.scan();
      notify.success(
        `Checked ${result.scanned.toLocaleString()} bidders`,
        `${result.pending} pair${result.pending === 1 ? '' : 's'} to review, ${result.autoMerged} merged automatically.`,
      );
    } catch (caught) {
      notify.error('The scan did not finish', messageOf(caught));
    } finally {
      setScanning(false);
    }
  };

  const dismiss = async (pair: DuplicateView) => {
    try {
      await actions.dismiss(pair.id);
      notify.info('Marked as not a duplicate');
    } catch (caught) {
      notify.error('The pair was not dismissed', messageOf(caught));
    }
  };

  const summary = data?.summary;
  const cards = [
    ['Pending Review', summary?.pending],
    ['Auto-Merged', summary?.autoMerged],
    ['Resolved', summary?.resolved],
    ['Total Potential', summary?.total],
  ] as const;

  return (
    <div className={styles.stack}>
      <Threshold canEdit={can('bidders:scoring')} />
      <div className={styles.cards}>
        {cards.map(([label, value]) => (
          <StatCard key={label} label={label} value={value === undefined ? '—' : String(value)} />
        ))}
      </div>
      <div className={styles.listHead}>
        <Subtitle2 as="h2">Pending Duplicate Matches</Subtitle2>
        <Button
          icon={<ArrowSyncRegular />}
          disabled={!canMerge || scanning}
          onClick={() => void scan()}
        >
          {scanning ? 'Checking...' : 'Check all bidders'}
        </Button>
      </div>
      {error ? (
        <MessageBar intent="error">
          <MessageBarBody>{messageOf(error)}</MessageBarBody>
        </MessageBar>
      ) : !data ? (
        <Skeleton aria-label="Loading duplicate matches">
          <SkeletonItem size={96} />
        </Skeleton>
      ) : data.duplicates.length === 0 ? (
        <Card className={styles.empty}>
          <CheckmarkCircleRegular fontSize={40} className={styles.ok} />
          <Body1>No pending duplicate matches!</Body1>
          <Caption1 className={styles.muted}>
            All duplicates have been resolved or auto-merged.
          </Caption1>
        </Card>
      ) : (
        data.duplicates.map((pair) => (
          <Card
            key={pair.id}
            role="group"
            className={styles.pair}
            aria-label={`Possible duplicate: ${fullName(pair.bidder1)} and ${fullName(pair.bidder2)}`}
          >
            <div className={styles.pairHead}>
              <Badge appearance="filled" color={confidenceColour(pair.confidenceScore)}>
                {pair.confidenceScore}% match
              </Badge>
              <Badge appearance="outline" color="informative">
                {pair.conflicts.length} conflict{pair.conflicts.length === 1 ? '' : 's'}
              </Badge>
              <Caption1 className={styles.muted}>{pair.matchReasons.join(' · ')}</Caption1>
            </div>
            <div className={styles.sides}>
              <Side bidder={pair.bidder1} />
              <Side bidder={pair.bidder2} />
            </div>
            <div className={styles.actions}>
              <Button disabled={!canMerge} onClick={() => void dismiss(pair)}>
                Not a duplicate
              </Button>
              <Button appearance="primary" disabled={!canMerge} onClick={() => setReviewing(pair)}>
                Review &amp; Merge
              </Button>
            </div>
          </Card>
        ))
      )}
      <MergeDialog pair={reviewing} onClose={() => setReviewing(null)} />
    </div>
  );
}
