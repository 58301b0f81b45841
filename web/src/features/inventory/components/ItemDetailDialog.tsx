import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Divider,
  makeStyles,
  Menu,
  MenuButton,
  MenuItemRadio,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  AddRegular,
  ArrowUndoRegular,
  DeleteRegular,
  DismissRegular,
  EditRegular,
} from '@fluentui/react-icons';
import {
  auctionableStatuses,
  manualStatuses,
  type InventoryItem,
  type InventoryStatus,
} from '@contracts/inventory/inventory.schema';
import type { ReactNode } from 'react';
import { AppLink } from '../../../components/AppLink';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useInventoryActions, useItem } from '../api/inventory';
import { ItemPhotos } from './ItemPhotos';
import { SimilarItems } from './SimilarItems';
import { formatMoney } from '../../../lib/money';
import {
  estimateText,
  formatDay,
  formatMoment,
  ScoreBadge,
  StatusBadge,
  TrendBadge,
} from './item-style';

const useStyles = makeStyles({
  surface: { maxWidth: '860px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  badges: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
    '@media (max-width: 480px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    gap: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    margin: 0,
  },
  fact: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  description: { whiteSpace: 'pre-wrap' },
  reasons: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
  ai: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  history: {
    margin: 0,
    padding: 0,
    listStyle: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  entry: { display: 'flex', flexDirection: 'column' },
  muted: { color: tokens.colorNeutralForeground3 },
  heading: { margin: 0 },
  // Two buttons to a row on a phone, rather than a tall stack that hides the item.
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalS,
    '@media (max-width: 480px)': { flexDirection: 'row', '& > *': { flex: '1 1 40%' } },
  },
});

function Fact({ label, children }: { label: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.fact}>
      <dt>
        <Caption1 className={styles.term}>{label}</Caption1>
      </dt>
      <dd className={styles.value}>
        <Body1>{children}</Body1>
      </dd>
    </div>
  );
}

