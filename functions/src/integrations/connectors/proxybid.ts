import { z } from 'zod';
import { platformCategoryOf } from './categories.js';
import type {
  ConnectorOptions,
  PlatformAuction,
  PlatformAuctionSummary,
  PlatformBidder,
  PlatformConnector,
  PlatformLot,
  PlatformLotResult,
  PlatformRegistration,
  PushedAuction,
} from './connector.js';
import {
  PAGE_SIZE,
  allPages,
  counterOf,
  currencyCode,
  decimalOf,
  isoInstant,
  minorOf,
  wireClient,
} from './wire.js';

/**
 * ProxyBid's API v2: `X-Api-Key` header; camelCase, nested; numeric ids; `page`/`pageSize` with a
 * `pagination` block; money as major-unit decimal strings in the sale's currency; ISO 8601 times
 * with offsets; an expired key is a 401 with code API_KEY_EXPIRED.
 */

const PLATFORM = 'ProxyBid';
const id = z.number().int().transform(String);
const amount = z.string().nullable();

const statuses = {
  Upcoming: 'upcoming',
  Open: 'live',
  Closed: 'closed',
  Canceled: 'cancelled',
} as const;
const types = {
  'Live Webcast': 'Live',
  'Timed Online': 'Online',
  'Live & Timed': 'Hybrid',
} as const;
const typeWords = { Live: 'Live Webcast', Online: 'Timed Online', Hybrid: 'Live & Timed' } as const;
const approvals = { Approved: 'approved', Pending: 'pending', Declined: 'denied' } as const;

const pagination = z.object({
  page: z.number().int(),
  totalPages: z.number().int(),
});

const summarySchema = z.object({
  auctionId: id,
  title: z.string(),
  status: z.enum(Object.keys(statuses) as [keyof typeof statuses]),
  schedule: z.object({ startTime: isoInstant, endTime: isoInstant }),
  lotCount: z.number().int().min(0),
  lastModified: isoInstant,
});

const saleSchema = z.object({
  status: z.enum(['Sold', 'Passed']),
  hammerPrice: amount,
  winningBidderId: id.nullable(),
});

const lotSchema = z.object({
  lotId: id,
  lotNumber: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  estimate: z.object({ low: amount, high: amount }).nullable(),
  reservePrice: amount,
  consignor: z.object({ name: z.string() }).nullable(),
  sale: saleSchema.nullable(),
});

const detailSchema = summarySchema.extend({
  description: z.string(),
  auctionType: z.enum(Object.keys(types) as [keyof typeof types]),
  category: z.string().nullable(),
  currencyCode,
  timeZone: z.string().nullable(),
  buyersPremium: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .nullable(),
  location: z.string().nullable(),
  lots: z.array(lotSchema),
});

const bidderSchema = z.object({
  bidderId: id,
  name: z.object({ first: z.string(), last: z.string() }),
  contact: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
  accountStatus: z.enum(['Active', 'Disabled']),
  lastActivity: isoInstant.nullable(),
  stats: z.object({
    bidsPlaced: z.number().int().min(0),
    lotsWon: z.number().int().min(0),
    totalPurchases: z.string(),
  }),
  currencyCode,
  lastModified: isoInstant,
});

const registrationSchema = z.object({
  bidderId: id,
  approvalStatus: z.enum(Object.keys(approvals) as [keyof typeof approvals]),
  paddleNumber: z.string().nullable(),
  registeredOn: isoInstant,
});

const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination });
const pushedSchema = z.object({ auctionId: id, lastModified: isoInstant });

