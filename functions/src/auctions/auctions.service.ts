import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { accountNameOf, housesOf } from '../identity/accounts/accounts.service.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { conflict, forbidden, notFound, preconditionFailed } from '../platform/errors.js';
import { rememberedTotals } from '../platform/remembered-totals.js';
import { MAX_BATCH_OPERATIONS, type AccountScope, type Stored } from '../platform/repo.js';
import { validationError, type FieldProblem } from '../platform/validation.js';
import { emitEvent } from '../webhooks/deliveries.service.js';
import {
  auctionDocuments,
  auctionsStore,
  auctionTallies,
  countAuctions,
  countHouseAuctions,
  dependentsOf,
  documentIdsOf,
  findAuction,
  listAuctionPage,
  type AuctionRecord,
} from './auctions.repo.js';
import {
  currencySymbols,
  statusMoves,
  type Auction,
  type AuctionInput,
  type AuctionListItem,
  type AuctionStatus,
  type AuctionSummary,
  type AuctionUpdate,
  type Platform,
  type ListAuctionsQuery,
} from './auctions.schema.js';

const DEFAULT_TIME_ZONE = 'America/New_York';

/** The auction's ETag: the revision of what the house edits, not the document's (see repo). */
export const auctionEtag = (record: Pick<AuctionRecord, 'id' | 'revision'>) =>
  `${record.id}-r${record.revision}`;

const local = (instant: string, zone: string) =>
  DateTime.fromISO(instant, { zone: 'utc' }).setZone(zone);

export function toAuction(record: AuctionRecord): Auction {
  const start = local(record.startsAt, record.timeZone);
  const end = local(record.endsAt, record.timeZone);
  return {
    id: record.id,
    title: record.title,
    company: record.company,
    type: record.type,
    category: record.category,
    subcategory: record.subcategory,
    description: record.description,
    notes: record.notes,
    location: record.location,
    status: record.status,
    startsAt: record.startsAt,
    endsAt: record.endsAt,
    startDate: start.toFormat('yyyy-MM-dd'),
    startTime: start.toFormat('HH:mm'),
    endDate: end.toFormat('yyyy-MM-dd'),
    endTime: end.toFormat('HH:mm'),
    timeZone: record.timeZone,
    buyersPremium: record.buyersPremium,
    buyersPremiumDescription: record.buyersPremiumDescription,
    currency: record.currency,
    currencySymbol: currencySymbols[record.currency],
    auctionHouseId: record.auctionHouseId,
    auctionHouseName: record.auctionHouseName,
    registrationRequired: record.registrationRequired,
    requirements: record.requirements,
    paymentMethods: record.paymentMethods,
    biddingIncrements: record.biddingIncrements,
    biddingDeposits: record.biddingDeposits,
    shippingOptions: record.shippingOptions,
    terms: record.terms,
    biddersRegistered: record.biddersRegistered,
    lotCount: record.lotCount,
    importedFrom: record.importedFrom,
    source: record.source,
    allowedStatuses: [...statusMoves[record.status]],
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
    publishedAt: record.publishedAt,
    closedAt: record.closedAt,
    cancelledAt: record.cancelledAt,
    etag: auctionEtag(record),
  };
}

export function toListItem(record: AuctionRecord): AuctionListItem {
  const auction = toAuction(record);
  return {
    id: auction.id,
    title: auction.title,
    company: auction.company,
    description: auction.description,
    status: auction.status,
    category: auction.category,
    type: auction.type,
    startsAt: auction.startsAt,
    endsAt: auction.endsAt,
    startDate: auction.startDate,
    startTime: auction.startTime,
    endDate: auction.endDate,
    endTime: auction.endTime,
    timeZone: auction.timeZone,
    location: auction.location,
    currency: auction.currency,
    biddersRegistered: auction.biddersRegistered,
    lotCount: auction.lotCount,
    importedFrom: auction.importedFrom,
    etag: auction.etag,
  };
}

/**
 * A house-local wall time as an instant. A time the clocks skip (the spring-forward hour) does
 * not exist there, so it is refused rather than silently moved.
 */