/** Status moves a person makes by hand; In Auction and Sold come from auctions. */
function StatusMenu({
  item,
  disabled,
  onMove,
}: {
  item: InventoryItem;
  disabled: boolean;
  onMove(status: InventoryStatus): void;
}) {
  const can = useCan();
  const locked = item.status === 'In Auction' || item.status === 'Sold';
  if (!can('inventory:edit') || locked) return null;
  return (
    <Menu
      checkedValues={{ status: [item.status] }}
      onCheckedValueChange={(_, data) => {
        const status = manualStatuses.find((candidate) => candidate === data.checkedItems[0]);
        if (status && status !== item.status) onMove(status);
      }}
    >
      <MenuTrigger disableButtonEnhancement>
        <MenuButton disabled={disabled}>Change Status</MenuButton>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {manualStatuses.map((status) => (
            <MenuItemRadio key={status} name="status" value={status}>
              {status}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * An item's detail (the spec's fields, the consignor, photos, the AI score with its trend and
 * reasons, the value estimate and the history), with what may be done to it.
 */
export function ItemDetailDialog({
  itemId,
  onClose,
  onEdit,
  onAddToAuction,
  onDelete,
}: {
  itemId: string;
  onClose(): void;
  onEdit(item: InventoryItem): void;
  onAddToAuction(item: InventoryItem): void;
  onDelete(item: InventoryItem): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useInventoryActions();
  const { data: item, error, mutate } = useItem(itemId);
  const failed = (title: string) => (message: string, caught: unknown) => {
    if (caught instanceof ApiError && caught.status === 412) {
      notify.warning(
        'This item changed',
        'Someone else saved it since you opened it; it now shows their changes.',
      );
      void mutate();
      return;
    }
    notify.error(title, message);
  };
  const move = useAction(
    async (status: InventoryStatus) => {
      if (!item) return;
      await actions.moveStatus(item, { status });
      notify.success('Status changed', `"${item.title}" is ${status}.`);
    },
    { onError: failed('The status was not changed') },
  );
  const takeOut = useAction(
    async () => {
      if (!item) return;
      const moved = await actions.removeFromAuction(item);
      notify.success('Removed from auction', `"${moved.title}" is ${moved.status} again.`);
    },
    { onError: failed('The item was not removed from the auction') },
  );
  const busy = move.busy || takeOut.busy;

  const body = () => {
    if (error && !item) {
      return (
        <MessageBar intent="error">
          <MessageBarBody>
            {error instanceof ApiError && error.status === 404
              ? 'This item no longer exists.'
              : `The item could not be loaded: ${messageOf(error)}`}
          </MessageBarBody>
          {error instanceof ApiError && error.status === 404 ? null : (
            <MessageBarActions>
              <Button onClick={() => void mutate()}>Try again</Button>
            </MessageBarActions>
          )}
        </MessageBar>
      );
    }
    if (!item) {
      return (
        <Skeleton aria-label="Loading the item">
          <SkeletonItem size={48} style={{ marginBottom: 8 }} />
          <SkeletonItem size={96} />
        </Skeleton>
      );
    }
    return (
      <>
        <div className={styles.badges}>
          <StatusBadge status={item.status} />
          <TrendBadge trend={item.marketTrend} />
          <ScoreBadge score={item.auctionSuggestionScore} />
        </div>
        {item.auction ? (
          <MessageBar intent="info" layout="multiline">
            <MessageBarBody>
              Lot {item.auction.lotNumber} of{' '}
              <AppLink to={`/auctions/${item.auction.auctionId}/lots`}>
                {item.auction.auctionTitle}
              </AppLink>
              , added {formatMoment(item.auction.addedAt)}.
            </MessageBarBody>
          </MessageBar>
        ) : null}
        <dl className={styles.facts}>
          <Fact label="Category">
            {item.category}
            {item.categorySuggested ? ' (suggested)' : ''}
          </Fact>
          <Fact label="Subcategory">{item.subcategory || '—'}</Fact>
          <Fact label="Condition">{item.condition}</Fact>
          <Fact label="Estimated value">{estimateText(item)}</Fact>
          <Fact label="Last sold price">
            {item.lastSoldPrice === null ? '—' : formatMoney(item.lastSoldPrice, item.currency)}
          </Fact>
          <Fact label="Location">{item.location || '—'}</Fact>
          <Fact label="Acquired">{formatDay(item.acquiredDate)}</Fact>
          <Fact label="Consignor">
            {item.consignor
              ? `${item.consignor.name}${item.consignor.contact ? ` · ${item.consignor.contact}` : ''}`
              : '—'}
          </Fact>
          <Fact label="Item ID">{item.id}</Fact>
        </dl>
        {item.description ? (
          <section className={styles.section}>
            <Subtitle2 as="h3" className={styles.heading}>
              Description
            </Subtitle2>
            <Body1 className={styles.description}>{item.description}</Body1>
          </section>
        ) : null}
        <ItemPhotos item={item} />
        <section className={styles.ai} aria-label="AI suggestion">
          <Subtitle2 as="h3" className={styles.heading}>
            AI score {item.auctionSuggestionScore} of 100 · {item.marketTrend} market
          </Subtitle2>
          {item.suggestionReasons.length ? (
            <ul className={styles.reasons}>
              {item.suggestionReasons.map((reason) => (
                <li key={reason}>
                  <Body1>{reason}</Body1>
                </li>
              ))}
            </ul>
          ) : null}
          {item.valueEstimate ? (
            <Body1>
              Value estimate:{' '}
              <strong>
                {formatMoney(item.valueEstimate.low, item.currency)}–
                {formatMoney(item.valueEstimate.high, item.currency)}
              </strong>{' '}
              <span className={styles.muted}>({item.valueEstimate.basis})</span>
            </Body1>
          ) : null}
          <Caption1 className={styles.muted}>Scored {formatMoment(item.scoredAt)}</Caption1>
        </section>
        <SimilarItems itemId={item.id} />
        <Divider />
        <section className={styles.section}>
          <Subtitle2 as="h3" className={styles.heading}>
            History
          </Subtitle2>
          <ol className={styles.history}>
            {[...item.history].reverse().map((entry, index) => (
              <li key={`${entry.at}-${index}`} className={styles.entry}>
                <Body1>{entry.message}</Body1>
                <Caption1 className={styles.muted}>
                  {formatMoment(entry.at)} · {entry.by.name}
                </Caption1>
              </li>
            ))}
          </ol>
        </section>
      </>
    );
  };

  const auctionable = item
    ? (auctionableStatuses as readonly InventoryStatus[]).includes(item.status)
    : false;
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface} aria-label={item?.title ?? 'Item'}>
        <DialogBody>
          <DialogTitle
            action={
              <DialogTrigger action="close">
                <Button appearance="subtle" aria-label="Close" icon={<DismissRegular />} />
              </DialogTrigger>
            }
          >
            {item ? item.title : <Text>Item</Text>}
          </DialogTitle>
          <DialogContent className={styles.content}>{body()}</DialogContent>
          {item ? (
            <DialogActions className={styles.actions}>
              <PermittedButton
                permission="inventory:delete"
                icon={<DeleteRegular />}
                disabled={busy}
                onClick={() => onDelete(item)}
              >
                Delete
              </PermittedButton>
              <StatusMenu item={item} disabled={busy} onMove={(status) => void move.run(status)} />
              {item.status === 'In Auction' ? (
                <PermittedButton
                  permission="inventory:edit"
                  icon={<ArrowUndoRegular />}
                  disabled={busy}
                  onClick={() => void takeOut.run()}
                >
                  {takeOut.busy ? 'Removing...' : 'Remove from Auction'}
                </PermittedButton>
              ) : null}
              {auctionable ? (
                <PermittedButton
                  permission="inventory:edit"
                  icon={<AddRegular />}
                  disabled={busy}
                  onClick={() => onAddToAuction(item)}
                >
                  Add to Auction
                </PermittedButton>
              ) : null}
              <PermittedButton
                permission="inventory:edit"
                appearance="primary"
                icon={<EditRegular />}
                disabled={busy}
                onClick={() => onEdit(item)}
              >
                Edit
              </PermittedButton>
            </DialogActions>
          ) : null}
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
