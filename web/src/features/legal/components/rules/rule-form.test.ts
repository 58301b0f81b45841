import { builtInRules } from '@contracts/legal/rules/rules.schema';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../lib/api-client';
import {
  blankAction,
  blankCondition,
  blankRuleForm,
  checkRuleForm,
  describeAction,
  describeCondition,
  operatorsFor,
  placeProblems,
  serverProblems,
  settableStatuses,
  type RuleForm,
} from './rule-form';

const nameOf = (id: string) => (id === 'u-1' ? 'Jane Doe' : 'a former member');

const filled = (): RuleForm => ({
  ...blankRuleForm(),
  name: 'Escalate critical',
  conditions: [{ ...blankCondition('priority'), value: 'critical' }],
  actions: [{ ...blankAction('notify'), permission: 'legal:escalate' }],
});

describe('the rule form', () => {
  it('offers the operators and statuses the contract takes', () => {
    expect(operatorsFor('status')).toEqual(['equals', 'not_equals', 'in']);
    expect(operatorsFor('claimAmount')).not.toContain('in');
    expect(operatorsFor('priority')).toContain('greater_than');
    expect(settableStatuses).not.toContain('SETTLED');
  });

  it('turns a filled form into the contract’s body', () => {
    const checked = checkRuleForm(filled());
    expect(checked).toEqual({
      ok: true,
      body: expect.objectContaining({
        name: 'Escalate critical',
        trigger: 'status_change',
        priority: 100,
        conditions: [{ field: 'priority', operator: 'equals', value: 'critical' }],
        actions: [{ type: 'notify', userIds: [], permission: 'legal:escalate', assignee: true }],
      }),
    });
  });

  it('names each missing or wrong field in words beside it', () => {
    const form: RuleForm = {
      ...blankRuleForm(),
      priority: '5000',
      conditions: [blankCondition('priority'), { ...blankCondition('claimAmount'), value: 'x' }],
      actions: [{ ...blankAction('notify'), assignee: false }],
    };
    const checked = checkRuleForm(form);
    if (checked.ok) throw new Error('expected problems');
    const { placed, unplaced } = placeProblems(form, checked.problems);
    expect(placed).toEqual({
      name: 'Name is required',
      priority: 'Priority is at most 1000',
      'conditions.0.value': 'Value is required',
      'conditions.1.value': 'Value is not a number',
      'actions.0.userIds': expect.stringMatching(/^Choose whom to notify/),
    });
    expect(unplaced).toEqual([]);
  });

  it('places the service’s problems, and says those it has no field for', () => {
    const error = new ApiError('refused', 400, 'validation_failed', {
      fields: [
        {
          location: 'body',
          field: 'actions.0.to',
          message: 'is not a move a CLOSED case can make',
        },
        { location: 'body', field: 'actions.0.userIds.1', message: 'is not a member' },
        {
          location: 'body',
          field: 'conditions',
          message: 'no status meets every status condition',
        },
        { location: 'body', field: 'actions.3', message: 'is a second status change' },
      ],
    });
    const form: RuleForm = { ...filled(), actions: [{ ...blankAction('change_status') }] };
    const { placed, unplaced } = placeProblems(form, serverProblems(error));
    expect(placed).toEqual({
      'actions.0.to': 'Status is not a move a CLOSED case can make',
      conditions: 'No status meets every status condition',
    });
    // The change_status action has no people; the fourth action does not exist.
    expect(unplaced).toHaveLength(2);
  });

  it('says what a rule does in words', () => {
    const critical = builtInRules['critical-escalation'];
    expect(describeCondition(critical.conditions[0]!, nameOf)).toBe('Priority is Critical');
    expect(describeAction(critical.actions[0]!, nameOf)).toBe(
      'Notify those who may escalate legal cases',
    );
    expect(
      describeAction(
        { type: 'notify', userIds: ['u-1'], permission: null, assignee: true },
        nameOf,
      ),
    ).toBe('Notify the assignee and Jane Doe');
    expect(
      describeCondition(
        { field: 'status', operator: 'in', value: ['PENDING', 'IN REVIEW'] },
        nameOf,
      ),
    ).toBe('Status is one of PENDING, IN REVIEW');
    expect(
      describeCondition({ field: 'assignedTo', operator: 'equals', value: null }, nameOf),
    ).toBe('Assigned to is nobody');
  });
});
