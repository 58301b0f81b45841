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
  isoInstant,
  minorOf,
  wireClient,
} from './wire.js';

/**
 * BidSquare's API v1 behind Azure API Management: `Ocp-Apim-Subscription-Key` header; PascalCase;
 * GUID ids; `$top`/`$skip` paging with a `NextLink`; money as `{ Amount, CurrencyCode }`; times
 * ISO 8601 with offsets; numeric status codes; categories as `{ CategoryId, Name }`. An expired
 * key is API Management's 401 whose message says the subscription key expired.
 */

const PLATFORM = 'BidSquare';
const statuses = { 1: 'upcoming', 2: 'live', 3: 'closed', 4: 'cancelled' } as const;
const registrationStatuses = {
  Approved: 'approved',
  Pending: 'pending',
  Rejected: 'denied',
} as const;

const moneySchema = z.object({ Amount: z.string(), CurrencyCode: currencyCode }).nullable();
const categorySchema = z.object({ CategoryId: z.number().int(), Name: z.string() }).nullable();
const page = <T extends z.ZodType>(item: T) =>
  z.object({ Value: z.array(item), NextLink: z.string().nullable() });

const summarySchema = z.object({
  SaleId: z.string(),
  Title: z.string(),
  SaleStatus: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  StartDate: isoInstant,
  EndDate: isoInstant,
  LotCount: z.number().int().min(0),
  ModifiedOn: isoInstant,
});

const detailSchema = summarySchema.extend({
  Description: z.string(),
  SaleFormat: z.enum(['Live', 'Online', 'Hybrid']),
  Category: categorySchema,
  CurrencyCode: currencyCode,
  TimeZoneId: z.string().nullable(),
  BuyersPremiumPercent: z.number().min(0).nullable(),
  Location: z.string().nullable(),
});

const resultSchema = z.object({
  Outcome: z.enum(['Sold', 'Passed']),
  Hammer: moneySchema,
  BuyerId: z.string().nullable(),
});

const lotSchema = z.object({
  LotId: z.string(),
  LotNumber: z.string(),
  Title: z.string(),
  Description: z.string(),
  Category: categorySchema,
  LowEstimate: moneySchema,
  HighEstimate: moneySchema,
  Reserve: moneySchema,
  ConsignorName: z.string().nullable(),
  Result: resultSchema.nullable(),
});

const bidderSchema = z.object({
  BidderId: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string().nullable(),
  Phone: z.string().nullable(),
  IsActive: z.boolean(),
  LastActivityDate: isoInstant.nullable(),
  TotalBids: z.number().int().min(0),
  TotalWins: z.number().int().min(0),
  TotalSpent: moneySchema.unwrap(),
  ModifiedOn: isoInstant,
});

const registrationSchema = z.object({
  BidderId: z.string(),
  Status: z.enum(Object.keys(registrationStatuses) as [keyof typeof registrationStatuses]),
  PaddleNumber: z.string().nullable(),
  CreatedOn: isoInstant,
});

/** The `$skip` of the next page's link, which is the cursor Lotwise keeps. */
function nextOf(link: string | null): string | null {
  if (link === null) return null;
  let skip: string | null;
  try {
    skip = new URL(link).searchParams.get('$skip');
  } catch {
    skip = null;
  }
  if (!skip || !/^\d+$/.test(skip)) {
    throw new PlatformError(PLATFORM, 'bad_response', `${PLATFORM}: NextLink has no $skip`);
  }
  return skip;
}

/** An amount, which must be in the money it is meant to be in. */
function moneyOf(value: z.infer<typeof moneySchema>, currency: Currency): number | null {
  if (value === null) return null;
  if (value.CurrencyCode !== currency) {
    throw new PlatformError(
      PLATFORM,
      'bad_response',
      `${PLATFORM}: an amount in ${value.CurrencyCode} where ${currency} was expected`,
    );
  }
  return minorOf(PLATFORM, value.Amount, currency);
}

const resultOf = (item: z.infer<typeof resultSchema>, currency: Currency): PlatformLotResult => ({
  outcome: item.Outcome === 'Sold' ? 'sold' : 'passed',
  hammer: moneyOf(item.Hammer, currency),
  buyerExternalId: item.BuyerId,
});

