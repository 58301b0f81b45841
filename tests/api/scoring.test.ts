import { beforeAll, describe, expect, it } from 'vitest';
import type { ScoreChange } from '../../functions/src/bidders/bidders.schema.js';
import {
  DEFAULT_AUTOMATION,
  DEFAULT_CUSTOM_TIERS,
  DEFAULT_CUSTOM_WEIGHTS,
  LOTWISE_TIERS,
  LOTWISE_WEIGHTS,
  type ScoringSettingsView,
  type Weights,
} from '../../functions/src/scoring/scoring.schema.js';
import {
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  list,
  messageOf,
  recomputed,
  saveSettings,
  settingsOf,
  signedInToken,
  type BidderWrite,
  type Owner,
} from '../support/bidders.js';
import { database, demo, ifMatch } from '../support/identity.js';

let staff: string;
let viewer: string;
beforeAll(async () => {
  staff = await signedInToken(demo.staff);
  viewer = await signedInToken(demo.viewer);
});

const put = (token: string, body: unknown) => saveSettings(token, body);

async function scoreHistoryOf(token: string, bidderId: string) {
  const reply = await domain<{ changes: ScoreChange[] }>(
    'GET',
    `/bidders/${bidderId}/score-history`,
    { token },
  );
  expect(reply.status).toBe(200);
  return reply.body.changes;
}

describe('the Lotwise model', () => {
  it('is the same published weights and tiers for anyone signed in', async () => {
    const reply = await domain<{ weights: unknown; tiers: unknown; description: string }>(
      'GET',
      '/scoring/lotwise',
      { token: viewer },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.weights).toEqual(LOTWISE_WEIGHTS);
    expect(reply.body.tiers).toEqual({ premium: 90, gold: 80, silver: 70, bronze: 60 });
    expect(reply.body.tiers).toEqual(LOTWISE_TIERS);
    expect(reply.body.description).toMatch(/cannot be changed/);
    expect((await domain('GET', '/scoring/lotwise')).status).toBe(401);
  });
});

