import { z } from 'zod';
import { currencies } from '../../../src/auctions/auctions.schema.js';
import { SandboxInvalid, json, type SandboxReply } from '../http.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from '../model.js';
import { auctionOf, pushAuction } from '../store.js';
import { afterCursor, changedSince, epochSeconds, keysetCursor, queryInt } from '../wire.js';
import { parseBody, type ApiContext, type PlatformApi } from './api.js';

/**
 * BidWrangler: `Authorization: Bearer <key>`; snake_case, flat; prefixed string ids ("auc_…");
 * an opaque `next_cursor`; money as integer cents (`*_cents`); times as epoch seconds; currency
 * codes in lower case; the buyer's premium in basis points.
 */

const stateWords = {
  upcoming: 'scheduled',
  live: 'open',
  closed: 'closed',
  cancelled: 'cancelled',
} as const;
const formatWords = { Live: 'live', Online: 'timed', Hybrid: 'hybrid' } as const;
const registrationWords = { approved: 'approved', pending: 'pending', denied: 'rejected' } as const;

/** A cursor page of what changed after `updated_after`, oldest change first. */
function page<T extends { updatedAt: number; id: string }, V>(
  { request }: ApiContext,
  items: Map<string, T>,
  view: (item: T) => V,
  name: string,
): SandboxReply {
  const raw = request.url.searchParams.get('updated_after');
  if (raw !== null && !/^\d+$/.test(raw))
    throw new SandboxInvalid('updated_after must be epoch seconds');
  const limit = queryInt(request.url, 'limit', 20, { min: 1, max: 100 });
  const rest = afterCursor(
    changedSince(items, raw === null ? null : Number(raw) * 1000),
    request.url.searchParams.get('cursor'),
  );
  const chosen = rest.slice(0, limit);
  const last = chosen.at(-1);
  return json(200, {
    [name]: chosen.map(view),
    next_cursor: rest.length > limit && last ? keysetCursor(last) : null,
  });
}

/** Registrations have no change time of their own: their cursor is a plain position. */
function positionPage<V>({ request }: ApiContext, items: V[], name: string): SandboxReply {
  const limit = queryInt(request.url, 'limit', 20, { min: 1, max: 100 });
  const cursor = request.url.searchParams.get('cursor');
  const start = cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(start) || start < 0) throw new SandboxInvalid('cursor is not valid');
  const end = start + limit;
  return json(200, {
    [name]: items.slice(start, end),
    next_cursor: end < items.length ? Buffer.from(String(end)).toString('base64url') : null,
  });
}

const summary = (auction: SandboxAuction) => ({
  id: auction.id,
  name: auction.title,
  state: stateWords[auction.status],
  starts_at: epochSeconds(auction.startsAt),
  ends_at: epochSeconds(auction.endsAt),
  lot_count: auction.lots.length,
  updated_at: epochSeconds(auction.updatedAt),
});

const outcome = (item: SandboxLot) => ({
  outcome: item.result === null ? null : item.result.outcome === 'sold' ? 'sold' : 'unsold',
  hammer_cents: item.result?.hammer ?? null,
  buyer_id: item.result?.buyerId ?? null,
});

const lot = (item: SandboxLot) => ({
  id: item.id,
  number: item.lotNumber,
  name: item.title,
  details: item.description,
  category_slug: item.category,
  low_estimate_cents: item.estimateLow,
  high_estimate_cents: item.estimateHigh,
  reserve_cents: item.reserve,
  consignor_name: item.consignor,
  ...outcome(item),
});

const detail = (auction: SandboxAuction) => ({
  ...summary(auction),
  summary: auction.description,
  format: formatWords[auction.type],
  category_slug: auction.category,
  currency: auction.currency.toLowerCase(),
  timezone: auction.timeZone,
  premium_bps: Math.round(auction.buyersPremiumPercent * 100),
  location_name: auction.location,
  lots: auction.lots.map(lot),
});

const bidder = (person: SandboxBidder) => ({
  id: person.id,
  first_name: person.firstName,
  last_name: person.lastName,
  email: person.email,
  phone_e164: person.phone,
  active: person.status === 'Active',
  last_seen_at: person.lastActive === null ? null : epochSeconds(person.lastActive),
  bid_count: person.totalBids,
  win_count: person.totalWins,
  spent_cents: person.totalSpent,
  currency: person.currency.toLowerCase(),
  updated_at: epochSeconds(person.updatedAt),
});

