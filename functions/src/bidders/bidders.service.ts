import { randomInt, randomUUID } from 'node:crypto';
import type { SqlParameter } from '@azure/cosmos';
import { writeAudit } from '../platform/audit.js';
import { conflict } from '../platform/errors.js';
import { sendMessage } from '../platform/mail.js';
import type { Actor, RequestContext } from '../platform/context.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import type { Stored } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import type { ScoringRules } from '../scoring/scoring.schema.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import {
  emptyStats,
  type BidderInput,
  type BidderNote,
  type BidderStats,
  type ListQuery,
} from './bidders.schema.js';
import { biddersRepo, pageListRows, type BidderRecord } from './bidders.repo.js';
import { auditView, derive, toListItem } from './bidder-model.js';
import { recordMatchesFor } from './duplicates.service.js';
import { forgetTotals, rememberedTotal } from './list-totals.js';

const scoreField = (scoreType: ListQuery['scoreType']) =>
  scoreType === 'custom' ? 'c.customScore' : 'c.lotwiseScore';

function listFilter(query: ListQuery): { where: string; parameters: SqlParameter[] } {
  const field = scoreField(query.scoreType);
  const clauses: string[] = [];
  const parameters: SqlParameter[] = [];
  if (query.tier) {
    clauses.push(`${field}.tier = @tier`);
    parameters.push({ name: '@tier', value: query.tier });
  }
  if (query.status) {
    clauses.push('c.status = @status');
    parameters.push({ name: '@status', value: query.status });
  }
  if (query.autoInvite) {
    clauses.push('c.autoInviteStatus = @autoInvite');
    parameters.push({ name: '@autoInvite', value: query.autoInvite });
  }
  if (query.minScore !== undefined) {
    clauses.push(`${field}.score >= @minScore`);
    parameters.push({ name: '@minScore', value: query.minScore });
  }
  if (query.maxScore !== undefined) {
    clauses.push(`${field}.score <= @maxScore`);
    parameters.push({ name: '@maxScore', value: query.maxScore });
  }
  if (query.search) {
    clauses.push('CONTAINS(c.searchText, @search)');
    parameters.push({ name: '@search', value: query.search.toLowerCase() });
  }
  return { where: clauses.join(' AND ') || 'true', parameters };
}

/**
 * One page of bidders, filtered and sorted by the chosen score. The total is counted for the
 * first page; later pages (which carry a continuation token) reuse what the client already has.
 */
export async function listBidders(ctx: RequestContext, query: ListQuery) {
  const { where, parameters } = listFilter(query);
  const orderBy = `${scoreField(query.scoreType)}.score ${query.sort === 'asc' ? 'ASC' : 'DESC'}`;
  const [page, total] = await Promise.all([
    pageListRows(ctx.scope, where, parameters, orderBy, query.limit, query.continuationToken),
    query.continuationToken
      ? Promise.resolve(undefined)
      : rememberedTotal(ctx.scope.accountId, JSON.stringify([where, parameters]), () =>
          biddersRepo.count(ctx.scope, { where, parameters }),
        ),
  ]);
  return {
    bidders: page.items.map(toListItem),
    total: total ?? -1,
    ...(page.continuationToken ? { continuationToken: page.continuationToken } : {}),
  };
}

export async function getBidder(ctx: RequestContext, id: string): Promise<Stored<BidderRecord>> {
  return biddersRepo.get(ctx.scope, id, 'Bidder');
}

const newBidderId = () => `B-${randomInt(100_000, 1_000_000)}`;

/** A new bidder record, scored; the caller writes it. */
export function buildBidder(
  input: BidderInput,
  actor: Actor | null,
  settings: ScoringRules,
  now = new Date(),
): Omit<BidderRecord, 'accountId'> {
  const at = now.toISOString();
  const notes: BidderNote[] = input.initialNote
    ? [
        {
          id: randomUUID(),
          category: 'General',
          isPrivate: true,
          note: input.initialNote,
          user: actor?.name ?? 'Import',
          userId: actor?.userId ?? 'system',
          date: at,
        },
      ]
    : [];
  return derive(
    {
      id: randomUUID(),
      bidderId: input.bidderId ?? newBidderId(),
      aliases: [],
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      phone: input.phone ?? null,
      address: input.address,
      status: input.status,
      preferredCategories: input.preferredCategories,
      preferredPaymentMethod: input.preferredPaymentMethod,
      stats: { ...emptyStats(), ...(input.stats ?? {}) },
      localScore: null,
      invitations: [],
      notes,
      history: [],
      createdAt: at,
      updatedAt: at,
      createdBy: actor?.userId ?? null,
    },
    settings,
    now,
  );
}