export function createBidSquareConnector(options: ConnectorOptions): PlatformConnector {
  const client = wireClient({
    platform: PLATFORM,
    options,
    authorize: (_url, headers) =>
      headers.set('ocp-apim-subscription-key', options.credentials.apiKey),
    isExpired: (_status, body) =>
      z.object({ message: z.string().regex(/expired/i) }).safeParse(body).success,
  });

  const summaryOf = (item: z.infer<typeof summarySchema>): PlatformAuctionSummary => ({
    externalId: item.SaleId,
    title: item.Title,
    status: statuses[item.SaleStatus],
    startsAt: item.StartDate,
    endsAt: item.EndDate,
    lotCount: item.LotCount,
    updatedAt: item.ModifiedOn,
  });

  const lotOf = (item: z.infer<typeof lotSchema>, currency: Currency): PlatformLot => ({
    externalId: item.LotId,
    lotNumber: item.LotNumber,
    title: item.Title,
    description: item.Description,
    category: item.Category?.Name ?? null,
    estimateLow: moneyOf(item.LowEstimate, currency),
    estimateHigh: moneyOf(item.HighEstimate, currency),
    reserve: moneyOf(item.Reserve, currency),
    consignor: item.ConsignorName,
    result: item.Result && resultOf(item.Result, currency),
  });

  const bidderOf = (item: z.infer<typeof bidderSchema>): PlatformBidder => ({
    externalId: item.BidderId,
    firstName: item.FirstName,
    lastName: item.LastName,
    email: item.Email,
    phone: item.Phone,
    status: item.IsActive ? 'Active' : 'Inactive',
    lastActive: item.LastActivityDate,
    totalBids: item.TotalBids,
    totalWins: item.TotalWins,
    totalSpent: minorOf(PLATFORM, item.TotalSpent.Amount, item.TotalSpent.CurrencyCode),
    currency: item.TotalSpent.CurrencyCode,
    updatedAt: item.ModifiedOn,
  });

  const wireOf = (auction: PushedAuction) => {
    const money = (value: number | null) =>
      value === null
        ? null
        : { Amount: decimalOf(value, auction.currency), CurrencyCode: auction.currency };
    return {
      Title: auction.title,
      Description: auction.description,
      SaleFormat: auction.type,
      CategoryName: platformCategoryOf(PLATFORM, 'auction', auction.category),
      CurrencyCode: auction.currency,
      TimeZoneId: auction.timeZone,
      BuyersPremiumPercent: auction.buyersPremiumPercent,
      Location: auction.location,
      StartDate: auction.startsAt,
      EndDate: auction.endsAt,
      Lots: auction.lots.map((item) => ({
        LotNumber: item.lotNumber,
        Title: item.title,
        Description: item.description,
        CategoryName:
          item.category === null ? null : platformCategoryOf(PLATFORM, 'lot', item.category),
        LowEstimate: money(item.estimateLow),
        HighEstimate: money(item.estimateHigh),
        Reserve: money(item.reserve),
        ConsignorName: item.consignor,
      })),
    };
  };

  const sale = (externalId: string) => `/api/v1/Sales/${encodeURIComponent(externalId)}`;
  const paging = (cursor: string | null) => ({ $skip: counterOf(cursor, 0), $top: PAGE_SIZE });

  return {
    platform: PLATFORM,

    async testCredentials() {
      const { data } = await client.call(
        { path: '/api/v1/Account' },
        z.object({ DisplayName: z.string() }),
      );
      return { accountName: data.DisplayName };
    },

    async listAuctions(cursor, since) {
      const { data } = await client.call(
        { path: '/api/v1/Sales', query: { ...paging(cursor), modifiedSince: since } },
        page(summarySchema),
      );
      return { items: data.Value.map(summaryOf), next: nextOf(data.NextLink) };
    },

    async fetchAuction(externalId) {
      const { data } = await client.call({ path: sale(externalId) }, detailSchema);
      const lots = await allPages(async (cursor) => {
        const { data: lotsPage } = await client.call(
          { path: `${sale(externalId)}/Lots`, query: paging(cursor) },
          page(lotSchema),
        );
        return {
          items: lotsPage.Value.map((item) => lotOf(item, data.CurrencyCode)),
          next: nextOf(lotsPage.NextLink),
        };
      });
      return {
        ...summaryOf(data),
        description: data.Description,
        type: data.SaleFormat,
        category: data.Category?.Name ?? null,
        currency: data.CurrencyCode,
        timeZone: data.TimeZoneId,
        buyersPremiumPercent: data.BuyersPremiumPercent,
        location: data.Location,
        lots,
      };
    },

    async listBidders(cursor, since) {
      const { data } = await client.call(
        { path: '/api/v1/Bidders', query: { ...paging(cursor), modifiedSince: since } },
        page(bidderSchema),
      );
      return { items: data.Value.map(bidderOf), next: nextOf(data.NextLink) };
    },

    async pushAuction(auction, externalId) {
      const { data } = await client.call(
        externalId === null
          ? { method: 'POST', path: '/api/v1/Sales', body: wireOf(auction) }
          : { method: 'PUT', path: sale(externalId), body: wireOf(auction) },
        z.object({ SaleId: z.string(), ModifiedOn: isoInstant }),
      );
      return { externalId: data.SaleId, updatedAt: data.ModifiedOn };
    },

    async pullRegistrations(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          { path: `${sale(externalId)}/Registrations`, query: paging(cursor) },
          page(registrationSchema),
        );
        return {
          items: data.Value.map((item) => ({
            bidderExternalId: item.BidderId,
            status: registrationStatuses[item.Status],
            paddle: item.PaddleNumber,
            registeredAt: item.CreatedOn,
          })),
          next: nextOf(data.NextLink),
        };
      });
    },

    async pullResults(externalId) {
      return allPages(async (cursor) => {
        const { data } = await client.call(
          { path: `${sale(externalId)}/Results`, query: paging(cursor) },
          page(resultSchema.extend({ LotId: z.string() })),
        );
        return {
          // A result list spans no one currency field: each hammer says its own.
          items: data.Value.map((item) => ({
            lotExternalId: item.LotId,
            outcome: item.Outcome === 'Sold' ? ('sold' as const) : ('passed' as const),
            hammer: item.Hammer && minorOf(PLATFORM, item.Hammer.Amount, item.Hammer.CurrencyCode),
            buyerExternalId: item.BuyerId,
          })),
          next: nextOf(data.NextLink),
        };
      });
    },
  };
}
