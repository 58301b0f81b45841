import { permissionCatalogue } from '@contracts/identity/permissions';
import {
  caseCategories,
  caseCategoryLabels,
  casePriorities,
  caseStatuses,
  caseTypeLabels,
  caseTypes,
  priorityLabels,
} from '@contracts/legal/legal.schema';
import {
  DEFAULT_RULE_PRIORITY,
  notifiablePermissions,
  ruleActionSchema,
  ruleConditionFields,
  ruleConditionSchema,
  ruleInputSchema,
  ruleOperators,
  ruleTriggers,
  type ActionView,
  type AnyRuleTrigger,
  type ConditionField,
  type ConditionView,
  type RuleInput,
  type RuleOperator,
  type RuleTrigger,
  type WorkflowRule,
} from '@contracts/legal/rules/rules.schema';
import type { z } from 'zod';
import { ApiError } from '../../../../lib/api-client';
import { fieldLabel, fieldSentence } from '../../../../lib/field-errors';

/** The fields a custom rule's condition may test. */
export type CustomField = (typeof ruleConditionFields)[number];
export type ActionType = 'change_status' | 'assign_to' | 'notify';
export const actionTypes: readonly ActionType[] = ['change_status', 'assign_to', 'notify'];

export const triggerLabels: Record<AnyRuleTrigger, string> = {
  status_change: 'Status changes',
  case_created: 'Case is filed',
  payment_received: 'Payment is received',
  priority_change: 'Priority changes',
  schedule: 'Periodic check',
  case_updated: 'Case is updated',
};

export const triggerHints: Record<RuleTrigger, string> = {
  status_change: 'Runs after a case moves to another status.',
  case_created: 'Runs when a new case is filed.',
  payment_received: "Runs when a settled case's payment is recorded.",
  priority_change: "Runs after a case's priority changes.",
};

export const fieldLabels: Record<ConditionField, string> = {
  status: 'Status',
  priority: 'Priority',
  caseType: 'Case type',
  category: 'Category',
  claimAmount: 'Claim amount',
  assignedTo: 'Assigned to',
  hoursSinceFiled: 'Hours since filing',
  daysSinceUpdate: 'Days since the last update',
  settlementAmount: 'Settlement amount',
};

export const operatorLabels: Record<RuleOperator, string> = {
  equals: 'is',
  not_equals: 'is not',
  greater_than: 'is above',
  less_than: 'is below',
  in: 'is one of',
};

export const actionTypeLabels: Record<ActionType, string> = {
  change_status: 'Change status',
  assign_to: 'Assign to',
  notify: 'Notify',
};

/** The operators the contract lets a condition on this field use. */
export const operatorsFor = (() => {
  const allowed = Object.fromEntries(
    ruleConditionFields.map((field) => [
      field,
      ruleOperators.filter((operator) => {
        const parsed = ruleConditionSchema.safeParse({ field, operator, value: undefined });
        return parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === 'operator');
      }),
    ]),
  ) as Record<CustomField, RuleOperator[]>;
  return (field: CustomField) => allowed[field];
})();

/** The statuses a rule may move a case to (settling needs an amount, so a person does it). */
export const settableStatuses = caseStatuses.filter(
  (to) => ruleActionSchema.safeParse({ type: 'change_status', to }).success,
);

export interface Choice {
  value: string;
  label: string;
}

const choices = <T extends string>(values: readonly T[], label: (value: T) => string): Choice[] =>
  values.map((value) => ({ value, label: label(value) }));

/** A field's named values, for the fields that take one of a list. */
export const fieldChoices: Partial<Record<CustomField, Choice[]>> = {
  status: choices(caseStatuses, (status) => status),
  priority: choices(casePriorities, (priority) => priorityLabels[priority]),
  caseType: choices(caseTypes, (type) => caseTypeLabels[type]),
  category: choices(caseCategories, (category) => caseCategoryLabels[category]),
};

export const permissionChoices = choices(
  notifiablePermissions,
  (permission) => permissionCatalogue[permission],
);

/** One condition as typed: `value` for one value, `values` for `in`. */
export interface ConditionRow {
  key: string;
  field: CustomField;
  operator: RuleOperator;
  /** A choice, an amount as typed, or a member's id (blank: unassigned). */
  value: string;
  values: string[];
}

export interface ActionRow {
  key: string;
  type: ActionType;
  to: string;
  userId: string;
  userIds: string[];
  /** Blank: nobody by permission. */
  permission: string;
  assignee: boolean;
}

export interface RuleForm {
  name: string;
  description: string;
  trigger: RuleTrigger;
  priority: string;
  enabled: boolean;
  conditions: ConditionRow[];
  actions: ActionRow[];
}

let rowCount = 0;
const rowKey = () => {
  rowCount += 1;
  return `row-${rowCount}`;
};

export const blankCondition = (field: CustomField = 'priority'): ConditionRow => ({
  key: rowKey(),
  field,
  operator: 'equals',
  value: '',
  values: [],
});

