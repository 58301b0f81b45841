import { z } from 'zod';
import { currencies, type Currency } from '../../../src/auctions/auctions.schema.js';
import { json, text, type SandboxReply } from '../http.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from '../model.js';
import { auctionOf, pushAuction } from '../store.js';
import { changedSince, decimal, fromWallClock, minorOf, queryInt, wallClock } from '../wire.js';
import { gatewayUnavailable, parseBody, type ApiContext, type PlatformApi } from './api.js';

/**
 * Auction.zip: `Authorization: Token token="<key>"`; snake_case; numeric ids; page/per_page paging
 * with the next page in a `Link` header and a bare array as the body; money as decimal strings,
 * "" for none; a sale's times as wall-clock "2026-05-01 10:00:00" in its `time_zone`, every other
 * time the same way in UTC; the buyer's premium as "18%".
 */

const UTC = 'UTC';
const statusWords = {
  upcoming: 'pending',
  live: 'active',
  closed: 'complete',
  cancelled: 'void',
} as const;
const typeWords = { Live: 'Live Onsite', Online: 'Online Only', Hybrid: 'Live + Online' } as const;

/** One page of a list, each item in the wire shape only once it is on the page. */
function linkPaged<T>(
  { request, base }: ApiContext,
  items: T[],
  view: (item: T) => unknown = (item) => item,
): SandboxReply {
  const page = queryInt(request.url, 'page', 1, { min: 1, max: 1_000_000 });
  const perPage = queryInt(request.url, 'per_page', 25, { min: 1, max: 100 });
  const headers: Record<string, string> = { 'x-total-count': String(items.length) };
  if (page * perPage < items.length) {
    const next = new URL(`${base}${request.url.pathname.replace(/^\/[^/]+/, '')}`);
    next.search = request.url.search;
    next.searchParams.delete('page');
    next.searchParams.set('page', String(page + 1));
    headers.link = `<${next.toString()}>; rel="next"`;
  }
  return json(200, items.slice((page - 1) * perPage, page * perPage).map(view), headers);
}

const since = ({ request }: ApiContext) => {
  const value = request.url.searchParams.get('since');
  return value ? fromWallClock(value, UTC, 'since') : null;
};

const money = (minor: number | null, currency: Currency) =>
  minor === null ? '' : decimal(minor, currency);

const summary = (auction: SandboxAuction) => ({
  auction_id: Number(auction.id),
  auction_title: auction.title,
  status: statusWords[auction.status],
  start_time: wallClock(auction.startsAt, auction.timeZone),
  end_time: wallClock(auction.endsAt, auction.timeZone),
  time_zone: auction.timeZone,
  lot_count: auction.lots.length,
  updated_at: wallClock(auction.updatedAt, UTC),
});

const sale = (item: SandboxLot, currency: Currency) => ({
  status: item.result === null ? 'open' : item.result.outcome,
  hammer_price: item.result?.hammer == null ? null : decimal(item.result.hammer, currency),
  buyer_id: item.result?.buyerId == null ? null : Number(item.result.buyerId),
});

const lot = (item: SandboxLot, currency: Currency) => ({
  lot_id: Number(item.id),
  lot_number: item.lotNumber,
  lot_title: item.title,
  lot_description: item.description,
  category: item.category ?? '',
  low_estimate: money(item.estimateLow, currency),
  high_estimate: money(item.estimateHigh, currency),
  reserve: money(item.reserve, currency),
  consignor: item.consignor ?? '',
  ...sale(item, currency),
});

const detail = (auction: SandboxAuction) => ({
  ...summary(auction),
  auction_description: auction.description,
  auction_type: typeWords[auction.type],
  category: auction.category,
  currency_code: auction.currency,
  buyers_premium: `${auction.buyersPremiumPercent}%`,
  address: auction.location ?? '',
  lots: auction.lots.map((item) => lot(item, auction.currency)),
});

const bidder = (person: SandboxBidder) => ({
  bidder_id: Number(person.id),
  first_name: person.firstName,
  last_name: person.lastName,
  email: person.email ?? '',
  phone: person.phone ?? '',
  status: person.status === 'Active' ? 'active' : 'inactive',
  last_login: person.lastActive === null ? null : wallClock(person.lastActive, UTC),
  bids: person.totalBids,
  wins: person.totalWins,
  total_spent: decimal(person.totalSpent, person.currency),
  currency_code: person.currency,
  updated_at: wallClock(person.updatedAt, UTC),
});

