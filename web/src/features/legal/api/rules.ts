import {
  legalSettingsSchema,
  ruleSchema,
  rulesSchema,
  type DepartmentHead,
  type LegalSettings,
  type LegalSettingsInput,
  type RuleInput,
  type RuleUpdate,
  type WorkflowRule,
  type ruleInputSchema,
} from '@contracts/legal/rules/rules.schema';
import useSWR, { useSWRConfig } from 'swr';
import type { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

/** A new rule as the form sends it: the service fills in what is left out. */
export type RuleBody = z.input<typeof ruleInputSchema>;
export type { DepartmentHead, LegalSettings, RuleInput, RuleUpdate };

type Rules = z.infer<typeof rulesSchema>;

// The same key the case Workflow tab reads the rules by, so a change here shows there too.
const rulesKey = domainApi('/workflows/rules');
const ruleKey = (id: string) => `${rulesKey}/${encodeURIComponent(id)}`;
const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

/** The account's workflow rules: the built-in ones first, then its own in the order they run. */
export const useRules = () => useSWR(rulesKey, fetchWith(rulesSchema));

/** One rule as the server holds it now, with its current ETag. */
export const fetchRule = (id: string) => apiRequest(ruleKey(id), { schema: ruleSchema });

/** Adding, changing, switching and deleting rules; each keeps the list in step. */
export function useRuleActions() {
  const { mutate } = useSWRConfig();
  const refresh = () => mutate(rulesKey);
  /** The list with one rule replaced by the server's answer (its new ETag), without a refetch. */
  const replace = (saved: WorkflowRule) =>
    mutate(
      rulesKey,
      (current: Rules | undefined) =>
        current && {
          rules: current.rules.map((rule) => (rule.id === saved.id ? saved : rule)),
        },
      { revalidate: false },
    );

  return {
    refresh,
    create: async (body: RuleBody) => {
      const created = await apiRequest(rulesKey, { method: 'POST', body, schema: ruleSchema });
      // The server orders custom rules by priority: take its list rather than guess the place.
      await refresh();
      return created;
    },
    /** Changes a rule made against the version the form was opened on (412 when stale). */
    update: async (rule: Pick<WorkflowRule, 'id' | 'etag'>, changes: RuleUpdate) => {
      const saved = await apiRequest(ruleKey(rule.id), {
        method: 'PUT',
        body: changes,
        headers: ifMatch(rule.etag),
        schema: ruleSchema,
      });
      await refresh();
      return saved;
    },
    /** Switches a rule on or off, showing the switch moved at once and back if it fails. */
    setEnabled: async (rule: WorkflowRule, enabled: boolean) => {
      let saved: WorkflowRule | undefined;
      await mutate(
        rulesKey,
        async (current: Rules | undefined) => {
          saved = await apiRequest(ruleKey(rule.id), {
            method: 'PUT',
            body: { enabled },
            headers: ifMatch(rule.etag),
            schema: ruleSchema,
          });
          const done = saved;
          return current && { rules: current.rules.map((r) => (r.id === done.id ? done : r)) };
        },
        {
          optimisticData: (current: Rules | undefined): Rules => ({
            rules: (current?.rules ?? []).map((r) => (r.id === rule.id ? { ...r, enabled } : r)),
          }),
          rollbackOnError: true,
          revalidate: false,
        },
      );
      return saved as WorkflowRule;
    },
    remove: async (rule: Pick<WorkflowRule, 'id' | 'etag'>) => {
      await apiRequest(ruleKey(rule.id), { method: 'DELETE', headers: ifMatch(rule.etag) });
      await mutate(
        rulesKey,
        (current: Rules | undefined) =>
          current && { rules: current.rules.filter((candidate) => candidate.id !== rule.id) },
        { revalidate: true },
      );
    },
    replace,
  };
}

const settingsKey = domainApi('/workflows/settings');

/** The account's legal settings: who the legal department head is, and who that is today. */
export const useLegalSettings = () => useSWR(settingsKey, fetchWith(legalSettingsSchema));

/** Naming the legal department head, and reading the settings afresh after a refusal. */
export function useLegalSettingsActions() {
  const { mutate } = useSWRConfig();
  return {
    refresh: () => mutate(settingsKey),
    /** Names the head against the version the choice was made on (412 when stale). */
    save: async (base: Pick<LegalSettings, 'etag'>, departmentHead: DepartmentHead) => {
      const body: LegalSettingsInput = { departmentHead };
      const saved = await apiRequest(settingsKey, {
        method: 'PUT',
        body,
        headers: ifMatch(base.etag),
        schema: legalSettingsSchema,
      });
      await mutate(settingsKey, saved, { revalidate: false });
      return saved;
    },
  };
}