describe('scoring settings', () => {
  let house: Owner;
  beforeAll(async () => {
    house = await freshOwner();
  });

  it('starts from the defaults', async () => {
    const reply = await domain<ScoringSettingsView>('GET', '/scoring/settings', {
      token: house.token,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      etag: 'defaults',
      customWeights: DEFAULT_CUSTOM_WEIGHTS,
      customTiers: { premium: 85, gold: 75, silver: 65, bronze: 55 },
      automation: DEFAULT_AUTOMATION,
      registration: {
        bidLimits: {
          Premium: null,
          Gold: 5_000_000,
          Silver: 1_000_000,
          Bronze: 250_000,
          New: 100_000,
        },
        autoApprove: {
          previouslyApproved: false,
          approvedAuctions: 3,
          itemsWon: null,
          amountSpent: null,
        },
        neverWithOpenDispute: true,
        autoAccept: [],
        autoDecline: [],
      },
      autoMergeThreshold: 95,
      version: 0,
      updatedAt: null,
      recompute: null,
    });
    expect(reply.body.customTiers).toEqual(DEFAULT_CUSTOM_TIERS);
  });

  it('needs bidders:view to read and bidders:scoring to change', async () => {
    expect((await domain('GET', '/scoring/settings')).status).toBe(401);
    expect((await domain('GET', '/scoring/settings', { token: viewer })).status).toBe(200);
    expect((await domain('PUT', '/scoring/settings', { body: {} })).status).toBe(401);
    const byStaff = await put(staff, { autoMergeThreshold: 90 });
    expect(byStaff.status).toBe(403);
    expect(messageOf(byStaff)).toBe('You need the bidders:scoring permission to do this');
    expect((await put(viewer, { autoMergeThreshold: 90 })).status).toBe(403);
  });

  it('needs If-Match with the version it changes, and refuses a stale one', async () => {
    const missing = await domain('PUT', '/scoring/settings', {
      token: house.token,
      body: { autoMergeThreshold: 90 },
    });
    expect(missing.status).toBe(428);
    const stale = await saveSettings(house.token, { autoMergeThreshold: 90 }, 'not-the-etag');
    expect(stale.status).toBe(412);
    expect((await settingsOf(house.token)).etag).toBe('defaults');
  });

  it('refuses weights over 100 with the spec message', async () => {
    const reply = await put(house.token, {
      customWeights: { ...DEFAULT_CUSTOM_WEIGHTS, paymentHistory: 35 },
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['customWeights']);
    expect(messageOf(reply)).toBe('customWeights: Weights must total 100% (currently over by 5%)');
  });

  it('refuses weights under 100 with the spec message', async () => {
    const reply = await put(house.token, {
      customWeights: { ...DEFAULT_CUSTOM_WEIGHTS, paymentHistory: 18 },
    });
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe(
      'customWeights: Weights must total 100% (currently under by 12%)',
    );
  });

  it.each([
    [
      'customWeights.referrals',
      { customWeights: { ...DEFAULT_CUSTOM_WEIGHTS, referrals: 'five' } },
    ],
    ['customTiers', { customTiers: { premium: 60, gold: 75, silver: 65, bronze: 55 } }],
    ['customTiers.gold', { customTiers: { premium: 85, gold: 175, silver: 65, bronze: 55 } }],
    [
      'automation.autoInvite.minimumTier',
      {
        automation: {
          ...DEFAULT_AUTOMATION,
          autoInvite: { ...DEFAULT_AUTOMATION.autoInvite, minimumTier: 'New' },
        },
      },
    ],
    [
      'automation.autoInvite.scoreThreshold',
      {
        automation: {
          ...DEFAULT_AUTOMATION,
          autoInvite: { ...DEFAULT_AUTOMATION.autoInvite, scoreThreshold: 40 },
        },
      },
    ],
    ['autoMergeThreshold', { autoMergeThreshold: 101 }],
  ])('refuses a bad %s naming it', async (field, body) => {
    const reply = await put(house.token, body);
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)[0]).toBe(field);
    // Nothing was saved.
    expect((await settingsOf(house.token)).version).toBe(0);
  });

  it('refuses tier minimums out of order with the reason', async () => {
    const reply = await put(house.token, {
      customTiers: { premium: 60, gold: 75, silver: 65, bronze: 55 },
    });
    expect(messageOf(reply)).toBe('customTiers: Tier minimums must go down from Premium to Bronze');
  });

  it('refuses an auto-invite threshold not above auto-deny, with the reason', async () => {
    const reply = await put(house.token, {
      automation: {
        ...DEFAULT_AUTOMATION,
        autoInvite: { ...DEFAULT_AUTOMATION.autoInvite, scoreThreshold: 40 },
      },
    });
    expect(messageOf(reply)).toBe(
      'automation.autoInvite.scoreThreshold: Auto-invite must be above auto-deny, so Manual Review lies between them',
    );
    expect((await settingsOf(house.token)).version).toBe(0);
  });

  it('offers auto-invite candidates from the Auto-Invite threshold, the one threshold there is', async () => {
    const other = await freshOwner();
    const candidates = () =>
      domain<{ minScore: number }>('GET', '/auto-invite-candidates', { token: other.token });
    expect((await candidates()).body.minScore).toBe(DEFAULT_AUTOMATION.autoInvite.scoreThreshold);
    // Either rule switched off leaves nothing to order.
    const saved = await put(other.token, {
      automation: {
        autoInvite: { ...DEFAULT_AUTOMATION.autoInvite, scoreThreshold: 30 },
        autoDeny: { ...DEFAULT_AUTOMATION.autoDeny, enabled: false },
      },
    });
    expect(saved.status).toBe(200);
    expect((await candidates()).body.minScore).toBe(30);
  });

  it('saves a threshold that does not touch the score without a recalculation', async () => {
    const reply = await put(house.token, { autoMergeThreshold: 88 });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      autoMergeThreshold: 88,
      customWeights: DEFAULT_CUSTOM_WEIGHTS,
      version: 0,
      recompute: null,
    });
    expect(reply.body.updatedAt).toBeTruthy();
    const read = await settingsOf(house.token);
    expect(read.autoMergeThreshold).toBe(88);
  });
});

