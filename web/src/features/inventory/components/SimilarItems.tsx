import {
  Body1,
  Button,
  Caption1,
  Link,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import type { SimilarItem, SimilarSale } from '@contracts/inventory/inventory.schema';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/money';
import { useSimilarItems } from '../api/inventory';
import { estimateText, formatDay, ScoreBadge, StatusBadge } from './item-style';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  columns: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  list: {
    margin: 0,
    padding: 0,
    listStyle: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  row: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    minWidth: 0,
  },
  line: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    minWidth: 0,
  },
  title: { textAlign: 'start', overflowWrap: 'anywhere', fontWeight: tokens.fontWeightSemibold },
  soldTitle: { overflowWrap: 'anywhere', fontWeight: tokens.fontWeightSemibold },
  figures: { fontVariantNumeric: 'tabular-nums' },
  muted: { color: tokens.colorNeutralForeground3 },
});

function HeldRow({ item, onOpen }: { item: SimilarItem; onOpen(id: string): void }) {
  const styles = useStyles();
  return (
    <li className={styles.row}>
      <div className={styles.line}>
        <Link as="button" type="button" className={styles.title} onClick={() => onOpen(item.id)}>
          {item.title}
        </Link>
      </div>
      <div className={styles.line}>
        <StatusBadge status={item.status} />
        <ScoreBadge score={item.auctionSuggestionScore} />
        <Caption1 className={styles.figures}>{estimateText(item)}</Caption1>
      </div>
      <Caption1 className={styles.muted}>{item.reasons.join(' · ')}</Caption1>
    </li>
  );
}

function SoldRow({ sale }: { sale: SimilarSale }) {
  const styles = useStyles();
  return (
    <li className={styles.row}>
      <Body1 className={styles.soldTitle}>{sale.title}</Body1>
      <Caption1 className={styles.figures}>
        Sold for {formatMoney(sale.hammer, sale.currency)} · {formatDay(sale.closedAt.slice(0, 10))}
      </Caption1>
      <Caption1 className={styles.muted}>{sale.reasons.join(' · ')}</Caption1>
    </li>
  );
}

/**
 * "Similar items" in an item's detail: the house's other items of its category most like it
 * (each opens in the dialog) and its comparable sold lots, each with why. Hidden when the account
 * has "Suggest similar items" off.
 */
export function SimilarItems({ itemId }: { itemId: string }) {
  const styles = useStyles();
  const [, setParams] = useSearchParams();
  const { data, error, mutate } = useSimilarItems(itemId);
  if (data && !data.enabled) return null;
  const open = (id: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('item', id);
      return next;
    });
  const body = () => {
    if (error && !data) {
      return (
        <MessageBar intent="error">
          <MessageBarBody>Similar items could not be loaded: {messageOf(error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      );
    }
    if (!data) {
      return (
        <Skeleton aria-label="Loading similar items">
          <SkeletonItem size={48} />
        </Skeleton>
      );
    }
    return (
      <div className={styles.columns}>
        <div className={styles.group}>
          <Caption1 className={styles.muted}>In your inventory</Caption1>
          {data.items.length ? (
            <ul className={styles.list} aria-label="Similar items in your inventory">
              {data.items.map((item) => (
                <HeldRow key={item.id} item={item} onOpen={open} />
              ))}
            </ul>
          ) : (
            <Body1 className={styles.muted}>No other item of this category yet.</Body1>
          )}
        </div>
        <div className={styles.group}>
          <Caption1 className={styles.muted}>Sold in your auctions</Caption1>
          {data.sold.length ? (
            <ul className={styles.list} aria-label="Comparable lots sold">
              {data.sold.map((sale, index) => (
                <SoldRow key={`${sale.title}-${sale.closedAt}-${index}`} sale={sale} />
              ))}
            </ul>
          ) : (
            <Body1 className={styles.muted}>
              No lot sold in the last two years shares a word with this title.
            </Body1>
          )}
        </div>
      </div>
    );
  };
  return (
    <section className={styles.section} aria-label="Similar items">
      <Subtitle2 as="h3" className={styles.heading}>
        Similar items
      </Subtitle2>
      {body()}
    </section>
  );
}
