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
  MessageBarTitle,
  Option,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import { houseCurrencies } from '@contracts/identity/accounts/accounts.schema';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { fetchHouse, useHouseActions, type House } from '../api/houses';
import {
  blankHouseForm,
  bodyOf,
  changesOf,
  formFromHouse,
  hasRequired,
  timezoneChoices,
  type HouseForm,
} from './house-form';

const useStyles = makeStyles({
  surface: { maxWidth: '680px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    '& > *': { flexShrink: 0 },
    // A field focused for its problem shows with its label, not cut off at the top.
    '& [aria-invalid="true"]': { scrollMarginTop: '48px', scrollMarginBottom: '48px' },
  },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    margin: 0,
    padding: 0,
    border: 'none',
    minWidth: 0,
  },
  // A legend is only as wide as its text and padded unless told otherwise.
  heading: {
    width: '100%',
    margin: 0,
    padding: `0 0 ${tokens.spacingVerticalXS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  // Fluent gives a dropdown a minimum width of its own; here the grid's column decides.
  control: { minWidth: 0, width: '100%' },
});

type TextKey = Exclude<keyof HouseForm, 'active'>;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <fieldset className={styles.section}>
      <legend className={styles.heading}>
        <Subtitle2 as="h3">{title}</Subtitle2>
      </legend>
      {children}
    </fieldset>
  );
}

/**
 * Creates an auction house, or edits one: basic info, address, contact and settings, as the
 * spec's form has them. Create stays off until the name, business name and city are in; the
 * service's refusals show beside their fields.
 */
export function HouseDialog({ house, onClose }: { house?: House; onClose(): void }) {
  const styles = useStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = useHouseActions();
  const [base, setBase] = useState(house);
  const [form, setForm] = useState<HouseForm>(() =>
    house ? formFromHouse(house) : blankHouseForm(),
  );
  const [stale, setStale] = useState(false);
  // Fields changed since the service refused them: their old message no longer applies.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const set = (change: Partial<HouseForm>) => {
    setForm((current) => ({ ...current, ...change }));
    setEdited((current) => new Set([...current, ...Object.keys(change)]));
  };

  const save = useAction(
    async () => {
      if (base) {
        const saved = await actions.update(base, changesOf(base, form));
        notify.success('Auction house updated successfully', `"${saved.name}" is saved.`);
      } else {
        const created = await actions.create(bodyOf(form));
        notify.success('Auction house created successfully', `"${created.name}" is ready.`);
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError && caught.status === 412) setStale(true);
        notify.error(
          base ? 'Failed to update auction house' : 'Failed to create auction house',
          message,
        );
      },
    },
  );
  const reload = useAction(async () => {
    if (!base) return;
    const fresh = await fetchHouse(base.id);
    setBase(fresh);
    setForm(formFromHouse(fresh));
    setEdited(new Set());
    setStale(false);
    save.reset();
    void actions.refresh();
  });
  const formRef = useFocusFirstError(save.fieldErrors);
  const errorOf = (key: keyof HouseForm) => (edited.has(key) ? undefined : save.fieldErrors[key]);

  const busy = save.busy || reload.busy;
  const close = () => {
    if (!busy) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !hasRequired(form)) return;
    setEdited(new Set());
    void save.run();
  };

  const text = (
    key: TextKey,
    label: string,
    options: {
      required?: boolean;
      type?: 'email' | 'tel' | 'url';
      max: number;
      wide?: boolean;
      hint?: string;
    },
  ) => (
    <Field
      label={label}
      required={options.required}
      hint={options.hint}
      className={options.wide ? grid.wide : undefined}
      validationMessage={errorOf(key)}
      validationState={errorOf(key) ? 'error' : 'none'}
    >
      <Input
        type={options.type ?? 'text'}
        value={form[key]}
        maxLength={options.max}
        onChange={(_, data) => set({ [key]: data.value })}
      />
    </Field>
  );

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form
          ref={formRef}
          onSubmit={submit}
          noValidate
          aria-label={base ? 'Edit auction house' : 'Create auction house'}
        >
          <DialogBody>
            <DialogTitle>{base ? 'Edit Auction House' : 'Create Auction House'}</DialogTitle>
            <DialogContent className={styles.content}>
              {stale ? (
                <MessageBar intent="warning" layout="multiline">
                  <MessageBarBody>
                    <MessageBarTitle>This auction house changed</MessageBarTitle>
                    Someone else saved it since you opened it. Reload to see their changes.
                  </MessageBarBody>
                  <MessageBarActions>
                    <Button
                      icon={<ArrowSyncRegular />}
                      disabled={busy}
                      onClick={() => void reload.run()}
                    >
                      Reload
                    </Button>
                  </MessageBarActions>
                </MessageBar>
              ) : null}
              {reload.error ? (
                <MessageBar intent="error">
                  <MessageBarBody>{reload.error}</MessageBarBody>
                </MessageBar>
              ) : null}
              <Section title="Basic information">
                <div className={grid.row}>
                  {text('name', 'Auction house name', { required: true, max: 120 })}
                  {text('businessName', 'Business name', { required: true, max: 160 })}
                  {base ? (
                    <Switch
                      className={grid.wide}
                      label="Active: the house runs auctions"
                      checked={form.active}
                      onChange={(_, data) => set({ active: data.checked })}
                    />
                  ) : null}
                </div>
              </Section>
              <Section title="Address">
                <div className={grid.row}>
                  {text('address', 'Street', { max: 200, wide: true })}
                  {text('city', 'City', { required: true, max: 100 })}
                  {text('state', 'State', { max: 100 })}
                  {text('zip', 'ZIP code', { max: 20 })}
                  {text('country', 'Country', { max: 60 })}
                </div>
              </Section>
              <Section title="Contact">
                <div className={grid.row}>
                  {text('phone', 'Phone', { type: 'tel', max: 32 })}
                  {text('email', 'Email', { type: 'email', max: 254 })}
                  {text('website', 'Website', {
                    type: 'url',
                    max: 300,
                    wide: true,
                    hint: 'Optional, e.g. https://harborview.com',
                  })}
                </div>
              </Section>
              <Section title="Settings">
                <div className={grid.row}>
                  <Field
                    label="Time zone"
                    validationMessage={errorOf('timezone')}
                    validationState={errorOf('timezone') ? 'error' : 'none'}
                  >
                    <Dropdown
                      className={styles.control}
                      value={
                        timezoneChoices.find((zone) => zone.value === form.timezone)?.label ??
                        form.timezone
                      }
                      selectedOptions={[form.timezone]}
                      onOptionSelect={(_, data) =>
                        set({ timezone: data.optionValue ?? form.timezone })
                      }
                    >
                      {timezoneChoices.map((zone) => (
                        <Option key={zone.value} value={zone.value}>
                          {zone.label}
                        </Option>
                      ))}
                    </Dropdown>
                  </Field>
                  <Field
                    label="Currency"
                    validationMessage={errorOf('currency')}
                    validationState={errorOf('currency') ? 'error' : 'none'}
                  >
                    <Dropdown
                      className={styles.control}
                      value={form.currency}
                      selectedOptions={[form.currency]}
                      onOptionSelect={(_, data) =>
                        set({ currency: data.optionValue ?? form.currency })
                      }
                    >
                      {houseCurrencies.map((currency) => (
                        <Option key={currency} value={currency}>
                          {currency}
                        </Option>
                      ))}
                    </Dropdown>
                  </Field>
                </div>
              </Section>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy || !hasRequired(form)}>
                {save.busy ? 'Saving...' : base ? 'Save Changes' : 'Create Auction House'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
