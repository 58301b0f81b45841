import type { IncomingMessage, ServerResponse } from 'node:http';

/** The parts of @vercel/cosmosdb-server's in-memory account the dev tooling touches. */
export interface ItemData {
  id: string;
  _rid: string;
  _self: string;
  [key: string]: unknown;
}

export interface EmulatorItem {
  read(): ItemData | null | undefined;
}

/** A query compiled by @zeit/cosmosdb-query. */
export interface EngineQuery {
  ast: unknown;
  /** The query as the source of a JavaScript function over the documents. */
  code: string;
}

export interface QueryBody {
  query: string;
  parameters?: { name: string; value: unknown }[];
}

export interface QueryOptions {
  maxItemCount: number | null;
  continuation: unknown;
  /** The `x-ms-documentdb-partitionkey` header, passed on by our patch of the query handler. */
  partitionKey?: string | string[];
}

export interface QueryResult {
  result: unknown[];
  continuation: unknown;
}

export interface EmulatorItems {
  _parent: EmulatorItem;
  _data: Map<string, EmulatorItem>;
  _ridCount: number;
  _set(data: ItemData): ItemData;
  delete(idOrRid: string, partition: unknown): void;
  query(params: QueryBody, options: QueryOptions): QueryResult | null;
  _item(keyPath: string, value: string, partition: unknown): EmulatorItem;
  _getPartition(data: ItemData): unknown;
  _getPartitionKeyPath(): string[];
  _getQuery(sql: string): EngineQuery;
  _userDefinedFunctions(): Record<string, unknown> | null;
}

export interface EmulatorCollection extends EmulatorItem {
  documents: EmulatorItems;
}

export interface EmulatorDatabase extends EmulatorItem {
  collections: EmulatorItems;
  collection(idOrRid: string): EmulatorCollection;
}

export interface EmulatorAccount extends EmulatorItem {
  databases: EmulatorItems;
  database(idOrRid: string): EmulatorDatabase;
}

export type EmulatorRoute = (
  request: IncomingMessage,
) => [Record<string, string>, EmulatorHandler] | null | undefined;

export type EmulatorHandler = (
  account: EmulatorAccount,
  request: IncomingMessage,
  response: ServerResponse,
  params: Record<string, string>,
) => unknown;
