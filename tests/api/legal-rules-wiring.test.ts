import { beforeAll, describe, expect, it } from 'vitest';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import type { HistoryEntry, WorkflowRule } from '../../functions/src/legal/rules/rules.schema.js';
import type { NotificationView } from '../../functions/src/notifications/notifications.schema.js';
import { domain, freshOwner, signedInToken, type Owner } from '../support/bidders.js';
import { demo, ifMatch } from '../support/identity.js';

let account: Owner;
let me: { id: string; name: string };

beforeAll(async () => {
  account = await freshOwner();
  me = (
    await domain<{ assignees: { id: string; name: string }[] }>('GET', '/legal/assignees', {
      token: account.token,
    })
  ).body.assignees[0] as { id: string; name: string };
});

const fileCase = async (token: string, overrides: Record<string, unknown> = {}) => {
  const reply = await domain<LegalCase>('POST', '/cases', {
    token,
    body: {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'medium',
      title: 'Wiring case',
      jurisdiction: 'Massachusetts',
      ...overrides,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};
const move = async (token: string, id: string, to: string, extra: Record<string, unknown> = {}) => {
  const reply = await domain<LegalCase>('POST', `/cases/${id}/status`, {
    token,
    body: { to, reason: `To ${to}`, ...extra },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const switchOff = async (token: string, key: string) => {
  const rule = (
    await domain<{ rules: WorkflowRule[] }>('GET', '/workflows/rules', { token })
  ).body.rules.find((r) => r.id === `builtin:${key}`);
  const reply = await domain('PUT', `/workflows/rules/builtin:${key}`, {
    token,
    body: { enabled: false },
    headers: ifMatch(rule?.etag),
  });
  expect(reply.status).toBe(200);
};

describe('wiring', () => {
  it('fires case_created and status_change rules from the case routes', async () => {
    await domain('POST', '/workflows/rules', {
      token: account.token,
      body: {
        name: 'Regulatory cases go to the owner',
        trigger: 'case_created',
        conditions: [{ field: 'category', operator: 'equals', value: 'regulatory' }],
        actions: [{ type: 'assign_to', userId: me.id }],
      },
    });
    await domain('POST', '/workflows/rules', {
      token: account.token,
      body: {
        name: 'Pending regulatory cases are reviewed at once',
        trigger: 'status_change',
        conditions: [
          { field: 'status', operator: 'equals', value: 'PENDING' },
          { field: 'category', operator: 'equals', value: 'regulatory' },
        ],
        actions: [{ type: 'change_status', to: 'IN REVIEW' }],
      },
    });
    const filed = await fileCase(account.token, { category: 'regulatory' });
    // case_created assigns (which moves it to PENDING); that change fires no more rules.
    expect(filed).toMatchObject({ status: 'PENDING', assignedTo: { id: me.id } });
    const other = await fileCase(account.token, { category: 'regulatory' });
    const edited = await domain<LegalCase>('PUT', `/cases/${other.id}`, {
      token: account.token,
      body: { priority: 'high' },
      headers: ifMatch(other.etag),
    });
    expect(edited.status).toBe(200);
    const third = await fileCase(account.token, { category: 'regulatory', assignedTo: null });
    expect(third.status).toBe('PENDING');
    const plain = await fileCase(account.token);
    const moved = await move(account.token, plain.id, 'PENDING');
    expect(moved.status).toBe('PENDING');
    const reg = await fileCase(account.token, { category: 'regulatory', assignedTo: me.id });
    // Filed assigned: case_created and status_change in one run; the status rule moves it.
    expect(reg.status).toBe('IN REVIEW');
    const history = (
      await domain<{ entries: HistoryEntry[] }>('GET', `/workflows/history/${reg.id}`, {
        token: account.token,
      })
    ).body.entries;
    expect(history.map((e) => [e.action, e.result, e.trigger])).toEqual([
      ['Change status to IN REVIEW', 'applied', 'status_change'],
      [`Assign to ${me.name}`, 'skipped', 'case_created'],
    ]);
  });

  it('obeys the payment-closes-settled switch', async () => {
    const owner = await freshOwner();
    await switchOff(owner.token, 'payment-closes-settled');
    const filed = await fileCase(owner.token);
    for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await move(owner.token, filed.id, to);
    await move(owner.token, filed.id, 'SETTLED', { settlementAmount: 100_000 });
    const paid = await domain<LegalCase>('POST', `/cases/${filed.id}/settlement-payment`, {
      token: owner.token,
      body: { amount: 100_000, receivedOn: '2026-11-20', reference: 'x' },
    });
    expect(paid.body.status).toBe('SETTLED');
  });

  it('obeys the director-approval switch', async () => {
    const owner = await freshOwner();
    const filed = await fileCase(owner.token);
    for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await move(owner.token, filed.id, to);
    const waiting = await move(owner.token, filed.id, 'SETTLED', { settlementAmount: 6_000_000 });
    expect(waiting.pendingApproval).not.toBeNull();
    await switchOff(owner.token, 'director-approval');
    const second = await fileCase(owner.token);
    for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await move(owner.token, second.id, to);
    const settled = await move(owner.token, second.id, 'SETTLED', { settlementAmount: 6_000_000 });
    expect(settled.status).toBe('SETTLED');
  });

  it('obeys the critical-escalation switch', async () => {
    const owner = await signedInToken(demo.owner);
    const filed = await fileCase(owner, { priority: 'critical', title: 'Switch critical' });
    expect(filed.status).toBe('SUBMITTED');
    await switchOff(owner, 'critical-escalation');
    const second = await fileCase(owner, { priority: 'critical', title: 'Switched critical' });
    const { login, call, DEMO_PASSWORD } = await import('../support/identity.js');
    const reply = await login(demo.admin, DEMO_PASSWORD);
    const hv = reply.body.accounts.find((a) => a.accountName === 'Harborview Auctions');
    const chosen = await call<{ accessToken: string }>('POST', '/tokens/access', {
      token: reply.body.sessionToken,
      body: { userId: reply.body.user.id, accountId: hv?.accountId },
    });
    const bell = await domain<{ notifications: NotificationView[] }>('GET', '/notifications', {
      token: chosen.body.accessToken,
    });
    const titles = bell.body.notifications.map((n) => n.title);
    expect(titles.some((t) => t.includes(filed.caseNumber))).toBe(true);
    expect(titles.some((t) => t.includes(second.caseNumber))).toBe(false);
  });
});