export const blankAction = (type: ActionType = 'notify'): ActionRow => ({
  key: rowKey(),
  type,
  to: '',
  userId: '',
  userIds: [],
  permission: '',
  assignee: type === 'notify',
});

export const blankRuleForm = (): RuleForm => ({
  name: '',
  description: '',
  trigger: 'status_change',
  priority: String(DEFAULT_RULE_PRIORITY),
  enabled: true,
  conditions: [],
  actions: [blankAction()],
});

/** A condition moved to another field: its operator kept where allowed, its value cleared. */
export const withField = (row: ConditionRow, field: CustomField): ConditionRow => ({
  ...row,
  field,
  operator: operatorsFor(field).includes(row.operator) ? row.operator : 'equals',
  value: '',
  values: [],
});

const isCustomField = (field: ConditionField): field is CustomField =>
  (ruleConditionFields as readonly string[]).includes(field);
const isTrigger = (trigger: AnyRuleTrigger): trigger is RuleTrigger =>
  (ruleTriggers as readonly string[]).includes(trigger);

const conditionRow = (condition: ConditionView): ConditionRow | null => {
  if (!isCustomField(condition.field)) return null;
  const { value } = condition;
  return {
    key: rowKey(),
    field: condition.field,
    operator: condition.operator,
    value: Array.isArray(value) || value === null ? '' : String(value),
    values: Array.isArray(value) ? value : [],
  };
};

const actionRow = (action: ActionView): ActionRow | null => {
  if (action.type === 'require_approval') return null;
  const row = blankAction(action.type);
  if (action.type === 'change_status') return { ...row, to: action.to };
  if (action.type === 'assign_to') return { ...row, userId: action.userId };
  return {
    ...row,
    userIds: action.userIds,
    permission: action.permission ?? '',
    assignee: action.assignee,
  };
};

export const formFromRule = (rule: WorkflowRule): RuleForm => ({
  name: rule.name,
  description: rule.description,
  trigger: isTrigger(rule.trigger) ? rule.trigger : 'status_change',
  priority: String(rule.priority),
  enabled: rule.enabled,
  conditions: rule.conditions.map(conditionRow).filter((row) => row !== null),
  actions: rule.actions.map(actionRow).filter((row) => row !== null),
});

const blankToUndefined = (text: string) => (text.trim() === '' ? undefined : text);

/** An amount as typed ("50,000"), as a number; NaN when it is not one. */
const amountOf = (text: string) => {
  const trimmed = text.replace(/[,\s]/g, '');
  return trimmed === '' ? undefined : Number(trimmed);
};

function conditionValue(row: ConditionRow): unknown {
  if (row.operator === 'in') return row.values;
  if (row.field === 'claimAmount') return amountOf(row.value);
  if (row.field === 'assignedTo') return row.value === '' ? null : row.value;
  return blankToUndefined(row.value);
}

function actionBody(row: ActionRow): unknown {
  switch (row.type) {
    case 'change_status':
      return { type: row.type, to: blankToUndefined(row.to) };
    case 'assign_to':
      return { type: row.type, userId: blankToUndefined(row.userId) };
    case 'notify':
      return {
        type: row.type,
        userIds: row.userIds,
        permission: row.permission === '' ? null : row.permission,
        assignee: row.assignee,
      };
  }
}

/** The form as the service's contract takes it, before checking. */
export const bodyOf = (form: RuleForm) => ({
  name: form.name,
  description: form.description,
  trigger: form.trigger,
  priority: form.priority.trim() === '' ? undefined : Number(form.priority),
  enabled: form.enabled,
  conditions: form.conditions.map((row) => ({
    field: row.field,
    operator: row.operator,
    value: conditionValue(row),
  })),
  actions: form.actions.map(actionBody),
});

export interface Problem {
  field: string;
  message: string;
}

/** A contract's problem in the form's words. */
function describeIssue(issue: z.core.$ZodIssue): string {
  // Parsed with reportInput: nothing chosen or typed is missing, whatever the value's type.
  if ('input' in issue && issue.input === undefined) return 'is required';
  if (issue.code === 'invalid_type') {
    if (issue.expected === 'number') return 'is not a number';
    if (issue.expected === 'int') return 'is a whole number';
  }
  if (issue.code === 'too_small' && issue.origin === 'array' && /^Too small/.test(issue.message)) {
    return 'needs at least one choice';
  }
  if (issue.code === 'too_small' && issue.origin === 'number' && /^Too small/.test(issue.message)) {
    return `is at least ${String(issue.minimum)}`;
  }
  if (issue.code === 'too_big' && issue.origin === 'number' && /^Too big/.test(issue.message)) {
    return `is at most ${String(issue.maximum)}`;
  }
  return issue.message;
}

export type Checked = { ok: true; body: RuleInput } | { ok: false; problems: Problem[] };

