import {
  Button,
  Caption1,
  Checkbox,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Subtitle2,
  Switch,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import {
  auctionCategories,
  auctionCategoryLabels,
  auctionTypes,
  currencies,
  currencySymbols,
  type AuctionStatus,
  type Currency,
} from '@contracts/auctions/auctions.schema';
import { paymentMethods } from '@contracts/bidders/bidders.schema';
import type { House } from '@contracts/identity/accounts/accounts.schema';
import { timezones } from '@contracts/identity/shared/common.schema';
import { useState, type ReactNode } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { zoneLabel } from '../../../lib/house-time';
import { rowKey, type AuctionFormState } from './auction-form';
import { MoneyInput } from '../../../components/MoneyInput';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    margin: 0,
    padding: 0,
    border: 'none',
    minWidth: 0,
  },
  heading: {
    margin: 0,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    width: '100%',
  },
  muted: { color: tokens.colorNeutralForeground2 },
  listRow: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) auto',
    gap: tokens.spacingHorizontalS,
    alignItems: 'end',
  },
  pairRow: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) auto',
    gap: tokens.spacingHorizontalS,
    alignItems: 'start',
    '@media (max-width: 560px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) auto' },
  },
  shippingRow: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1.2fr) minmax(0, 0.8fr) minmax(0, 1.6fr) auto',
    gap: tokens.spacingHorizontalS,
    alignItems: 'start',
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) auto' },
  },
  shippingDescription: { '@media (max-width: 640px)': { gridColumn: '1 / 3' } },
  remove: { marginTop: '26px' },
  add: { alignSelf: 'flex-start' },
  methods: {
    display: 'grid',
    gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
    '@media (max-width: 560px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  listError: { color: tokens.colorPaletteRedForeground1 },
});

export type FormUpdate = (change: (current: AuctionFormState) => AuctionFormState) => void;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-label={title}>
      <Subtitle2 as="h3" className={styles.heading}>
        {title}
      </Subtitle2>
      {children}
    </section>
  );
}

/**
 * Every field of an auction, in the sections of the Create New Auction form; Edit Auction shows
 * the same with the status it may move to. Problems show beside their field, keyed by the
 * field's path in the contract (`biddingIncrements.1.from`).
 */
