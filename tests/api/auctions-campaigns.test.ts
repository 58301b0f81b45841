import { beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type {
  Campaign,
  CampaignsView,
} from '../../functions/src/auctions/campaigns/campaigns.schema.js';
import { createAuction } from '../support/auctions.js';
import {
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  signedInToken,
  strongStats,
  type BidderWrite,
  type Owner,
} from '../support/bidders.js';
import { demo, ifMatch, outbox } from '../support/identity.js';

let owner: Owner;
let viewer: string;
let lakeside: string;
let auction: Auction;
let artLover: BidderWrite;
let optedOut: BidderWrite;
let bookish: BidderWrite;
let newcomer: BidderWrite;

beforeAll(async () => {
  owner = await freshOwner();
  viewer = await signedInToken(demo.viewer);
  lakeside = await signedInToken(demo.lakesideOwner);
  auction = await createAuction(owner.token, { title: 'Autumn Art and Watches' });
  await domain('POST', `/auctions/${auction.id}/lots`, {
    token: owner.token,
    body: { lotNumber: '1', title: 'A watch', category: 'Watches' },
  });
  artLover = await createBidder(owner.token, {
    preferredCategories: ['Art'],
    stats: strongStats(),
  });
  optedOut = await createBidder(owner.token, {
    preferredCategories: ['Watches'],
    stats: strongStats(),
    marketingOptOut: true,
  });
  bookish = await createBidder(owner.token, {
    preferredCategories: ['Books'],
    stats: strongStats(),
  });
  newcomer = await createBidder(owner.token, { preferredCategories: ['Art'] });
});

const campaigns = async () => {
  const reply = await domain<CampaignsView>('GET', `/auctions/${auction.id}/campaigns`, {
    token: owner.token,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

const launch = (body: unknown, token = owner.token) =>
  domain<Campaign>('POST', `/auctions/${auction.id}/campaigns`, { token, body });

const campaignMail = async (email: string | null, kind: string) =>
  (await outbox(email as string)).filter((message) => message.kind === `campaign-${kind}`);

describe('campaigns of an auction', () => {
  it('computes each campaign’s reach on the server, opted-out bidders counted apart', async () => {
    const view = await campaigns();
    expect(view.campaigns).toEqual([
      {
        kind: 'premium',
        name: 'Premium Bidder Campaign',
        trigger: 'Lotwise Score 85 or more, Premium or Gold tier',
        reach: 3,
        deliverable: 2,
        optedOut: 1,
        withoutEmail: 0,
        launches: 0,
        lastLaunchedAt: null,
      },
      {
        kind: 'category',
        name: 'Category-Specific Outreach',
        trigger: 'Custom score 70 or more and a preferred category this sale offers',
        reach: 2,
        deliverable: 1,
        optedOut: 1,
        withoutEmail: 0,
        launches: 0,
        lastLaunchedAt: null,
      },
    ]);
    expect(view.launched).toEqual([]);
  });

  it('launches through the mail port to those who have not opted out, and records it', async () => {
    const reply = await launch({ kind: 'premium' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      kind: 'premium',
      name: 'Premium Bidder Campaign',
      launch: 1,
      status: 'sent',
      reach: 3,
      sent: 2,
      skippedOptedOut: 1,
      skippedWithoutEmail: 0,
      message: null,
    });
    expect(reply.body.launchedBy).toBeTruthy();
    expect(await campaignMail(artLover.email, 'premium')).toHaveLength(1);
    expect(await campaignMail(bookish.email, 'premium')).toHaveLength(1);
    expect(await campaignMail(optedOut.email, 'premium')).toEqual([]);
    expect(await campaignMail(newcomer.email, 'premium')).toEqual([]);
    const view = await campaigns();
    expect(view.launched.map((entry) => entry.id)).toEqual([reply.body.id]);
    expect(view.campaigns[0]).toMatchObject({
      launches: 1,
      lastLaunchedAt: reply.body.launchedAt,
    });
  });

  it('asks before launching the same campaign again (409), then launches on confirmation', async () => {
    const again = await launch({ kind: 'premium' });
    expect(again.status).toBe(409);
    expect(messageOf(again)).toMatch(/^The Premium Bidder Campaign was launched for this auction/);
    const confirmed = await launch({
      kind: 'premium',
      confirmRepeat: true,
      message: 'A last look before the sale.',
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({ launch: 2, sent: 2 });
    const mail = await campaignMail(artLover.email, 'premium');
    expect(mail).toHaveLength(2);
    expect(mail.some((message) => message.text.includes('A last look before the sale.'))).toBe(
      true,
    );
    expect((await campaigns()).launched.map((entry) => entry.launch)).toEqual([2, 1]);
  });

  it('sends category outreach naming the categories the bidder follows', async () => {
    const reply = await launch({ kind: 'category' });
    expect(reply.body).toMatchObject({ reach: 2, sent: 1, skippedOptedOut: 1 });
    const [mail] = await campaignMail(artLover.email, 'category');
    expect(mail?.text).toContain('offers lots in Art');
    expect(await campaignMail(optedOut.email, 'category')).toEqual([]);
  });

  it('mails no one who opts out afterwards', async () => {
    const bidder = await domain<{ etag: string }>('GET', `/bidders/${bookish.id}`, {
      token: owner.token,
    });
    const saved = await domain<{ marketingOptOut: boolean }>('PUT', `/bidders/${bookish.id}`, {
      token: owner.token,
      body: { marketingOptOut: true },
      headers: ifMatch(bidder.body.etag),
    });
    expect(saved.body.marketingOptOut).toBe(true);
    const before = (await campaignMail(bookish.email, 'premium')).length;
    const reply = await launch({ kind: 'premium', confirmRepeat: true });
    expect(reply.body).toMatchObject({ sent: 1, skippedOptedOut: 2 });
    expect(await campaignMail(bookish.email, 'premium')).toHaveLength(before);
  });
});

describe('what a launch refuses', () => {
  it('a caller without communications:email (403), another account (404), bad input (400)', async () => {
    const refused = await launch({ kind: 'premium', confirmRepeat: true }, viewer);
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toBe('You need the communications:email permission to do this');
    expect((await launch({ kind: 'premium' }, lakeside)).status).toBe(404);
    expect(
      (await domain('GET', `/auctions/${auction.id}/campaigns`, { token: lakeside })).status,
    ).toBe(404);
    expect(fieldsOf(await launch({ kind: 'everyone' }))).toEqual(['kind']);
  });

  it('a sale that is over (409)', async () => {
    const cancelled = await createAuction(owner.token);
    await domain('POST', `/auctions/${cancelled.id}/cancel`, {
      token: owner.token,
      body: { reason: 'Withdrawn' },
    });
    const reply = await domain('POST', `/auctions/${cancelled.id}/campaigns`, {
      token: owner.token,
      body: { kind: 'premium' },
    });
    expect(reply.status).toBe(409);
  });
});
