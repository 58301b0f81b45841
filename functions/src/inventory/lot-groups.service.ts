import { getAuction } from '../auctions/auctions.service.js';
import type { LotInput } from '../auctions/lots/lots.schema.js';
import { createLot, deleteLot } from '../auctions/lots/lots.service.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isStale } from '../platform/cosmos-errors.js';
import { AppError, conflict, notFound } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import { inventorySettingsOf } from '../settings/settings.service.js';
import type { ItemRecord } from './inventory.repo.js';
import {
  auctionableStatuses,
  type AddGroupToAuction,
  type GroupLot,
  type InventoryItem,
  type LotGroup,
  type LotGroupItem,
  type LotGroupsResponse,
} from './inventory.schema.js';
import {
  historyEntry,
  lotCategories,
  lotNumberTaken,
  nextLotNumber,
  photoRuleProblem,
  salesOf,
  toItem,
  withHistory,
} from './inventory.service.js';
import {
  groupLotDescription,
  lotThreshold,
  proposeLotGroups,
  type GroupableItem,
} from './lot-groups.js';
import {
  auctionableItems,
  itemsByIds,
  lotGroupRecordId,
  writeGroup,
  type LotGroupRecord,
} from './lot-groups.repo.js';

/** How often a grouped write lost only to a background rescore is made again. */
const WRITE_ATTEMPTS = 5;

const plain = ({ _etag, _ts, ...record }: Stored<ItemRecord>): ItemRecord => record;

const groupable = (record: ItemRecord): GroupableItem => ({
  id: record.id,
  title: record.title,
  category: record.category,
  subcategory: record.subcategory,
  condition: record.condition,
  status: record.status,
  estimatedValue: record.estimatedValue,
  currency: record.currency,
  consignor: record.consignor,
  description: record.description,
});

function groupItemOf(record: Stored<ItemRecord>): LotGroupItem {
  const item = toItem(plain(record));
  return {
    id: item.id,
    title: item.title,
    category: item.category,
    subcategory: item.subcategory,
    condition: item.condition,
    status: item.status,
    estimatedValue: item.estimatedValue,
    currency: item.currency,
    consignor: item.consignor,
    photos: item.photos,
    etag: item.etag,
  };
}

const turnedOff = () =>
  conflict(
    'Optimal lot grouping is turned off in Settings › Inventory; turn it on to add items as one lot',
    { setting: 'optimalLotGrouping' },
  );

/**
 * The groups of Available or In Storage items worth selling as one lot (rule: lot-groups.ts),
 * leaving out items the photo rule would refuse at auction. `{ enabled: false, groups: [] }`
 * while Optimal lot grouping is off.
 */
