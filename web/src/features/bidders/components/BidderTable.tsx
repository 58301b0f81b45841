import {
  Badge,
  Body1,
  Button,
  Caption1,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  mergeClasses,
  Spinner,
  Text,
  tokens,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import {
  DeleteRegular,
  EditRegular,
  MailRegular,
  MoreHorizontalRegular,
  OptionsRegular,
  PersonRegular,
} from '@fluentui/react-icons';
import type { BidderListItem, ScoreType } from '@contracts/bidders/bidders.schema';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useMediaQuery } from '../../../lib/use-media-query';
import { ScoreGauge } from './ScoreGauge';
import {
  autoInviteBadge,
  bandEdge,
  bandTint,
  fullName,
  bandOf,
  isUnknown,
  scoreOf,
  scoreTypeLabel,
  statusBadge,
  tierBadge,
} from './score-style';

export type RowAction = 'view' | 'edit' | 'invite' | 'settings' | 'delete';

const columns = '2.2fr 84px 2fr 104px 104px 132px 56px';

const useStyles = makeStyles({
  scroller: {
    height: 'max(420px, calc(100vh - 330px))',
    overflowY: 'auto',
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    position: 'relative',
  },
  header: {
    display: 'grid',
    gridTemplateColumns: columns,
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    position: 'sticky',
    top: 0,
    zIndex: 1,
    minHeight: '40px',
    paddingInline: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground3,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
  },
  body: { position: 'relative', width: '100%' },
  row: {
    display: 'grid',
    gridTemplateColumns: columns,
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    position: 'absolute',
    left: 0,
    width: '100%',
    boxSizing: 'border-box',
    paddingInline: tokens.spacingHorizontalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    borderLeft: '4px solid transparent',
    cursor: 'pointer',
    ':hover': { filter: 'brightness(0.97)' },
    ':focus-visible': {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: '-2px',
    },
  },
  card: {
    position: 'absolute',
    left: 0,
    width: '100%',
    boxSizing: 'border-box',
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    borderLeft: '4px solid transparent',
    cursor: 'pointer',
  },
  cell: { minWidth: 0, overflow: 'hidden' },
  name: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  // Foreground2, not 3: it must stay readable on every tint, dark theme included.
  muted: { color: tokens.colorNeutralForeground2 },
  grow: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  footer: {
    display: 'flex',
    justifyContent: 'center',
    padding: tokens.spacingVerticalM,
    position: 'absolute',
    left: 0,
    width: '100%',
  },
  empty: {
    display: 'grid',
    placeItems: 'center',
    height: '100%',
    color: tokens.colorNeutralForeground3,
    textAlign: 'center',
    padding: tokens.spacingHorizontalXL,
  },
});

const tintStyles = makeStyles({
  neutral: { backgroundColor: bandTint.neutral, borderLeftColor: bandEdge.neutral },
  green: { backgroundColor: bandTint.green, borderLeftColor: bandEdge.green },
  yellow: { backgroundColor: bandTint.yellow, borderLeftColor: bandEdge.yellow },
  orange: { backgroundColor: bandTint.orange, borderLeftColor: bandEdge.orange },
  red: { backgroundColor: bandTint.red, borderLeftColor: bandEdge.red },
});

function RowMenu({
  bidder,
  onAction,
}: {
  bidder: BidderListItem;
  onAction(action: RowAction, bidder: BidderListItem): void;
}) {
  const can = useCan();
  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<MoreHorizontalRegular />}
          aria-label={`Actions for ${fullName(bidder)}`}
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
        />
      </MenuTrigger>
      <MenuPopover onClick={(event) => event.stopPropagation()}>
        <MenuList>
          <MenuItem icon={<PersonRegular />} onClick={() => onAction('view', bidder)}>
            View Profile
          </MenuItem>
          <MenuItem
            icon={<EditRegular />}
            disabled={!can('bidders:edit')}
            subText={can('bidders:edit') ? undefined : needsPermission('bidders:edit')}
            onClick={() => onAction('edit', bidder)}
          >
            Edit Details
          </MenuItem>
          <MenuItem
            icon={<MailRegular />}
            disabled={!can('bidders:invite') || !bidder.email}
            subText={
              !can('bidders:invite')
                ? needsPermission('bidders:invite')
                : bidder.email
                  ? undefined
                  : 'No email address on file'
            }
            onClick={() => onAction('invite', bidder)}
          >
            Send Invite
          </MenuItem>
          <MenuItem icon={<OptionsRegular />} onClick={() => onAction('settings', bidder)}>
            Score Settings
          </MenuItem>
          <MenuItem
            icon={<DeleteRegular />}
            disabled={!can('bidders:delete')}
            subText={can('bidders:delete') ? undefined : needsPermission('bidders:delete')}
            onClick={() => onAction('delete', bidder)}
          >
            Delete Bidder
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * The bidder list: a virtualised table on wide screens and cards on narrow ones, asking for the
 * next page from the server as the end comes into view.
 */
