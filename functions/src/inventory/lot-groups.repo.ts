import { isNotFound } from '../platform/cosmos-errors.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import { auctionableStatuses } from './inventory.schema.js';
import { inventoryContainer, type ItemRecord } from './inventory.repo.js';

/**
 * Which items a grouped lot sells: one document per grouped lot, beside the items in the
 * inventory container (same partition), written in the same transactional batch that marks the
 * items In Auction. It outlives the items' auction links (a pass clears them), so a result
 * corrected after the sale still finds every item of the lot, with the estimates its hammer is
 * shared by.
 */
export interface LotGroupRecord {
  id: string;
  accountId: string;
  kind: 'lotGroup';
  lotId: string;
  auctionId: string;
  /** In catalogue order; the first is the lot's `inventoryItemId`. */
  items: { id: string; low: number; high: number }[];
  createdAt: string;
}

type InventoryDocument = ItemRecord | LotGroupRecord;

const documents = new TenantRepository<InventoryDocument>(inventoryContainer.id);

export const lotGroupRecordId = (lotId: string) => `lotgroup-${lotId}`;

/** The items that could go to auction, with everything grouping and the photo rule read. */
export async function auctionableItems(scope: AccountScope): Promise<Stored<ItemRecord>[]> {
  return (await documents.all(scope, {
    where: "c.kind = 'item' AND ARRAY_CONTAINS(@statuses, c.status)",
    parameters: [{ name: '@statuses', value: [...auctionableStatuses] }],
  })) as Stored<ItemRecord>[];
}

/** The named items of the account (others' ids simply do not match). */
export async function itemsByIds(scope: AccountScope, ids: string[]) {
  if (ids.length === 0) return [];
  return (await documents.all(scope, {
    where: "c.kind = 'item' AND ARRAY_CONTAINS(@ids, c.id)",
    parameters: [{ name: '@ids', value: ids }],
  })) as Stored<ItemRecord>[];
}

/**
 * Writes the group and every item as changed, each item only over the version read (`etag`): all
 * or none. A refused write throws with its status (412 when an item changed meanwhile).
 */
export async function writeGroup(
  scope: AccountScope,
  group: Omit<LotGroupRecord, 'accountId'>,
  items: { record: ItemRecord; etag: string }[],
): Promise<Stored<ItemRecord>[]> {
  const written = await documents.batch(scope, [
    { op: 'create', document: group },
    ...items.map(({ record, etag }) => ({ op: 'replace' as const, document: record, etag })),
  ]);
  return written.slice(1) as Stored<ItemRecord>[];
}

/** The grouped lots among these lots, by lot id (a lot of one item has none). */
export async function lotGroupsOf(
  scope: AccountScope,
  lotIds: string[],
): Promise<Map<string, LotGroupRecord>> {
  if (lotIds.length === 0) return new Map();
  const rows = (await documents.all(scope, {
    where: "c.kind = 'lotGroup' AND ARRAY_CONTAINS(@lotIds, c.lotId)",
    parameters: [{ name: '@lotIds', value: lotIds }],
  })) as Stored<LotGroupRecord>[];
  return new Map(rows.map(({ _etag, _ts, ...row }) => [row.lotId, row]));
}

/** Forgets a grouped lot once the lot itself is gone; one already gone counts as removed. */
export async function deleteLotGroup(scope: AccountScope, lotId: string): Promise<void> {
  await documents.delete(scope, lotGroupRecordId(lotId)).catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  });
}
