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
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Skeleton,
  SkeletonItem,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { AuctionListItem } from '@contracts/auctions/auctions.schema';
import type { InventoryListItem, LotGroup } from '@contracts/inventory/inventory.schema';
import { useState, type FormEvent } from 'react';
import { AppLink } from '../../../components/AppLink';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useAddGroupToAuction, useInventoryActions, useOpenAuctions } from '../api/inventory';
import { estimateText } from './item-style';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  choices: {
    display: 'flex',
    flexDirection: 'column',
    maxHeight: '320px',
    overflowY: 'auto',
  },
  choice: { display: 'flex', flexDirection: 'column' },
  pieces: { margin: 0, paddingInlineStart: tokens.spacingHorizontalXL },
});

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Draft · 3 lots · May 12, 2026" */
function describe(auction: AuctionListItem): string {
  const parts: string[] = [auction.status, countOf(auction.lotCount, 'lot')];
  if (auction.startDate) parts.push(dayFormat.format(new Date(`${auction.startDate}T00:00:00Z`)));
  return parts.join(' · ');
}

/**
 * Add to Auction: the item becomes a lot of a Draft or Upcoming auction, numbered after the last
 * lot unless a number is given. The service applies the photo rule and says why it refuses. With
 * a `group` (Optimal lot grouping) its items become ONE lot under the title given.
 */
export function AddToAuctionDialog({
  item,
  group,
  onClose,
}: (
  | {
      item: Pick<InventoryListItem, 'id' | 'etag' | 'title' | 'estimatedValue' | 'currency'>;
      group?: undefined;
    }
  | { group: LotGroup; item?: undefined }
) & { onClose(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useInventoryActions();
  const addGroup = useAddGroupToAuction();
  const auctions = useOpenAuctions(true);
  const [auctionId, setAuctionId] = useState('');
  const [lotNumber, setLotNumber] = useState('');
  const [title, setTitle] = useState(group?.title ?? '');
  const number = lotNumber.trim() ? { lotNumber: lotNumber.trim() } : {};
  const add = useAction(
    async () => {
      if (group) {
        const made = await addGroup({
          itemIds: group.items.map((piece) => piece.id),
          auctionId,
          title: title.trim(),
          ...number,
        });
        notify.success(
          'Added to auction as one lot',
          `"${made.lot.title}" is lot ${made.lot.lotNumber} of ${made.lot.auctionTitle}, with ${countOf(made.items.length, 'item')}.`,
        );
      } else {
        const moved = await actions.addToAuction(item, { auctionId, ...number });
        notify.success(
          'Added to auction',
          moved.auction
            ? `"${moved.title}" is lot ${moved.auction.lotNumber} of ${moved.auction.auctionTitle}.`
            : `"${moved.title}" is in the auction.`,
        );
      }
      onClose();
    },
    {
      onError: (message) =>
        notify.error(
          group
            ? 'The items were not added to the auction'
            : 'The item was not added to the auction',
          message,
        ),
    },
  );
  const choices = auctions.data?.auctions ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!auctionId || add.busy || (group && !title.trim())) return;
    void add.run();
  };

  const list = () => {
    if (auctions.error) {
      return (
        <MessageBar intent="error">
          <MessageBarBody>
            The auctions could not be loaded: {messageOf(auctions.error)}
          </MessageBarBody>
        </MessageBar>
      );
    }
    if (!auctions.data) {
      return (
        <Skeleton aria-label="Loading auctions">
          <SkeletonItem size={40} />
        </Skeleton>
      );
    }
    if (!choices.length) {
      return (
        <Body1>
          No Draft or Upcoming auctions. <AppLink to="/auctions/new">Create an auction</AppLink>{' '}
          first, then add the item to it.
        </Body1>
      );
    }
    return (
      <Field
        label="Auction"
        required
        validationMessage={add.fieldErrors.auctionId}
        validationState={add.fieldErrors.auctionId ? 'error' : 'none'}
      >
        <RadioGroup
          className={styles.choices}
          value={auctionId}
          onChange={(_, data) => setAuctionId(data.value)}
        >
          {choices.map((auction) => (
            <Radio
              key={auction.id}
              value={auction.id}
              label={
                <span className={styles.choice}>
                  <span>{auction.title}</span>
                  <Caption1 className={styles.muted}>{describe(auction)}</Caption1>
                </span>
              }
            />
          ))}
        </RadioGroup>
      </Field>
    );
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !add.busy && onClose()}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} noValidate aria-label="Add to auction">
          <DialogBody>
            <DialogTitle>{group ? 'Add as one lot' : 'Add to Auction'}</DialogTitle>
            <DialogContent className={styles.content}>
              {group ? (
                <>
                  <Body1>
                    {countOf(group.items.length, 'item')} as one lot{' '}
                    <span className={styles.muted}>
                      (estimate{' '}
                      {estimateText({ estimatedValue: group.estimate, currency: group.currency })})
                    </span>
                  </Body1>
                  <ul className={styles.pieces} aria-label="Items in the lot">
                    {group.items.map((piece) => (
                      <li key={piece.id}>
                        <Caption1>
                          {piece.title}{' '}
                          <span className={styles.muted}>({estimateText(piece)})</span>
                        </Caption1>
                      </li>
                    ))}
                  </ul>
                  <Field
                    label="Lot title"
                    required
                    validationMessage={add.fieldErrors.title}
                    validationState={add.fieldErrors.title ? 'error' : 'none'}
                  >
                    <Textarea
                      value={title}
                      maxLength={300}
                      rows={2}
                      resize="vertical"
                      // One line in the catalogue, though it wraps here.
                      onChange={(_, data) => setTitle(data.value.replace(/\s*\n\s*/g, ' '))}
                    />
                  </Field>
                </>
              ) : (
                <Body1>
                  <strong>{item.title}</strong>{' '}
                  <span className={styles.muted}>(estimate {estimateText(item)})</span>
                </Body1>
              )}
              {list()}
              {choices.length ? (
                <Field
                  label="Lot number"
                  hint="Left blank, the next number after the auction's last lot"
                  validationMessage={add.fieldErrors.lotNumber}
                  validationState={add.fieldErrors.lotNumber ? 'error' : 'none'}
                >
                  <Input
                    value={lotNumber}
                    maxLength={20}
                    onChange={(_, data) => setLotNumber(data.value)}
                  />
                </Field>
              ) : null}
              {add.error && !Object.keys(add.fieldErrors).length ? (
                <MessageBar intent="error" layout="multiline">
                  <MessageBarBody>{add.error}</MessageBarBody>
                </MessageBar>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={add.busy}>
                Cancel
              </Button>
              <Button
                appearance="primary"
                type="submit"
                disabled={!auctionId || add.busy || (group !== undefined && !title.trim())}
              >
                {add.busy ? 'Adding...' : group ? 'Add as one lot' : 'Add to Auction'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
