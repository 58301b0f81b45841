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
  MessageBarActions,
  MessageBarBody,
  Option,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  bidderInputSchema,
  bidderStatuses,
  bidderUpdateSchema,
  paymentMethods,
  preferredCategories,
  type Bidder,
  type BidderListItem,
  type BidderWrite,
} from '@contracts/bidders/bidders.schema';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { correctFieldsMessage, fieldErrorsOf, fieldLabel } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBidderActions, type BidderInputBody } from '../api/bidders';
import { bidderFieldLabels } from './field-labels';

const useStyles = makeStyles({
  surface: { maxWidth: '640px', width: '100%' },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  section: { margin: `${tokens.spacingVerticalS} 0 0` },
});

interface FormState {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  status: Bidder['status'];
  preferredCategories: string[];
  preferredPaymentMethod: string;
  note: string;
}

const blank: FormState = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  street: '',
  city: '',
  state: '',
  zip: '',
  country: 'USA',
  status: 'Pending',
  preferredCategories: [],
  preferredPaymentMethod: 'Credit Card',
  note: '',
};

const labelOf = (key: string) => {
  const field = key.replace(/^address\./, '');
  return bidderFieldLabels[field] ?? fieldLabel(field);
};

const fromBidder = (bidder: BidderListItem): FormState => ({
  firstName: bidder.firstName,
  lastName: bidder.lastName,
  email: bidder.email ?? '',
  phone: bidder.phone ?? '',
  ...bidder.address,
  status: bidder.status,
  preferredCategories: bidder.preferredCategories,
  preferredPaymentMethod: bidder.preferredPaymentMethod,
  note: '',
});

