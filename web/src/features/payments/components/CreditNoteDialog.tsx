import {
  Body1,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Textarea,
} from '@fluentui/react-components';
import type { Invoice } from '@contracts/payments/payments.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { ApiError } from '../../../lib/api-client';
import { formatMoneyExact, parseMoney } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions } from '../api/payments';
import { usePaymentStyles } from './payment-style';

/**
 * Credit Note: corrects a sent invoice by lots credited in full (hammer, premium and their tax)
 * and an amount of its charges, with the reason. The invoice itself is never rewritten.
 */
export function CreditNoteDialog({
  invoice,
  open,
  onClose,
}: {
  invoice: Invoice;
  open: boolean;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const money = (minor: number) => formatMoneyExact(minor, invoice.currency);
  const credited = new Set(invoice.credits.flatMap((note) => note.lotIds));
  const lots = invoice.lines.filter((line) => line.lotId && !credited.has(line.lotId));
  const [chosen, setChosen] = useState<string[]>([]);
  const [charges, setCharges] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAction(
    async (chargesMinor: number) => {
      const saved = await actions.creditNote(invoice.id, {
        lotIds: chosen,
        charges: chargesMinor,
        reason: reason.trim(),
      });
      const note = saved.credits.at(-1);
      notify.success(
        'Credit note issued',
        note ? `${note.number} takes ${money(note.total)} off ${invoice.number}.` : invoice.number,
      );
      onClose();
    },
    {
      onError: (message, caught) => {
        setErrors(caught instanceof ApiError ? caught.fieldErrors() : {});
        notify.error('The credit note was not issued', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMoney(charges, invoice.currency);
    const found: Record<string, string> = {};
    if (!parsed.ok) found.charges = `Charges ${parsed.message}`;
    if (!reason.trim()) found.reason = 'Reason is required';
    if (parsed.ok && !chosen.length && !parsed.minor)
      found.lotIds = 'Choose at least one lot or an amount of charges';
    setErrors(found);
    if (!parsed.ok || Object.keys(found).length) return;
    void save.run(parsed.minor ?? 0);
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Credit Note for {invoice.number}</DialogTitle>
            <DialogContent className={styles.dialogContent}>
              <Body1>
                A credit note takes lots (with their premium and tax) or charges off the invoice.
                The invoice stays as it was sent.
              </Body1>
              <Field
                label="Lots credited"
                validationMessage={errors.lotIds}
                validationState={errors.lotIds ? 'error' : 'none'}
              >
                <div role="group" aria-label="Lots credited" className={styles.section}>
                  {lots.length ? (
                    lots.map((line) => (
                      <Checkbox
                        key={line.lotId}
                        label={`Lot ${line.lotNumber}: ${line.title} (${money(line.hammer)})`}
                        checked={chosen.includes(line.lotId ?? '')}
                        onChange={(_, data) =>
                          setChosen((current) =>
                            data.checked
                              ? [...current, line.lotId ?? '']
                              : current.filter((id) => id !== line.lotId),
                          )
                        }
                      />
                    ))
                  ) : (
                    <Body1 className={styles.muted}>No lots left to credit.</Body1>
                  )}
                </div>
              </Field>
              {invoice.chargesTotal ? (
                <MoneyInput
                  label="Charges credited"
                  currency={invoice.currency}
                  value={charges}
                  onChange={setCharges}
                  error={errors.charges}
                  hint={`Before tax; the invoice's charges are ${money(invoice.chargesTotal)}.`}
                />
              ) : null}
              <Field
                label="Reason"
                required
                validationMessage={errors.reason}
                validationState={errors.reason ? 'error' : 'none'}
              >
                <Textarea
                  value={reason}
                  maxLength={1000}
                  onChange={(_, data) => setReason(data.value)}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Issuing...' : 'Issue Credit Note'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
