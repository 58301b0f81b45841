import {
  Badge,
  Button,
  Caption1,
  DrawerBody,
  DrawerFooter,
  DrawerHeader,
  DrawerHeaderTitle,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  OverlayDrawer,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleRegular, DismissRegular } from '@fluentui/react-icons';
import type { Auction } from '@contracts/auctions/auctions.schema';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useAuctionActions, useHouses } from '../api/auctions';
import {
  checkUpdate,
  formFromAuction,
  serverFieldErrors,
  type AuctionFormState,
} from './auction-form';
import { AuctionFormFields } from './AuctionFormFields';

const useStyles = makeStyles({
  drawer: { width: 'min(680px, 100vw)' },
  // Its children keep their height; the panel scrolls instead of squeezing them.
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  form: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 },
  source: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground2 },
  footer: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
});

/**
 * Edit Auction, a panel over the auction: every field, and the status it may move to. Saved
 * against the version it opened (its ETag); if someone changed the auction meanwhile, it says so
 * and loads their version.
 */
export function EditAuctionPanel({
  auction,
  onClose,
}: {
  auction: Auction | null;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useAuctionActions();
  const { AuctionSyncActions, AuctionSyncHistory } = useFeatureSlots();
  const { data: houseList } = useHouses();
  // The version being edited: the one opened, or the newer one loaded after a conflict.
  const [base, setBase] = useState<Auction | null>(auction);
  const [form, setForm] = useState<AuctionFormState | null>(auction && formFromAuction(auction));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useFocusFirstError(errors);
  const [stale, setStale] = useState(false);
  const [openedId, setOpenedId] = useState(auction?.id ?? null);
  if ((auction?.id ?? null) !== openedId) {
    setOpenedId(auction?.id ?? null);
    setBase(auction);
    setForm(auction && formFromAuction(auction));
    setErrors({});
    setStale(false);
  }

  const reload = useAction(
    async () => {
      if (!base) return;
      const fresh = await actions.fetch(base.id);
      setBase(fresh);
      setForm(formFromAuction(fresh));
      setErrors({});
      setStale(false);
    },
    { onError: (message) => notify.error('The auction could not be loaded', message) },
  );

  const save = useAction(
    async (changes: Parameters<typeof actions.update>[1]) => {
      if (!base) return;
      if (Object.keys(changes).length) {
        await actions.update(base, changes);
        notify.success('Auction saved');
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        const fields = serverFieldErrors(caught);
        if (Object.keys(fields).length) {
          setErrors(fields);
          notify.error(
            'The auction was not saved',
            correctFieldsMessage(Object.keys(fields).length),
          );
        } else if (caught instanceof ApiError && caught.status === 412) {
          setStale(true);
        } else {
          notify.error('The auction was not saved', message);
        }
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!base || !form) return;
    const checked = checkUpdate(base, form);
    if (!checked.ok) {
      setErrors(checked.errors);
      notify.error(correctFieldsMessage(Object.keys(checked.errors).length));
      return;
    }
    setErrors({});
    void save.run(checked.changes);
  };

  const final = base?.status === 'Completed' || base?.status === 'Cancelled';
  const fieldState = (key: string) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });
  const houses = houseList?.houses.filter(
    (house) => house.status === 'active' || house.id === base?.auctionHouseId,
  );
  return (
    <OverlayDrawer
      position="end"
      size="medium"
      className={styles.drawer}
      open={auction !== null}
      onOpenChange={(_, data) => !data.open && !save.busy && onClose()}
    >
      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
        <DrawerHeader>
          <DrawerHeaderTitle
            action={
              <Button
                appearance="subtle"
                aria-label="Close"
                icon={<DismissRegular />}
                onClick={onClose}
                disabled={save.busy}
              />
            }
          >
            Edit Auction
          </DrawerHeaderTitle>
          {base?.importedFrom ? (
            <div className={styles.source}>
              <Badge appearance="tint" color="brand" icon={<CheckmarkCircleRegular />}>
                Imported from {base.importedFrom}
              </Badge>
              <Caption1 className={styles.muted}>
                Last sync:{' '}
                {base.source?.lastSyncAt
                  ? new Date(base.source.lastSyncAt).toLocaleString()
                  : 'never'}
              </Caption1>
              {AuctionSyncActions ? (
                <AuctionSyncActions auctionId={base.id} importedFrom={base.importedFrom} />
              ) : null}
            </div>
          ) : null}
        </DrawerHeader>
        <DrawerBody className={styles.body} tabIndex={0} role="region" aria-label="Auction fields">
          {stale ? (
            <MessageBar intent="warning" layout="multiline">
              <MessageBarBody>
                Someone else changed this auction while you were editing. Reload it to see their
                changes, then make yours again.
              </MessageBarBody>
              <MessageBarActions>
                <Button onClick={() => void reload.run()} disabled={reload.busy}>
                  Reload
                </Button>
              </MessageBarActions>
            </MessageBar>
          ) : null}
          {Object.keys(errors).length ? (
            <MessageBar intent="error">
              <MessageBarBody>{correctFieldsMessage(Object.keys(errors).length)}</MessageBarBody>
            </MessageBar>
          ) : null}
          {form && base && final ? (
            <>
              <MessageBar intent="info" layout="multiline">
                <MessageBarBody>
                  A {base.status.toLowerCase()} auction keeps its record: only its notes can change.
                </MessageBarBody>
              </MessageBar>
              <Field label="Notes" {...fieldState('notes')}>
                <Textarea
                  value={form.notes}
                  onChange={(_, data) =>
                    setForm((current) => current && { ...current, notes: data.value })
                  }
                  resize="vertical"
                  rows={6}
                />
              </Field>
            </>
          ) : form && base ? (
            <AuctionFormFields
              form={form}
              update={(change) => setForm((current) => current && change(current))}
              errors={errors}
              houses={houses}
              // Completing is closing, which checks every lot is clerked: it has its own button.
              statuses={[
                base.status,
                ...base.allowedStatuses.filter((status) => status !== 'Completed'),
              ]}
              statusHint={
                base.status === 'Active'
                  ? 'Only the moves this auction may make are offered. To complete it, use Close Auction.'
                  : 'Only the moves this auction may make are offered.'
              }
            />
          ) : null}
          {base?.importedFrom && AuctionSyncHistory ? (
            <AuctionSyncHistory auctionId={base.id} />
          ) : null}
        </DrawerBody>
        <DrawerFooter className={styles.footer}>
          <Button onClick={onClose} disabled={save.busy}>
            Cancel
          </Button>
          <Button appearance="primary" type="submit" disabled={save.busy || stale}>
            {save.busy ? 'Saving...' : 'Save Changes'}
          </Button>
        </DrawerFooter>
      </form>
    </OverlayDrawer>
  );
}
