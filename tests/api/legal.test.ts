import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  ActionItem,
  CaseAnalytics,
  CaseNote,
  LegalCase,
  ListCasesResponse,
  TimelineEntry,
} from '../../functions/src/legal/legal.schema.js';
import type { NotificationView } from '../../functions/src/notifications/notifications.schema.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  getBidder,
  signedInToken,
  strongStats,
  type Owner,
} from '../support/bidders.js';
import { call, demo, DEMO_PASSWORD, ifMatch, login } from '../support/identity.js';

/** The demo admin works for two accounts: this signs them in to Harborview's. */
async function harborviewAdmin() {
  const reply = await login(demo.admin, DEMO_PASSWORD);
  const harborview = reply.body.accounts.find((a) => a.accountName === 'Harborview Auctions');
  const chosen = await call<{ accessToken: string }>('POST', '/tokens/access', {
    token: reply.body.sessionToken,
    body: { userId: reply.body.user.id, accountId: harborview?.accountId },
  });
  if (chosen.status !== 200) throw new Error(`admin sign-in failed: ${chosen.status}`);
  return chosen.body.accessToken;
}

let fresh: Owner;
let owner: string;
let admin: string;
let staff: string;
let viewer: string;
let lakeside: string;

beforeAll(async () => {
  [fresh, owner, admin, staff, viewer, lakeside] = await Promise.all([
    freshOwner(),
    signedInToken(demo.owner),
    harborviewAdmin(),
    signedInToken(demo.staff),
    signedInToken(demo.viewer),
    signedInToken(demo.lakesideOwner),
  ]);
});

const caseInput = (overrides: Record<string, unknown> = {}) => ({
  caseType: 'payment_dispute',
  category: 'post_sale',
  priority: 'high',
  title: `Unpaid invoice ${randomUUID().slice(0, 8)}`,
  jurisdiction: 'Massachusetts',
  claimAmount: 1_250_000,
  currency: 'USD',
  ...overrides,
});

