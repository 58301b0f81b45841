import {
  Badge,
  Body1,
  Caption1,
  Card,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleRegular, ArrowSyncRegular } from '@fluentui/react-icons';
import type { BidderListItem, DuplicateView } from '@contracts/bidders/bidders.schema';
import { useState, type ReactNode } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBidderActions, useDuplicates } from '../api/bidders';
import { MergeDialog } from './MergeDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { StatCard } from '../../../components/StatCard';
import { confidenceColour, fullName } from './score-style';
import { countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(170px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  muted: { color: tokens.colorNeutralForeground3 },
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

/** Pairs that may be one bidder twice, with the auto-merge threshold above them. */
export function DuplicatesTab({ threshold }: { threshold: ReactNode }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const { data, error } = useDuplicates();
  const [reviewing, setReviewing] = useState<DuplicateView | null>(null);

  const scan = useAction(
    async () => {
      const result = await actions.scan();
      notify.success(
        `Checked ${countOf(result.scanned, 'bidder')}`,
        `${countOf(result.pending, 'pair')} to review, ${result.autoMerged.toLocaleString()} merged automatically.`,
      );
    },
    { onError: (message) => notify.error('The scan did not finish', message) },
  );

  const dismiss = useAction(
    async (pair: DuplicateView) => {
      await actions.dismiss(pair.id);
      notify.info('Marked as not a duplicate');
    },
    { onError: (message) => notify.error('The pair was not dismissed', message) },
  );

  const summary = data?.summary;
  const cards = [
    ['Pending Review', summary?.pending],
    ['Auto-Merged', summary?.autoMerged],
    ['Resolved', summary?.resolved],
    ['Total Potential', summary?.total],
  ] as const;

  return (
    <div className={styles.stack}>
      {threshold}
      <div className={styles.cards}>
        {cards.map(([label, value]) => (
          <StatCard key={label} label={label} value={value === undefined ? '—' : String(value)} />
        ))}
      </div>
      <div className={styles.listHead}>
        <Subtitle2 as="h2">Pending Duplicate Matches</Subtitle2>
        <PermittedButton
          permission="bidders:merge"
          icon={<ArrowSyncRegular />}
          disabled={scan.busy}
          onClick={() => void scan.run()}
        >
          {scan.busy ? 'Checking...' : 'Check all bidders'}
        </PermittedButton>
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
                {countOf(pair.conflicts.length, 'conflict')}
              </Badge>
              <Caption1 className={styles.muted}>{pair.matchReasons.join(' · ')}</Caption1>
            </div>
            <div className={styles.sides}>
              <Side bidder={pair.bidder1} />
              <Side bidder={pair.bidder2} />
            </div>
            <div className={styles.actions}>
              <PermittedButton permission="bidders:merge" onClick={() => void dismiss.run(pair)}>
                Not a duplicate
              </PermittedButton>
              <PermittedButton
                permission="bidders:merge"
                appearance="primary"
                onClick={() => setReviewing(pair)}
              >
                Review &amp; Merge
              </PermittedButton>
            </div>
          </Card>
        ))
      )}
      <MergeDialog pair={reviewing} onClose={() => setReviewing(null)} />
    </div>
  );
}
