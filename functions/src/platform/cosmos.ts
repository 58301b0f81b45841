import {
  CosmosClient,
  type CompositePath,
  type Container,
  type ContainerDefinition as SdkContainerDefinition,
  type Database,
} from '@azure/cosmos';
import { DefaultAzureCredential } from '@azure/identity';
import { settings } from './settings.js';

/** A container as a feature declares it; the bootstrap makes Cosmos match. */
export interface ContainerDefinition {
  id: string;
  /** `/accountId` for tenant data: every query then stays inside one partition. */
  partitionKey: string;
  /** Sorts the screens use; each inner array is one composite index. */
  compositeIndexes?: CompositePath[][];
  uniqueKeys?: string[][];
}

let client: CosmosClient | undefined;

export function cosmosClient(): CosmosClient {
  if (!client) {
    const config = settings();
    client = new CosmosClient({
      endpoint: config.COSMOS_ENDPOINT,
      ...(config.COSMOS_KEY
        ? { key: config.COSMOS_KEY }
        : { aadCredentials: new DefaultAzureCredential() }),
      connectionPolicy: {
        // The emulator serves one endpoint over http and advertises none it can be reached at.
        enableEndpointDiscovery: !config.COSMOS_EMULATOR,
        requestTimeout: 10_000,
      },
    });
  }
  return client;
}

export function database(): Database {
  return cosmosClient().database(settings().COSMOS_DATABASE);
}

export function container(id: string): Container {
  return database().container(id);
}

function toSdkDefinition(definition: ContainerDefinition): SdkContainerDefinition {
  return {
    id: definition.id,
    partitionKey: { paths: [definition.partitionKey] },
    indexingPolicy: {
      indexingMode: 'consistent',
      automatic: true,
      includedPaths: [{ path: '/*' }],
      excludedPaths: [{ path: '/"_etag"/?' }],
      compositeIndexes: definition.compositeIndexes ?? [],
    },
    ...(definition.uniqueKeys
      ? { uniqueKeyPolicy: { uniqueKeys: definition.uniqueKeys.map((paths) => ({ paths })) } }
      : {}),
  };
}

function sameIndexes(a: CompositePath[][] | undefined, b: CompositePath[][] | undefined): boolean {
  const normalise = (indexes: CompositePath[][] | undefined) =>
    JSON.stringify(
      (indexes ?? []).map((paths) =>
        paths.map((path) => ({ path: path.path, order: path.order ?? 'ascending' })),
      ),
    );
  return normalise(a) === normalise(b);
}

/**
 * Creates the database and containers when missing and brings composite indexes up to date.
 * Safe to run on every start.
 */
export async function bootstrapCosmos(definitions: ContainerDefinition[]): Promise<void> {
  const { database: db } = await cosmosClient().databases.createIfNotExists({
    id: settings().COSMOS_DATABASE,
  });
  for (const definition of definitions) {
    const wanted = toSdkDefinition(definition);
    const { container: created, resource } = await db.containers.createIfNotExists(wanted);
    if (!sameIndexes(resource?.indexingPolicy?.compositeIndexes, definition.compositeIndexes)) {
      await created.replace({ ...resource, ...wanted, id: definition.id });
    }
  }
}

/** Stops the shared client, for scripts and tests that start and stop the platform. */
export function disposeCosmos(): void {
  client?.dispose();
  client = undefined;
}
