import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { currencyExponent } from '../../auctions/auctions.schema.js';
import { membersHolding } from '../../identity/team/team.service.js';
import { notify } from '../../notifications/notifications.service.js';
import { writeAudit } from '../../platform/audit.js';
import { asSystem, type RequestContext } from '../../platform/context.js';
import { isStale } from '../../platform/cosmos-errors.js';
import {
  AppError,
  conflict,
  forbidden,
  notFound,
  preconditionFailed,
} from '../../platform/errors.js';
import type { Stored } from '../../platform/repo.js';
import { validationError, type FieldProblem } from '../../platform/validation.js';
import type { CaseRecord } from '../legal.repo.js';
import {
  DIRECTOR_APPROVAL_ABOVE,
  caseTransitions,
  priorityWeights,
  type CasePriority,
  type CaseStatus,
  type Person,
} from '../legal.schema.js';
import {
  assignees,
  caseEtag,
  changeStatus,
  getCase,
  toCase,
  updateCase,
} from '../legal.service.js';
import {
  createBuiltIn,
  createRule as insertRule,
  customRuleCount,
  deleteRule as removeRule,
  enabledRulesFor,
  findRule,
  recordRun,
  replaceRule,
  ruleRecords,
  runsOf,
  type BuiltInRuleRecord,
  type CustomRuleRecord,
  type RuleRecord,
  type RuleRunRecord,
} from './rules.repo.js';
import {
  MAX_CUSTOM_RULES,
  builtInId,
  builtInKeys,
  builtInRules,
  type ActionView,
  type BuiltInKey,
  type ConditionView,
  type ExecuteRequest,
  type HistoryEntry,
  type HistoryQuery,
  type HistoryTrigger,
  type RuleCondition,
  type RuleInput,
  type RuleResult,
  type RuleTrigger,
  type RuleUpdate,
  type WorkflowRule,
} from './rules.schema.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Who may switch director approval off: those whose approval it asks for. */
const APPROVE = 'legal:workflow_approve';
/** Whom a rule may name to be told of a case: anyone who may see it. */
const VIEW = 'legal:view';

export const ruleEtag = (record: Pick<RuleRecord, 'id' | 'revision'>) =>
  `${record.id}-r${record.revision}`;

const personOf = (ctx: RequestContext): Person | null =>
  ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };

const stale = () =>
  preconditionFailed('Someone else changed this rule; reload it to see their changes');

export function toRule(record: RuleRecord): WorkflowRule {
  const common = {
    id: record.id,
    enabled: record.enabled,
    builtIn: record.builtIn,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    updatedBy: record.updatedBy,
    etag: ruleEtag(record),
  };
  if (record.builtIn) {
    // Built-ins act inside the legal service, ahead of any custom rule.
    return { ...common, ...builtInRules[record.key], priority: 0 };
  }
  return {
    ...common,
    name: record.name,
    description: record.description,
    trigger: record.trigger,
    conditions: record.conditions,
    actions: record.actions,
    priority: record.priority,
  };
}

const builtInKeyOf = (id: string) => builtInKeys.find((key) => builtInId(key) === id);

function builtInRecord(key: BuiltInKey): Omit<BuiltInRuleRecord, 'accountId'> {
  const now = new Date().toISOString();
  return {
    id: builtInId(key),
    kind: 'rule',
    builtIn: true,
    key,
    enabled: true,
    revision: 1,
    createdAt: now,
    createdBy: null,
    updatedAt: now,
    updatedBy: null,
  };
}

const byPriority = (a: CustomRuleRecord, b: CustomRuleRecord) =>
  a.priority - b.priority || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/**
 * The account's rules: the built-in ones first (written on the account's first read, so each
 * has an ETag to switch it by), then the custom ones in the order they run.
 */