describe('saving new weights', () => {
  let house: Owner;
  beforeAll(async () => {
    house = await freshOwner();
  });

  it('recalculates every custom score in the background, leaving the Lotwise score alone', async () => {
    // Payment history 80 (8 on time, 2 late), dispute history 75 (one dispute).
    const bidders = [];
    for (let index = 0; index < 4; index += 1) {
      bidders.push(
        await createBidder(house.token, {
          stats: { paymentsOnTime: 8, paymentsLate: 2, disputes: 1, totalLotsBid: 20 * index },
        }),
      );
    }
    const before = bidders[0]!;
    // The defaults: 80x30 + 75x10 (one dispute) + 0x5 (no referrals), and the components the
    // first bidder has no evidence for (no lots bid) a neutral 50: 50x(20+10+15+5+5). 5900/100.
    expect(before.customScore.score).toBe(59);

    const weights = {
      paymentHistory: 50,
      bidActivity: 0,
      winRate: 0,
      avgSpending: 0,
      accountAge: 0,
      communicationResponsiveness: 0,
      disputeHistory: 50,
      referrals: 0,
    };
    const saved = await put(house.token, { customWeights: weights });
    expect(saved.status).toBe(200);
    expect(saved.body.customWeights).toEqual(weights);
    expect(saved.body.version).toBe(1);
    expect(saved.body.recompute).toMatchObject({ status: 'queued', processed: 0 });

    const status = await recomputed(house.token, saved.body.recompute?.jobId as string);
    expect(status).toMatchObject({ status: 'completed', processed: 4, total: 4 });
    expect(status.finishedAt).toBeTruthy();

    for (const bidder of bidders) {
      const after = await getBidder(house.token, bidder.id);
      // 80x50 + 75x50 = 7750 / 100 = 77.5, rounded: 78, Gold at the default custom tiers.
      expect(after.body.customScore).toMatchObject({ score: 78, tier: 'Gold' });
      expect(after.body.lotwiseScore.score).toBe(bidder.lotwiseScore.score);
    }
    // Each bidder's history tells why its score moved, and who saved the weights.
    const [change, ...others] = await scoreHistoryOf(house.token, before.id);
    expect(others).toEqual([]);
    expect(change).toMatchObject({
      cause: 'Scoring settings changed',
      by: 'Test Person',
      custom: { before: 59, after: 78, tierBefore: before.customScore.tier, tierAfter: 'Gold' },
      lotwise: { before: before.lotwiseScore.score, after: before.lotwiseScore.score },
    });
    const gold = await list(house.token, { scoreType: 'custom', tier: 'Gold' });
    expect(gold.body.total).toBe(4);
    // A bidder added after the save is scored with the new weights straight away.
    const later = await createBidder(house.token, {
      stats: { paymentsOnTime: 8, paymentsLate: 2, disputes: 1 },
    });
    expect(later.customScore.score).toBe(78);
  });

  it('recalculates tiers and automation status when those change', async () => {
    const bidder = (await list(house.token, { limit: 1 })).body.bidders[0]!;
    expect(bidder.autoInviteStatus).toBe('Auto-Deny');
    const saved = await put(house.token, {
      customTiers: { premium: 78, gold: 70, silver: 60, bronze: 50 },
      automation: {
        ...DEFAULT_AUTOMATION,
        autoDeny: { ...DEFAULT_AUTOMATION.autoDeny, checkDisputes: false },
      },
    });
    expect(saved.body.version).toBe(2);
    await recomputed(house.token, saved.body.recompute?.jobId as string);
    const after = await getBidder(house.token, bidder.id);
    expect(after.body.customScore).toMatchObject({ score: 78, tier: 'Premium' });
    // A tier moved though the score did not: that is a change too.
    expect((await scoreHistoryOf(house.token, bidder.id))[0]?.custom).toEqual({
      before: 78,
      after: 78,
      tierBefore: 'Gold',
      tierAfter: 'Premium',
    });
    // 78 is under the Auto-Invite threshold of 80: no longer denied, left for review.
    expect(after.body.autoInviteStatus).toBe('Manual Review');
    const denied = await list(house.token, { autoInvite: 'Auto-Deny' });
    expect(denied.body.total).toBe(0);
  });

  it('lets only the newest of two quick saves finish', async () => {
    const first = await put(house.token, {
      customWeights: { ...DEFAULT_CUSTOM_WEIGHTS },
    });
    const second = await put(house.token, {
      customWeights: {
        paymentHistory: 50,
        bidActivity: 0,
        winRate: 0,
        avgSpending: 0,
        accountAge: 0,
        communicationResponsiveness: 50,
        disputeHistory: 0,
        referrals: 0,
      },
    });
    expect(second.body.version).toBe(first.body.version + 1);
    const status = await recomputed(house.token, second.body.recompute?.jobId as string);
    expect(status.status).toBe('completed');
    const settings = await settingsOf(house.token);
    expect(settings.recompute?.jobId).toBe(second.body.recompute?.jobId);
    const { bidders } = (await list(house.token, { limit: 200 })).body;
    // 80x50 + 50x50 (responsiveness unknown) = 65.
    expect(bidders.map((bidder) => bidder.customScore.score)).toEqual(bidders.map(() => 65));
  });
});

