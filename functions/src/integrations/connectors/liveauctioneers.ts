import { z } from 'zod';
import { platformCategoryOf } from './categories.js';
import {
  PlatformError,
  type ConnectorOptions,
  type PlatformAuctionSummary,
  type PlatformBidder,
  type PlatformConnector,
  type PlatformLot,
  type PlatformLotResult,
  type PushedAuction,
} from './connector.js';
import { PAGE_SIZE, allPages, currencyCode, epochMillis, wireClient } from './wire.js';

/**
 * LiveAuctioneers' API v3: HTTP Basic with the key as the user name; JSON:API documents (kebab-case
 * attributes, relationships, `included`, `links.next`); keyset paging with `page[after]`;
 * `filter[updated_since]` in epoch milliseconds; money in cents; times in epoch milliseconds. An
 * expired key is a 401 whose error code is credentials_expired.
 */

const PLATFORM = 'LiveAuctioneers';
const JSON_API = 'application/vnd.api+json';
const cents = z.number().int().min(0).nullable();

const statuses = {
  upcoming: 'upcoming',
  live: 'live',
  past: 'closed',
  cancelled: 'cancelled',
} as const;
const saleTypes = {
  'live-auction': 'Live',
  'timed-auction': 'Online',
  'live-and-timed': 'Hybrid',
} as const;
const saleTypeWords = {
  Live: 'live-auction',
  Online: 'timed-auction',
  Hybrid: 'live-and-timed',
} as const;
const registrationStatuses = {
  approved: 'approved',
  pending: 'pending',
  declined: 'denied',
} as const;

const reference = (type: string) => z.object({ type: z.literal(type), id: z.string() });
const links = z.object({ next: z.string().nullable() });

const catalogAttributes = z.object({
  title: z.string(),
  status: z.enum(Object.keys(statuses) as [keyof typeof statuses]),
  'start-ms': epochMillis,
  'end-ms': epochMillis,
  'lot-count': z.number().int().min(0),
  'updated-ms': epochMillis,
});
const catalogSchema = reference('catalog').extend({ attributes: catalogAttributes });

const outcomeAttributes = z.object({
  result: z.enum(['sold', 'unsold']).nullable(),
  'hammer-cents': cents,
});

const lotSchema = reference('lot').extend({
  attributes: outcomeAttributes.extend({
    'lot-number': z.string(),
    title: z.string(),
    description: z.string(),
    category: z.string().nullable(),
    'estimate-low-cents': cents,
    'estimate-high-cents': cents,
    'reserve-cents': cents,
    consignor: z.string().nullable(),
  }),
  relationships: z.object({ 'winning-bidder': z.object({ data: reference('bidder').nullable() }) }),
});

const detailSchema = z.object({
  data: reference('catalog').extend({
    attributes: catalogAttributes.extend({
      description: z.string(),
      'sale-type': z.enum(Object.keys(saleTypes) as [keyof typeof saleTypes]),
      category: z.string().nullable(),
      currency: currencyCode,
      'time-zone': z.string().nullable(),
      'buyers-premium-percent': z.number().min(0).nullable(),
      location: z.string().nullable(),
    }),
    relationships: z.object({ lots: z.object({ data: z.array(reference('lot')) }) }),
  }),
  included: z.array(lotSchema).default([]),
});

const bidderSchema = reference('bidder').extend({
  attributes: z.object({
    'first-name': z.string(),
    'last-name': z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    status: z.enum(['active', 'blocked']),
    'last-active-ms': epochMillis.nullable(),
    'bid-count': z.number().int().min(0),
    'win-count': z.number().int().min(0),
    'spent-cents': z.number().int().min(0),
    currency: currencyCode,
    'updated-ms': epochMillis,
  }),
});

const registrationSchema = reference('registration').extend({
  attributes: z.object({
    status: z.enum(Object.keys(registrationStatuses) as [keyof typeof registrationStatuses]),
    paddle: z.string().nullable(),
    'created-ms': epochMillis,
  }),
  relationships: z.object({ bidder: z.object({ data: reference('bidder') }) }),
});

