import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type {
  EmulatorAccount,
  EmulatorHandler,
  EmulatorRoute,
  ItemData,
} from './emulator-types.js';
import { AccountPersistence } from './persistence.js';

const require = createRequire(import.meta.url);

type AccountConstructor = new (host: string, port: number) => EmulatorAccount;

export interface CosmosEmulator {
  url: string;
  server: Server;
  /** Records replayed from disk at start. */
  restored: number;
  close(): Promise<void>;
}

/**
 * Transactional batches are all or nothing in Cosmos; the package applies them one operation at
 * a time. This remembers the batch's partition before it runs and puts it back if any operation
 * failed.
 */
function atomically(handler: EmulatorHandler): EmulatorHandler {
  return async (account, request, response, params) => {
    const collection = account.database(params.dbId as string).collection(params.collId as string);
    const header = request.headers['x-ms-documentdb-partitionkey'];
    const partition = typeof header === 'string' ? (JSON.parse(header) as unknown[])[0] : undefined;
    const documents = collection.documents;
    const inPartition = () =>
      new Map(
        [...documents._data.values()]
          .map((item) => item.read())
          .filter(
            (data): data is ItemData =>
              Boolean(data) && documents._getPartition(data as ItemData) === partition,
          )
          .map((data) => [data._rid, data]),
      );
    const before = collection.read() ? inPartition() : new Map<string, ItemData>();
    const rollBack = () => {
      for (const [rid, data] of inPartition()) {
        if (!before.has(rid)) documents.delete(rid, partition);
        else if (before.get(rid)?._etag !== data._etag) documents._set(before.get(rid) as ItemData);
      }
      for (const [rid, data] of before) {
        if (!documents._data.has(rid)) documents._set(data);
      }
    };
    let result: unknown;
    try {
      result = await handler(account, request, response, params);
    } catch (error) {
      rollBack();
      throw error;
    }
    if (
      Array.isArray(result) &&
      result.some((entry) => (entry as { statusCode: number }).statusCode >= 400)
    ) {
      rollBack();
    }
    return result;
  };
}

/**
 * @vercel/cosmosdb-server over http with its account kept on disk. The package's own server keeps
 * the account private and in memory only, so this serves the package's routes with an account it
 * can persist, answering as the package does.
 */
export async function startCosmosEmulator(options: {
  port: number;
  host?: string;
  dataDir: string;
}): Promise<CosmosEmulator> {
  const routes = (require('@vercel/cosmosdb-server/lib/routes.js') as { default: EmulatorRoute })
    .default;
  const batchHandler = (
    require('@vercel/cosmosdb-server/lib/handler/batch-documents.js') as { default: unknown }
  ).default;
  const Account = (
    require('@vercel/cosmosdb-server/lib/account/index.js') as { default: AccountConstructor }
  ).default;

  const host = options.host ?? 'localhost';
  // The account needs the bound port, so it is served only once the server listens and the data
  // on disk is loaded.
  const state: { account?: EmulatorAccount } = {};

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const route = routes(request);
    const { account } = state;
    let body: Record<string, unknown>;
    if (!account) {
      response.statusCode = 503;
      body = { message: 'The emulator is still loading its data' };
    } else if (!route) {
      response.statusCode = 400;
      body = { message: 'no route' };
    } else {
      const [params, handler] = route;
      try {
        const run = handler === batchHandler ? atomically(handler) : handler;
        body = ((await run(account, request, response, params)) ?? {}) as Record<string, unknown>;
      } catch (error) {
        response.statusCode = 500;
        body = { message: error instanceof Error ? error.message : String(error) };
      }
      if (response.statusCode > 399 && !body.message) body.message = '';
    }
    if (typeof body._etag === 'string') response.setHeader('etag', body._etag);
    response.setHeader('content-type', 'application/json');
    response.setHeader('content-location', `http://${request.headers.host}${request.url}`);
    response.setHeader('x-ms-activity-id', randomUUID());
    response.setHeader('x-ms-request-charge', '1');
    if (request.headers['a-im'] && response.statusCode === 200) {
      if (request.headers['if-none-match']) response.statusCode = 304;
      response.setHeader('etag', '1');
    }
    response.end(JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.statusCode = 500;
      response.end('');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const account = new Account(host, port);
  const persistence = new AccountPersistence(account, options.dataDir);
  persistence.install();
  const restored = await persistence.load();
  state.account = account;

  return {
    url: `http://localhost:${port}`,
    server,
    restored,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await persistence.close();
    },
  };
}
