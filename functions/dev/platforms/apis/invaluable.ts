import { z } from 'zod';
import { currencies, type Currency } from '../../../src/auctions/auctions.schema.js';
import { json, type SandboxReply } from '../http.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from '../model.js';
import { auctionOf, pushAuction } from '../store.js';
import { changedSince, instantOf, major, minorOf, queryInt } from '../wire.js';
import { parseBody, type ApiContext, type PlatformApi } from './api.js';

/**
 * Invaluable: the key in the query (`?api_key=`); auctions are "catalogs" with "refs"; offset and
 * limit paging with a total; money as major-unit numbers (1250.5); times ISO 8601 in UTC; upper
 * case status words; the buyer's premium as a rate (0.25). A catalog's lots are a list of their
 * own, fetched page by page.
 */

const statusWords = {
  upcoming: 'PREVIEW',
  live: 'LIVE',
  closed: 'CLOSED',
  cancelled: 'WITHDRAWN',
} as const;
const saleTypes = { Live: 'LIVE', Online: 'TIMED', Hybrid: 'LIVE_AND_ONLINE' } as const;
const approvalWords = { approved: 'APPROVED', pending: 'PENDING', denied: 'DECLINED' } as const;

const iso = (ms: number) => new Date(ms).toISOString();

/** One page of a list, each item in the wire shape only once it is on the page. */
function offsetPage<T>(
  { request }: ApiContext,
  items: T[],
  view: (item: T) => unknown = (item) => item,
): SandboxReply {
  const offset = queryInt(request.url, 'offset', 0, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const limit = queryInt(request.url, 'limit', 50, { min: 1, max: 200 });
  return json(200, {
    total: items.length,
    offset,
    limit,
    results: items.slice(offset, offset + limit).map(view),
  });
}

const since = ({ request }: ApiContext) => {
  const value = request.url.searchParams.get('modifiedSince');
  return value ? instantOf(value, 'modifiedSince') : null;
};

const money = (minor: number | null, currency: Currency) =>
  minor === null ? null : major(minor, currency);

const summary = (auction: SandboxAuction) => ({
  catalogRef: auction.id,
  catalogTitle: auction.title,
  catalogStatus: statusWords[auction.status],
  eventDate: iso(auction.startsAt),
  closingDate: iso(auction.endsAt),
  lotCount: auction.lots.length,
  lastModified: iso(auction.updatedAt),
});

const detail = (auction: SandboxAuction) => ({
  ...summary(auction),
  catalogDescription: auction.description,
  saleType: saleTypes[auction.type],
  department: auction.category,
  currency: auction.currency,
  timeZoneId: auction.timeZone,
  buyersPremiumRate: Math.round(auction.buyersPremiumPercent * 100) / 10_000,
  venue: auction.location,
});

const result = (item: SandboxLot, currency: Currency) =>
  item.result && {
    sold: item.result.outcome === 'sold',
    hammerPrice: money(item.result.hammer, currency),
    buyerRef: item.result.buyerId,
  };

const lot = (item: SandboxLot, currency: Currency) => ({
  lotRef: item.id,
  lotNumber: item.lotNumber,
  lotTitle: item.title,
  lotDescription: item.description,
  department: item.category,
  estimateLow: money(item.estimateLow, currency),
  estimateHigh: money(item.estimateHigh, currency),
  reservePrice: money(item.reserve, currency),
  consignorName: item.consignor,
  result: result(item, currency),
});

const bidder = (person: SandboxBidder) => ({
  bidderRef: person.id,
  firstName: person.firstName,
  lastName: person.lastName,
  emailAddress: person.email,
  phoneNumber: person.phone,
  isActive: person.status === 'Active',
  lastBidDate: person.lastActive === null ? null : iso(person.lastActive),
  bidCount: person.totalBids,
  wonCount: person.totalWins,
  totalSpend: major(person.totalSpent, person.currency),
  currency: person.currency,
  lastModified: iso(person.updatedAt),
});

const amount = z.number().min(0).nullable();
const pushSchema = z.object({
  catalogTitle: z.string().min(1),
  catalogDescription: z.string(),
  saleType: z.enum(['LIVE', 'TIMED', 'LIVE_AND_ONLINE']),
  department: z.string().min(1),
  currency: z.enum(currencies),
  timeZoneId: z.string().min(1),
  buyersPremiumRate: z.number().min(0).max(1),
  venue: z.string().nullable(),
  eventDate: z.string(),
  closingDate: z.string(),
  lots: z.array(
    z.object({
      lotNumber: z.string().min(1),
      lotTitle: z.string().min(1),
      lotDescription: z.string(),
      department: z.string().nullable(),
      estimateLow: amount,
      estimateHigh: amount,
      reservePrice: amount,
      consignorName: z.string().nullable(),
    }),
  ),
});

function push(context: ApiContext, id: string | null): SandboxReply {
  const body = parseBody(pushSchema, context.request.body);
  const minor = (value: number | null, field: string) =>
    value === null ? null : minorOf(value, body.currency, field);
  const type = (Object.keys(saleTypes) as (keyof typeof saleTypes)[]).find(
    (key) => saleTypes[key] === body.saleType,
  ) as keyof typeof saleTypes;
  const auction = pushAuction(
    context.account,
    {
      title: body.catalogTitle,
      description: body.catalogDescription,
      type,
      category: body.department,
      currency: body.currency,
      timeZone: body.timeZoneId,
      startsAt: instantOf(body.eventDate, 'eventDate'),
      endsAt: instantOf(body.closingDate, 'closingDate'),
      buyersPremiumPercent: Math.round(body.buyersPremiumRate * 10_000) / 100,
      location: body.venue,
      lots: body.lots.map((item, index) => ({
        lotNumber: item.lotNumber,
        title: item.lotTitle,
        description: item.lotDescription,
        category: item.department,
        estimateLow: minor(item.estimateLow, `lots.${index}.estimateLow`),
        estimateHigh: minor(item.estimateHigh, `lots.${index}.estimateHigh`),
        reserve: minor(item.reservePrice, `lots.${index}.reservePrice`),
        consignor: item.consignorName,
      })),
    },
    id,
    context.request.body,
  );
  return json(id === null ? 201 : 200, {
    catalogRef: auction.id,
    lastModified: iso(auction.updatedAt),
  });
}

const error = (status: number, code: string, message: string) =>
  json(status, { status, code, message });

export const invaluable: PlatformApi = {
  platform: 'Invaluable',
  credential: (request) => request.url.searchParams.get('api_key') || null,
  answers: {
    // Invaluable answers a key past its end date with 403, not 401.
    expired: () => error(403, 'API_KEY_EXPIRED', 'This API key has expired.'),
    invalid: () => error(401, 'INVALID_API_KEY', 'Unknown API key.'),
    notFound: (what) => error(404, 'NOT_FOUND', `No ${what}.`),
    invalidRequest: (message) => error(400, 'BAD_REQUEST', message),
    serverError: () => error(500, 'INTERNAL', 'Internal error.'),
    unavailable: () => error(503, 'MAINTENANCE', 'The API is down for maintenance.'),
    rateLimited: () => ({
      ...error(429, 'QUOTA_EXCEEDED', 'Request quota exceeded.'),
      headers: { 'retry-after': '60' },
    }),
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/houses/me',
      handler: ({ account }) =>
        json(200, {
          houseRef: `H-${account.options.seed}`,
          houseName: account.name,
          country: 'US',
        }),
    },
    {
      method: 'GET',
      pattern: '/api/catalogs',
      handler: (context) =>
        offsetPage(context, changedSince(context.account.auctions, since(context)), summary),
    },
    { method: 'POST', pattern: '/api/catalogs', handler: (context) => push(context, null) },
    {
      method: 'GET',
      pattern: '/api/catalogs/:ref',
      handler: ({ account }, { ref = '' }) => json(200, detail(auctionOf(account, ref))),
    },
    {
      method: 'PUT',
      pattern: '/api/catalogs/:ref',
      handler: (context, { ref = '' }) => push(context, ref),
    },
    {
      method: 'GET',
      pattern: '/api/catalogs/:ref/lots',
      handler: (context, { ref = '' }) => {
        const auction = auctionOf(context.account, ref);
        return offsetPage(
          context,
          auction.lots.map((item) => lot(item, auction.currency)),
        );
      },
    },
    {
      method: 'GET',
      pattern: '/api/catalogs/:ref/registrations',
      handler: (context, { ref = '' }) =>
        offsetPage(
          context,
          auctionOf(context.account, ref).registrations.map((registration) => ({
            bidderRef: registration.bidderId,
            approval: approvalWords[registration.status],
            paddleNumber: registration.paddle,
            requestedAt: iso(registration.registeredAt),
          })),
        ),
    },
    {
      method: 'GET',
      pattern: '/api/catalogs/:ref/prices-realized',
      handler: (context, { ref = '' }) => {
        const auction = auctionOf(context.account, ref);
        return offsetPage(
          context,
          auction.lots.flatMap((item) =>
            item.result
              ? [{ lotRef: item.id, ...result(item, auction.currency), currency: auction.currency }]
              : [],
          ),
        );
      },
    },
    {
      method: 'GET',
      pattern: '/api/bidders',
      handler: (context) =>
        offsetPage(context, changedSince(context.account.bidders, since(context)), bidder),
    },
  ],
};