const sentence = (items: string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** "Merged into Naomi Okafor (HV-1019): same email address and same name". */
export function mergedTitle(bidder: BidderWrite): string {
  const reasons = (bidder.mergedBecause ?? []).map((reason) => reason.toLowerCase());
  const into = `Merged into ${bidder.firstName} ${bidder.lastName} (${bidder.bidderId})`;
  return reasons.length ? `${into}: ${sentence(reasons)}` : into;
}

/** Add New Bidder, or Edit Details of one (sent with its ETag, so no one's change is lost). */
export function BidderFormDialog({
  open,
  bidder,
  onClose,
  onSaved,
}: {
  open: boolean;
  bidder?: BidderListItem | undefined;
  onClose(): void;
  onSaved?(bidder: Bidder): void;
}) {
  const styles = useStyles();
  const formGrid = useFormGridStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const editing = Boolean(bidder);
  const [form, setForm] = useState<FormState>(() => (bidder ? fromBidder(bidder) : blank));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  // The version being edited: the one opened, or the newer one loaded after a conflict.
  const [base, setBase] = useState(bidder);
  const [lastBidder, setLastBidder] = useState(bidder);
  if (bidder !== lastBidder) {
    setLastBidder(bidder);
    setBase(bidder);
    setForm(bidder ? fromBidder(bidder) : blank);
    setErrors({});
    setStale(false);
  }

  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const showBidder = (id: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('bidder', id);
      return next;
    });
  const openAction = (id: string) => ({ label: 'Open bidder', run: () => showBidder(id) });

  const loadTheirChanges = useAction(
    async () => {
      if (!base) return;
      const fresh = await actions.fetch(base.id);
      setBase(fresh);
      setForm(fromBidder(fresh));
      setStale(false);
      void actions.refreshLists();
    },
    { onError: (message) => notify.error('The bidder could not be loaded', message) },
  );

  const set = (name: keyof FormState) => (_: unknown, data: { value: string }) =>
    setForm((current) => ({ ...current, [name]: data.value }));

  const address = () => ({
    street: form.street,
    city: form.city,
    state: form.state,
    zip: form.zip,
    country: form.country || 'USA',
  });
  const updateBody = () => ({
    firstName: form.firstName,
    lastName: form.lastName,
    email: form.email,
    phone: form.phone.trim() ? form.phone : null,
    address: address(),
    status: form.status,
    preferredCategories: form.preferredCategories,
    preferredPaymentMethod: form.preferredPaymentMethod,
  });
  const createBody = (): BidderInputBody => ({
    firstName: form.firstName,
    lastName: form.lastName,
    email: form.email,
    ...(form.phone.trim() ? { phone: form.phone } : {}),
    address: address(),
    preferredCategories: form.preferredCategories,
    preferredPaymentMethod: form.preferredPaymentMethod,
    ...(form.note.trim() ? { initialNote: form.note } : {}),
  });

  /** Shows each field's problem beside it, and in the toast which field is wrong. */
  const showFieldErrors = (fields: Record<string, string>) => {
    const byInput = Object.fromEntries(
      Object.entries(fields).map(([field, message]) => [field.replace(/^address\./, ''), message]),
    );
    setErrors(byInput);
    const missing = !form.firstName.trim() || !form.lastName.trim() || !form.email.trim();
    const entries = Object.entries(fields);
    const [only] = entries;
    notify.error(
      missing
        ? 'Please fill in all required fields'
        : entries.length === 1 && only
          ? `${labelOf(only[0])}: ${only[1]}`
          : correctFieldsMessage(entries.length),
    );
  };

  const save = useAction(
    async () => {
      if (base) {
        const saved = await actions.update(base, updateBody());
        if (saved.mergedBecause) {
          notify.success(mergedTitle(saved), undefined, openAction(saved.id));
          // The bidder edited is now part of the survivor: show that one where it was open.
          if (params.get('bidder') === base.id) showBidder(saved.id);
        } else {
          notify.success('Bidder details saved');
        }
        onSaved?.(saved);
      } else {
        const created = await actions.create(createBody());
        if (created.mergedBecause) {
          notify.success(mergedTitle(created), undefined, openAction(created.id));
        } else if (created.possibleDuplicates) {
          notify.success(
            'Bidder added successfully!',
            'They may be someone already on file: the pair is waiting under Duplicates.',
            { label: 'Review', run: () => navigate('/bidders/duplicates') },
          );
        } else {
          notify.success('Bidder added successfully!', undefined, openAction(created.id));
        }
        setForm(blank);
        onSaved?.(created);
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError && caught.status === 400) {
          showFieldErrors(caught.fieldErrors());
        } else if (caught instanceof ApiError && caught.status === 412) {
          setStale(true);
        } else if (caught instanceof ApiError && caught.status === 403) {
          notify.error(message);
        } else {
          notify.error(
            editing
              ? 'Failed to save the bidder. Please try again.'
              : 'Failed to add bidder. Please try again.',
          );
        }
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The contract the service checks with, checked here first: the same words, no round trip.
    const checked = editing
      ? bidderUpdateSchema.safeParse(updateBody())
      : bidderInputSchema.safeParse(createBody());
    if (!checked.success) {
      const problems = fieldErrorsOf(checked.error);
      // A blank required field is missing, not malformed: say so in those words.
      for (const field of ['firstName', 'lastName', 'email'] as const) {
        if (!form[field].trim()) problems[field] = `${bidderFieldLabels[field]} is required`;
      }
      showFieldErrors(problems);
      return;
    }
    setErrors({});
    void save.run();
  };

  const text = (
    name: keyof FormState,
    options: { required?: boolean; type?: 'email' | 'tel' } = {},
  ) => (
    <Field
      label={bidderFieldLabels[name]}
      required={options.required ?? false}
      validationMessage={errors[name]}
      validationState={errors[name] ? 'error' : 'none'}
    >
      <Input
        value={form[name] as string}
        onChange={set(name)}
        type={options.type ?? 'text'}
        autoComplete="off"
      />
    </Field>
  );

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>
              {editing ? `Edit ${bidder?.firstName} ${bidder?.lastName}` : 'Add New Bidder'}
            </DialogTitle>
            <DialogContent className={styles.form}>
              {stale ? (
                <MessageBar intent="warning" layout="multiline">
                  <MessageBarBody>
                    Someone else changed this bidder while you were editing. Load their changes,
                    then make yours again.
                  </MessageBarBody>
                  <MessageBarActions>
                    <Button onClick={() => void loadTheirChanges.run()}>Load their changes</Button>
                  </MessageBarActions>
                </MessageBar>
              ) : null}
              <div className={formGrid.row}>
                {text('firstName', { required: true })}
                {text('lastName', { required: true })}
                {text('email', { required: true, type: 'email' })}
                {text('phone', { type: 'tel' })}
              </div>
              <Subtitle2 as="h3" className={styles.section}>
                Address
              </Subtitle2>
              <div className={formGrid.row}>
                <div className={formGrid.wide}>{text('street')}</div>
                {text('city')}
                {text('state')}
                {text('zip')}
                {text('country')}
              </div>
              <Subtitle2 as="h3" className={styles.section}>
                Preferences
              </Subtitle2>
              <div className={formGrid.row}>
                <Field label="Preferred categories" validationMessage={errors.preferredCategories}>
                  <Combobox
                    multiselect
                    placeholder="Choose categories"
                    selectedOptions={form.preferredCategories}
                    value={form.preferredCategories.join(', ')}
                    onOptionSelect={(_, data) =>
                      setForm((current) => ({
                        ...current,
                        preferredCategories: data.selectedOptions,
                      }))
                    }
                  >
                    {preferredCategories.map((category) => (
                      <Option key={category}>{category}</Option>
                    ))}
                  </Combobox>
                </Field>
                <Field label="Preferred payment method">
                  <Dropdown
                    value={form.preferredPaymentMethod}
                    selectedOptions={[form.preferredPaymentMethod]}
                    onOptionSelect={(_, data) =>
                      setForm((current) => ({
                        ...current,
                        preferredPaymentMethod: data.optionValue ?? 'Credit Card',
                      }))
                    }
                  >
                    {paymentMethods.map((method) => (
                      <Option key={method}>{method}</Option>
                    ))}
                  </Dropdown>
                </Field>
                {editing ? (
                  <Field label="Status">
                    <Dropdown
                      value={form.status}
                      selectedOptions={[form.status]}
                      onOptionSelect={(_, data) =>
                        setForm((current) => ({
                          ...current,
                          status: (data.optionValue ?? 'Pending') as FormState['status'],
                        }))
                      }
                    >
                      {bidderStatuses.map((status) => (
                        <Option key={status}>{status}</Option>
                      ))}
                    </Dropdown>
                  </Field>
                ) : null}
              </div>
              {editing ? null : (
                <Field label="Initial note" hint="Private to your auction house.">
                  <Textarea value={form.note} onChange={set('note')} resize="vertical" />
                </Field>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy || stale}>
                {save.busy ? 'Saving...' : editing ? 'Save Changes' : 'Add Bidder'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
