import { z } from 'zod';
import type { Permission } from '../../identity/permissions.js';
import {
  AUTO_REVIEW_AFTER_HOURS,
  DIRECTOR_APPROVAL_ABOVE,
  REMINDER_AFTER_DAYS,
  caseCategories,
  casePriorities,
  caseSchema,
  caseStatuses,
  caseTypes,
  isActiveStatus,
  statusChangeSchema,
} from '../legal.schema.js';

/**
 * Contracts of the workflow rules service (spec 3.1 "Workflow rule", "Workflow history entry"):
 * an account's rules, running them on a case, and what running them did. Shared with the web app.
 *
 * A rule fires on its trigger when every condition holds of the case as it was at that moment,
 * and runs its actions in order. Rules run by `priority`, the lowest number first; when several
 * rules would move the case, the first to do so wins and later status changes in that run are
 * skipped. A change made by a rule never fires rules again.
 */

/** What makes a custom rule fire. */
export const ruleTriggers = [
  'status_change',
  'case_created',
  'payment_received',
  'priority_change',
] as const;
export type RuleTrigger = (typeof ruleTriggers)[number];

/**
 * Every trigger a rule may show: the custom ones, and those only the built-in rules use (a
 * periodic check of each case, any update of a case).
 */
export const allRuleTriggers = [...ruleTriggers, 'schedule', 'case_updated'] as const;
export type AnyRuleTrigger = (typeof allRuleTriggers)[number];

/** What a history entry says set a rule off: a trigger, or someone running it by hand. */
export const historyTriggers = [...allRuleTriggers, 'manual'] as const;
export type HistoryTrigger = (typeof historyTriggers)[number];

export const ruleOperators = ['equals', 'not_equals', 'greater_than', 'less_than', 'in'] as const;
export type RuleOperator = (typeof ruleOperators)[number];

/** The case fields a custom rule's conditions may test. */
export const ruleConditionFields = [
  'status',
  'priority',
  'caseType',
  'category',
  'claimAmount',
  'assignedTo',
] as const;

/** Every field a condition may show: the custom ones and those the built-in rules test. */
export const allConditionFields = [
  ...ruleConditionFields,
  'hoursSinceFiled',
  'daysSinceUpdate',
  'settlementAmount',
] as const;
export type ConditionField = (typeof allConditionFields)[number];

/** The permissions a rule may notify the holders of. */
export const notifiablePermissions = [
  'legal:view',
  'legal:edit',
  'legal:workflow',
  'legal:workflow_approve',
  'legal:notifications',
  'legal:escalate',
  'legal:reports',
] as const satisfies readonly Permission[];

export const MAX_CONDITIONS = 10;
export const MAX_ACTIONS = 10;
export const MAX_NOTIFIED_USERS = 20;
/** Custom rules an account may keep: every trigger reads them all. */
export const MAX_CUSTOM_RULES = 50;
export const DEFAULT_RULE_PRIORITY = 100;
export const MAX_RULE_PRIORITY = 1000;
/** The largest amount a condition may name, in major units. */
const MAX_CONDITION_AMOUNT = 1_000_000_000_000;

const text = (max: number) => z.string().trim().max(max);
const required = (max: number) => text(max).min(1, 'is required');
const memberId = z.string().trim().min(1, 'is required').max(100);

/** `in` takes a list, every other operator one value. */
function oneOrList<T extends { operator: string; value: unknown }>(
  condition: T,
  ctx: z.RefinementCtx,
) {
  const listed = Array.isArray(condition.value);
  if (condition.operator === 'in' && !listed) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'is a list of values for "in"' });
  }
  if (condition.operator !== 'in' && listed) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'is one value; use "in" for a list' });
  }
}

const choiceCondition = <F extends string, V extends readonly [string, ...string[]]>(
  field: F,
  values: V,
  operators: readonly [RuleOperator, ...RuleOperator[]],
) =>
  z
    .object({
      field: z.literal(field),
      operator: z.enum(operators),
      value: z.union([z.enum(values), z.array(z.enum(values)).min(1).max(values.length)]),
    })
    .superRefine(oneOrList);

const equality = ['equals', 'not_equals', 'in'] as const;
const ordered = ['equals', 'not_equals', 'greater_than', 'less_than', 'in'] as const;

/**
 * One condition of a custom rule, its value typed by its field: a status, priority, type or
 * category by name (priority compares Low < Medium < High < Critical), the claim amount in major
 * units of the case's currency (as the $50,000 approval threshold is), and an assignee by member
 * id, or null for an unassigned case.
 */
