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
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { BidderListItem, DuplicateView } from '@contracts/bidders/bidders.schema';
import { useState } from 'react';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBidderActions } from '../api/bidders';
import { fullName } from './score-style';
import { bidderFieldLabels } from './field-labels';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  sides: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    '@media (max-width: 560px)': { gridTemplateColumns: '1fr' },
  },
  side: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  primary: { border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}` },
  muted: { color: tokens.colorNeutralForeground3 },
  conflicts: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

function Side({ bidder, role, chosen }: { bidder: BidderListItem; role: string; chosen: boolean }) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.side, chosen && styles.primary)}>
      <Caption1 className={styles.muted}>{role}</Caption1>
      <Text weight="semibold">{fullName(bidder)}</Text>
      <Caption1>
        {bidder.bidderId} · {bidder.email ?? 'no email'} · {bidder.phone ?? 'no phone'}
      </Caption1>
      <Caption1 className={styles.muted}>
        {[bidder.address.street, bidder.address.city, bidder.address.state, bidder.address.zip]
          .filter(Boolean)
          .join(', ') || 'No address'}
      </Caption1>
    </div>
  );
}

/** Resolve Duplicate Bidders: which record stays, and which value wins for each conflicting field. */
export function MergeDialog({ pair, onClose }: { pair: DuplicateView | null; onClose(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const [primary, setPrimary] = useState<1 | 2>(1);
  const [chosen, setChosen] = useState<Record<string, 1 | 2>>({});
  const merge = useAction(
    async (
      pairId: string,
      first: BidderListItem,
      second: BidderListItem,
      resolved: Record<string, string>,
    ) => {
      // The versions the reviewer saw: a record changed since answers 412, nothing merged.
      await actions.merge(pairId, {
        primaryId: first.id,
        secondaryId: second.id,
        primaryEtag: first.etag,
        secondaryEtag: second.etag,
        resolved,
      });
      notify.success(
        'Bidders merged',
        `${fullName(second)} (${second.bidderId}) is now part of ${fullName(first)}.`,
      );
      onClose();
    },
  );
  const [shown, setShown] = useState(pair?.id);
  if (pair?.id !== shown) {
    setShown(pair?.id);
    // The record that came first usually holds the longer history, so it stays by default.
    setPrimary(pair && pair.bidder2.createdAt < pair.bidder1.createdAt ? 2 : 1);
    setChosen({});
    merge.reset();
  }
  if (!pair) return null;
  const first = primary === 1 ? pair.bidder1 : pair.bidder2;
  const second = primary === 1 ? pair.bidder2 : pair.bidder1;
  // Each conflict defaults to the primary record's value.
  const choiceOf = (field: string): 1 | 2 => chosen[field] ?? primary;

  const resolved = () =>
    Object.fromEntries(
      pair.conflicts.map((conflict) => [
        conflict.field,
        choiceOf(conflict.field) === 1 ? conflict.value1 : conflict.value2,
      ]),
    );

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !merge.busy && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Resolve Duplicate Bidders</DialogTitle>
          <DialogContent className={styles.content}>
            {merge.error ? (
              <MessageBar intent="error">
                <MessageBarBody>{merge.error}</MessageBarBody>
              </MessageBar>
            ) : null}
            <Field label="Which record stays?">
              <RadioGroup
                layout="horizontal"
                value={String(primary)}
                onChange={(_, data) => {
                  setPrimary(data.value === '2' ? 2 : 1);
                  setChosen({});
                }}
              >
                <Radio value="1" label={`${fullName(pair.bidder1)} (${pair.bidder1.bidderId})`} />
                <Radio value="2" label={`${fullName(pair.bidder2)} (${pair.bidder2.bidderId})`} />
              </RadioGroup>
            </Field>
            <div className={styles.sides}>
              <Side bidder={first} role="Primary record" chosen />
              <Side bidder={second} role="Secondary record" chosen={false} />
            </div>
            {pair.conflicts.length ? (
              <div className={styles.conflicts}>
                <Text weight="semibold">Choose the value to keep for each conflicting field</Text>
                {pair.conflicts.map((conflict) => (
                  <Field
                    key={conflict.field}
                    label={bidderFieldLabels[conflict.field] ?? conflict.field}
                  >
                    <RadioGroup
                      layout="horizontal"
                      value={String(choiceOf(conflict.field))}
                      onChange={(_, data) =>
                        setChosen((current) => ({
                          ...current,
                          [conflict.field]: data.value === '2' ? 2 : 1,
                        }))
                      }
                    >
                      <Radio value="1" label={conflict.value1 || '(empty)'} />
                      <Radio value="2" label={conflict.value2 || '(empty)'} />
                    </RadioGroup>
                  </Field>
                ))}
              </div>
            ) : (
              <Body1>The two records agree on every field.</Body1>
            )}
            <MessageBar intent="info">
              <MessageBarBody>
                Merge impact: {fullName(second)}&apos;s auction history, notes and invitations move
                to {fullName(first)}, whose scores are recalculated. {second.bidderId} is kept as an
                alias, so searches for it still find this bidder. The secondary record is removed,
                and the merge is recorded in the audit log.
              </MessageBarBody>
            </MessageBar>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={merge.busy}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              onClick={() => void merge.run(pair.id, first, second, resolved())}
              disabled={merge.busy}
            >
              {merge.busy ? 'Merging...' : 'Merge Bidders'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