async function fileCase(token: string, overrides: Record<string, unknown> = {}) {
  const reply = await domain<LegalCase>('POST', '/cases', { token, body: caseInput(overrides) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

const move = (token: string, id: string, body: Record<string, unknown>) =>
  domain<LegalCase>('POST', `/cases/${id}/status`, { token, body });

async function moved(token: string, id: string, to: string, extra: Record<string, unknown> = {}) {
  const reply = await move(token, id, { to, reason: `Moving to ${to}`, ...extra });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

const userIdOf = async (token: string) =>
  (
    await domain<{ assignees: { id: string; name: string }[] }>('GET', '/legal/assignees', {
      token,
    })
  ).body.assignees;

describe('filing a case', () => {
  it('gives it a human number, SUBMITTED, an ETag, and finds it again', async () => {
    const filed = await fileCase(fresh.token, { description: 'Two reminders sent' });
    expect(filed.caseNumber).toMatch(/^LC-\d{4}-0001$/);
    expect(filed.status).toBe('SUBMITTED');
    expect(filed.claimAmount).toBe(1_250_000);
    expect(filed.currency).toBe('USD');
    expect(filed.allowedTransitions.map((t) => t.to)).toEqual(['PENDING', 'DISMISSED']);
    const read = await domain<LegalCase>('GET', `/cases/${filed.id}`, { token: fresh.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toContain(filed.etag);
    expect(read.body.title).toBe(filed.title);
    const found = await domain<ListCasesResponse>(
      'GET',
      `/listLegalCases?search=${encodeURIComponent(filed.caseNumber.toLowerCase())}`,
      { token: fresh.token },
    );
    expect(found.body.cases.map((c) => c.id)).toEqual([filed.id]);
  });

  it('names the field a bad case lacks or gets wrong', async () => {
    for (const [body, field] of [
      [caseInput({ title: '   ' }), 'title'],
      [caseInput({ jurisdiction: undefined }), 'jurisdiction'],
      [caseInput({ priority: 'urgent' }), 'priority'],
      [caseInput({ claimAmount: 12.5 }), 'claimAmount'],
      [
        caseInput({ plaintiff: { name: 'A', type: 'individual', email: 'nope' } }),
        'plaintiff.email',
      ],
      [caseInput({ auctionId: 'no-such-auction' }), 'auctionId'],
      [caseInput({ assignedTo: 'no-such-user' }), 'assignedTo'],
    ] as const) {
      const reply = await domain('POST', '/cases', { token: fresh.token, body });
      expect(reply.status, field).toBe(400);
      expect(fieldsOf(reply), field).toContain(field);
    }
  });

  it("refuses another account's bidder as if it did not exist", async () => {
    const theirs = await createBidder(lakeside);
    const reply = await domain('POST', '/cases', {
      token: owner,
      body: caseInput({ bidderId: theirs.id }),
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['bidderId']);
  });

  it('never gives two cases filed at once the same number, nor reuses a deleted one', async () => {
    const account = await freshOwner();
    const filed = await Promise.all(Array.from({ length: 6 }, () => fileCase(account.token)));
    const numbers = filed.map((c) => Number(c.caseNumber.slice(-4))).sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6]);
    const last = filed.find((c) => c.caseNumber.endsWith('0006')) as LegalCase;
    const removed = await domain('DELETE', `/cases/${last.id}`, {
      token: account.token,
      headers: ifMatch(last.etag),
    });
    expect(removed.status).toBe(204);
    expect((await domain('GET', `/cases/${last.id}`, { token: account.token })).status).toBe(404);
    expect((await fileCase(account.token)).caseNumber).toMatch(/-0007$/);
  });
});

describe('who may do what', () => {
  it('lets a viewer read but not file, and a staff member file but not approve', async () => {
    const filed = await fileCase(owner);
    expect((await domain('GET', `/cases/${filed.id}`, { token: viewer })).status).toBe(200);
    const refused = await domain('POST', '/cases', { token: viewer, body: caseInput() });
    expect(refused.status).toBe(403);
    expect((await domain('POST', '/cases', { token: staff, body: caseInput() })).status).toBe(201);
    const approval = await domain('POST', `/cases/${filed.id}/approval`, {
      token: staff,
      body: { decision: 'approve', reason: 'Fine' },
    });
    expect(approval.status).toBe(403);
  });

  it("answers 404 for another account's case on every route", async () => {
    const filed = await fileCase(owner);
    for (const [method, path, body] of [
      ['GET', `/cases/${filed.id}`, undefined],
      ['GET', `/cases/${filed.id}/timeline`, undefined],
      ['GET', `/cases/${filed.id}/notes`, undefined],
      ['POST', `/cases/${filed.id}/notes`, { text: 'Hello' }],
      ['POST', `/cases/${filed.id}/status`, { to: 'DISMISSED', reason: 'Theirs' }],
      ['POST', '/workflows/automation/toggle', { caseId: filed.id, enabled: false }],
    ] as const) {
      const reply = await domain(method, path, { token: lakeside, body });
      expect(reply.status, `${method} ${path}`).toBe(404);
    }
    const edit = await domain('PUT', `/cases/${filed.id}`, {
      token: lakeside,
      body: { title: 'Mine now' },
      headers: ifMatch(filed.etag),
    });
    expect(edit.status).toBe(404);
  });
});

describe('editing a case', () => {
  it('needs the current ETag and keeps the other writer’s change', async () => {
    const filed = await fileCase(fresh.token);
    const without = await domain('PUT', `/cases/${filed.id}`, {
      token: fresh.token,
      body: { legalCounsel: 'Ames & Rowe' },
    });
    expect(without.status).toBe(428);
    const first = await domain<LegalCase>('PUT', `/cases/${filed.id}`, {
      token: fresh.token,
      body: { legalCounsel: 'Ames & Rowe', filingDeadline: '2027-03-01' },
      headers: ifMatch(filed.etag),
    });
    expect(first.status).toBe(200);
    expect(first.body.legalCounsel).toBe('Ames & Rowe');
    const second = await domain('PUT', `/cases/${filed.id}`, {
      token: fresh.token,
      body: { legalCounsel: 'Someone else' },
      headers: ifMatch(filed.etag),
    });
    expect(second.status).toBe(412);
    const read = await domain<LegalCase>('GET', `/cases/${filed.id}`, { token: fresh.token });
    expect(read.body.legalCounsel).toBe('Ames & Rowe');
    expect(read.body.filingDeadline).toBe('2027-03-01');
  });

  it('moves a SUBMITTED case to PENDING when it is assigned, as automation, unless paused', async () => {
    const [me] = await userIdOf(fresh.token);
    const filed = await fileCase(fresh.token);
    const assigned = await domain<LegalCase>('PUT', `/cases/${filed.id}`, {
      token: fresh.token,
      body: { assignedTo: me!.id },
      headers: ifMatch(filed.etag),
    });
    expect(assigned.body.status).toBe('PENDING');
    expect(assigned.body.assignedTo?.id).toBe(me!.id);
    const entries = (
      await domain<{ entries: TimelineEntry[] }>('GET', `/cases/${filed.id}/timeline`, {
        token: fresh.token,
      })
    ).body.entries;
    const automated = entries.find((entry) => entry.toStatus === 'PENDING');
    expect(automated?.automated).toBe(true);
    expect(automated?.by).toBeNull();

    const paused = await fileCase(fresh.token);
    const toggled = await domain<LegalCase>('POST', '/workflows/automation/toggle', {
      token: fresh.token,
      body: { caseId: paused.id, enabled: false },
    });
    expect(toggled.body.automationPaused).toBe(true);
    const kept = await domain<LegalCase>('PUT', `/cases/${paused.id}`, {
      token: fresh.token,
      body: { assignedTo: me!.id },
      headers: ifMatch(toggled.body.etag),
    });
    expect(kept.body.status).toBe('SUBMITTED');
  });
});

describe('the workflow', () => {
  it('allows only the moves of 4.1, each with a reason', async () => {
    const filed = await fileCase(fresh.token);
    const illegal = await move(fresh.token, filed.id, { to: 'SETTLED', reason: 'Skip ahead' });
    expect(illegal.status).toBe(409);
    expect(messageOf(illegal)).toBe(
      'A SUBMITTED case can move to PENDING or DISMISSED, not SETTLED',
    );
    const blank = await move(fresh.token, filed.id, { to: 'PENDING', reason: '  ' });
    expect(blank.status).toBe(400);
    expect(fieldsOf(blank)).toEqual(['reason']);
    await moved(fresh.token, filed.id, 'PENDING');
    await moved(fresh.token, filed.id, 'IN REVIEW');
    await moved(fresh.token, filed.id, 'MEDIATION');
    const unnamed = await move(fresh.token, filed.id, { to: 'SETTLED', reason: 'Agreed' });
    expect(unnamed.status).toBe(400);
    expect(fieldsOf(unnamed)).toEqual(['settlementAmount']);
    const settled = await moved(fresh.token, filed.id, 'SETTLED', { settlementAmount: 900_000 });
    expect(settled.status).toBe('SETTLED');
    expect(settled.settlementAmount).toBe(900_000);
    const closed = await moved(fresh.token, filed.id, 'CLOSED');
    expect(closed.allowedTransitions).toEqual([]);
    const after = await move(fresh.token, filed.id, { to: 'DISMISSED', reason: 'Again' });
    expect(after.status).toBe(409);
    expect(codeOf(after)).toBe('conflict');
    const timeline = (
      await domain<{ entries: TimelineEntry[] }>('GET', `/cases/${filed.id}/timeline`, {
        token: fresh.token,
      })
    ).body.entries;
    expect(timeline.map((entry) => entry.toStatus)).toEqual([
      'CLOSED',
      'SETTLED',
      'MEDIATION',
      'IN REVIEW',
      'PENDING',
      'SUBMITTED',
    ]);
  });

  it('holds a settlement above $50,000 for a director that is not the requester', async () => {
    const filed = await fileCase(owner, { claimAmount: 8_000_000 });
    for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await moved(owner, filed.id, to);
    const asked = await moved(owner, filed.id, 'SETTLED', { settlementAmount: 6_000_000 });
    expect(asked.status).toBe('MEDIATION');
    expect(asked.pendingApproval).toMatchObject({ to: 'SETTLED', settlementAmount: 6_000_000 });
    expect(asked.allowedTransitions).toEqual([]);

    const again = await move(owner, filed.id, { to: 'DISMISSED', reason: 'Changed mind' });
    expect(again.status).toBe(409);
    const own = await domain('POST', `/cases/${filed.id}/approval`, {
      token: owner,
      body: { decision: 'approve', reason: 'Mine' },
    });
    expect(own.status).toBe(403);
    const byViewer = await domain('POST', `/cases/${filed.id}/approval`, {
      token: viewer,
      body: { decision: 'approve', reason: 'Looks fine' },
    });
    expect(byViewer.status).toBe(403);

    const bell = await domain<{ notifications: NotificationView[] }>(
      'GET',
      '/notifications?status=unread',
      { token: admin },
    );
    const ask = bell.body.notifications.find(
      (n) => n.kind === 'legal.approval' && n.title.includes(filed.caseNumber),
    );
    expect(ask?.link).toBe(`/legal/cases/${filed.id}/workflow`);
    expect(ask?.subject).toEqual({ type: 'settlement_approval', id: filed.id });

    const approved = await domain<LegalCase>('POST', `/cases/${filed.id}/approval`, {
      token: admin,
      body: { decision: 'approve', reason: 'Within the budget' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('SETTLED');
    expect(approved.body.settlementAmount).toBe(6_000_000);
    expect(approved.body.pendingApproval).toBeNull();
    const twice = await domain('POST', `/cases/${filed.id}/approval`, {
      token: admin,
      body: { decision: 'approve', reason: 'Again' },
    });
    expect(twice.status).toBe(409);
  });

  it('leaves the case where it was when the settlement is rejected', async () => {
    const filed = await fileCase(owner);
    for (const to of ['PENDING', 'IN REVIEW', 'LITIGATION']) await moved(owner, filed.id, to);
    await moved(owner, filed.id, 'SETTLED', { settlementAmount: 5_000_001 });
    const rejected = await domain<LegalCase>('POST', `/cases/${filed.id}/approval`, {
      token: admin,
      body: { decision: 'reject', reason: 'Too much' },
    });
    expect(rejected.body.status).toBe('LITIGATION');
    expect(rejected.body.pendingApproval).toBeNull();
    expect(rejected.body.settlementAmount).toBeNull();
    const mine = await domain<{ notifications: NotificationView[] }>('GET', '/notifications', {
      token: owner,
    });
    expect(
      mine.body.notifications.some(
        (n) => n.kind === 'legal.rejected' && n.title.includes(filed.caseNumber),
      ),
    ).toBe(true);
  });

  it('does not take exactly $50,000 to a director', async () => {
    const filed = await fileCase(fresh.token);
    for (const to of ['PENDING', 'IN REVIEW', 'MEDIATION']) await moved(fresh.token, filed.id, to);
    const settled = await moved(fresh.token, filed.id, 'SETTLED', { settlementAmount: 5_000_000 });
    expect(settled.status).toBe('SETTLED');
  });
});

describe('notes, action items and the timeline', () => {
  it('keeps notes and action items, and completes an item', async () => {
    const filed = await fileCase(fresh.token);
    const blank = await domain('POST', `/cases/${filed.id}/notes`, {
      token: fresh.token,
      body: { text: ' ' },
    });
    expect(fieldsOf(blank)).toEqual(['text']);
    const note = await domain<CaseNote>('POST', `/cases/${filed.id}/notes`, {
      token: fresh.token,
      body: { text: 'Called the buyer' },
    });
    expect(note.status).toBe(201);
    const notes = await domain<{ notes: CaseNote[] }>('GET', `/cases/${filed.id}/notes`, {
      token: fresh.token,
    });
    expect(notes.body.notes.map((n) => n.text)).toEqual(['Called the buyer']);

    const [me] = await userIdOf(fresh.token);
    const item = await domain<ActionItem>('POST', `/cases/${filed.id}/actions`, {
      token: fresh.token,
      body: { text: 'Send the final notice', assigneeId: me!.id, dueDate: '2027-01-15' },
    });
    expect(item.status).toBe(201);
    expect(item.body.assignee?.id).toBe(me!.id);
    const done = await domain<ActionItem>('PUT', `/cases/${filed.id}/actions/${item.body.id}`, {
      token: fresh.token,
      body: { done: true },
    });
    expect(done.body.done).toBe(true);
    expect(done.body.doneAt).not.toBeNull();
    const items = await domain<{ actions: ActionItem[] }>('GET', `/cases/${filed.id}/actions`, {
      token: fresh.token,
    });
    expect(items.body.actions.map((a) => [a.text, a.done])).toEqual([
      ['Send the final notice', true],
    ]);
    const wrongCase = await fileCase(fresh.token);
    const elsewhere = await domain('PUT', `/cases/${wrongCase.id}/actions/${item.body.id}`, {
      token: fresh.token,
      body: { done: false },
    });
    expect(elsewhere.status).toBe(404);

    const entry = await domain<TimelineEntry>('POST', `/cases/${filed.id}/timeline`, {
      token: fresh.token,
      body: { action: 'Letter sent', detail: 'By registered post' },
    });
    expect(entry.status).toBe(201);
    const timeline = await domain<{ entries: TimelineEntry[] }>(
      'GET',
      `/cases/${filed.id}/timeline`,
      { token: fresh.token },
    );
    expect(timeline.body.entries[0]).toMatchObject({ action: 'Letter sent', automated: false });
  });
});

describe('the list and its analytics', () => {
  it('filters, sorts, pages and counts', async () => {
    const account = await freshOwner();
    const token = account.token;
    const low = await fileCase(token, { priority: 'low', claimAmount: 100 });
    const critical = await fileCase(token, {
      priority: 'critical',
      caseType: 'title_dispute',
      claimAmount: 300,
    });
    const medium = await fileCase(token, { priority: 'medium', claimAmount: 200, currency: 'EUR' });
    await moved(token, medium.id, 'DISMISSED');

    const byPriority = await domain<ListCasesResponse>(
      'GET',
      '/listLegalCases?sortBy=priority&sortOrder=desc',
      { token },
    );
    expect(byPriority.body.cases.map((c) => c.id)).toEqual([critical.id, medium.id, low.id]);
    expect(byPriority.body.total).toBe(3);

    const several = await domain<ListCasesResponse>(
      'GET',
      '/listLegalCases?priority=low,critical&sortBy=amount&sortOrder=asc',
      { token },
    );
    expect(several.body.cases.map((c) => c.id)).toEqual([low.id, critical.id]);

    const active = await domain<ListCasesResponse>('GET', '/listLegalCases?state=active', {
      token,
    });
    expect(active.body.total).toBe(2);
    const byType = await domain<ListCasesResponse>('GET', '/listLegalCases?type=title_dispute', {
      token,
    });
    expect(byType.body.cases.map((c) => c.id)).toEqual([critical.id]);

    const page2 = await domain<ListCasesResponse>(
      'GET',
      '/listLegalCases?limit=2&page=2&sortBy=priority',
      { token },
    );
    expect(page2.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page2.body.cases.map((c) => c.id)).toEqual([low.id]);

    const bad = await domain('GET', '/listLegalCases?status=OPEN', { token });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)[0]).toMatch(/^status/);
    const tooMany = await domain('GET', '/listLegalCases?limit=1001', { token });
    expect(fieldsOf(tooMany)).toEqual(['limit']);

    const figures = (await domain<CaseAnalytics>('GET', '/legal/analytics', { token })).body;
    expect(figures).toMatchObject({ total: 3, active: 2, critical: 1, pending: 0 });
    expect(figures.totalAmount).toEqual([{ currency: 'USD', amount: 400 }]);
    expect(figures.byStatus.find((s) => s.key === 'DISMISSED')?.count).toBe(1);
    expect(figures.byType.find((s) => s.key === 'title_dispute')?.count).toBe(1);
  });

  it('shows the demo tenant its seeded cases', async () => {
    const list = await domain<ListCasesResponse>('GET', '/listLegalCases?limit=1000', {
      token: viewer,
    });
    expect(list.status).toBe(200);
    expect(list.body.cases.some((c) => c.pendingApproval !== null)).toBe(true);
    expect(list.body.cases.some((c) => c.status === 'LITIGATION')).toBe(true);
  });
});

describe('disputes that feed the bidder', () => {
  it('counts an open payment dispute in the bidder’s history and score until it is dismissed', async () => {
    const bidder = await createBidder(fresh.token, { stats: strongStats() });
    const before = (await getBidder(fresh.token, bidder.id)).body;
    const filed = await fileCase(fresh.token, { bidderId: bidder.id });
    expect(filed.bidder?.id).toBe(bidder.id);
    const during = (await getBidder(fresh.token, bidder.id)).body;
    expect(during.stats.disputes).toBe(before.stats.disputes + 1);
    expect(during.lotwiseScore.score).toBeLessThan(before.lotwiseScore.score);

    const theirs = await domain<ListCasesResponse>('GET', `/listLegalCases?bidderId=${bidder.id}`, {
      token: fresh.token,
    });
    expect(theirs.body.cases.map((c) => c.id)).toEqual([filed.id]);

    // Another kind of case naming the bidder does not count against them.
    await fileCase(fresh.token, { bidderId: bidder.id, caseType: 'condition_dispute' });
    expect((await getBidder(fresh.token, bidder.id)).body.stats.disputes).toBe(
      during.stats.disputes,
    );

    await moved(fresh.token, filed.id, 'DISMISSED');
    const after = (await getBidder(fresh.token, bidder.id)).body;
    expect(after.stats.disputes).toBe(before.stats.disputes);
    expect(after.lotwiseScore.score).toBe(before.lotwiseScore.score);
  });
});
