import { z } from 'zod';
import type { Currency } from '../../auctions/auctions.schema.js';
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
import {
  PAGE_SIZE,
  allPages,
  counterOf,
  currencyCode,
  isoInstant,
  majorOf,
  minorOf,
  wireClient,
} from './wire.js';

/**
 * Invaluable's API: the key in the query (`api_key`); auctions are "catalogs" with "refs";
 * offset/limit paging with a total; money as major-unit numbers; times ISO 8601 in UTC; upper-case
 * status words; the buyer's premium as a rate. A catalog's lots and its prices realized are lists
 * of their own, read page by page. An expired key is a 403 with code API_KEY_EXPIRED.
 */

const PLATFORM = 'Invaluable';
const amount = z.number().min(0).nullable();

const statuses = {
  PREVIEW: 'upcoming',
  LIVE: 'live',
  CLOSED: 'closed',
  WITHDRAWN: 'cancelled',
} as const;
const saleTypes = { LIVE: 'Live', TIMED: 'Online', LIVE_AND_ONLINE: 'Hybrid' } as const;
const saleTypeWords = { Live: 'LIVE', Online: 'TIMED', Hybrid: 'LIVE_AND_ONLINE' } as const;
const approvals = { APPROVED: 'approved', PENDING: 'pending', DECLINED: 'denied' } as const;

const offsetPage = <T extends z.ZodType>(item: T) =>
  z.object({
    total: z.number().int().min(0),
    offset: z.number().int().min(0),
    results: z.array(item),
  });

const summarySchema = z.object({
  catalogRef: z.string(),
  catalogTitle: z.string(),
  catalogStatus: z.enum(Object.keys(statuses) as [keyof typeof statuses]),
  eventDate: isoInstant,
  closingDate: isoInstant,
  lotCount: z.number().int().min(0),
  lastModified: isoInstant,
});

const detailSchema = summarySchema.extend({
  catalogDescription: z.string(),
  saleType: z.enum(Object.keys(saleTypes) as [keyof typeof saleTypes]),
  department: z.string().nullable(),
  currency: currencyCode,
  timeZoneId: z.string().nullable(),
  buyersPremiumRate: z.number().min(0).max(1).nullable(),
  venue: z.string().nullable(),
});

const resultSchema = z.object({
  sold: z.boolean(),
  hammerPrice: amount,
  buyerRef: z.string().nullable(),
});

const lotSchema = z.object({
  lotRef: z.string(),
  lotNumber: z.string(),
  lotTitle: z.string(),
  lotDescription: z.string(),
  department: z.string().nullable(),
  estimateLow: amount,
  estimateHigh: amount,
  reservePrice: amount,
  consignorName: z.string().nullable(),
  result: resultSchema.nullable(),
});

const bidderSchema = z.object({
  bidderRef: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailAddress: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  isActive: z.boolean(),
  lastBidDate: isoInstant.nullable(),
  bidCount: z.number().int().min(0),
  wonCount: z.number().int().min(0),
  totalSpend: z.number().min(0),
  currency: currencyCode,
  lastModified: isoInstant,
});

const registrationSchema = z.object({
  bidderRef: z.string(),
  approval: z.enum(Object.keys(approvals) as [keyof typeof approvals]),
  paddleNumber: z.string().nullable(),
  requestedAt: isoInstant,
});

/** The next offset, while the platform says there is more. */
const nextOf = (page: { total: number; offset: number; results: unknown[] }) => {
  const next = page.offset + page.results.length;
  return page.results.length > 0 && next < page.total ? String(next) : null;
};

