import {
  assessmentInviteResultSchema,
  assessmentSchema,
  type Recommendation,
} from '@contracts/auctions/assessment/assessment.schema';
import {
  campaignSchema,
  campaignsResponseSchema,
  type CampaignKind,
} from '@contracts/auctions/campaigns/campaigns.schema';
import useSWR, { useSWRConfig } from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

/** The AI Bidder Assessment of an auction and its marketing campaigns. */

/** Enough for every card the panel shows; the counts always cover every bidder. */
export const ASSESSMENT_LIMIT = 100;

const auctionBase = (id: string) => domainApi(`/auctions/${encodeURIComponent(id)}`);
const assessmentKey = (id: string, recommendation: Recommendation | '') => {
  const params = new URLSearchParams({ limit: String(ASSESSMENT_LIMIT) });
  if (recommendation) params.set('recommendation', recommendation);
  return `${auctionBase(id)}/assessment?${params}`;
};
const campaignsKey = (id: string) => `${auctionBase(id)}/campaigns`;

export const useAssessment = (id: string | null, recommendation: Recommendation | '' = '') =>
  useSWR(id ? assessmentKey(id, recommendation) : null, fetchWith(assessmentSchema), {
    keepPreviousData: true,
  });
export const useCampaigns = (id: string | null) =>
  useSWR(id ? campaignsKey(id) : null, fetchWith(campaignsResponseSchema));

/** "Send Selected" names the bidders; "Auto-Invite All" asks for every Auto-Invite one. */
export type AssessmentInvite = { bidderIds: string[] } | { all: 'Auto-Invite' };

export function useAssessmentActions() {
  const { mutate } = useSWRConfig();
  /**
   * Everything read under the auction: an invitation moves the assessment (each filter of it),
   * the registrations and the auction's figures; a launch moves the campaigns.
   */
  const refreshAuction = (id: string) =>
    mutate(
      (key) =>
        typeof key === 'string' &&
        (key === auctionBase(id) || key.startsWith(`${auctionBase(id)}/`)),
    );

  return {
    invite: async (auctionId: string, body: AssessmentInvite) => {
      const result = await apiRequest(`${auctionBase(auctionId)}/assessment/invite`, {
        method: 'POST',
        body,
        schema: assessmentInviteResultSchema,
      });
      await refreshAuction(auctionId);
      return result;
    },
    launch: async (auctionId: string, kind: CampaignKind, confirmRepeat = false) => {
      const campaign = await apiRequest(campaignsKey(auctionId), {
        method: 'POST',
        body: { kind, confirmRepeat },
        schema: campaignSchema,
      });
      await mutate(campaignsKey(auctionId));
      return campaign;
    },
  };
}
