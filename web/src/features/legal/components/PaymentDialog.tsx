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
  Input,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { LegalCase } from '@contracts/legal/legal.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { ApiError } from '../../../lib/api-client';
import { formatMoney, parseMoney, toMajorText } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useLegalActions } from '../api/legal';
import { todayOnCalendar } from './case-style';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/**
 * Records that the settlement was paid. With automation on the case closes on it at once (spec
 * 4.2, "payment received: close settled cases"); paused, it stays SETTLED until someone closes it.
 */
export function PaymentDialog({
  legalCase,
  open,
  onClose,
}: {
  legalCase: LegalCase;
  open: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const agreed = legalCase.settlementAmount ?? 0;
  const [amount, setAmount] = useState(() => toMajorText(agreed, legalCase.currency));
  const [receivedOn, setReceivedOn] = useState(todayOnCalendar);
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const close = () => {
    setErrors({});
    onClose();
  };
  const save = useAction(
    async (minor: number) => {
      const saved = await actions.recordPayment(legalCase.id, {
        amount: minor,
        receivedOn,
        reference: reference.trim(),
      });
      notify.success(
        'Payment recorded',
        saved.status === 'CLOSED'
          ? `${saved.caseNumber} is CLOSED.`
          : `${saved.caseNumber} stays ${saved.status} while its automation is paused.`,
      );
      close();
    },
    {
      onError: (message, caught) => {
        const fields = caught instanceof ApiError ? caught.fieldErrors() : {};
        setErrors(fields);
        notify.error('The payment was not recorded', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseMoney(amount, legalCase.currency);
    const found: Record<string, string> = {};
    if (!parsed.ok) found.amount = `Amount ${parsed.message}`;
    else if (!parsed.minor) found.amount = 'Amount is required';
    if (!receivedOn) found.receivedOn = 'Received on is required';
    setErrors(found);
    if (Object.keys(found).length || !parsed.ok || !parsed.minor) return;
    void save.run(parsed.minor);
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && close()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Record settlement payment</DialogTitle>
            <DialogContent className={styles.content}>
              <Body1>
                The settlement agreed is {formatMoney(agreed, legalCase.currency)}.
                {legalCase.automationPaused
                  ? ' Automation is paused, so the case stays SETTLED until someone closes it.'
                  : ' The case closes once the payment is recorded.'}
              </Body1>
              <MoneyInput
                label="Amount received"
                currency={legalCase.currency}
                value={amount}
                onChange={setAmount}
                error={errors.amount}
                required
              />
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
                hint="Optional: a transfer or cheque number."
                validationMessage={errors.reference}
                validationState={errors.reference ? 'error' : 'none'}
              >
                <Input value={reference} onChange={(_, data) => setReference(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={save.busy}>
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
