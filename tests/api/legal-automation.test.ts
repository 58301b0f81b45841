import { beforeAll, describe, expect, it } from 'vitest';
import type { LegalCase, TimelineEntry } from '../../functions/src/legal/legal.schema.js';
import type { NotificationView } from '../../functions/src/notifications/notifications.schema.js';
import type { TimerFunction } from '../../functions/src/platform/functions.js';
import { domain, freshOwner, signedInToken, type Owner } from '../support/bidders.js';
import { demo, ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// The automation runs in this process, with a clock the test sets, against the same local stack.
usePlatformEnvironment();
const { runCaseAutomation } = await import('../../functions/src/legal/automation.service.js');
const { createLogger } = await import('../../functions/src/platform/logging.js');
const log = createLogger(() => undefined, 'error');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const later = (ms: number) => new Date(Date.now() + ms);

let account: Owner;
let me: { id: string; name: string };

beforeAll(async () => {
  account = await freshOwner();
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
      title: 'Automation case',
      jurisdiction: 'Massachusetts',
      ...overrides,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

const read = async (id: string, token = account.token) =>
  (await domain<LegalCase>('GET', `/cases/${id}`, { token })).body;

const timelineOf = async (id: string) =>
  (
    await domain<{ entries: TimelineEntry[] }>('GET', `/cases/${id}/timeline`, {
      token: account.token,
    })
  ).body.entries;

async function moved(id: string, to: string, extra: Record<string, unknown> = {}) {
  const reply = await domain<LegalCase>('POST', `/cases/${id}/status`, {
    token: account.token,
    body: { to, reason: `To ${to}`, ...extra },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

describe('the case automation rules', () => {
  it('is a timer of the domain app', async () => {
    const { functionsFor } = await import('../../functions/src/registry.js');
    const timer = functionsFor('domain').find(
      (fn): fn is TimerFunction => fn.kind === 'timer' && fn.name === 'legal-automation',
    );
    expect(timer?.schedule).toBe('0 */5 * * * *');
  });

  it('moves PENDING to IN REVIEW 24 hours after submission, once however often it runs', async () => {
    const filed = await fileCase(account.token, { assignedTo: me.id });
    expect(filed.status).toBe('PENDING');
    await runCaseAutomation(log, later(23 * HOUR));
    expect((await read(filed.id)).status).toBe('PENDING');
    await Promise.all([
      runCaseAutomation(log, later(25 * HOUR)),
      runCaseAutomation(log, later(25 * HOUR)),
    ]);
    expect((await read(filed.id)).status).toBe('IN REVIEW');
    const entries = (await timelineOf(filed.id)).filter((entry) => entry.toStatus === 'IN REVIEW');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ automated: true, by: null });
  });

  it('leaves a paused case alone', async () => {
    const filed = await fileCase(account.token, { assignedTo: me.id });
    await domain('POST', '/workflows/automation/toggle', {
      token: account.token,
      body: { caseId: filed.id, enabled: false },
    });
    await runCaseAutomation(log, later(25 * HOUR));
    expect((await read(filed.id)).status).toBe('PENDING');
  });

  it('closes a DISMISSED case after 30 days', async () => {
    const filed = await fileCase(account.token);
    await moved(filed.id, 'DISMISSED');
    await runCaseAutomation(log, later(29 * DAY));
    expect((await read(filed.id)).status).toBe('DISMISSED');
    await runCaseAutomation(log, later(30 * DAY + HOUR));
    expect((await read(filed.id)).status).toBe('CLOSED');
  });

  it('closes a SETTLED case when its payment is recorded, or when automation resumes', async () => {
    const settle = async () => {
      const filed = await fileCase(account.token);
      for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await moved(filed.id, to);
      return moved(filed.id, 'SETTLED', { settlementAmount: 250_000 });
    };
    const payment = { amount: 250_000, receivedOn: '2026-11-20', reference: 'Wire 4471' };

    const paidNow = await settle();
    const early = await domain(
      'POST',
      `/cases/${(await fileCase(account.token)).id}/settlement-payment`,
      {
        token: account.token,
        body: payment,
      },
    );
    expect(early.status).toBe(409);
    const closed = await domain<LegalCase>('POST', `/cases/${paidNow.id}/settlement-payment`, {
      token: account.token,
      body: payment,
    });
    expect(closed.body.status).toBe('CLOSED');
    expect(closed.body.settlementPayment).toMatchObject({
      amount: 250_000,
      reference: 'Wire 4471',
    });

    const paused = await settle();
    await domain('POST', '/workflows/automation/toggle', {
      token: account.token,
      body: { caseId: paused.id, enabled: false },
    });
    const kept = await domain<LegalCase>('POST', `/cases/${paused.id}/settlement-payment`, {
      token: account.token,
      body: payment,
    });
    expect(kept.body.status).toBe('SETTLED');
    const twice = await domain('POST', `/cases/${paused.id}/settlement-payment`, {
      token: account.token,
      body: payment,
    });
    expect(twice.status).toBe(409);
    await domain('POST', '/workflows/automation/toggle', {
      token: account.token,
      body: { caseId: paused.id, enabled: true },
    });
    await runCaseAutomation(log, new Date());
    expect((await read(paused.id)).status).toBe('CLOSED');
  });

  it('reminds the assignee of a case quiet for 30 days, once per quiet spell', async () => {
    const filed = await fileCase(account.token, { assignedTo: me.id, title: 'Quiet case' });
    await domain('POST', '/workflows/automation/toggle', {
      token: account.token,
      body: { caseId: filed.id, enabled: false },
    });
    await domain('POST', '/workflows/automation/toggle', {
      token: account.token,
      body: { caseId: filed.id, enabled: true },
    });
    // Moved by the 24-hour rule first, which is an update; quiet counts from there.
    await runCaseAutomation(log, later(25 * HOUR));
    await runCaseAutomation(log, later(29 * DAY));
    const reminders = async () =>
      (
        await domain<{ notifications: NotificationView[] }>('GET', '/notifications', {
          token: account.token,
        })
      ).body.notifications.filter(
        (n) => n.kind === 'legal.reminder' && n.title.startsWith(filed.caseNumber),
      );
    expect(await reminders()).toHaveLength(0);
    await runCaseAutomation(log, later(31 * DAY));
    await runCaseAutomation(log, later(32 * DAY));
    expect(await reminders()).toHaveLength(1);
    const entries = (await timelineOf(filed.id)).filter((e) => e.action === 'Reminder sent');
    expect(entries).toHaveLength(1);
  });
});

describe('critical cases', () => {
  it('tell the legal department head of every update', async () => {
    const [owner, admin] = await Promise.all([
      signedInToken(demo.owner),
      (async () => {
        const { login, call, DEMO_PASSWORD } = await import('../support/identity.js');
        const reply = await login(demo.admin, DEMO_PASSWORD);
        const harborview = reply.body.accounts.find((a) => a.accountName === 'Harborview Auctions');
        const chosen = await call<{ accessToken: string }>('POST', '/tokens/access', {
          token: reply.body.sessionToken,
          body: { userId: reply.body.user.id, accountId: harborview?.accountId },
        });
        return chosen.body.accessToken;
      })(),
    ]);
    const filed = await fileCase(owner, { priority: 'critical', title: 'Critical chargeback' });
    const updated = await domain<LegalCase>('PUT', `/cases/${filed.id}`, {
      token: owner,
      body: { legalCounsel: 'Ames & Rowe' },
      headers: ifMatch(filed.etag),
    });
    expect(updated.status).toBe(200);
    const bell = await domain<{ notifications: NotificationView[] }>('GET', '/notifications', {
      token: admin,
    });
    const told = bell.body.notifications.filter(
      (n) => n.kind === 'legal.critical' && n.title.includes(filed.caseNumber),
    );
    expect(told.map((n) => n.title)).toContain(`Critical case ${filed.caseNumber}: Case updated`);
  });
});
