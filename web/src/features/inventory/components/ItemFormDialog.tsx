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
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular } from '@fluentui/react-icons';
import {
  inventoryCategories,
  inventoryConditions,
  manualStatuses,
  type InventoryItem,
} from '@contracts/inventory/inventory.schema';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError } from '../../../lib/api-client';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useFocusFirstError } from '../../../lib/use-focus-first-error';
import { useInventoryActions, useInventorySettings, useItem } from '../api/inventory';
import {
  blankItemForm,
  bodyOf,
  changesOf,
  formErrorsOf,
  formFromItem,
  hasRequired,
  type ItemForm,
} from './item-form';
import { DescriptionDraftControl } from './DescriptionDraftControl';
import { symbolOf, type MoneyCurrency } from '../../../lib/money';

const useStyles = makeStyles({
  surface: { maxWidth: '720px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    '& > *': { flexShrink: 0 },
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
  heading: {
    width: '100%',
    margin: 0,
    padding: `0 0 ${tokens.spacingVerticalXS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  control: { minWidth: 0, width: '100%' },
});

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

const SUGGEST = 'suggest';

/**
 * Add Item, or Edit Item over the version read: the spec's fields, the consignor, and the
 * service's refusals beside their fields. An edit sends only what changed; when someone saved the
 * item since, it says so and offers to reload.
 */
export function ItemFormDialog({
  item,
  currency,
  onClose,
  onSaved,
}: {
  /** The item to edit; none adds one. */
  item?: InventoryItem;
  /** The account's currency, in which a new item is valued. */
  currency: MoneyCurrency;
  onClose(): void;
  onSaved?(item: InventoryItem): void;
}) {
  const styles = useStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = useInventoryActions();
  const settings = useInventorySettings();
  const [base, setBase] = useState(item);
  const [form, setForm] = useState<ItemForm>(() => (item ? formFromItem(item) : blankItemForm()));
  const [checked, setChecked] = useState<Partial<Record<keyof ItemForm, string>>>({});
  const [stale, setStale] = useState(false);
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const fresh = useItem(stale && base ? base.id : null);
  const set = (change: Partial<ItemForm>) => {
    setForm((current) => ({ ...current, ...change }));
    setEdited((current) => new Set([...current, ...Object.keys(change)]));
  };
  const money = base?.currency ?? currency;
  const autoCategorize = !base && settings.data?.autoCategorize === true;

  const save = useAction(
    async () => {
      if (base) {
        const changes = changesOf(base, form);
        if (!changes.ok) {
          setChecked(changes.errors);
          throw new Error(correctFieldsMessage(Object.keys(changes.errors).length));
        }
        const saved = await actions.update(base, changes.value);
        notify.success('Item updated', `"${saved.title}" is saved.`);
        onSaved?.(saved);
      } else {
        const body = bodyOf(form, money);
        if (!body.ok) {
          setChecked(body.errors);
          throw new Error(correctFieldsMessage(Object.keys(body.errors).length));
        }
        const created = await actions.create(body.value);
        notify.success('Item added', `"${created.title}" is in your inventory.`);
        onSaved?.(created);
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError && caught.status === 412) setStale(true);
        notify.error(base ? 'The item was not saved' : 'The item was not added', message);
      },
    },
  );
  const reload = useAction(async () => {
    if (!base) return;
    const latest = (await fresh.mutate()) ?? fresh.data;
    if (!latest) return;
    setBase(latest);
    setForm(formFromItem(latest));
    setEdited(new Set());
    setChecked({});
    setStale(false);
    save.reset();
  });
  const serverErrors = formErrorsOf(save.fieldErrors);
  const errors = { ...serverErrors, ...checked };
  const formRef = useFocusFirstError(save.fieldErrors);
  const errorOf = (key: keyof ItemForm) => (edited.has(key) ? undefined : errors[key]);
  const state = (key: keyof ItemForm) => (errorOf(key) ? 'error' : 'none');

  const busy = save.busy || reload.busy;
  const close = () => {
    if (!busy) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !hasRequired(form)) return;
    setEdited(new Set());
    setChecked({});
    void save.run();
  };

  const text = (
    key: 'title' | 'subcategory' | 'location' | 'consignorName' | 'consignorContact',
    label: string,
    options: { required?: boolean; max: number; wide?: boolean; hint?: string },
  ) => (
    <Field
      label={label}
      required={options.required}
      hint={options.hint}
      className={options.wide ? grid.wide : undefined}
      validationMessage={errorOf(key)}
      validationState={state(key)}
    >
      <Input
        value={form[key]}
        maxLength={options.max}
        onChange={(_, data) => set({ [key]: data.value })}
      />
    </Field>
  );
  const amount = (key: 'low' | 'high', label: string) => (
    <Field label={label} required validationMessage={errorOf(key)} validationState={state(key)}>
      <Input
        inputMode="decimal"
        contentBefore={<span aria-hidden="true">{symbolOf(money)}</span>}
        value={form[key]}
        onChange={(_, data) => set({ [key]: data.value })}
        autoComplete="off"
      />
    </Field>
  );

  const categoryValue = form.category || (autoCategorize ? 'Suggest from the title' : '');
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form
          ref={formRef}
          onSubmit={submit}
          noValidate
          aria-label={base ? 'Edit item' : 'Add item'}
        >
          <DialogBody>
            <DialogTitle>{base ? 'Edit Item' : 'Add Item'}</DialogTitle>
            <DialogContent className={styles.content}>
              {stale ? (
                <MessageBar intent="warning" layout="multiline">
                  <MessageBarBody>
                    <MessageBarTitle>This item changed</MessageBarTitle>
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
              <Section title="The item">
                <div className={grid.row}>
                  {text('title', 'Title', { required: true, max: 300, wide: true })}
                  <Field
                    label="Category"
                    required={!autoCategorize}
                    hint={autoCategorize && !form.category ? 'Chosen from the title' : undefined}
                    validationMessage={errorOf('category')}
                    validationState={state('category')}
                  >
                    <Dropdown
                      className={styles.control}
                      value={categoryValue}
                      placeholder="Choose a category"
                      selectedOptions={[form.category || SUGGEST]}
                      onOptionSelect={(_, data) => {
                        const chosen = inventoryCategories.find(
                          (category) => category === data.optionValue,
                        );
                        set({ category: chosen ?? '' });
                      }}
                    >
                      {autoCategorize ? (
                        <Option value={SUGGEST}>Suggest from the title</Option>
                      ) : null}
                      {inventoryCategories.map((category) => (
                        <Option key={category} value={category}>
                          {category}
                        </Option>
                      ))}
                    </Dropdown>
                  </Field>
                  {text('subcategory', 'Subcategory', { max: 120, hint: 'e.g. Georgian silver' })}
                  <Field
                    label="Condition"
                    validationMessage={errorOf('condition')}
                    validationState={state('condition')}
                  >
                    <Dropdown
                      className={styles.control}
                      value={form.condition}
                      selectedOptions={[form.condition]}
                      onOptionSelect={(_, data) => {
                        const chosen = inventoryConditions.find(
                          (condition) => condition === data.optionValue,
                        );
                        if (chosen) set({ condition: chosen });
                      }}
                    >
                      {inventoryConditions.map((condition) => (
                        <Option key={condition}>{condition}</Option>
                      ))}
                    </Dropdown>
                  </Field>
                  {base ? null : (
                    <Field
                      label="Status"
                      validationMessage={errorOf('status')}
                      validationState={state('status')}
                    >
                      <Dropdown
                        className={styles.control}
                        value={form.status}
                        selectedOptions={[form.status]}
                        onOptionSelect={(_, data) => {
                          const chosen = manualStatuses.find(
                            (status) => status === data.optionValue,
                          );
                          if (chosen) set({ status: chosen });
                        }}
                      >
                        {manualStatuses.map((status) => (
                          <Option key={status}>{status}</Option>
                        ))}
                      </Dropdown>
                    </Field>
                  )}
                  <Field
                    label="Description"
                    className={grid.wide}
                    validationMessage={errorOf('description')}
                    validationState={state('description')}
                  >
                    <Textarea
                      value={form.description}
                      maxLength={10000}
                      rows={4}
                      resize="vertical"
                      onChange={(_, data) => set({ description: data.value })}
                    />
                  </Field>
                  <DescriptionDraftControl
                    className={grid.wide}
                    form={form}
                    currency={money}
                    itemId={base?.id}
                    onDraft={(description) => set({ description })}
                  />
                </div>
              </Section>
              <Section title={`Estimated value (${money})`}>
                <div className={grid.row}>
                  {amount('low', 'Low estimate')}
                  {amount('high', 'High estimate')}
                </div>
              </Section>
              <Section title="Where and when">
                <div className={grid.row}>
                  {text('location', 'Location', {
                    max: 200,
                    hint: base ? undefined : 'Left blank, the default storage location',
                  })}
                  <Field
                    label="Acquired"
                    hint={base ? undefined : 'Left blank, today'}
                    validationMessage={errorOf('acquiredDate')}
                    validationState={state('acquiredDate')}
                  >
                    <Input
                      type="date"
                      value={form.acquiredDate}
                      onChange={(_, data) => set({ acquiredDate: data.value })}
                    />
                  </Field>
                </div>
              </Section>
              <Section title="Consignor">
                <div className={grid.row}>
                  {text('consignorName', 'Consignor name', { max: 200 })}
                  {text('consignorContact', 'Consignor contact', {
                    max: 300,
                    hint: 'Email or phone',
                  })}
                </div>
              </Section>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy || !hasRequired(form)}>
                {save.busy ? 'Saving...' : base ? 'Save Changes' : 'Add Item'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