describe('scoring usage', () => {
  it('counts the scored bidders of the caller’s account', async () => {
    const house = await freshOwner();
    const empty = await domain<{ scoredBidders: number }>('GET', '/scoring/usage', {
      token: house.token,
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ scoredBidders: 0 });
    await createBidder(house.token);
    await createBidder(house.token);
    const two = await domain<{ scoredBidders: number }>('GET', '/scoring/usage', {
      token: house.token,
    });
    expect(two.body.scoredBidders).toBe(2);
    const harborview = await domain<{ scoredBidders: number }>('GET', '/scoring/usage', {
      token: viewer,
    });
    expect(harborview.body.scoredBidders).toBe(62);
  });
});

/** Weights whose custom score, for the stats the race tests use, differ from one save to the next. */
function weightsFor(step: number): Weights {
  const disputeHistory = step % 51;
  return {
    paymentHistory: 50,
    bidActivity: 0,
    winRate: 0,
    avgSpending: 0,
    accountAge: 0,
    communicationResponsiveness: 50 - disputeHistory,
    disputeHistory,
    referrals: 0,
  };
}

/** Every bidder of the account carries the settings' newest version and scores as a new one would. */
async function expectAllOnNewest(token: string, accountId: string) {
  const settings = await settingsOf(token);
  expect(settings.recompute).toMatchObject({ status: 'completed' });
  const { db, dispose } = await database();
  try {
    const { resources } = await db
      .container('bidders')
      .items.query<{ customVersion: number }>(
        {
          query: 'SELECT c.customVersion FROM c WHERE c.accountId = @accountId',
          parameters: [{ name: '@accountId', value: accountId }],
        },
        { partitionKey: accountId },
      )
      .fetchAll();
    expect(resources.map((row) => row.customVersion)).toEqual(
      resources.map(() => settings.version),
    );
  } finally {
    dispose();
  }
  await expectHistoriesAddUp(accountId);
  const { bidders } = (await list(token, { limit: 200 })).body;
  const fresh = await createBidder(token, { stats: RACE_STATS });
  expect(bidders.map((bidder) => bidder.customScore.score)).toEqual(
    bidders.map(() => fresh.customScore.score),
  );
  await domain('DELETE', `/bidders/${fresh.id}`, { token });
}

const RACE_STATS = { paymentsOnTime: 8, paymentsLate: 2, disputes: 1 };

/** A recalculation's change is `{bidder}:v{version}`; any other is an edit's or a result's. */
const versionOf = (change: { id: string }) => Number(/:v(\d+)$/.exec(change.id)?.[1] ?? Infinity);

/**
 * Every bidder's kept score changes, in the order they happened, lead from one to the next and
 * end at the bidder's score: none is missing, doubled, or tells of a move that was not made. In
 * the same millisecond a recalculation's comes first, as an edit after it is the only order
 * in which both are kept, and recalculations follow their versions.
 */
async function expectHistoriesAddUp(accountId: string) {
  const { db, dispose } = await database();
  try {
    const read = <T>(container: string, query: string) =>
      db
        .container(container)
        .items.query<T>(
          { query, parameters: [{ name: '@accountId', value: accountId }] },
          { partitionKey: accountId },
        )
        .fetchAll()
        .then((reply) => reply.resources);
    const [bidders, changes] = await Promise.all([
      read<{ id: string; score: number; tier: string }>(
        'bidders',
        'SELECT c.id, c.customScore.score, c.customScore.tier FROM c WHERE c.accountId = @accountId',
      ),
      read<ScoreChange & { bidderId: string }>(
        'scoreChanges',
        'SELECT * FROM c WHERE c.accountId = @accountId',
      ),
    ]);
    for (const bidder of bidders) {
      const own = changes
        .filter((change) => change.bidderId === bidder.id)
        .sort((a, b) => a.at.localeCompare(b.at) || versionOf(a) - versionOf(b));
      own.slice(1).forEach((change, index) => {
        const previous = own[index]!.custom;
        expect({ score: change.custom.before, tier: change.custom.tierBefore }).toEqual({
          score: previous.after,
          tier: previous.tierAfter,
        });
      });
      const last = own.at(-1)?.custom;
      if (last) {
        expect({ score: last.after, tier: last.tierAfter }).toEqual({
          score: bidder.score,
          tier: bidder.tier,
        });
      }
    }
    return changes;
  } finally {
    dispose();
  }
}

