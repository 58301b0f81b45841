import {
  Button,
  Caption1,
  Checkbox,
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
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowSyncRegular, DeleteRegular } from '@fluentui/react-icons';
import {
  MAX_ACTIONS,
  MAX_CONDITIONS,
  MAX_RULE_PRIORITY,
  ruleConditionFields,
  ruleTriggers,
  type RuleInput,
  type WorkflowRule,
} from '@contracts/legal/rules/rules.schema';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useFormGridStyles } from '../../../../components/form-grid';
import { ApiError } from '../../../../lib/api-client';
import { correctFieldsMessage } from '../../../../lib/field-errors';
import { useNotify } from '../../../../lib/toast';
import { useAction } from '../../../../lib/use-action';
import { useFocusFirstError } from '../../../../lib/use-focus-first-error';
import { useAssignees } from '../../api/legal';
import { fetchRule, useRuleActions } from '../../api/rules';
import {
  actionTypeLabels,
  actionTypes,
  blankAction,
  blankCondition,
  blankRuleForm,
  checkRuleForm,
  fieldChoices,
  fieldLabels,
  formFromRule,
  operatorLabels,
  operatorsFor,
  permissionChoices,
  placeProblems,
  serverProblems,
  settableStatuses,
  triggerHints,
  triggerLabels,
  withField,
  type ActionRow,
  type ActionType,
  type Choice,
  type ConditionRow,
  type CustomField,
  type Problem,
  type RuleForm,
} from './rule-form';

const useStyles = makeStyles({
  surface: { maxWidth: '780px', width: '100%' },
  // Its children keep their height; the content scrolls instead of squeezing them.
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
  heading: {
    margin: 0,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  muted: { color: tokens.colorNeutralForeground2 },
  error: { color: tokens.colorPaletteRedForeground1 },
  item: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM} ${tokens.spacingVerticalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  itemHead: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  itemGrid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) minmax(0, 1.4fr)',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  wide: { gridColumn: '1 / -1' },
  // Fluent gives a dropdown a minimum width of its own; here the grid's column decides.
  control: { minWidth: 0, width: '100%' },
  add: { alignSelf: 'flex-start' },
});

type Update<T> = (change: Partial<T>) => void;

/** Errors beside their fields: each field's message and state. */
const stateOf = (errors: Record<string, string>, slot: string) => ({
  validationMessage: errors[slot],
  validationState: errors[slot] ? ('error' as const) : ('none' as const),
});

function Section({
  title,
  hint,
  error,
  children,
}: {
  title: string;
  hint?: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-label={title}>
      <Subtitle2 as="h3" className={styles.heading}>
        {title}
      </Subtitle2>
      {hint ? <Caption1 className={styles.muted}>{hint}</Caption1> : null}
      {error ? (
        <Text role="alert" className={styles.error}>
          {error}
        </Text>
      ) : null}
      {children}
    </section>
  );
}

