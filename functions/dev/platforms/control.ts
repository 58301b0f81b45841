import { z } from 'zod';
import {
  auctionTypes,
  currencies,
  platforms,
  type Platform,
} from '../../src/auctions/auctions.schema.js';
import { parseBody } from './apis/api.js';
import { exportCsv, exportXlsx, type ExportKind } from './exports.js';
import {
  SandboxInvalid,
  SandboxNotFound,
  json,
  type Route,
  type SandboxReply,
  type SandboxRequest,
} from './http.js';
import { tick, type Faults, type SandboxAccount } from './model.js';
import { newId } from './seed.js';
import { auctionOf, bidderOf, platformSlugs, type SandboxStore } from './store.js';
import { accountView, auctionView, bidderView } from './views.js';
import { wordsOf } from './vocabulary.js';

/**
 * The control API under `/__sandbox/`, for tests, benchmarks and a developer's curl: accounts
 * with chosen sizes, faults per key, changes made "on the platform", what was pushed, export
 * files, and reset. Never part of any platform's API.
 */

export interface ControlContext {
  store: SandboxStore;
  request: SandboxRequest;
}

const platformByName = (value: string): Platform | undefined =>
  platforms.find(
    (platform) =>
      platform.toLowerCase() === value.toLowerCase() || platformSlugs[platform] === value,
  );

const platformSchema = z.string().transform((value, ctx) => {
  const platform = platformByName(value);
  if (!platform) {
    ctx.addIssue({ code: 'custom', message: `is one of ${platforms.join(', ')}` });
    return z.NEVER;
  }
  return platform;
});

const person = z.object({
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.string().min(1).optional(),
  phone: z.string().min(1).optional(),
});

const accountSchema = z.object({
  platform: platformSchema,
  name: z.string().min(1).max(200).optional(),
  auctions: z.number().int().min(0).max(2_000).default(8),
  lotsPerAuction: z
    .union([
      z.number().int().min(1).max(2_000),
      z
        .object({ min: z.number().int().min(1), max: z.number().int().max(2_000) })
        .refine((range) => range.min <= range.max, 'min must not be above max'),
    ])
    .default({ min: 5, max: 40 })
    .transform((value) => (typeof value === 'number' ? { min: value, max: value } : value)),
  bidders: z.number().int().min(0).max(100_000).default(50),
  seed: z.number().int().min(0).default(1),
  include: z.array(person).max(1_000).default([]),
  currency: z.enum(currencies).default('USD'),
  timeZone: z.string().min(1).default('America/New_York'),
});

const faultsSchema = z
  .object({
    expired_key: z.literal(true),
    invalid_key: z.literal(true),
    server_error: z.literal(true),
    unavailable: z.literal(true),
    rate_limited: z.literal(true),
    timeout: z.literal(true),
    slow: z.object({ delayMs: z.number().int().min(1).max(120_000) }),
    fail_after: z.object({ requests: z.number().int().min(0) }),
    bad_payload: z.enum(['shape', 'json']),
  })
  .partial()
  .strict();

const instant = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));
const minor = z.number().int().min(0).nullable();

const auctionChanges = z
  .object({
    title: z.string().min(1),
    description: z.string(),
    type: z.enum(auctionTypes),
    category: z.string().min(1),
    status: z.enum(['upcoming', 'live', 'closed', 'cancelled']),
    startsAt: instant,
    endsAt: instant,
    buyersPremiumPercent: z.number().min(0).max(100),
    location: z.string().nullable(),
  })
  .partial()
  .strict();

const lotChanges = z
  .object({
    lotNumber: z.string().min(1),
    title: z.string().min(1),
    description: z.string(),
    category: z.string().nullable(),
    estimateLow: minor,
    estimateHigh: minor,
    reserve: minor,
    consignor: z.string().nullable(),
    result: z
      .object({
        outcome: z.enum(['sold', 'passed']),
        hammer: minor,
        buyerId: z.string().nullable(),
      })
      .nullable(),
  })
  .partial()
  .strict();