export const ruleConditionSchema = z.discriminatedUnion('field', [
  choiceCondition('status', caseStatuses, equality),
  choiceCondition('priority', casePriorities, ordered),
  choiceCondition('caseType', caseTypes, equality),
  choiceCondition('category', caseCategories, equality),
  z.object({
    field: z.literal('claimAmount'),
    operator: z.enum(['equals', 'not_equals', 'greater_than', 'less_than']),
    value: z.number().min(0, 'cannot be negative').max(MAX_CONDITION_AMOUNT),
  }),
  z
    .object({
      field: z.literal('assignedTo'),
      operator: z.enum(equality),
      value: z.union([memberId, z.null(), z.array(memberId).min(1).max(MAX_NOTIFIED_USERS)]),
    })
    .superRefine(oneOrList),
]);
export type RuleCondition = z.infer<typeof ruleConditionSchema>;

const changeStatusAction = z.object({
  type: z.literal('change_status'),
  to: z.enum(caseStatuses).refine((to) => to !== 'SETTLED', {
    message: 'cannot be SETTLED: a settlement needs its amount, so a person settles a case',
  }),
});

const assignAction = z.object({ type: z.literal('assign_to'), userId: memberId });

const notifyAction = z
  .object({
    type: z.literal('notify'),
    userIds: z.array(memberId).max(MAX_NOTIFIED_USERS).default([]),
    permission: z.enum(notifiablePermissions).nullable().default(null),
    assignee: z.boolean().default(false),
  })
  .refine((action) => action.userIds.length > 0 || action.permission !== null || action.assignee, {
    path: ['userIds'],
    message: 'names nobody: give userIds, a permission, or assignee true',
  });

/** What a custom rule does: move the case, assign it, or tell people. */
export const ruleActionSchema = z.discriminatedUnion('type', [
  changeStatusAction,
  assignAction,
  notifyAction,
]);
export type RuleAction = z.infer<typeof ruleActionSchema>;

const ruleFields = {
  name: required(120),
  description: text(1000),
  trigger: z.enum(ruleTriggers),
  conditions: z.array(ruleConditionSchema).max(MAX_CONDITIONS),
  actions: z.array(ruleActionSchema).min(1, 'needs at least one action').max(MAX_ACTIONS),
  enabled: z.boolean(),
  /** Lower runs first. */
  priority: z.number().int().min(0).max(MAX_RULE_PRIORITY),
};

export const ruleInputSchema = z.object({
  ...ruleFields,
  description: ruleFields.description.default(''),
  conditions: ruleFields.conditions.default([]),
  enabled: ruleFields.enabled.default(true),
  priority: ruleFields.priority.default(DEFAULT_RULE_PRIORITY),
});
export type RuleInput = z.infer<typeof ruleInputSchema>;

/** A change to a rule: any of its fields; a built-in rule takes `enabled` only. */
export const ruleUpdateSchema = z.object(ruleFields).partial().strict();
export type RuleUpdate = z.infer<typeof ruleUpdateSchema>;

/** A condition as a rule shows it, custom or built-in. */
export const conditionViewSchema = z.object({
  field: z.enum(allConditionFields),
  operator: z.enum(ruleOperators),
  value: z.union([z.string(), z.number(), z.null(), z.array(z.string())]),
});
export type ConditionView = z.infer<typeof conditionViewSchema>;

/** An action as a rule shows it: a built-in rule may also make a settlement wait for approval. */
export const actionViewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('change_status'), to: z.enum(caseStatuses) }),
  z.object({ type: z.literal('assign_to'), userId: z.string() }),
  z.object({
    type: z.literal('notify'),
    userIds: z.array(z.string()),
    permission: z.enum(notifiablePermissions).nullable(),
    assignee: z.boolean(),
  }),
  z.object({
    type: z.literal('require_approval'),
    permission: z.literal('legal:workflow_approve'),
  }),
]);
export type ActionView = z.infer<typeof actionViewSchema>;

const personSchema = z.object({ id: z.string(), name: z.string() });

export const ruleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  trigger: z.enum(allRuleTriggers),
  conditions: z.array(conditionViewSchema),
  actions: z.array(actionViewSchema),
  enabled: z.boolean(),
  priority: z.number().int(),
  /** One of the spec's case automation rules (4.2): switched on or off, never edited or deleted. */
  builtIn: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: personSchema.nullable(),
  etag: z.string(),
});
export type WorkflowRule = z.infer<typeof ruleSchema>;
export const rulesSchema = z.object({ rules: z.array(ruleSchema) });

/** The built-in rules, by key; each is `builtin:{key}` in every account. */
export const builtInKeys = [
  'auto-review',
  'payment-closes-settled',
  'inactivity-reminder',
  'critical-escalation',
  'director-approval',
] as const;
export type BuiltInKey = (typeof builtInKeys)[number];
export const builtInId = (key: BuiltInKey) => `builtin:${key}`;

export interface BuiltInDefinition {
  name: string;
  description: string;
  trigger: AnyRuleTrigger;
  conditions: ConditionView[];
  actions: ActionView[];
}

/**
 * The spec's case automation rules (4.2), all enabled until an account switches one off. What
 * they do is done by the legal service and its automation; these say what that is.
 */