/** Adds a bidder (a fresh bidder ID when none is given; a given one must be free). */
export async function createBidder(ctx: RequestContext, input: BidderInput) {
  const settings = await scoringSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const record = buildBidder(input, ctx.actor, settings);
    try {
      const created = await biddersRepo.create(ctx.scope, record);
      forgetTotals(ctx.scope.accountId);
      await writeAudit(ctx, {
        action: 'bidder.create',
        entity: { type: 'bidder', id: created.id },
        after: auditView(created),
      });
      await recordMatchesFor(ctx, [created], settings.autoMergeThreshold);
      return currentOrSurvivor(ctx, created);
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (input.bidderId) {
        throw validationError([
          {
            location: 'body',
            field: 'bidderId',
            message: `${input.bidderId} is already used by another bidder`,
          },
        ]);
      }
      if (attempt >= 5) throw conflict('Could not allot a bidder ID; try again');
    }
  }
}

/**
 * A bidder as it is after duplicate matching: re-read, since matching may have changed it as the
 * survivor of a merge, or the bidder the certain duplicate was merged into (which carries its ID
 * as an alias).
 */
async function currentOrSurvivor(ctx: RequestContext, record: BidderRecord) {
  const current = await biddersRepo.find(ctx.scope, record.id);
  if (current) return current;
  const [survivor] = await biddersRepo.all(ctx.scope, {
    where: 'ARRAY_CONTAINS(c.aliases, @bidderId)',
    parameters: [{ name: '@bidderId', value: record.bidderId }],
  });
  return survivor ?? getBidder(ctx, record.id);
}

/** Applies an edit made against a version the caller read (If-Match); scores follow the facts. */
export async function updateBidder(
  ctx: RequestContext,
  id: string,
  etag: string,
  changes: Partial<
    Pick<
      BidderRecord,
      | 'firstName'
      | 'lastName'
      | 'email'
      | 'phone'
      | 'status'
      | 'preferredCategories'
      | 'preferredPaymentMethod'
    >
  > & {
    address?: BidderRecord['address'] | undefined;
    stats?: Partial<BidderStats> | undefined;
  },
) {
  const current = await getBidder(ctx, id);
  const settings = await scoringSettings(ctx);
  const { stats, ...fields } = changes;
  const defined = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  const next = derive(
    {
      ...current,
      ...defined,
      stats: { ...current.stats, ...(stats ?? {}) },
      updatedAt: new Date().toISOString(),
    },
    settings,
  );
  const saved = await biddersRepo.replace(
    ctx.scope,
    { ...next, accountId: ctx.scope.accountId },
    etag,
  );
  forgetTotals(ctx.scope.accountId);
  await writeAudit(ctx, {
    action: 'bidder.update',
    entity: { type: 'bidder', id },
    before: auditView(current),
    after: auditView(saved),
  });
  if (
    changes.email !== undefined ||
    changes.phone !== undefined ||
    changes.firstName !== undefined ||
    changes.lastName !== undefined ||
    changes.address !== undefined
  ) {
    await recordMatchesFor(ctx, [saved], settings.autoMergeThreshold);
    // A certain match may have merged this bidder into an older one, or changed it as the survivor.
    return currentOrSurvivor(ctx, saved);
  }
  return saved;
}

export async function deleteBidder(ctx: RequestContext, id: string, etag: string | undefined) {
  const current = await getBidder(ctx, id);
  await biddersRepo.delete(ctx.scope, id, etag);
  forgetTotals(ctx.scope.accountId);
  await writeAudit(ctx, {
    action: 'bidder.delete',
    entity: { type: 'bidder', id },
    before: auditView(current),
  });
}

export async function addNote(
  ctx: RequestContext,
  id: string,
  input: { category: BidderNote['category']; note: string; isPrivate: boolean },
) {
  const { actor } = ctx;
  // Notes are appended against the version read; a concurrent note makes this retry, not overwrite.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await getBidder(ctx, id);
    const note: BidderNote = {
      id: randomUUID(),
      ...input,
      user: actor.name,
      userId: actor.userId,
      date: new Date().toISOString(),
    };
    try {
      await biddersRepo.replace(
        ctx.scope,
        { ...current, notes: [note, ...current.notes], updatedAt: note.date },
        current._etag,
      );
      await writeAudit(ctx, {
        action: 'bidder.note-add',
        entity: { type: 'bidder', id },
        after: { category: note.category },
      });
      return note;
    } catch (error) {
      if (!isStale(error)) throw error;
    }
  }
  throw conflict('The bidder is being changed by someone else; try again');
}

