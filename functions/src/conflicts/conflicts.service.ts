import {
  auctionEtag,
  getAuction,
  syncPlatformAuction,
  toAuction,
} from '../auctions/auctions.service.js';
import { platforms, type AuctionStatus, type Platform } from '../auctions/auctions.schema.js';
import { getBidder } from '../bidders/bidders.service.js';
import {
  mergeableFields,
  type DuplicateView,
  type MergeableField,
} from '../bidders/bidders.schema.js';
import { toListItem } from '../bidders/bidder-model.js';
import { mergePair, pairStatus } from '../bidders/duplicates.service.js';
import { linkableAuction, settleAuctionLink } from '../integrations/sync.service.js';
import { caseUpdateSchema } from '../legal/legal.schema.js';
import { caseEtag, getCase, money, toCase, updateCase } from '../legal/legal.service.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import { AppError, conflict, forbidden, notFound, preconditionFailed } from '../platform/errors.js';
import { inFlight } from '../platform/in-flight.js';
import type { Stored } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import {
  conflictCounts,
  conflictIdOf,
  conflictIds,
  countConflicts,
  createConflict,
  findConflict,
  pageConflicts,
  replaceConflict,
  type ConflictRecord,
  type ConflictSubject,
} from './conflicts.repo.js';
import type {
  BulkResolve,
  BulkResolved,
  Conflict,
  ConflictField,
  ConflictKind,
  ConflictListQuery,
  ConflictSource,
  ResolveConflict,
} from './conflicts.schema.js';

export type { ConflictSubject };

/** A conflict as an importer or a sync hands it over (see `recordConflict`). */
export interface NewConflict {
  /** Idempotency: the same key is recorded once (a resumed or re-run import, a sync run again). */
  key: string;
  subject: ConflictSubject;
  conflictType: ConflictKind;
  source: ConflictSource;
  uploadName: string;
  matchScore: number | null;
  existingRecord: Record<string, unknown> | null;
  importedRecord: Record<string, unknown>;
  fields: ConflictField[];
  /**
   * The version tags of the records whose values `existingRecord` and `fields` show, taken with
   * them (not read again later): a resolve applies only over the versions the person saw.
   */
  guard: ConflictRecord['guard'];
}

export const CONFLICT_MESSAGES = {
  notFound: 'Conflict not found',
  recordChanged:
    'The record on file changed after this conflict was recorded. Its current values are shown now: review them and choose again.',
  recordGone:
    'The record on file has been deleted since this conflict was recorded. Nothing can be applied to it: skip the conflict.',
  busy: 'Someone else is resolving this conflict right now',
  resolved: 'This conflict has already been resolved',
  skipped: 'This conflict has already been skipped',
} as const;

/** How long a resolve holds its conflict; one cut off frees it when this lapses. */
const CLAIM_MS = 60_000;

const now = () => new Date().toISOString();

const existingIdOf = (subject: ConflictSubject) =>
  subject.type === 'auction' ? subject.localId : subject.existingId;

const scoreOf = (score: number | null) =>
  score === null ? null : Math.max(0, Math.min(100, Math.round(score)));

/**
 * Records a conflict for a person to decide, with the versions of the records it is about as
 * they are now (a resolve applies only over those). The same key is recorded once: a second call
 * answers the first one's id with `created: false`, whatever became of it.
 */
export async function recordConflict(
  ctx: RequestContext,
  conflict: NewConflict,
): Promise<{ id: string; created: boolean }> {
  const id = conflictIdOf(conflict.key);
  if (await findConflict(ctx.scope, id)) return { id, created: false };
  const at = now();
  const record: Omit<ConflictRecord, 'accountId'> = {
    id,
    kind: 'conflict',
    key: conflict.key,
    type: conflict.subject.type,
    uploadId: conflict.source.kind === 'upload' ? conflict.source.uploadId : null,
    uploadName: conflict.uploadName,
    source: conflict.source,
    conflictType: conflict.conflictType,
    status: 'pending',
    matchScore: scoreOf(conflict.matchScore),
    existingRecord: conflict.existingRecord,
    importedRecord: conflict.importedRecord,
    existingId: existingIdOf(conflict.subject),
    fields: conflict.fields,
    resolution: null,
    choices: null,
    resolvedBy: null,
    resolvedAt: null,
    note: null,
    createdAt: at,
    subject: conflict.subject,
    guard: conflict.guard,
    claim: null,
    updatedAt: at,
  };
  try {
    await createConflict(ctx.scope, record);
  } catch (error) {
    if (isConflict(error)) return { id, created: false };
    throw error;
  }
  await writeAudit(ctx, {
    action: 'conflict.record',
    entity: { type: 'conflict', id },
    after: {
      type: record.type,
      conflictType: record.conflictType,
      source: record.source,
      existingId: record.existingId,
    },
  });
  return { id, created: true };
}

