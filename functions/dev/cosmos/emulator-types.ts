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

export interface EmulatorItems {
  _data: Map<string, EmulatorItem>;
  _ridCount: number;
  _set(data: ItemData): ItemData;
  delete(idOrRid: string, partition: unknown): void;
  _item(keyPath: string, value: string, partition: unknown): EmulatorItem;
  _getPartition(data: ItemData): unknown;
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
