import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../platform/context.js';
import { scoreComponents } from '../scoring/scoring.schema.js';
import { scoreChangesRepo, type BidderRecord, type ScoreChangeRecord } from './bidders.repo.js';
import type { ScoreChange } from './bidders.schema.js';
import { getBidder } from './bidders.service.js';

type Scored = Pick<BidderRecord, 'lotwiseScore' | 'customScore'>;

/** What moved between two versions of a bidder's scores: each score and each component. */
export function scoreDelta(before: Scored, after: Scored) {
  const components = (['lotwise', 'custom'] as const).flatMap((scoreType) => {
    const from = scoreType === 'lotwise' ? before.lotwiseScore : before.customScore;
    const to = scoreType === 'lotwise' ? after.lotwiseScore : after.customScore;
    return scoreComponents.flatMap((component) =>
      from.breakdown[component] === to.breakdown[component]
        ? []
        : [
            {
              scoreType,
              component,
              before: from.breakdown[component],
              after: to.breakdown[component],
            },
          ],
    );
  });
  return {
    lotwise: {
      before: before.lotwiseScore.score,
      after: after.lotwiseScore.score,
      tierBefore: before.lotwiseScore.tier,
      tierAfter: after.lotwiseScore.tier,
    },
    custom: {
      before: before.customScore.score,
      after: after.customScore.score,
      tierBefore: before.customScore.tier,
      tierAfter: after.customScore.tier,
    },
    components,
  };
}

/**
 * The change from `before` to `after` as it is kept, with its cause and who caused it; nothing
 * when no score or component moved.
 */
export function scoreChangeOf(
  before: Scored,
  after: Scored & Pick<BidderRecord, 'id'>,
  change: { id: string; cause: string; by: string },
): Omit<ScoreChangeRecord, 'accountId'> | undefined {
  const delta = scoreDelta(before, after);
  const moved =
    delta.components.length > 0 ||
    [delta.lotwise, delta.custom].some(
      (move) => move.before !== move.after || move.tierBefore !== move.tierAfter,
    );
  if (!moved) return undefined;
  return { ...change, bidderId: after.id, at: new Date().toISOString(), ...delta };
}

/** Keeps a change of a bidder's scores with its cause; nothing is kept when nothing moved. */
export async function recordScoreChange(
  ctx: RequestContext,
  before: BidderRecord,
  after: BidderRecord,
  cause: string,
): Promise<void> {
  const change = scoreChangeOf(before, after, { id: randomUUID(), cause, by: ctx.actor.name });
  if (change) await scoreChangesRepo.create(ctx.scope, change);
}

/** A bidder's score changes, newest first. */
export async function scoreHistory(ctx: RequestContext, id: string): Promise<ScoreChange[]> {
  const bidder = await getBidder(ctx, id);
  const records = await scoreChangesRepo.all(ctx.scope, {
    where: 'c.bidderId = @bidderId',
    parameters: [{ name: '@bidderId', value: bidder.id }],
    orderBy: 'c.at DESC',
  });
  return records.map(({ id: changeId, at, cause, by, lotwise, custom, components }) => ({
    id: changeId,
    at,
    cause,
    by,
    lotwise,
    custom,
    components,
  }));
}
