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
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Switch,
} from '@fluentui/react-components';
import type { InvoiceTerms } from '@contracts/payments/payments.schema';
import { useState, type FormEvent } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions, useTerms } from '../api/payments';
import { usePaymentStyles } from './payment-style';
import { bandsOf, bpsText, parseRate, scaleOf, type BandDraft } from './rate-scale';
import { ScaleEditor } from './ScaleEditor';

const taxFields = [
  ['hammerBps', 'Tax on hammer (%)'],
  ['premiumBps', 'Tax on premium (%)'],
  ['chargesBps', 'Tax on charges (%)'],
] as const;

function TermsForm({
  terms,
  title,
  onClose,
}: {
  terms: InvoiceTerms;
  title: string;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const [premium, setPremium] = useState<BandDraft[]>(() => bandsOf(terms.premium, terms.currency));
  const [internetOn, setInternetOn] = useState(terms.internetPremium !== null);
  const [internet, setInternet] = useState<BandDraft[]>(() =>
    bandsOf(terms.internetPremium ?? terms.premium, terms.currency),
  );
  const [tax, setTax] = useState(() => ({
    hammerBps: bpsText(terms.tax.hammerBps),
    premiumBps: bpsText(terms.tax.premiumBps),
    chargesBps: bpsText(terms.tax.chargesBps),
  }));
  const [dueDays, setDueDays] = useState(String(terms.paymentDueDays));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [etag, setEtag] = useState(terms.etag);

  const save = useAction(
    async (body: Parameters<typeof actions.saveTerms>[2]) => {
      try {
        await actions.saveTerms(terms.auctionId, etag, body);
      } catch (error) {
        if (error instanceof ApiError && error.status === 412) {
          const fresh = await actions.fetchTerms(terms.auctionId);
          setEtag(fresh.etag);
          throw new Error(
            'Someone else changed these terms. Yours are kept here: save again to replace theirs, or close to see them.',
          );
        }
        throw error;
      }
      notify.success('Invoice terms saved', `They price the invoices of ${title} from now on.`);
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError) setErrors(caught.fieldErrors());
        notify.error('The terms were not saved', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const main = scaleOf(premium, terms.currency, 'premium');
    const online = scaleOf(internet, terms.currency, 'internetPremium');
    const found: Record<string, string> = { ...main.errors, ...(internetOn ? online.errors : {}) };
    const rates = { hammerBps: 0, premiumBps: 0, chargesBps: 0 };
    for (const [key, label] of taxFields) {
      const parsed = parseRate(tax[key]);
      if (parsed.ok) rates[key] = parsed.bps;
      else found[`tax.${key}`] = `${label.replace(' (%)', '')} ${parsed.message}`;
    }
    const days = Number(dueDays);
    if (!/^\d+$/.test(dueDays.trim()) || days > 365)
      found.paymentDueDays = 'Payment due is a number of days from 0 to 365';
    setErrors(found);
    if (Object.keys(found).length) return;
    void save.run({
      premium: main.scale,
      internetPremium: internetOn ? online.scale : null,
      tax: rates,
      defaultCharges: terms.defaultCharges,
      paymentDueDays: days,
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <DialogBody>
        <DialogTitle>Invoice terms: {title}</DialogTitle>
        <DialogContent className={styles.dialogContent}>
          <Body1>
            How this auction&apos;s invoices are priced. Invoices already made keep the terms they
            were made with.
          </Body1>
          <section className={styles.section} aria-label="Buyer's premium">
            <Subtitle2 as="h3" className={styles.sectionTitle}>
              Buyer&apos;s premium
            </Subtitle2>
            <ScaleEditor
              name="Premium"
              prefix="premium"
              currency={terms.currency}
              bands={premium}
              onChange={setPremium}
              errors={errors}
            />
          </section>
          <section className={styles.section} aria-label="Internet premium">
            <Switch
              checked={internetOn}
              label="A different premium for lots won online"
              onChange={(_, data) => setInternetOn(data.checked)}
            />
            {internetOn ? (
              <ScaleEditor
                name="Internet premium"
                prefix="internetPremium"
                currency={terms.currency}
                bands={internet}
                onChange={setInternet}
                errors={errors}
              />
            ) : null}
          </section>
          <section className={styles.section} aria-label="Tax and due date">
            <Subtitle2 as="h3" className={styles.sectionTitle}>
              Tax and payment
            </Subtitle2>
            <div className={grid.row}>
              {taxFields.map(([key, label]) => (
                <Field
                  key={key}
                  label={label}
                  validationMessage={errors[`tax.${key}`]}
                  validationState={errors[`tax.${key}`] ? 'error' : 'none'}
                >
                  <Input
                    inputMode="decimal"
                    value={tax[key]}
                    contentAfter={<span aria-hidden="true">%</span>}
                    onChange={(_, data) => setTax((current) => ({ ...current, [key]: data.value }))}
                  />
                </Field>
              ))}
              <Field
                label="Payment due (days after the sale)"
                validationMessage={errors.paymentDueDays}
                validationState={errors.paymentDueDays ? 'error' : 'none'}
              >
                <Input
                  inputMode="numeric"
                  value={dueDays}
                  onChange={(_, data) => setDueDays(data.value)}
                />
              </Field>
            </div>
          </section>
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
          <Button appearance="primary" type="submit" disabled={save.busy}>
            {save.busy ? 'Saving...' : 'Save Terms'}
          </Button>
        </DialogActions>
      </DialogBody>
    </form>
  );
}

/** An auction's invoice terms: premium scale (and online), tax rates and the days to pay. */
export function TermsDialog({
  auction,
  open,
  onClose,
}: {
  auction: { id: string; title: string };
  open: boolean;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const { data, error } = useTerms(open ? auction.id : null);
  return (
    <Dialog open={open} onOpenChange={(_, state) => !state.open && onClose()}>
      <DialogSurface className={styles.dialog}>
        {data ? (
          <TermsForm key={data.auctionId} terms={data} title={auction.title} onClose={onClose} />
        ) : (
          <DialogBody>
            <DialogTitle>Invoice terms: {auction.title}</DialogTitle>
            <DialogContent>
              {error ? (
                <MessageBar intent="error">
                  <MessageBarBody>The terms could not be loaded: {messageOf(error)}</MessageBarBody>
                </MessageBar>
              ) : (
                <Spinner label="Loading the terms..." />
              )}
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>Close</Button>
            </DialogActions>
          </DialogBody>
        )}
      </DialogSurface>
    </Dialog>
  );
}
