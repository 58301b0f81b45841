import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  auctionInputSchema,
  type Auction,
  type AuctionInput,
  type AuctionStatus,
} from '../auctions/auctions.schema.js';
import {
  createAuction,
  getAuction,
  listAuctions,
  syncPlatformAuction,
  toAuction,
} from '../auctions/auctions.service.js';
import { writeCatalogue } from '../auctions/lots/catalogue-import.service.js';
import { catalogueColumns } from '../auctions/lots/catalogue-rows.js';
import { lotInputSchema, type LotInput } from '../auctions/lots/lots.schema.js';
import { listLots } from '../auctions/lots/lots.service.js';
import { recordConflict } from '../conflicts/conflicts.service.js';
import type { ConflictField } from '../conflicts/conflicts.schema.js';
import { housesOf } from '../identity/accounts/accounts.service.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict } from '../platform/cosmos-errors.js';
import { AppError } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import type {
  PlatformAuction,
  PlatformConnector,
  PlatformLot,
  PushedAuction,
} from './connectors/connector.js';
import { lotwiseCategoryOf, lotwiseLotCategoryOf } from './connectors/index.js';
import {
  findLink,
  integrations,
  linkId,
  linksOfLocal,
  type ConnectionRecord,
  type LinkRecord,
} from './integrations.repo.js';
import type { SyncChange, SyncSettings } from './integrations.schema.js';

/** What writing platform records needs: who, from which platform, in which run. */
export interface RecordScope {
  ctx: RequestContext;
  connection: Pick<ConnectionRecord, 'platform' | 'auctionHouseId'>;
  runId: string;
}

/** What one sync step needs besides: the platform's connector and the house's rules. */
export interface SyncScope extends RecordScope {
  connector: PlatformConnector;
  settings: SyncSettings;
}

/** The fields of a Lotwise auction a platform's record sets; the rest stay the house's. */
const syncedFields = [
  'title',
  'type',
  'category',
  'description',
  'location',
  'startDate',
  'startTime',
  'endDate',
  'endTime',
  'timeZone',
  'buyersPremium',
  'currency',
] as const;
type SyncedField = (typeof syncedFields)[number];
type SyncedValues = Pick<AuctionInput, SyncedField> & { timeZone: string };

/** A platform's lot as a Lotwise lot; one the lot rules refuse is left out and named. */
function lotOf(scope: RecordScope, lot: PlatformLot): LotInput | { problem: string } {
  const parsed = lotInputSchema.safeParse({
    lotNumber: lot.lotNumber,
    title: lot.title.slice(0, 300),
    description: lot.description.slice(0, 10000),
    category: lotwiseLotCategoryOf(scope.connection.platform, lot.category),
    estimateLow: lot.estimateLow,
    estimateHigh: lot.estimateHigh,
    reserve: lot.reserve,
    consignor: lot.consignor ? { name: lot.consignor.slice(0, 200), contact: '' } : null,
    inventoryItemId: null,
  });
  if (parsed.success) return parsed.data;
  return {
    problem: `Lot ${lot.lotNumber}: ${parsed.error.issues
      .map((issue) => `${issue.path.join('.')} ${issue.message}`)
      .join('; ')}`,
  };
}

async function timeZoneFor(scope: SyncScope, auction: PlatformAuction) {
  if (auction.timeZone && DateTime.local().setZone(auction.timeZone).isValid)
    return auction.timeZone;
  const houses = await housesOf(scope.ctx.scope);
  return (
    houses.find((house) => house.id === scope.connection.auctionHouseId)?.timezone ??
    'America/New_York'
  );
}

/** The platform's auction in the house's terms: its wall-clock dates in the sale's time zone. */
async function valuesOf(scope: SyncScope, auction: PlatformAuction): Promise<SyncedValues> {
  const timeZone = await timeZoneFor(scope, auction);
  const start = DateTime.fromISO(auction.startsAt).setZone(timeZone);
  const end = DateTime.fromISO(auction.endsAt).setZone(timeZone);
  return {
    title: auction.title.slice(0, 200),
    type: auction.type ?? 'Online',
    category: lotwiseCategoryOf(scope.connection.platform, auction.category),
    description: auction.description.slice(0, 5000),
    location: (auction.location ?? '').slice(0, 200),
    startDate: start.toFormat('yyyy-MM-dd'),
    startTime: start.toFormat('HH:mm'),
    endDate: end.toFormat('yyyy-MM-dd'),
    endTime: end.toFormat('HH:mm'),
    timeZone,
    buyersPremium: Math.round((auction.buyersPremiumPercent ?? 0) * 100) / 100,
    currency: auction.currency,
  };
}

