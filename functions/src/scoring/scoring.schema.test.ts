import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CUSTOM_WEIGHTS,
  LOTWISE_WEIGHTS,
  scoringSettingsUpdateSchema,
  tierThresholdsSchema,
  weightsSchema,
} from './scoring.schema.js';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('weightsSchema', () => {
  it('accepts the shipped weights, which total 100', () => {
    expect(weightsSchema.safeParse(LOTWISE_WEIGHTS).success).toBe(true);
    expect(weightsSchema.safeParse(DEFAULT_CUSTOM_WEIGHTS).success).toBe(true);
  });

  it('says by how much the weights are over 100', () => {
    const result = weightsSchema.safeParse({ ...DEFAULT_CUSTOM_WEIGHTS, referrals: 12 });
    expect(result.success).toBe(false);
    expect(messagesOf(result)).toEqual(['Weights must total 100% (currently over by 7%)']);
  });

  it('says by how much the weights are under 100', () => {
    const result = weightsSchema.safeParse({ ...DEFAULT_CUSTOM_WEIGHTS, paymentHistory: 10 });
    expect(messagesOf(result)).toEqual(['Weights must total 100% (currently under by 20%)']);
  });

  it('keeps each weight between 0 and 50, whole', () => {
    const tooHeavy = weightsSchema.safeParse({
      ...DEFAULT_CUSTOM_WEIGHTS,
      paymentHistory: 55,
      bidActivity: 0,
      referrals: 0,
    });
    expect(messagesOf(tooHeavy)).toContain('Each weight is 0 to 50');
    expect(tooHeavy.error?.issues[0]?.path).toEqual(['paymentHistory']);
    expect(weightsSchema.safeParse({ ...DEFAULT_CUSTOM_WEIGHTS, referrals: -5 }).success).toBe(
      false,
    );
    expect(weightsSchema.safeParse({ ...DEFAULT_CUSTOM_WEIGHTS, referrals: 5.5 }).success).toBe(
      false,
    );
  });

  it('requires every component', () => {
    const { referrals: _referrals, ...missing } = DEFAULT_CUSTOM_WEIGHTS;
    const result = weightsSchema.safeParse(missing);
    expect(result.error?.issues[0]?.path).toEqual(['referrals']);
  });
});

describe('tierThresholdsSchema', () => {
  it('accepts minimums going down from Premium to Bronze, equal ones included', () => {
    expect(
      tierThresholdsSchema.safeParse({ premium: 85, gold: 75, silver: 65, bronze: 55 }).success,
    ).toBe(true);
    expect(
      tierThresholdsSchema.safeParse({ premium: 70, gold: 70, silver: 70, bronze: 70 }).success,
    ).toBe(true);
  });

  it('refuses minimums out of order or out of range', () => {
    expect(
      messagesOf(tierThresholdsSchema.safeParse({ premium: 70, gold: 75, silver: 65, bronze: 55 })),
    ).toEqual(['Tier minimums must go down from Premium to Bronze']);
    expect(
      tierThresholdsSchema.safeParse({ premium: 101, gold: 75, silver: 65, bronze: 55 }).success,
    ).toBe(false);
  });
});

describe('scoringSettingsUpdateSchema', () => {
  it('takes any part of the settings alone', () => {
    expect(scoringSettingsUpdateSchema.parse({ autoMergeThreshold: 80 })).toEqual({
      autoMergeThreshold: 80,
    });
    expect(scoringSettingsUpdateSchema.parse({})).toEqual({});
  });

  it('keeps the auto-merge threshold between 70 and 100', () => {
    expect(scoringSettingsUpdateSchema.safeParse({ autoMergeThreshold: 69 }).success).toBe(false);
    expect(scoringSettingsUpdateSchema.safeParse({ autoMergeThreshold: 101 }).success).toBe(false);
    expect(scoringSettingsUpdateSchema.safeParse({ autoMergeThreshold: 70 }).success).toBe(true);
  });
});