/** One choice from a list, or several of it when `multiple`. */
function ChoiceField({
  label,
  choices,
  value,
  values,
  multiple = false,
  placeholder = 'Choose...',
  onChange,
  onChangeMany,
  errors,
  slot,
  hint,
}: {
  label: string;
  choices: Choice[];
  value?: string;
  values?: string[];
  multiple?: boolean;
  placeholder?: string;
  onChange?(value: string): void;
  onChangeMany?(values: string[]): void;
  errors: Record<string, string>;
  slot: string;
  hint?: string;
}) {
  const styles = useStyles();
  const labelOf = (candidate: string) =>
    choices.find((choice) => choice.value === candidate)?.label ?? candidate;
  const selected = multiple ? (values ?? []) : value === undefined ? [] : [value];
  const shown = multiple
    ? selected.map(labelOf).join(', ')
    : value === undefined
      ? ''
      : (choices.find((choice) => choice.value === value)?.label ?? '');
  return (
    <Field label={label} hint={hint} {...stateOf(errors, slot)}>
      <Dropdown
        className={styles.control}
        multiselect={multiple}
        placeholder={placeholder}
        value={shown}
        selectedOptions={selected}
        onOptionSelect={(_, data) => {
          if (multiple) onChangeMany?.(data.selectedOptions);
          else if (data.optionValue !== undefined) onChange?.(data.optionValue);
        }}
      >
        {choices.map((choice) => (
          <Option key={choice.value} value={choice.value}>
            {choice.label}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

function ItemHead({ label, onRemove }: { label: string; onRemove(): void }) {
  const styles = useStyles();
  return (
    <div className={styles.itemHead}>
      <Text weight="semibold" size={200}>
        {label}
      </Text>
      <Button
        appearance="subtle"
        size="small"
        icon={<DeleteRegular />}
        aria-label={`Remove ${label.toLowerCase()}`}
        onClick={onRemove}
      />
    </div>
  );
}

function ConditionItem({
  row,
  index,
  members,
  update,
  onRemove,
  errors,
}: {
  row: ConditionRow;
  index: number;
  members: Choice[];
  update: Update<ConditionRow>;
  onRemove(): void;
  errors: Record<string, string>;
}) {
  const styles = useStyles();
  const slot = (part: string) => `conditions.${index}${part}`;
  const label = `Condition ${index + 1}`;
  const many = row.operator === 'in';
  const named =
    row.field === 'assignedTo'
      ? many
        ? members
        : [{ value: '', label: 'Nobody (unassigned)' }, ...members]
      : fieldChoices[row.field];
  return (
    <div role="group" aria-label={label} className={styles.item}>
      <ItemHead label={label} onRemove={onRemove} />
      {errors[slot('')] ? (
        <Text role="alert" className={styles.error}>
          {errors[slot('')]}
        </Text>
      ) : null}
      <div className={styles.itemGrid}>
        <ChoiceField
          label="Field"
          slot={slot('.field')}
          errors={errors}
          choices={ruleConditionFields.map((field) => ({
            value: field,
            label: fieldLabels[field],
          }))}
          value={row.field}
          onChange={(field) => update(withField(row, field as CustomField))}
        />
        <ChoiceField
          label="Operator"
          slot={slot('.operator')}
          errors={errors}
          choices={operatorsFor(row.field).map((operator) => ({
            value: operator,
            label: operatorLabels[operator],
          }))}
          value={row.operator}
          onChange={(operator) => update({ operator: operator as ConditionRow['operator'] })}
        />
        {named ? (
          <ChoiceField
            label={many ? 'Values' : 'Value'}
            slot={slot('.value')}
            errors={errors}
            choices={named}
            multiple={many}
            value={row.value}
            values={row.values}
            onChange={(value) => update({ value })}
            onChangeMany={(values) => update({ values })}
          />
        ) : (
          <Field label="Value" hint="In the case's currency" {...stateOf(errors, slot('.value'))}>
            <Input
              inputMode="decimal"
              value={row.value}
              placeholder="50,000"
              onChange={(_, data) => update({ value: data.value })}
            />
          </Field>
        )}
      </div>
    </div>
  );
}

function ActionItem({
  row,
  index,
  members,
  update,
  onRemove,
  errors,
}: {
  row: ActionRow;
  index: number;
  members: Choice[];
  update: Update<ActionRow>;
  onRemove(): void;
  errors: Record<string, string>;
}) {
  const styles = useStyles();
  const slot = (part: string) => `actions.${index}${part}`;
  const label = `Action ${index + 1}`;
  return (
    <div role="group" aria-label={label} className={styles.item}>
      <ItemHead label={label} onRemove={onRemove} />
      {errors[slot('')] ? (
        <Text role="alert" className={styles.error}>
          {errors[slot('')]}
        </Text>
      ) : null}
      <div className={styles.itemGrid}>
        <ChoiceField
          label="Action"
          slot={slot('.type')}
          errors={errors}
          choices={actionTypes.map((type) => ({ value: type, label: actionTypeLabels[type] }))}
          value={row.type}
          onChange={(type) => update({ ...blankAction(type as ActionType), key: row.key })}
        />
        {row.type === 'change_status' ? (
          <ChoiceField
            label="New status"
            slot={slot('.to')}
            errors={errors}
            choices={settableStatuses.map((status) => ({ value: status, label: status }))}
            value={row.to}
            onChange={(to) => update({ to })}
          />
        ) : null}
        {row.type === 'assign_to' ? (
          <ChoiceField
            label="Member"
            slot={slot('.userId')}
            errors={errors}
            choices={members}
            value={row.userId}
            onChange={(userId) => update({ userId })}
            hint="Members who can work on legal cases"
          />
        ) : null}
        {row.type === 'notify' ? (
          <>
            <ChoiceField
              label="Holders of"
              slot={slot('.permission')}
              errors={errors}
              choices={[{ value: '', label: 'No permission' }, ...permissionChoices]}
              value={row.permission}
              onChange={(permission) => update({ permission })}
            />
            <ChoiceField
              label="People"
              slot={slot('.userIds')}
              errors={errors}
              choices={members}
              multiple
              placeholder="Nobody by name"
              values={row.userIds}
              onChangeMany={(userIds) => update({ userIds })}
            />
            <Checkbox
              className={styles.wide}
              label="The case's assignee"
              checked={row.assignee}
              onChange={(_, data) => update({ assignee: data.checked === true })}
            />
          </>
        ) : null}
      </div>
    </div>
  );
}

/** What went wrong with the last save, said above the form. */
type Banner = { kind: 'fields' | 'error' | 'stale'; message: string };

/**
 * New Rule, or Edit Rule for a custom rule: its name, trigger, conditions and actions. Problems
 * the service finds show beside the fields they name, others above the form; an edit made against
 * an older version of the rule is refused and offers to reload it.
 */
export function RuleEditorDialog({
  rule,
  onClose,
}: {
  /** The custom rule to edit; absent for a new one. */
  rule?: WorkflowRule;
  onClose(): void;
}) {
  const styles = useStyles();
  const grid = useFormGridStyles();
  const notify = useNotify();
  const actions = useRuleActions();
  const { data: assignees } = useAssignees();
  const [base, setBase] = useState(rule);
  const [form, setForm] = useState<RuleForm>(() => (rule ? formFromRule(rule) : blankRuleForm()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<Banner | null>(null);
  const formRef = useFocusFirstError(errors);

  // Members who may be named, and any the rule names who no longer may (kept, so it still shows).
  const members: Choice[] = (assignees?.assignees ?? []).map((person) => ({
    value: person.id,
    label: person.name,
  }));
  const named = [
    ...form.actions.flatMap((row) =>
      row.type === 'assign_to' ? [row.userId] : row.type === 'notify' ? row.userIds : [],
    ),
    ...form.conditions.flatMap((row) =>
      row.field === 'assignedTo' ? [row.value, ...row.values] : [],
    ),
  ].filter((id) => id !== '');
  for (const id of new Set(named)) {
    if (!members.some((member) => member.value === id)) {
      members.push({ value: id, label: 'Former member' });
    }
  }

  const show = (problems: Problem[]) => {
    const { placed, unplaced } = placeProblems(form, problems);
    setErrors(placed);
    const count = Object.keys(placed).length;
    setBanner({
      kind: 'fields',
      message: [...unplaced, ...(count ? [correctFieldsMessage(count)] : [])].join(' '),
    });
  };

  const save = useAction(
    async (body: RuleInput) => {
      if (base) {
        const saved = await actions.update(base, body);
        notify.success('Rule saved', `"${saved.name}" is updated.`);
      } else {
        const saved = await actions.create(body);
        notify.success(
          'Rule created',
          `"${saved.name}" ${saved.enabled ? 'runs from now on' : 'is saved, switched off'}.`,
        );
      }
      onClose();
    },
    {
      onError: (message, caught) => {
        const problems = serverProblems(caught);
        if (problems.length) show(problems);
        else if (caught instanceof ApiError && caught.status === 412) {
          setBanner({
            kind: 'stale',
            message: 'Someone else changed this rule; reload it to see their changes.',
          });
        } else setBanner({ kind: 'error', message });
      },
    },
  );

  const reload = useAction(
    async () => {
      if (!base) return;
      const fresh = await fetchRule(base.id);
      setBase(fresh);
      setForm(formFromRule(fresh));
      setErrors({});
      setBanner(null);
      void actions.refresh();
    },
    { onError: (message) => setBanner({ kind: 'error', message }) },
  );

  const busy = save.busy || reload.busy;
  const close = () => {
    if (!busy) onClose();
  };
  const set = (change: Partial<RuleForm>) => setForm((current) => ({ ...current, ...change }));
  const setRow =
    <K extends 'conditions' | 'actions'>(list: K, key: string) =>
    (change: Partial<RuleForm[K][number]>) =>
      setForm((current) => ({
        ...current,
        [list]: (current[list] as RuleForm[K][number][]).map((row) =>
          row.key === key ? { ...row, ...change } : row,
        ),
      }));
  const removeRow = (list: 'conditions' | 'actions', key: string) => {
    setForm((current) => ({
      ...current,
      [list]: (current[list] as { key: string }[]).filter((row) => row.key !== key),
    }));
    // The rows' numbers move: problems named by number no longer point at the right one.
    setErrors({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = checkRuleForm(form);
    if (!checked.ok) {
      show(checked.problems);
      return;
    }
    setErrors({});
    setBanner(null);
    void save.run(checked.body);
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <form
          ref={formRef}
          onSubmit={submit}
          noValidate
          aria-label={base ? 'Edit rule' : 'New rule'}
        >
          <DialogBody>
            <DialogTitle>{base ? 'Edit Rule' : 'New Rule'}</DialogTitle>
            <DialogContent className={styles.content}>
              {banner ? (
                <MessageBar
                  intent={banner.kind === 'stale' ? 'warning' : 'error'}
                  layout="multiline"
                >
                  <MessageBarBody>
                    <MessageBarTitle>
                      {banner.kind === 'stale'
                        ? 'This rule changed'
                        : base
                          ? 'The rule was not saved'
                          : 'The rule was not created'}
                    </MessageBarTitle>
                    {banner.message}
                  </MessageBarBody>
                  {banner.kind === 'stale' ? (
                    <MessageBarActions>
                      <Button
                        icon={<ArrowSyncRegular />}
                        disabled={busy}
                        onClick={() => void reload.run()}
                      >
                        Reload
                      </Button>
                    </MessageBarActions>
                  ) : null}
                </MessageBar>
              ) : null}
              <div className={grid.row}>
                <Field label="Name" required className={grid.wide} {...stateOf(errors, 'name')}>
                  <Input
                    value={form.name}
                    maxLength={120}
                    onChange={(_, data) => set({ name: data.value })}
                  />
                </Field>
                <Field
                  label="Description"
                  className={grid.wide}
                  {...stateOf(errors, 'description')}
                >
                  <Textarea
                    value={form.description}
                    maxLength={1000}
                    rows={2}
                    resize="vertical"
                    onChange={(_, data) => set({ description: data.value })}
                  />
                </Field>
                <ChoiceField
                  label="Trigger"
                  slot="trigger"
                  errors={errors}
                  hint={triggerHints[form.trigger]}
                  choices={ruleTriggers.map((trigger) => ({
                    value: trigger,
                    label: triggerLabels[trigger],
                  }))}
                  value={form.trigger}
                  onChange={(trigger) => set({ trigger: trigger as RuleForm['trigger'] })}
                />
                <Field
                  label="Priority"
                  hint={`Lower runs first, 0 to ${MAX_RULE_PRIORITY}`}
                  {...stateOf(errors, 'priority')}
                >
                  <Input
                    type="number"
                    min={0}
                    max={MAX_RULE_PRIORITY}
                    step={1}
                    value={form.priority}
                    onChange={(_, data) => set({ priority: data.value })}
                  />
                </Field>
                <Switch
                  className={grid.wide}
                  label="Enabled: runs whenever its trigger fires"
                  checked={form.enabled}
                  onChange={(_, data) => set({ enabled: data.checked })}
                />
              </div>
              <Section
                title="Conditions"
                hint="All must hold of the case. With none, the rule acts on every case its trigger fires for."
                error={errors.conditions}
              >
                {form.conditions.map((row, index) => (
                  <ConditionItem
                    key={row.key}
                    row={row}
                    index={index}
                    members={members}
                    errors={errors}
                    update={setRow('conditions', row.key)}
                    onRemove={() => removeRow('conditions', row.key)}
                  />
                ))}
                <Button
                  className={styles.add}
                  icon={<AddRegular />}
                  disabled={form.conditions.length >= MAX_CONDITIONS}
                  onClick={() => set({ conditions: [...form.conditions, blankCondition()] })}
                >
                  Add condition
                </Button>
              </Section>
              <Section
                title="Actions"
                hint="Done in order. A rule makes at most one status change."
                error={errors.actions}
              >
                {form.actions.map((row, index) => (
                  <ActionItem
                    key={row.key}
                    row={row}
                    index={index}
                    members={members}
                    errors={errors}
                    update={setRow('actions', row.key)}
                    onRemove={() => removeRow('actions', row.key)}
                  />
                ))}
                <Button
                  className={styles.add}
                  icon={<AddRegular />}
                  disabled={form.actions.length >= MAX_ACTIONS}
                  onClick={() => set({ actions: [...form.actions, blankAction()] })}
                >
                  Add action
                </Button>
              </Section>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy}>
                {save.busy ? 'Saving...' : base ? 'Save Rule' : 'Create Rule'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
