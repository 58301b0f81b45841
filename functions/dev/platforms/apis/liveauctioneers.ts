import { z } from 'zod';
import { currencies } from '../../../src/auctions/auctions.schema.js';
import { SandboxInvalid, type SandboxReply } from '../http.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from '../model.js';
import { auctionOf, pushAuction } from '../store.js';
import { afterCursor, changedSince, keysetCursor, queryInt } from '../wire.js';
import { gatewayUnavailable, parseBody, type ApiContext, type PlatformApi } from './api.js';

/**
 * LiveAuctioneers: HTTP Basic with the key as the user name; JSON:API documents (`data`,
 * `attributes` in kebab-case, `relationships`, `included`, `links.next`); keyset paging with
 * `page[after]` and `page[size]`; `filter[updated_since]` in epoch milliseconds; money in cents;
 * times in epoch milliseconds. A catalog's lots come as included resources.
 */

const JSON_API = 'application/vnd.api+json';
const statusWords = {
  upcoming: 'upcoming',
  live: 'live',
  closed: 'past',
  cancelled: 'cancelled',
} as const;
const saleTypes = {
  Live: 'live-auction',
  Online: 'timed-auction',
  Hybrid: 'live-and-timed',
} as const;
const registrationWords = { approved: 'approved', pending: 'pending', denied: 'declined' } as const;

const document = (
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): SandboxReply => ({
  status,
  body,
  contentType: JSON_API,
  ...(headers ? { headers } : {}),
});

function page<T extends { updatedAt: number; id: string }>(
  { request, base }: ApiContext,
  items: Map<string, T>,
  resource: (item: T) => unknown,
): SandboxReply {
  const raw = request.url.searchParams.get('filter[updated_since]');
  if (raw !== null && !/^\d+$/.test(raw)) {
    throw new SandboxInvalid('filter[updated_since] must be epoch milliseconds');
  }
  const size = queryInt(request.url, 'page[size]', 25, { min: 1, max: 50 });
  const rest = afterCursor(
    changedSince(items, raw === null ? null : Number(raw)),
    request.url.searchParams.get('page[after]'),
  );
  const chosen = rest.slice(0, size);
  const last = chosen.at(-1);
  let next: string | null = null;
  if (rest.length > size && last) {
    const url = new URL(`${base}${request.url.pathname.replace(/^\/[^/]+/, '')}`);
    url.search = request.url.search;
    url.searchParams.set('page[after]', keysetCursor(last));
    next = url.toString();
  }
  return document(200, { data: chosen.map(resource), links: { next } });
}

const catalogAttributes = (auction: SandboxAuction) => ({
  title: auction.title,
  status: statusWords[auction.status],
  'start-ms': auction.startsAt,
  'end-ms': auction.endsAt,
  'lot-count': auction.lots.length,
  'updated-ms': auction.updatedAt,
});

const catalog = (auction: SandboxAuction) => ({
  type: 'catalog',
  id: auction.id,
  attributes: catalogAttributes(auction),
});

const outcome = (item: SandboxLot) => ({
  result: item.result === null ? null : item.result.outcome === 'sold' ? 'sold' : 'unsold',
  'hammer-cents': item.result?.hammer ?? null,
});

const lot = (item: SandboxLot) => ({
  type: 'lot',
  id: item.id,
  attributes: {
    'lot-number': item.lotNumber,
    title: item.title,
    description: item.description,
    category: item.category,
    'estimate-low-cents': item.estimateLow,
    'estimate-high-cents': item.estimateHigh,
    'reserve-cents': item.reserve,
    consignor: item.consignor,
    ...outcome(item),
  },
  relationships: {
    'winning-bidder': {
      data: item.result?.buyerId ? { type: 'bidder', id: item.result.buyerId } : null,
    },
  },
});

const detail = (auction: SandboxAuction) => ({
  data: {
    ...catalog(auction),
    attributes: {
      ...catalogAttributes(auction),
      description: auction.description,
      'sale-type': saleTypes[auction.type],
      category: auction.category,
      currency: auction.currency,
      'time-zone': auction.timeZone,
      'buyers-premium-percent': auction.buyersPremiumPercent,
      location: auction.location,
    },
    relationships: {
      lots: { data: auction.lots.map((item) => ({ type: 'lot', id: item.id })) },
    },
  },
  included: auction.lots.map(lot),
});

const bidder = (person: SandboxBidder) => ({
  type: 'bidder',
  id: person.id,
  attributes: {
    'first-name': person.firstName,
    'last-name': person.lastName,
    email: person.email,
    phone: person.phone,
    status: person.status === 'Active' ? 'active' : 'blocked',
    'last-active-ms': person.lastActive,
    'bid-count': person.totalBids,
    'win-count': person.totalWins,
    'spent-cents': person.totalSpent,
    currency: person.currency,
    'updated-ms': person.updatedAt,
  },
});

