import { createRequire } from 'node:module';
import type {
  EmulatorItems,
  ItemData,
  QueryBody,
  QueryOptions,
  QueryResult,
} from './emulator-types.js';
import { partitionFromHeader, partitionFromQuery } from './partition-target.js';

const require = createRequire(import.meta.url);

interface DocumentsPrototype {
  _set(this: EmulatorItems, data: ItemData): ItemData;
  delete(this: EmulatorItems, idOrRid: string, partition: unknown): void;
  query(this: EmulatorItems, params: QueryBody, options: QueryOptions): QueryResult | null;
}

interface CompiledQuery {
  exec(documents: ItemData[], options: Record<string, unknown>): QueryResult;
}

/** Partition key value -> the partition's documents by `_rid`, in the order `_data` has them. */
type PartitionIndex = Map<unknown, Map<string, ItemData>>;

const indexes = new WeakMap<EmulatorItems, PartitionIndex>();

function add(index: PartitionIndex, partition: unknown, data: ItemData): void {
  let documents = index.get(partition);
  if (!documents) {
    documents = new Map();
    index.set(partition, documents);
  }
  documents.set(data._rid, data);
}

function remove(index: PartitionIndex, partition: unknown, rid: string): void {
  const documents = index.get(partition);
  if (!documents) return;
  documents.delete(rid);
  if (documents.size === 0) index.delete(partition);
}

function indexOf(items: EmulatorItems): PartitionIndex {
  let index = indexes.get(items);
  if (!index) {
    index = new Map();
    for (const item of items._data.values()) {
      const data = item.read();
      if (data) add(index, items._getPartition(data), data);
    }
    indexes.set(items, index);
  }
  return index;
}

let installed = false;

/**
 * Makes the emulator's documents honour the partition key, as Cosmos does. The package keeps one
 * map of a container's documents and runs every query over all of them; this keeps them also by
 * partition, and a query confined to one partition (by the request's partition key, or by an
 * equality on the key path in its WHERE) runs over that partition only. Point reads by id and
 * partition key already go through the package's own index.
 */
export function installPartitionIndex(): void {
  if (installed) return;
  installed = true;
  const Documents = (
    require('@vercel/cosmosdb-server/lib/account/documents.js') as {
      default: { prototype: DocumentsPrototype };
    }
  ).default;
  const own = Documents.prototype;
  // Looked up on every call, so wrappers installed on the base class later (persistence) still run.
  const base = Object.getPrototypeOf(own) as DocumentsPrototype;

  own._set = function set(data) {
    const index = indexOf(this);
    const previous = this._data.get(data._rid)?.read();
    const stored = base._set.call(this, data);
    if (previous) remove(index, this._getPartition(previous), previous._rid);
    add(index, this._getPartition(stored), stored);
    return stored;
  };

  own.delete = function deleteItem(idOrRid, partition) {
    const index = indexOf(this);
    const existing = this._item('/id', idOrRid, partition).read();
    base.delete.call(this, idOrRid, partition);
    if (existing) remove(index, this._getPartition(existing), existing._rid);
  };

  own.query = function query(params, options) {
    const parent = this._parent.read();
    if (!parent) return null;
    const compiled = this._getQuery(params.query);
    const parameters = params.parameters ?? [];
    let target = partitionFromHeader(options.partitionKey);
    if (!target.found) {
      target = partitionFromQuery(compiled.ast, parameters, this._getPartitionKeyPath());
    }
    const documents = target.found
      ? [...(indexOf(this).get(target.value)?.values() ?? [])]
      : [...this._data.values()].map((item) => item.read() as ItemData);
    const indexingPolicy = parent.indexingPolicy as
      { compositeIndexes?: unknown[][] | null } | undefined;
    try {
      return (compiled as unknown as CompiledQuery).exec(documents, {
        parameters,
        udf: this._userDefinedFunctions(),
        maxItemCount: options.maxItemCount,
        continuation: options.continuation,
        compositeIndexes: indexingPolicy?.compositeIndexes ?? [],
      });
    } catch (error) {
      // The package's handler answers 400 for errors so marked, as its own query() does.
      Object.assign(error as object, { badRequest: true });
      throw error;
    }
  };
}
