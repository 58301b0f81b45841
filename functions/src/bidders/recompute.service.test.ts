import { beforeEach, describe, expect, it, vi } from 'vitest';
import { systemContext } from '../platform/context.js';
import { withStatus } from '../platform/cosmos-errors.js';
import type { BatchOperation } from '../platform/repo.js';
import {
  DEFAULT_AUTOMATION,
  DEFAULT_CUSTOM_TIERS,
  DEFAULT_CUSTOM_WEIGHTS,
  DEFAULT_REGISTRATION_RULES,
  type ScoringRules,
} from '../scoring/scoring.schema.js';
import { scoresOf } from './bidder-model.js';
import type { ScoreChangeRecord, ScoringFacts } from './bidders.repo.js';
import { emptyStats } from './bidders.schema.js';

/**
 * The job against repositories held in memory, so each interleaving with an editor is played out
 * exactly rather than hoped for: Cosmos's answers are the ones the SDK gives (412 for a stale
 * ETag, 404 for a missing document).
 */
const store = vi.hoisted(() => ({
  bidders: new Map<string, ScoringFacts>(),
  changes: new Map<string, Omit<ScoreChangeRecord, 'accountId'>>(),
  /** Runs once before the next batch of scores is written: an editor's turn. */
  beforePatch: undefined as (() => void) | undefined,
  settings: undefined as unknown as ScoringRules,
}));

vi.mock('../scoring/scoring.service.js', () => ({
  scoringSettings: () => Promise.resolve(store.settings),
  reportRecompute: () => Promise.resolve(true),
}));

vi.mock('./list-totals.js', () => ({ forgetTotals: () => undefined }));

vi.mock('./bidders.repo.js', () => {
  const stale = () => withStatus(412, 'stale');
  return {
    biddersRepo: {
      find: (_scope: unknown, id: string) => Promise.resolve(store.bidders.get(id)),
    },
    scoreChangesRepo: {
      writeBatch: (_scope: unknown, operations: BatchOperation<ScoreChangeRecord>[]) => {
        for (const operation of operations) {
          if (operation.op !== 'upsert') throw new Error(`unexpected ${operation.op}`);
          store.changes.set(operation.document.id, operation.document);
        }
        return Promise.resolve();
      },
      delete: (_scope: unknown, id: string) =>
        store.changes.delete(id) ? Promise.resolve() : Promise.reject(withStatus(404, 'not found')),
    },
    countAllBidders: () => Promise.resolve(store.bidders.size),
    countScoredBefore: (_scope: unknown, version: number) =>
      Promise.resolve([...store.bidders.values()].filter((b) => b.customVersion < version).length),
    pageScoredBefore: (_scope: unknown, version: number) =>
      Promise.resolve({
        items: [...store.bidders.values()]
          .filter((bidder) => bidder.customVersion < version)
          .map((bidder) => structuredClone(bidder)),
      }),
    patchScores: (
      _scope: unknown,
      updates: { id: string; etag: string; scores: Partial<ScoringFacts> }[],
    ) => {
      const turn = store.beforePatch;
      store.beforePatch = undefined;
      turn?.();
      // All or none, as a transactional batch.
      if (updates.some(({ id }) => !store.bidders.has(id))) {
        return Promise.reject(withStatus(404, 'not found'));
      }
      if (updates.some(({ id, etag }) => store.bidders.get(id)?._etag !== etag)) {
        return Promise.reject(stale());
      }
      for (const { id, scores } of updates) {
        const bidder = store.bidders.get(id) as ScoringFacts;
        store.bidders.set(id, { ...bidder, ...scores, _etag: `${bidder._etag}+` });
      }
      return Promise.resolve();
    },
  };
});

const { recomputeScores } = await import('./recompute.service.js');

const rules = (version: number, paymentHistory: number): ScoringRules => ({
  customWeights: {
    ...DEFAULT_CUSTOM_WEIGHTS,
    paymentHistory,
    disputeHistory: DEFAULT_CUSTOM_WEIGHTS.disputeHistory + 30 - paymentHistory,
  },
  customTiers: DEFAULT_CUSTOM_TIERS,
  automation: DEFAULT_AUTOMATION,
  registration: DEFAULT_REGISTRATION_RULES,
  autoMergeThreshold: 95,
  version,
  updatedAt: null,
});