export async function setLocalScore(
  ctx: RequestContext,
  id: string,
  etag: string,
  input: { score: number; reason: string },
) {
  const current = await getBidder(ctx, id);
  const localScore = { ...input, by: ctx.actor.name, at: new Date().toISOString() };
  const saved = await biddersRepo.replace(ctx.scope, { ...current, localScore }, etag);
  await writeAudit(ctx, {
    action: 'bidder.local-score',
    entity: { type: 'bidder', id },
    before: current.localScore,
    after: localScore,
  });
  return saved;
}

/** Bidders to invite to an auction: by the house's invitation threshold unless told otherwise. */
export async function autoInviteCandidates(
  ctx: RequestContext,
  query: { minScore?: number | undefined; tier?: string | undefined; limit: number },
) {
  const settings = await scoringSettings(ctx);
  const minScore = query.minScore ?? settings.invitationThresholds.autoInvite;
  const page = await pageListRows(
    ctx.scope,
    `c.customScore.score >= @min AND c.autoInviteStatus != 'Auto-Deny' AND c.status = 'Active'${query.tier ? ' AND c.customScore.tier = @tier' : ''}`,
    [
      { name: '@min', value: minScore },
      ...(query.tier ? [{ name: '@tier', value: query.tier }] : []),
    ],
    'c.customScore.score DESC',
    query.limit,
    undefined,
  );
  return { minScore, bidders: page.items.map(toListItem) };
}

/** Sends each bidder with an email the invitation and records it on the bidder. */
export async function bulkInvite(
  ctx: RequestContext,
  input: { bidderIds: string[]; auctionId?: string | undefined; message?: string | undefined },
  accountName: string,
) {
  const { actor } = ctx;
  const invited: string[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const id of [...new Set(input.bidderIds)]) {
    const bidder = await biddersRepo.find(ctx.scope, id);
    if (!bidder) {
      skipped.push({ id, reason: 'not found' });
      continue;
    }
    if (!bidder.email) {
      skipped.push({ id, reason: 'no email address' });
      continue;
    }
    await sendMessage({
      channel: 'email',
      to: bidder.email,
      kind: 'bidder-invitation',
      subject: `${accountName} invites you to bid`,
      text: [
        `Dear ${bidder.firstName} ${bidder.lastName},`,
        '',
        input.message ?? `${accountName} would like to invite you to its upcoming sale.`,
        '',
        `— ${actor.name}, ${accountName}`,
      ].join('\n'),
    });
    const invitation = {
      at: new Date().toISOString(),
      by: actor.name,
      auctionId: input.auctionId ?? null,
    };
    await biddersRepo
      .replace(
        ctx.scope,
        { ...bidder, invitations: [invitation, ...bidder.invitations] },
        bidder._etag,
      )
      .catch(async () => {
        const fresh = await getBidder(ctx, id);
        await biddersRepo.replace(
          ctx.scope,
          { ...fresh, invitations: [invitation, ...fresh.invitations] },
          fresh._etag,
        );
      });
    invited.push(id);
  }
  await writeAudit(ctx, {
    action: 'bidder.bulk-invite',
    entity: { type: 'auction', id: input.auctionId ?? 'none' },
    after: { invited, skipped },
  });
  return { invited: invited.length, skipped };
}

export async function analytics(ctx: RequestContext, scoreType: ListQuery['scoreType']) {
  const field = scoreField(scoreType);
  const count = (where: string, parameters: SqlParameter[] = []) =>
    biddersRepo.count(ctx.scope, { where, parameters });
  const tiers = ['Premium', 'Gold', 'Silver', 'Bronze', 'New'];
  const statuses = ['Auto-Invite', 'Manual Review', 'Auto-Deny'];
  const [total, active, average, ...counts] = await Promise.all([
    count('true'),
    count("c.status = 'Active'"),
    biddersRepo.average(ctx.scope, `${field}.score`),
    ...tiers.map((tier) => count(`${field}.tier = @tier`, [{ name: '@tier', value: tier }])),
    ...statuses.map((status) =>
      count('c.autoInviteStatus = @status', [{ name: '@status', value: status }]),
    ),
  ]);
  return {
    scoreType,
    total,
    active,
    averageScore: total ? Math.round((average ?? 0) * 10) / 10 : null,
    byTier: Object.fromEntries(tiers.map((tier, index) => [tier, counts[index] ?? 0])),
    byAutoInvite: Object.fromEntries(
      statuses.map((status, index) => [status, counts[tiers.length + index] ?? 0]),
    ),
  };
}

/** How many bidders carry scores (all of them), for the free plan's limit and billing. */
export const scoredBidderCount = (ctx: RequestContext) => biddersRepo.count(ctx.scope);
