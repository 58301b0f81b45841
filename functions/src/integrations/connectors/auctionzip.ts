import { DateTime, IANAZone } from 'luxon';
import { z } from 'zod';
import type { Currency } from '../../auctions/auctions.schema.js';
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
import {
  PAGE_SIZE,
  allPages,
  counterOf,
  currencyCode,
  decimalOf,
  minorOf,
  wireClient,
} from './wire.js';

/**
 * Auction.zip's API 1.0: `Authorization: Token token="…"`; snake_case; numeric ids; page/per_page
 * with the next page in a `Link` header and a bare array as the body; money as decimal strings,
 * "" for none; a sale's times as wall-clock "2026-05-01 10:00:00" in its `time_zone`, every other
 * time the same way in UTC; the buyer's premium as "18%". An expired key is a 401 with
 * error_code 1002.
 */

const PLATFORM = 'Auction.zip';
const WALL_CLOCK = 'yyyy-MM-dd HH:mm:ss';
const id = z.number().int().transform(String);
const wallClock = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'is not like 2026-05-01 10:00:00');
const zone = z.string().refine((value) => IANAZone.isValidZone(value), 'is not a time zone');
/** Money as written: "" is none. */
const amount = z.union([z.literal(''), z.string().regex(/^\d+(\.\d+)?$/)]).nullable();

const statuses = {
  pending: 'upcoming',
  active: 'live',
  complete: 'closed',
  void: 'cancelled',
} as const;
const types = {
  'Live Onsite': 'Live',
  'Online Only': 'Online',
  'Live + Online': 'Hybrid',
} as const;
const typeWords = { Live: 'Live Onsite', Online: 'Online Only', Hybrid: 'Live + Online' } as const;
const registrationStatuses = ['approved', 'pending', 'denied'] as const;

const summarySchema = z.object({
  auction_id: id,
  auction_title: z.string(),
  status: z.enum(Object.keys(statuses) as [keyof typeof statuses]),
  start_time: wallClock,
  end_time: wallClock,
  time_zone: zone,
  lot_count: z.number().int().min(0),
  updated_at: wallClock,
});

const saleSchema = z.object({
  status: z.enum(['sold', 'passed', 'open']),
  hammer_price: z.string().nullable(),
  buyer_id: id.nullable(),
});

const lotSchema = saleSchema.extend({
  lot_id: id,
  lot_number: z.string(),
  lot_title: z.string(),
  lot_description: z.string(),
  category: z.string(),
  low_estimate: amount,
  high_estimate: amount,
  reserve: amount,
  consignor: z.string(),
});

const detailSchema = summarySchema.extend({
  auction_description: z.string(),
  auction_type: z.enum(Object.keys(types) as [keyof typeof types]),
  category: z.string(),
  currency_code: currencyCode,
  buyers_premium: z
    .string()
    .regex(/^\d+(\.\d+)?%$/)
    .nullable(),
  address: z.string(),
  lots: z.array(lotSchema),
});

const bidderSchema = z.object({
  bidder_id: id,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  status: z.enum(['active', 'inactive']),
  last_login: wallClock.nullable(),
  bids: z.number().int().min(0),
  wins: z.number().int().min(0),
  total_spent: z.string(),
  currency_code: currencyCode,
  updated_at: wallClock,
});

const registrationSchema = z.object({
  bidder_id: id,
  status: z.enum(registrationStatuses),
  paddle: z.string().nullable(),
  registered_at: wallClock,
});

/** The page the `Link` header's rel="next" points at, if any. */
function nextPage(headers: Headers): string | null {
  const link = headers.get('link');
  const match = link && /<([^>]+)>\s*;\s*rel="?next"?/i.exec(link);
  if (!match?.[1]) return null;
  const page = new URL(match[1]).searchParams.get('page');
  if (!page || !/^\d+$/.test(page)) {
    throw new PlatformError(
      PLATFORM,
      'bad_response',
      `${PLATFORM}: a Link header without a page number`,
    );
  }
  return page;
}