export async function listRules(ctx: RequestContext): Promise<WorkflowRule[]> {
  const records = await ruleRecords(ctx.scope);
  const builtIns = await Promise.all(
    builtInKeys.map(
      (key) =>
        records.find((record) => record.id === builtInId(key)) ??
        createBuiltIn(ctx.scope, builtInRecord(key)),
    ),
  );
  const custom = records
    .filter((record): record is Stored<CustomRuleRecord> => !record.builtIn)
    .sort(byPriority);
  return [...builtIns, ...custom].map(toRule);
}

export async function getRule(ctx: RequestContext, id: string): Promise<Stored<RuleRecord>> {
  const found = await findRule(ctx.scope, id);
  if (found) return found;
  const key = builtInKeyOf(id);
  if (key) return createBuiltIn(ctx.scope, builtInRecord(key));
  throw notFound('Rule not found');
}

/** The statuses a rule's conditions leave a case in, or null when they do not name one. */
function pinnedStatuses(conditions: readonly RuleCondition[]): CaseStatus[] | null {
  let pinned: CaseStatus[] | null = null;
  const excluded = new Set<string>();
  for (const condition of conditions) {
    if (condition.field !== 'status') continue;
    if (condition.operator === 'not_equals' && typeof condition.value === 'string') {
      excluded.add(condition.value);
      continue;
    }
    const named: CaseStatus[] = Array.isArray(condition.value)
      ? condition.value
      : [condition.value];
    pinned = pinned === null ? named : pinned.filter((status) => named.includes(status));
  }
  return pinned === null ? null : pinned.filter((status) => !excluded.has(status));
}

function unreachable(from: CaseStatus[], to: CaseStatus): string | null {
  const refused = from.filter((status) => !caseTransitions[status].some((move) => move.to === to));
  if (refused.length === 0) return null;
  if (refused.length > 1) return `is not a move a ${refused.join(' or ')} case can make`;
  const status = refused[0] as CaseStatus;
  const allowed = caseTransitions[status].map((move) => move.to);
  return allowed.length
    ? `is not a move a ${status} case can make: it can move to ${allowed.join(' or ')}`
    : `is not a move a ${status} case can make: it is final`;
}

type RuleDefinition = Pick<CustomRuleRecord, 'conditions' | 'actions'>;

/**
 * What makes a rule impossible, as 400s naming the field: a status change its conditions rule
 * out, more than one status change, and members it cannot name.
 */
async function checkRule(ctx: RequestContext, rule: RuleDefinition) {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string) =>
    problems.push({ location: 'body', field, message });
  const pinned = pinnedStatuses(rule.conditions);
  if (pinned?.length === 0) problem('conditions', 'no status meets every status condition');
  let moves = 0;
  rule.actions.forEach((action, index) => {
    if (action.type !== 'change_status') return;
    moves += 1;
    if (moves > 1) problem(`actions.${index}`, 'is a second status change; a rule makes one');
    const refused = pinned?.length ? unreachable(pinned, action.to) : null;
    if (refused) problem(`actions.${index}.to`, refused);
  });
  const needsWorkers =
    rule.actions.some((action) => action.type === 'assign_to') ||
    rule.conditions.some((condition) => condition.field === 'assignedTo');
  const needsViewers = rule.actions.some(
    (action) => action.type === 'notify' && action.userIds.length > 0,
  );
  const [workers, viewers] = await Promise.all([
    needsWorkers ? assignees(ctx) : [],
    needsViewers ? membersHolding(ctx.scope, VIEW) : [],
  ]);
  const isAmong = (id: string, among: { id: string }[]) => among.some((m) => m.id === id);
  rule.actions.forEach((action, index) => {
    if (action.type === 'assign_to' && !isAmong(action.userId, workers)) {
      problem(`actions.${index}.userId`, 'is not a member who can work on legal cases');
    }
    if (action.type === 'notify') {
      action.userIds.forEach((userId, at) => {
        if (!isAmong(userId, viewers)) {
          problem(`actions.${index}.userIds.${at}`, 'is not a member who can see legal cases');
        }
      });
    }
  });
  rule.conditions.forEach((condition, index) => {
    if (condition.field !== 'assignedTo' || condition.value === null) return;
    const ids = Array.isArray(condition.value) ? condition.value : [condition.value];
    ids.forEach((id, at) => {
      if (!isAmong(id, workers)) {
        const field = Array.isArray(condition.value)
          ? `conditions.${index}.value.${at}`
          : `conditions.${index}.value`;
        problem(field, 'is not a member who can work on legal cases');
      }
    });
  });
  if (problems.length > 0) throw validationError(problems);
}

