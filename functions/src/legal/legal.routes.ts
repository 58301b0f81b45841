import { z } from 'zod';
import type { FunctionTable, TimerFunction } from '../platform/functions.js';
import { contextLogger } from '../platform/invocation-log.js';
import { runCaseAutomation } from './automation.service.js';
import { ruleFunctions } from './rules/rules.routes.js';
import { runRulesFor } from './rules/rules.service.js';
import { documentFunctions } from './documents/documents.routes.js';
import { caseFiles, removeFiles } from './documents/documents.service.js';
import { httpRoute } from '../platform/http.js';
import { pathIdSchema } from '../platform/validation.js';
import {
  actionInputSchema,
  actionItemSchema,
  actionItemsSchema,
  actionUpdateSchema,
  approvalDecisionSchema,
  assigneesSchema,
  automationToggleSchema,
  caseAnalyticsSchema,
  caseInputSchema,
  caseSchema,
  caseUpdateSchema,
  listCasesQuerySchema,
  listCasesResponseSchema,
  noteInputSchema,
  nonPaymentInputSchema,
  nonPaymentPaymentInputSchema,
  noteSchema,
  notesSchema,
  settlementPaymentInputSchema,
  statusChangeSchema,
  timelineEntrySchema,
  timelineInputSchema,
  timelineSchema,
} from './legal.schema.js';
import {
  actionItems,
  addActionItem,
  addNote,
  addTimelineEntry,
  assignees,
  caseAnalytics,
  caseEtag,
  caseNotes,
  changeStatus,
  createCase,
  decideApproval,
  deleteCase,
  fileNonPaymentCase,
  getCase,
  listCases,
  recordNonPaymentPayment,
  recordSettlementPayment,
  timeline,
  toCase,
  toggleAutomation,
  updateActionItem,
  updateCase,
} from './legal.service.js';

const idParams = z.object({ id: pathIdSchema });
const actionParams = z.object({ id: pathIdSchema, actionId: pathIdSchema });

const answer = (record: Parameters<typeof toCase>[0], status = 200) => ({
  status,
  json: toCase(record),
  etag: caseEtag(record),
});

/** The case automation rules, every five minutes, over every account. */
const automationTimer: TimerFunction = {
  kind: 'timer',
  name: 'legal-automation',
  schedule: '0 */5 * * * *',
  handler: async (_timer, context) => {
    await runCaseAutomation(
      contextLogger(context, { function: 'legal-automation', invocationId: context.invocationId }),
    );
  },
};

