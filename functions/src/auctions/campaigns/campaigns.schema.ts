import { z } from 'zod';

/** Contracts of an auction's marketing campaigns: what each would reach, and those launched. */

export const campaignKinds = ['premium', 'category'] as const;
export type CampaignKind = (typeof campaignKinds)[number];

export const campaignNames: Record<CampaignKind, string> = {
  premium: 'Premium Bidder Campaign',
  category: 'Category-Specific Outreach',
};

export const campaignLaunchSchema = z.object({
  kind: z.enum(campaignKinds),
  /** Launch again although this campaign went out for this auction before (the screen asks). */
  confirmRepeat: z.boolean().default(false),
  /** The house's own words instead of the campaign's standard text. */
  message: z.string().trim().min(1).max(2000).optional(),
});
export type CampaignLaunch = z.infer<typeof campaignLaunchSchema>;

/** A campaign launched for an auction. */
export const campaignSchema = z.object({
  id: z.string(),
  auctionId: z.string(),
  kind: z.enum(campaignKinds),
  name: z.string(),
  /** 1 for the first launch, 2 for a repeat, ... */
  launch: z.number().int(),
  /** `sending` while mail goes out; `failed` when the mail service stopped it part way. */
  status: z.enum(['sending', 'sent', 'failed']),
  launchedAt: z.string(),
  launchedBy: z.string(),
  message: z.string().nullable(),
  /** Bidders the trigger matched when it was launched. */
  reach: z.number().int(),
  sent: z.number().int(),
  skippedOptedOut: z.number().int(),
  skippedWithoutEmail: z.number().int(),
  finishedAt: z.string().nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** One of the campaigns on offer, with its reach computed now. */
export const campaignOfferSchema = z.object({
  kind: z.enum(campaignKinds),
  name: z.string(),
  /** Who the trigger picks, in words. */
  trigger: z.string(),
  /** Bidders the trigger matches. */
  reach: z.number().int(),
  /** Of those, the ones a launch would mail now. */
  deliverable: z.number().int(),
  optedOut: z.number().int(),
  withoutEmail: z.number().int(),
  /** How often it was launched for this auction, and when last. */
  launches: z.number().int(),
  lastLaunchedAt: z.string().nullable(),
});
export type CampaignOffer = z.infer<typeof campaignOfferSchema>;

export const campaignsResponseSchema = z.object({
  auctionId: z.string(),
  campaigns: z.array(campaignOfferSchema),
  /** Every launch for this auction, newest first. */
  launched: z.array(campaignSchema),
});
export type CampaignsView = z.infer<typeof campaignsResponseSchema>;