/** Where a platform's status puts the Lotwise auction (an upcoming sale as Settings › Sync says). */
function statusOf(auction: PlatformAuction, settings: SyncSettings): AuctionStatus {
  switch (auction.status) {
    case 'live':
      return 'Active';
    case 'closed':
      return 'Completed';
    case 'cancelled':
      return 'Cancelled';
    default:
      return settings.defaultImportStatus === 'upcoming' ? 'Upcoming' : 'Draft';
  }
}

/** The synced fields that differ between the Lotwise auction and the platform's. */
function differences(local: Auction, values: SyncedValues) {
  return syncedFields.filter((field) => local[field] !== values[field]);
}

const change = (
  platformAuction: Pick<PlatformAuction, 'externalId' | 'title'>,
  localId: string | null,
  action: SyncChange['action'],
  fields: string[] = [],
  message: string | null = null,
): SyncChange => ({
  entity: 'auction',
  externalId: platformAuction.externalId,
  localId,
  title: platformAuction.title,
  action,
  fields,
  message,
});

async function saveLink(scope: SyncScope, link: LinkRecord & { _etag?: string }) {
  const { _etag, ...document } = link as LinkRecord & { _etag?: string; _ts?: number };
  delete (document as { _ts?: number })._ts;
  await integrations.upsert(scope.ctx.scope, document);
}

/**
 * The link of a platform auction, made `pending` with a new local id when there is none: a second
 * importer racing this one finds the first one's link and carries on with its local id.
 */
async function linkFor(scope: SyncScope, externalId: string, localId: string = randomUUID()) {
  const { platform } = scope.connection;
  const existing = await findLink(scope.ctx.scope, platform, 'auction', externalId);
  if (existing) return existing;
  const link: LinkRecord = {
    id: linkId(platform, 'auction', externalId),
    kind: 'link',
    accountId: scope.ctx.scope.accountId,
    platform,
    entity: 'auction',
    externalId,
    localId,
    state: 'pending',
    platformUpdatedAt: null,
    localRevision: null,
    syncedAt: null,
  };
  try {
    return (await integrations.create(scope.ctx.scope, link)) as Stored<LinkRecord>;
  } catch (error) {
    if (!isConflict(error)) throw error;
    return (await findLink(scope.ctx.scope, platform, 'auction', externalId)) as Stored<LinkRecord>;
  }
}

/** A Lotwise auction the house typed itself, on the same day with the same title. */
async function twinOf(scope: SyncScope, values: SyncedValues) {
  const { auctions } = await listAuctions(scope.ctx, {
    search: values.title.slice(0, 100),
    platform: 'manual',
    startDate: values.startDate,
    endDate: values.startDate,
    page: 1,
    limit: 20,
    sortBy: 'startsAt',
    sortOrder: 'asc',
  });
  return auctions.find(
    (auction) =>
      auction.title.trim().toLowerCase() === values.title.trim().toLowerCase() &&
      auction.startDate === values.startDate,
  );
}

/** How Conflict Resolution names the synced fields. */
const fieldLabels: Record<SyncedField | 'status', string> = {
  title: 'Title',
  type: 'Type',
  category: 'Category',
  description: 'Description',
  location: 'Location',
  startDate: 'Start date',
  startTime: 'Start time',
  endDate: 'End date',
  endTime: 'End time',
  timeZone: 'Time zone',
  buyersPremium: "Buyer's premium",
  currency: 'Currency',
  status: 'Status',
};

/**
 * Keeps a platform change for a person to decide (Data Processing Center › Conflict Resolution):
 * the fields that differ, and the status the platform would move the auction to. Recorded once
 * per platform change, however often a sync meets it again.
 */
