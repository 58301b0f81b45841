import { z } from 'zod';
import { currencies, type Currency } from '../../../src/auctions/auctions.schema.js';
import { SandboxInvalid, json, type SandboxReply } from '../http.js';
import type { SandboxAuction, SandboxBidder, SandboxLot } from '../model.js';
import { auctionOf, pushAuction } from '../store.js';
import { wordsOf } from '../vocabulary.js';
import { changedSince, decimal, instantOf, isoIn, minorOf, queryInt } from '../wire.js';
import { parseBody, type ApiContext, type PlatformApi } from './api.js';

/**
 * BidSquare: an Azure API Management front door (`Ocp-Apim-Subscription-Key` header, its own
 * error bodies) over a .NET API: PascalCase; GUID ids; `$top`/`$skip` paging with a `NextLink`;
 * money as `{ Amount: "1250.00", CurrencyCode }`; times ISO 8601 with the US Eastern offset;
 * numeric status codes; categories as `{ CategoryId, Name }`. A sale's lots are a list of their own.
 */

const ZONE = 'America/New_York';
/** 1 scheduled, 2 in progress, 3 closed, 4 cancelled. */
const statusCodes = { upcoming: 1, live: 2, closed: 3, cancelled: 4 } as const;
const registrationWords = { approved: 'Approved', pending: 'Pending', denied: 'Rejected' } as const;

