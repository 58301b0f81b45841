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
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Subtitle2,
  Textarea,
} from '@fluentui/react-components';
import type { Agreement, AgreementTerms } from '@contracts/payments/settlements/settlements.schema';
import { useState, type FormEvent } from 'react';
import { MoneyInput } from '../../../components/MoneyInput';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { currencyLabel, parseMoney, toMajorText, type MoneyCurrency } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useAgreements, useSettlementActions } from '../api/settlements';
import { usePaymentStyles } from './payment-style';
import { bandsOf, bpsText, parseRate, scaleOf, type BandDraft } from './rate-scale';
import { ScaleEditor } from './ScaleEditor';

type Kind = AgreementTerms['commission']['kind'];
const kindLabels: Record<Kind, string> = {
  none: 'No commission',
  fixed: 'Fixed percentage',
  sliding: 'Sliding scale (each band of a lot’s hammer at its rate)',
  cumulative: "Cumulative sliding scale (the consignor's total hammer in the sale sets the rate)",
};

/** A consignor's agreement, or the house default: the commission scheme, fees and payout. */
export function AgreementDialog({
  agreement,
  open,
  onClose,
}: {
  /** Null: a new consignor's agreement. */
  agreement: Agreement | null;
  open: boolean;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = useSettlementActions();
  // An agreement's amounts are in its own currency; a new one's in the account's (the list says).
  const accountCurrency = useAgreements().data?.currency;
  const known: MoneyCurrency | undefined = agreement?.currency ?? accountCurrency;
  const currency: MoneyCurrency = known ?? 'USD';
  const commission = agreement?.commission ?? { kind: 'fixed', rateBps: 1500, minimumPerLot: 0 };
  const isDefault = agreement?.isDefault ?? false;
  const [name, setName] = useState(agreement?.consignorName ?? '');
  const [kind, setKind] = useState<Kind>(commission.kind);
  const [rate, setRate] = useState(
    commission.kind === 'fixed' ? bpsText(commission.rateBps) : '15',
  );
  const [bands, setBands] = useState<BandDraft[]>(() =>
    commission.kind === 'sliding' || commission.kind === 'cumulative'
      ? bandsOf(commission.scale, currency)
      : [
          { upTo: '10000', rate: '20' },
          { upTo: '', rate: '15' },
        ],
  );
  const [minimum, setMinimum] = useState(
    commission.kind === 'none' ? '' : toMajorText(commission.minimumPerLot || null, currency),
  );
  const fees = agreement?.fees ?? { perLot: 0, insuranceBps: 0, buyBackBps: 0 };
  const [perLot, setPerLot] = useState(toMajorText(fees.perLot || null, currency));
  const [insurance, setInsurance] = useState(bpsText(fees.insuranceBps));
  const [buyBack, setBuyBack] = useState(bpsText(fees.buyBackBps));
  const [payout, setPayout] = useState(agreement?.payoutDetails ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [etag, setEtag] = useState(agreement?.etag ?? '');

  const save = useAction(
    async (terms: AgreementTerms) => {
      try {
        if (isDefault) await actions.saveDefaultAgreement(etag, terms);
        else if (agreement)
          await actions.updateAgreement(
            { id: agreement.id, etag },
            { ...terms, consignorName: name.trim() },
          );
        else await actions.createAgreement({ ...terms, consignorName: name.trim() });
      } catch (error) {
        if (error instanceof ApiError && error.status === 412 && agreement) {
          const fresh = isDefault
            ? await actions.fetchDefaultAgreement()
            : await actions.fetchAgreement(agreement.id);
          setEtag(fresh.etag);
          throw new Error(
            'Someone else changed this agreement. Yours is kept here: save again to replace theirs.',
          );
        }
        throw error;
      }
      notify.success('Agreement saved', isDefault ? 'The default terms' : name.trim());
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError) setErrors(caught.fieldErrors());
        notify.error('The agreement was not saved', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!isDefault && !name.trim()) found.consignorName = 'Consignor name is required';
    const money = (text: string, key: string, label: string) => {
      const parsed = parseMoney(text, currency);
      if (!parsed.ok) found[key] = `${label} ${parsed.message}`;
      return parsed.ok ? (parsed.minor ?? 0) : 0;
    };
    const percent = (text: string, key: string, label: string) => {
      const parsed = parseRate(text || '0');
      if (!parsed.ok) found[key] = `${label} ${parsed.message}`;
      return parsed.ok ? parsed.bps : 0;
    };
    const minimumPerLot = money(minimum, 'commission.minimumPerLot', 'Minimum per lot');
    let scheme: AgreementTerms['commission'] = { kind: 'none' };
    if (kind === 'fixed')
      scheme = { kind, rateBps: percent(rate, 'commission.rateBps', 'Rate'), minimumPerLot };
    if (kind === 'sliding' || kind === 'cumulative') {
      const parsed = scaleOf(bands, currency, 'commission.scale');
      Object.assign(found, parsed.errors);
      scheme = { kind, scale: parsed.scale, minimumPerLot };
    }
    const terms: AgreementTerms = {
      currency,
      commission: scheme,
      fees: {
        perLot: money(perLot, 'fees.perLot', 'Fee per lot'),
        insuranceBps: percent(insurance, 'fees.insuranceBps', 'Insurance'),
        buyBackBps: percent(buyBack, 'fees.buyBackBps', 'Buy-back fee'),
      },
      payoutDetails: payout.trim(),
    };
    setErrors(found);
    // Not before the account's currency is known: the amounts would be read in another one.
    if (Object.keys(found).length || !known) return;
    void save.run(terms);
  };
  const error = (key: string) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });
  const title = isDefault
    ? 'Default consignor terms'
    : agreement
      ? `Agreement: ${agreement.consignorName ?? ''}`
      : 'New consignor agreement';
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface className={styles.dialog}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.dialogContent}>
              {isDefault ? (
                <Body1>For every consignor without an agreement of their own.</Body1>
              ) : (
                <Field
                  label="Consignor name"
                  required
                  hint="As the lots name the consignor."
                  {...error('consignorName')}
                >
                  <Input value={name} maxLength={200} onChange={(_, data) => setName(data.value)} />
                </Field>
              )}
              <Caption1 className={styles.muted}>
                Amounts are in {currencyLabel(currency)}.
              </Caption1>
              <section className={styles.section} aria-label="Commission">
                <Subtitle2 as="h3" className={styles.sectionTitle}>
                  Commission
                </Subtitle2>
                <RadioGroup
                  aria-label="Commission scheme"
                  value={kind}
                  onChange={(_, data) => setKind(data.value as Kind)}
                >
                  {(Object.keys(kindLabels) as Kind[]).map((candidate) => (
                    <Radio key={candidate} value={candidate} label={kindLabels[candidate]} />
                  ))}
                </RadioGroup>
                {kind === 'fixed' ? (
                  <Field label="Commission rate (%)" {...error('commission.rateBps')}>
                    <Input
                      inputMode="decimal"
                      value={rate}
                      contentAfter={<span aria-hidden="true">%</span>}
                      onChange={(_, data) => setRate(data.value)}
                    />
                  </Field>
                ) : null}
                {kind === 'sliding' || kind === 'cumulative' ? (
                  <ScaleEditor
                    name="Commission"
                    prefix="commission.scale"
                    currency={currency}
                    bands={bands}
                    onChange={setBands}
                    errors={errors}
                  />
                ) : null}
                {kind !== 'none' ? (
                  <MoneyInput
                    label="Minimum commission per lot"
                    currency={currency}
                    value={minimum}
                    onChange={setMinimum}
                    error={errors['commission.minimumPerLot']}
                    hint="Optional"
                  />
                ) : null}
              </section>
              <section className={styles.section} aria-label="Fees">
                <Subtitle2 as="h3" className={styles.sectionTitle}>
                  Fees
                </Subtitle2>
                <div className={grid.row}>
                  <MoneyInput
                    label="Fee per lot"
                    currency={currency}
                    value={perLot}
                    onChange={setPerLot}
                    error={errors['fees.perLot']}
                  />
                  <Field label="Insurance (% of hammer)" {...error('fees.insuranceBps')}>
                    <Input
                      inputMode="decimal"
                      value={insurance}
                      contentAfter={<span aria-hidden="true">%</span>}
                      onChange={(_, data) => setInsurance(data.value)}
                    />
                  </Field>
                  <Field label="Buy-back fee (% of hammer)" {...error('fees.buyBackBps')}>
                    <Input
                      inputMode="decimal"
                      value={buyBack}
                      contentAfter={<span aria-hidden="true">%</span>}
                      onChange={(_, data) => setBuyBack(data.value)}
                    />
                  </Field>
                </div>
              </section>
              <Field
                label="Payout details"
                hint="Bank details or a cheque address."
                {...error('payoutDetails')}
              >
                <Textarea
                  value={payout}
                  maxLength={2000}
                  onChange={(_, data) => setPayout(data.value)}
                />
              </Field>
              {save.error ? (
                <MessageBar intent="error">
                  <MessageBarBody>{save.error}</MessageBarBody>
                </MessageBar>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy || !known}>
                {save.busy ? 'Saving...' : 'Save Agreement'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