export const legalFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'legal-cases-list',
      route: 'listLegalCases',
      methods: ['GET'],
      permission: 'legal:view',
      query: listCasesQuerySchema,
      response: listCasesResponseSchema,
      handler: async ({ ctx, query }) => ({ json: await listCases(ctx, query) }),
    }),
    httpRoute({
      name: 'legal-analytics',
      route: 'legal/analytics',
      methods: ['GET'],
      permission: 'legal:view',
      response: caseAnalyticsSchema,
      handler: async ({ ctx }) => ({ json: await caseAnalytics(ctx) }),
    }),
    httpRoute({
      name: 'legal-assignees',
      route: 'legal/assignees',
      methods: ['GET'],
      permission: 'legal:view',
      response: assigneesSchema,
      handler: async ({ ctx }) => ({ json: { assignees: await assignees(ctx) } }),
    }),
    httpRoute({
      name: 'legal-cases-create',
      route: 'cases',
      methods: ['POST'],
      permission: 'legal:create',
      body: caseInputSchema,
      response: caseSchema,
      handler: async ({ ctx, body }) => {
        const filed = await createCase(ctx, body);
        // Assigned as it is filed, a case also moves to PENDING.
        const triggers =
          filed.status === 'SUBMITTED'
            ? 'case_created'
            : (['case_created', 'status_change'] as const);
        return answer(await runRulesFor(ctx, filed.id, triggers), 201);
      },
    }),
    httpRoute({
      name: 'legal-cases-non-payment',
      route: 'cases/non-paying-bidder',
      methods: ['POST'],
      permission: 'legal:create',
      body: nonPaymentInputSchema,
      response: caseSchema,
      handler: async ({ ctx, body }) => {
        const filed = await fileNonPaymentCase(ctx, body);
        const triggers =
          filed.status === 'SUBMITTED'
            ? 'case_created'
            : (['case_created', 'status_change'] as const);
        return answer(await runRulesFor(ctx, filed.id, triggers), 201);
      },
    }),
    httpRoute({
      name: 'legal-cases-get',
      route: 'cases/{id}',
      methods: ['GET'],
      permission: 'legal:view',
      params: idParams,
      response: caseSchema,
      handler: async ({ ctx, params }) => answer(await getCase(ctx, params.id)),
    }),
    httpRoute({
      name: 'legal-cases-update',
      route: 'cases/{id}',
      methods: ['PUT'],
      permission: 'legal:edit',
      params: idParams,
      body: caseUpdateSchema,
      response: caseSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const before = await getCase(ctx, params.id);
        const saved = await updateCase(ctx, params.id, ifMatch, body);
        const triggers = [
          ...(saved.priority !== before.priority ? (['priority_change'] as const) : []),
          ...(saved.status !== before.status ? (['status_change'] as const) : []),
        ];
        return answer(triggers.length ? await runRulesFor(ctx, saved.id, triggers) : saved);
      },
    }),
    httpRoute({
      name: 'legal-cases-delete',
      route: 'cases/{id}',
      methods: ['DELETE'],
      permission: 'legal:delete',
      params: idParams,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) => {
        // The files go once their records have: nothing is ever left naming a missing file.
        const files = await caseFiles(ctx, params.id);
        await deleteCase(ctx, params.id, ifMatch);
        await removeFiles(files);
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'legal-cases-status',
      route: 'cases/{id}/status',
      methods: ['POST'],
      permission: 'legal:workflow',
      params: idParams,
      body: statusChangeSchema,
      response: caseSchema,
      handler: async ({ ctx, params, body }) => {
        const saved = await changeStatus(ctx, params.id, body);
        // A settlement waiting for approval has not moved the case yet.
        return answer(
          saved.pendingApproval ? saved : await runRulesFor(ctx, saved.id, 'status_change'),
        );
      },
    }),
    httpRoute({
      name: 'legal-cases-approval',
      route: 'cases/{id}/approval',
      methods: ['POST'],
      permission: 'legal:workflow_approve',
      params: idParams,
      body: approvalDecisionSchema,
      response: caseSchema,
      handler: async ({ ctx, params, body }) => {
        const saved = await decideApproval(ctx, params.id, body);
        return answer(
          body.decision === 'approve' ? await runRulesFor(ctx, saved.id, 'status_change') : saved,
        );
      },
    }),
    httpRoute({
      name: 'legal-cases-purchase-payment',
      route: 'cases/{id}/purchase-payment',
      methods: ['POST'],
      permission: 'legal:workflow',
      params: idParams,
      body: nonPaymentPaymentInputSchema,
      response: caseSchema,
      handler: async ({ ctx, params, body }) => {
        const saved = await recordNonPaymentPayment(ctx, params.id, body);
        // Resolving on the payment is a status change too.
        const resolved = saved.statusChangedAt === saved.nonPayment?.payment?.recordedAt;
        const triggers = resolved
          ? (['payment_received', 'status_change'] as const)
          : 'payment_received';
        return answer(await runRulesFor(ctx, saved.id, triggers));
      },
    }),
    httpRoute({
      name: 'legal-cases-settlement-payment',
      route: 'cases/{id}/settlement-payment',
      methods: ['POST'],
      permission: 'legal:workflow',
      params: idParams,
      body: settlementPaymentInputSchema,
      response: caseSchema,
      handler: async ({ ctx, params, body }) => {
        const saved = await recordSettlementPayment(ctx, params.id, body);
        // Closing on the payment is a status change too.
        const triggers =
          saved.status === 'SETTLED'
            ? 'payment_received'
            : (['payment_received', 'status_change'] as const);
        return answer(await runRulesFor(ctx, saved.id, triggers));
      },
    }),
    httpRoute({
      name: 'legal-timeline-list',
      route: 'cases/{id}/timeline',
      methods: ['GET'],
      permission: 'legal:view',
      params: idParams,
      response: timelineSchema,
      handler: async ({ ctx, params }) => ({ json: await timeline(ctx, params.id) }),
    }),
    httpRoute({
      name: 'legal-timeline-add',
      route: 'cases/{id}/timeline',
      methods: ['POST'],
      permission: 'legal:edit',
      params: idParams,
      body: timelineInputSchema,
      response: timelineEntrySchema,
      handler: async ({ ctx, params, body }) => ({
        status: 201,
        json: await addTimelineEntry(ctx, params.id, body),
      }),
    }),
    httpRoute({
      name: 'legal-notes-list',
      route: 'cases/{id}/notes',
      methods: ['GET'],
      permission: 'legal:view',
      params: idParams,
      response: notesSchema,
      handler: async ({ ctx, params }) => ({ json: await caseNotes(ctx, params.id) }),
    }),
    httpRoute({
      name: 'legal-notes-add',
      route: 'cases/{id}/notes',
      methods: ['POST'],
      permission: 'legal:edit',
      params: idParams,
      body: noteInputSchema,
      response: noteSchema,
      handler: async ({ ctx, params, body }) => ({
        status: 201,
        json: await addNote(ctx, params.id, body.text),
      }),
    }),
    httpRoute({
      name: 'legal-actions-list',
      route: 'cases/{id}/actions',
      methods: ['GET'],
      permission: 'legal:view',
      params: idParams,
      response: actionItemsSchema,
      handler: async ({ ctx, params }) => ({ json: await actionItems(ctx, params.id) }),
    }),
    httpRoute({
      name: 'legal-actions-add',
      route: 'cases/{id}/actions',
      methods: ['POST'],
      permission: 'legal:edit',
      params: idParams,
      body: actionInputSchema,
      response: actionItemSchema,
      handler: async ({ ctx, params, body }) => ({
        status: 201,
        json: await addActionItem(ctx, params.id, body),
      }),
    }),
    httpRoute({
      name: 'legal-actions-update',
      route: 'cases/{id}/actions/{actionId}',
      methods: ['PUT'],
      permission: 'legal:edit',
      params: actionParams,
      body: actionUpdateSchema,
      response: actionItemSchema,
      handler: async ({ ctx, params, body }) => ({
        json: await updateActionItem(ctx, params.id, params.actionId, body),
      }),
    }),
    httpRoute({
      name: 'legal-automation-toggle',
      route: 'workflows/automation/toggle',
      methods: ['POST'],
      permission: 'legal:workflow',
      body: automationToggleSchema,
      response: caseSchema,
      handler: async ({ ctx, body }) =>
        answer(await toggleAutomation(ctx, body.caseId, body.enabled)),
    }),
    ...documentFunctions,
    ...ruleFunctions,
    automationTimer,
  ],
};