const bidderFields = {
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(['Active', 'Inactive']),
  lastActive: instant.nullable(),
  totalBids: z.number().int().min(0),
  totalWins: z.number().int().min(0),
  totalSpent: z.number().int().min(0),
};
const bidderChanges = z.object(bidderFields).partial().strict();
const newBidder = z
  .object(bidderFields)
  .partial()
  .required({ firstName: true, lastName: true })
  .strict();

const registrationSchema = z.object({
  bidderId: z.string().min(1),
  status: z.enum(['approved', 'pending', 'denied']).default('approved'),
  paddle: z.string().min(1).nullable().default(null),
  registeredAt: instant.optional(),
});

/** What a client of the control API sends, as the schemas above read it. */
export type AccountInput = z.input<typeof accountSchema>;
export type FaultsInput = z.input<typeof faultsSchema>;
export type AuctionChanges = z.input<typeof auctionChanges>;
export type LotChanges = z.input<typeof lotChanges>;
export type BidderChanges = z.input<typeof bidderChanges>;
export type NewBidder = z.input<typeof newBidder>;
export type RegistrationInput = z.input<typeof registrationSchema>;
export type AccountSummary = ReturnType<typeof summary>;

function accountOf({ store }: ControlContext, key: string): SandboxAccount {
  const account = store.get(key);
  if (!account) throw new SandboxNotFound(`account with key ${key}`);
  return account;
}

function checkCategory(account: SandboxAccount, category: string | null | undefined) {
  if (category != null && !wordsOf(account.platform).includes(category)) {
    throw new SandboxInvalid(`category "${category}" is not one of ${account.platform}'s`);
  }
}

const summary = (account: SandboxAccount, origin: string) => ({
  platform: account.platform,
  key: account.key,
  name: account.name,
  baseUrl: `${origin}/${platformSlugs[account.platform]}`,
  auctions: account.auctions.size,
  bidders: account.bidders.size,
  faults: account.faults,
});

async function exportFile(
  { store, request }: ControlContext,
  slug: string,
  file: string,
): Promise<SandboxReply> {
  const platform = platformByName(slug);
  const match = /^(bidders|catalogue)\.(csv|xlsx)$/.exec(file);
  if (!platform || !match) throw new SandboxNotFound(`export ${slug}/${file}`);
  const key = request.url.searchParams.get('key') ?? '';
  const account = store.get(key);
  if (!account || account.platform !== platform) {
    throw new SandboxNotFound(`${platform} account with key "${key}"`);
  }
  const kind = match[1] as ExportKind;
  const auctionId = request.url.searchParams.get('auction');
  const auctions = auctionId ? [auctionOf(account, auctionId)] : [...account.auctions.values()];
  const bidders = [...account.bidders.values()];
  const name = `${platformSlugs[platform]}-${kind}.${match[2]}`;
  const disposition = { 'content-disposition': `attachment; filename="${name}"` };
  if (match[2] === 'csv') {
    return {
      status: 200,
      body: exportCsv(platform, kind, bidders, auctions),
      contentType: 'text/csv; charset=utf-8',
      headers: disposition,
    };
  }
  return {
    status: 200,
    body: await exportXlsx(platform, kind, bidders, auctions),
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    headers: disposition,
  };
}

