import {
  Caption1,
  Card,
  Link,
  makeStyles,
  mergeClasses,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { InventoryListItem } from '@contracts/inventory/inventory.schema';
import type { ReactNode } from 'react';
import { estimateText, PhotoThumb, ScoreBadge, StatusBadge, TrendBadge } from './item-style';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, height: '100%' },
  top: { display: 'flex', gap: tokens.spacingHorizontalM, minWidth: 0 },
  heading: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0, flexGrow: 1 },
  title: {
    fontWeight: tokens.fontWeightSemibold,
    textAlign: 'start',
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  estimate: { fontVariantNumeric: 'tabular-nums' },
  footer: { marginTop: 'auto', display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/**
 * An item at a glance: its first photo, title (which opens the detail), category, badges and
 * estimate; `children` add to it (reasons, buttons).
 */
export function ItemCard({
  item,
  onOpen,
  children,
  footer,
  className,
}: {
  item: InventoryListItem;
  onOpen(id: string): void;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  const styles = useStyles();
  return (
    <Card className={mergeClasses(styles.card, className)}>
      <div className={styles.top}>
        <PhotoThumb itemId={item.id} photoId={item.photos[0]?.id} alt="" size={64} />
        <div className={styles.heading}>
          <Link as="button" type="button" className={styles.title} onClick={() => onOpen(item.id)}>
            {item.title}
          </Link>
          <Caption1 className={styles.muted}>
            {item.category}
            {item.subcategory ? ` · ${item.subcategory}` : ''} · {item.condition}
          </Caption1>
          <Text className={styles.estimate}>{estimateText(item)}</Text>
        </div>
      </div>
      <div className={styles.badges}>
        <StatusBadge status={item.status} />
        <TrendBadge trend={item.marketTrend} />
        <ScoreBadge score={item.auctionSuggestionScore} />
      </div>
      {children}
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </Card>
  );
}
