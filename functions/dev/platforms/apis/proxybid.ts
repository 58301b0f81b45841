import { z } from 'zod';
import { currencies, type Currency } from '../../../src/auctions/auctions.schema.js';
import { json, type SandboxReply } from '../http.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from '../model.js';
import { auctionOf, pushAuction } from '../store.js';
import { changedSince, decimal, instantOf, isoIn, minorOf, queryInt } from '../wire.js';
import { gatewayUnavailable, parseBody, type ApiContext, type PlatformApi } from './api.js';

/**
 * ProxyBid: `X-Api-Key` header; camelCase, nested objects; numeric ids; page/pageSize paging with
 * a `pagination` block; money as major-unit decimal strings ("1250.00"); times ISO 8601 with the
 * offset of the sale's zone (the platform's own, Central, for everything else).
 */

const HOME_ZONE = 'America/Chicago';
const statusWords = {
  upcoming: 'Upcoming',
  live: 'Open',
  closed: 'Closed',
  cancelled: 'Canceled',
} as const;
const typeWords = { Live: 'Live Webcast', Online: 'Timed Online', Hybrid: 'Live & Timed' } as const;
const approvalWords = { approved: 'Approved', pending: 'Pending', denied: 'Declined' } as const;

const error = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });

/** One page of a list, each item in the wire shape only once it is on the page. */
function paged<T>(
  { request }: ApiContext,
  items: T[],
  view: (item: T) => unknown = (item) => item,
): SandboxReply {
  const page = queryInt(request.url, 'page', 1, { min: 1, max: 1_000_000 });
  const pageSize = queryInt(request.url, 'pageSize', 25, { min: 1, max: 100 });
  return json(200, {
    data: items.slice((page - 1) * pageSize, page * pageSize).map(view),
    pagination: {
      page,
      pageSize,
      totalItems: items.length,
      totalPages: Math.max(1, Math.ceil(items.length / pageSize)),
    },
  });
}

const since = ({ request }: ApiContext) => {
  const value = request.url.searchParams.get('modifiedSince');
  return value ? instantOf(value, 'modifiedSince') : null;
};

const money = (minor: number | null, currency: Currency) =>
  minor === null ? null : decimal(minor, currency);

const summary = (auction: SandboxAuction) => ({
  auctionId: Number(auction.id),
  title: auction.title,
  status: statusWords[auction.status],
  schedule: {
    startTime: isoIn(auction.startsAt, auction.timeZone),
    endTime: isoIn(auction.endsAt, auction.timeZone),
  },
  lotCount: auction.lots.length,
  lastModified: isoIn(auction.updatedAt, HOME_ZONE),
});

const lot = (item: SandboxLot, currency: Currency) => ({
  lotId: Number(item.id),
  lotNumber: item.lotNumber,
  title: item.title,
  description: item.description,
  category: item.category,
  estimate:
    item.estimateLow === null && item.estimateHigh === null
      ? null
      : { low: money(item.estimateLow, currency), high: money(item.estimateHigh, currency) },
  reservePrice: money(item.reserve, currency),
  consignor: item.consignor === null ? null : { name: item.consignor },
  sale: item.result && {
    status: item.result.outcome === 'sold' ? 'Sold' : 'Passed',
    hammerPrice: money(item.result.hammer, currency),
    winningBidderId: item.result.buyerId === null ? null : Number(item.result.buyerId),
  },
});

const detail = (auction: SandboxAuction) => ({
  ...summary(auction),
  description: auction.description,
  auctionType: typeWords[auction.type],
  category: auction.category,
  currencyCode: auction.currency,
  timeZone: auction.timeZone,
  buyersPremium: auction.buyersPremiumPercent.toFixed(2),
  location: auction.location,
  lots: auction.lots.map((item) => lot(item, auction.currency)),
});

const bidder = (person: SandboxBidder) => ({
  bidderId: Number(person.id),
  name: { first: person.firstName, last: person.lastName },
  contact: { email: person.email, phone: person.phone },
  accountStatus: person.status === 'Active' ? 'Active' : 'Disabled',
  lastActivity: person.lastActive === null ? null : isoIn(person.lastActive, HOME_ZONE),
  stats: {
    bidsPlaced: person.totalBids,
    lotsWon: person.totalWins,
    totalPurchases: decimal(person.totalSpent, person.currency),
  },
  currencyCode: person.currency,
  lastModified: isoIn(person.updatedAt, HOME_ZONE),
});