async function keepConflict(
  scope: SyncScope,
  platformAuction: PlatformAuction,
  conflictType: 'duplicate' | 'mismatch',
  local: Auction,
  values: SyncedValues,
  status: AuctionStatus | null,
) {
  const { platform } = scope.connection;
  const fields: ConflictField[] = differences(local, values).map((field) => ({
    field,
    label: fieldLabels[field],
    existing: local[field],
    imported: values[field],
  }));
  if (status !== null) {
    fields.push({
      field: 'status',
      label: fieldLabels.status,
      existing: local.status,
      imported: status,
    });
  }
  await recordConflict(scope.ctx, {
    key: `sync:${platform}:${platformAuction.externalId}:${platformAuction.updatedAt}`,
    subject: {
      type: 'auction',
      platform,
      externalId: platformAuction.externalId,
      localId: local.id,
      imported: { ...values, ...(status !== null ? { status } : {}) },
      platformUpdatedAt: platformAuction.updatedAt,
    },
    conflictType,
    source: {
      kind: 'sync',
      platform,
      runId: scope.runId,
      externalId: platformAuction.externalId,
    },
    uploadName: `${platform} sync`,
    matchScore: conflictType === 'duplicate' ? 100 : null,
    existingRecord: { ...local },
    importedRecord: { ...platformAuction, lots: platformAuction.lots.length },
    fields,
    guard: { existing: local.etag, imported: null },
  });
}

/** Writes the platform's lots into an open Lotwise auction, by lot number; names those refused. */
export async function writeLots(scope: RecordScope, auctionId: string, lots: PlatformLot[]) {
  const rows: { row: number; lot: LotInput }[] = [];
  const problems: string[] = [];
  lots.forEach((lot, index) => {
    const mapped = lotOf(scope, lot);
    if ('problem' in mapped) problems.push(mapped.problem);
    else rows.push({ row: index + 1, lot: mapped });
  });
  const written = await writeCatalogue(scope.ctx, auctionId, rows, new Set(catalogueColumns));
  for (const error of written.errors)
    problems.push(`Lot row ${error.row}: ${error.field} ${error.message}`);
  return { ...written, problems };
}

const isOpen = (status: AuctionStatus) => status !== 'Completed' && status !== 'Cancelled';

/** Makes the Lotwise auction of a linked-but-pending platform auction; safe to run again. */
async function createFrom(
  scope: SyncScope,
  link: LinkRecord,
  platformAuction: PlatformAuction,
  values: SyncedValues,
): Promise<SyncChange> {
  const now = new Date().toISOString();
  try {
    await createAuction(
      scope.ctx,
      {
        ...inputDefaults(),
        ...values,
        auctionHouseId: scope.connection.auctionHouseId,
      },
      { id: link.localId, platform: link.platform, externalId: link.externalId, syncedAt: now },
    );
  } catch (error) {
    // Made by an import cut short before its link was marked: carry on with it.
    if (!isConflict(error)) throw error;
  }
  const lots = await writeLots(scope, link.localId, platformAuction.lots);
  const status = statusOf(platformAuction, scope.settings);
  const saved = await syncPlatformAuction(
    scope.ctx,
    link.localId,
    {},
    status === 'Draft' ? null : status,
    now,
  );
  await saveLink(scope, {
    ...link,
    state: 'synced',
    platformUpdatedAt: platformAuction.updatedAt,
    localRevision: saved.revision,
    syncedAt: now,
  });
  return change(
    platformAuction,
    link.localId,
    'created',
    [],
    [`${lots.created.length} lots`, ...lots.problems].join('; '),
  );
}

/** The fields a platform does not set, as `POST /auctions` defaults them. */
const inputDefaults = () =>
  auctionInputSchema.parse({
    title: 'Defaults',
    category: 'art',
    startDate: '2030-01-01',
    startTime: '00:00',
    endDate: '2030-01-01',
    endTime: '00:00',
  });

/** How a change both sides made is settled, by the house's conflict policy. */
function platformWins(
  settings: SyncSettings,
  local: Auction,
  platformAuction: PlatformAuction,
): boolean | 'review' {
  switch (settings.conflictPolicy) {
    case 'prefer_platform':
      return true;
    case 'prefer_local':
      return false;
    case 'use_newest':
      return Date.parse(platformAuction.updatedAt) > Date.parse(local.updatedAt);
    default:
      return 'review';
  }
}

/**
 * Applies a platform auction to its Lotwise one. `force` pulls even when the platform says
 * nothing changed (the house asked for it).
 */