export function createAuctionZipConnector(options: ConnectorOptions): PlatformConnector {
  const client = wireClient({
    platform: PLATFORM,
    options,
    authorize: (_url, headers) =>
      headers.set('authorization', `Token token="${options.credentials.apiKey}"`),
    isExpired: (_status, body) => z.object({ error_code: z.literal(1002) }).safeParse(body).success,
  });

  /** A wall-clock time in a zone as the ISO instant. */
  const instant = (value: string, timeZone: string) => {
    const parsed = DateTime.fromFormat(value, WALL_CLOCK, { zone: timeZone });
    if (!parsed.isValid) {
      throw new PlatformError(
        PLATFORM,
        'bad_response',
        `${PLATFORM}: "${value}" is not a time in ${timeZone}`,
      );
    }
    return parsed.toUTC().toISO() as string;
  };
  const utc = (value: string) => instant(value, 'UTC');
  const wall = (iso: string, timeZone: string) =>
    DateTime.fromISO(iso).setZone(timeZone).toFormat(WALL_CLOCK);
  const money = (value: string | null, currency: Currency) =>
    value === null || value === '' ? null : minorOf(PLATFORM, value, currency);

  const summaryOf = (item: z.infer<typeof summarySchema>): PlatformAuctionSummary => ({
    externalId: item.auction_id,
    title: item.auction_title,
    status: statuses[item.status],
    startsAt: instant(item.start_time, item.time_zone),
    endsAt: instant(item.end_time, item.time_zone),
    lotCount: item.lot_count,
    updatedAt: utc(item.updated_at),
  });

  const resultOf = (
    item: z.infer<typeof saleSchema>,
    currency: Currency,
  ): PlatformLotResult | null =>
    item.status === 'open'
      ? null
      : {
          outcome: item.status,
          hammer: money(item.hammer_price, currency),
          buyerExternalId: item.buyer_id,
        };

  const lotOf = (item: z.infer<typeof lotSchema>, currency: Currency): PlatformLot => ({
    externalId: item.lot_id,
    lotNumber: item.lot_number,
    title: item.lot_title,
    description: item.lot_description,
    category: item.category || null,
    estimateLow: money(item.low_estimate, currency),
    estimateHigh: money(item.high_estimate, currency),
    reserve: money(item.reserve, currency),
    consignor: item.consignor || null,
    result: resultOf(item, currency),
  });

  const bidderOf = (item: z.infer<typeof bidderSchema>): PlatformBidder => ({
    externalId: item.bidder_id,
    firstName: item.first_name,
    lastName: item.last_name,
    email: item.email || null,
    phone: item.phone || null,
    status: item.status === 'active' ? 'Active' : 'Inactive',
    lastActive: item.last_login === null ? null : utc(item.last_login),
    totalBids: item.bids,
    totalWins: item.wins,
    totalSpent: minorOf(PLATFORM, item.total_spent, item.currency_code),
    currency: item.currency_code,
    updatedAt: utc(item.updated_at),
  });

  const wireOf = (auction: PushedAuction) => {
    const written = (value: number | null) =>
      value === null ? '' : decimalOf(value, auction.currency);
    return {
      auction_title: auction.title,
      auction_description: auction.description,
      auction_type: typeWords[auction.type],
      category: platformCategoryOf(PLATFORM, 'auction', auction.category),
      currency_code: auction.currency,
      time_zone: auction.timeZone,
      buyers_premium: `${auction.buyersPremiumPercent}%`,
      address: auction.location ?? '',
      start_time: wall(auction.startsAt, auction.timeZone),
      end_time: wall(auction.endsAt, auction.timeZone),
      lots: auction.lots.map((item) => ({
        lot_number: item.lotNumber,
        lot_title: item.title,
        lot_description: item.description,
        category: item.category === null ? '' : platformCategoryOf(PLATFORM, 'lot', item.category),
        low_estimate: written(item.estimateLow),
        high_estimate: written(item.estimateHigh),
        reserve: written(item.reserve),
        consignor: item.consignor ?? '',
      })),
    };
  };

  const auctionPath = (externalId: string) => `/api/1.0/auctions/${encodeURIComponent(externalId)}`;
  const sinceOf = (since: string | null) => (since === null ? null : wall(since, 'UTC'));

  return {
    platform: PLATFORM,

    async testCredentials() {
      const { data } = await client.call(
        { path: '/api/1.0/account.json' },
        z.object({ company: z.string() }),
      );
      return { accountName: data.company };
    },

    async listAuctions(cursor, since) {
      const { data, headers } = await client.call(
        {
          path: '/api/1.0/auctions.json',
          query: { page: counterOf(cursor, 1), per_page: PAGE_SIZE, since: sinceOf(since) },
        },
        z.array(summarySchema),
      );
      return { items: data.map(summaryOf), next: nextPage(headers) };
    },

    async fetchAuction(externalId) {
      const { data } = await client.call({ path: `${auctionPath(externalId)}.json` }, detailSchema);
      return {
        ...summaryOf(data),
        description: data.auction_description,
        type: types[data.auction_type],
        category: data.category || null,
        currency: data.currency_code,
        timeZone: data.time_zone,
        buyersPremiumPercent:
          data.buyers_premium === null ? null : Number(data.buyers_premium.slice(0, -1)),
        location: data.address || null,
        lots: data.lots.map((item) => lotOf(item, data.currency_code)),
      };
    },

    async listBidders(cursor, since) {
      const { data, headers } = await client.call(
        {
          path: '/api/1.0/bidders.json',
          query: { page: counterOf(cursor, 1), per_page: PAGE_SIZE, since: sinceOf(since) },
        },
        z.array(bidderSchema),
      );
      return { items: data.map(bidderOf), next: nextPage(headers) };
    },

    async pushAuction(auction, externalId) {
      const { data } = await client.call(
        externalId === null
          ? { method: 'POST', path: '/api/1.0/auctions.json', body: wireOf(auction) }
          : { method: 'PUT', path: `${auctionPath(externalId)}.json`, body: wireOf(auction) },
        z.object({ auction_id: id, updated_at: wallClock }),
      );
      return { externalId: data.auction_id, updatedAt: utc(data.updated_at) };
    },

    async pullRegistrations(externalId) {
      return allPages(async (cursor) => {
        const { data, headers } = await client.call(
          {
            path: `${auctionPath(externalId)}/registrations.json`,
            query: { page: counterOf(cursor, 1), per_page: PAGE_SIZE },
          },
          z.array(registrationSchema),
        );
        return {
          items: data.map((item) => ({
            bidderExternalId: item.bidder_id,
            status: item.status,
            paddle: item.paddle,
            registeredAt: utc(item.registered_at),
          })),
          next: nextPage(headers),
        };
      });
    },

    async pullResults(externalId) {
      const { data } = await client.call(
        { path: `${auctionPath(externalId)}/results.json` },
        z.array(saleSchema.extend({ lot_id: id, currency_code: currencyCode })),
      );
      return data.flatMap((item) => {
        const result = resultOf(item, item.currency_code);
        return result ? [{ lotExternalId: item.lot_id, ...result }] : [];
      });
    },
  };
}