const cents = z.number().int().min(0).nullable();
const pushSchema = z.object({
  data: z.object({
    type: z.literal('catalog'),
    attributes: z.object({
      title: z.string().min(1),
      description: z.string(),
      'sale-type': z.enum(['live-auction', 'timed-auction', 'live-and-timed']),
      category: z.string().min(1),
      currency: z.enum(currencies),
      'time-zone': z.string().min(1),
      'buyers-premium-percent': z.number().min(0).max(100),
      location: z.string().nullable(),
      'start-ms': z.number().int().positive(),
      'end-ms': z.number().int().positive(),
      lots: z.array(
        z.object({
          'lot-number': z.string().min(1),
          title: z.string().min(1),
          description: z.string(),
          category: z.string().nullable(),
          'estimate-low-cents': cents,
          'estimate-high-cents': cents,
          'reserve-cents': cents,
          consignor: z.string().nullable(),
        }),
      ),
    }),
  }),
});

function push(context: ApiContext, id: string | null): SandboxReply {
  const { attributes } = parseBody(pushSchema, context.request.body).data;
  const type = (Object.keys(saleTypes) as (keyof typeof saleTypes)[]).find(
    (key) => saleTypes[key] === attributes['sale-type'],
  ) as keyof typeof saleTypes;
  const auction = pushAuction(
    context.account,
    {
      title: attributes.title,
      description: attributes.description,
      type,
      category: attributes.category,
      currency: attributes.currency,
      timeZone: attributes['time-zone'],
      startsAt: attributes['start-ms'],
      endsAt: attributes['end-ms'],
      buyersPremiumPercent: attributes['buyers-premium-percent'],
      location: attributes.location,
      lots: attributes.lots.map((item) => ({
        lotNumber: item['lot-number'],
        title: item.title,
        description: item.description,
        category: item.category,
        estimateLow: item['estimate-low-cents'],
        estimateHigh: item['estimate-high-cents'],
        reserve: item['reserve-cents'],
        consignor: item.consignor,
      })),
    },
    id,
    context.request.body,
  );
  return document(id === null ? 201 : 200, { data: catalog(auction) });
}

const errors = (status: number, code: string, title: string) =>
  document(status, { errors: [{ status: String(status), code, title }] });

export const liveauctioneers: PlatformApi = {
  platform: 'LiveAuctioneers',
  credential: (request) => {
    const match = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1]) return null;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    return decoded.slice(0, decoded.indexOf(':') >= 0 ? decoded.indexOf(':') : undefined) || null;
  },
  answers: {
    expired: () => errors(401, 'credentials_expired', 'Your API credentials have expired'),
    invalid: () => errors(401, 'credentials_invalid', 'Invalid API credentials'),
    notFound: (what) => errors(404, 'not_found', `No ${what}`),
    invalidRequest: (message) => errors(422, 'invalid_attribute', message),
    serverError: () => errors(500, 'internal_error', 'Internal server error'),
    unavailable: gatewayUnavailable,
    rateLimited: () => ({
      ...errors(429, 'throttled', 'Too many requests'),
      headers: { 'retry-after': '20' },
    }),
  },
  routes: [
    {
      method: 'GET',
      pattern: '/v3/seller',
      handler: ({ account }) =>
        document(200, {
          data: {
            type: 'seller',
            id: String(5_500 + account.options.seed),
            attributes: { name: account.name },
          },
        }),
    },
    {
      method: 'GET',
      pattern: '/v3/catalogs',
      handler: (context) => page(context, context.account.auctions, catalog),
    },
    { method: 'POST', pattern: '/v3/catalogs', handler: (context) => push(context, null) },
    {
      method: 'GET',
      pattern: '/v3/catalogs/:id',
      handler: ({ account }, { id = '' }) => document(200, detail(auctionOf(account, id))),
    },
    {
      method: 'PATCH',
      pattern: '/v3/catalogs/:id',
      handler: (context, { id = '' }) => push(context, id),
    },
    {
      method: 'GET',
      pattern: '/v3/catalogs/:id/registrations',
      handler: ({ account }, { id = '' }) =>
        document(200, {
          data: auctionOf(account, id).registrations.map((registration) => ({
            type: 'registration',
            id: `${id}-${registration.bidderId}`,
            attributes: {
              status: registrationWords[registration.status],
              paddle: registration.paddle,
              'created-ms': registration.registeredAt,
            },
            relationships: { bidder: { data: { type: 'bidder', id: registration.bidderId } } },
          })),
          links: { next: null },
        }),
    },
    {
      method: 'GET',
      pattern: '/v3/catalogs/:id/results',
      handler: ({ account }, { id = '' }) =>
        document(200, {
          data: auctionOf(account, id).lots.flatMap((item) =>
            item.result
              ? [
                  {
                    type: 'result',
                    id: item.id,
                    attributes: outcome(item),
                    relationships: {
                      lot: { data: { type: 'lot', id: item.id } },
                      buyer: {
                        data: item.result.buyerId
                          ? { type: 'bidder', id: item.result.buyerId }
                          : null,
                      },
                    },
                  },
                ]
              : [],
          ),
        }),
    },
    {
      method: 'GET',
      pattern: '/v3/bidders',
      handler: (context) => page(context, context.account.bidders, bidder),
    },
  ],
};