export function AuctionFormFields({
  form,
  update,
  errors,
  houses,
  statuses,
  statusHint,
  onHouseChosen,
}: {
  form: AuctionFormState;
  update: FormUpdate;
  errors: Record<string, string>;
  houses: House[] | undefined;
  /** Edit only: the current status first, then those it may move to. */
  statuses?: AuctionStatus[];
  statusHint?: string;
  onHouseChosen?(house: House): void;
}) {
  const styles = useStyles();
  const grid = useFormGridStyles();
  // The row just added takes the focus, so "Add ..." then typing works from the keyboard.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const set =
    <K extends keyof AuctionFormState>(name: K) =>
    (value: AuctionFormState[K]) =>
      update((current) => ({ ...current, [name]: value }));
  const text = (name: keyof AuctionFormState) => (_: unknown, data: { value: string }) =>
    update((current) => ({ ...current, [name]: data.value }));
  const state = (key: string) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });
  const symbol = currencySymbols[form.currency];

  const editRow = <
    K extends 'requirements' | 'biddingIncrements' | 'biddingDeposits' | 'shippingOptions',
  >(
    list: K,
    key: string,
    changes: Partial<AuctionFormState[K][number]>,
  ) =>
    update((current) => ({
      ...current,
      [list]: (current[list] as { key: string }[]).map((row) =>
        row.key === key ? { ...row, ...changes } : row,
      ),
    }));
  const removeRow = (
    list: 'requirements' | 'biddingIncrements' | 'biddingDeposits' | 'shippingOptions',
    key: string,
  ) =>
    update((current) => ({
      ...current,
      [list]: (current[list] as { key: string }[]).filter((row) => row.key !== key),
    }));
  const addRow = <
    K extends 'requirements' | 'biddingIncrements' | 'biddingDeposits' | 'shippingOptions',
  >(
    list: K,
    row: AuctionFormState[K][number],
  ) => {
    setFocusKey(row.key);
    update((current) => ({ ...current, [list]: [...current[list], row] }));
  };
  const listError = (key: string) =>
    errors[key] ? (
      <Caption1 role="alert" className={styles.listError}>
        {errors[key]}
      </Caption1>
    ) : null;
  const removeButton = (label: string, onClick: () => void) => (
    <Button
      className={styles.remove}
      appearance="subtle"
      icon={<DeleteRegular />}
      aria-label={label}
      onClick={onClick}
    />
  );

  const zoneOptions =
    timezones.some((zone) => zone.value === form.timeZone) || !form.timeZone
      ? timezones.map((zone) => zone.value)
      : [form.timeZone, ...timezones.map((zone) => zone.value)];

  return (
    <div className={styles.form}>
      {statuses ? (
        <div className={grid.row}>
          <Field label="Status" hint={statusHint} {...state('status')}>
            <Dropdown
              value={form.status}
              selectedOptions={[form.status]}
              onOptionSelect={(_, data) =>
                set('status')((data.optionValue ?? form.status) as AuctionStatus)
              }
            >
              {statuses.map((status) => (
                <Option key={status} value={status}>
                  {status}
                </Option>
              ))}
            </Dropdown>
          </Field>
          {form.status !== statuses[0] ? (
            <Field
              label="Reason for the status change"
              required={form.status === 'Cancelled'}
              {...state('statusReason')}
            >
              <Input value={form.statusReason} onChange={text('statusReason')} autoComplete="off" />
            </Field>
          ) : null}
        </div>
      ) : null}

      <Section title="Basic Information">
        <div className={grid.row}>
          <Field label="Auction type" required {...state('type')}>
            <Dropdown
              value={form.type}
              selectedOptions={[form.type]}
              onOptionSelect={(_, data) =>
                set('type')((data.optionValue ?? 'Live') as AuctionFormState['type'])
              }
            >
              {auctionTypes.map((type) => (
                <Option key={type} value={type}>
                  {type}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label="Category" required {...state('category')}>
            <Dropdown
              placeholder="Choose a category"
              value={form.category ? auctionCategoryLabels[form.category] : ''}
              selectedOptions={form.category ? [form.category] : []}
              onOptionSelect={(_, data) =>
                set('category')((data.optionValue ?? '') as AuctionFormState['category'])
              }
            >
              {auctionCategories.map((category) => (
                <Option key={category} value={category}>
                  {auctionCategoryLabels[category]}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label="Subcategory" {...state('subcategory')}>
            <Input value={form.subcategory} onChange={text('subcategory')} autoComplete="off" />
          </Field>
          <Field label="Title" required {...state('title')}>
            <Input value={form.title} onChange={text('title')} autoComplete="off" />
          </Field>
        </div>
      </Section>

      <Section title="Auction Dates">
        <div className={grid.row}>
          <Field label="Start date" required {...state('startDate')}>
            <Input type="date" value={form.startDate} onChange={text('startDate')} />
          </Field>
          <Field label="Start time" required {...state('startTime')}>
            <Input type="time" value={form.startTime} onChange={text('startTime')} />
          </Field>
          <Field label="End date" required {...state('endDate')}>
            <Input type="date" value={form.endDate} onChange={text('endDate')} />
          </Field>
          <Field label="End time" required {...state('endTime')}>
            <Input type="time" value={form.endTime} onChange={text('endTime')} />
          </Field>
          <Field
            className={grid.wide}
            label="Time zone"
            hint="The auction house's local time: dates and times above are read in it."
            {...state('timeZone')}
          >
            <Dropdown
              placeholder="The auction house's time zone"
              value={form.timeZone ? zoneLabel(form.timeZone) : ''}
              selectedOptions={form.timeZone ? [form.timeZone] : []}
              onOptionSelect={(_, data) => set('timeZone')(data.optionValue ?? '')}
            >
              {zoneOptions.map((zone) => (
                <Option key={zone} value={zone}>
                  {zoneLabel(zone)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        </div>
      </Section>

      <Section title="Descriptions">
        <Field label="Description" {...state('description')}>
          <Textarea
            value={form.description}
            onChange={text('description')}
            resize="vertical"
            rows={3}
          />
        </Field>
        <Field label="Notes" {...state('notes')}>
          <Textarea value={form.notes} onChange={text('notes')} resize="vertical" rows={2} />
        </Field>
      </Section>

      <Section title="Financial Information">
        <div className={grid.row}>
          <Field label="Buyer's premium (%)" {...state('buyersPremium')}>
            <Input
              value={form.buyersPremium}
              onChange={text('buyersPremium')}
              inputMode="decimal"
              contentAfter={<span aria-hidden="true">%</span>}
              autoComplete="off"
            />
          </Field>
          <Field
            label="Currency"
            hint={`Amounts are in ${symbol} (${form.currency}).`}
            {...state('currency')}
          >
            <Dropdown
              value={`${form.currency} (${symbol})`}
              selectedOptions={[form.currency]}
              onOptionSelect={(_, data) => set('currency')((data.optionValue ?? 'USD') as Currency)}
            >
              {currencies.map((currency) => (
                <Option
                  key={currency}
                  value={currency}
                  text={`${currency} (${currencySymbols[currency]})`}
                >
                  {`${currency} (${currencySymbols[currency]})`}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field
            className={grid.wide}
            label="Buyer's premium description"
            {...state('buyersPremiumDescription')}
          >
            <Textarea
              value={form.buyersPremiumDescription}
              onChange={text('buyersPremiumDescription')}
              resize="vertical"
              rows={2}
            />
          </Field>
        </div>
      </Section>

      <Section title="Auction House Information">
        <div className={grid.row}>
          <Field label="Auction house" {...state('auctionHouseId')}>
            <Dropdown
              placeholder={
                !houses
                  ? 'Loading houses...'
                  : houses.length
                    ? 'Choose a house'
                    : 'Your account (no houses set up yet)'
              }
              value={houses?.find((house) => house.id === form.auctionHouseId)?.name ?? ''}
              selectedOptions={form.auctionHouseId ? [form.auctionHouseId] : []}
              onOptionSelect={(_, data) => {
                const house = houses?.find((candidate) => candidate.id === data.optionValue);
                if (!house) return;
                set('auctionHouseId')(house.id);
                onHouseChosen?.(house);
              }}
            >
              {(houses ?? []).map((house) => (
                <Option key={house.id} value={house.id}>
                  {house.name}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label="Location" {...state('location')}>
            <Input
              value={form.location}
              onChange={text('location')}
              placeholder="e.g. Main saleroom, Boston"
              autoComplete="off"
            />
          </Field>
        </div>
      </Section>

      <Section title="Registration Requirements">
        <Switch
          label="Registration required"
          checked={form.registrationRequired}
          onChange={(_, data) => set('registrationRequired')(data.checked)}
        />
        {form.requirements.map((row, index) => (
          <div key={row.key} className={styles.listRow}>
            <Field label={`Requirement ${index + 1}`} {...state(`requirements.${index}`)}>
              <Input
                value={row.text}
                autoFocus={row.key === focusKey}
                placeholder="e.g. Government photo ID"
                onChange={(_, data) => editRow('requirements', row.key, { text: data.value })}
              />
            </Field>
            {removeButton(`Remove requirement ${index + 1}`, () =>
              removeRow('requirements', row.key),
            )}
          </div>
        ))}
        {listError('requirements')}
        <Button
          className={styles.add}
          appearance="transparent"
          icon={<AddRegular />}
          onClick={() => addRow('requirements', { key: rowKey(), text: '' })}
        >
          Add requirement
        </Button>
      </Section>

      <Section title="Payment Methods">
        <div className={styles.methods} role="group" aria-label="Payment methods accepted">
          {paymentMethods.map((method) => (
            <Checkbox
              key={method}
              label={method}
              checked={form.paymentMethods.includes(method)}
              onChange={(_, data) =>
                update((current) => ({
                  ...current,
                  paymentMethods: data.checked
                    ? paymentMethods.filter(
                        (candidate) =>
                          candidate === method || current.paymentMethods.includes(candidate),
                      )
                    : current.paymentMethods.filter((candidate) => candidate !== method),
                }))
              }
            />
          ))}
        </div>
        {listError('paymentMethods')}
      </Section>

      <Section title="Bidding Information">
        <Caption1 className={styles.muted}>
          Increments: from each amount up, bids rise by its increment.
        </Caption1>
        {form.biddingIncrements.map((row, index) => (
          <div key={row.key} className={styles.pairRow}>
            <MoneyInput
              label={`From (row ${index + 1})`}
              currency={form.currency}
              value={row.from}
              onChange={(value) => editRow('biddingIncrements', row.key, { from: value })}
              error={errors[`biddingIncrements.${index}.from`]}
              inputProps={{ autoFocus: row.key === focusKey }}
            />
            <MoneyInput
              label={`Increment (row ${index + 1})`}
              currency={form.currency}
              value={row.increment}
              onChange={(value) => editRow('biddingIncrements', row.key, { increment: value })}
              error={errors[`biddingIncrements.${index}.increment`]}
            />
            {removeButton(`Remove increment row ${index + 1}`, () =>
              removeRow('biddingIncrements', row.key),
            )}
          </div>
        ))}
        {listError('biddingIncrements')}
        <Button
          className={styles.add}
          appearance="transparent"
          icon={<AddRegular />}
          onClick={() => addRow('biddingIncrements', { key: rowKey(), from: '', increment: '' })}
        >
          Add increment
        </Button>
        {form.biddingDeposits.map((row, index) => (
          <div key={row.key} className={styles.pairRow}>
            <Field
              label={`Deposit ${index + 1}`}
              {...state(`biddingDeposits.${index}.description`)}
            >
              <Input
                value={row.description}
                autoFocus={row.key === focusKey}
                placeholder="e.g. Paddle deposit"
                onChange={(_, data) =>
                  editRow('biddingDeposits', row.key, { description: data.value })
                }
              />
            </Field>
            <MoneyInput
              label={`Amount (deposit ${index + 1})`}
              currency={form.currency}
              value={row.amount}
              onChange={(value) => editRow('biddingDeposits', row.key, { amount: value })}
              error={errors[`biddingDeposits.${index}.amount`]}
            />
            {removeButton(`Remove deposit ${index + 1}`, () =>
              removeRow('biddingDeposits', row.key),
            )}
          </div>
        ))}
        {listError('biddingDeposits')}
        <Button
          className={styles.add}
          appearance="transparent"
          icon={<AddRegular />}
          onClick={() => addRow('biddingDeposits', { key: rowKey(), description: '', amount: '' })}
        >
          Add deposit
        </Button>
      </Section>

      <Section title="Shipping Options">
        {form.shippingOptions.map((row, index) => (
          <div key={row.key} className={styles.shippingRow}>
            <Field
              label={`Shipping option ${index + 1}`}
              {...state(`shippingOptions.${index}.name`)}
            >
              <Input
                value={row.name}
                autoFocus={row.key === focusKey}
                placeholder="e.g. Courier"
                onChange={(_, data) => editRow('shippingOptions', row.key, { name: data.value })}
              />
            </Field>
            <MoneyInput
              label={`Price (option ${index + 1})`}
              currency={form.currency}
              value={row.price}
              onChange={(value) => editRow('shippingOptions', row.key, { price: value })}
              error={errors[`shippingOptions.${index}.price`]}
            />
            <Field
              className={styles.shippingDescription}
              label={`Description (option ${index + 1})`}
              {...state(`shippingOptions.${index}.description`)}
            >
              <Input
                value={row.description}
                onChange={(_, data) =>
                  editRow('shippingOptions', row.key, { description: data.value })
                }
              />
            </Field>
            {removeButton(`Remove shipping option ${index + 1}`, () =>
              removeRow('shippingOptions', row.key),
            )}
          </div>
        ))}
        {listError('shippingOptions')}
        <Button
          className={styles.add}
          appearance="transparent"
          icon={<AddRegular />}
          onClick={() =>
            addRow('shippingOptions', { key: rowKey(), name: '', price: '', description: '' })
          }
        >
          Add shipping option
        </Button>
      </Section>

      <Section title="Auction Terms">
        <Field label="Terms and conditions" {...state('terms')}>
          <Textarea value={form.terms} onChange={text('terms')} resize="vertical" rows={4} />
        </Field>
      </Section>
    </div>
  );
}