export const controlRoutes: Route<ControlContext>[] = [
  {
    method: 'GET',
    pattern: '/accounts',
    handler: ({ store, request }) =>
      json(200, {
        accounts: [...store.accounts.values()].map((account) => summary(account, request.origin)),
      }),
  },
  {
    method: 'POST',
    pattern: '/accounts',
    handler: ({ store, request }) => {
      const body = parseBody(accountSchema, request.body ?? {});
      return json(201, summary(store.create(body), request.origin));
    },
  },
  {
    method: 'GET',
    pattern: '/accounts/:key',
    handler: (context, { key = '' }) =>
      json(200, accountView(accountOf(context, key), context.request.origin)),
  },
  {
    method: 'POST',
    pattern: '/accounts/:key/reset',
    handler: (context, { key = '' }) => {
      const account = accountOf(context, key);
      context.store.reseed(account);
      return json(200, summary(account, context.request.origin));
    },
  },
  {
    method: 'GET',
    pattern: '/accounts/:key/faults',
    handler: (context, { key = '' }) => {
      const account = accountOf(context, key);
      return json(200, {
        faults: account.faults,
        requestsSinceFaults: account.requestsSinceFaults,
      });
    },
  },
  {
    method: 'PUT',
    pattern: '/accounts/:key/faults',
    handler: (context, { key = '' }) => {
      const account = accountOf(context, key);
      account.faults = parseBody(faultsSchema, context.request.body ?? {}) as Faults;
      account.requestsSinceFaults = 0;
      return json(200, { faults: account.faults });
    },
  },
  {
    method: 'DELETE',
    pattern: '/accounts/:key/faults',
    handler: (context, { key = '' }) => {
      const account = accountOf(context, key);
      account.faults = {};
      account.requestsSinceFaults = 0;
      return json(200, { faults: account.faults });
    },
  },
  {
    method: 'GET',
    pattern: '/accounts/:key/pushed',
    handler: (context, { key = '' }) => json(200, { pushed: accountOf(context, key).pushed }),
  },
  {
    method: 'PATCH',
    pattern: '/accounts/:key/auctions/:id',
    handler: (context, { key = '', id = '' }) => {
      const account = accountOf(context, key);
      const auction = auctionOf(account, id);
      const changes = parseBody(auctionChanges, context.request.body);
      checkCategory(account, changes.category);
      Object.assign(auction, changes, { updatedAt: tick() });
      return json(200, auctionView(auction));
    },
  },
  {
    method: 'PATCH',
    pattern: '/accounts/:key/auctions/:id/lots/:lotId',
    handler: (context, { key = '', id = '', lotId = '' }) => {
      const account = accountOf(context, key);
      const auction = auctionOf(account, id);
      const lot = auction.lots.find((item) => item.id === lotId);
      if (!lot) throw new SandboxNotFound(`lot ${lotId}`);
      const changes = parseBody(lotChanges, context.request.body);
      checkCategory(account, changes.category);
      if (changes.result?.buyerId) bidderOf(account, changes.result.buyerId);
      Object.assign(lot, changes);
      auction.updatedAt = tick();
      return json(200, auctionView(auction));
    },
  },
  {
    method: 'POST',
    pattern: '/accounts/:key/auctions/:id/registrations',
    handler: (context, { key = '', id = '' }) => {
      const account = accountOf(context, key);
      const auction = auctionOf(account, id);
      const body = parseBody(registrationSchema, context.request.body);
      bidderOf(account, body.bidderId);
      auction.registrations = [
        ...auction.registrations.filter((registration) => registration.bidderId !== body.bidderId),
        {
          bidderId: body.bidderId,
          status: body.status,
          paddle: body.paddle,
          registeredAt: body.registeredAt ?? Date.now(),
        },
      ];
      auction.updatedAt = tick();
      return json(201, auctionView(auction));
    },
  },
  {
    method: 'POST',
    pattern: '/accounts/:key/bidders',
    handler: (context, { key = '' }) => {
      const account = accountOf(context, key);
      const body = parseBody(newBidder, context.request.body);
      const bidder = {
        id: newId(account, 'bidder'),
        email: null,
        phone: null,
        status: 'Active' as const,
        lastActive: null,
        totalBids: 0,
        totalWins: 0,
        totalSpent: 0,
        currency: account.profile.currency,
        ...body,
        updatedAt: tick(),
      };
      account.bidders.set(bidder.id, bidder);
      return json(201, bidderView(bidder));
    },
  },
  {
    method: 'PATCH',
    pattern: '/accounts/:key/bidders/:id',
    handler: (context, { key = '', id = '' }) => {
      const account = accountOf(context, key);
      const bidder = bidderOf(account, id);
      Object.assign(bidder, parseBody(bidderChanges, context.request.body), { updatedAt: tick() });
      return json(200, bidderView(bidder));
    },
  },
  {
    method: 'POST',
    pattern: '/reset',
    handler: ({ store }) => {
      store.reset();
      return json(200, { accounts: store.accounts.size });
    },
  },
  {
    method: 'GET',
    pattern: '/:platform/export/:file',
    handler: (context, { platform = '', file = '' }) => exportFile(context, platform, file),
  },
];
