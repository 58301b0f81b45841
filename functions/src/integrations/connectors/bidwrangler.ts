import { z } from 'zod';
import { platformCategoryOf } from './categories.js';
import type {
  ConnectorOptions,
  PlatformAuctionSummary,
  PlatformBidder,
  PlatformConnector,
  PlatformLot,
  PlatformLotResult,
  PushedAuction,
} from './connector.js';
import { PAGE_SIZE, allPages, currencyCode, epochSeconds, wireClient } from './wire.js';

/**
 * BidWrangler's API v1: `Authorization: Bearer`; snake_case, flat; string ids; an opaque
 * `next_cursor`; money in integer cents; times in epoch seconds; lower-case currency codes; the
 * buyer's premium in basis points. An expired token is a 401 whose `error_description` (and
 * WWW-Authenticate) says it expired.
 */

const PLATFORM = 'BidWrangler';
const cents = z.number().int().min(0).nullable();

const states = {
  scheduled: 'upcoming',
  open: 'live',
  closed: 'closed',
  cancelled: 'cancelled',
} as const;
const formats = { live: 'Live', timed: 'Online', hybrid: 'Hybrid' } as const;
const formatWords = { Live: 'live', Online: 'timed', Hybrid: 'hybrid' } as const;
const registrationStates = {
  approved: 'approved',
  pending: 'pending',
  rejected: 'denied',
} as const;

const summarySchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(Object.keys(states) as [keyof typeof states]),
  starts_at: epochSeconds,
  ends_at: epochSeconds,
  lot_count: z.number().int().min(0),
  updated_at: epochSeconds,
});

const outcomeSchema = z.object({
  outcome: z.enum(['sold', 'unsold']).nullable(),
  hammer_cents: cents,
  buyer_id: z.string().nullable(),
});

const lotSchema = outcomeSchema.extend({
  id: z.string(),
  number: z.string(),
  name: z.string(),
  details: z.string(),
  category_slug: z.string().nullable(),
  low_estimate_cents: cents,
  high_estimate_cents: cents,
  reserve_cents: cents,
  consignor_name: z.string().nullable(),
});

const detailSchema = summarySchema.extend({
  summary: z.string(),
  format: z.enum(Object.keys(formats) as [keyof typeof formats]),
  category_slug: z.string().nullable(),
  currency: currencyCode,
  timezone: z.string().nullable(),
  premium_bps: z.number().int().min(0).nullable(),
  location_name: z.string().nullable(),
  lots: z.array(lotSchema),
});

const bidderSchema = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  phone_e164: z.string().nullable(),
  active: z.boolean(),
  last_seen_at: epochSeconds.nullable(),
  bid_count: z.number().int().min(0),
  win_count: z.number().int().min(0),
  spent_cents: z.number().int().min(0),
  currency: currencyCode,
  updated_at: epochSeconds,
});

const registrationSchema = z.object({
  bidder_id: z.string(),
  state: z.enum(Object.keys(registrationStates) as [keyof typeof registrationStates]),
  paddle: z.number().int().nullable(),
  created_at: epochSeconds,
});

const next_cursor = z.string().nullable();
const auctionsPage = z.object({ auctions: z.array(summarySchema), next_cursor });
const biddersPage = z.object({ bidders: z.array(bidderSchema), next_cursor });
const registrationsPage = z.object({ registrations: z.array(registrationSchema), next_cursor });

/** Epoch seconds for `updated_after`; a fraction is dropped, so nothing changed in that second is missed. */
const secondsOf = (iso: string | null) =>
  iso === null ? null : Math.floor(Date.parse(iso) / 1000);

function resultOf(item: z.infer<typeof outcomeSchema>): PlatformLotResult | null {
  if (item.outcome === null) return null;
  return {
    outcome: item.outcome === 'sold' ? 'sold' : 'passed',
    hammer: item.hammer_cents,
    buyerExternalId: item.buyer_id,
  };
}