function instantOf(date: string, time: string, zone: string, field: 'startTime' | 'endTime') {
  const value = DateTime.fromISO(`${date}T${time}`, { zone });
  if (!value.isValid || value.toFormat("yyyy-MM-dd'T'HH:mm") !== `${date}T${time}`) {
    throw validationError([
      {
        location: 'body',
        field,
        message: `does not exist in ${zone} on ${date} (the clocks change)`,
      },
    ]);
  }
  return value.toUTC().toISO({ suppressMilliseconds: false }) as string;
}

interface Schedule {
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  timeZone: string;
}

function instantsOf(schedule: Schedule) {
  const startsAt = instantOf(
    schedule.startDate,
    schedule.startTime,
    schedule.timeZone,
    'startTime',
  );
  const endsAt = instantOf(schedule.endDate, schedule.endTime, schedule.timeZone, 'endTime');
  if (endsAt <= startsAt) {
    throw validationError([
      { location: 'body', field: 'endDate', message: 'must be after the start' },
    ]);
  }
  return { startsAt, endsAt, startDay: schedule.startDate, endDay: schedule.endDate };
}

async function houseOf(scope: AccountScope, houseId: string) {
  const house = (await housesOf(scope)).find((candidate) => candidate.id === houseId);
  if (!house) {
    throw validationError([
      {
        location: 'body',
        field: 'auctionHouseId',
        message: 'is not an auction house of this account',
      },
    ]);
  }
  return house;
}

/**
 * Who runs a new auction: the house named; else the account's only house; else, with no house
 * yet, the account itself. An account of several houses must say which.
 */
async function runnerOf(scope: AccountScope, houseId: string | null) {
  if (houseId) {
    const house = await houseOf(scope, houseId);
    return { id: house.id, name: house.name, timezone: house.timezone };
  }
  const houses = await housesOf(scope);
  const [only] = houses;
  if (houses.length === 1 && only) return { id: only.id, name: only.name, timezone: only.timezone };
  if (houses.length > 1) {
    throw validationError([
      { location: 'body', field: 'auctionHouseId', message: 'Choose the house that runs it' },
    ]);
  }
  return { id: null, name: await accountNameOf(scope.accountId), timezone: DEFAULT_TIME_ZONE };
}

const searchFields = (title: string, company: string) => ({
  searchText: `${title} ${company}`.toLowerCase(),
  sortTitle: title.toLowerCase(),
  sortCompany: company.toLowerCase(),
});

/** What the audit keeps of an auction: its fields, without search keys and counters. */
const auditView = (record: AuctionRecord) => {
  const { searchText: _s, sortTitle: _t, sortCompany: _c, ...rest } = record;
  return rest;
};

/** An auction made from a platform's: the id its link chose, and where it came from. */
export interface PlatformOrigin {
  id: string;
  platform: Platform;
  externalId: string;
  syncedAt: string;
}

/**
 * A new Draft. From a platform (or an upload's rows, `{ id }`), it takes the id its link chose,
 * so an import cut short and run again finds it (a second create answers 409) rather than
 * making another.
 */
export async function createAuction(
  ctx: RequestContext,
  input: AuctionInput,
  given?: PlatformOrigin | { id: string },
) {
  const origin = given && 'platform' in given ? given : undefined;
  const house = await runnerOf(ctx.scope, input.auctionHouseId);
  const timeZone = input.timeZone ?? house.timezone;
  const { startsAt, endsAt, startDay, endDay } = instantsOf({ ...input, timeZone });
  const now = new Date().toISOString();
  const {
    startDate: _sd,
    startTime: _st,
    endDate: _ed,
    endTime: _et,
    timeZone: _tz,
    ...fields
  } = input;
  const record: Omit<AuctionRecord, 'accountId'> = {
    ...fields,
    auctionHouseId: house.id,
    id: given?.id ?? randomUUID(),
    kind: 'auction',
    status: 'Draft',
    company: house.name,
    auctionHouseName: house.name,
    startsAt,
    endsAt,
    startDay,
    endDay,
    timeZone,
    ...searchFields(input.title, house.name),
    revision: 1,
    lotCount: 0,
    biddersRegistered: 0,
    registrationTurns: 0,
    importedFrom: origin?.platform ?? null,
    source: origin
      ? { platform: origin.platform, externalId: origin.externalId, lastSyncAt: origin.syncedAt }
      : null,
    createdAt: now,
    createdBy: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
    updatedAt: now,
    publishedAt: null,
    closedAt: null,
    cancelledAt: null,
    cancelReason: null,
  };
  const created = (await auctionDocuments.create(ctx.scope, record)) as Stored<AuctionRecord>;
  totals.forget(ctx.scope.accountId);
  await writeAudit(ctx, {
    action: 'auction.create',
    entity: { type: 'auction', id: created.id },
    after: auditView(created),
  });
  return created;
}