export async function createRule(ctx: RequestContext, input: RuleInput) {
  if ((await customRuleCount(ctx.scope)) >= MAX_CUSTOM_RULES) {
    throw conflict(`An account keeps at most ${MAX_CUSTOM_RULES} workflow rules; delete one first`);
  }
  await checkRule(ctx, input);
  const now = new Date().toISOString();
  const by = personOf(ctx);
  const saved = await insertRule(ctx.scope, {
    id: randomUUID(),
    kind: 'rule',
    builtIn: false,
    ...input,
    revision: 1,
    createdAt: now,
    createdBy: by,
    updatedAt: now,
    updatedBy: by,
  });
  await writeAudit(ctx, {
    action: 'legal_rule.create',
    entity: { type: 'legal_rule', id: saved.id },
    after: saved,
  });
  return saved;
}

/** A built-in rule is switched, never rewritten: any other field must say what it already does. */
function builtInChange(ctx: RequestContext, current: BuiltInRuleRecord, update: RuleUpdate) {
  const shown = toRule(current) as unknown as Record<string, unknown>;
  const rewritten = Object.entries(update)
    .filter(([key]) => key !== 'enabled')
    .filter(([key, value]) => !isDeepStrictEqual(value, shown[key]))
    .map(([key]) => key);
  if (rewritten.length > 0) {
    throw conflict('A built-in rule can only be switched on or off', { fields: rewritten });
  }
  const enabled = update.enabled ?? current.enabled;
  if (current.key === 'director-approval' && enabled !== current.enabled && !ctx.can(APPROVE)) {
    throw forbidden(`You need the ${APPROVE} permission to switch director approval`, {
      permission: APPROVE,
    });
  }
  return { enabled };
}

export async function updateRule(
  ctx: RequestContext,
  id: string,
  ifMatch: string,
  update: RuleUpdate,
) {
  const current = await getRule(ctx, id);
  if (ifMatch !== ruleEtag(current)) throw stale();
  const { _etag, _ts, ...stored } = current;
  let next: RuleRecord;
  if (stored.builtIn) {
    next = { ...stored, ...builtInChange(ctx, stored, update) };
  } else {
    next = { ...stored, ...update };
    const redefined = 'conditions' in update || 'actions' in update;
    if (redefined) await checkRule(ctx, next);
  }
  next.revision = current.revision + 1;
  next.updatedAt = new Date().toISOString();
  next.updatedBy = personOf(ctx);
  let saved: Stored<RuleRecord>;
  try {
    saved = await replaceRule(ctx.scope, next, _etag);
  } catch (error) {
    if (isStale(error)) throw stale();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'legal_rule.update',
    entity: { type: 'legal_rule', id },
    before: stored,
    after: saved,
  });
  return saved;
}

/** Deletes a custom rule; its runs stay in the cases' history under its name. */
export async function deleteRule(ctx: RequestContext, id: string, ifMatch: string | undefined) {
  const current = await getRule(ctx, id);
  if (current.builtIn) {
    throw conflict('A built-in rule cannot be deleted; switch it off instead');
  }
  if (ifMatch !== undefined && ifMatch !== ruleEtag(current)) throw stale();
  try {
    await removeRule(ctx.scope, id, current._etag);
  } catch (error) {
    if (isStale(error)) throw stale();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'legal_rule.delete',
    entity: { type: 'legal_rule', id },
    before: current,
  });
}