/** The fields a bidder pair can differ in, labelled as the bidder import's columns are. */
const bidderFieldLabels: Record<string, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  street: 'Street',
  city: 'City',
  state: 'State',
  zip: 'ZIP',
  country: 'Country',
  status: 'Status',
};

/** A bidder as a conflict shows it: its id, a title, and the facts compared. */
const pairSideView = (bidder: DuplicateView['bidder1']): Record<string, unknown> => ({
  id: bidder.id,
  title: `${bidder.firstName} ${bidder.lastName}`.trim(),
  bidderId: bidder.bidderId,
  firstName: bidder.firstName,
  lastName: bidder.lastName,
  email: bidder.email,
  phone: bidder.phone,
  ...bidder.address,
  status: bidder.status,
  etag: bidder.etag,
});

/** Of a pair naming bidders an import or a sync wrote, the imported one: of two, the newer. */
export function importedSide(pair: DuplicateView, wrote: (id: string) => boolean): string {
  const { bidder1: first, bidder2: second } = pair;
  return wrote(first.id) && (!wrote(second.id) || first.createdAt > second.createdAt)
    ? first.id
    : second.id;
}

/**
 * A pending duplicate pair (Bidders › Duplicates) one of whose bidders an import or a sync wrote,
 * as a conflict: `importedId` is the imported side, the other the one on file. Recorded once per
 * key; answers whether it is new.
 */
export async function recordBidderPair(
  ctx: RequestContext,
  pair: DuplicateView,
  importedId: string,
  recorder: Pick<NewConflict, 'key' | 'source' | 'uploadName'>,
): Promise<boolean> {
  const firstImported = pair.bidder1.id === importedId;
  const [existing, imported] = firstImported
    ? [pair.bidder2, pair.bidder1]
    : [pair.bidder1, pair.bidder2];
  const { created } = await recordConflict(ctx, {
    ...recorder,
    subject: { type: 'bidder', matchId: pair.id, existingId: existing.id, importedId: imported.id },
    conflictType: 'duplicate',
    matchScore: pair.confidenceScore,
    existingRecord: pairSideView(existing),
    importedRecord: pairSideView(imported),
    guard: { existing: existing.etag, imported: imported.etag },
    fields: pair.conflicts.map((conflict) => ({
      field: conflict.field,
      label: bidderFieldLabels[conflict.field] ?? conflict.field,
      existing: firstImported ? conflict.value2 : conflict.value1,
      imported: firstImported ? conflict.value1 : conflict.value2,
    })),
  });
  return created;
}

export function toConflict(record: Stored<ConflictRecord>): Conflict {
  return {
    id: record.id,
    type: record.type,
    uploadId: record.uploadId,
    uploadName: record.uploadName,
    source: record.source,
    conflictType: record.conflictType,
    status: record.status,
    matchScore: record.matchScore,
    existingRecord: record.existingRecord,
    importedRecord: record.importedRecord,
    existingId: record.existingId,
    fields: record.fields,
    resolution: record.resolution,
    choices: record.choices,
    resolvedBy: record.resolvedBy,
    resolvedAt: record.resolvedAt,
    note: record.note ?? null,
    createdAt: record.createdAt,
    etag: record._etag,
  };
}

/** A page of the account's conflicts (newest first) with the counters of all of them. */
export async function listConflicts(ctx: RequestContext, query: ConflictListQuery) {
  const filters = {
    ...(query.type ? { type: query.type } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.uploadId ? { uploadId: query.uploadId } : {}),
  };
  const [page, counts] = await Promise.all([
    pageConflicts(ctx.scope, filters, query.pageSize, query.continuationToken),
    conflictCounts(ctx.scope),
  ]);
  return {
    items: page.items.map(toConflict),
    counts,
    continuationToken: page.continuationToken ?? null,
  };
}

