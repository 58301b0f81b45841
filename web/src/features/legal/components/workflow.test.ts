import { describe, expect, it } from 'vitest';
import type { WorkflowRule } from '@contracts/legal/rules/rules.schema';
import { approvalThreshold, automationNotices, builtInEnabled, hoursUntilReview } from './workflow';

const now = new Date('2026-05-02T10:00:00.000Z');

describe('hoursUntilReview', () => {
  it('counts the hours left of the 24 since filing, rounding up', () => {
    expect(hoursUntilReview('2026-05-02T04:00:00.000Z', now)).toBe(18);
    expect(hoursUntilReview('2026-05-02T03:30:00.000Z', now)).toBe(18);
    expect(hoursUntilReview('2026-05-02T10:00:00.000Z', now)).toBe(24);
  });

  it('stops at nothing left once it is due', () => {
    expect(hoursUntilReview('2026-04-30T10:00:00.000Z', now)).toBe(0);
  });
});

describe('approvalThreshold', () => {
  it('is 50,000 of the case’s currency', () => {
    expect(approvalThreshold('USD')).toBe('$50,000');
    expect(approvalThreshold('JPY')).toBe('¥50,000');
  });
});

describe('automationNotices', () => {
  const base = {
    status: 'SUBMITTED',
    priority: 'medium',
    createdAt: '2026-05-02T09:00:00.000Z',
    statusChangedAt: '2026-05-02T09:00:00.000Z',
    settlementAmount: null,
    settlementPayment: null,
    currency: 'USD',
  } as const;

  it('says nothing for a case no automation touches', () => {
    expect(automationNotices(base, now)).toEqual([]);
  });

  it('counts down a PENDING case’s move to IN REVIEW from its filing', () => {
    expect(
      automationNotices(
        { ...base, status: 'PENDING', statusChangedAt: '2026-05-02T09:59:00.000Z' },
        now,
      ),
    ).toEqual(['This case will move to IN REVIEW in 23 hours.']);
    expect(
      automationNotices({ ...base, status: 'PENDING', createdAt: '2026-05-01T10:30:00.000Z' }, now),
    ).toEqual(['This case will move to IN REVIEW in 1 hour.']);
    expect(
      automationNotices({ ...base, status: 'PENDING', createdAt: '2026-04-01T10:30:00.000Z' }, now),
    ).toEqual(['This case is due to move to IN REVIEW now.']);
  });

  it('closes a settled case on payment and tells the head about a critical one', () => {
    expect(
      automationNotices(
        { ...base, status: 'SETTLED', settlementAmount: 6_000_000, priority: 'critical' },
        now,
      ),
    ).toEqual([
      'This case will close when payment of the $60,000 settlement is confirmed.',
      'The legal department head is notified of every update to this Critical case.',
    ]);
  });

  it('counts down the closing of resolved and dismissed cases', () => {
    expect(
      automationNotices(
        { ...base, status: 'RESOLVED', statusChangedAt: '2026-04-30T10:00:00.000Z' },
        now,
      ),
    ).toEqual(['This case will close in 5 days, 7 days after its resolution.']);
    expect(
      automationNotices(
        { ...base, status: 'DISMISSED', statusChangedAt: '2026-04-01T10:00:00.000Z' },
        now,
      ),
    ).toEqual(['This case is due to close now, as an administrative closure.']);
  });

  it('leaves out what a rule the account switched off would do', () => {
    const off = (id: string) => ({ id, enabled: false }) as WorkflowRule;
    const enabled = builtInEnabled([
      off('builtin:auto-review'),
      off('builtin:critical-escalation'),
    ]);
    expect(
      automationNotices({ ...base, status: 'PENDING', priority: 'critical' }, now, enabled),
    ).toEqual([]);
    expect(builtInEnabled(undefined)('auto-review')).toBe(true);
  });
});
