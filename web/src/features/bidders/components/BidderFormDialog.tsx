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
  bidderStatuses,
  paymentMethods,
  preferredCategories,
  type Bidder,
  type BidderListItem,
} from '@contracts/bidders/bidders.schema';
import { useState, type FormEvent } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBidderActions } from '../api/bidders';

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

  const save = useAction(
    async () => {
      const address = {
        street: form.street,
        city: form.city,
        state: form.state,
        zip: form.zip,
        country: form.country || 'USA',
      };
      if (base) {
        const saved = await actions.update(base, {
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          phone: form.phone.trim() ? form.phone : null,
          address,
          status: form.status,
          preferredCategories: form.preferredCategories,
          preferredPaymentMethod: form.preferredPaymentMethod,
        });
        notify.success('Bidder details saved');
        onSaved?.(saved);
      } else {
        const created = await actions.create({
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          ...(form.phone.trim() ? { phone: form.phone } : {}),
          address,
          preferredCategories: form.preferredCategories,
          preferredPaymentMethod: form.preferredPaymentMethod,
          ...(form.note.trim() ? { initialNote: form.note } : {}),
        });
        notify.success('Bidder added successfully!');
        setForm(blank);
        onSaved?.(created);
      }
      onClose();
    },
    {
      onError: (_, caught) => {
        if (caught instanceof ApiError && caught.status === 400) {
          const fields = caught.fieldErrors();
          setErrors(
            Object.fromEntries(
              Object.entries(fields).map(([field, message]) => [
                field.replace(/^address\./, ''),
                message,
              ]),
            ),
          );
          notify.error(
            editing ? 'Check the highlighted fields' : 'Please fill in all required fields',
          );
        } else if (caught instanceof ApiError && caught.status === 412) {
          setStale(true);
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
    if (!form.firstName.trim() || !form.lastName.trim() || !form.email.trim()) {
      setErrors({
        ...(form.firstName.trim() ? {} : { firstName: 'First name is required' }),
        ...(form.lastName.trim() ? {} : { lastName: 'Last name is required' }),
        ...(form.email.trim() ? {} : { email: 'Email is required' }),
      });
      notify.error('Please fill in all required fields');
      return;
    }
    setErrors({});
    void save.run();
  };

  const text = (
    name: keyof FormState,
    label: string,
    options: { required?: boolean; type?: 'email' | 'tel' } = {},
  ) => (
    <Field
      label={label}
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
                {text('firstName', 'First name', { required: true })}
                {text('lastName', 'Last name', { required: true })}
                {text('email', 'Email', { required: true, type: 'email' })}
                {text('phone', 'Phone', { type: 'tel' })}
              </div>
              <Subtitle2 as="h3" className={styles.section}>
                Address
              </Subtitle2>
              <div className={formGrid.row}>
                <div className={formGrid.wide}>{text('street', 'Street')}</div>
                {text('city', 'City')}
                {text('state', 'State')}
                {text('zip', 'ZIP / postcode')}
                {text('country', 'Country')}
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