async function updateFrom(
  scope: SyncScope,
  link: Stored<LinkRecord>,
  platformAuction: PlatformAuction,
  values: SyncedValues,
  force: boolean,
): Promise<SyncChange> {
  let record: Awaited<ReturnType<typeof getAuction>>;
  try {
    record = await getAuction(scope.ctx, link.localId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      return change(
        platformAuction,
        link.localId,
        'skipped',
        [],
        'Deleted in Lotwise; not imported again',
      );
    }
    throw error;
  }
  const local = toAuction(record);
  const { revision } = record;
  const localEdited = link.localRevision !== null && revision > link.localRevision;
  const platformChanged =
    force ||
    link.platformUpdatedAt === null ||
    Date.parse(platformAuction.updatedAt) > Date.parse(link.platformUpdatedAt);
  const fields = differences(local, values);
  const status = scope.settings.autoUpdateStatus ? statusOf(platformAuction, scope.settings) : null;
  const moves = status !== null && status !== local.status && status !== 'Draft';
  const now = new Date().toISOString();
  const settled = async (localRevision: number) =>
    saveLink(scope, {
      ...link,
      state: 'synced',
      platformUpdatedAt: platformAuction.updatedAt,
      localRevision,
      syncedAt: now,
    });
  if (!platformChanged) return change(platformAuction, local.id, 'unchanged');
  if (localEdited && (fields.length > 0 || moves)) {
    const wins = platformWins(scope.settings, local, platformAuction);
    if (wins === 'review') {
      await keepConflict(scope, platformAuction, 'mismatch', local, values, moves ? status : null);
      return change(
        platformAuction,
        local.id,
        'conflict',
        fields,
        'Kept for review: both sides changed',
      );
    }
    if (!wins) {
      // The house's edits stand; the platform's change is seen, so it is not reported again.
      await settled(link.localRevision ?? revision);
      return change(
        platformAuction,
        local.id,
        'skipped',
        fields,
        'Lotwise edits kept (prefer local)',
      );
    }
  }
  const apply = Object.fromEntries(fields.map((field) => [field, values[field]]));
  let lotNote: string | null = null;
  if (isOpen(local.status)) {
    const lots = await writeLots(scope, local.id, platformAuction.lots);
    if (lots.created.length || lots.problems.length) {
      lotNote = [`${lots.created.length} new lots`, ...lots.problems].join('; ');
    }
  }
  const saved = await syncPlatformAuction(scope.ctx, local.id, apply, moves ? status : null, now);
  await settled(saved.revision);
  const changedFields = [...fields, ...(moves ? ['status'] : [])];
  return change(
    platformAuction,
    local.id,
    changedFields.length || lotNote ? 'updated' : 'unchanged',
    changedFields,
    lotNote,
  );
}

/**
 * Brings one platform auction into Lotwise: new ones imported (after the house's duplicate
 * handling), linked ones updated by its conflict policy. `summaryUpdatedAt` lets a sync pass over
 * what has not changed without fetching it.
 */
export async function applyPlatformAuction(
  scope: SyncScope,
  externalId: string,
  options: { summaryUpdatedAt?: string; title?: string; explicit: boolean; force?: boolean },
): Promise<SyncChange> {
  const { platform } = scope.connection;
  const known = await findLink(scope.ctx.scope, platform, 'auction', externalId);
  if (
    known?.state === 'synced' &&
    options.summaryUpdatedAt &&
    known.platformUpdatedAt &&
    Date.parse(options.summaryUpdatedAt) <= Date.parse(known.platformUpdatedAt) &&
    !options.force
  ) {
    return change({ externalId, title: options.title ?? externalId }, known.localId, 'unchanged');
  }
  if (!known && !options.explicit && !scope.settings.autoImport) {
    return change(
      { externalId, title: options.title ?? externalId },
      null,
      'skipped',
      [],
      'Auto import is off in Settings › Sync',
    );
  }
  const platformAuction = await scope.connector.fetchAuction(externalId);
  const values = await valuesOf(scope, platformAuction);
  if (known?.state === 'synced') {
    return updateFrom(scope, known, platformAuction, values, options.force ?? false);
  }
  if (!known) {
    const twin = await twinOf(scope, values);
    if (twin) {
      switch (scope.settings.duplicateHandling) {
        case 'skip':
          return change(
            platformAuction,
            twin.id,
            'skipped',
            [],
            `Looks like "${twin.title}" in Lotwise (skip duplicates)`,
          );
        case 'manual_review': {
          const local = toAuction(await getAuction(scope.ctx, twin.id));
          const status = scope.settings.autoUpdateStatus
            ? statusOf(platformAuction, scope.settings)
            : null;
          const moves = status !== null && status !== local.status && status !== 'Draft';
          await keepConflict(
            scope,
            platformAuction,
            'duplicate',
            local,
            values,
            moves ? status : null,
          );
          return change(
            platformAuction,
            twin.id,
            'conflict',
            [],
            `Looks like "${twin.title}" in Lotwise: kept for review`,
          );
        }
        case 'merge': {
          const current = await getAuction(scope.ctx, twin.id);
          const link = await linkFor(scope, externalId, twin.id);
          // The house's auction is linked as it is: both sides count as changed.
          const merged = { ...link, state: 'synced' as const, localRevision: current.revision - 1 };
          await saveLink(scope, merged);
          const stored = (await findLink(
            scope.ctx.scope,
            platform,
            'auction',
            externalId,
          )) as Stored<LinkRecord>;
          return updateFrom(scope, stored, platformAuction, values, true);
        }
        default:
          break;
      }
    }
  }
  const link = known ?? (await linkFor(scope, externalId));
  if (link.state === 'synced')
    return updateFrom(scope, link as Stored<LinkRecord>, platformAuction, values, true);
  return createFrom(scope, link, platformAuction, values);
}

