import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Text,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, SparkleRegular } from '@fluentui/react-icons';
import type { InventoryListItem } from '@contracts/inventory/inventory.schema';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { useSuggestions } from '../api/inventory';
import { ItemCard } from './ItemCard';
import { LotGroupsSection } from './LotGroupsSection';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))',
    gap: tokens.spacingHorizontalM,
    padding: 0,
    margin: 0,
    listStyle: 'none',
  },
  reasons: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    color: tokens.colorNeutralForeground2,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground2,
  },
});

/**
 * AI Suggestions: the items Available or In Storage that score at the threshold or more, best
 * first, each with why and a way to put it into an auction.
 */
export function SuggestionsTab({
  onOpen,
  onAddToAuction,
}: {
  onOpen(id: string): void;
  onAddToAuction(item: InventoryListItem): void;
}) {
  const styles = useStyles();
  const { data, error, mutate } = useSuggestions();
  if (error && !data) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The suggestions could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading suggestions">
        <SkeletonItem size={96} />
      </Skeleton>
    );
  }
  return (
    <div className={styles.stack}>
      <Caption1 className={styles.muted}>
        Items Available or In Storage with an AI score of {data.threshold} or more, best first.
      </Caption1>
      {data.items.length ? (
        <ul className={styles.grid} aria-label="Suggested for auction">
          {data.items.map((item) => (
            <li key={item.id}>
              <ItemCard
                item={item}
                onOpen={onOpen}
                footer={
                  <PermittedButton
                    permission="inventory:edit"
                    icon={<AddRegular />}
                    onClick={() => onAddToAuction(item)}
                  >
                    Add to Auction
                  </PermittedButton>
                }
              >
                {item.suggestionReasons.length ? (
                  <ul className={styles.reasons}>
                    {item.suggestionReasons.map((reason) => (
                      <li key={reason}>
                        <Caption1>{reason}</Caption1>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </ItemCard>
            </li>
          ))}
        </ul>
      ) : (
        <div className={styles.empty}>
          <SparkleRegular fontSize={32} aria-hidden="true" />
          <Text weight="semibold">No items to suggest yet</Text>
          <Body1>
            Items scoring {data.threshold} or more show here. Add items, or press Sync Inventory to
            rescore them from your latest auction results.
          </Body1>
        </div>
      )}
      <LotGroupsSection onOpen={onOpen} />
    </div>
  );
}