const cents = z.number().int().min(0).nullable();
const pushSchema = z.object({
  name: z.string().min(1),
  summary: z.string(),
  format: z.enum(['live', 'timed', 'hybrid']),
  category_slug: z.string().min(1),
  currency: z.enum(currencies.map((code) => code.toLowerCase()) as [string, ...string[]]),
  timezone: z.string().min(1),
  premium_bps: z.number().int().min(0).max(10_000),
  location_name: z.string().nullable(),
  starts_at: z.number().int().positive(),
  ends_at: z.number().int().positive(),
  lots: z.array(
    z.object({
      number: z.string().min(1),
      name: z.string().min(1),
      details: z.string(),
      category_slug: z.string().nullable(),
      low_estimate_cents: cents,
      high_estimate_cents: cents,
      reserve_cents: cents,
      consignor_name: z.string().nullable(),
    }),
  ),
});

function push(context: ApiContext, id: string | null): SandboxReply {
  const body = parseBody(pushSchema, context.request.body);
  const type = (Object.keys(formatWords) as (keyof typeof formatWords)[]).find(
    (key) => formatWords[key] === body.format,
  ) as keyof typeof formatWords;
  const auction = pushAuction(
    context.account,
    {
      title: body.name,
      description: body.summary,
      type,
      category: body.category_slug,
      currency: body.currency.toUpperCase() as (typeof currencies)[number],
      timeZone: body.timezone,
      startsAt: body.starts_at * 1000,
      endsAt: body.ends_at * 1000,
      buyersPremiumPercent: body.premium_bps / 100,
      location: body.location_name,
      lots: body.lots.map((item) => ({
        lotNumber: item.number,
        title: item.name,
        description: item.details,
        category: item.category_slug,
        estimateLow: item.low_estimate_cents,
        estimateHigh: item.high_estimate_cents,
        reserve: item.reserve_cents,
        consignor: item.consignor_name,
      })),
    },
    id,
    context.request.body,
  );
  return json(id === null ? 201 : 200, {
    id: auction.id,
    updated_at: epochSeconds(auction.updatedAt),
  });
}

const bearerError = (status: number, code: string, description: string): SandboxReply => ({
  status,
  body: { error: code, error_description: description },
  headers: {
    'www-authenticate': `Bearer realm="bidwrangler", error="${code}", error_description="${description}"`,
  },
});

export const bidwrangler: PlatformApi = {
  platform: 'BidWrangler',
  credential: (request) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    return match?.[1] ?? null;
  },
  answers: {
    expired: () => bearerError(401, 'invalid_token', 'The access token expired'),
    invalid: () => bearerError(401, 'invalid_token', 'The access token is invalid'),
    notFound: (what) => json(404, { error: 'not_found', error_description: `No ${what}` }),
    invalidRequest: (message) =>
      json(422, { error: 'invalid_request', error_description: message }),
    serverError: () =>
      json(500, { error: 'server_error', error_description: 'Something went wrong' }),
    unavailable: () =>
      json(
        503,
        { error: 'temporarily_unavailable', error_description: 'Down for maintenance' },
        {
          'retry-after': '60',
        },
      ),
    rateLimited: () =>
      json(
        429,
        { error: 'rate_limited', error_description: 'Slow down' },
        {
          'retry-after': '10',
          'x-ratelimit-remaining': '0',
        },
      ),
  },
  routes: [
    {
      method: 'GET',
      pattern: '/v1/me',
      handler: ({ account }) =>
        json(200, {
          house_id: `hs_${account.options.seed.toString(36)}`,
          house_name: account.name,
        }),
    },
    {
      method: 'GET',
      pattern: '/v1/auctions',
      handler: (context) => page(context, context.account.auctions, summary, 'auctions'),
    },
    { method: 'POST', pattern: '/v1/auctions', handler: (context) => push(context, null) },
    {
      method: 'GET',
      pattern: '/v1/auctions/:id',
      handler: ({ account }, { id = '' }) => json(200, detail(auctionOf(account, id))),
    },
    {
      method: 'PUT',
      pattern: '/v1/auctions/:id',
      handler: (context, { id = '' }) => push(context, id),
    },
    {
      method: 'GET',
      pattern: '/v1/auctions/:id/registrations',
      handler: (context, { id = '' }) =>
        positionPage(
          context,
          auctionOf(context.account, id).registrations.map((registration) => ({
            bidder_id: registration.bidderId,
            state: registrationWords[registration.status],
            paddle: registration.paddle === null ? null : Number(registration.paddle),
            created_at: epochSeconds(registration.registeredAt),
          })),
          'registrations',
        ),
    },
    {
      method: 'GET',
      pattern: '/v1/auctions/:id/results',
      handler: ({ account }, { id = '' }) =>
        json(200, {
          results: auctionOf(account, id).lots.flatMap((item) =>
            item.result ? [{ lot_id: item.id, ...outcome(item) }] : [],
          ),
        }),
    },
    {
      method: 'GET',
      pattern: '/v1/bidders',
      handler: (context) => page(context, context.account.bidders, bidder, 'bidders'),
    },
  ],
};
