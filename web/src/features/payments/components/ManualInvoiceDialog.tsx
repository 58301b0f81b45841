import {
  Button,
  Combobox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { currencies, type Currency } from '@contracts/auctions/auctions.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { parseMoney } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBidderSearch, usePaymentActions, type ManualInvoiceBody } from '../api/payments';
import { useOpenRecord, usePaymentStyles } from './payment-style';
import { parseRate } from './rate-scale';

const useStyles = makeStyles({
  line: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) 160px 32px',
    gap: tokens.spacingHorizontalS,
    alignItems: 'start',
    // On a phone the description takes the whole row, the amount and its remove button below.
    '@media (max-width: 480px)': { gridTemplateColumns: 'minmax(0, 1fr) 32px' },
  },
  description: { '@media (max-width: 480px)': { gridColumn: '1 / -1' } },
  /**
   * The amount as wide as its column: a text input's own width (about 20 characters) would
   * otherwise push it out over the remove button.
   */
  fluid: { width: '100%', minWidth: 0 },
  fluidControl: { width: '100%' },
  /** The remove button level with the inputs, below their labels. */
  remove: { marginTop: '26px' },
});

interface LineDraft {
  description: string;
  amount: string;
}

/** Manual Invoice: an invoice by hand for a bidder (a private sale, a late charge). */
export function ManualInvoiceDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const styles = usePaymentStyles();
  const local = useStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const invoice = useOpenRecord('invoice');
  const [bidderSearch, setBidderSearch] = useState('');
  const [bidderListOpen, setBidderListOpen] = useState(false);
  const [bidder, setBidder] = useState<{ id: string; name: string } | null>(null);
  const bidders = useBidderSearch(bidderSearch === bidder?.name ? '' : bidderSearch);
  const [currency, setCurrency] = useState<Currency>('USD');
  const [lines, setLines] = useState<LineDraft[]>([{ description: '', amount: '' }]);
  const [shipping, setShipping] = useState('');
  const [taxRate, setTaxRate] = useState('0');
  const [dueDate, setDueDate] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const reset = () => {
    setBidder(null);
    setBidderSearch('');
    setLines([{ description: '', amount: '' }]);
    setShipping('');
    setTaxRate('0');
    setDueDate('');
    setNotes('');
    setErrors({});
  };
  const close = () => {
    reset();
    onClose();
  };
  const save = useAction(
    async (body: ManualInvoiceBody) => {
      const made = await actions.createManual(body);
      notify.success(
        'Invoice created',
        `${made.number} for ${made.bidderName} is a draft to approve.`,
      );
      close();
      invoice.open(made.id);
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError) setErrors(caught.fieldErrors());
        notify.error('The invoice was not created', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!bidder) found.bidderId = 'Bidder is required';
    const parsedLines = lines.map((line, index) => {
      const amount = parseMoney(line.amount, currency);
      if (!line.description.trim()) found[`lines.${index}.description`] = 'Description is required';
      if (!amount.ok) found[`lines.${index}.amount`] = `Amount ${amount.message}`;
      else if (amount.minor === null) found[`lines.${index}.amount`] = 'Amount is required';
      return { description: line.description.trim(), amount: amount.ok ? (amount.minor ?? 0) : 0 };
    });
    const ship = parseMoney(shipping, currency);
    if (!ship.ok) found.charges = `Shipping ${ship.message}`;
    const rate = parseRate(taxRate || '0');
    if (!rate.ok) found['taxRates.hammerBps'] = `Tax ${rate.message}`;
    setErrors(found);
    if (Object.keys(found).length || !bidder) return;
    const taxBps = rate.ok ? rate.bps : 0;
    void save.run({
      bidderId: bidder.id,
      currency,
      lines: parsedLines,
      charges: ship.ok && ship.minor ? [{ label: 'Shipping', amount: ship.minor }] : [],
      taxRates: { hammerBps: taxBps, premiumBps: taxBps, chargesBps: taxBps },
      ...(dueDate ? { dueDate } : {}),
      notes: notes.trim(),
    });
  };
  const error = (key: string) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && close()}>
      <DialogSurface className={styles.dialog}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Manual Invoice</DialogTitle>
            <DialogContent className={styles.dialogContent}>
              <div className={grid.row}>
                <Field label="Bidder" required {...error('bidderId')}>
                  <Combobox
                    placeholder="Search by name, bidder ID or email"
                    value={bidderSearch}
                    open={bidderListOpen}
                    onOpenChange={(_, data) => setBidderListOpen(data.open)}
                    selectedOptions={bidder ? [bidder.id] : []}
                    onChange={(event) => {
                      setBidderSearch(event.target.value);
                      setBidderListOpen(true);
                      setBidder(null);
                    }}
                    onOptionSelect={(_, option) => {
                      const found = bidders.data?.bidders.find((b) => b.id === option.optionValue);
                      if (!found) return;
                      const name = `${found.firstName} ${found.lastName}`.trim();
                      setBidder({ id: found.id, name });
                      setBidderSearch(name);
                    }}
                  >
                    {(bidders.data?.bidders ?? []).map((candidate) => {
                      const name = `${candidate.firstName} ${candidate.lastName}`.trim();
                      return (
                        <Option key={candidate.id} value={candidate.id} text={name}>
                          {name} ({candidate.bidderId})
                        </Option>
                      );
                    })}
                  </Combobox>
                </Field>
                <Field label="Currency">
                  <Dropdown
                    value={currency}
                    selectedOptions={[currency]}
                    onOptionSelect={(_, data) =>
                      setCurrency((data.optionValue as Currency | undefined) ?? currency)
                    }
                  >
                    {currencies.map((candidate) => (
                      <Option key={candidate}>{candidate}</Option>
                    ))}
                  </Dropdown>
                </Field>
              </div>
              <section className={styles.section} aria-label="Lines">
                <Subtitle2 as="h3" className={styles.sectionTitle}>
                  Lines
                </Subtitle2>
                {lines.map((line, index) => (
                  <div key={index} className={local.line}>
                    <Field
                      className={local.description}
                      label={`Line ${index + 1} description`}
                      required
                      {...error(`lines.${index}.description`)}
                    >
                      <Input
                        value={line.description}
                        maxLength={300}
                        onChange={(_, data) =>
                          setLines((current) =>
                            current.map((candidate, at) =>
                              at === index ? { ...candidate, description: data.value } : candidate,
                            ),
                          )
                        }
                      />
                    </Field>
                    <MoneyInput
                      label={`Line ${index + 1} amount`}
                      currency={currency}
                      value={line.amount}
                      required
                      error={errors[`lines.${index}.amount`]}
                      inputProps={{
                        className: local.fluid,
                        input: { className: local.fluidControl },
                      }}
                      onChange={(amount) =>
                        setLines((current) =>
                          current.map((candidate, at) =>
                            at === index ? { ...candidate, amount } : candidate,
                          ),
                        )
                      }
                    />
                    <Button
                      className={local.remove}
                      appearance="subtle"
                      icon={<DeleteRegular />}
                      aria-label={`Remove line ${index + 1}`}
                      disabled={lines.length === 1}
                      onClick={() => setLines((current) => current.filter((_, at) => at !== index))}
                    />
                  </div>
                ))}
                <div>
                  <Button
                    size="small"
                    icon={<AddRegular />}
                    onClick={() =>
                      setLines((current) => [...current, { description: '', amount: '' }])
                    }
                  >
                    Add line
                  </Button>
                </div>
              </section>
              <div className={grid.row}>
                <MoneyInput
                  label="Shipping"
                  currency={currency}
                  value={shipping}
                  onChange={setShipping}
                  error={errors.charges}
                  hint="Optional"
                />
                <Field label="Tax (%)" {...error('taxRates.hammerBps')}>
                  <Input
                    inputMode="decimal"
                    value={taxRate}
                    contentAfter={<span aria-hidden="true">%</span>}
                    onChange={(_, data) => setTaxRate(data.value)}
                  />
                </Field>
                <Field label="Due date" hint="Blank: the house's usual terms" {...error('dueDate')}>
                  <Input
                    type="date"
                    value={dueDate}
                    onChange={(_, data) => setDueDate(data.value)}
                  />
                </Field>
                <Field label="Notes" {...error('notes')}>
                  <Textarea
                    value={notes}
                    maxLength={5000}
                    onChange={(_, data) => setNotes(data.value)}
                  />
                </Field>
              </div>
              {save.error && !Object.keys(errors).length ? (
                <MessageBar intent="error">
                  <MessageBarBody>{save.error}</MessageBarBody>
                </MessageBar>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Creating...' : 'Create Invoice'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
