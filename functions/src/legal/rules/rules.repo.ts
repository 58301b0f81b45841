import { isConflict } from '../../platform/cosmos-errors.js';
import { TenantRepository, type AccountScope, type Stored } from '../../platform/repo.js';
import { legalContainer } from '../legal.repo.js';
import type { Person } from '../legal.schema.js';
import {
  builtInId,
  builtInKeys,
  type BuiltInKey,
  type DepartmentHead,
  type HistoryTrigger,
  type RuleAction,
  type RuleCondition,
  type RuleResult,
  type RuleTrigger,
} from './rules.schema.js';

/**
 * Rules and what running them did live beside the cases in the `legal` container: a run's record
 * names its case (`caseId`), so deleting a case takes its workflow history with it.
 */

interface RuleRecordBase {
  id: string;
  accountId: string;
  kind: 'rule';
  enabled: boolean;
  /** Versioned apart from the document so its ETag is stable across retried writes. */
  revision: number;
  createdAt: string;
  createdBy: Person | null;
  updatedAt: string;
  updatedBy: Person | null;
}

export interface CustomRuleRecord extends RuleRecordBase {
  builtIn: false;
  name: string;
  description: string;
  trigger: RuleTrigger;
  conditions: RuleCondition[];
  actions: RuleAction[];
  priority: number;
}

/** A built-in rule keeps only its switch: what it does is defined in code (rules.schema). */
export interface BuiltInRuleRecord extends RuleRecordBase {
  builtIn: true;
  key: BuiltInKey;
}

export type RuleRecord = CustomRuleRecord | BuiltInRuleRecord;

export interface RuleRunRecord {
  id: string;
  accountId: string;
  kind: 'ruleRun';
  caseId: string;
  at: string;
  ruleId: string | null;
  ruleName: string | null;
  trigger: HistoryTrigger;
  action: string;
  result: RuleResult;
  detail: string;
  automated: boolean;
  by: Person | null;
}

/** The account's legal settings (one document); absent until someone saves them. */
export interface LegalSettingsRecord {
  id: typeof LEGAL_SETTINGS_ID;
  accountId: string;
  kind: 'legalSettings';
  departmentHead: DepartmentHead;
  revision: number;
  updatedAt: string;
  updatedBy: Person | null;
}

export const LEGAL_SETTINGS_ID = 'legal-settings';

type RulesDocument = RuleRecord | RuleRunRecord | LegalSettingsRecord;

const rulesDocuments = new TenantRepository<RulesDocument>(legalContainer.id);

export async function findRule(scope: AccountScope, id: string) {
  const found = await rulesDocuments.find(scope, id);
  return found?.kind === 'rule' ? (found as Stored<RuleRecord>) : undefined;
}

export async function ruleRecords(scope: AccountScope) {
  return (await rulesDocuments.all(scope, { where: "c.kind = 'rule'" })) as Stored<RuleRecord>[];
}

export const customRuleCount = (scope: AccountScope) =>
  rulesDocuments.count(scope, { where: "c.kind = 'rule' AND c.builtIn = false" });

/** The account's switched-on custom rules with any of these triggers. */
export async function enabledRulesFor(scope: AccountScope, triggers: readonly RuleTrigger[]) {
  return (await rulesDocuments.all(scope, {
    where:
      "c.kind = 'rule' AND c.builtIn = false AND c.enabled = true AND ARRAY_CONTAINS(@triggers, c.trigger)",
    parameters: [{ name: '@triggers', value: [...triggers] }],
  })) as Stored<CustomRuleRecord>[];
}

export async function createRule(scope: AccountScope, record: Omit<RuleRecord, 'accountId'>) {
  return (await rulesDocuments.create(scope, record)) as Stored<RuleRecord>;
}

/**
 * Writes a built-in rule's record the first time the account's rules are read; when someone else
 * wrote it first, answers theirs.
 */
export async function createBuiltIn(
  scope: AccountScope,
  record: Omit<BuiltInRuleRecord, 'accountId'>,
) {
  try {
    return (await rulesDocuments.create(scope, record)) as Stored<BuiltInRuleRecord>;
  } catch (error) {
    if (!isConflict(error)) throw error;
    const found = await findRule(scope, record.id);
    if (!found) throw error;
    return found;
  }
}

/** Replaces a rule only if nobody changed it since `etag` was read (412 otherwise). */
export async function replaceRule(scope: AccountScope, record: RuleRecord, etag: string) {
  return (await rulesDocuments.replace(scope, record, etag)) as Stored<RuleRecord>;
}

export const deleteRule = (scope: AccountScope, id: string, etag: string) =>
  rulesDocuments.delete(scope, id, etag);

export async function recordRun(scope: AccountScope, run: Omit<RuleRunRecord, 'accountId'>) {
  return (await rulesDocuments.create(scope, run)) as Stored<RuleRunRecord>;
}

/** A page of a case's workflow history, newest first. */
export async function runsOf(
  scope: AccountScope,
  caseId: string,
  page: { pageSize: number; continuationToken?: string | undefined },
) {
  const found = await rulesDocuments.page(scope, {
    where: "c.kind = 'ruleRun' AND c.caseId = @caseId",
    parameters: [{ name: '@caseId', value: caseId }],
    orderBy: 'c.at DESC',
    pageSize: page.pageSize,
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  });
  return { ...found, items: found.items as Stored<RuleRunRecord>[] };
}

export type BuiltInSwitches = Record<BuiltInKey, boolean>;

/**
 * Which built-in rules an account has on: every one until its owner switches it off (spec 4.2,
 * "all enabled"), so an account whose rules were never read has them all.
 */
export async function builtInSwitches(scope: AccountScope): Promise<BuiltInSwitches> {
  const rows = (await rulesDocuments.all(scope, {
    select: 'c.id, c.enabled',
    where: "c.kind = 'rule' AND c.builtIn = true",
  })) as unknown as { id: string; enabled: boolean }[];
  const off = new Set(rows.filter((row) => !row.enabled).map((row) => row.id));
  return Object.fromEntries(
    builtInKeys.map((key) => [key, !off.has(builtInId(key))]),
  ) as BuiltInSwitches;
}

/** Whether one built-in rule is on in the account (one point read). */
export async function builtInEnabled(scope: AccountScope, key: BuiltInKey): Promise<boolean> {
  const found = await findRule(scope, builtInId(key));
  return found?.enabled ?? true;
}

export async function findLegalSettings(scope: AccountScope) {
  const found = await rulesDocuments.find(scope, LEGAL_SETTINGS_ID);
  return found?.kind === 'legalSettings' ? (found as Stored<LegalSettingsRecord>) : undefined;
}

/** Writes the settings: the first time only if nobody else did, later only over `etag`. */
export async function saveLegalSettings(
  scope: AccountScope,
  record: Omit<LegalSettingsRecord, 'accountId'>,
  etag: string | undefined,
) {
  return (
    etag === undefined
      ? await rulesDocuments.create(scope, record)
      : await rulesDocuments.replace(scope, { ...record, accountId: scope.accountId }, etag)
  ) as Stored<LegalSettingsRecord>;
}