/** A field of the case as conditions compare it: amounts in major units, ages in hours or days. */
function fieldValue(
  field: ConditionView['field'],
  record: CaseRecord,
  now: number,
): string | number | null {
  const major = (amount: number) => amount / 10 ** currencyExponent[record.currency];
  switch (field) {
    case 'status':
    case 'priority':
    case 'caseType':
    case 'category':
      return record[field];
    case 'claimAmount':
      return major(record.claimAmount);
    case 'assignedTo':
      return record.assignedTo?.id ?? null;
    case 'hoursSinceFiled':
      return (now - Date.parse(record.createdAt)) / HOUR_MS;
    case 'daysSinceUpdate':
      return (now - Date.parse(record.updatedAt)) / DAY_MS;
    case 'settlementAmount':
      return record.settlementAmount === null ? null : major(record.settlementAmount);
  }
}

/** Priorities compare by weight (Low < Critical); everything else as it is. */
const ranked = (field: ConditionView['field'], value: string | number | null) =>
  field === 'priority' && typeof value === 'string'
    ? (priorityWeights[value as CasePriority] ?? null)
    : value;

function holds(condition: ConditionView, record: CaseRecord, now: number): boolean {
  const actual = fieldValue(condition.field, record, now);
  const { value } = condition;
  switch (condition.operator) {
    case 'equals':
      return actual === value;
    case 'not_equals':
      return actual !== value;
    case 'in':
      return Array.isArray(value) && typeof actual === 'string' && value.includes(actual);
    case 'greater_than':
    case 'less_than': {
      const left = ranked(condition.field, actual);
      const right = ranked(condition.field, Array.isArray(value) ? null : value);
      if (typeof left !== 'number' || typeof right !== 'number') return false;
      return condition.operator === 'greater_than' ? left > right : left < right;
    }
  }
}

const describeCondition = (condition: ConditionView) =>
  `${condition.field} ${condition.operator.replace('_', ' ')} ${
    Array.isArray(condition.value) ? condition.value.join(', ') : String(condition.value)
  }`;

function notifyLabel(action: Extract<ActionView, { type: 'notify' }>) {
  const whom = [
    ...(action.assignee ? ['the assignee'] : []),
    ...(action.permission ? [`holders of ${action.permission}`] : []),
    ...(action.userIds.length
      ? [`${action.userIds.length} ${action.userIds.length === 1 ? 'member' : 'members'}`]
      : []),
  ];
  return `Notify ${whom.join(' and ')}`;
}

/** What a history entry calls an action. */
async function labelOf(ctx: RequestContext, action: ActionView) {
  switch (action.type) {
    case 'change_status':
      return `Change status to ${action.to}`;
    case 'assign_to': {
      const member = (await assignees(ctx)).find((candidate) => candidate.id === action.userId);
      return `Assign to ${member?.name ?? 'a former member'}`;
    }
    case 'notify':
      return notifyLabel(action);
    case 'require_approval':
      return 'Require director approval';
  }
}

interface Outcome {
  result: RuleResult;
  detail: string;
}
const applied = (detail: string): Outcome => ({ result: 'applied', detail });
const skipped = (detail: string): Outcome => ({ result: 'skipped', detail });
const failed = (detail: string): Outcome => ({ result: 'failed', detail });

/** What a run has done so far: once a rule moved the case, later moves in the run stand down. */
interface RunState {
  moved: boolean;
}

/** The legal service refuses a change with an AppError; the run records it as failed. */
async function attempt(work: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) return failed(error.message);
    throw error;
  }
}

async function moveCase(
  ctx: RequestContext,
  caseId: string,
  change: { to: CaseStatus; reason: string; settlementAmount?: number | undefined },
  state: RunState,
): Promise<Outcome> {
  if (state.moved) return skipped('An earlier rule already changed the status in this run');
  const current = await getCase(ctx, caseId);
  if (current.status === change.to && !current.pendingApproval) {
    return skipped(`The case is already ${change.to}`);
  }
  return attempt(async () => {
    const saved = await changeStatus(ctx, caseId, {
      to: change.to,
      reason: change.reason,
      ...(change.settlementAmount === undefined
        ? {}
        : { settlementAmount: change.settlementAmount }),
    });
    if (saved.pendingApproval) return applied("The settlement waits for a director's approval");
    state.moved = true;
    return applied(`Moved from ${current.status} to ${saved.status}`);
  });
}

