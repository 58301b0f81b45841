import type { scoringSettingsUpdateSchema } from '@contracts/scoring/scoring.schema';
import { lotwiseModelSchema, scoringSettingsViewSchema } from '@contracts/scoring/scoring.schema';
import type { z } from 'zod';
import useSWR, { useSWRConfig } from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

const settingsKey = domainApi('/scoring/settings');

/** Polls while a recalculation runs, so its progress shows. */
export const useScoringSettings = () =>
  useSWR(settingsKey, fetchWith(scoringSettingsViewSchema), {
    refreshInterval: (data) =>
      data?.recompute && ['queued', 'running'].includes(data.recompute.status) ? 1000 : 0,
  });

export const useLotwiseModel = () =>
  useSWR(domainApi('/scoring/lotwise'), fetchWith(lotwiseModelSchema));

export type ScoringSettingsChanges = z.input<typeof scoringSettingsUpdateSchema>;

/**
 * Saves the account's scoring settings against the version on screen (someone else's save
 * meanwhile answers 412) and shows the saved ones at once.
 */
export function useSaveScoringSettings() {
  const { data } = useScoringSettings();
  const { mutate } = useSWRConfig();
  return async (changes: ScoringSettingsChanges) => {
    const saved = await apiRequest(settingsKey, {
      method: 'PUT',
      body: changes,
      headers: { 'if-match': `"${data?.etag ?? 'defaults'}"` },
      schema: scoringSettingsViewSchema,
    });
    await mutate(settingsKey, saved, { revalidate: false });
    return saved;
  };
}