export function BidderTable({
  bidders,
  total,
  scoreType,
  loading,
  loadingMore,
  hasMore,
  onLoadMore,
  onOpen,
  onAction,
}: {
  bidders: BidderListItem[];
  total: number | undefined;
  scoreType: ScoreType;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  onLoadMore(): void;
  onOpen(bidder: BidderListItem): void;
  onAction(action: RowAction, bidder: BidderListItem): void;
}) {
  const styles = useStyles();
  const tints = tintStyles();
  const mobile = useMediaQuery('(max-width: 760px)');
  // The profile opened from a row hands focus back to that row when it closes.
  const restoreFocus = useRestoreFocusTarget();
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; the virtualiser re-renders itself on scroll
  const virtualizer = useVirtualizer({
    count: bidders.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => (mobile ? 76 : 64),
    overscan: 8,
    getItemKey: (index) => bidders[index]?.id ?? index,
  });
  useEffect(() => virtualizer.measure(), [mobile, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1);
  useEffect(() => {
    if (last && last.index >= bidders.length - 15 && hasMore && !loadingMore) onLoadMore();
  }, [last, bidders.length, hasMore, loadingMore, onLoadMore]);

  const label = scoreTypeLabel(scoreType);
  const keyOpen = (event: KeyboardEvent, bidder: BidderListItem) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(bidder);
    }
  };

  if (!loading && bidders.length === 0) {
    return (
      <div className={styles.scroller}>
        <div className={styles.empty}>
          <div>
            <Body1 block>No bidders match these filters.</Body1>
            <Caption1>Clear the search or filters, or add a bidder.</Caption1>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div ref={scroller} className={styles.scroller}>
      <div
        role="table"
        aria-label="Bidders"
        aria-rowcount={(total ?? bidders.length) + (mobile ? 0 : 1)}
        aria-busy={loading}
      >
        {mobile ? null : (
          <div className={styles.header} role="row" aria-rowindex={1}>
            <span role="columnheader">Bidder</span>
            <span role="columnheader">{label} score</span>
            <span role="columnheader">Contact</span>
            <span role="columnheader">Tier</span>
            <span role="columnheader">Status</span>
            <span role="columnheader">Auto-Invite</span>
            <span role="columnheader">
              <span className="visually-hidden">Actions</span>
            </span>
          </div>
        )}
        <div
          className={styles.body}
          role="rowgroup"
          style={{ height: virtualizer.getTotalSize() + (hasMore || loadingMore ? 56 : 0) }}
        >
          {items.map((item) => {
            const bidder = bidders[item.index] as BidderListItem;
            const score = scoreOf(bidder, scoreType);
            const tint = tints[bandOf(score)];
            const position = {
              top: 0,
              height: item.size,
              transform: `translateY(${item.start}px)`,
            };
            if (mobile) {
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 1}
                  tabIndex={0}
                  {...restoreFocus}
                  className={mergeClasses(styles.card, tint)}
                  style={position}
                  onClick={() => onOpen(bidder)}
                  onKeyDown={(event) => keyOpen(event, bidder)}
                >
                  <span role="cell">
                    <ScoreGauge
                      score={score.score}
                      unknown={isUnknown(score)}
                      label={`${label} score`}
                      size={48}
                    />
                  </span>
                  <span role="cell" className={styles.grow}>
                    <Text weight="semibold" className={styles.ellipsis}>
                      {fullName(bidder)}
                    </Text>
                    <Caption1 className={styles.muted}>
                      {bidder.bidderId} · {score.tier}
                    </Caption1>
                  </span>
                  <span role="cell">
                    <RowMenu bidder={bidder} onAction={onAction} />
                  </span>
                </div>
              );
            }
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                tabIndex={0}
                {...restoreFocus}
                className={mergeClasses(styles.row, tint)}
                style={position}
                onClick={() => onOpen(bidder)}
                onKeyDown={(event) => keyOpen(event, bidder)}
              >
                <span role="cell" className={mergeClasses(styles.cell, styles.name)}>
                  <Text weight="semibold" className={styles.ellipsis}>
                    {fullName(bidder)}
                  </Text>
                  <Caption1 className={styles.muted}>
                    {bidder.bidderId}
                    {bidder.aliases.length ? ` · also ${bidder.aliases.join(', ')}` : ''}
                  </Caption1>
                </span>
                <span role="cell">
                  <ScoreGauge
                    score={score.score}
                    unknown={isUnknown(score)}
                    label={`${label} score`}
                  />
                </span>
                <span role="cell" className={mergeClasses(styles.cell, styles.name)}>
                  <Caption1 className={styles.ellipsis}>{bidder.email ?? '—'}</Caption1>
                  <Caption1 className={mergeClasses(styles.ellipsis, styles.muted)}>
                    {bidder.phone ?? 'No phone'}
                  </Caption1>
                </span>
                <span role="cell">
                  <Badge appearance="tint" color={tierBadge[score.tier]}>
                    {score.tier}
                  </Badge>
                </span>
                {/* Tint, not outline: a badge with its own background reads the same on any row. */}
                <span role="cell">
                  <Badge appearance="tint" color={statusBadge[bidder.status]}>
                    {bidder.status}
                  </Badge>
                </span>
                <span role="cell">
                  <Badge appearance="tint" color={autoInviteBadge[bidder.autoInviteStatus]}>
                    {bidder.autoInviteStatus}
                  </Badge>
                </span>
                <span role="cell">
                  <RowMenu bidder={bidder} onAction={onAction} />
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {hasMore || loadingMore ? (
        <div
          className={styles.footer}
          style={{ top: virtualizer.getTotalSize() + (mobile ? 0 : 40) }}
        >
          <Spinner size="tiny" label="Loading more bidders..." />
        </div>
      ) : null}
    </div>
  );
}
