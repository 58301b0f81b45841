import { randomUUID } from 'node:crypto';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict, isStale } from '../../platform/cosmos-errors.js';
import { AppError, conflict, notFound, preconditionFailed } from '../../platform/errors.js';
import { MAX_BATCH_OPERATIONS, type BatchOperation, type Stored } from '../../platform/repo.js';
import { validationError } from '../../platform/validation.js';
import {
  auctionDocuments,
  lotNumberClaimId,
  lotsOf,
  registrationsOf,
  type AuctionDocument,
  type AuctionRecord,
  type LotNumberClaim,
  type LotRecord,
} from '../auctions.repo.js';
import { getAuction } from '../auctions.service.js';
import { afterSale, applyAuctionResults } from '../lifecycle.service.js';
import type {
  Lot,
  LotInput,
  LotResult,
  LotResultInput,
  LotUpdate,
  SaleChannel,
} from './lots.schema.js';

export function toLot(record: Stored<LotRecord>): Lot {
  return {
    id: record.id,
    auctionId: record.auctionId,
    lotNumber: record.lotNumber,
    position: record.position,
    title: record.title,
    description: record.description,
    category: record.category as Lot['category'],
    estimateLow: record.estimateLow,
    estimateHigh: record.estimateHigh,
    reserve: record.reserve,
    consignor: record.consignor,
    inventoryItemId: record.inventoryItemId,
    result: record.result && { ...record.result, channel: record.result.channel ?? null },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    etag: record._etag,
  };
}

/** The catalogue is fixed once the sale is over; results still take audited corrections. */
export function catalogueOpen(auction: AuctionRecord) {
  if (auction.status === 'Completed' || auction.status === 'Cancelled') {
    throw conflict(`The catalogue of a ${auction.status} auction cannot change`);
  }
}

export const claimOf = (
  auctionId: string,
  lotNumber: string,
  lotId: string,
): Omit<LotNumberClaim, 'accountId'> => ({
  id: lotNumberClaimId(auctionId, lotNumber),
  kind: 'lotNumber',
  auctionId,
  lotId,
});

const lotNumberTaken = (lotNumber: string) =>
  validationError([
    {
      location: 'body',
      field: 'lotNumber',
      message: `Lot ${lotNumber} is already in this auction`,
    },
  ]);

export async function listLots(ctx: Pick<RequestContext, 'scope'>, auctionId: string) {
  await getAuction(ctx, auctionId);
  return lotsOf(ctx.scope, auctionId);
}

export async function getLot(ctx: Pick<RequestContext, 'scope'>, auctionId: string, lotId: string) {
  const found = await auctionDocuments.find(ctx.scope, lotId);
  if (found?.kind !== 'lot' || found.auctionId !== auctionId) throw notFound('Lot not found');
  return found as Stored<LotRecord>;
}

/**
 * Sends a batch that also touches the auction under its document ETag, so lot writes to one
 * auction take turns (positions and counts stay exact); a turn lost to another writer is retried.
 */
async function withAuctionTurn<T>(
  ctx: RequestContext,
  auctionId: string,
  build: (auction: Stored<AuctionRecord>) => Promise<{
    operations: BatchOperation<AuctionDocument>[];
    result: (written: Stored<AuctionDocument>[]) => T;
  }>,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const auction = await getAuction(ctx, auctionId);
    const { operations, result } = await build(auction);
    try {
      return result(await auctionDocuments.batch(ctx.scope, operations));
    } catch (error) {
      if (!isStale(error) || attempt >= 8) throw error;
    }
  }
}

const nextPosition = async (ctx: Pick<RequestContext, 'scope'>, auctionId: string) => {
  const lots = await lotsOf(ctx.scope, auctionId);
  return lots.reduce((max, lot) => Math.max(max, lot.position), 0) + 1;
};

export async function createLot(ctx: RequestContext, auctionId: string, input: LotInput) {
  try {
    const created = await withAuctionTurn(ctx, auctionId, async (auction) => {
      catalogueOpen(auction);
      const now = new Date().toISOString();
      const lot: Omit<LotRecord, 'accountId'> = {
        id: randomUUID(),
        kind: 'lot',
        auctionId,
        ...input,
        position: await nextPosition(ctx, auctionId),
        result: null,
        createdAt: now,
        updatedAt: now,
      };
      return {
        operations: [
          { op: 'create', document: lot },
          { op: 'create', document: claimOf(auctionId, input.lotNumber, lot.id) },
          {
            op: 'patch',
            id: auctionId,
            operations: [{ op: 'incr', path: '/lotCount', value: 1 }],
            etag: auction._etag,
          },
        ],
        result: (written) => written[0] as Stored<LotRecord>,
      };
    });
    await writeAudit(ctx, {
      action: 'lot.create',
      entity: { type: 'lot', id: created.id },
      after: created,
    });
    return created;
  } catch (error) {
    if (isConflict(error)) throw lotNumberTaken(input.lotNumber);
    throw error;
  }
}