/** Assigns through the case's own update, re-reading it if someone changed it meanwhile. */
async function assignCase(ctx: RequestContext, caseId: string, userId: string): Promise<Outcome> {
  const member = (await assignees(ctx)).find((candidate) => candidate.id === userId);
  if (!member) return failed('The member named can no longer work on legal cases');
  for (let attempts = 0; ; attempts += 1) {
    const current = await getCase(ctx, caseId);
    if (current.assignedTo?.id === userId) return skipped(`Already assigned to ${member.name}`);
    try {
      await updateCase(ctx, caseId, caseEtag(current), { assignedTo: userId });
      return applied(`Assigned to ${member.name}`);
    } catch (error) {
      const lostRace = error instanceof AppError && error.code === 'precondition_failed';
      if (lostRace && attempts < 3) continue;
      if (error instanceof AppError) return failed(error.message);
      throw error;
    }
  }
}

async function tell(
  ctx: RequestContext,
  caseId: string,
  action: Extract<ActionView, { type: 'notify' }>,
  ruleName: string,
): Promise<Outcome> {
  const current = await getCase(ctx, caseId);
  const viewers = action.userIds.length ? await membersHolding(ctx.scope, VIEW) : [];
  const holders = action.permission ? await membersHolding(ctx.scope, action.permission) : [];
  const recipients = new Set([
    ...action.userIds.filter((userId) => viewers.some((member) => member.id === userId)),
    ...holders.map((member) => member.id),
    ...(action.assignee && current.assignedTo ? [current.assignedTo.id] : []),
  ]);
  if (recipients.size === 0) return skipped('Nobody to notify');
  await notify(ctx, [...recipients], {
    kind: 'legal.rule',
    title: `${current.caseNumber}: ${ruleName}`,
    body: current.title,
    link: `/legal/cases/${caseId}/workflow`,
  });
  return applied(`Notified ${recipients.size} ${recipients.size === 1 ? 'person' : 'people'}`);
}

async function perform(
  ctx: RequestContext,
  caseId: string,
  action: ActionView,
  ruleName: string,
  state: RunState,
): Promise<Outcome> {
  switch (action.type) {
    case 'change_status':
      return moveCase(ctx, caseId, { to: action.to, reason: `Workflow rule: ${ruleName}` }, state);
    case 'assign_to':
      return assignCase(ctx, caseId, action.userId);
    case 'notify':
      return tell(ctx, caseId, action, ruleName);
    case 'require_approval':
      return skipped(
        `Applies by itself whenever a settlement above ${DIRECTOR_APPROVAL_ABOVE.toLocaleString('en-US')} is proposed`,
      );
  }
}

const toEntry = (record: RuleRunRecord): HistoryEntry => ({
  id: record.id,
  date: record.at,
  action: record.action,
  trigger: record.trigger,
  result: record.result,
  detail: record.detail,
  automated: record.automated,
  ruleId: record.ruleId,
  ruleName: record.ruleName,
  by: record.by,
});

/**
 * When a run's record is written: strictly later than the last one this process wrote, so the
 * actions of one run keep their order in the history (newest first) within a millisecond.
 */
