import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, ArrowSyncRegular } from '@fluentui/react-icons';
import type { InventoryItem, InventoryListItem } from '@contracts/inventory/inventory.schema';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { RoutedTabsPage } from '../../../components/RoutedTabsPage';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useInventoryActions, useInventoryOverview } from '../api/inventory';
import { AddToAuctionDialog } from './AddToAuctionDialog';
import { ItemDetailDialog } from './ItemDetailDialog';
import { ItemFormDialog } from './ItemFormDialog';
import { ItemsTab } from './ItemsTab';
import { OverviewTab } from './OverviewTab';
import { SuggestionsTab } from './SuggestionsTab';

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** A dialog over the page; the item's detail (`?item=`) waits beneath it. */
type Overlay =
  | { kind: 'create' }
  | { kind: 'edit'; item: InventoryItem }
  | { kind: 'auction'; item: InventoryListItem }
  | { kind: 'delete'; item: InventoryItem };

/**
 * Inventory (spec 2.5): Overview (`/inventory`), All Items (`/inventory/items`) and AI
 * Suggestions (`/inventory/suggestions`); an item's detail opens over any of them at `?item={id}`.
 */
export default function InventoryPage() {
  const styles = useStyles();
  const notify = useNotify();
  const [params, setParams] = useSearchParams();
  const [overlay, setOverlay] = useState<Overlay | null>(null);
  const overview = useInventoryOverview();
  const actions = useInventoryActions();
  const itemId = params.get('item');

  const openItem = (id: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('item', id);
      return next;
    });
  const closeItem = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('item');
        return next;
      },
      { replace: true },
    );

  const sync = useAction(
    async () => {
      const { rescored } = await actions.recompute();
      notify.success('Inventory synced', `${countOf(rescored, 'item')} rescored.`);
    },
    { onError: (message) => notify.error('The inventory was not synced', message) },
  );
  const addButton = (
    <PermittedButton
      permission="inventory:create"
      appearance="primary"
      icon={<AddRegular />}
      onClick={() => setOverlay({ kind: 'create' })}
    >
      Add Item
    </PermittedButton>
  );
  const close = () => setOverlay(null);

  return (
    <RoutedTabsPage
      title="Inventory"
      base="/inventory"
      label="Inventory sections"
      indexTab="overview"
      actions={
        <div className={styles.actions}>
          <PermittedButton
            permission="inventory:edit"
            icon={<ArrowSyncRegular />}
            disabled={sync.busy}
            onClick={() => void sync.run()}
          >
            {sync.busy ? 'Syncing...' : 'Sync Inventory'}
          </PermittedButton>
          {addButton}
        </div>
      }
      tabs={[
        {
          id: 'overview',
          label: 'Overview',
          render: () => <OverviewTab onOpen={openItem} addButton={addButton} />,
        },
        {
          id: 'items',
          label: 'All Items',
          render: () => <ItemsTab onOpen={openItem} addButton={addButton} />,
        },
        {
          id: 'suggestions',
          label: 'AI Suggestions',
          render: () => (
            <SuggestionsTab
              onOpen={openItem}
              onAddToAuction={(item) => setOverlay({ kind: 'auction', item })}
            />
          ),
        },
      ]}
    >
      {itemId && !overlay ? (
        <ItemDetailDialog
          key={itemId}
          itemId={itemId}
          onClose={closeItem}
          onEdit={(item) => setOverlay({ kind: 'edit', item })}
          onAddToAuction={(item) => setOverlay({ kind: 'auction', item })}
          onDelete={(item) => setOverlay({ kind: 'delete', item })}
        />
      ) : null}
      {overlay?.kind === 'create' ? (
        <ItemFormDialog
          currency={overview.data?.totalValue.currency ?? 'USD'}
          onClose={close}
          onSaved={(item) => openItem(item.id)}
        />
      ) : null}
      {overlay?.kind === 'edit' ? (
        <ItemFormDialog item={overlay.item} currency={overlay.item.currency} onClose={close} />
      ) : null}
      {overlay?.kind === 'auction' ? (
        <AddToAuctionDialog item={overlay.item} onClose={close} />
      ) : null}
      {overlay?.kind === 'delete' ? (
        <ConfirmDialog
          open
          title="Delete item"
          confirmLabel="Delete"
          busyLabel="Deleting..."
          danger
          failureTitle="The item was not deleted"
          onConfirm={async () => {
            await actions.remove(overlay.item);
            closeItem();
            notify.success(
              'Item deleted',
              `"${overlay.item.title}" is no longer in your inventory.`,
            );
          }}
          onClose={close}
        >
          <Body1>
            Delete &quot;{overlay.item.title}&quot; with its photos and history? This cannot be
            undone.
          </Body1>
        </ConfirmDialog>
      ) : null}
    </RoutedTabsPage>
  );
}
