import {
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
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import type { Auction } from '@contracts/auctions/auctions.schema';
import { lotInputSchema, lotUpdateSchema, type Lot } from '@contracts/auctions/lots/lots.schema';
import { preferredCategories } from '@contracts/bidders/bidders.schema';
import { useState, type FormEvent } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { parseMoney, toMajorText } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useAuctionActions, type LotBody } from '../api/auctions';
import { auctionFieldErrors } from './auction-form';
import { MoneyInput } from '../../../components/MoneyInput';

const useStyles = makeStyles({
  surface: { maxWidth: '640px', width: '100%' },
  // Its children keep their height; the content scrolls instead of squeezing them.
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
});

interface LotForm {
  lotNumber: string;
  title: string;
  description: string;
  category: string;
  estimateLow: string;
  estimateHigh: string;
  reserve: string;
  consignorName: string;
  consignorContact: string;
}

const labels: Record<string, string> = {
  lotNumber: 'Lot number',
  estimateLow: 'Low estimate',
  estimateHigh: 'High estimate',
  reserve: 'Reserve',
  'consignor.name': 'Consignor',
  'consignor.contact': 'Consignor contact',
};

const problemsToErrors = (problems: { field: string; message: string }[]) => {
  const errors = auctionFieldErrors(problems);
  for (const problem of problems) {
    const label = labels[problem.field];
    if (label && /^[a-z]/.test(problem.message))
      errors[problem.field] = `${label} ${problem.message}`;
  }
  return errors;
};

const formOf = (lot: Lot | null, auction: Auction): LotForm => ({
  lotNumber: lot?.lotNumber ?? '',
  title: lot?.title ?? '',
  description: lot?.description ?? '',
  category: lot?.category ?? '',
  estimateLow: toMajorText(lot?.estimateLow ?? null, auction.currency),
  estimateHigh: toMajorText(lot?.estimateHigh ?? null, auction.currency),
  reserve: toMajorText(lot?.reserve ?? null, auction.currency),
  consignorName: lot?.consignor?.name ?? '',
  consignorContact: lot?.consignor?.contact ?? '',
});