/** The Lotwise auction as a platform takes it. */
async function pushedOf(scope: SyncScope, auctionId: string): Promise<PushedAuction> {
  const auction = toAuction(await getAuction(scope.ctx, auctionId));
  const lots = await listLots(scope.ctx, auctionId);
  return {
    title: auction.title,
    description: auction.description,
    type: auction.type,
    category: auction.category,
    currency: auction.currency,
    timeZone: auction.timeZone,
    startsAt: auction.startsAt,
    endsAt: auction.endsAt,
    buyersPremiumPercent: auction.buyersPremium,
    location: auction.location || null,
    lots: lots.map((lot) => ({
      lotNumber: lot.lotNumber,
      title: lot.title,
      description: lot.description,
      category: lot.category,
      estimateLow: lot.estimateLow,
      estimateHigh: lot.estimateHigh,
      reserve: lot.reserve,
      consignor: lot.consignor?.name ?? null,
    })),
  };
}

/** The link of a Lotwise auction to this platform, if it has one. */
export async function linkOfAuction(scope: SyncScope, auctionId: string) {
  const links = await linksOfLocal(scope.ctx.scope, 'auction', [auctionId]);
  return links.find((link) => link.platform === scope.connection.platform);
}

/** Sends the Lotwise auction to the platform (made there when it has no link yet). */
export async function pushAuction(scope: SyncScope, auctionId: string): Promise<SyncChange> {
  const pushed = await pushedOf(scope, auctionId);
  const link = await linkOfAuction(scope, auctionId);
  const answer = await scope.connector.pushAuction(pushed, link?.externalId ?? null);
  const revision = (await getAuction(scope.ctx, auctionId)).revision;
  const now = new Date().toISOString();
  const pushedLink: LinkRecord = {
    id: linkId(scope.connection.platform, 'auction', answer.externalId),
    kind: 'link',
    accountId: scope.ctx.scope.accountId,
    platform: scope.connection.platform,
    entity: 'auction',
    externalId: answer.externalId,
    localId: auctionId,
    state: 'synced',
    platformUpdatedAt: answer.updatedAt,
    localRevision: revision,
    syncedAt: now,
  };
  await integrations.upsert(scope.ctx.scope, pushedLink);
  return {
    entity: 'auction',
    externalId: answer.externalId,
    localId: auctionId,
    title: pushed.title,
    action: 'pushed',
    fields: [],
    message: `${pushed.lots.length} lots sent`,
  };
}

/**
 * Two-way: whichever side changed since the last sync is carried to the other; when both did,
 * the conflict policy decides (a pull applies it).
 */
export async function twoWay(scope: SyncScope, auctionId: string): Promise<SyncChange> {
  const link = await linkOfAuction(scope, auctionId);
  if (!link) return pushAuction(scope, auctionId);
  const revision = (await getAuction(scope.ctx, auctionId)).revision;
  const localEdited = link.localRevision === null || revision > link.localRevision;
  const platformAuction = await scope.connector.fetchAuction(link.externalId);
  const platformChanged =
    link.platformUpdatedAt === null ||
    Date.parse(platformAuction.updatedAt) > Date.parse(link.platformUpdatedAt);
  if (localEdited && !platformChanged) return pushAuction(scope, auctionId);
  if (!localEdited && !platformChanged) return change(platformAuction, auctionId, 'unchanged');
  const values = await valuesOf(scope, platformAuction);
  return updateFrom(scope, link, platformAuction, values, false);
}