export async function getAuction(ctx: Pick<RequestContext, 'scope'>, id: string) {
  const found = await findAuction(ctx.scope, id);
  if (!found) throw notFound('Auction not found');
  return found;
}

const stale = () =>
  preconditionFailed('Someone else changed this auction; reload it to see their changes');

function refuseMove(from: AuctionStatus, to: AuctionStatus): never {
  const allowed = statusMoves[from];
  throw conflict(
    allowed.length
      ? `A ${from} auction can move to ${allowed.join(' or ')}, not ${to}`
      : `A ${from} auction is final and cannot move to ${to}`,
    { status: from, allowed },
  );
}

/**
 * Replaces the auction when the caller's revision is still current. The document's own ETag
 * guards the write, so a counter changed meanwhile (a lot, a registration) is re-read and the
 * change applied again rather than lost or refused.
 */
async function reviseAuction(
  ctx: RequestContext,
  id: string,
  expected: string | undefined,
  change: (
    current: Stored<AuctionRecord>,
  ) => Partial<AuctionRecord> | Promise<Partial<AuctionRecord>>,
  action: string,
) {
  for (let attempt = 0; ; attempt += 1) {
    const current = await getAuction(ctx, id);
    if (expected !== undefined && expected !== auctionEtag(current)) throw stale();
    const changes = await change(current);
    const { _etag, _ts, ...stored } = current;
    const next: AuctionRecord = {
      ...stored,
      ...changes,
      revision: current.revision + 1,
      updatedAt: new Date().toISOString(),
    };
    try {
      const saved = (await auctionDocuments.replace(
        ctx.scope,
        next,
        _etag,
      )) as Stored<AuctionRecord>;
      totals.forget(ctx.scope.accountId);
      await writeAudit(ctx, {
        action,
        entity: { type: 'auction', id },
        before: auditView(current),
        after: auditView(saved),
      });
      await announceMove(ctx, current, saved);
      return saved;
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}

/** What the house's webhooks hear of a move along the lifecycle, once it is written. */
async function announceMove(ctx: RequestContext, before: AuctionRecord, after: AuctionRecord) {
  if (after.status === before.status) return;
  if (after.status === 'Upcoming') {
    await emitEvent(ctx, 'auction.published', { auction: toAuction(after) });
  } else if (after.status === 'Completed') {
    await emitEvent(ctx, 'auction.closed', { auction: toAuction(after) });
  }
}

/** Who may make each move: staff edit auctions but cannot publish, take live, close or cancel. */
const movePermission: Partial<Record<AuctionStatus, string>> = {
  Upcoming: 'auctions:publish',
  Active: 'auctions:go_live',
  Completed: 'auctions:close',
  Cancelled: 'auctions:close',
};

function mayMove(ctx: RequestContext, to: AuctionStatus) {
  const permission = movePermission[to];
  if (permission && !ctx.can(permission)) {
    throw forbidden(`You need the ${permission} permission to do this`, { permission });
  }
}

/** The lifecycle fields a move sets. */
function moveFields(to: AuctionStatus, now: string, reason?: string): Partial<AuctionRecord> {
  switch (to) {
    case 'Upcoming':
      return { status: to, publishedAt: now };
    case 'Completed':
      return { status: to, closedAt: now };
    case 'Cancelled':
      return { status: to, cancelledAt: now, cancelReason: reason ?? null };
    default:
      return { status: to };
  }
}

export async function updateAuction(
  ctx: RequestContext,
  id: string,
  ifMatch: string,
  update: AuctionUpdate,
) {
  return reviseAuction(
    ctx,
    id,
    ifMatch,
    async (current) => {
      const problems: FieldProblem[] = [];
      if (current.status === 'Completed' || current.status === 'Cancelled') {
        const edited = Object.keys(update).filter((key) => key !== 'status' && key !== 'notes');
        if (edited.length > 0) {
          throw conflict(
            `A ${current.status} auction keeps its record; only its notes can change`,
            {
              fields: edited,
            },
          );
        }
      }
      const changes: Partial<AuctionRecord> = {};
      if (update.status && update.status !== current.status) {
        if (update.status === 'Completed') {
          throw conflict('Close the auction to complete it: closing checks every lot is clerked');
        }
        if (!statusMoves[current.status].includes(update.status)) {
          refuseMove(current.status, update.status);
        }
        mayMove(ctx, update.status);
        if (update.status === 'Cancelled' && !update.statusReason) {
          problems.push({
            location: 'body',
            field: 'statusReason',
            message: 'Say why the auction is cancelled',
          });
        }
        Object.assign(
          changes,
          moveFields(update.status, new Date().toISOString(), update.statusReason),
        );
      }
      if (problems.length) throw validationError(problems);
      const { status: _status, statusReason: _statusReason, ...fields } = update;
      return { ...changes, ...(await editedFields(ctx, current, fields)) };
    },
    'auction.update',
  );
}

type AuctionFieldsUpdate = Omit<AuctionUpdate, 'status' | 'statusReason'>;

/** The record's fields as an edit changes them: the runner, the instants, the search keys. */
async function editedFields(
  ctx: RequestContext,
  current: AuctionRecord,
  update: AuctionFieldsUpdate,
): Promise<Partial<AuctionRecord>> {
  const { startDate, startTime, endDate, endTime, timeZone, auctionHouseId, ...fields } = update;
  const changes: Partial<AuctionRecord> = { ...fields };
  if (auctionHouseId !== undefined && auctionHouseId !== current.auctionHouseId) {
    const house = await runnerOf(ctx.scope, auctionHouseId);
    Object.assign(changes, {
      auctionHouseId: house.id,
      auctionHouseName: house.name,
      company: house.name,
    });
  }
  if (startDate || startTime || endDate || endTime || timeZone) {
    const before = toAuction(current);
    const schedule = {
      startDate: startDate ?? before.startDate,
      startTime: startTime ?? before.startTime,
      endDate: endDate ?? before.endDate,
      endTime: endTime ?? before.endTime,
      timeZone: timeZone ?? current.timeZone,
    };
    Object.assign(changes, instantsOf(schedule), { timeZone: schedule.timeZone });
  }
  const title = changes.title ?? current.title;
  const company = changes.company ?? current.company;
  return { ...changes, ...searchFields(title, company) };
}

/**
 * What a platform says of an auction imported from it, applied as the platform is its source:
 * the fields it sent, and its status when the house lets platforms move statuses (set directly,
 * as the sale ran there, not by Lotwise's lifecycle calls). With `expected` (the ETag a person
 * approved the change against, in Conflict Resolution), only while it is current (412 otherwise).
 */
export async function syncPlatformAuction(
  ctx: RequestContext,
  id: string,
  fields: AuctionFieldsUpdate,
  status: AuctionStatus | null,
  syncedAt: string,
  expected?: string,
) {
  return reviseAuction(
    ctx,
    id,
    expected,
    async (current) => ({
      ...(await editedFields(ctx, current, fields)),
      ...(status && status !== current.status ? moveFields(status, syncedAt) : {}),
      source: current.source ? { ...current.source, lastSyncAt: syncedAt } : null,
    }),
    'auction.sync',
  );
}

/** Moves an auction along its lifecycle by one of the spec's calls. */
export async function moveAuction(
  ctx: RequestContext,
  id: string,
  to: AuctionStatus,
  options: { reason?: string; before?: (current: Stored<AuctionRecord>) => Promise<void> } = {},
) {
  return reviseAuction(
    ctx,
    id,
    undefined,
    async (current) => {
      if (!statusMoves[current.status].includes(to)) refuseMove(current.status, to);
      await options.before?.(current);
      return moveFields(to, new Date().toISOString(), options.reason);
    },
    `auction.${to.toLowerCase()}`,
  );
}

export const publishAuction = (ctx: RequestContext, id: string) => moveAuction(ctx, id, 'Upcoming');
export const goLive = (ctx: RequestContext, id: string) => moveAuction(ctx, id, 'Active');
export const cancelAuction = (ctx: RequestContext, id: string, reason: string) =>
  moveAuction(ctx, id, 'Cancelled', { reason });

/**
 * Deletes an auction that nothing depends on: no registered or invited bidders and no recorded
 * results. Its lots go with it.
 */
export async function deleteAuction(ctx: RequestContext, id: string, ifMatch: string | undefined) {
  const current = await getAuction(ctx, id);
  if (ifMatch !== undefined && ifMatch !== auctionEtag(current)) throw stale();
  const dependents = await dependentsOf(ctx.scope, id);
  const reasons = [
    dependents.registrations
      ? `${dependents.registrations} bidder${dependents.registrations === 1 ? ' is' : 's are'} registered or invited`
      : '',
    dependents.results
      ? `${dependents.results} lot${dependents.results === 1 ? ' has' : 's have'} a recorded result`
      : '',
  ].filter(Boolean);
  if (reasons.length) {
    throw conflict(`This auction cannot be deleted: ${reasons.join(' and ')}. Cancel it instead.`, {
      ...dependents,
    });
  }
  // Lots first, the auction last: a removal cut short leaves the auction to delete again.
  const ids = (await documentIdsOf(ctx.scope, id)).filter((documentId) => documentId !== id);
  for (let start = 0; start < ids.length; start += MAX_BATCH_OPERATIONS) {
    await auctionDocuments.writeBatch(
      ctx.scope,
      ids.slice(start, start + MAX_BATCH_OPERATIONS).map((documentId) => ({
        op: 'delete' as const,
        id: documentId,
      })),
    );
  }
  try {
    await auctionDocuments.delete(ctx.scope, id, current._etag);
  } catch (error) {
    if (isStale(error)) throw stale();
    throw error;
  } finally {
    totals.forget(ctx.scope.accountId);
  }
  await writeAudit(ctx, {
    action: 'auction.delete',
    entity: { type: 'auction', id },
    before: auditView(current),
  });
}

/** Totals of the auction list: every write of an auction's own fields forgets them. */
const totals = rememberedTotals();

export async function listAuctions(ctx: RequestContext, query: ListAuctionsQuery) {
  const { page, limit, sortBy: _sortBy, sortOrder: _sortOrder, ...filter } = query;
  const [auctions, total] = await Promise.all([
    listAuctionPage(ctx.scope, query),
    totals.remembered(ctx.scope.accountId, JSON.stringify(filter), () =>
      countAuctions(ctx.scope, query),
    ),
  ]);
  return { auctions: auctions.map(toListItem), total, page, limit };
}

export async function auctionSummary(ctx: RequestContext): Promise<AuctionSummary> {
  const rows = await auctionTallies(ctx.scope);
  const count = (status: AuctionStatus) => rows.filter((row) => row.status === status).length;
  const registered = rows.reduce((sum, row) => sum + row.biddersRegistered, 0);
  return {
    total: rows.length,
    draft: count('Draft'),
    active: count('Active'),
    upcoming: count('Upcoming'),
    completed: count('Completed'),
    cancelled: count('Cancelled'),
    avgBidders: rows.length ? Math.round(registered / rows.length) : 0,
  };
}

/** How many auctions, of any status, a house runs or ran: they keep it from being deleted. */
export const countAuctionsByHouse = (ctx: Pick<RequestContext, 'scope'>, houseId: string) =>
  countHouseAuctions(ctx.scope, houseId);

/** The auctions service is ready when its store answers: the container exists and is readable. */
export async function auctionsReadiness(signal: AbortSignal): Promise<void> {
  await auctionsStore(signal);
}
