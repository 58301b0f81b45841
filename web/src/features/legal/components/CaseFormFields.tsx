import {
  Dropdown,
  Field,
  Input,
  makeStyles,
  Option,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { currencies, currencySymbols } from '@contracts/auctions/auctions.schema';
import {
  caseCategories,
  caseCategoryLabels,
  casePriorities,
  caseTypeLabels,
  caseTypes,
  partyTypes,
  priorityLabels,
  type PartyType,
} from '@contracts/legal/legal.schema';
import type { ReactNode } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { MoneyInput } from '../../../components/MoneyInput';
import {
  caseFieldLabels,
  requiredCaseFields,
  type CaseFormKey,
  type CaseFormState,
} from './case-form';
import { AssigneePicker, AuctionPicker, BidderPicker } from './CasePickers';
import { partyTypeLabels } from './case-style';

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
  },
  party: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1.4fr) minmax(0, 1fr) minmax(0, 1.4fr)',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  // Fluent gives a dropdown a minimum width of its own; here the grid's column decides.
  dropdown: { minWidth: 0, width: '100%' },
});

export type CaseFormUpdate = (change: (current: CaseFormState) => CaseFormState) => void;

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
 * The fields of a case, in the sections of the File New Legal Case form. Editing adds the
 * proceedings (counsel, court number, dates, resolution) and keeps the claim's currency.
 */
export function CaseFormFields({
  form,
  update,
  errors,
  editing = false,
  currentAssignee,
}: {
  form: CaseFormState;
  update: CaseFormUpdate;
  errors: Record<string, string>;
  editing?: boolean;
  currentAssignee?: { id: string; name: string } | null;
}) {
  const styles = useStyles();
  const grid = useFormGridStyles();
  const set = <K extends CaseFormKey>(key: K, value: CaseFormState[K]) =>
    update((current) => ({ ...current, [key]: value }));
  const state = (key: CaseFormKey) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });
  const text = (key: TextKey, extra: { type?: 'email' | 'date' } = {}) => (
    <Field label={caseFieldLabels[key]} required={isRequired(key)} {...state(key)}>
      <Input
        type={extra.type ?? 'text'}
        value={form[key]}
        onChange={(_, data) => set(key, data.value)}
      />
    </Field>
  );
  const choice = <T extends string>(
    key: CaseFormKey,
    values: readonly T[],
    labelOf: (value: T) => string,
    value: T | '',
    onChange: (value: T) => void,
  ) => (
    <Field label={caseFieldLabels[key]} required={isRequired(key)} {...state(key)}>
      <Dropdown
        className={styles.dropdown}
        placeholder="Choose..."
        value={value ? labelOf(value) : ''}
        selectedOptions={value ? [value] : []}
        onOptionSelect={(_, data) => data.optionValue && onChange(data.optionValue as T)}
      >
        {values.map((candidate) => (
          <Option key={candidate} value={candidate}>
            {labelOf(candidate)}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
  const party = (side: 'plaintiff' | 'defendant') => {
    const name = `${side}Name` as const;
    const type = `${side}Type` as const;
    const email = `${side}Email` as const;
    return (
      <div className={styles.party}>
        {text(name)}
        {choice(
          type,
          partyTypes,
          (value: PartyType) => partyTypeLabels[value],
          form[type],
          (value) => set(type, value),
        )}
        {text(email, { type: 'email' })}
      </div>
    );
  };

  return (
    <div className={styles.form}>
      <Section title="Case">
        <div className={grid.row}>
          {choice(
            'caseType',
            caseTypes,
            (value) => caseTypeLabels[value],
            form.caseType,
            (value) => set('caseType', value),
          )}
          {choice(
            'category',
            caseCategories,
            (value) => caseCategoryLabels[value],
            form.category,
            (value) => set('category', value),
          )}
          {choice(
            'priority',
            casePriorities,
            (value) => priorityLabels[value],
            form.priority,
            (value) => set('priority', value),
          )}
          {text('jurisdiction')}
          <div className={grid.wide}>{text('title')}</div>
          <Field
            label={caseFieldLabels.description}
            className={grid.wide}
            {...state('description')}
          >
            <Textarea
              value={form.description}
              onChange={(_, data) => set('description', data.value)}
              resize="vertical"
              rows={4}
            />
          </Field>
          <MoneyInput
            label={caseFieldLabels.claimAmount}
            currency={form.currency}
            value={form.claimAmount}
            onChange={(value) => set('claimAmount', value)}
            error={errors.claimAmount}
            hint={editing ? `In ${form.currency}, the case's currency.` : undefined}
          />
          {editing ? null : (
            <Field label={caseFieldLabels.currency} {...state('currency')}>
              <Dropdown
                className={styles.dropdown}
                value={`${form.currency} (${currencySymbols[form.currency]})`}
                selectedOptions={[form.currency]}
                onOptionSelect={(_, data) => {
                  const chosen = currencies.find((currency) => currency === data.optionValue);
                  if (chosen) set('currency', chosen);
                }}
              >
                {currencies.map((currency) => (
                  <Option key={currency} value={currency}>
                    {`${currency} (${currencySymbols[currency]})`}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          )}
        </div>
      </Section>
      <Section title="Plaintiff">{party('plaintiff')}</Section>
      <Section title="Defendant">{party('defendant')}</Section>
      <Section title="Related">
        <div className={grid.row}>
          <AuctionPicker
            value={form.auction}
            onChange={(auction) => set('auction', auction)}
            error={errors.auction}
          />
          <BidderPicker
            value={form.bidder}
            onChange={(bidder) => set('bidder', bidder)}
            error={errors.bidder}
          />
          <AssigneePicker
            value={form.assignedTo}
            onChange={(id) => set('assignedTo', id)}
            error={errors.assignedTo}
            current={currentAssignee}
          />
        </div>
      </Section>
      {editing ? (
        <Section title="Proceedings">
          <div className={grid.row}>
            {text('legalCounsel')}
            {text('courtCaseNumber')}
            {text('estimatedResolutionDate', { type: 'date' })}
            {text('filingDeadline', { type: 'date' })}
            <Field
              label={caseFieldLabels.resolutionNotes}
              className={grid.wide}
              {...state('resolutionNotes')}
            >
              <Textarea
                value={form.resolutionNotes}
                onChange={(_, data) => set('resolutionNotes', data.value)}
                resize="vertical"
                rows={3}
              />
            </Field>
          </div>
        </Section>
      ) : null}
    </div>
  );
}

/** The fields typed into a one-line box. */
type TextKey =
  | 'title'
  | 'jurisdiction'
  | 'plaintiffName'
  | 'plaintiffEmail'
  | 'defendantName'
  | 'defendantEmail'
  | 'legalCounsel'
  | 'courtCaseNumber'
  | 'estimatedResolutionDate'
  | 'filingDeadline';

const isRequired = (key: CaseFormKey) =>
  (requiredCaseFields as readonly CaseFormKey[]).includes(key);