function bidder(id: string): ScoringFacts {
  const stats = { ...emptyStats(), paymentsOnTime: 8, paymentsLate: 2, disputes: 1 };
  const createdAt = '2024-01-01T00:00:00.000Z';
  const { lotwiseScore, customScore, customVersion } = scoresOf({ stats }, rules(0, 30));
  return { id, stats, createdAt, lotwiseScore, customScore, customVersion, _etag: `${id}-e` };
}

/** An editor saving the bidder with the newest settings, as `updateBidder` does. */
function editWithNewest(id: string) {
  const current = store.bidders.get(id) as ScoringFacts;
  store.bidders.set(id, {
    ...current,
    ...scoresOf(current, store.settings),
    _etag: `${current._etag}*`,
  });
}

const ctx = systemContext('account-1', 'job-1');

beforeEach(() => {
  store.bidders = new Map(['a', 'b', 'c'].map((id) => [id, bidder(id)]));
  store.changes.clear();
  store.beforePatch = undefined;
  store.settings = rules(1, 50);
});

describe('a recalculation keeps each bidder’s score change', () => {
  it('writes one change per rescored bidder, caused by the save and by who saved it', async () => {
    await recomputeScores(ctx, 'job-1', 1, 'Ada Owner');
    expect([...store.changes.keys()].sort()).toEqual(['a:v1', 'b:v1', 'c:v1']);
    const change = store.changes.get('a:v1');
    expect(change).toMatchObject({ bidderId: 'a', cause: 'Scoring settings changed' });
    expect(change?.by).toBe('Ada Owner');
    expect(change?.custom.after).toBe(store.bidders.get('a')?.customScore.score);
    expect(change?.custom.before).not.toBe(change?.custom.after);
  });

  it('takes back the change of a bidder an edit rescored first: the edit tells of that move', async () => {
    store.beforePatch = () => editWithNewest('b');
    await recomputeScores(ctx, 'job-1', 1, 'Ada Owner');
    expect([...store.changes.keys()].sort()).toEqual(['a:v1', 'c:v1']);
  });

  it('takes back the change of a bidder deleted meanwhile', async () => {
    store.beforePatch = () => store.bidders.delete('c');
    await recomputeScores(ctx, 'job-1', 1, 'Ada Owner');
    expect([...store.changes.keys()].sort()).toEqual(['a:v1', 'b:v1']);
  });

  it('rewrites the change from the scores a bidder had when an older job got there first', async () => {
    store.settings = rules(2, 50);
    const older = rules(1, 10);
    // The job of the save before this one rescored "a" between this job's read and its write.
    store.beforePatch = () => {
      const current = store.bidders.get('a') as ScoringFacts;
      store.bidders.set('a', { ...current, ...scoresOf(current, older), _etag: 'a-older' });
    };
    await recomputeScores(ctx, 'job-2', 2, 'Ada Owner');
    const change = store.changes.get('a:v2');
    expect(change?.custom.before).toBe(scoresOf(bidder('a'), older).customScore.score);
    expect(change?.custom.before).not.toBe(bidder('a').customScore.score);
    expect(change?.custom.after).toBe(store.bidders.get('a')?.customScore.score);
    expect(store.bidders.get('a')?.customVersion).toBe(2);
  });

  it('takes back the change when the older job already gave the bidder the same scores', async () => {
    store.settings = rules(2, 50);
    const older = rules(1, 40);
    // Both scored at one instant, so only what the two settings give can differ.
    const now = new Date();
    expect(scoresOf(bidder('a'), older, now).customScore).toEqual(
      scoresOf(bidder('a'), store.settings, now).customScore,
    );
    store.beforePatch = () => {
      const current = store.bidders.get('a') as ScoringFacts;
      store.bidders.set('a', { ...current, ...scoresOf(current, older), _etag: 'a-older' });
    };
    await recomputeScores(ctx, 'job-2', 2, 'Ada Owner');
    expect([...store.changes.keys()].sort()).toEqual(['b:v2', 'c:v2']);
    expect(store.bidders.get('a')?.customVersion).toBe(2);
  });

  it('keeps nothing for a bidder whose scores the new settings do not move', async () => {
    store.settings = { ...rules(0, 30), version: 1 };
    await recomputeScores(ctx, 'job-1', 1, 'Ada Owner');
    expect(store.changes.size).toBe(0);
    expect([...store.bidders.values()].map((b) => b.customVersion)).toEqual([1, 1, 1]);
  });
});