describe('the recalculation race', () => {
  it('lets only the newest of two quick saves finish, 30 times in a row', async () => {
    const house = await freshOwner();
    for (let index = 0; index < 5; index += 1) {
      await createBidder(house.token, { stats: RACE_STATS });
    }
    for (let round = 0; round < 30; round += 1) {
      const first = await saveSettings(house.token, { customWeights: weightsFor(2 * round) });
      const second = await saveSettings(
        house.token,
        { customWeights: weightsFor(2 * round + 1) },
        first.body.etag,
      );
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.version).toBe(first.body.version + 1);
      const status = await recomputed(house.token, second.body.recompute?.jobId as string);
      expect(status.status).toBe('completed');
      expect((await settingsOf(house.token)).recompute?.jobId).toBe(second.body.recompute?.jobId);
    }
    await expectAllOnNewest(house.token, house.accountId);
    // Thirty rounds of two saves and a recalculation: the time is the work, not a wait.
  }, 120_000);

  it('ends with exactly the newest job completed after 20 saves from 5 concurrent clients', async () => {
    const house = await freshOwner();
    for (let index = 0; index < 8; index += 1) {
      await createBidder(house.token, { stats: RACE_STATS });
    }
    let step = 0;
    const jobs = new Map<number, string>();
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        for (let save = 0; save < 4; save += 1) {
          const weights = weightsFor((step += 1));
          // A client that loses the race is told 412, reads again and saves again.
          for (;;) {
            const reply = await saveSettings(house.token, { customWeights: weights });
            if (reply.status === 412) continue;
            expect(reply.status).toBe(200);
            jobs.set(reply.body.version, reply.body.recompute?.jobId as string);
            break;
          }
        }
      }),
    );
    expect([...jobs.keys()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    const newest = jobs.get(20) as string;
    const status = await recomputed(house.token, newest, 60_000);
    expect(status.status).toBe('completed');
    const settings = await settingsOf(house.token);
    expect(settings.version).toBe(20);
    expect(settings.recompute?.jobId).toBe(newest);
    await expectAllOnNewest(house.token, house.accountId);
  }, 120_000);

  it('keeps histories that add up while bidders are edited during the recalculation', async () => {
    const house = await freshOwner();
    const bidders: BidderWrite[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let index = 0; index < 30; index += 1) {
          bidders.push(await createBidder(house.token, { stats: RACE_STATS }));
        }
      }),
    );
    const saved = await saveSettings(house.token, { customWeights: weightsFor(7) });
    expect(saved.status).toBe(200);
    // Each bidder is edited once, as the job rescores them: some before it, some after it.
    const queue = [...bidders];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let bidder = queue.shift(); bidder; bidder = queue.shift()) {
          for (;;) {
            const read = await getBidder(house.token, bidder.id);
            const reply = await domain('PUT', `/bidders/${bidder.id}`, {
              token: house.token,
              body: { stats: { ...read.body.stats, paymentsLate: 0 } },
              headers: ifMatch(read.body.etag),
            });
            // The job rescored it between the read and the write.
            if (reply.status === 412) continue;
            expect(reply.status).toBe(200);
            break;
          }
        }
      }),
    );
    await recomputed(house.token, saved.body.recompute?.jobId as string);
    const changes = await expectHistoriesAddUp(house.accountId);
    for (const bidder of bidders) {
      const causes = changes
        .filter((change) => change.bidderId === bidder.id)
        .map((change) => change.cause);
      // Rescored and then edited, or edited under the new weights so the job had nothing to do.
      expect([['Record edited'], ['Record edited', 'Scoring settings changed']]).toContainEqual(
        causes.sort(),
      );
    }
  }, 60_000);
});

describe('registration rules', () => {
  it('saves a bid limit per tier and the house lists, and refuses a negative limit naming it', async () => {
    const house = await freshOwner();
    const read = await domain<ScoringSettingsView>('GET', '/scoring/settings', {
      token: house.token,
    });
    const registration = {
      ...read.body.registration,
      bidLimits: { ...read.body.registration.bidLimits, Bronze: 500_000 },
      autoAccept: ['HV-1001'],
    };
    const saved = await domain<ScoringSettingsView>('PUT', '/scoring/settings', {
      token: house.token,
      body: { registration },
      headers: ifMatch(read.body.etag),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.registration).toEqual(registration);
    // Registration rules decide future registrations; they do not rescore anyone.
    expect(saved.body.version).toBe(0);
    const negative = await domain('PUT', '/scoring/settings', {
      token: house.token,
      body: {
        registration: { ...registration, bidLimits: { ...registration.bidLimits, Gold: -1 } },
      },
      headers: ifMatch(saved.body.etag),
    });
    expect(fieldsOf(negative)).toEqual(['registration.bidLimits.Gold']);
  });
});
