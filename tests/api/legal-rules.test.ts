import { beforeAll, describe, expect, it } from 'vitest';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import type { HistoryEntry, WorkflowRule } from '../../functions/src/legal/rules/rules.schema.js';
import type { NotificationView } from '../../functions/src/notifications/notifications.schema.js';
import {
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  signedInToken,
  type Owner,
} from '../support/bidders.js';
import { demo, ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The case automation runs in this process, with a clock the test sets, against the same stack.
usePlatformEnvironment();
const { runCaseAutomation } = await import('../../functions/src/legal/automation.service.js');
const { createLogger } = await import('../../functions/src/platform/logging.js');
const log = createLogger(() => undefined, 'error');

const HOUR = 3_600_000;
const later = (ms: number) => new Date(Date.now() + ms);

let account: Owner;
let other: Owner;
let me: { id: string; name: string };
let harborview: string;
let staff: string;
let viewer: string;
let lakeside: string;

beforeAll(async () => {
  [account, other, harborview, staff, viewer, lakeside] = await Promise.all([
    freshOwner(),
    freshOwner(),
    signedInToken(demo.owner),
    signedInToken(demo.staff),
    signedInToken(demo.viewer),
    signedInToken(demo.lakesideOwner),
  ]);
  const reply = await domain<{ assignees: { id: string; name: string }[] }>(
    'GET',
    '/legal/assignees',
    { token: account.token },
  );
  me = reply.body.assignees[0] as { id: string; name: string };
});

async function fileCase(token: string, overrides: Record<string, unknown> = {}) {
  const reply = await domain<LegalCase>('POST', '/cases', {
    token,
    body: {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'medium',
      title: 'Workflow case',
      jurisdiction: 'Massachusetts',
      ...overrides,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

async function moved(token: string, id: string, to: string) {
  const reply = await domain<LegalCase>('POST', `/cases/${id}/status`, {
    token,
    body: { to, reason: `To ${to}` },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const read = async (id: string, token = account.token) =>
  (await domain<LegalCase>('GET', `/cases/${id}`, { token })).body;

const rulesOf = async (token: string) => {
  const reply = await domain<{ rules: WorkflowRule[] }>('GET', '/workflows/rules', { token });
  expect(reply.status).toBe(200);
  return reply.body.rules;
};

async function addRule(token: string, body: Record<string, unknown>) {
  const reply = await domain<WorkflowRule>('POST', '/workflows/rules', { token, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

const historyOf = async (caseId: string, token = account.token) => {
  const reply = await domain<{ entries: HistoryEntry[] }>('GET', `/workflows/history/${caseId}`, {
    token,
  });
  expect(reply.status).toBe(200);
  return reply.body.entries;
};

const execute = (token: string, body: Record<string, unknown>) =>
  domain<{ entries: HistoryEntry[]; case: LegalCase }>('POST', '/workflows/execute', {
    token,
    body,
  });

describe('the built-in rules', () => {
  it('are listed in every account, enabled, with stable ids', async () => {
    const rules = await rulesOf(account.token);
    expect(rules.filter((rule) => rule.builtIn).map((rule) => rule.id)).toEqual([
      'builtin:auto-review',
      'builtin:payment-closes-settled',
      'builtin:inactivity-reminder',
      'builtin:critical-escalation',
      'builtin:director-approval',
    ]);
    expect(rules.every((rule) => rule.enabled)).toBe(true);
    const review = rules[0] as WorkflowRule;
    expect(review).toMatchObject({
      trigger: 'schedule',
      actions: [{ type: 'change_status', to: 'IN REVIEW' }],
    });
    const again = await domain<WorkflowRule>('GET', '/workflows/rules/builtin:auto-review', {
      token: account.token,
    });
    expect(again.headers.get('etag')).toContain(review.etag);
  });

  it('are switched per account, and automation obeys the switch', async () => {
    const review = (await rulesOf(account.token)).find((r) => r.id === 'builtin:auto-review');
    const off = await domain<WorkflowRule>('PUT', '/workflows/rules/builtin:auto-review', {
      token: account.token,
      body: { enabled: false },
      headers: ifMatch(review?.etag),
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.enabled).toBe(false);
    const theirs = (await rulesOf(other.token)).find((r) => r.id === 'builtin:auto-review');
    expect(theirs?.enabled).toBe(true);

    const otherMe = (
      await domain<{ assignees: { id: string }[] }>('GET', '/legal/assignees', {
        token: other.token,
      })
    ).body.assignees[0]?.id;
    const mine = await fileCase(account.token, { assignedTo: me.id });
    const others = await fileCase(other.token, { assignedTo: otherMe });
    expect([mine.status, others.status]).toEqual(['PENDING', 'PENDING']);
    await runCaseAutomation(log, later(25 * HOUR));
    expect((await read(mine.id)).status).toBe('PENDING');
    expect((await read(others.id, other.token)).status).toBe('IN REVIEW');

    const on = await domain<WorkflowRule>('PUT', '/workflows/rules/builtin:auto-review', {
      token: account.token,
      body: { enabled: true },
      headers: ifMatch(off.body.etag),
    });
    expect(on.body.enabled).toBe(true);
    await runCaseAutomation(log, later(25 * HOUR));
    expect((await read(mine.id)).status).toBe('IN REVIEW');
  });

  it('cannot be deleted or rewritten', async () => {
    const rule = (await rulesOf(account.token)).find(
      (r) => r.id === 'builtin:payment-closes-settled',
    );
    const removed = await domain('DELETE', '/workflows/rules/builtin:payment-closes-settled', {
      token: account.token,
    });
    expect(removed.status).toBe(409);
    const rewritten = await domain('PUT', '/workflows/rules/builtin:payment-closes-settled', {
      token: account.token,
      body: { trigger: 'case_created', enabled: false },
      headers: ifMatch(rule?.etag),
    });
    expect(rewritten.status).toBe(409);
    const retargeted = await domain('PUT', '/workflows/rules/builtin:payment-closes-settled', {
      token: account.token,
      body: { actions: [{ type: 'change_status', to: 'DISMISSED' }] },
      headers: ifMatch(rule?.etag),
    });
    expect(retargeted.status).toBe(409);
    expect((await rulesOf(account.token)).find((r) => r.id === rule?.id)?.enabled).toBe(true);
  });

  it('leaves director approval to those who approve settlements', async () => {
    const rule = (await rulesOf(harborview)).find((r) => r.id === 'builtin:director-approval');
    const byStaff = await domain('PUT', '/workflows/rules/builtin:director-approval', {
      token: staff,
      body: { enabled: false },
      headers: ifMatch(rule?.etag),
    });
    expect(byStaff.status).toBe(403);
    expect(messageOf(byStaff)).toContain('legal:workflow_approve');
  });
});

describe('custom rules', () => {
  const notifyRule = {
    name: 'Tell the team of new regulatory cases',
    trigger: 'case_created',
    conditions: [{ field: 'category', operator: 'equals', value: 'regulatory' }],
    actions: [{ type: 'notify', permission: 'legal:workflow' }],
  };

  it('are created, read, changed with their ETag and deleted', async () => {
    const made = await addRule(account.token, notifyRule);
    expect(made).toMatchObject({
      builtIn: false,
      enabled: true,
      priority: 100,
      description: '',
      actions: [{ type: 'notify', userIds: [], permission: 'legal:workflow', assignee: false }],
    });
    const got = await domain<WorkflowRule>('GET', `/workflows/rules/${made.id}`, {
      token: account.token,
    });
    expect(got.headers.get('etag')).toContain(made.etag);
    expect((await rulesOf(account.token)).at(-1)?.id).toBe(made.id);

    const changed = await domain<WorkflowRule>('PUT', `/workflows/rules/${made.id}`, {
      token: account.token,
      body: { name: 'Regulatory heads-up', priority: 5 },
      headers: ifMatch(made.etag),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Regulatory heads-up', priority: 5 });
    expect(changed.body.etag).not.toBe(made.etag);

    const stale = await domain('PUT', `/workflows/rules/${made.id}`, {
      token: account.token,
      body: { enabled: false },
      headers: ifMatch(made.etag),
    });
    expect(stale.status).toBe(412);
    const blind = await domain('PUT', `/workflows/rules/${made.id}`, {
      token: account.token,
      body: { enabled: false },
    });
    expect(blind.status).toBe(428);

    const removed = await domain('DELETE', `/workflows/rules/${made.id}`, {
      token: account.token,
      headers: ifMatch(changed.body.etag),
    });
    expect(removed.status).toBe(204);
    const gone = await domain('GET', `/workflows/rules/${made.id}`, { token: account.token });
    expect(gone.status).toBe(404);
  });

  it('refuse a status change their conditions make illegal, naming the field', async () => {
    for (const [body, field] of [
      [
        {
          name: 'Close pending cases',
          trigger: 'status_change',
          conditions: [{ field: 'status', operator: 'equals', value: 'PENDING' }],
          actions: [{ type: 'change_status', to: 'CLOSED' }],
        },
        'actions.0.to',
      ],
      [
        {
          name: 'Reopen closed cases',
          trigger: 'priority_change',
          conditions: [{ field: 'status', operator: 'in', value: ['RESOLVED', 'CLOSED'] }],
          actions: [
            { type: 'notify', assignee: true },
            { type: 'change_status', to: 'CLOSED' },
          ],
        },
        'actions.1.to',
      ],
      [
        {
          name: 'Settle',
          trigger: 'status_change',
          actions: [{ type: 'change_status', to: 'SETTLED' }],
        },
        'actions.0.to',
      ],
      [
        {
          name: 'Give it to a stranger',
          trigger: 'case_created',
          actions: [{ type: 'assign_to', userId: 'no-such-member' }],
        },
        'actions.0.userId',
      ],
      [
        {
          name: 'Urgent ones',
          trigger: 'case_created',
          conditions: [{ field: 'priority', operator: 'equals', value: 'urgent' }],
          actions: [{ type: 'notify', assignee: true }],
        },
        'conditions.0.value',
      ],
      [
        {
          name: 'Big claims',
          trigger: 'case_created',
          conditions: [{ field: 'claimAmount', operator: 'greater_than', value: 'lots' }],
          actions: [{ type: 'notify', assignee: true }],
        },
        'conditions.0.value',
      ],
      [
        { name: 'Nobody', trigger: 'case_created', actions: [{ type: 'notify' }] },
        'actions.0.userIds',
      ],
    ] as const) {
      const reply = await domain('POST', '/workflows/rules', { token: account.token, body });
      expect(reply.status, field).toBe(400);
      expect(fieldsOf(reply), `${field}: ${JSON.stringify(reply.body)}`).toContain(field);
    }
    const first = await domain('POST', '/workflows/rules', {
      token: account.token,
      body: {
        name: 'Close pending cases',
        trigger: 'status_change',
        conditions: [{ field: 'status', operator: 'equals', value: 'PENDING' }],
        actions: [{ type: 'change_status', to: 'CLOSED' }],
      },
    });
    expect(messageOf(first)).toMatch(/^actions\.0\.to: .*PENDING.*IN REVIEW or DISMISSED/);
  });

  it('refuse an illegal transition on a change too', async () => {
    const made = await addRule(account.token, {
      name: 'Dismiss in review',
      trigger: 'priority_change',
      conditions: [
        { field: 'status', operator: 'equals', value: 'IN REVIEW' },
        { field: 'category', operator: 'equals', value: 'other' },
      ],
      actions: [{ type: 'change_status', to: 'DISMISSED' }],
    });
    const reply = await domain('PUT', `/workflows/rules/${made.id}`, {
      token: account.token,
      body: { conditions: [{ field: 'status', operator: 'equals', value: 'PENDING' }] },
      headers: ifMatch(made.etag),
    });
    expect(reply.status).toBe(200);
    const illegal = await domain('PUT', `/workflows/rules/${made.id}`, {
      token: account.token,
      body: { actions: [{ type: 'change_status', to: 'LITIGATION' }] },
      headers: ifMatch((reply.body as WorkflowRule).etag),
    });
    expect(illegal.status).toBe(400);
    expect(fieldsOf(illegal)).toEqual(['actions.0.to']);
    await domain('DELETE', `/workflows/rules/${made.id}`, { token: account.token });
  });
});

describe('running rules', () => {
  it('executes a rule on a case now, and the history shows it', async () => {
    const rule = await addRule(account.token, {
      name: 'Litigate reviewed title disputes',
      trigger: 'priority_change',
      conditions: [
        { field: 'status', operator: 'equals', value: 'IN REVIEW' },
        { field: 'caseType', operator: 'equals', value: 'title_dispute' },
      ],
      actions: [
        { type: 'change_status', to: 'LITIGATION' },
        { type: 'assign_to', userId: me.id },
      ],
    });
    const filed = await fileCase(account.token, { caseType: 'title_dispute' });
    const early = await execute(account.token, { caseId: filed.id, action: rule.id });
    expect(early.status).toBe(200);
    expect(early.body.entries.map((entry) => entry.result)).toEqual(['skipped', 'skipped']);
    expect(early.body.case.status).toBe('SUBMITTED');

    await moved(account.token, filed.id, 'PENDING');
    await moved(account.token, filed.id, 'IN REVIEW');
    const ran = await execute(account.token, { caseId: filed.id, action: rule.id });
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    expect(ran.body.entries).toMatchObject([
      {
        action: 'Change status to LITIGATION',
        result: 'applied',
        trigger: 'manual',
        automated: false,
        ruleId: rule.id,
        ruleName: rule.name,
        by: { id: me.id },
      },
      { action: `Assign to ${me.name}`, result: 'applied' },
    ]);
    expect(ran.body.case).toMatchObject({ status: 'LITIGATION', assignedTo: { id: me.id } });

    const illegal = await execute(account.token, {
      caseId: filed.id,
      action: { type: 'change_status', to: 'PENDING', reason: 'Back to the start' },
    });
    expect(illegal.status).toBe(200);
    expect(illegal.body.entries[0]).toMatchObject({ result: 'failed', ruleId: null });
    expect(illegal.body.entries[0]?.detail).toContain('LITIGATION');

    const entries = await historyOf(filed.id);
    expect(entries.map((entry) => [entry.action, entry.result])).toEqual([
      ['Change status to PENDING', 'failed'],
      [`Assign to ${me.name}`, 'applied'],
      ['Change status to LITIGATION', 'applied'],
      [`Assign to ${me.name}`, 'skipped'],
      ['Change status to LITIGATION', 'skipped'],
    ]);
  });

  it('fires rules on their trigger, one level deep', async () => {
    const first = await addRule(account.token, {
      name: 'Mediation of regulatory cases fails at once',
      trigger: 'status_change',
      priority: 1,
      conditions: [
        { field: 'status', operator: 'equals', value: 'MEDIATION' },
        { field: 'category', operator: 'equals', value: 'regulatory' },
      ],
      actions: [
        { type: 'change_status', to: 'LITIGATION' },
        { type: 'notify', assignee: true },
      ],
    });
    // Would fire on the first rule's change, if a rule's change fired rules.
    const second = await addRule(account.token, {
      name: 'Litigated regulatory cases resolve',
      trigger: 'status_change',
      priority: 2,
      conditions: [
        { field: 'status', operator: 'equals', value: 'LITIGATION' },
        { field: 'category', operator: 'equals', value: 'regulatory' },
      ],
      actions: [{ type: 'change_status', to: 'RESOLVED' }],
    });
    const filed = await fileCase(account.token, { category: 'regulatory', assignedTo: me.id });
    await moved(account.token, filed.id, 'IN REVIEW');
    const reply = await execute(account.token, {
      caseId: filed.id,
      action: { type: 'change_status', to: 'MEDIATION', reason: 'Both sides agreed to mediate' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.case.status).toBe('LITIGATION');
    const entries = await historyOf(filed.id);
    expect(entries.map((entry) => entry.ruleId)).not.toContain(second.id);
    expect(entries.filter((entry) => entry.ruleId === first.id).at(-1)).toMatchObject({
      action: 'Change status to LITIGATION',
      result: 'applied',
      trigger: 'status_change',
      automated: true,
      by: null,
    });
    expect(entries.find((entry) => entry.action === 'Notify the assignee')?.result).toBe('applied');
    const bell = await domain<{ notifications: NotificationView[] }>('GET', '/notifications', {
      token: account.token,
    });
    expect(bell.body.notifications.map((n) => n.title)).toContain(
      `${filed.caseNumber}: ${first.name}`,
    );

    // The 24-hour rule's move is a status change too.
    const timed = await addRule(account.token, {
      name: 'Reviewed contract breaches go to mediation',
      trigger: 'status_change',
      conditions: [
        { field: 'status', operator: 'equals', value: 'IN REVIEW' },
        { field: 'caseType', operator: 'equals', value: 'contract_breach' },
      ],
      actions: [{ type: 'change_status', to: 'MEDIATION' }],
    });
    const breach = await fileCase(account.token, {
      caseType: 'contract_breach',
      assignedTo: me.id,
    });
    await runCaseAutomation(log, later(25 * HOUR));
    expect((await read(breach.id)).status).toBe('MEDIATION');
    expect((await historyOf(breach.id))[0]).toMatchObject({ ruleId: timed.id, automated: true });
  });

  it('records the rules a paused case would have run as skipped', async () => {
    await addRule(account.token, {
      name: 'Dismiss reviewed condition disputes',
      trigger: 'status_change',
      conditions: [
        { field: 'status', operator: 'equals', value: 'IN REVIEW' },
        { field: 'caseType', operator: 'equals', value: 'condition_dispute' },
      ],
      actions: [{ type: 'change_status', to: 'DISMISSED' }],
    });
    const filed = await fileCase(account.token, { caseType: 'condition_dispute' });
    await moved(account.token, filed.id, 'PENDING');
    await domain('POST', '/workflows/automation/toggle', {
      token: account.token,
      body: { caseId: filed.id, enabled: false },
    });
    const reply = await execute(account.token, {
      caseId: filed.id,
      action: { type: 'change_status', to: 'IN REVIEW', reason: 'Evidence is in' },
    });
    expect(reply.body.case.status).toBe('IN REVIEW');
    expect((await historyOf(filed.id))[0]).toMatchObject({
      result: 'skipped',
      detail: 'Automation is paused for this case',
    });
  });
});

describe('who may see and change rules', () => {
  it('lets a viewer read rules and history, but not write or run them', async () => {
    const filed = await fileCase(harborview);
    expect((await domain('GET', '/workflows/rules', { token: viewer })).status).toBe(200);
    expect((await domain('GET', `/workflows/history/${filed.id}`, { token: viewer })).status).toBe(
      200,
    );
    const created = await domain('POST', '/workflows/rules', {
      token: viewer,
      body: {
        name: 'Viewer rule',
        trigger: 'case_created',
        actions: [{ type: 'notify', assignee: true }],
      },
    });
    expect(created.status).toBe(403);
    const ran = await execute(viewer, {
      caseId: filed.id,
      action: { type: 'change_status', to: 'PENDING', reason: 'Viewer' },
    });
    expect(ran.status).toBe(403);
  });

  it("answers 404 for another account's rule and case", async () => {
    const rule = await addRule(harborview, {
      name: 'Harborview only',
      trigger: 'case_created',
      conditions: [{ field: 'caseType', operator: 'equals', value: 'other' }],
      actions: [{ type: 'notify', permission: 'legal:escalate' }],
    });
    const filed = await fileCase(harborview);
    const probes = [
      await domain('GET', `/workflows/rules/${rule.id}`, { token: lakeside }),
      await domain('PUT', `/workflows/rules/${rule.id}`, {
        token: lakeside,
        body: { enabled: false },
        headers: ifMatch(rule.etag),
      }),
      await domain('DELETE', `/workflows/rules/${rule.id}`, { token: lakeside }),
      await domain('GET', `/workflows/history/${filed.id}`, { token: lakeside }),
      await execute(lakeside, { caseId: filed.id, action: 'builtin:auto-review' }),
    ];
    expect(probes.map((probe) => probe.status)).toEqual([404, 404, 404, 404, 404]);
    const theirs = await execute(harborview, { caseId: filed.id, action: rule.id });
    expect(theirs.status).toBe(200);
    const foreign = await domain('GET', '/workflows/rules', { token: lakeside });
    expect(JSON.stringify(foreign.body)).not.toContain(rule.id);
    await domain('DELETE', `/workflows/rules/${rule.id}`, { token: harborview });
  });
});
