import { beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type {
  AssessmentInviteResult,
  AssessmentView,
} from '../../functions/src/auctions/assessment/assessment.schema.js';
import { createAuction } from '../support/auctions.js';
import {
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  signedInToken,
  strongStats,
  type BidderWrite,
  type Owner,
} from '../support/bidders.js';
import { demo, outbox } from '../support/identity.js';

let owner: Owner;
let viewer: string;
let lakeside: string;
let auction: Auction;
let strong: BidderWrite;
let jeweller: BidderWrite;
let newcomer: BidderWrite;
let disputed: BidderWrite;

beforeAll(async () => {
  owner = await freshOwner();
  viewer = await signedInToken(demo.viewer);
  lakeside = await signedInToken(demo.lakesideOwner);
  auction = await createAuction(owner.token, { title: 'Modern Paintings' });
  for (const [lotNumber, category, estimateLow] of [
    ['1', 'Art', 100_000],
    ['2', 'Art', 100_000],
    ['3', 'Art', 100_000],
    ['4', 'Jewelry', 40_000],
  ] as const) {
    await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: {
        lotNumber,
        title: `Lot ${lotNumber}`,
        category,
        estimateLow,
        estimateHigh: category === 'Art' ? 200_000 : null,
      },
    });
  }
  strong = await createBidder(owner.token, {
    bidderId: 'STRONG-1',
    preferredCategories: ['Art'],
    stats: strongStats(),
  });
  jeweller = await createBidder(owner.token, {
    bidderId: 'JEWEL-1',
    preferredCategories: ['Jewelry'],
    stats: strongStats(),
  });
  newcomer = await createBidder(owner.token, {
    bidderId: 'NEW-1',
    preferredCategories: ['Art'],
  });
  disputed = await createBidder(owner.token, {
    bidderId: 'DISPUTE-1',
    preferredCategories: ['Art'],
    stats: { ...strongStats(), disputes: 2 },
  });
});