/** Add Lot, or Edit Lot (saved against its ETag). Amounts in the auction's currency. */
export function LotDialog({
  auction,
  lot,
  open,
  suggestedNumber,
  onClose,
}: {
  auction: Auction;
  lot: Lot | null;
  open: boolean;
  /** The next free lot number, offered for a new lot. */
  suggestedNumber: string;
  onClose(): void;
}) {
  const styles = useStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = useAuctionActions();
  const [form, setForm] = useState<LotForm>(() => ({
    ...formOf(lot, auction),
    lotNumber: lot?.lotNumber ?? suggestedNumber,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useFocusFirstError(errors);
  const [stale, setStale] = useState(false);
  const [shown, setShown] = useState<{ open: boolean; lot: Lot | null }>({ open, lot });
  if (shown.open !== open || shown.lot?.id !== lot?.id) {
    setShown({ open, lot });
    if (open) {
      setForm({ ...formOf(lot, auction), lotNumber: lot?.lotNumber ?? suggestedNumber });
      setErrors({});
      setStale(false);
    }
  }

  const set = (name: keyof LotForm) => (_: unknown, data: { value: string }) =>
    setForm((current) => ({ ...current, [name]: data.value }));
  const setMoney = (name: keyof LotForm) => (value: string) =>
    setForm((current) => ({ ...current, [name]: value }));

  const save = useAction(
    async (body: LotBody | Record<string, unknown>) => {
      if (lot) {
        await actions.updateLot(auction.id, lot, body);
        notify.success(`Lot ${form.lotNumber} saved`);
      } else {
        await actions.addLot(auction.id, body as LotBody);
        notify.success(`Lot ${form.lotNumber} added`);
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError && caught.status === 400) {
          const fields =
            (caught.details as { fields?: { field: string; message: string }[] } | undefined)
              ?.fields ?? [];
          setErrors(problemsToErrors(fields));
        } else if (caught instanceof ApiError && caught.status === 412) {
          setStale(true);
        } else {
          notify.error(lot ? 'The lot was not saved' : 'The lot was not added', message);
        }
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: { field: string; message: string }[] = [];
    const money = (field: keyof LotForm) => {
      const parsed = parseMoney(form[field], auction.currency);
      if (parsed.ok) return parsed.minor;
      problems.push({ field, message: parsed.message });
      return null;
    };
    const consignor =
      form.consignorName.trim() || form.consignorContact.trim()
        ? { name: form.consignorName, contact: form.consignorContact }
        : null;
    const body = {
      lotNumber: form.lotNumber,
      title: form.title,
      description: form.description,
      category: (form.category || null) as LotBody['category'],
      estimateLow: money('estimateLow'),
      estimateHigh: money('estimateHigh'),
      reserve: money('reserve'),
      consignor,
    };
    let toSend: Record<string, unknown> = body;
    if (lot) {
      // Only what changed, so a field someone else edited meanwhile is not written back.
      const before = formOf(lot, auction);
      toSend = Object.fromEntries(
        Object.entries(body).filter(([field]) =>
          field === 'consignor'
            ? before.consignorName !== form.consignorName ||
              before.consignorContact !== form.consignorContact
            : before[field as keyof LotForm] !== form[field as keyof LotForm],
        ),
      );
    }
    const checked = (lot ? lotUpdateSchema : lotInputSchema).safeParse(toSend);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        problems.push({ field: issue.path.join('.'), message: issue.message });
    }
    if (problems.length) {
      setErrors(problemsToErrors(problems));
      return;
    }
    setErrors({});
    if (lot && !Object.keys(toSend).length) {
      onClose();
      return;
    }
    void save.run(toSend);
  };

  const state = (key: string) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface className={styles.surface}>
        <form ref={formRef} onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{lot ? `Edit Lot ${lot.lotNumber}` : 'Add Lot'}</DialogTitle>
            <DialogContent className={styles.content}>
              {stale ? (
                <MessageBar intent="warning" layout="multiline">
                  <MessageBarBody>
                    Someone else changed this lot while you were editing. Close this and open it
                    again to see their changes.
                  </MessageBarBody>
                  <MessageBarActions>
                    <Button onClick={onClose}>Close</Button>
                  </MessageBarActions>
                </MessageBar>
              ) : null}
              {Object.keys(errors).length ? (
                <MessageBar intent="error">
                  <MessageBarBody>
                    {correctFieldsMessage(Object.keys(errors).length)}
                  </MessageBarBody>
                </MessageBar>
              ) : null}
              <div className={grid.row}>
                <Field label="Lot number" required {...state('lotNumber')}>
                  <Input value={form.lotNumber} onChange={set('lotNumber')} autoComplete="off" />
                </Field>
                <Field label="Category" {...state('category')}>
                  <Dropdown
                    placeholder="No category"
                    value={form.category}
                    selectedOptions={form.category ? [form.category] : []}
                    onOptionSelect={(_, data) =>
                      setForm((current) => ({ ...current, category: data.optionValue ?? '' }))
                    }
                  >
                    <Option value="" text="No category">
                      No category
                    </Option>
                    {preferredCategories.map((category) => (
                      <Option key={category} value={category}>
                        {category}
                      </Option>
                    ))}
                  </Dropdown>
                </Field>
                <Field className={grid.wide} label="Title" required {...state('title')}>
                  <Input value={form.title} onChange={set('title')} autoComplete="off" />
                </Field>
                <Field className={grid.wide} label="Description" {...state('description')}>
                  <Textarea
                    value={form.description}
                    onChange={set('description')}
                    resize="vertical"
                    rows={3}
                  />
                </Field>
                <MoneyInput
                  label="Low estimate"
                  currency={auction.currency}
                  value={form.estimateLow}
                  onChange={setMoney('estimateLow')}
                  error={errors.estimateLow}
                />
                <MoneyInput
                  label="High estimate"
                  currency={auction.currency}
                  value={form.estimateHigh}
                  onChange={setMoney('estimateHigh')}
                  error={errors.estimateHigh}
                />
                <MoneyInput
                  label="Reserve"
                  currency={auction.currency}
                  value={form.reserve}
                  onChange={setMoney('reserve')}
                  error={errors.reserve}
                  hint="The lowest price it may sell for; not shown to bidders."
                />
                <span />
                <Field label="Consignor" {...state('consignor.name')}>
                  <Input
                    value={form.consignorName}
                    onChange={set('consignorName')}
                    autoComplete="off"
                  />
                </Field>
                <Field label="Consignor contact" {...state('consignor.contact')}>
                  <Input
                    value={form.consignorContact}
                    onChange={set('consignorContact')}
                    placeholder="Email or phone"
                    autoComplete="off"
                  />
                </Field>
              </div>
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy || stale}>
                {save.busy ? 'Saving...' : lot ? 'Save Lot' : 'Add Lot'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
