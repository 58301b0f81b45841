import { z } from 'zod';
import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { pathIdSchema } from '../../platform/validation.js';
import {
  campaignLaunchSchema,
  campaignSchema,
  campaignsResponseSchema,
} from './campaigns.schema.js';
import { launchCampaign, listCampaigns, toCampaign } from './campaigns.service.js';

const auctionParams = z.object({ id: pathIdSchema });

/** An auction's marketing campaigns: their reach, and launching them. */
export const campaignFunctions: HttpFunction[] = [
  httpRoute({
    name: 'auctions-campaigns',
    route: 'auctions/{id}/campaigns',
    methods: ['GET'],
    permission: 'auctions:view',
    summary: 'The campaigns on offer with their reach, and those launched',
    params: auctionParams,
    response: campaignsResponseSchema,
    handler: async ({ ctx, params }) => ({ json: await listCampaigns(ctx, params.id) }),
  }),
  httpRoute({
    name: 'auctions-campaigns-launch',
    route: 'auctions/{id}/campaigns',
    methods: ['POST'],
    permission: 'communications:email',
    summary: 'Launches a campaign: mails the bidders its trigger matches who have not opted out',
    params: auctionParams,
    body: campaignLaunchSchema,
    response: campaignSchema,
    handler: async ({ ctx, params, body }) => ({
      status: 201,
      json: toCampaign(await launchCampaign(ctx, params.id, body)),
    }),
  }),
];
