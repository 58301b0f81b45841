import {
  lotwiseModelSchema,
  scoringSettingsSchema,
  type AutomationRules,
  type TierThresholds,
  type Weights,
} from '@contracts/scoring/scoring.schema';
import useSWR, { useSWRConfig } from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

const settingsKey = domainApi('/scoring/settings');

/** Polls while a recalculation runs, so its progress shows. */
export const useScoringSettings = () =>
  useSWR(settingsKey, fetchWith(scoringSettingsSchema), {
    refreshInterval: (data) =>
      data?.recompute && ['queued', 'running'].includes(data.recompute.status) ? 1000 : 0,
  });

export const useLotwiseModel = () =>
  useSWR(domainApi('/scoring/lotwise'), fetchWith(lotwiseModelSchema));

export interface ScoringSettingsChanges {
  customWeights?: Weights;
  customTiers?: TierThresholds;
  automation?: AutomationRules;
  invitationThresholds?: { autoInvite: number; manualReview: number; autoDeny: number };
  autoMergeThreshold?: number;
}

/** Saves the account's scoring settings and shows the saved ones at once. */
export function useSaveScoringSettings() {
  const { mutate } = useSWRConfig();
  return async (changes: ScoringSettingsChanges) => {
    const saved = await apiRequest(settingsKey, {
      method: 'PUT',
      body: changes,
      schema: scoringSettingsSchema,
    });
    await mutate(settingsKey, saved, { revalidate: false });
    return saved;
  };
}
