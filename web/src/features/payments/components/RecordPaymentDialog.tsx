import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  Option,
} from '@fluentui/react-components';
import {
  offlinePaymentMethods,
  type Invoice,
  type OfflinePaymentMethod,
} from '@contracts/payments/payments.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { formatMoneyExact, parseMoney, toMajorText } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions } from '../api/payments';
import { todayOnCalendar, usePaymentStyles } from './payment-style';

/** Record Payment: money the house already holds (a wire, a cheque, cash), all or part of the balance. */
export function RecordPaymentDialog({
  invoice,
  open,
  onClose,
}: {
  invoice: Invoice;
  open: boolean;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const money = (minor: number) => formatMoneyExact(minor, invoice.currency);
  const [amount, setAmount] = useState(() => toMajorText(invoice.balance, invoice.currency));
  const [method, setMethod] = useState<OfflinePaymentMethod>('Bank Transfer');
  const [receivedOn, setReceivedOn] = useState(todayOnCalendar);
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAction(
    async (minor: number) => {
      const saved = await actions.recordPayment(invoice.id, {
        amount: minor,
        method,
        receivedOn,
        reference: reference.trim(),
      });
      notify.success(
        'Payment recorded',
        `${money(minor)} by ${method.toLowerCase()} on ${invoice.number} (${saved.transactionId}).`,
      );
      onClose();
    },
    {
      onError: (message, caught) => {
        setErrors(caught instanceof ApiError ? caught.fieldErrors() : {});
        notify.error('The payment was not recorded', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMoney(amount, invoice.currency);
    const found: Record<string, string> = {};
    if (!parsed.ok) found.amount = `Amount ${parsed.message}`;
    else if (!parsed.minor) found.amount = 'Amount is required';
    else if (parsed.minor > invoice.balance)
      found.amount = `Amount is at most the balance, ${money(invoice.balance)}`;
    if (!receivedOn) found.receivedOn = 'Received on is required';
    setErrors(found);
    if (!parsed.ok || !parsed.minor || Object.keys(found).length) return;
    void save.run(parsed.minor);
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Record Payment</DialogTitle>
            <DialogContent className={styles.dialogContent}>
              <Body1>
                {invoice.bidderName} owes {money(invoice.balance)} on {invoice.number}.
              </Body1>
              <div className={grid.row}>
                <MoneyInput
                  label="Amount received"
                  currency={invoice.currency}
                  value={amount}
                  onChange={setAmount}
                  error={errors.amount}
                  required
                />
                <Field label="Method" required>
                  <Dropdown
                    value={method}
                    selectedOptions={[method]}
                    onOptionSelect={(_, data) =>
                      setMethod((data.optionValue as OfflinePaymentMethod | undefined) ?? method)
                    }
                  >
                    {offlinePaymentMethods.map((candidate) => (
                      <Option key={candidate} value={candidate}>
                        {candidate}
                      </Option>
                    ))}
                  </Dropdown>
                </Field>
                <Field
                  label="Received on"
                  required
                  validationMessage={errors.receivedOn}
                  validationState={errors.receivedOn ? 'error' : 'none'}
                >
                  <Input
                    type="date"
                    value={receivedOn}
                    onChange={(_, data) => setReceivedOn(data.value)}
                  />
                </Field>
                <Field
                  label="Reference"
                  hint="Optional: a wire reference or cheque number."
                  validationMessage={errors.reference}
                  validationState={errors.reference ? 'error' : 'none'}
                >
                  <Input
                    value={reference}
                    maxLength={200}
                    onChange={(_, data) => setReference(data.value)}
                  />
                </Field>
              </div>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Recording...' : 'Record Payment'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
