import {
  Body1,
  Button,
  Caption1,
  Card,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, GroupListRegular } from '@fluentui/react-icons';
import type { LotGroup } from '@contracts/inventory/inventory.schema';
import { useState } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useLotGroups } from '../api/inventory';
import { AddToAuctionDialog } from './AddToAuctionDialog';
import { estimateText } from './item-style';

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    marginTop: tokens.spacingVerticalL,
  },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))',
    gap: tokens.spacingHorizontalM,
    padding: 0,
    margin: 0,
    listStyle: 'none',
  },
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, height: '100%' },
  title: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  pieces: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  piece: {
    display: 'flex',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  pieceTitle: { textAlign: 'start', overflowWrap: 'anywhere' },
  amount: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  reasons: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    color: tokens.colorNeutralForeground2,
  },
  footer: { marginTop: 'auto', display: 'flex', gap: tokens.spacingHorizontalS },
  empty: {
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground2,
  },
});

function GroupCard({
  group,
  onOpen,
  onAdd,
}: {
  group: LotGroup;
  onOpen(id: string): void;
  onAdd(group: LotGroup): void;
}) {
  const styles = useStyles();
  const where = [group.category, group.subcategory, group.consignor ?? 'House stock']
    .filter(Boolean)
    .join(' · ');
  return (
    <Card className={styles.card}>
      <Text className={styles.title}>{group.title}</Text>
      <Caption1 className={styles.muted}>
        {where} · {countOf(group.items.length, 'item')}
      </Caption1>
      <Text className={styles.amount}>
        {estimateText({ estimatedValue: group.estimate, currency: group.currency })} together
      </Text>
      <ul className={styles.pieces} aria-label="Items">
        {group.items.map((item) => (
          <li key={item.id} className={styles.piece}>
            <Link
              as="button"
              type="button"
              className={styles.pieceTitle}
              onClick={() => onOpen(item.id)}
            >
              {item.title}
            </Link>
            <Caption1 className={styles.amount}>{estimateText(item)}</Caption1>
          </li>
        ))}
      </ul>
      <ul className={styles.reasons}>
        {group.reasons.map((reason) => (
          <li key={reason}>
            <Caption1>{reason}</Caption1>
          </li>
        ))}
      </ul>
      <div className={styles.footer}>
        <PermittedButton
          permission="inventory:edit"
          icon={<AddRegular />}
          onClick={() => onAdd(group)}
        >
          Add as one lot
        </PermittedButton>
      </div>
    </Card>
  );
}

/**
 * Suggested lots (Settings › Inventory › Optimal lot grouping; nothing shows while it is off):
 * low-value items worth selling together, each group added to an auction as one lot.
 */
export function LotGroupsSection({ onOpen }: { onOpen(id: string): void }) {
  const styles = useStyles();
  const { data, error, mutate } = useLotGroups();
  const [adding, setAdding] = useState<LotGroup | null>(null);
  if (error && !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The suggested lots could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (!data?.enabled) return null;
  const needPhotos = data.needPhotos ?? 0;
  return (
    <section className={styles.section} aria-labelledby="lot-groups-heading">
      <Subtitle2 as="h2" id="lot-groups-heading" className={styles.heading}>
        <GroupListRegular aria-hidden="true" />
        Sell together as one lot
      </Subtitle2>
      <Caption1 className={styles.muted}>
        Items that would not pay their way as lots of their own, grouped by category, subcategory
        and consignor.
      </Caption1>
      {data.groups.length ? (
        <ul className={styles.grid} aria-label="Suggested lots">
          {data.groups.map((group) => (
            <li key={group.id}>
              <GroupCard group={group} onOpen={onOpen} onAdd={setAdding} />
            </li>
          ))}
        </ul>
      ) : (
        <Body1 className={styles.empty}>
          No items to group now: groups form from two or more Available or In Storage items of the
          same kind, each estimated under the least a lot should make.
        </Body1>
      )}
      {needPhotos ? (
        <Caption1 className={styles.muted}>
          {countOf(needPhotos, 'low-value item')} left out: the photo requirement needs a photo
          before {needPhotos === 1 ? 'it goes' : 'they go'} to auction.
        </Caption1>
      ) : null}
      {adding ? <AddToAuctionDialog group={adding} onClose={() => setAdding(null)} /> : null}
    </section>
  );
}