export async function updateLot(
  ctx: RequestContext,
  auctionId: string,
  lotId: string,
  ifMatch: string,
  update: LotUpdate,
) {
  const auction = await getAuction(ctx, auctionId);
  catalogueOpen(auction);
  const current = await getLot(ctx, auctionId, lotId);
  if (current._etag !== ifMatch) {
    throw preconditionFailed('Someone else changed this lot; reload it to see their changes');
  }
  const defined = Object.fromEntries(
    Object.entries(update).filter(([, value]) => value !== undefined),
  ) as Partial<LotRecord>;
  const next = { ...current, ...defined, updatedAt: new Date().toISOString() };
  if (
    next.estimateLow != null &&
    next.estimateHigh != null &&
    next.estimateLow > next.estimateHigh
  ) {
    throw validationError([
      { location: 'body', field: 'estimateHigh', message: 'is below the low estimate' },
    ]);
  }
  const { _etag, _ts, ...document } = next;
  const renumbered =
    update.lotNumber !== undefined &&
    lotNumberClaimId(auctionId, update.lotNumber) !==
      lotNumberClaimId(auctionId, current.lotNumber);
  const operations: BatchOperation<AuctionDocument>[] = [
    { op: 'replace', document, etag: ifMatch },
    ...(renumbered
      ? ([
          { op: 'delete', id: lotNumberClaimId(auctionId, current.lotNumber) },
          { op: 'create', document: claimOf(auctionId, next.lotNumber, lotId) },
        ] satisfies BatchOperation<AuctionDocument>[])
      : []),
  ];
  try {
    const [saved] = (await auctionDocuments.batch(ctx.scope, operations)) as Stored<LotRecord>[];
    await writeAudit(ctx, {
      action: 'lot.update',
      entity: { type: 'lot', id: lotId },
      before: current,
      after: saved,
    });
    return saved as Stored<LotRecord>;
  } catch (error) {
    if (isStale(error)) {
      throw preconditionFailed('Someone else changed this lot; reload it to see their changes');
    }
    if (isConflict(error)) throw lotNumberTaken(next.lotNumber);
    throw error;
  }
}

export async function deleteLot(ctx: RequestContext, auctionId: string, lotId: string) {
  const lot = await getLot(ctx, auctionId, lotId);
  if (lot.result) throw conflict(`Lot ${lot.lotNumber} has a recorded result and stays`);
  await withAuctionTurn(ctx, auctionId, async (auction) => {
    catalogueOpen(auction);
    return {
      operations: [
        { op: 'delete', id: lotId, etag: lot._etag },
        { op: 'delete', id: lotNumberClaimId(auctionId, lot.lotNumber) },
        {
          op: 'patch',
          id: auctionId,
          operations: [{ op: 'incr', path: '/lotCount', value: -1 }],
          etag: auction._etag,
        },
      ],
      result: () => undefined,
    };
  });
  await writeAudit(ctx, { action: 'lot.delete', entity: { type: 'lot', id: lotId }, before: lot });
}

/** The fields an upload may overwrite, and so what undoing it puts back. */
const restorable = [
  'title',
  'description',
  'category',
  'estimateLow',
  'estimateHigh',
  'reserve',
  'consignor',
] as const satisfies readonly (keyof LotRecord)[];
export type RestorableLot = Pick<LotRecord, 'id' | 'updatedAt' | (typeof restorable)[number]>;

/**
 * Puts a lot's fields back as `before` had them (an upload undone), with the time it was last
 * changed then, so undoing an earlier upload still sees it as that one left it. A lot changed
 * after `since`, or in a catalogue closed since, is kept as it is.
 */