const resultSchema = reference('result').extend({
  attributes: outcomeAttributes,
  relationships: z.object({
    lot: z.object({ data: reference('lot') }),
    buyer: z.object({ data: reference('bidder').nullable() }),
  }),
});

const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), links });

/** The `page[after]` of the next page's link, which is the cursor Lotwise keeps. */
function nextOf(next: string | null): string | null {
  if (next === null) return null;
  let after: string | null;
  try {
    after = new URL(next).searchParams.get('page[after]');
  } catch {
    after = null;
  }
  if (!after)
    throw new PlatformError(PLATFORM, 'bad_response', `${PLATFORM}: links.next has no page[after]`);
  return after;
}

function resultOf(
  attributes: z.infer<typeof outcomeAttributes>,
  buyer: { id: string } | null,
): PlatformLotResult | null {
  if (attributes.result === null) return null;
  return {
    outcome: attributes.result === 'sold' ? 'sold' : 'passed',
    hammer: attributes['hammer-cents'],
    buyerExternalId: buyer?.id ?? null,
  };
}

export function createLiveAuctioneersConnector(options: ConnectorOptions): PlatformConnector {
  const client = wireClient({
    platform: PLATFORM,
    options,
    authorize: (_url, headers) =>
      headers.set(
        'authorization',
        `Basic ${Buffer.from(`${options.credentials.apiKey}:`).toString('base64')}`,
      ),
    isExpired: (_status, body) =>
      z
        .object({ errors: z.array(z.object({ code: z.string() })) })
        .safeParse(body)
        .data?.errors.some((error) => error.code === 'credentials_expired') ?? false,
    contentType: JSON_API,
  });

  const summaryOf = ({
    id,
    attributes,
  }: z.infer<typeof catalogSchema>): PlatformAuctionSummary => ({
    externalId: id,
    title: attributes.title,
    status: statuses[attributes.status],
    startsAt: attributes['start-ms'],
    endsAt: attributes['end-ms'],
    lotCount: attributes['lot-count'],
    updatedAt: attributes['updated-ms'],
  });

  const lotOf = ({ id, attributes, relationships }: z.infer<typeof lotSchema>): PlatformLot => ({
    externalId: id,
    lotNumber: attributes['lot-number'],
    title: attributes.title,
    description: attributes.description,
    category: attributes.category,
    estimateLow: attributes['estimate-low-cents'],
    estimateHigh: attributes['estimate-high-cents'],
    reserve: attributes['reserve-cents'],
    consignor: attributes.consignor,
    result: resultOf(attributes, relationships['winning-bidder'].data),
  });

  const bidderOf = ({ id, attributes }: z.infer<typeof bidderSchema>): PlatformBidder => ({
    externalId: id,
    firstName: attributes['first-name'],
    lastName: attributes['last-name'],
    email: attributes.email,
    phone: attributes.phone,
    status: attributes.status === 'active' ? 'Active' : 'Inactive',
    lastActive: attributes['last-active-ms'],
    totalBids: attributes['bid-count'],
    totalWins: attributes['win-count'],
    totalSpent: attributes['spent-cents'],
    currency: attributes.currency,
    updatedAt: attributes['updated-ms'],
  });

  const wireOf = (auction: PushedAuction) => ({
    data: {
      type: 'catalog',
      attributes: {
        title: auction.title,
        description: auction.description,
        'sale-type': saleTypeWords[auction.type],
        category: platformCategoryOf(PLATFORM, 'auction', auction.category),
        currency: auction.currency,
        'time-zone': auction.timeZone,
        'buyers-premium-percent': auction.buyersPremiumPercent,
        location: auction.location,
        'start-ms': Date.parse(auction.startsAt),
        'end-ms': Date.parse(auction.endsAt),
        lots: auction.lots.map((item) => ({
          'lot-number': item.lotNumber,
          title: item.title,
          description: item.description,
          category:
            item.category === null ? null : platformCategoryOf(PLATFORM, 'lot', item.category),
          'estimate-low-cents': item.estimateLow,
          'estimate-high-cents': item.estimateHigh,
          'reserve-cents': item.reserve,
          consignor: item.consignor,
        })),
      },
    },
  });

  const since = (value: string | null) => (value === null ? null : Date.parse(value));
  const catalog = (externalId: string) => `/v3/catalogs/${encodeURIComponent(externalId)}`;

  return {
    platform: PLATFORM,

    async testCredentials() {
      const { data } = await client.call(
        { path: '/v3/seller' },
        z.object({
          data: reference('seller').extend({ attributes: z.object({ name: z.string() }) }),
        }),
      );
      return { accountName: data.data.attributes.name };
    },

    async listAuctions(cursor, updatedSince) {
      const { data } = await client.call(
        {
          path: '/v3/catalogs',
          query: {
            'page[size]': PAGE_SIZE,
            'page[after]': cursor,
            'filter[updated_since]': since(updatedSince),
          },
        },
        list(catalogSchema),
      );
      return { items: data.data.map(summaryOf), next: nextOf(data.links.next) };
    },

    async fetchAuction(externalId) {
      const { data } = await client.call(
        { path: catalog(externalId), query: { include: 'lots' } },
        detailSchema,
      );
      const { attributes } = data.data;
      // The catalog lists its lots in sale order; their attributes come as included resources.
      const included = new Map(data.included.map((item) => [item.id, item]));
      const lots = data.data.relationships.lots.data.map((ref) => {
        const lot = included.get(ref.id);
        if (!lot)
          throw new PlatformError(
            PLATFORM,
            'bad_response',
            `${PLATFORM}: lot ${ref.id} is not included`,
          );
        return lotOf(lot);
      });
      return {
        ...summaryOf({ type: 'catalog', id: data.data.id, attributes }),
        description: attributes.description,
        type: saleTypes[attributes['sale-type']],
        category: attributes.category,
        currency: attributes.currency,
        timeZone: attributes['time-zone'],
        buyersPremiumPercent: attributes['buyers-premium-percent'],
        location: attributes.location,
        lots,
      };
    },

    async listBidders(cursor, updatedSince) {
      const { data } = await client.call(
        {
          path: '/v3/bidders',
          query: {
            'page[size]': PAGE_SIZE,
            'page[after]': cursor,
            'filter[updated_since]': since(updatedSince),
          },
        },
        list(bidderSchema),
      );
      return { items: data.data.map(bidderOf), next: nextOf(data.links.next) };
    },

    async pushAuction(auction, externalId) {
      const { data } = await client.call(
        externalId === null
          ? { method: 'POST', path: '/v3/catalogs', body: wireOf(auction) }
          : { method: 'PATCH', path: catalog(externalId), body: wireOf(auction) },
        z.object({ data: catalogSchema }),
      );
      return { externalId: data.data.id, updatedAt: data.data.attributes['updated-ms'] };
    },

    async pullRegistrations(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          { path: `${catalog(externalId)}/registrations`, query: { 'page[after]': cursor } },
          list(registrationSchema),
        );
        return {
          items: data.data.map(({ attributes, relationships }) => ({
            bidderExternalId: relationships.bidder.data.id,
            status: registrationStatuses[attributes.status],
            paddle: attributes.paddle,
            registeredAt: attributes['created-ms'],
          })),
          next: nextOf(data.links.next),
        };
      });
    },

    async pullResults(externalId) {
      const { data } = await client.call(
        { path: `${catalog(externalId)}/results` },
        z.object({ data: z.array(resultSchema) }),
      );
      return data.data.flatMap(({ attributes, relationships }) => {
        const result = resultOf(attributes, relationships.buyer.data);
        return result ? [{ lotExternalId: relationships.lot.data.id, ...result }] : [];
      });
    },
  };
}