async function loadConflict(ctx: RequestContext, id: string) {
  const found = await findConflict(ctx.scope, id);
  if (!found) throw notFound(CONFLICT_MESSAGES.notFound);
  return found;
}

export async function getConflict(ctx: RequestContext, id: string): Promise<Conflict> {
  return toConflict(await loadConflict(ctx, id));
}

/** What the records look like now, when they changed since the conflict was shown. */
interface Refreshed {
  existingRecord: Record<string, unknown> | null;
  importedRecord?: Record<string, unknown>;
  fields: ConflictField[];
  guard: ConflictRecord['guard'];
}

/** The records changed (or went) since the conflict was recorded: nothing applied. */
class RecordChanged extends Error {
  constructor(
    readonly refreshed: Refreshed,
    readonly gone = false,
  ) {
    super(gone ? CONFLICT_MESSAGES.recordGone : CONFLICT_MESSAGES.recordChanged);
  }
}

/** The question was settled elsewhere (Bidders › Duplicates): the conflict is marked resolved. */
class SettledElsewhere extends Error {}

/** Which side each differing field takes. */
type Sides = Record<string, 'existing' | 'imported'>;

function sidesOf(record: ConflictRecord, choice: Exclude<ResolveConflict, { resolution: 'skip' }>) {
  if (choice.resolution !== 'merge') {
    const side = choice.resolution === 'use_imported' ? 'imported' : 'existing';
    return Object.fromEntries(record.fields.map((field) => [field.field, side])) as Sides;
  }
  const known = new Set(record.fields.map((field) => field.field));
  const problems = [
    ...Object.keys(choice.choices)
      .filter((field) => !known.has(field))
      .map((field) => ({
        location: 'body' as const,
        field: `choices.${field}`,
        message: 'is not a field of this conflict',
      })),
    ...record.fields
      .filter((field) => !(field.field in choice.choices))
      .map((field) => ({
        location: 'body' as const,
        field: `choices.${field.field}`,
        message: 'is required: choose existing or imported',
      })),
  ];
  if (problems.length) throw validationError(problems);
  return choice.choices;
}

const takesImported = (sides: Sides) =>
  Object.entries(sides)
    .filter(([, side]) => side === 'imported')
    .map(([field]) => field);

/** The same fields with the values the records have now. */
const refreshedFields = (
  fields: ConflictField[],
  existing: (field: string) => unknown,
  imported?: (field: string) => unknown,
) =>
  fields.map((field) => ({
    ...field,
    existing: existing(field.field),
    ...(imported ? { imported: imported(field.field) } : {}),
  }));

const isMissing = (error: unknown) => error instanceof AppError && error.code === 'not_found';
const isRefusedAsStale = (error: unknown) =>
  isStale(error) || (error instanceof AppError && error.code === 'precondition_failed');

// Bidders: the imported bidder and the one on file are a pending pair of Bidders › Duplicates.

/** `street` or `address.street` as the merge names it. */
const mergeableOf = (field: string): MergeableField | undefined => {
  const name = field.startsWith('address.') ? field.slice('address.'.length) : field;
  return (mergeableFields as readonly string[]).includes(name)
    ? (name as MergeableField)
    : undefined;
};

type BidderValues = Awaited<ReturnType<typeof getBidder>>;

function bidderValue(bidder: BidderValues, field: string): unknown {
  const name = mergeableOf(field);
  if (!name) return (bidder as unknown as Record<string, unknown>)[field];
  if (name in bidder.address) return bidder.address[name as keyof BidderValues['address']];
  return bidder[name as 'firstName' | 'lastName' | 'email' | 'phone' | 'status'] ?? '';
}

const bidderView = (bidder: BidderValues) =>
  toListItem(bidder) as unknown as Record<string, unknown>;