export function createProxyBidConnector(options: ConnectorOptions): PlatformConnector {
  const client = wireClient({
    platform: PLATFORM,
    options,
    authorize: (_url, headers) => headers.set('x-api-key', options.credentials.apiKey),
    isExpired: (_status, body) =>
      z.object({ error: z.object({ code: z.literal('API_KEY_EXPIRED') }) }).safeParse(body).success,
  });

  const nextOf = ({ page, totalPages }: z.infer<typeof pagination>) =>
    page < totalPages ? String(page + 1) : null;

  const summaryOf = (item: z.infer<typeof summarySchema>): PlatformAuctionSummary => ({
    externalId: item.auctionId,
    title: item.title,
    status: statuses[item.status],
    startsAt: item.schedule.startTime,
    endsAt: item.schedule.endTime,
    lotCount: item.lotCount,
    updatedAt: item.lastModified,
  });

  const resultOf = (
    sale: z.infer<typeof saleSchema>,
    currency: PlatformAuction['currency'],
  ): PlatformLotResult => ({
    outcome: sale.status === 'Sold' ? 'sold' : 'passed',
    hammer: sale.hammerPrice === null ? null : minorOf(PLATFORM, sale.hammerPrice, currency),
    buyerExternalId: sale.winningBidderId,
  });

  const lotOf = (
    item: z.infer<typeof lotSchema>,
    currency: PlatformAuction['currency'],
  ): PlatformLot => {
    const money = (value: string | null | undefined) =>
      value == null ? null : minorOf(PLATFORM, value, currency);
    return {
      externalId: item.lotId,
      lotNumber: item.lotNumber,
      title: item.title,
      description: item.description,
      category: item.category,
      estimateLow: money(item.estimate?.low),
      estimateHigh: money(item.estimate?.high),
      reserve: money(item.reservePrice),
      consignor: item.consignor?.name ?? null,
      result: item.sale && resultOf(item.sale, currency),
    };
  };

  const bidderOf = (item: z.infer<typeof bidderSchema>): PlatformBidder => ({
    externalId: item.bidderId,
    firstName: item.name.first,
    lastName: item.name.last,
    email: item.contact.email,
    phone: item.contact.phone,
    status: item.accountStatus === 'Active' ? 'Active' : 'Inactive',
    lastActive: item.lastActivity,
    totalBids: item.stats.bidsPlaced,
    totalWins: item.stats.lotsWon,
    totalSpent: minorOf(PLATFORM, item.stats.totalPurchases, item.currencyCode),
    currency: item.currencyCode,
    updatedAt: item.lastModified,
  });

  const wireOf = (auction: PushedAuction) => ({
    title: auction.title,
    description: auction.description,
    auctionType: typeWords[auction.type],
    category: platformCategoryOf(PLATFORM, 'auction', auction.category),
    currencyCode: auction.currency,
    timeZone: auction.timeZone,
    buyersPremium: auction.buyersPremiumPercent.toFixed(2),
    location: auction.location,
    schedule: { startTime: auction.startsAt, endTime: auction.endsAt },
    lots: auction.lots.map((item) => {
      const money = (value: number | null) =>
        value === null ? null : decimalOf(value, auction.currency);
      return {
        lotNumber: item.lotNumber,
        title: item.title,
        description: item.description,
        category:
          item.category === null ? null : platformCategoryOf(PLATFORM, 'lot', item.category),
        estimate:
          item.estimateLow === null && item.estimateHigh === null
            ? null
            : { low: money(item.estimateLow), high: money(item.estimateHigh) },
        reservePrice: money(item.reserve),
        consignor: item.consignor === null ? null : { name: item.consignor },
      };
    }),
  });

  return {
    platform: PLATFORM,

    async testCredentials() {
      const { data } = await client.call(
        { path: '/api/v2/account' },
        z.object({ companyName: z.string() }),
      );
      return { accountName: data.companyName };
    },

    async listAuctions(cursor, since) {
      const { data } = await client.call(
        {
          path: '/api/v2/auctions',
          query: { page: counterOf(cursor, 1), pageSize: PAGE_SIZE, modifiedSince: since },
        },
        list(summarySchema),
      );
      return { items: data.data.map(summaryOf), next: nextOf(data.pagination) };
    },

    async fetchAuction(externalId) {
      const { data } = await client.call(
        { path: `/api/v2/auctions/${encodeURIComponent(externalId)}` },
        detailSchema,
      );
      return {
        ...summaryOf(data),
        description: data.description,
        type: types[data.auctionType],
        category: data.category,
        currency: data.currencyCode,
        timeZone: data.timeZone,
        buyersPremiumPercent: data.buyersPremium === null ? null : Number(data.buyersPremium),
        location: data.location,
        lots: data.lots.map((item) => lotOf(item, data.currencyCode)),
      };
    },

    async listBidders(cursor, since) {
      const { data } = await client.call(
        {
          path: '/api/v2/bidders',
          query: { page: counterOf(cursor, 1), pageSize: PAGE_SIZE, modifiedSince: since },
        },
        list(bidderSchema),
      );
      return { items: data.data.map(bidderOf), next: nextOf(data.pagination) };
    },

    async pushAuction(auction, externalId) {
      const { data } = await client.call(
        externalId === null
          ? { method: 'POST', path: '/api/v2/auctions', body: wireOf(auction) }
          : {
              method: 'PUT',
              path: `/api/v2/auctions/${encodeURIComponent(externalId)}`,
              body: wireOf(auction),
            },
        pushedSchema,
      );
      return { externalId: data.auctionId, updatedAt: data.lastModified };
    },

    async pullRegistrations(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          {
            path: `/api/v2/auctions/${encodeURIComponent(externalId)}/registrations`,
            query: { page: counterOf(cursor, 1), pageSize: PAGE_SIZE },
          },
          list(registrationSchema),
        );
        return {
          items: data.data.map((item): PlatformRegistration => ({
            bidderExternalId: item.bidderId,
            status: approvals[item.approvalStatus],
            paddle: item.paddleNumber,
            registeredAt: item.registeredOn,
          })),
          next: nextOf(data.pagination),
        };
      });
    },

    async pullResults(externalId) {
      const { data } = await client.call(
        { path: `/api/v2/auctions/${encodeURIComponent(externalId)}/results` },
        z.object({ currencyCode, data: z.array(saleSchema.extend({ lotId: id })) }),
      );
      return data.data.map((item) => ({
        lotExternalId: item.lotId,
        ...resultOf(item, data.currencyCode),
      }));
    },
  };
}
