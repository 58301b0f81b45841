import {
  Badge,
  makeStyles,
  mergeClasses,
  Spinner,
  tokens,
  type BadgeProps,
} from '@fluentui/react-components';
import { ImageRegular } from '@fluentui/react-icons';
import {
  AI_SUGGESTION_THRESHOLD,
  type InventoryListItem,
  type InventoryStatus,
  type MarketTrend,
} from '@contracts/inventory/inventory.schema';
import { useEffect, useState } from 'react';
import { photoUrl } from '../api/inventory';
import { formatMoney } from '../../../lib/money';

/** Where an item stands at a glance: ready ones green, in a sale blue, out of reach grey or red. */
const statusColour = {
  Available: 'success',
  'In Storage': 'informative',
  'In Auction': 'brand',
  Sold: 'subtle',
  Withdrawn: 'subtle',
  'On Hold': 'warning',
  Reserved: 'important',
  Damaged: 'danger',
} as const satisfies Record<InventoryStatus, BadgeProps['color']>;

export function StatusBadge({ status }: { status: InventoryStatus }) {
  return (
    <Badge appearance="tint" color={statusColour[status]}>
      {status}
    </Badge>
  );
}

const trendColour = {
  Hot: 'danger',
  Warm: 'warning',
  Cool: 'informative',
  Cold: 'subtle',
} as const satisfies Record<MarketTrend, BadgeProps['color']>;

export function TrendBadge({ trend }: { trend: MarketTrend }) {
  return (
    <Badge appearance="outline" color={trendColour[trend]}>
      {trend}
    </Badge>
  );
}

/** The AI score out of 100; those worth suggesting for auction stand out. */
export function ScoreBadge({ score }: { score: number }) {
  return (
    <Badge
      appearance={score >= AI_SUGGESTION_THRESHOLD ? 'filled' : 'tint'}
      color={score >= AI_SUGGESTION_THRESHOLD ? 'brand' : 'informative'}
      aria-label={`AI score ${score} of 100`}
    >
      {score}
    </Badge>
  );
}

/** "$800–$1,200" in the item's own currency; one figure when low and high agree. */
export function estimateText(item: Pick<InventoryListItem, 'estimatedValue' | 'currency'>) {
  const { low, high } = item.estimatedValue;
  const lowText = formatMoney(low, item.currency);
  return low === high ? lowText : `${lowText}–${formatMoney(high, item.currency)}`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const momentFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
/** "May 12, 2026" for a calendar day (`2026-05-12`), which no zone moves. */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
/** "May 12, 2026, 6:30 PM" for an instant, in the reader's zone. */
export const formatMoment = (instant: string) => momentFormat.format(new Date(instant));

const useThumbStyles = makeStyles({
  frame: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
  },
  image: { width: '100%', height: '100%', objectFit: 'cover' },
});

/**
 * One photo, read with the signed-in person's token. Without a photo it shows a placeholder
 * that says so. An empty `alt` marks a thumbnail beside the item's own name (a list's), which
 * a screen reader skips.
 */
export function PhotoThumb({
  itemId,
  photoId,
  alt,
  size,
  className,
}: {
  itemId: string;
  photoId: string | undefined;
  alt: string;
  size: number;
  className?: string;
}) {
  const styles = useThumbStyles();
  const [shown, setShown] = useState<{ key: string; url: string | null } | null>(null);
  const key = photoId ? `${itemId}/${photoId}` : null;
  useEffect(() => {
    if (!photoId || !key) return;
    let live = true;
    photoUrl(itemId, photoId).then(
      (url) => live && setShown({ key, url }),
      () => live && setShown({ key, url: null }),
    );
    return () => {
      live = false;
    };
  }, [itemId, photoId, key]);
  const url = shown?.key === key ? shown.url : undefined;
  const decorative = alt === '';
  return (
    <span className={mergeClasses(styles.frame, className)} style={{ width: size, height: size }}>
      {url ? (
        <img className={styles.image} src={url} alt={alt} />
      ) : url === undefined && photoId && !decorative ? (
        <Spinner size="tiny" aria-label={`Loading ${alt}`} />
      ) : decorative ? (
        <ImageRegular fontSize={Math.round(size / 2.5)} aria-hidden="true" />
      ) : (
        <ImageRegular
          fontSize={Math.round(size / 2.5)}
          role="img"
          aria-label={photoId ? `${alt} could not be loaded` : 'No photo'}
        />
      )}
    </span>
  );
}