export const builtInRules: Record<BuiltInKey, BuiltInDefinition> = {
  'auto-review': {
    name: '24-hour review',
    description: `${AUTO_REVIEW_AFTER_HOURS} hours after submission, a PENDING case moves to IN REVIEW.`,
    trigger: 'schedule',
    conditions: [
      { field: 'status', operator: 'equals', value: 'PENDING' },
      { field: 'hoursSinceFiled', operator: 'greater_than', value: AUTO_REVIEW_AFTER_HOURS },
    ],
    actions: [{ type: 'change_status', to: 'IN REVIEW' }],
  },
  'payment-closes-settled': {
    name: 'Payment received closes settled cases',
    description: "When a settled case's payment is recorded, the case closes.",
    trigger: 'payment_received',
    conditions: [{ field: 'status', operator: 'equals', value: 'SETTLED' }],
    actions: [{ type: 'change_status', to: 'CLOSED' }],
  },
  'inactivity-reminder': {
    name: `${REMINDER_AFTER_DAYS}-day inactivity reminder`,
    description: `After ${REMINDER_AFTER_DAYS} days without updates, the assigned attorney is reminded of an active case.`,
    trigger: 'schedule',
    conditions: [
      { field: 'status', operator: 'in', value: caseStatuses.filter(isActiveStatus) },
      { field: 'assignedTo', operator: 'not_equals', value: null },
      { field: 'daysSinceUpdate', operator: 'greater_than', value: REMINDER_AFTER_DAYS },
    ],
    actions: [{ type: 'notify', userIds: [], permission: null, assignee: true }],
  },
  'critical-escalation': {
    name: 'Critical escalation',
    description: 'Every update of a Critical case notifies the legal department head.',
    trigger: 'case_updated',
    conditions: [{ field: 'priority', operator: 'equals', value: 'critical' }],
    actions: [{ type: 'notify', userIds: [], permission: 'legal:escalate', assignee: false }],
  },
  'director-approval': {
    name: 'Director approval for large settlements',
    description: `A settlement above ${DIRECTOR_APPROVAL_ABOVE.toLocaleString('en-US')} (in the case's currency) waits for a director's approval.`,
    trigger: 'status_change',
    conditions: [
      { field: 'settlementAmount', operator: 'greater_than', value: DIRECTOR_APPROVAL_ABOVE },
    ],
    actions: [{ type: 'require_approval', permission: 'legal:workflow_approve' }],
  },
};

/** Running a rule, or one status change, on a case now. */
export const executeSchema = z.object({
  caseId: z.string().trim().min(1, 'is required').max(100),
  /** A rule's id, or a status change to make (which then fires the status_change rules). */
  action: z.union([
    z.string().trim().min(1, 'is required').max(100),
    statusChangeSchema.extend({ type: z.literal('change_status') }),
  ]),
});
export type ExecuteRequest = z.infer<typeof executeSchema>;

export const ruleResults = ['applied', 'skipped', 'failed'] as const;
export type RuleResult = (typeof ruleResults)[number];

export const historyEntrySchema = z.object({
  id: z.string(),
  date: z.string(),
  /** What was done, e.g. "Change status to IN REVIEW". */
  action: z.string(),
  trigger: z.enum(historyTriggers),
  result: z.enum(ruleResults),
  /** What came of it, or why not. */
  detail: z.string(),
  /** Fired by its trigger rather than run by someone. */
  automated: z.boolean(),
  ruleId: z.string().nullable(),
  ruleName: z.string().nullable(),
  by: personSchema.nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  continuationToken: z.string().max(4000).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const historySchema = z.object({
  entries: z.array(historyEntrySchema),
  continuationToken: z.string().optional(),
});

export const executeResultSchema = z.object({
  /** One per action run, in order. */
  entries: z.array(historyEntrySchema),
  case: caseSchema,
});

/**
 * Who the legal department head is (spec 4.2 "escalate notification": every update of a Critical
 * case reaches them): everyone who may escalate cases (the default), the members of one role, or
 * one named member.
 */
export const departmentHeadRoles = ['owner', 'admin', 'staff'] as const;
export const departmentHeadSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('escalators') }),
  z.object({ type: z.literal('role'), role: z.enum(departmentHeadRoles) }),
  z.object({ type: z.literal('member'), userId: z.string().trim().min(1).max(100) }),
]);
export type DepartmentHead = z.infer<typeof departmentHeadSchema>;

export const legalSettingsInputSchema = z.object({ departmentHead: departmentHeadSchema }).strict();
export type LegalSettingsInput = z.infer<typeof legalSettingsInputSchema>;

export const legalSettingsSchema = z.object({
  departmentHead: departmentHeadSchema,
  /** Who that is today. */
  heads: z.array(personSchema),
  /**
   * The named member or role has nobody active: Critical updates go to everyone who may
   * escalate cases until the setting is changed.
   */
  fallback: z.boolean(),
  updatedAt: z.string().nullable(),
  updatedBy: personSchema.nullable(),
  etag: z.string(),
});
export type LegalSettings = z.infer<typeof legalSettingsSchema>;
