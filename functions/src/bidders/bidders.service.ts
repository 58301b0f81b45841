import { randomInt, randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { conflict, notFound } from '../platform/errors.js';
import { sendMessage } from '../platform/mail.js';
import type { Actor, RequestContext } from '../platform/context.js';
import { isConflict, isNotFound, isStale } from '../platform/cosmos-errors.js';
import type { AccountScope, Stored } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import {
  autoInviteStatuses,
  tiers,
  type ScoringRules,
  type Tier,
} from '../scoring/scoring.schema.js';
import { scoringSettings } from '../scoring/scoring.service.js';
import {
  emptyStats,
  keysOf,
  noteSchema,
  type BidderInput,
  type BidderNote,
  type BidderUpdate,
  type ListQuery,
  type OutreachFacts,
  type PlatformIdentity,
} from './bidders.schema.js';
import {
  allOutreachFacts,
  bidderCounts,
  biddersRepo,
  countAllBidders,
  countBidders,
  countBiddersAtHouse,
  deleteNotesOn,
  findByAlias,
  findByBidderId,
  findByBidderIds,
  findByEmail,
  findByEmails,
  findMergedInto,
  notesOn,
  notesRepo,
  pageBidders,
  type BidderFilter,
  type BidderRecord,
  type NoteRecord,
} from './bidders.repo.js';
import { emitEvent } from '../webhooks/deliveries.service.js';
import {
  auditView,
  derive,
  derivedOf,
  identitiesOf,
  toBidder,
  toListItem,
} from './bidder-model.js';
import { recordMatchesFor, type MatchOutcome } from './duplicates.service.js';
import { forgetTotals, rememberedTotal } from './list-totals.js';
import { recordScoreChange } from './score-history.service.js';

/**
 * One page of bidders, filtered and sorted by the chosen score. The total is counted for the
 * first page; later pages (which carry a continuation token) reuse what the client already has.
 */
export async function listBidders(ctx: RequestContext, query: ListQuery) {
  const filter: BidderFilter = {
    scoreType: query.scoreType,
    tier: query.tier,
    status: query.status,
    autoInvite: query.autoInvite,
    minScore: query.minScore,
    maxScore: query.maxScore,
    search: query.search,
  };
  const [page, total] = await Promise.all([
    pageBidders(ctx.scope, filter, {
      sort: query.sort,
      pageSize: query.limit,
      continuationToken: query.continuationToken,
    }),
    query.continuationToken
      ? Promise.resolve(undefined)
      : rememberedTotal(ctx.scope.accountId, JSON.stringify(filter), () =>
          countBidders(ctx.scope, filter),
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

/**
 * A bidder's auction history, newest first, for every client alike. Records are not kept in
 * order: a merge appends the other record's history to the survivor's.
 */
export async function bidderHistory(ctx: RequestContext, id: string) {
  const { history } = await getBidder(ctx, id);
  return history.toSorted((a, b) => Date.parse(b.auctionDate) - Date.parse(a.auctionDate));
}

const newBidderId = () => `B-${randomInt(100_000, 1_000_000)}`;

/** The account a new bidder joins, and who adds it (nobody, for a demo). */
export interface NewBidderContext {
  scope: AccountScope;
  actor: Actor | null;
}

/**
 * A new bidder record, scored; the caller writes it. Every field is set in one literal, in the
 * same order, so that the records of a large import share one shape: V8 copies and serialises
 * such records several times faster than ones that grew properties after a spread.
 */
export function buildBidder(
  ctx: NewBidderContext,
  input: BidderInput,
  settings: ScoringRules,
  now = new Date(),
  id: string = randomUUID(),
): BidderRecord {
  const at = now.toISOString();
  const facts = {
    id,
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
    marketingOptOut: input.marketingOptOut,
    // Onto a record of every stat, so the stats keep that record's shape.
    stats: Object.assign(emptyStats(), input.stats),
    localScore: null,
    invitations: [],
    history: [],
    mergedIds: [],
    createdAt: at,
    updatedAt: at,
    createdBy: ctx.actor?.userId ?? null,
  };
  const derived = derivedOf(facts, settings, now);
  return {
    id: facts.id,
    accountId: ctx.scope.accountId,
    bidderId: facts.bidderId,
    aliases: facts.aliases,
    firstName: facts.firstName,
    lastName: facts.lastName,
    email: facts.email,
    phone: facts.phone,
    address: facts.address,
    status: facts.status,
    preferredCategories: facts.preferredCategories,
    preferredPaymentMethod: facts.preferredPaymentMethod,
    marketingOptOut: facts.marketingOptOut,
    stats: facts.stats,
    lotwiseScore: derived.lotwiseScore,
    customScore: derived.customScore,
    customVersion: derived.customVersion,
    autoInviteStatus: derived.autoInviteStatus,
    localScore: facts.localScore,
    invitations: facts.invitations,
    history: facts.history,
    mergedIds: facts.mergedIds,
    createdAt: facts.createdAt,
    updatedAt: facts.updatedAt,
    createdBy: facts.createdBy,
    searchText: derived.searchText,
    matchKeys: derived.matchKeys,
  };
}

/** The note a new bidder arrives with (an import's note column, say), for the caller to write. */
export function firstNoteOf(
  ctx: NewBidderContext,
  input: BidderInput,
  bidder: Pick<BidderRecord, 'id' | 'createdAt'>,
): NoteRecord | null {
  if (!input.initialNote) return null;
  const { actor } = ctx;
  return {
    id: randomUUID(),
    accountId: ctx.scope.accountId,
    bidder: bidder.id,
    category: 'General',
    isPrivate: true,
    note: input.initialNote,
    user: actor?.name ?? 'Import',
    userId: actor?.userId ?? 'system',
    date: bidder.createdAt,
  };
}

/**
 * Adds a bidder (a fresh bidder ID when none is given; a given one must be free). An importer
 * may choose the document id, so a run cut short and repeated finds the bidder it made (as it
 * is after matching) instead of adding the person twice.
 */
export async function createBidder(
  ctx: RequestContext,
  input: BidderInput,
  options: { id?: string } = {},
) {
  const settings = await scoringSettings(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const record = buildBidder(ctx, input, settings, new Date(), options.id);
    try {
      const created = await biddersRepo.create(ctx.scope, record);
      forgetTotals(ctx.scope.accountId);
      const note = firstNoteOf(ctx, input, created);
      if (note) await notesRepo.create(ctx.scope, note);
      await writeAudit(ctx, {
        action: 'bidder.create',
        entity: { type: 'bidder', id: created.id },
        after: auditView(created),
      });
      const matches = await recordMatchesFor(ctx, [created], settings.autoMergeThreshold);
      const outcome = await outcomeOf(ctx, created, matches);
      // Merged at once into a bidder already on file: no bidder was added (the merge is told).
      if (!outcome.mergedBecause) {
        await emitEvent(ctx, 'bidder.created', { bidder: toBidder(outcome.bidder) });
      }
      return outcome;
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (options.id) {
        const made = await bidderOrSurvivor(ctx, options.id);
        if (made) return { bidder: made, mergedBecause: null, possibleDuplicates: 0 };
      }
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

/** A bidder written, as it is after duplicate matching, and what matching did with it. */
export interface WriteOutcome {
  bidder: Stored<BidderRecord>;
  /** Set when the bidder written was merged into an existing one: the answer is that bidder. */
  mergedBecause: string[] | null;
  /** Likely duplicates recorded for review. */
  possibleDuplicates: number;
}

/**
 * A bidder as it is after duplicate matching: re-read, since matching may have changed it as the
 * survivor of a merge, or merged it into an older bidder (which carries its ID as an alias).
 */
async function outcomeOf(
  ctx: RequestContext,
  record: BidderRecord,
  matches: MatchOutcome,
): Promise<WriteOutcome> {
  const merge = matches.merges.find((entry) => entry.mergedId === record.id);
  const current = merge ? undefined : await biddersRepo.find(ctx.scope, record.id);
  const bidder =
    current ??
    (merge ? await biddersRepo.find(ctx.scope, merge.survivorId) : undefined) ??
    (await findByAlias(ctx.scope, record.bidderId)) ??
    (await getBidder(ctx, record.id));
  return {
    bidder,
    mergedBecause: bidder.id === record.id ? null : (merge?.reasons ?? []),
    possibleDuplicates: matches.pending,
  };
}

/** What merges leave on the bidder that stays: the merged records' bidder IDs and ids. */
export type MergeTraces = Pick<BidderRecord, 'aliases' | 'mergedIds'>;

/**
 * Applies an edit made against a version the caller read (If-Match); scores follow the facts.
 * `traces`, from an undo of an import that merged a row into this bidder, puts its merge traces
 * back as they were; the notes of a record no longer merged into it go with it.
 */
export async function updateBidder(
  ctx: RequestContext,
  id: string,
  etag: string,
  changes: BidderUpdate,
  traces?: MergeTraces,
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
      ...(traces ?? {}),
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
  if (traces) {
    const unmerged = (current.mergedIds ?? []).filter((old) => !traces.mergedIds?.includes(old));
    if (unmerged.length) await deleteNotesOn(ctx.scope, unmerged);
  }
  await writeAudit(ctx, {
    action: 'bidder.update',
    entity: { type: 'bidder', id },
    before: auditView(current),
    after: auditView(saved),
  });
  await recordScoreChange(ctx, current, saved, 'Record edited');
  if (
    changes.email !== undefined ||
    changes.phone !== undefined ||
    changes.firstName !== undefined ||
    changes.lastName !== undefined ||
    changes.address !== undefined
  ) {
    const matches = await recordMatchesFor(ctx, [saved], settings.autoMergeThreshold);
    return outcomeOf(ctx, saved, matches);
  }
  return { bidder: saved, mergedBecause: null, possibleDuplicates: 0 };
}

/** Removes a bidder, then the notes that were its own (left unseen, were the second step lost). */
export async function deleteBidder(ctx: RequestContext, id: string, etag: string | undefined) {
  const current = await getBidder(ctx, id);
  await biddersRepo.delete(ctx.scope, id, etag);
  forgetTotals(ctx.scope.accountId);
  await deleteNotesOn(ctx.scope, [id, ...(current.mergedIds ?? [])]);
  await writeAudit(ctx, {
    action: 'bidder.delete',
    entity: { type: 'bidder', id },
    before: auditView(current),
  });
}

const noteFields = keysOf(noteSchema);
const noteOf = (record: Omit<NoteRecord, 'accountId'>): BidderNote =>
  Object.fromEntries(noteFields.map((field) => [field, record[field]])) as BidderNote;

/** A bidder's notes, newest first: those written on it and on the records merged into it. */
export async function listNotes(ctx: RequestContext, id: string): Promise<BidderNote[]> {
  const bidder = await getBidder(ctx, id);
  const notes = await notesOn(ctx.scope, [bidder.id, ...(bidder.mergedIds ?? [])]);
  return bidder.notes
    ? [...notes, ...bidder.notes].sort((x, y) => y.date.localeCompare(x.date))
    : notes;
}

/**
 * Adds a note as a document of its own: the bidder itself is not written, so notes never contend
 * with each other or make the bidder's ETag stale.
 */
export async function addNote(
  ctx: RequestContext,
  id: string,
  input: { category: BidderNote['category']; note: string; isPrivate: boolean },
): Promise<BidderNote> {
  const bidder = await getBidder(ctx, id);
  const note: Omit<NoteRecord, 'accountId'> = {
    id: randomUUID(),
    bidder: bidder.id,
    ...input,
    user: ctx.actor.name,
    userId: ctx.actor.userId,
    date: new Date().toISOString(),
  };
  await notesRepo.create(ctx.scope, note);
  // A bidder removed meanwhile took its notes with it, perhaps before this one was written; one
  // merged meanwhile did not (its notes are the survivor's).
  if (!(await biddersRepo.find(ctx.scope, id)) && !(await findMergedInto(ctx.scope, id))) {
    await notesRepo.delete(ctx.scope, note.id).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
    throw notFound('Bidder not found');
  }
  await writeAudit(ctx, {
    action: 'bidder.note-add',
    entity: { type: 'bidder', id },
    after: { category: note.category },
  });
  return noteOf(note);
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

/** Bidders to invite to an auction: from the house's Auto-Invite threshold unless told otherwise. */
export async function autoInviteCandidates(
  ctx: RequestContext,
  query: { minScore?: number | undefined; tier?: Tier | undefined; limit: number },
) {
  const settings = await scoringSettings(ctx);
  const minScore = query.minScore ?? settings.automation.autoInvite.scoreThreshold;
  const page = await pageBidders(
    ctx.scope,
    {
      scoreType: 'custom',
      minScore,
      tier: query.tier,
      status: 'Active',
      notAutoInvite: 'Auto-Deny',
    },
    { sort: 'desc', pageSize: query.limit },
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
  const counts = await bidderCounts(ctx.scope, scoreType, {
    tiers,
    autoInvite: autoInviteStatuses,
  });
  return {
    scoreType,
    total: counts.total,
    active: counts.active,
    averageScore: counts.total ? Math.round((counts.averageScore ?? 0) * 10) / 10 : null,
    byTier: Object.fromEntries(tiers.map((tier, index) => [tier, counts.byTier[index] ?? 0])),
    byAutoInvite: Object.fromEntries(
      autoInviteStatuses.map((status, index) => [status, counts.byAutoInvite[index] ?? 0]),
    ),
  };
}

/**
 * What an auction's assessment and campaigns decide on, for every bidder of the account: read as
 * a projection, so ten thousand bidders are a few megabytes and one query.
 */
export const outreachFacts = (ctx: RequestContext): Promise<OutreachFacts[]> =>
  allOutreachFacts(ctx.scope);

/** How many bidders carry scores (all of them), for the free plan's limit and billing. */
export const scoredBidderCount = (ctx: RequestContext) => countAllBidders(ctx.scope);

/** How many bidders have been at a house's own sales: they keep it from being deleted. */
export const countBiddersByHouse = (ctx: Pick<RequestContext, 'scope'>, houseName: string) =>
  countBiddersAtHouse(ctx.scope, houseName);

/** A bidder by document id, or the bidder it was merged into since. */
async function bidderOrSurvivor(ctx: Pick<RequestContext, 'scope'>, id: string) {
  return (await biddersRepo.find(ctx.scope, id)) ?? (await findMergedInto(ctx.scope, id));
}

/**
 * Records that a bidder is this person on a bidding platform, with the figures the platform
 * keeps (replacing that platform bidder's earlier figures). Follows a merge made since the link.
 * Answers the bidder and whether anything changed.
 */
export async function linkPlatformIdentity(
  ctx: RequestContext,
  id: string,
  identity: PlatformIdentity,
): Promise<{ bidder: Stored<BidderRecord>; changed: boolean }> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await bidderOrSurvivor(ctx, id);
    if (!current) throw notFound('Bidder not found');
    const others = (current.platformIdentities ?? []).filter(
      (known) => known.platform !== identity.platform || known.externalId !== identity.externalId,
    );
    const known = (current.platformIdentities ?? []).find(
      (entry) => entry.platform === identity.platform && entry.externalId === identity.externalId,
    );
    const same =
      known !== undefined &&
      JSON.stringify({ ...known, linkedAt: '', updatedAt: '' }) ===
        JSON.stringify({ ...identity, linkedAt: '', updatedAt: '' });
    if (same) return { bidder: current, changed: false };
    const { _etag, _ts, ...stored } = current;
    const next: BidderRecord = {
      ...stored,
      platformIdentities: identitiesOf([
        ...others,
        { ...identity, linkedAt: known?.linkedAt ?? identity.linkedAt },
      ]),
      updatedAt: new Date().toISOString(),
    };
    try {
      const saved = await biddersRepo.replace(ctx.scope, next, _etag);
      await writeAudit(ctx, {
        action: 'bidder.platform-identity',
        entity: { type: 'bidder', id: saved.id },
        before: known ?? null,
        after: identity,
      });
      return { bidder: saved, changed: true };
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}

/** Per e-mail address (lower case), the longest-known bidder with it, for many at once. */
export async function biddersWithEmails(ctx: Pick<RequestContext, 'scope'>, emails: string[]) {
  const lower = [...new Set(emails.map((email) => email.trim().toLowerCase()))];
  const byEmail = new Map<string, Stored<BidderRecord>>();
  for (const bidder of await findByEmails(ctx.scope, lower)) {
    if (bidder.email && !byEmail.has(bidder.email)) byEmail.set(bidder.email, bidder);
  }
  return byEmail;
}

/**
 * Per bidder ID (trimmed), the bidder whose own ID it is, for many at once. An ID carried only
 * as an alias after a merge is not in the answer: `bidderWithBidderId` finds that one.
 */
export async function biddersWithBidderIds(ctx: Pick<RequestContext, 'scope'>, ids: string[]) {
  const trimmed = [...new Set(ids.map((id) => id.trim()))];
  return new Map(
    (await findByBidderIds(ctx.scope, trimmed)).map((bidder) => [bidder.bidderId, bidder]),
  );
}

/** The bidder with this e-mail address (as typed, in any case), if the account has one. */
export async function bidderWithEmail(ctx: Pick<RequestContext, 'scope'>, email: string) {
  return findByEmail(ctx.scope, email.trim().toLowerCase());
}

/** The bidder with this bidder ID (or carrying it as an alias after a merge), if any. */
export async function bidderWithBidderId(ctx: Pick<RequestContext, 'scope'>, bidderId: string) {
  return findByBidderId(ctx.scope, bidderId.trim());
}

/** Bidders added (and so scored) in a period: billing's usage of that period. */
export async function scoredBiddersBetween(
  ctx: { scope: AccountScope },
  period: { from: string; to: string },
): Promise<number> {
  return biddersRepo.count(ctx.scope, {
    where: 'c.createdAt >= @from AND c.createdAt < @to',
    parameters: [
      { name: '@from', value: period.from },
      { name: '@to', value: period.to },
    ],
  });
}
