import { z } from 'zod';
import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { pathIdSchema } from '../../platform/validation.js';
import {
  executeResultSchema,
  executeSchema,
  historyQuerySchema,
  historySchema,
  legalSettingsInputSchema,
  legalSettingsSchema,
  ruleInputSchema,
  ruleSchema,
  rulesSchema,
  ruleUpdateSchema,
} from './rules.schema.js';
import {
  createRule,
  deleteRule,
  execute,
  getRule,
  history,
  listRules,
  ruleEtag,
  toRule,
  updateRule,
} from './rules.service.js';
import { legalSettings, updateLegalSettings } from './department-head.service.js';

const idParams = z.object({ id: pathIdSchema });
const caseParams = z.object({ caseId: pathIdSchema });

const answer = (record: Parameters<typeof toRule>[0], status = 200) => ({
  status,
  json: toRule(record),
  etag: ruleEtag(record),
});

/**
 * The workflow rules service (spec 7.1 "Workflows"): an account's rules, built-in and custom,
 * running them on a case, and each case's workflow history. Rules are configuration of the
 * workflow, so changing them takes the permission that moves cases through it.
 */
export const ruleFunctions: HttpFunction[] = [
  httpRoute({
    name: 'legal-rules-list',
    route: 'workflows/rules',
    methods: ['GET'],
    permission: 'legal:view',
    summary: "The account's workflow rules: the built-in ones, then the custom ones in run order",
    response: rulesSchema,
    handler: async ({ ctx }) => ({ json: { rules: await listRules(ctx) } }),
  }),
  httpRoute({
    name: 'legal-rules-create',
    route: 'workflows/rules',
    methods: ['POST'],
    permission: 'legal:workflow',
    summary: 'Adds a custom workflow rule',
    body: ruleInputSchema,
    response: ruleSchema,
    handler: async ({ ctx, body }) => answer(await createRule(ctx, body), 201),
  }),
  httpRoute({
    name: 'legal-rules-get',
    route: 'workflows/rules/{id}',
    methods: ['GET'],
    permission: 'legal:view',
    summary: 'One workflow rule, with its ETag',
    params: idParams,
    response: ruleSchema,
    handler: async ({ ctx, params }) => answer(await getRule(ctx, params.id)),
  }),
  httpRoute({
    name: 'legal-settings-get',
    route: 'workflows/settings',
    methods: ['GET'],
    permission: 'legal:view',
    summary: "The account's legal settings: who the legal department head is",
    response: legalSettingsSchema,
    handler: async ({ ctx }) => {
      const settings = await legalSettings(ctx);
      return { json: settings, etag: settings.etag };
    },
  }),
  httpRoute({
    name: 'legal-settings-update',
    route: 'workflows/settings',
    methods: ['PUT'],
    // Whom escalations reach is a director's decision, like the settlements they approve.
    permission: 'legal:workflow_approve',
    summary: 'Names the legal department head: everyone who may escalate, a role, or a member',
    body: legalSettingsInputSchema,
    response: legalSettingsSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, body, ifMatch }) => {
      const settings = await updateLegalSettings(ctx, body, ifMatch);
      return { json: settings, etag: settings.etag };
    },
  }),
  httpRoute({
    name: 'legal-rules-update',
    route: 'workflows/rules/{id}',
    methods: ['PUT'],
    permission: 'legal:workflow',
    summary: 'Changes a custom rule, or switches a built-in one on or off',
    params: idParams,
    body: ruleUpdateSchema,
    response: ruleSchema,
    concurrency: 'if-match',
    handler: async ({ ctx, params, body, ifMatch }) =>
      answer(await updateRule(ctx, params.id, ifMatch, body)),
  }),
  httpRoute({
    name: 'legal-rules-delete',
    route: 'workflows/rules/{id}',
    methods: ['DELETE'],
    permission: 'legal:workflow',
    summary: 'Deletes a custom rule (a built-in one is switched off instead)',
    params: idParams,
    concurrency: 'if-match-optional',
    handler: async ({ ctx, params, ifMatch }) => {
      await deleteRule(ctx, params.id, ifMatch);
      return { status: 204 };
    },
  }),
  httpRoute({
    name: 'legal-workflow-execute',
    route: 'workflows/execute',
    methods: ['POST'],
    permission: 'legal:workflow',
    summary: 'Runs a rule, or makes one status change, on a case now',
    body: executeSchema,
    response: executeResultSchema,
    handler: async ({ ctx, body }) => ({ json: await execute(ctx, body) }),
  }),
  httpRoute({
    name: 'legal-workflow-history',
    route: 'workflows/history/{caseId}',
    methods: ['GET'],
    permission: 'legal:view',
    summary: "A case's workflow history: what rules and runs did, newest first",
    params: caseParams,
    query: historyQuerySchema,
    response: historySchema,
    handler: async ({ ctx, params, query }) => ({
      json: await history(ctx, params.caseId, query),
    }),
  }),
];