/** One page of a list, each item in the wire shape only once it is on the page. */
function skipTop<T>(
  { request, base }: ApiContext,
  items: T[],
  view: (item: T) => unknown = (item) => item,
): SandboxReply {
  const skip = queryInt(request.url, '$skip', 0, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const top = queryInt(request.url, '$top', 50, { min: 1, max: 100 });
  let next: string | null = null;
  if (skip + top < items.length) {
    const url = new URL(`${base}${request.url.pathname.replace(/^\/[^/]+/, '')}`);
    url.search = request.url.search;
    url.searchParams.set('$skip', String(skip + top));
    url.searchParams.set('$top', String(top));
    next = url.toString();
  }
  return json(200, { Value: items.slice(skip, skip + top).map(view), NextLink: next });
}

const since = ({ request }: ApiContext) => {
  const value = request.url.searchParams.get('modifiedSince');
  return value ? instantOf(value, 'modifiedSince') : null;
};

const money = (minor: number | null, currency: Currency) =>
  minor === null ? null : { Amount: decimal(minor, currency), CurrencyCode: currency };

const category = (name: string | null) =>
  name === null ? null : { CategoryId: wordsOf('BidSquare').indexOf(name) + 1, Name: name };

const summary = (auction: SandboxAuction) => ({
  SaleId: auction.id,
  Title: auction.title,
  SaleStatus: statusCodes[auction.status],
  StartDate: isoIn(auction.startsAt, ZONE),
  EndDate: isoIn(auction.endsAt, ZONE),
  LotCount: auction.lots.length,
  ModifiedOn: isoIn(auction.updatedAt, ZONE),
});

const detail = (auction: SandboxAuction) => ({
  ...summary(auction),
  Description: auction.description,
  SaleFormat: auction.type,
  Category: category(auction.category),
  CurrencyCode: auction.currency,
  TimeZoneId: auction.timeZone,
  BuyersPremiumPercent: auction.buyersPremiumPercent,
  Location: auction.location,
});

const result = (item: SandboxLot, currency: Currency) =>
  item.result && {
    Outcome: item.result.outcome === 'sold' ? 'Sold' : 'Passed',
    Hammer: money(item.result.hammer, currency),
    BuyerId: item.result.buyerId,
  };

const lot = (item: SandboxLot, currency: Currency) => ({
  LotId: item.id,
  LotNumber: item.lotNumber,
  Title: item.title,
  Description: item.description,
  Category: category(item.category),
  LowEstimate: money(item.estimateLow, currency),
  HighEstimate: money(item.estimateHigh, currency),
  Reserve: money(item.reserve, currency),
  ConsignorName: item.consignor,
  Result: result(item, currency),
});

const bidder = (person: SandboxBidder) => ({
  BidderId: person.id,
  FirstName: person.firstName,
  LastName: person.lastName,
  Email: person.email,
  Phone: person.phone,
  IsActive: person.status === 'Active',
  LastActivityDate: person.lastActive === null ? null : isoIn(person.lastActive, ZONE),
  TotalBids: person.totalBids,
  TotalWins: person.totalWins,
  TotalSpent: money(person.totalSpent, person.currency),
  ModifiedOn: isoIn(person.updatedAt, ZONE),
});

const moneySchema = z
  .object({ Amount: z.string().regex(/^\d+(\.\d+)?$/), CurrencyCode: z.enum(currencies) })
  .nullable();
const pushSchema = z.object({
  Title: z.string().min(1),
  Description: z.string(),
  SaleFormat: z.enum(['Live', 'Online', 'Hybrid']),
  CategoryName: z.string().min(1),
  CurrencyCode: z.enum(currencies),
  TimeZoneId: z.string().min(1),
  BuyersPremiumPercent: z.number().min(0).max(100),
  Location: z.string().nullable(),
  StartDate: z.string(),
  EndDate: z.string(),
  Lots: z.array(
    z.object({
      LotNumber: z.string().min(1),
      Title: z.string().min(1),
      Description: z.string(),
      CategoryName: z.string().nullable(),
      LowEstimate: moneySchema,
      HighEstimate: moneySchema,
      Reserve: moneySchema,
      ConsignorName: z.string().nullable(),
    }),
  ),
});

function push(context: ApiContext, id: string | null): SandboxReply {
  const body = parseBody(pushSchema, context.request.body);
  const minor = (value: z.infer<typeof moneySchema>, field: string) => {
    if (value === null) return null;
    if (value.CurrencyCode !== body.CurrencyCode) {
      throw new SandboxInvalid(`${field}: must be in the sale's currency`);
    }
    return minorOf(value.Amount, value.CurrencyCode, field);
  };
  const auction = pushAuction(
    context.account,
    {
      title: body.Title,
      description: body.Description,
      type: body.SaleFormat,
      category: body.CategoryName,
      currency: body.CurrencyCode,
      timeZone: body.TimeZoneId,
      startsAt: instantOf(body.StartDate, 'StartDate'),
      endsAt: instantOf(body.EndDate, 'EndDate'),
      buyersPremiumPercent: body.BuyersPremiumPercent,
      location: body.Location,
      lots: body.Lots.map((item, index) => ({
        lotNumber: item.LotNumber,
        title: item.Title,
        description: item.Description,
        category: item.CategoryName,
        estimateLow: minor(item.LowEstimate, `Lots[${index}].LowEstimate`),
        estimateHigh: minor(item.HighEstimate, `Lots[${index}].HighEstimate`),
        reserve: minor(item.Reserve, `Lots[${index}].Reserve`),
        consignor: item.ConsignorName,
      })),
    },
    id,
    context.request.body,
  );
  return json(id === null ? 201 : 200, {
    SaleId: auction.id,
    ModifiedOn: isoIn(auction.updatedAt, ZONE),
  });
}

/** API Management's own answers (lower camelCase), before the request reaches the API. */
const gateway = (status: number, message: string, headers?: Record<string, string>) =>
  json(status, { statusCode: status, message }, headers);

export const bidsquare: PlatformApi = {
  platform: 'BidSquare',
  credential: (request) => {
    const key = request.headers['ocp-apim-subscription-key'];
    return typeof key === 'string' && key ? key : null;
  },
  answers: {
    expired: () => gateway(401, 'Access denied due to expired subscription key.'),
    invalid: () =>
      gateway(
        401,
        'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      ),
    notFound: (what) => json(404, { Message: `No ${what} was found.` }),
    invalidRequest: (message) =>
      json(400, { Message: 'The request is invalid.', ModelState: { request: [message] } }),
    serverError: () => json(500, { Message: 'An error has occurred.' }),
    unavailable: () => gateway(503, 'Service unavailable'),
    rateLimited: () =>
      gateway(429, 'Rate limit is exceeded. Try again in 12 seconds.', { 'retry-after': '12' }),
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/Account',
      handler: ({ account }) =>
        json(200, {
          AccountId: `00000000-0000-4000-8000-${String(account.options.seed).padStart(12, '0')}`,
          DisplayName: account.name,
          Plan: 'Professional',
        }),
    },
    {
      method: 'GET',
      pattern: '/api/v1/Sales',
      handler: (context) =>
        skipTop(context, changedSince(context.account.auctions, since(context)), summary),
    },
    { method: 'POST', pattern: '/api/v1/Sales', handler: (context) => push(context, null) },
    {
      method: 'GET',
      pattern: '/api/v1/Sales/:id',
      handler: ({ account }, { id = '' }) => json(200, detail(auctionOf(account, id))),
    },
    {
      method: 'PUT',
      pattern: '/api/v1/Sales/:id',
      handler: (context, { id = '' }) => push(context, id),
    },
    {
      method: 'GET',
      pattern: '/api/v1/Sales/:id/Lots',
      handler: (context, { id = '' }) => {
        const auction = auctionOf(context.account, id);
        return skipTop(
          context,
          auction.lots.map((item) => lot(item, auction.currency)),
        );
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/Sales/:id/Registrations',
      handler: (context, { id = '' }) =>
        skipTop(
          context,
          auctionOf(context.account, id).registrations.map((registration) => ({
            BidderId: registration.bidderId,
            Status: registrationWords[registration.status],
            PaddleNumber: registration.paddle,
            CreatedOn: isoIn(registration.registeredAt, ZONE),
          })),
        ),
    },
    {
      method: 'GET',
      pattern: '/api/v1/Sales/:id/Results',
      handler: (context, { id = '' }) => {
        const auction = auctionOf(context.account, id);
        return skipTop(
          context,
          auction.lots.flatMap((item) =>
            item.result ? [{ LotId: item.id, ...result(item, auction.currency) }] : [],
          ),
        );
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/Bidders',
      handler: (context) =>
        skipTop(context, changedSince(context.account.bidders, since(context)), bidder),
    },
  ],
};
