import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { Currency } from '@contracts/auctions/auctions.schema';
import { useState, type FormEvent, type ReactNode } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { parseMoney } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export interface ReasonDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  /** Asks for the settlement agreed too, in the case's currency. */
  settlementCurrency?: Currency;
  /** What happens to the settlement, beside its amount. */
  settlementHint?: string;
  /** The title of the toast when the action fails. */
  failureTitle: string;
  onConfirm(reason: string, settlementAmount?: number): Promise<unknown>;
  onClose(): void;
}

/**
 * A confirmation that records why: the confirm button stays off until a reason (and, when
 * settling, an amount) is given. A failure keeps the dialog open with what was typed.
 */
export function ReasonDialog({
  open,
  title,
  children,
  confirmLabel,
  busyLabel = 'Saving...',
  settlementCurrency,
  settlementHint,
  failureTitle,
  onConfirm,
  onClose,
}: ReasonDialogProps) {
  const styles = useStyles();
  const notify = useNotify();
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('');
  const settlement = settlementCurrency ? parseMoney(amount, settlementCurrency) : null;
  const amountError = settlement && !settlement.ok ? `Settlement amount ${settlement.message}` : '';
  const settlementMinor = settlement?.ok ? settlement.minor : null;
  const ready =
    reason.trim() !== '' &&
    (!settlementCurrency || (settlementMinor !== null && settlementMinor > 0));

  const close = () => {
    setReason('');
    setAmount('');
    onClose();
  };
  const confirm = useAction(
    async () => {
      await onConfirm(reason.trim(), settlementMinor ?? undefined);
      close();
    },
    { onError: (message) => notify.error(failureTitle, message) },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && !confirm.busy) void confirm.run();
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !confirm.busy && close()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.content}>
              {typeof children === 'string' ? <Body1>{children}</Body1> : children}
              {settlementCurrency ? (
                <MoneyInput
                  label="Settlement amount"
                  currency={settlementCurrency}
                  value={amount}
                  onChange={setAmount}
                  error={amountError || undefined}
                  required
                  hint={settlementHint}
                />
              ) : null}
              <Field label="Reason" required hint="Recorded in the case's timeline.">
                <Textarea
                  value={reason}
                  onChange={(_, data) => setReason(data.value)}
                  resize="vertical"
                  rows={3}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={confirm.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={!ready || confirm.busy}>
                {confirm.busy ? busyLabel : confirmLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