/** Checks the form by the service's own contract, so most mistakes show before sending. */
export function checkRuleForm(form: RuleForm): Checked {
  const parsed = ruleInputSchema.safeParse(bodyOf(form), { reportInput: true });
  if (parsed.success) return { ok: true, body: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.'),
      message: describeIssue(issue),
    })),
  };
}

/** The field problems of a refused save (a 400), as the service named them. */
export function serverProblems(error: unknown): Problem[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const fields = (error.details as { fields?: Problem[] } | undefined)?.fields;
  return Array.isArray(fields) ? fields.map(({ field, message }) => ({ field, message })) : [];
}

const slotLabels: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  trigger: 'Trigger',
  priority: 'Priority',
  enabled: 'Enabled',
  conditions: 'Conditions',
  actions: 'Actions',
  field: 'Field',
  operator: 'Operator',
  value: 'Value',
  type: 'Action',
  to: 'Status',
  userId: 'Member',
  userIds: 'People',
  permission: 'Permission',
  assignee: 'Assignee',
};

/** Where each problem shows: the slots the form has now, by their keys. */
function slotsOf(form: RuleForm): Set<string> {
  const slots = new Set([
    'name',
    'description',
    'trigger',
    'priority',
    'enabled',
    'conditions',
    'actions',
  ]);
  form.conditions.forEach((_, index) => {
    for (const part of ['', '.field', '.operator', '.value'])
      slots.add(`conditions.${index}${part}`);
  });
  form.actions.forEach((row, index) => {
    const parts = {
      change_status: ['to'],
      assign_to: ['userId'],
      notify: ['userIds', 'permission', 'assignee'],
    }[row.type];
    for (const part of ['', '.type', ...parts.map((name) => `.${name}`)]) {
      slots.add(`actions.${index}${part}`);
    }
  });
  return slots;
}

const NOBODY = 'Choose whom to notify: the assignee, holders of a permission, or people';

/** A problem as a sentence for its slot: "Value is required", "This action is ...". */
function sentence(slot: string, message: string): string {
  if (message.startsWith('names nobody')) return NOBODY;
  if (!/^[a-z]/.test(message)) return message;
  // Shown under the list's heading: "Needs at least one action".
  if (slot === 'conditions' || slot === 'actions') {
    return `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
  }
  const parts = slot.split('.');
  const last = parts[parts.length - 1] ?? slot;
  if (/^\d+$/.test(last)) {
    return `${parts[0] === 'actions' ? 'This action' : 'This condition'} ${message}`;
  }
  return `${slotLabels[last] ?? fieldLabel(slot)} ${message}`;
}

/**
 * The problems placed beside the fields they name (a list's item problem on the list), and those
 * the form has no place for, said above it.
 */
export function placeProblems(
  form: RuleForm,
  problems: Problem[],
): { placed: Record<string, string>; unplaced: string[] } {
  const slots = slotsOf(form);
  const placed: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const { field, message } of problems) {
    // `conditions.0.value.1` shows on the value's list, `actions.0.userIds.2` on the people.
    const slot = field.replace(/^((?:conditions|actions)\.\d+\.\w+)\.\d+$/, '$1');
    if (slots.has(slot)) placed[slot] ??= sentence(slot, message);
    else unplaced.push(fieldSentence(field, message));
  }
  return { placed, unplaced };
}

/** Names of members by id, for showing who a rule names. */
export type NameOf = (id: string) => string;

const valueText = (field: ConditionField, value: ConditionView['value'], nameOf: NameOf) => {
  const one = (item: string | number | null): string => {
    if (item === null) return field === 'assignedTo' ? 'nobody' : 'none';
    if (typeof item === 'number') return item.toLocaleString('en-US');
    if (field === 'assignedTo') return nameOf(item);
    if (isCustomField(field)) {
      return fieldChoices[field]?.find((choice) => choice.value === item)?.label ?? item;
    }
    return item;
  };
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
};

/** A condition in words: "Priority is Critical", "Claim amount is above 50,000". */
export const describeCondition = (condition: ConditionView, nameOf: NameOf) =>
  `${fieldLabels[condition.field]} ${operatorLabels[condition.operator]} ${valueText(
    condition.field,
    condition.value,
    nameOf,
  )}`;

const andList = (items: string[]) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;

/** An action in words: "Move to IN REVIEW", "Notify the assignee and Jane Doe". */
export function describeAction(action: ActionView, nameOf: NameOf): string {
  switch (action.type) {
    case 'change_status':
      return `Move to ${action.to}`;
    case 'assign_to':
      return `Assign to ${nameOf(action.userId)}`;
    case 'require_approval':
      return `Wait for approval by those who may ${permissionCatalogue[action.permission].toLowerCase()}`;
    case 'notify': {
      const whom = [
        ...(action.assignee ? ['the assignee'] : []),
        ...(action.permission
          ? [`those who may ${permissionCatalogue[action.permission].toLowerCase()}`]
          : []),
        ...action.userIds.map(nameOf),
      ];
      return `Notify ${andList(whom)}`;
    }
  }
}
