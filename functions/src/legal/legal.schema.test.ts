import { describe, expect, it } from 'vitest';
import {
  caseInputSchema,
  caseStatuses,
  caseTransitions,
  isActiveStatus,
  listCasesQuerySchema,
} from './legal.schema.js';

describe('the case workflow (spec 4.1)', () => {
  it('ends in CLOSED, and only a settlement names an amount', () => {
    expect(caseTransitions.CLOSED).toEqual([]);
    for (const status of caseStatuses) {
      for (const move of caseTransitions[status]) {
        expect(move.requiresSettlement).toBe(move.to === 'SETTLED');
      }
    }
  });

  it('reaches CLOSED from every status', () => {
    const reaches = (from: string, seen = new Set<string>()): boolean => {
      if (from === 'CLOSED') return true;
      if (seen.has(from)) return false;
      seen.add(from);
      return caseTransitions[from as keyof typeof caseTransitions].some((move) =>
        reaches(move.to, seen),
      );
    };
    for (const status of caseStatuses) expect(reaches(status), status).toBe(true);
  });

  it('counts only the unfinished statuses as active', () => {
    expect(caseStatuses.filter(isActiveStatus)).toEqual([
      'SUBMITTED',
      'PENDING',
      'IN REVIEW',
      'MEDIATION',
      'LITIGATION',
    ]);
  });
});

describe('the contracts', () => {
  it('takes a multi-select filter as a comma list or repeated values', () => {
    expect(listCasesQuerySchema.parse({ status: 'PENDING, IN REVIEW' }).status).toEqual([
      'PENDING',
      'IN REVIEW',
    ]);
    expect(listCasesQuerySchema.parse({ priority: ['high', 'low'] }).priority).toEqual([
      'high',
      'low',
    ]);
    expect(listCasesQuerySchema.safeParse({ status: 'OPEN' }).success).toBe(false);
  });

  it('files a case with the form’s defaults and refuses money that is not whole minor units', () => {
    const parsed = caseInputSchema.parse({
      caseType: 'other',
      category: 'other',
      priority: 'low',
      title: ' A title ',
      jurisdiction: 'NY',
    });
    expect(parsed).toMatchObject({ title: 'A title', claimAmount: 0, currency: 'USD' });
    expect(
      caseInputSchema.safeParse({ ...parsed, claimAmount: 10.5 }).error?.issues[0]?.path,
    ).toEqual(['claimAmount']);
  });
});