const assessment = async (query = '') => {
  const reply = await domain<AssessmentView>('GET', `/auctions/${auction.id}/assessment${query}`, {
    token: owner.token,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

describe('assessing bidders for an auction', () => {
  it('ranks them by recommendation and match, with the counts of every bidder', async () => {
    const view = await assessment();
    expect(
      view.items.map((item) => [item.bidder.bidderId, item.recommendation, item.riskLevel]),
    ).toEqual([
      ['STRONG-1', 'Auto-Invite', 'Low'],
      ['JEWEL-1', 'Consider', 'Low'],
      ['NEW-1', 'Review', 'Medium'],
      ['DISPUTE-1', 'Skip', 'High'],
    ]);
    expect(view.counts).toEqual({
      autoInvite: 1,
      consider: 1,
      review: 1,
      skip: 1,
      totalAnalysed: 4,
      autoInviteNotInvited: 1,
    });
    const [first, second] = view.items;
    expect(first?.matchScore).toBeGreaterThan(second?.matchScore ?? 100);
    expect(first?.bidder).toEqual({
      id: strong.id,
      bidderId: 'STRONG-1',
      firstName: strong.firstName,
      lastName: strong.lastName,
      email: strong.email,
      preferredCategories: ['Art'],
      lotwiseScore: { score: strong.lotwiseScore.score, tier: strong.lotwiseScore.tier },
    });
  });

  it('gives reasons that name their facts', async () => {
    const view = await assessment();
    const reasonsOf = (id: string) => view.items.find((item) => item.bidder.id === id)?.reasons;
    expect(reasonsOf(strong.id)).toEqual(
      expect.arrayContaining([
        "Prefers Art, this sale's category",
        '3 of 4 lots in preferred categories',
        `Lotwise Score ${strong.lotwiseScore.score} (${strong.lotwiseScore.tier})`,
        'Last auction 5 days ago',
        'Average win $3,125 against a typical estimate of $1,500',
      ]),
    );
    expect(reasonsOf(jeweller.id)).toContain('1 of 4 lots in preferred categories');
    expect(reasonsOf(newcomer.id)).toEqual(
      expect.arrayContaining(['No auction on record', 'No payments on record']),
    );
    expect(reasonsOf(disputed.id)).toContain('2 disputes on record');
    expect(view.items[0]?.aiInsights).toMatch(/^Strong fit \(match \d+\)\. Interested in Art\./);
  });

  it('filters by recommendation and lists at most the limit', async () => {
    const skipped = await assessment('?recommendation=Skip');
    expect(skipped.items.map((item) => item.bidder.bidderId)).toEqual(['DISPUTE-1']);
    expect(skipped.counts.totalAnalysed).toBe(4);
    expect((await assessment('?limit=2')).items.map((item) => item.bidder.bidderId)).toEqual([
      'STRONG-1',
      'JEWEL-1',
    ]);
    const tooMany = await domain('GET', `/auctions/${auction.id}/assessment?limit=501`, {
      token: owner.token,
    });
    expect(fieldsOf(tooMany)).toEqual(['limit']);
  });

  it('answers another account 404 and a viewer 403', async () => {
    expect(
      (await domain('GET', `/auctions/${auction.id}/assessment`, { token: lakeside })).status,
    ).toBe(404);
    expect(
      (await domain('GET', `/auctions/${auction.id}/assessment`, { token: viewer })).status,
    ).toBe(403);
  });
});

describe('inviting from the assessment', () => {
  const invite = (body: unknown, token = owner.token) =>
    domain<AssessmentInviteResult>('POST', `/auctions/${auction.id}/assessment/invite`, {
      token,
      body,
    });

  it('sends every Auto-Invite bidder a real invitation, then shows them invited', async () => {
    const sent = await invite({ all: 'Auto-Invite' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ invited: 1, withoutEmail: [], skipped: [] });
    const mail = await outbox(strong.email as string);
    expect(mail.filter((message) => message.kind === 'auction-invitation')).toHaveLength(1);
    const view = await assessment();
    expect(view.items.find((item) => item.bidder.id === strong.id)?.invited).toBe(true);
    expect(view.counts.autoInviteNotInvited).toBe(0);
    const again = await invite({ all: 'Auto-Invite' });
    expect(again.body.invited).toBe(0);
    expect(again.body.skipped).toEqual([
      {
        bidderId: strong.id,
        name: `${strong.firstName} ${strong.lastName}`,
        reason: expect.stringMatching(/^Already invited by /),
      },
    ]);
  });

  it('sends the selected ones, passing over those already invited instead of refusing all', async () => {
    const sent = await invite({ bidderIds: [strong.id, jeweller.id, jeweller.id] });
    expect(sent.status).toBe(200);
    expect(sent.body.invited).toBe(1);
    expect(sent.body.skipped.map((entry) => entry.bidderId)).toEqual([strong.id]);
    expect(
      (await outbox(jeweller.email as string)).filter(
        (message) => message.kind === 'auction-invitation',
      ),
    ).toHaveLength(1);
  });

  it('wants the bidders or all Auto-Invite ones, not both nor neither', async () => {
    expect(fieldsOf(await invite({ bidderIds: [newcomer.id], all: 'Auto-Invite' }))).toEqual([
      'bidderIds',
    ]);
    expect(fieldsOf(await invite({}))).toEqual(['bidderIds']);
    expect(fieldsOf(await invite({ bidderIds: ['no-such-bidder'] }))).toEqual(['bidderIds']);
  });

  it('refuses a viewer, another account, and a sale that is over', async () => {
    expect((await invite({ bidderIds: [newcomer.id] }, viewer)).status).toBe(403);
    expect((await invite({ bidderIds: [newcomer.id] }, lakeside)).status).toBe(404);
    const cancelled = await createAuction(owner.token);
    await domain('POST', `/auctions/${cancelled.id}/cancel`, {
      token: owner.token,
      body: { reason: 'Withdrawn' },
    });
    const late = await domain('POST', `/auctions/${cancelled.id}/assessment/invite`, {
      token: owner.token,
      body: { all: 'Auto-Invite' },
    });
    expect(late.status).toBe(409);
  });
});
