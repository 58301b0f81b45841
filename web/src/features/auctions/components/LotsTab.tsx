import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  AddRegular,
  ArrowDownRegular,
  ArrowImportRegular,
  ArrowUpRegular,
  BoxMultipleRegular,
  DeleteRegular,
  EditRegular,
  GavelRegular,
  MoreHorizontalRegular,
} from '@fluentui/react-icons';
import type { Auction } from '@contracts/auctions/auctions.schema';
import type { Lot } from '@contracts/auctions/lots/lots.schema';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { formatMoney } from '../../../lib/money';
import { needsPermission } from '../../../lib/permission-text';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useAuctionActions, useLots, useRegistrations } from '../api/auctions';
import { CatalogueImportDialog } from './CatalogueImportDialog';
import { ClerkingSheet } from './ClerkingSheet';
import { LotDialog } from './LotDialog';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground2 },
  frame: {
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowX: 'auto',
  },
  table: { minWidth: '980px' },
  headerRow: { backgroundColor: tokens.colorNeutralBackground3 },
  titleCell: { display: 'flex', flexDirection: 'column', paddingBlock: tokens.spacingVerticalS },
  clamp: {
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    maxWidth: '320px',
  },
  rowActions: { display: 'flex', alignItems: 'center', gap: '2px' },
  cards: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: 0,
    margin: 0,
  },
  cardItem: { listStyle: 'none' },
  cardHead: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
  },
  cardFacts: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
    color: tokens.colorNeutralForeground2,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    color: tokens.colorNeutralForeground2,
  },
});

function ResultCell({ lot, auction }: { lot: Lot; auction: Auction }) {
  const styles = useStyles();
  if (!lot.result) return <Caption1 className={styles.muted}>Not clerked</Caption1>;
  if (lot.result.outcome === 'passed')
    return (
      <Badge appearance="tint" color="informative">
        Passed
      </Badge>
    );
  return (
    <span className={styles.titleCell}>
      <Text weight="semibold">{formatMoney(lot.result.hammer ?? 0, auction.currency)}</Text>
      <Caption1 className={styles.muted}>
        {lot.result.buyerName ?? 'Buyer'}
        {lot.result.paddle ? ` · paddle ${lot.result.paddle}` : ''}
      </Caption1>
    </span>
  );
}

const estimateOf = (lot: Lot, auction: Auction) => {
  const money = (minor: number | null) =>
    minor === null ? null : formatMoney(minor, auction.currency);
  const low = money(lot.estimateLow);
  const high = money(lot.estimateHigh);
  if (low && high) return `${low}–${high}`;
  return low ?? high ?? '—';
};

/** The next lot number after the highest plain number in the catalogue. */
const nextLotNumber = (lots: Lot[]) =>
  String(
    lots.reduce((highest, lot) => {
      const number = Number.parseInt(lot.lotNumber, 10);
      return Number.isNaN(number) ? highest : Math.max(highest, number);
    }, 0) + 1,
  );

/**
 * The auction's catalogue: lots in sale order with estimates, reserve, consignor and result; add,
 * edit, delete, reorder and import. Clerking mode (`?clerk=1`) records results for a live sale,
 * and corrects them after it closed.
 */