async function bidderOrNothing(ctx: RequestContext, id: string) {
  try {
    return await getBidder(ctx, id);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

const PAIR_OUTCOMES: Record<string, string> = {
  'auto-merged': 'merged automatically',
  'manually-merged': 'merged',
  dismissed: 'marked as different people',
};

async function applyBidder(
  ctx: RequestContext,
  record: ConflictRecord,
  subject: Extract<ConflictSubject, { type: 'bidder' }>,
  sides: Sides,
  resolution: 'keep_existing' | 'use_imported' | 'merge',
): Promise<string> {
  const status = await pairStatus(ctx, subject.matchId);
  if (status !== undefined && status !== 'pending') {
    throw new SettledElsewhere(
      `These two bidders were already reviewed in Bidders › Duplicates (${PAIR_OUTCOMES[status] ?? status}); the conflict is marked resolved.`,
    );
  }
  const [existing, imported] = await Promise.all([
    bidderOrNothing(ctx, subject.existingId),
    bidderOrNothing(ctx, subject.importedId),
  ]);
  if (status === undefined || !existing || !imported) {
    throw new SettledElsewhere(
      'One of the two bidders was merged or deleted in Bidders since; the conflict is marked resolved.',
    );
  }
  const refresh = (): Refreshed => ({
    existingRecord: bidderView(existing),
    importedRecord: bidderView(imported),
    fields: refreshedFields(
      record.fields,
      (field) => bidderValue(existing, field),
      (field) => bidderValue(imported, field),
    ),
    guard: { existing: existing._etag, imported: imported._etag },
  });
  if (existing._etag !== record.guard.existing || imported._etag !== record.guard.imported) {
    throw new RecordChanged(refresh());
  }
  // The imported bidder always goes into the one on file (its history, notes and bidder ID as an
  // alias move there): what differs is only which values the survivor keeps.
  const resolved: Record<string, string> = {};
  for (const field of takesImported(sides)) {
    const name = mergeableOf(field);
    if (name) resolved[name] = String(bidderValue(imported, field) ?? '');
  }
  try {
    await mergePair(ctx, subject.matchId, {
      primaryId: existing.id,
      secondaryId: imported.id,
      resolved,
      primaryEtag: existing._etag,
      secondaryEtag: imported._etag,
    });
  } catch (error) {
    if (isRefusedAsStale(error)) {
      const [nowExisting, nowImported] = await Promise.all([
        bidderOrNothing(ctx, subject.existingId),
        bidderOrNothing(ctx, subject.importedId),
      ]);
      if (!nowExisting || !nowImported) {
        throw new SettledElsewhere(
          'One of the two bidders was merged or deleted in Bidders meanwhile; the conflict is marked resolved.',
        );
      }
      throw new RecordChanged({
        existingRecord: bidderView(nowExisting),
        importedRecord: bidderView(nowImported),
        fields: refreshedFields(
          record.fields,
          (field) => bidderValue(nowExisting, field),
          (field) => bidderValue(nowImported, field),
        ),
        guard: { existing: nowExisting._etag, imported: nowImported._etag },
      });
    }
    if (error instanceof AppError && error.code === 'conflict') {
      throw new SettledElsewhere(
        'These two bidders were already reviewed in Bidders › Duplicates meanwhile; the conflict is marked resolved.',
      );
    }
    throw error;
  }
  const kept =
    resolution === 'keep_existing'
      ? 'keeping the values on file'
      : resolution === 'use_imported'
        ? 'taking the imported values'
        : 'with the values chosen';
  return `Merged ${imported.bidderId} into ${existing.bidderId}, ${kept}`;
}

// Legal cases: the imported case's fields applied to the case on file.

type CaseValues = Awaited<ReturnType<typeof getCase>>;

function caseValue(current: CaseValues, field: string): unknown {
  switch (field) {
    case 'auctionId':
      return current.auction?.id ?? null;
    case 'bidderId':
      return current.bidder?.id ?? null;
    case 'assignedTo':
      return current.assignedTo?.id ?? null;
    // Money as the legal importer records it: as the house reads it, not in minor units.
    case 'claimAmount':
      return money(current.claimAmount, current.currency);
    default:
      return (current as unknown as Record<string, unknown>)[field];
  }
}

async function applyLegal(
  ctx: RequestContext,
  record: ConflictRecord,
  subject: Extract<ConflictSubject, { type: 'legal' }>,
  sides: Sides,
): Promise<string | null> {
  let current: CaseValues;
  try {
    current = await getCase(ctx, subject.existingId);
  } catch (error) {
    if (!isMissing(error)) throw error;
    throw new RecordChanged(
      { existingRecord: null, fields: record.fields, guard: { existing: null, imported: null } },
      true,
    );
  }
  const refresh = (found: CaseValues): Refreshed => ({
    existingRecord: { ...toCase(found), claimAmount: caseValue(found, 'claimAmount') },
    fields: refreshedFields(record.fields, (field) => caseValue(found, field)),
    guard: { existing: caseEtag(found), imported: null },
  });
  if (caseEtag(current) !== record.guard.existing) throw new RecordChanged(refresh(current));
  const taken = takesImported(sides).filter((field) => field in subject.imported);
  if (taken.length === 0) return null;
  const update = caseUpdateSchema.safeParse(
    Object.fromEntries(taken.map((field) => [field, subject.imported[field]])),
  );
  if (!update.success) {
    const issue = update.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    const label = record.fields.find((entry) => entry.field === field)?.label ?? field;
    throw conflict(
      issue?.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')} cannot be changed on a case on file: keep the value on file`
        : `${label}: the imported value cannot be applied (${issue?.message ?? 'not valid'})`,
    );
  }
  try {
    await updateCase(ctx, subject.existingId, caseEtag(current), update.data);
  } catch (error) {
    if (!isRefusedAsStale(error)) throw error;
    throw new RecordChanged(refresh(await getCase(ctx, subject.existingId)));
  }
  return `${current.caseNumber} updated: ${taken
    .map((field) => record.fields.find((entry) => entry.field === field)?.label ?? field)
    .join(', ')}`;
}

// Auctions: a platform's auction and the Lotwise one it collides with (a sync under manual review).

const auctionValue = (current: Awaited<ReturnType<typeof getAuction>>, field: string) =>
  (toAuction(current) as unknown as Record<string, unknown>)[field];

async function applyAuction(
  ctx: RequestContext,
  record: ConflictRecord,
  subject: Extract<ConflictSubject, { type: 'auction' }>,
  sides: Sides,
): Promise<string | null> {
  const gone = () =>
    new RecordChanged(
      { existingRecord: null, fields: record.fields, guard: { existing: null, imported: null } },
      true,
    );
  if (!subject.localId || !(platforms as readonly string[]).includes(subject.platform)) {
    throw gone();
  }
  const localId = subject.localId;
  const platform = subject.platform as Platform;
  let current: Awaited<ReturnType<typeof getAuction>>;
  try {
    current = await getAuction(ctx, localId);
  } catch (error) {
    if (!isMissing(error)) throw error;
    throw gone();
  }
  const refresh = (found: typeof current): Refreshed => ({
    existingRecord: { ...toAuction(found) },
    fields: refreshedFields(record.fields, (field) => auctionValue(found, field)),
    guard: { existing: auctionEtag(found), imported: null },
  });
  if (auctionEtag(current) !== record.guard.existing) throw new RecordChanged(refresh(current));
  await linkableAuction(ctx, { platform, externalId: subject.externalId, localId });
  const taken = takesImported(sides).filter((field) => field in subject.imported);
  const { status: wantedStatus, ...values } = Object.fromEntries(
    taken.map((field) => [field, subject.imported[field]]),
  );
  let revision = current.revision;
  if (taken.length > 0) {
    try {
      const saved = await syncPlatformAuction(
        ctx,
        localId,
        values,
        (wantedStatus as AuctionStatus | undefined) ?? null,
        now(),
        auctionEtag(current),
      );
      revision = saved.revision;
    } catch (error) {
      if (!isRefusedAsStale(error)) throw error;
      throw new RecordChanged(refresh(await getAuction(ctx, localId)));
    }
  }
  const settled = await settleAuctionLink(ctx, {
    platform,
    externalId: subject.externalId,
    localId,
    platformUpdatedAt: subject.platformUpdatedAt ?? null,
    revision,
    housePending: taken.length < record.fields.length,
    withLots: taken.length > 0,
  });
  return [
    taken.length > 0
      ? `${platform}'s values applied: ${taken
          .map((field) => record.fields.find((entry) => entry.field === field)?.label ?? field)
          .join(', ')}`
      : `Lotwise values kept; linked to ${platform}`,
    settled.note,
  ]
    .filter(Boolean)
    .join('. ');
}

/** Applies a choice to the real record(s); answers what was done, in a sentence. */
function applyChoice(
  ctx: RequestContext,
  record: ConflictRecord,
  choice: Exclude<ResolveConflict, { resolution: 'skip' }>,
): Promise<string | null> {
  const sides = sidesOf(record, choice);
  const { subject } = record;
  switch (subject.type) {
    case 'bidder':
      return applyBidder(ctx, record, subject, sides, choice.resolution);
    case 'legal':
      return applyLegal(ctx, record, subject, sides);
    case 'auction':
      return applyAuction(ctx, record, subject, sides);
  }
}

const stored = (record: Stored<ConflictRecord>): ConflictRecord => {
  const { _etag, _ts, ...rest } = record;
  return rest;
};

const claimLive = (record: ConflictRecord) =>
  record.claim !== null && Date.parse(record.claim.until) > Date.now();

/**
 * Resolves one pending conflict, shown at `etag`: the choice is applied to the real records
 * guarded by the versions the conflict shows. The conflict is claimed first, so of two people
 * resolving it at once one wins and the other is told.
 */
/**
 * What a choice applied to each kind of record asks of the person besides importing data: the
 * permission its own screen asks for the same change (a pair merged, a case or auction edited).
 */
const applyPermissions = {
  bidder: 'bidders:merge',
  legal: 'legal:edit',
  auction: 'auctions:edit',
} as const satisfies Record<ConflictRecord['type'], string>;

async function resolveShown(
  ctx: RequestContext,
  shown: Stored<ConflictRecord>,
  choice: ResolveConflict,
): Promise<Stored<ConflictRecord>> {
  if (shown.status !== 'pending') {
    throw conflict(
      shown.status === 'skipped' ? CONFLICT_MESSAGES.skipped : CONFLICT_MESSAGES.resolved,
    );
  }
  if (claimLive(shown)) throw conflict(CONFLICT_MESSAGES.busy);
  const needed = applyPermissions[shown.type];
  if (choice.resolution !== 'skip' && !ctx.can(needed)) {
    throw forbidden(`Applying this choice changes the record on file, which needs ${needed}`);
  }
  if (choice.resolution === 'merge') sidesOf(shown, choice);
  let claimed: Stored<ConflictRecord>;
  try {
    claimed = await replaceConflict(
      ctx.scope,
      {
        ...stored(shown),
        claim: { by: ctx.actor.userId, until: new Date(Date.now() + CLAIM_MS).toISOString() },
      },
      shown._etag,
    );
  } catch (error) {
    if (isStale(error)) throw preconditionFailed();
    throw error;
  }
  const finish = (changes: Partial<ConflictRecord>) =>
    replaceConflict(
      ctx.scope,
      { ...stored(claimed), ...changes, claim: null, updatedAt: now() },
      claimed._etag,
    );
  const by = { id: ctx.actor.userId, name: ctx.actor.name };
  let note: string | null = null;
  try {
    if (choice.resolution !== 'skip') note = await applyChoice(ctx, claimed, choice);
  } catch (error) {
    if (error instanceof RecordChanged) {
      const { refreshed } = error;
      await finish({
        existingRecord: refreshed.existingRecord,
        ...(refreshed.importedRecord ? { importedRecord: refreshed.importedRecord } : {}),
        fields: refreshed.fields,
        guard: refreshed.guard,
      });
      throw error.gone ? conflict(error.message) : preconditionFailed(error.message);
    }
    if (error instanceof SettledElsewhere) {
      await finish({ status: 'resolved', resolvedBy: by, resolvedAt: now(), note: error.message });
      await writeAudit(ctx, {
        action: 'conflict.resolve',
        entity: { type: 'conflict', id: shown.id },
        before: { status: 'pending' },
        after: { status: 'resolved', resolution: null, note: error.message },
      });
      throw conflict(error.message);
    }
    await finish({});
    throw error;
  }
  const resolved = await finish({
    status: choice.resolution === 'skip' ? 'skipped' : 'resolved',
    resolution: choice.resolution === 'skip' ? null : choice.resolution,
    choices: choice.resolution === 'merge' ? choice.choices : null,
    resolvedBy: by,
    resolvedAt: now(),
    note,
  });
  await writeAudit(ctx, {
    action: choice.resolution === 'skip' ? 'conflict.skip' : 'conflict.resolve',
    entity: { type: 'conflict', id: shown.id },
    before: { status: 'pending' },
    after: {
      status: resolved.status,
      resolution: resolved.resolution,
      choices: resolved.choices,
      existingId: resolved.existingId,
      note,
    },
  });
  return resolved;
}

/** How many pending conflicts are read at a time when an undo closes its upload's. */
const CLOSE_PAGE = 100;

/** What a conflict closed by its upload's undo says. */
export const UNDONE_IMPORT_NOTE = 'Skipped: the import that recorded it was undone.';

/**
 * The pending conflicts an upload's imports recorded, closed as skipped once the upload is undone:
 * their imported side is gone or taken back, so no choice may apply it any more. `by` is who asked
 * for the undo. A conflict someone resolved first keeps their decision. Answers how many.
 */
export async function closeUploadConflicts(
  ctx: RequestContext,
  uploadId: string,
  by: { id: string; name: string } | null,
): Promise<number> {
  let closed = 0;
  for (;;) {
    const page = await pageConflicts(
      ctx.scope,
      { status: 'pending', uploadId },
      CLOSE_PAGE,
      undefined,
    );
    for (const shown of page.items) {
      let current: Stored<ConflictRecord> | undefined = shown;
      while (current?.status === 'pending') {
        // Someone is applying a choice to it this minute: the undo's next try closes it, or finds
        // it resolved (a platform failure, so the queue tries the undo's end again).
        if (claimLive(current)) {
          throw new Error(`Conflict ${current.id} is being resolved; its undo closes it later`);
        }
        const at = now();
        try {
          await replaceConflict(
            ctx.scope,
            {
              ...stored(current),
              status: 'skipped',
              resolution: null,
              choices: null,
              resolvedBy: by,
              resolvedAt: at,
              note: UNDONE_IMPORT_NOTE,
              claim: null,
              updatedAt: at,
            },
            current._etag,
          );
          closed += 1;
          await writeAudit(ctx, {
            action: 'conflict.skip',
            entity: { type: 'conflict', id: current.id },
            before: { status: 'pending' },
            after: { status: 'skipped', note: UNDONE_IMPORT_NOTE },
          });
          break;
        } catch (error) {
          if (!isStale(error)) throw error;
          current = await findConflict(ctx.scope, current.id);
        }
      }
    }
    // Each page's conflicts leave the filter as they close: the next first page is the rest.
    if (page.items.length < CLOSE_PAGE || !page.continuationToken) return closed;
  }
}

/** `POST /data-upload/conflicts/{id}/resolve`: one conflict, as the person saw it (If-Match). */
export async function resolveConflict(
  ctx: RequestContext,
  id: string,
  ifMatch: string,
  choice: ResolveConflict,
): Promise<Conflict> {
  const shown = await loadConflict(ctx, id);
  if (shown._etag !== ifMatch) throw preconditionFailed();
  return toConflict(await resolveShown(ctx, shown, choice));
}

/** Resolves a few at a time: each is its own resolve, with its own records and guard. */
const BULK_IN_FLIGHT = 4;

/**
 * `POST /data-upload/conflicts/bulk-resolve`: the first `limit` pending conflicts the filter
 * matches, each applied as one resolve over the versions it shows. One that cannot be applied
 * (its record changed or went, someone else is on it) stays pending and is listed.
 */
export async function bulkResolve(
  ctx: RequestContext,
  request: BulkResolve,
): Promise<BulkResolved> {
  const filters = {
    status: 'pending' as const,
    ...(request.filter.type ? { type: request.filter.type } : {}),
    ...(request.filter.uploadId ? { uploadId: request.filter.uploadId } : {}),
  };
  const matching = await countConflicts(ctx.scope, filters);
  const ids = await conflictIds(ctx.scope, filters, request.limit);
  const choice = { resolution: request.resolution } as ResolveConflict;
  const outcome: BulkResolved = { resolved: 0, skipped: 0, failed: [], remaining: 0 };
  const writes = inFlight(BULK_IN_FLIGHT);
  for (const { id } of ids) {
    await writes.add(
      (async () => {
        try {
          const shown = await loadConflict(ctx, id);
          await resolveShown(ctx, shown, choice);
          if (request.resolution === 'skip') outcome.skipped += 1;
          else outcome.resolved += 1;
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          outcome.failed.push({ id, message: error.message });
        }
      })(),
    );
  }
  await writes.finish();
  outcome.remaining = Math.max(0, matching - ids.length);
  return outcome;
}