export async function restoreLot(
  ctx: RequestContext,
  auctionId: string,
  before: RestorableLot,
  since: string,
): Promise<'restored' | 'kept' | 'gone'> {
  for (let attempt = 0; ; attempt += 1) {
    let current: Stored<LotRecord>;
    try {
      current = await getLot(ctx, auctionId, before.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return 'gone';
      throw error;
    }
    const auction = await getAuction(ctx, auctionId);
    if (current.updatedAt > since || current.result) return 'kept';
    if (auction.status === 'Completed' || auction.status === 'Cancelled') return 'kept';
    const edited = restorable.filter(
      (field) => JSON.stringify(before[field]) !== JSON.stringify(current[field]),
    );
    if (edited.length === 0) return 'restored';
    const { _etag, _ts, ...document } = current;
    const next: Omit<LotRecord, 'accountId'> = {
      ...document,
      ...Object.fromEntries(edited.map((field) => [field, before[field]])),
      updatedAt: before.updatedAt,
    };
    try {
      const saved = await auctionDocuments.replace(ctx.scope, next as LotRecord, _etag);
      await writeAudit(ctx, {
        action: 'lot.restore',
        entity: { type: 'lot', id: before.id },
        before: current,
        after: saved,
      });
      return 'restored';
    } catch (error) {
      if (!isStale(error) || attempt >= 4) throw error;
    }
  }
}

/** Puts the lots in the order given; every lot of the auction must be named once. */
export async function reorderLots(ctx: RequestContext, auctionId: string, lotIds: string[]) {
  const auction = await getAuction(ctx, auctionId);
  catalogueOpen(auction);
  const lots = await lotsOf(ctx.scope, auctionId);
  const known = new Set(lots.map((lot) => lot.id));
  if (
    new Set(lotIds).size !== lotIds.length ||
    lotIds.length !== lots.length ||
    !lotIds.every((id) => known.has(id))
  ) {
    throw validationError([
      { location: 'body', field: 'lotIds', message: 'must name every lot of the auction once' },
    ]);
  }
  const moves = lotIds.flatMap((id, index) => {
    const lot = lots.find((candidate) => candidate.id === id);
    return lot && lot.position !== index + 1
      ? [
          {
            op: 'patch' as const,
            id,
            operations: [{ op: 'set' as const, path: '/position', value: index + 1 }],
          },
        ]
      : [];
  });
  for (let start = 0; start < moves.length; start += MAX_BATCH_OPERATIONS) {
    await auctionDocuments.writeBatch(ctx.scope, moves.slice(start, start + MAX_BATCH_OPERATIONS));
  }
  await writeAudit(ctx, {
    action: 'lot.reorder',
    entity: { type: 'auction', id: auctionId },
    before: lots.map((lot) => lot.id),
    after: lotIds,
  });
  return lotsOf(ctx.scope, auctionId);
}

/** Who bought, by bidder id or paddle: an approved registration when the auction needs one. */
async function buyerOf(
  ctx: RequestContext,
  auction: AuctionRecord,
  input: Extract<LotResultInput, { outcome: 'sold' }>,
) {
  if (!input.bidderId && !input.paddle) {
    throw validationError([
      { location: 'body', field: 'paddle', message: 'Name the buyer by paddle or bidder' },
    ]);
  }
  const registrations = await registrationsOf(ctx.scope, auction.id);
  const registration = registrations.find((candidate) =>
    input.bidderId ? candidate.bidderId === input.bidderId : candidate.paddle === input.paddle,
  );
  if (!registration || registration.status !== 'approved') {
    throw validationError([
      {
        location: 'body',
        field: input.bidderId ? 'bidderId' : 'paddle',
        message: input.bidderId
          ? 'is not an approved bidder of this auction'
          : `No approved bidder holds paddle ${input.paddle}`,
      },
    ]);
  }
  if (registration.bidLimit !== null && input.hammer > registration.bidLimit) {
    throw conflict(
      `${registration.bidderName}'s bid limit is below this hammer; raise the limit first`,
      { bidLimit: registration.bidLimit, bidderId: registration.bidderId },
    );
  }
  return registration;
}

/** Where a sold lot was won: as the clerk says, else as the kind of sale implies. */
function channelOf(
  auction: AuctionRecord,
  input: Extract<LotResultInput, { outcome: 'sold' }>,
): SaleChannel {
  const online = auction.type === 'Online' || auction.importedFrom !== null;
  if (input.channel === 'room' && auction.type === 'Online') {
    throw validationError([
      { location: 'body', field: 'channel', message: 'An Online auction has no saleroom' },
    ]);
  }
  return input.channel ?? (online ? 'online' : 'room');
}

/**
 * Clerks a lot: sold (hammer and buyer) or passed. While the auction is live this is the sale's
 * record; a correction (a lot clerked before, or any change after closing) needs a reason and is
 * audited with what it replaced.
 */
export async function recordResult(
  ctx: RequestContext,
  auctionId: string,
  lotId: string,
  input: LotResultInput,
) {
  const auction = await getAuction(ctx, auctionId);
  if (auction.status !== 'Active' && auction.status !== 'Completed') {
    throw conflict(`Results are recorded while the auction is Active, not ${auction.status}`);
  }
  const lot = await getLot(ctx, auctionId, lotId);
  const correcting = lot.result !== null || auction.status === 'Completed';
  if (correcting && !input.reason) {
    throw validationError([
      { location: 'body', field: 'reason', message: 'Say why the recorded result is changed' },
    ]);
  }
  const buyer = input.outcome === 'sold' ? await buyerOf(ctx, auction, input) : null;
  if (input.underbidders.length) {
    const approved = new Set(
      (await registrationsOf(ctx.scope, auctionId))
        .filter((row) => row.status === 'approved')
        .map((row) => row.bidderId),
    );
    const strangers = input.underbidders.filter((id) => !approved.has(id));
    if (strangers.length) {
      throw validationError([
        {
          location: 'body',
          field: 'underbidders',
          message: `${strangers.join(', ')} ${strangers.length === 1 ? 'is' : 'are'} not an approved bidder of this auction`,
        },
      ]);
    }
  }
  const result: LotResult = {
    outcome: input.outcome,
    hammer: input.outcome === 'sold' ? input.hammer : null,
    channel: input.outcome === 'sold' ? channelOf(auction, input) : null,
    buyerId: buyer?.bidderId ?? null,
    buyerBidderId: buyer?.bidderNumber ?? null,
    buyerName: buyer?.bidderName ?? null,
    paddle: buyer?.paddle ?? null,
    bidCount: input.bidCount ?? (input.outcome === 'sold' ? 1 : 0),
    underbidders: input.underbidders.filter((id) => id !== buyer?.bidderId),
    recordedAt: new Date().toISOString(),
    recordedBy: ctx.actor.name,
  };
  const { _etag, _ts, ...document } = lot;
  let saved: Stored<LotRecord>;
  try {
    saved = (await auctionDocuments.replace(
      ctx.scope,
      { ...document, result, updatedAt: result.recordedAt },
      _etag,
    )) as Stored<LotRecord>;
  } catch (error) {
    if (isStale(error)) {
      throw preconditionFailed('Someone else clerked this lot meanwhile; reload to see it');
    }
    throw error;
  }
  await writeAudit(ctx, {
    action: correcting ? 'lot.result.correct' : 'lot.result',
    entity: { type: 'lot', id: lotId },
    before: { result: lot.result, reason: input.reason ?? null },
    after: { result },
  });
  if (auction.status === 'Completed') {
    const touched = [
      lot.result?.buyerId,
      ...(lot.result?.underbidders ?? []),
      result.buyerId,
      ...result.underbidders,
    ].filter((id): id is string => Boolean(id));
    await applyAuctionResults(
      ctx,
      auction,
      [...new Set(touched)],
      `Result corrected: ${auction.title}, lot ${lot.lotNumber}`,
    );
    await afterSale(ctx, auction, await lotsOf(ctx.scope, auctionId));
  }
  return saved;
}

/** A clerked lot of a Completed auction, as the inventory's suggestions learn from it. */
export interface ClosedLotResult {
  title: string;
  category: string | null;
  inventoryItemId: string | null;
  estimateLow: number | null;
  estimateHigh: number | null;
  outcome: 'sold' | 'passed';
  hammer: number | null;
  currency: string;
  /** When its auction closed: its scheduled end, or its close when that came first. */
  closedAt: string;
}

/** Read-only: the clerked lots of the account's auctions Completed since `since` (ISO). */
export async function closedLotResults(
  ctx: Pick<RequestContext, 'scope'>,
  since: string,
): Promise<ClosedLotResult[]> {
  const auctions = (await auctionDocuments.all(ctx.scope, {
    select: 'c.id, c.currency, c.closedAt, c.endsAt',
    where: "c.kind = 'auction' AND c.status = 'Completed'",
  })) as unknown as { id: string; currency: string; closedAt: string | null; endsAt: string }[];
  const recent = new Map(
    auctions
      .map((auction) => {
        // A sale closed days after its end still sold on its day.
        const at =
          auction.closedAt && auction.closedAt < auction.endsAt ? auction.closedAt : auction.endsAt;
        return [auction.id, { ...auction, at }] as const;
      })
      .filter(([, auction]) => auction.at >= since),
  );
  if (recent.size === 0) return [];
  const lots = (await auctionDocuments.all(ctx.scope, {
    select:
      'c.auctionId, c.title, c.category, c.inventoryItemId, c.estimateLow, c.estimateHigh, c.result',
    where: "c.kind = 'lot' AND ARRAY_CONTAINS(@auctionIds, c.auctionId)",
    parameters: [{ name: '@auctionIds', value: [...recent.keys()] }],
  })) as unknown as Pick<
    LotRecord,
    | 'auctionId'
    | 'title'
    | 'category'
    | 'inventoryItemId'
    | 'estimateLow'
    | 'estimateHigh'
    | 'result'
  >[];
  return lots.flatMap((lot) => {
    const auction = recent.get(lot.auctionId);
    if (!auction || !lot.result) return [];
    return [
      {
        title: lot.title,
        category: lot.category,
        inventoryItemId: lot.inventoryItemId ?? null,
        estimateLow: lot.estimateLow,
        estimateHigh: lot.estimateHigh,
        outcome: lot.result.outcome,
        hammer: lot.result.hammer,
        currency: auction.currency,
        closedAt: auction.at,
      },
    ];
  });
}