export async function lotGroups(
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<LotGroupsResponse> {
  const settings = await inventorySettingsOf(ctx.scope);
  if (!settings.optimalLotGrouping) return { enabled: false, groups: [] };
  const [records, sales] = await Promise.all([auctionableItems(ctx.scope), salesOf(ctx, now)]);
  const fit = records.filter((record) => !photoRuleProblem(record, settings.photoRequirement));
  const needPhotos = records.filter(
    (record) =>
      photoRuleProblem(record, settings.photoRequirement) !== undefined &&
      record.estimatedValue.low < lotThreshold(record.category, record.currency, sales, now).amount,
  ).length;
  const byId = new Map(fit.map((record) => [record.id, record]));
  const groups = proposeLotGroups(fit.map(groupable), sales, now).map((proposal): LotGroup => ({
    id: proposal.id,
    category: proposal.category,
    subcategory: proposal.subcategory,
    currency: proposal.currency as LotGroup['currency'],
    consignor: proposal.consignor,
    title: proposal.title,
    threshold: proposal.threshold,
    estimate: proposal.estimate,
    items: proposal.itemIds.map((id) => groupItemOf(byId.get(id) as Stored<ItemRecord>)),
    reasons: proposal.reasons,
  }));
  return { enabled: true, groups, needPhotos };
}

const sameConsignor = (a: ItemRecord, b: ItemRecord) =>
  (a.consignor?.name.trim().toLowerCase() ?? '') === (b.consignor?.name.trim().toLowerCase() ?? '');

/** The items as named, each checked as Add to Auction checks one; the first refusal throws. */
async function checkedItems(
  ctx: RequestContext,
  input: AddGroupToAuction,
  photoRequirement: Parameters<typeof photoRuleProblem>[1],
): Promise<Stored<ItemRecord>[]> {
  const found = new Map(
    (await itemsByIds(ctx.scope, input.itemIds)).map((record) => [record.id, record]),
  );
  const records = input.itemIds.map((id) => found.get(id));
  if (records.some((record) => record === undefined)) {
    throw notFound('Inventory item not found');
  }
  const items = records as Stored<ItemRecord>[];
  for (const item of items) {
    if (!(auctionableStatuses as readonly string[]).includes(item.status)) {
      throw conflict(
        `Only Available or In Storage items can be added to an auction; "${item.title}" is ${item.status}`,
        { itemId: item.id },
      );
    }
    const problem = photoRuleProblem(item, photoRequirement);
    if (problem) {
      throw conflict(`"${item.title}": ${problem}`, { itemId: item.id, rule: photoRequirement });
    }
  }
  const lead = items[0] as Stored<ItemRecord>;
  const otherCurrency = items.find((item) => item.currency !== lead.currency);
  if (otherCurrency) {
    throw conflict(
      `One lot sells in one currency: "${lead.title}" is valued in ${lead.currency} and "${otherCurrency.title}" in ${otherCurrency.currency}`,
    );
  }
  const otherConsignor = items.find((item) => !sameConsignor(item, lead));
  if (otherConsignor) {
    const name = (item: ItemRecord) => item.consignor?.name ?? 'house stock';
    throw conflict(
      `One lot sells for one consignor: "${lead.title}" is ${name(lead)}'s and "${otherConsignor.title}" is ${name(otherConsignor)}'s`,
    );
  }
  return items;
}

/** Why a grouped write was refused, once an item changed since it was checked. */
async function changedItemProblem(ctx: RequestContext, checked: Stored<ItemRecord>[]) {
  const now = new Map(
    (
      await itemsByIds(
        ctx.scope,
        checked.map((item) => item.id),
      )
    ).map((record) => [record.id, record]),
  );
  for (const item of checked) {
    const current = now.get(item.id);
    if (!current) return notFound('Inventory item not found');
    if (current.revision === item.revision) continue;
    return current.status === 'In Auction'
      ? conflict(
          `"${current.title}" was just added to ${current.auction?.auctionTitle ?? 'an auction'}; reload and try again`,
          { itemId: current.id },
        )
      : conflict(`"${current.title}" was just changed; reload and try again`, {
          itemId: current.id,
        });
  }
  return undefined;
}

/**
 * Makes several items ONE lot of a Draft or Upcoming auction: every item must be Available or In
 * Storage, pass the photo rule, and share the auction's currency and one consignor. The lot is
 * made first; then one transactional batch marks every item In Auction (each over the version
 * checked) and records the group. If that batch is refused nothing of it is written and the lot
 * is deleted again, so of two such calls at once over the same item, one makes its lot.
 */
export async function addGroupToAuction(
  ctx: RequestContext,
  input: AddGroupToAuction,
  now: Date = new Date(),
): Promise<GroupLot> {
  const settings = await inventorySettingsOf(ctx.scope);
  if (!settings.optimalLotGrouping) throw turnedOff();
  const checked = await checkedItems(ctx, input, settings.photoRequirement);
  const lead = checked[0] as Stored<ItemRecord>;
  const auction = await getAuction(ctx, input.auctionId);
  if (auction.status !== 'Draft' && auction.status !== 'Upcoming') {
    throw conflict(
      `Items can be added only to a Draft or Upcoming auction; "${auction.title}" is ${auction.status}`,
    );
  }
  if (auction.currency !== lead.currency) {
    throw conflict(
      `These items are valued in ${lead.currency} and "${auction.title}" sells in ${auction.currency}`,
    );
  }
  const estimateLow = checked.reduce((sum, item) => sum + item.estimatedValue.low, 0);
  const estimateHigh = checked.reduce((sum, item) => sum + item.estimatedValue.high, 0);
  const lotInput = (lotNumber: string): LotInput => ({
    lotNumber,
    title: input.title,
    description: groupLotDescription(checked),
    category: checked.every((item) => item.category === lead.category)
      ? lotCategories[lead.category]
      : null,
    estimateLow,
    estimateHigh,
    reserve: null,
    consignor: lead.consignor,
    inventoryItemId: lead.id,
  });
  let lot: Awaited<ReturnType<typeof createLot>> | undefined;
  for (let attempt = 1; !lot; attempt += 1) {
    const lotNumber = input.lotNumber ?? (await nextLotNumber(ctx, auction.id));
    try {
      lot = await createLot(ctx, auction.id, lotInput(lotNumber));
    } catch (error) {
      // A number picked for the caller and taken meanwhile: pick again.
      if (input.lotNumber !== undefined || !lotNumberTaken(error) || attempt >= 5) throw error;
    }
  }
  const made = lot;
  const at = now.toISOString();
  const others = checked.length - 1;
  const message = `Added to ${auction.title} as lot ${lot.lotNumber}, grouped with ${others} other item${others === 1 ? '' : 's'}`;
  const group: Omit<LotGroupRecord, 'accountId'> = {
    id: lotGroupRecordId(lot.id),
    kind: 'lotGroup',
    lotId: lot.id,
    auctionId: auction.id,
    items: checked.map((item) => ({
      id: item.id,
      low: item.estimatedValue.low,
      high: item.estimatedValue.high,
    })),
    createdAt: at,
  };
  const marked = (current: Stored<ItemRecord>): ItemRecord => ({
    ...plain(current),
    status: 'In Auction',
    auction: {
      auctionId: auction.id,
      auctionTitle: auction.title,
      lotId: made.id,
      lotNumber: made.lotNumber,
      previousStatus: current.status as (typeof auctionableStatuses)[number],
      addedAt: at,
    },
    history: withHistory(current, historyEntry(ctx, 'added_to_auction', message, at)),
    revision: current.revision + 1,
    updatedAt: at,
  });
  let saved: Stored<ItemRecord>[] | undefined;
  let current = checked;
  try {
    for (let attempt = 1; !saved; attempt += 1) {
      try {
        saved = await writeGroup(
          ctx.scope,
          group,
          current.map((item) => ({ record: marked(item), etag: item._etag })),
        );
      } catch (error) {
        if (!isStale(error)) throw error;
        // Written over by someone: refused unless it was only a background rescore.
        const problem = await changedItemProblem(ctx, checked);
        if (problem) throw problem;
        if (attempt >= WRITE_ATTEMPTS) {
          throw conflict('These items kept changing while being added; try again');
        }
        const fresh = new Map(
          (await itemsByIds(ctx.scope, input.itemIds)).map((record) => [record.id, record]),
        );
        current = checked.map((item) => fresh.get(item.id) ?? item);
      }
    }
  } catch (error) {
    // Nothing half-written: the items were not touched, so only the lot goes again.
    await deleteLot(ctx, auction.id, lot.id).catch((failure: unknown) => {
      if (!(failure instanceof AppError && failure.code === 'not_found')) throw failure;
    });
    throw error;
  }
  const items: InventoryItem[] = saved.map((record) => toItem(plain(record)));
  for (const [index, item] of items.entries()) {
    const before = checked[index] as Stored<ItemRecord>;
    await writeAudit(ctx, {
      action: 'inventoryItem.addToAuction',
      entity: { type: 'inventoryItem', id: item.id },
      before: { status: before.status, auction: null },
      after: { status: item.status, auction: item.auction, groupedWith: input.itemIds },
    });
  }
  return {
    lot: {
      id: lot.id,
      auctionId: auction.id,
      auctionTitle: auction.title,
      lotNumber: lot.lotNumber,
      title: lot.title,
      estimateLow,
      estimateHigh,
    },
    items,
  };
}