let lastStamp = 0;
function stamp() {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

interface RunSource {
  rule: { id: string; name: string } | null;
  trigger: HistoryTrigger;
  automated: boolean;
  by: Person | null;
}

async function record(
  ctx: RequestContext,
  caseId: string,
  source: RunSource,
  action: string,
  outcome: Outcome,
): Promise<HistoryEntry> {
  const saved = await recordRun(ctx.scope, {
    id: randomUUID(),
    kind: 'ruleRun',
    caseId,
    at: stamp(),
    ruleId: source.rule?.id ?? null,
    ruleName: source.rule?.name ?? null,
    trigger: source.trigger,
    action,
    result: outcome.result,
    detail: outcome.detail,
    automated: source.automated,
    by: source.by,
  });
  return toEntry(saved);
}

/**
 * Fires the account's switched-on custom rules with this trigger (or these, when one event is
 * several: a payment that closes the case) on a case, and answers the case as they left it. Call
 * it once per event, after it and outside the legal service's own writes: conditions are judged
 * on the case as the event left it, actions run in priority order (lowest first), and the changes
 * rules make fire no rules (one level deep, so rules cannot loop). A case whose automation is
 * paused records the rules it would have run as skipped.
 */
export async function runRulesFor(
  ctx: RequestContext,
  caseId: string,
  triggers: RuleTrigger | readonly RuleTrigger[],
): Promise<Stored<CaseRecord>> {
  const [rules, snapshot] = await Promise.all([
    enabledRulesFor(ctx.scope, typeof triggers === 'string' ? [triggers] : triggers),
    getCase(ctx, caseId),
  ]);
  const now = Date.now();
  const matching = rules
    .sort(byPriority)
    .filter((rule) => rule.conditions.every((condition) => holds(condition, snapshot, now)));
  if (matching.length === 0) return snapshot;
  // What rules do is Lotwise's doing: the timeline shows it as automated.
  const system = asSystem(ctx);
  const state: RunState = { moved: false };
  for (const rule of matching) {
    const source: RunSource = { rule, trigger: rule.trigger, automated: true, by: null };
    for (const action of rule.actions) {
      const outcome = snapshot.automationPaused
        ? skipped('Automation is paused for this case')
        : await perform(system, caseId, action, rule.name, state);
      await record(ctx, caseId, source, await labelOf(ctx, action), outcome);
    }
  }
  return getCase(ctx, caseId);
}

/**
 * Runs a rule on a case now, by hand: its conditions must hold, but whether it is switched on and
 * the case's automation pause do not matter. Or makes one status change, which then fires the
 * status_change rules. Every action run is recorded, refused ones as failed.
 */
export async function execute(ctx: RequestContext, request: ExecuteRequest) {
  const current = await getCase(ctx, request.caseId);
  const by = personOf(ctx);
  const entries: HistoryEntry[] = [];
  if (typeof request.action === 'string') {
    const rule = toRule(await getRule(ctx, request.action));
    const source: RunSource = { rule, trigger: 'manual', automated: false, by };
    const unmet = rule.conditions.find((condition) => !holds(condition, current, Date.now()));
    const state: RunState = { moved: false };
    for (const action of rule.actions) {
      const outcome = unmet
        ? skipped(`Its condition "${describeCondition(unmet)}" does not hold`)
        : await perform(ctx, current.id, action, rule.name, state);
      entries.push(await record(ctx, current.id, source, await labelOf(ctx, action), outcome));
    }
  } else {
    const { to, reason, settlementAmount } = request.action;
    const state: RunState = { moved: false };
    const outcome = await moveCase(ctx, current.id, { to, reason, settlementAmount }, state);
    const source: RunSource = { rule: null, trigger: 'manual', automated: false, by };
    entries.push(await record(ctx, current.id, source, `Change status to ${to}`, outcome));
    if (state.moved) {
      return { entries, case: toCase(await runRulesFor(ctx, current.id, 'status_change')) };
    }
  }
  return { entries, case: toCase(await getCase(ctx, current.id)) };
}

export async function history(ctx: RequestContext, caseId: string, query: HistoryQuery) {
  await getCase(ctx, caseId);
  const page = await runsOf(ctx.scope, caseId, {
    pageSize: query.limit,
    continuationToken: query.continuationToken,
  });
  return {
    entries: page.items.map(toEntry),
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  };
}