const amount = z.union([z.literal(''), z.string().regex(/^\d+(\.\d+)?$/, 'must be like 1250.00')]);
const pushSchema = z.object({
  auction_title: z.string().min(1),
  auction_description: z.string(),
  auction_type: z.enum(Object.values(typeWords) as [string, ...string[]]),
  category: z.string().min(1),
  currency_code: z.enum(currencies),
  time_zone: z.string().min(1),
  buyers_premium: z.string().regex(/^\d+(\.\d+)?%$/, 'must be like 18%'),
  address: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  lots: z.array(
    z.object({
      lot_number: z.string().min(1),
      lot_title: z.string().min(1),
      lot_description: z.string(),
      category: z.string(),
      low_estimate: amount,
      high_estimate: amount,
      reserve: amount,
      consignor: z.string(),
    }),
  ),
});

function push(context: ApiContext, id: string | null): SandboxReply {
  const body = parseBody(pushSchema, context.request.body);
  const minor = (value: string, field: string) =>
    value === '' ? null : minorOf(value, body.currency_code, field);
  const type = (Object.keys(typeWords) as (keyof typeof typeWords)[]).find(
    (key) => typeWords[key] === body.auction_type,
  ) as keyof typeof typeWords;
  const auction = pushAuction(
    context.account,
    {
      title: body.auction_title,
      description: body.auction_description,
      type,
      category: body.category,
      currency: body.currency_code,
      timeZone: body.time_zone,
      startsAt: fromWallClock(body.start_time, body.time_zone, 'start_time'),
      endsAt: fromWallClock(body.end_time, body.time_zone, 'end_time'),
      buyersPremiumPercent: Number(body.buyers_premium.slice(0, -1)),
      location: body.address || null,
      lots: body.lots.map((item, index) => ({
        lotNumber: item.lot_number,
        title: item.lot_title,
        description: item.lot_description,
        category: item.category || null,
        estimateLow: minor(item.low_estimate, `lots.${index}.low_estimate`),
        estimateHigh: minor(item.high_estimate, `lots.${index}.high_estimate`),
        reserve: minor(item.reserve, `lots.${index}.reserve`),
        consignor: item.consignor || null,
      })),
    },
    id,
    context.request.body,
  );
  return json(id === null ? 201 : 200, {
    success: true,
    auction_id: Number(auction.id),
    updated_at: wallClock(auction.updatedAt, UTC),
  });
}

const failure = (status: number, code: number, message: string) =>
  json(status, { success: false, error_code: code, error: message });

const PREFIX = '/api/1.0';

export const auctionzip: PlatformApi = {
  platform: 'Auction.zip',
  credential: (request) => {
    const match = /^Token\s+token="([^"]+)"$/i.exec(request.headers.authorization ?? '');
    return match?.[1] ?? null;
  },
  answers: {
    expired: () => failure(401, 1002, 'API key has expired'),
    invalid: () => failure(401, 1001, 'Invalid API key'),
    notFound: (what) => failure(404, 404, `Not found: ${what}`),
    invalidRequest: (message) => failure(422, 422, message),
    serverError: () => text(500, 'Internal Server Error'),
    unavailable: gatewayUnavailable,
    rateLimited: () => failure(429, 429, 'Rate limit exceeded'),
  },
  routes: [
    {
      method: 'GET',
      pattern: `${PREFIX}/account.json`,
      handler: ({ account }) =>
        json(200, {
          auctioneer_id: 4_400 + account.options.seed,
          company: account.name,
          license: `MA-AUC-${account.options.seed}`,
        }),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions.json`,
      handler: (context) =>
        linkPaged(context, changedSince(context.account.auctions, since(context)), summary),
    },
    {
      method: 'POST',
      pattern: `${PREFIX}/auctions.json`,
      handler: (context) => push(context, null),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions/:id.json`,
      handler: ({ account }, { id = '' }) => json(200, detail(auctionOf(account, id))),
    },
    {
      method: 'PUT',
      pattern: `${PREFIX}/auctions/:id.json`,
      handler: (context, { id = '' }) => push(context, id),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions/:id/registrations.json`,
      handler: (context, { id = '' }) =>
        linkPaged(
          context,
          auctionOf(context.account, id).registrations.map((registration) => ({
            bidder_id: Number(registration.bidderId),
            status: registration.status,
            paddle: registration.paddle,
            registered_at: wallClock(registration.registeredAt, UTC),
          })),
        ),
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/auctions/:id/results.json`,
      handler: ({ account }, { id = '' }) => {
        const auction = auctionOf(account, id);
        return json(
          200,
          auction.lots.flatMap((item) =>
            item.result
              ? [
                  {
                    lot_id: Number(item.id),
                    ...sale(item, auction.currency),
                    currency_code: auction.currency,
                  },
                ]
              : [],
          ),
        );
      },
    },
    {
      method: 'GET',
      pattern: `${PREFIX}/bidders.json`,
      handler: (context) =>
        linkPaged(context, changedSince(context.account.bidders, since(context)), bidder),
    },
  ],
};