export function createBidWranglerConnector(options: ConnectorOptions): PlatformConnector {
  const client = wireClient({
    platform: PLATFORM,
    options,
    authorize: (_url, headers) =>
      headers.set('authorization', `Bearer ${options.credentials.apiKey}`),
    isExpired: (_status, body, headers) =>
      /expired/i.test(headers.get('www-authenticate') ?? '') ||
      z.object({ error_description: z.string().regex(/expired/i) }).safeParse(body).success,
  });

  const summaryOf = (item: z.infer<typeof summarySchema>): PlatformAuctionSummary => ({
    externalId: item.id,
    title: item.name,
    status: states[item.state],
    startsAt: item.starts_at,
    endsAt: item.ends_at,
    lotCount: item.lot_count,
    updatedAt: item.updated_at,
  });

  const lotOf = (item: z.infer<typeof lotSchema>): PlatformLot => ({
    externalId: item.id,
    lotNumber: item.number,
    title: item.name,
    description: item.details,
    category: item.category_slug,
    estimateLow: item.low_estimate_cents,
    estimateHigh: item.high_estimate_cents,
    reserve: item.reserve_cents,
    consignor: item.consignor_name,
    result: resultOf(item),
  });

  const bidderOf = (item: z.infer<typeof bidderSchema>): PlatformBidder => ({
    externalId: item.id,
    firstName: item.first_name,
    lastName: item.last_name,
    email: item.email,
    phone: item.phone_e164,
    status: item.active ? 'Active' : 'Inactive',
    lastActive: item.last_seen_at,
    totalBids: item.bid_count,
    totalWins: item.win_count,
    totalSpent: item.spent_cents,
    currency: item.currency,
    updatedAt: item.updated_at,
  });

  const wireOf = (auction: PushedAuction) => ({
    name: auction.title,
    summary: auction.description,
    format: formatWords[auction.type],
    category_slug: platformCategoryOf(PLATFORM, 'auction', auction.category),
    currency: auction.currency.toLowerCase(),
    timezone: auction.timeZone,
    premium_bps: Math.round(auction.buyersPremiumPercent * 100),
    location_name: auction.location,
    starts_at: Math.floor(Date.parse(auction.startsAt) / 1000),
    ends_at: Math.floor(Date.parse(auction.endsAt) / 1000),
    lots: auction.lots.map((item) => ({
      number: item.lotNumber,
      name: item.title,
      details: item.description,
      category_slug:
        item.category === null ? null : platformCategoryOf(PLATFORM, 'lot', item.category),
      low_estimate_cents: item.estimateLow,
      high_estimate_cents: item.estimateHigh,
      reserve_cents: item.reserve,
      consignor_name: item.consignor,
    })),
  });

  return {
    platform: PLATFORM,

    async testCredentials() {
      const { data } = await client.call({ path: '/v1/me' }, z.object({ house_name: z.string() }));
      return { accountName: data.house_name };
    },

    async listAuctions(cursor, since) {
      const { data } = await client.call(
        {
          path: '/v1/auctions',
          query: { limit: PAGE_SIZE, cursor, updated_after: secondsOf(since) },
        },
        auctionsPage,
      );
      return { items: data.auctions.map(summaryOf), next: data.next_cursor };
    },

    async fetchAuction(externalId) {
      const { data } = await client.call(
        { path: `/v1/auctions/${encodeURIComponent(externalId)}` },
        detailSchema,
      );
      return {
        ...summaryOf(data),
        description: data.summary,
        type: formats[data.format],
        category: data.category_slug,
        currency: data.currency,
        timeZone: data.timezone,
        buyersPremiumPercent: data.premium_bps === null ? null : data.premium_bps / 100,
        location: data.location_name,
        lots: data.lots.map(lotOf),
      };
    },

    async listBidders(cursor, since) {
      const { data } = await client.call(
        {
          path: '/v1/bidders',
          query: { limit: PAGE_SIZE, cursor, updated_after: secondsOf(since) },
        },
        biddersPage,
      );
      return { items: data.bidders.map(bidderOf), next: data.next_cursor };
    },

    async pushAuction(auction, externalId) {
      const { data } = await client.call(
        externalId === null
          ? { method: 'POST', path: '/v1/auctions', body: wireOf(auction) }
          : {
              method: 'PUT',
              path: `/v1/auctions/${encodeURIComponent(externalId)}`,
              body: wireOf(auction),
            },
        z.object({ id: z.string(), updated_at: epochSeconds }),
      );
      return { externalId: data.id, updatedAt: data.updated_at };
    },

    async pullRegistrations(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          {
            path: `/v1/auctions/${encodeURIComponent(externalId)}/registrations`,
            query: { limit: PAGE_SIZE, cursor },
          },
          registrationsPage,
        );
        return {
          items: data.registrations.map((item) => ({
            bidderExternalId: item.bidder_id,
            status: registrationStates[item.state],
            paddle: item.paddle === null ? null : String(item.paddle),
            registeredAt: item.created_at,
          })),
          next: data.next_cursor,
        };
      });
    },

    async pullResults(externalId) {
      const { data } = await client.call(
        { path: `/v1/auctions/${encodeURIComponent(externalId)}/results` },
        z.object({ results: z.array(outcomeSchema.extend({ lot_id: z.string() })) }),
      );
      return data.results.flatMap((item) => {
        const result = resultOf(item);
        return result ? [{ lotExternalId: item.lot_id, ...result }] : [];
      });
    },
  };
}