const amount = z.string().regex(/^\d+(\.\d+)?$/, 'must be an amount like 1250.00');
const pushSchema = z.object({
  title: z.string().min(1),
  description: z.string(),
  auctionType: z.enum(Object.values(typeWords) as [string, ...string[]]),
  category: z.string().min(1),
  currencyCode: z.enum(currencies),
  timeZone: z.string().min(1),
  buyersPremium: amount,
  location: z.string().nullable(),
  schedule: z.object({ startTime: z.string(), endTime: z.string() }),
  lots: z.array(
    z.object({
      lotNumber: z.string().min(1),
      title: z.string().min(1),
      description: z.string(),
      category: z.string().nullable(),
      estimate: z.object({ low: amount.nullable(), high: amount.nullable() }).nullable(),
      reservePrice: amount.nullable(),
      consignor: z.object({ name: z.string().min(1) }).nullable(),
    }),
  ),
});

function push(context: ApiContext, id: string | null): SandboxReply {
  const body = parseBody(pushSchema, context.request.body);
  const currency = body.currencyCode;
  const minor = (value: string | null, field: string) =>
    value === null ? null : minorOf(value, currency, field);
  const type = (Object.keys(typeWords) as (keyof typeof typeWords)[]).find(
    (key) => typeWords[key] === body.auctionType,
  ) as keyof typeof typeWords;
  const auction = pushAuction(
    context.account,
    {
      title: body.title,
      description: body.description,
      type,
      category: body.category,
      currency,
      timeZone: body.timeZone,
      startsAt: instantOf(body.schedule.startTime, 'schedule.startTime'),
      endsAt: instantOf(body.schedule.endTime, 'schedule.endTime'),
      buyersPremiumPercent: Number(body.buyersPremium),
      location: body.location,
      lots: body.lots.map((item, index) => ({
        lotNumber: item.lotNumber,
        title: item.title,
        description: item.description,
        category: item.category,
        estimateLow: minor(item.estimate?.low ?? null, `lots.${index}.estimate.low`),
        estimateHigh: minor(item.estimate?.high ?? null, `lots.${index}.estimate.high`),
        reserve: minor(item.reservePrice, `lots.${index}.reservePrice`),
        consignor: item.consignor?.name ?? null,
      })),
    },
    id,
    context.request.body,
  );
  return json(id === null ? 201 : 200, {
    auctionId: Number(auction.id),
    lastModified: isoIn(auction.updatedAt, HOME_ZONE),
  });
}

const PREFIX = '/api/v2';

export const proxybid: PlatformApi = {
  platform: 'ProxyBid',
  credential: (request) => {
    const key = request.headers['x-api-key'];
    return typeof key === 'string' && key ? key : null;
  },
  answers: {
    expired: () =>
      error(
        401,
        'API_KEY_EXPIRED',
        'Your API key has expired. Generate a new key in Seller Tools.',
      ),
    invalid: () => error(401, 'INVALID_API_KEY', 'The API key is not valid.'),
    notFound: (what) => error(404, 'NOT_FOUND', `No ${what}.`),
    invalidRequest: (message) => error(400, 'VALIDATION_FAILED', message),
    serverError: () => error(500, 'INTERNAL_ERROR', 'An unexpected error occurred.'),
    unavailable: gatewayUnavailable,
    rateLimited: () => ({
      ...error(429, 'RATE_LIMITED', 'Too many requests.'),
      headers: { 'retry-after': '30' },
    }),
  },
  routes: [
    {
      method: 'GET',
      pattern: `${PREFIX}/account`,
      handler: ({ account }) =>
        json(200, {
          accountId: `PB-${account.options.seed}`,
          companyName: account.name,
          status: 'Active',
        }),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions`,
      handler: (context) =>
        paged(context, changedSince(context.account.auctions, since(context)), summary),
    },
    {
      method: 'POST',
      pattern: `${PREFIX}/auctions`,
      handler: (context) => push(context, null),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions/:id`,
      handler: ({ account }, { id = '' }) => json(200, detail(auctionOf(account, id))),
    },
    {
      method: 'PUT',
      pattern: `${PREFIX}/auctions/:id`,
      handler: (context, { id = '' }) => push(context, id),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions/:id/registrations`,
      handler: (context, { id = '' }) =>
        paged(
          context,
          auctionOf(context.account, id).registrations.map((registration) => ({
            bidderId: Number(registration.bidderId),
            approvalStatus: approvalWords[registration.status],
            paddleNumber: registration.paddle,
            registeredOn: isoIn(registration.registeredAt, HOME_ZONE),
          })),
        ),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions/:id/results`,
      handler: ({ account }, { id = '' }) => {
        const auction = auctionOf(account, id);
        return json(200, {
          currencyCode: auction.currency,
          data: auction.lots.flatMap((item) =>
            item.result ? [{ lotId: Number(item.id), ...lot(item, auction.currency).sale }] : [],
          ),
        });
      },
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/bidders`,
      handler: (context) =>
        paged(context, changedSince(context.account.bidders, since(context)), bidder),
    },
  ],
};