export function createInvaluableConnector(options: ConnectorOptions): PlatformConnector {
  const client = wireClient({
    platform: PLATFORM,
    options,
    authorize: (url) => url.searchParams.set('api_key', options.credentials.apiKey),
    isExpired: (_status, body) =>
      z.object({ code: z.literal('API_KEY_EXPIRED') }).safeParse(body).success,
  });

  const money = (value: number | null, currency: Currency) =>
    value === null ? null : minorOf(PLATFORM, value, currency);

  const summaryOf = (item: z.infer<typeof summarySchema>): PlatformAuctionSummary => ({
    externalId: item.catalogRef,
    title: item.catalogTitle,
    status: statuses[item.catalogStatus],
    startsAt: item.eventDate,
    endsAt: item.closingDate,
    lotCount: item.lotCount,
    updatedAt: item.lastModified,
  });

  const resultOf = (item: z.infer<typeof resultSchema>, currency: Currency): PlatformLotResult => ({
    outcome: item.sold ? 'sold' : 'passed',
    hammer: money(item.hammerPrice, currency),
    buyerExternalId: item.buyerRef,
  });

  const lotOf = (item: z.infer<typeof lotSchema>, currency: Currency): PlatformLot => ({
    externalId: item.lotRef,
    lotNumber: item.lotNumber,
    title: item.lotTitle,
    description: item.lotDescription,
    category: item.department,
    estimateLow: money(item.estimateLow, currency),
    estimateHigh: money(item.estimateHigh, currency),
    reserve: money(item.reservePrice, currency),
    consignor: item.consignorName,
    result: item.result && resultOf(item.result, currency),
  });

  const bidderOf = (item: z.infer<typeof bidderSchema>): PlatformBidder => ({
    externalId: item.bidderRef,
    firstName: item.firstName,
    lastName: item.lastName,
    email: item.emailAddress,
    phone: item.phoneNumber,
    status: item.isActive ? 'Active' : 'Inactive',
    lastActive: item.lastBidDate,
    totalBids: item.bidCount,
    totalWins: item.wonCount,
    totalSpent: minorOf(PLATFORM, item.totalSpend, item.currency),
    currency: item.currency,
    updatedAt: item.lastModified,
  });

  const wireOf = (auction: PushedAuction) => {
    const major = (value: number | null) =>
      value === null ? null : majorOf(value, auction.currency);
    return {
      catalogTitle: auction.title,
      catalogDescription: auction.description,
      saleType: saleTypeWords[auction.type],
      department: platformCategoryOf(PLATFORM, 'auction', auction.category),
      currency: auction.currency,
      timeZoneId: auction.timeZone,
      buyersPremiumRate: Math.round(auction.buyersPremiumPercent * 100) / 10_000,
      venue: auction.location,
      eventDate: auction.startsAt,
      closingDate: auction.endsAt,
      lots: auction.lots.map((item) => ({
        lotNumber: item.lotNumber,
        lotTitle: item.title,
        lotDescription: item.description,
        department:
          item.category === null ? null : platformCategoryOf(PLATFORM, 'lot', item.category),
        estimateLow: major(item.estimateLow),
        estimateHigh: major(item.estimateHigh),
        reservePrice: major(item.reserve),
        consignorName: item.consignor,
      })),
    };
  };

  const catalog = (ref: string) => `/api/catalogs/${encodeURIComponent(ref)}`;

  return {
    platform: PLATFORM,

    async testCredentials() {
      const { data } = await client.call(
        { path: '/api/houses/me' },
        z.object({ houseName: z.string() }),
      );
      return { accountName: data.houseName };
    },

    async listAuctions(cursor, since) {
      const { data } = await client.call(
        {
          path: '/api/catalogs',
          query: { offset: counterOf(cursor, 0), limit: PAGE_SIZE, modifiedSince: since },
        },
        offsetPage(summarySchema),
      );
      return { items: data.results.map(summaryOf), next: nextOf(data) };
    },

    async fetchAuction(externalId) {
      const { data } = await client.call({ path: catalog(externalId) }, detailSchema);
      const lots = await allPages(async (cursor) => {
        const { data: page } = await client.call(
          {
            path: `${catalog(externalId)}/lots`,
            query: { offset: counterOf(cursor, 0), limit: PAGE_SIZE },
          },
          offsetPage(lotSchema),
        );
        return {
          items: page.results.map((item) => lotOf(item, data.currency)),
          next: nextOf(page),
        };
      });
      return {
        ...summaryOf(data),
        description: data.catalogDescription,
        type: saleTypes[data.saleType],
        category: data.department,
        currency: data.currency,
        timeZone: data.timeZoneId,
        buyersPremiumPercent:
          data.buyersPremiumRate === null
            ? null
            : Math.round(data.buyersPremiumRate * 10_000) / 100,
        location: data.venue,
        lots,
      };
    },

    async listBidders(cursor, since) {
      const { data } = await client.call(
        {
          path: '/api/bidders',
          query: { offset: counterOf(cursor, 0), limit: PAGE_SIZE, modifiedSince: since },
        },
        offsetPage(bidderSchema),
      );
      return { items: data.results.map(bidderOf), next: nextOf(data) };
    },

    async pushAuction(auction, externalId) {
      const { data } = await client.call(
        externalId === null
          ? { method: 'POST', path: '/api/catalogs', body: wireOf(auction) }
          : { method: 'PUT', path: catalog(externalId), body: wireOf(auction) },
        z.object({ catalogRef: z.string(), lastModified: isoInstant }),
      );
      return { externalId: data.catalogRef, updatedAt: data.lastModified };
    },

    async pullRegistrations(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          {
            path: `${catalog(externalId)}/registrations`,
            query: { offset: counterOf(cursor, 0), limit: PAGE_SIZE },
          },
          offsetPage(registrationSchema),
        );
        return {
          items: data.results.map((item) => ({
            bidderExternalId: item.bidderRef,
            status: approvals[item.approval],
            paddle: item.paddleNumber,
            registeredAt: item.requestedAt,
          })),
          next: nextOf(data),
        };
      });
    },

    async pullResults(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          {
            path: `${catalog(externalId)}/prices-realized`,
            query: { offset: counterOf(cursor, 0), limit: PAGE_SIZE },
          },
          offsetPage(resultSchema.extend({ lotRef: z.string(), currency: currencyCode })),
        );
        return {
          items: data.results.map((item) => ({
            lotExternalId: item.lotRef,
            ...resultOf(item, item.currency),
          })),
          next: nextOf(data),
        };
      });
    },
  };
}