export function LotsTab({ auction }: { auction: Auction }) {
  const styles = useStyles();
  const notify = useNotify();
  const can = useCan();
  const phone = useMediaQuery('(max-width: 760px)');
  const actions = useAuctionActions();
  const { data, error, mutate } = useLots(auction.id);
  const [params, setParams] = useSearchParams();
  const clerkable = auction.status === 'Active' || auction.status === 'Completed';
  const clerking = clerkable && params.get('clerk') === '1' && can('auctions:edit');
  const registrations = useRegistrations(clerking ? auction.id : null);
  const [editing, setEditing] = useState<Lot | null>(null);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<Lot | null>(null);
  const focusAfterMove = useRef<string | null>(null);
  const lots = data?.lots;
  // The catalogue is fixed once the sale is over; its results still take corrections.
  const catalogueOpen = auction.status !== 'Completed' && auction.status !== 'Cancelled';
  const mayEdit = can('auctions:edit') && catalogueOpen;
  const whyNot = catalogueOpen
    ? needsPermission('auctions:edit')
    : `The catalogue of a ${auction.status.toLowerCase()} auction is final`;
  const clerked = lots?.filter((lot) => lot.result).length ?? 0;

  // A moved lot keeps the focus on its button (or the other one, at the end of the list).
  useEffect(() => {
    const wanted = focusAfterMove.current;
    if (!wanted) return;
    focusAfterMove.current = null;
    const [lotId, direction] = wanted.split(':');
    const button =
      document.querySelector<HTMLButtonElement>(
        `[data-move="${lotId}:${direction}"]:not(:disabled)`,
      ) ?? document.querySelector<HTMLButtonElement>(`[data-move^="${lotId}:"]:not(:disabled)`);
    button?.focus();
  }, [lots]);

  const move = (index: number, delta: -1 | 1) => {
    if (!lots) return;
    const target = index + delta;
    const moved = lots[index];
    if (!moved || target < 0 || target >= lots.length) return;
    const ordered = [...lots];
    ordered.splice(index, 1);
    ordered.splice(target, 0, moved);
    focusAfterMove.current = `${moved.id}:${delta < 0 ? 'up' : 'down'}`;
    actions
      .reorderLots(auction.id, ordered)
      .catch((caught: unknown) => notify.error('The new order was not saved', messageOf(caught)));
  };
  const setClerking = (on: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set('clerk', '1');
        else next.delete('clerk');
        return next;
      },
      { replace: true },
    );

  const rowMenu = (lot: Lot) => (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<MoreHorizontalRegular />}
          aria-label={`Actions for lot ${lot.lotNumber}`}
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem
            icon={<EditRegular />}
            disabled={!mayEdit}
            subText={mayEdit ? undefined : whyNot}
            onClick={() => setEditing(lot)}
          >
            Edit Lot
          </MenuItem>
          <MenuItem
            icon={<DeleteRegular />}
            disabled={!mayEdit}
            subText={mayEdit ? undefined : whyNot}
            onClick={() => setDeleting(lot)}
          >
            Delete Lot
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
  const moveButtons = (lot: Lot, index: number) =>
    mayEdit && lots ? (
      <>
        <Button
          appearance="subtle"
          size="small"
          icon={<ArrowUpRegular />}
          aria-label={`Move lot ${lot.lotNumber} up`}
          data-move={`${lot.id}:up`}
          disabled={index === 0}
          onClick={() => move(index, -1)}
        />
        <Button
          appearance="subtle"
          size="small"
          icon={<ArrowDownRegular />}
          aria-label={`Move lot ${lot.lotNumber} down`}
          data-move={`${lot.id}:down`}
          disabled={index === lots.length - 1}
          onClick={() => move(index, 1)}
        />
      </>
    ) : null;

  const list = () => {
    if (error) {
      return (
        <MessageBar intent="error">
          <MessageBarBody>The lots could not be loaded: {messageOf(error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      );
    }
    if (!lots) {
      return (
        <Skeleton aria-label="Loading lots">
          {[0, 1, 2].map((row) => (
            <SkeletonItem key={row} size={40} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      );
    }
    if (!lots.length) {
      return (
        <div className={styles.frame}>
          <div className={styles.empty}>
            <BoxMultipleRegular fontSize={32} aria-hidden="true" />
            <Text weight="semibold">No lots yet</Text>
            <Body1>Add lots one by one, or import the whole catalogue from a file.</Body1>
          </div>
        </div>
      );
    }
    if (clerking) {
      return (
        <ClerkingSheet
          auction={auction}
          lots={lots}
          registrations={registrations.data?.registrations ?? []}
        />
      );
    }
    if (phone) {
      return (
        <ul className={styles.cards} aria-label="Lots">
          {lots.map((lot, index) => (
            <li key={lot.id} className={styles.cardItem}>
              <Card>
                <div className={styles.cardHead}>
                  <span className={styles.titleCell}>
                    <Text weight="semibold">
                      Lot {lot.lotNumber}: {lot.title}
                    </Text>
                    <Caption1 className={styles.muted}>
                      Est. {estimateOf(lot, auction)}
                      {lot.category ? ` · ${lot.category}` : ''}
                    </Caption1>
                  </span>
                  <span className={styles.rowActions}>
                    {moveButtons(lot, index)}
                    {rowMenu(lot)}
                  </span>
                </div>
                <div className={styles.cardFacts}>
                  <ResultCell lot={lot} auction={auction} />
                  {lot.consignor ? <Caption1>Consignor: {lot.consignor.name}</Caption1> : null}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      );
    }
    return (
      <div className={styles.frame}>
        <Table className={styles.table} aria-label="Lots">
          <TableHeader>
            <TableRow className={styles.headerRow}>
              <TableHeaderCell style={{ width: '64px' }}>Lot</TableHeaderCell>
              <TableHeaderCell>Title</TableHeaderCell>
              <TableHeaderCell style={{ width: '130px' }}>Category</TableHeaderCell>
              <TableHeaderCell style={{ width: '160px' }}>Estimate</TableHeaderCell>
              <TableHeaderCell style={{ width: '100px' }}>Reserve</TableHeaderCell>
              <TableHeaderCell style={{ width: '150px' }}>Consignor</TableHeaderCell>
              <TableHeaderCell style={{ width: '170px' }}>Result</TableHeaderCell>
              <TableHeaderCell style={{ width: mayEdit ? '112px' : '56px' }}>
                <span className="visually-hidden">Actions</span>
              </TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {lots.map((lot, index) => (
              <TableRow key={lot.id}>
                <TableCell>
                  <Text weight="semibold">{lot.lotNumber}</Text>
                </TableCell>
                <TableCell>
                  <span className={styles.titleCell}>
                    <Text className={styles.clamp}>{lot.title}</Text>
                    {lot.description ? (
                      <Caption1 className={`${styles.muted} ${styles.clamp}`}>
                        {lot.description}
                      </Caption1>
                    ) : null}
                  </span>
                </TableCell>
                <TableCell>{lot.category ?? '—'}</TableCell>
                <TableCell>{estimateOf(lot, auction)}</TableCell>
                <TableCell>
                  {lot.reserve === null ? '—' : formatMoney(lot.reserve, auction.currency)}
                </TableCell>
                <TableCell>
                  {lot.consignor ? (
                    <span className={styles.titleCell}>
                      <span>{lot.consignor.name}</span>
                      {lot.consignor.contact ? (
                        <Caption1 className={`${styles.muted} ${styles.clamp}`}>
                          {lot.consignor.contact}
                        </Caption1>
                      ) : null}
                    </span>
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell>
                  <ResultCell lot={lot} auction={auction} />
                </TableCell>
                <TableCell>
                  <span className={styles.rowActions}>
                    {moveButtons(lot, index)}
                    {rowMenu(lot)}
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    );
  };

  return (
    <div className={styles.stack}>
      <div className={styles.toolbar}>
        <Caption1 className={styles.muted} aria-live="polite">
          {lots
            ? `${countOf(lots.length, 'lot')} · ${clerked.toLocaleString()} clerked`
            : 'Loading lots...'}
        </Caption1>
        <div className={styles.buttons}>
          {clerkable ? (
            clerking ? (
              <Button appearance="primary" onClick={() => setClerking(false)}>
                Done Clerking
              </Button>
            ) : (
              <PermittedButton
                permission="auctions:edit"
                appearance="primary"
                icon={<GavelRegular />}
                onClick={() => setClerking(true)}
              >
                {auction.status === 'Active' ? 'Clerk Sale' : 'Correct Results'}
              </PermittedButton>
            )
          ) : null}
          {clerking || !catalogueOpen ? null : (
            <>
              <PermittedButton
                permission="auctions:edit"
                icon={<ArrowImportRegular />}
                onClick={() => setImporting(true)}
              >
                Import Catalogue
              </PermittedButton>
              <PermittedButton
                permission="auctions:edit"
                appearance={clerkable ? 'secondary' : 'primary'}
                icon={<AddRegular />}
                onClick={() => setAdding(true)}
              >
                Add Lot
              </PermittedButton>
            </>
          )}
        </div>
      </div>
      {list()}
      <LotDialog
        auction={auction}
        lot={editing}
        open={adding || editing !== null}
        suggestedNumber={nextLotNumber(lots ?? [])}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
      <CatalogueImportDialog
        auction={auction}
        open={importing}
        onClose={() => setImporting(false)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete lot ${deleting.lotNumber}?` : 'Delete lot?'}
        confirmLabel="Delete Lot"
        busyLabel="Deleting..."
        danger
        failureTitle="The lot was not deleted"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await actions.removeLot(auction.id, deleting.id);
          notify.success(`Lot ${deleting.lotNumber} deleted`);
        }}
      >
        {deleting ? `${deleting.title} is removed from the catalogue.` : ''}
      </ConfirmDialog>
    </div>
  );
}
