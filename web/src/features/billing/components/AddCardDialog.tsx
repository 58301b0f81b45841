import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { CardField, type CardFieldState } from '../../../components/CardField';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { createSetupIntent, fetchStripeCustomer, useBillingActions } from '../api/billing';

const useStyles = makeStyles({
  surface: { maxWidth: '520px' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** Saves a card through Stripe's card element; the card number never reaches Lotwise. */
export function AddCardDialog({
  open,
  firstCard,
  onClose,
}: {
  open: boolean;
  firstCard: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBillingActions();
  const [card, setCard] = useState<CardFieldState | null>(null);
  const [makeDefault, setMakeDefault] = useState(true);
  // The card element goes when the dialog closes; its state must not outlive it.
  const close = () => {
    setCard(null);
    onClose();
  };
  const save = useAction(
    async () => {
      if (!card) return;
      const intent = await createSetupIntent();
      const method = await actions.addCard(
        await card.confirmSetup(intent.clientSecret),
        firstCard || makeDefault,
      );
      notify.success('Card added', `${method.brand.toUpperCase()} ending in ${method.last4}`);
      close();
    },
    { onError: (message) => notify.error('Failed to add card', message) },
  );
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && close()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Add Credit Card</DialogTitle>
          <DialogContent className={styles.content}>
            {open ? <CardField fetchKeys={fetchStripeCustomer} onChange={setCard} /> : null}
            {firstCard ? null : (
              <Checkbox
                checked={makeDefault}
                onChange={(_, data) => setMakeDefault(Boolean(data.checked))}
                label="Use this card for my subscription"
              />
            )}
            {save.error ? (
              <MessageBar intent="error">
                <MessageBarBody>{save.error}</MessageBarBody>
              </MessageBar>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={save.busy} onClick={close}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={save.busy || !(card?.ready && card.complete)}
              onClick={() => void save.run()}
            >
              {save.busy ? 'Saving...' : 'Save Card'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
