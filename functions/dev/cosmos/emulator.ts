import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type { EmulatorAccount, EmulatorHandler, EmulatorRoute } from './emulator-types.js';
import { installPartitionIndex } from './partition-index.js';
import { AccountPersistence } from './persistence.js';
import { answeringQueryPlans } from './query-plan.js';

const require = createRequire(import.meta.url);

type AccountConstructor = new (host: string, port: number) => EmulatorAccount;

export interface CosmosEmulator {
  url: string;
  server: Server;
  /** Records replayed from disk at start. */
  restored: number;
  close(): Promise<void>;
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Transactional batches are all or nothing in Cosmos; the package applies them one operation at
 * a time. This remembers the items the batch names (and only those: a snapshot of the whole
 * partition would cost a scan per batch) and puts them back if any operation failed.
 */
function atomically(handler: EmulatorHandler): EmulatorHandler {
  return async (account, request, response, params) => {
    const raw = await readAll(request);
    let operations: unknown;
    try {
      operations = JSON.parse(raw.toString('utf8'));
    } catch {
      operations = null;
    }
    // The package reads the body itself, so it gets a replay of what was read here.
    const replay = Object.assign(Readable.from([raw]), {
      headers: request.headers,
      method: request.method,
      url: request.url,
    }) as unknown as IncomingMessage;
    const collection = account.database(params.dbId as string).collection(params.collId as string);
    const header = request.headers['x-ms-documentdb-partitionkey'];
    const partition = typeof header === 'string' ? (JSON.parse(header) as unknown[])[0] : undefined;
    const documents = collection.documents;
    const named = Array.isArray(operations)
      ? operations
          .map((operation) => {
            const entry = operation as { id?: unknown; resourceBody?: { id?: unknown } } | null;
            return entry?.id ?? entry?.resourceBody?.id;
          })
          .filter((id): id is string => typeof id === 'string')
      : [];
    const current = (id: string) => documents._item('/id', id, partition).read() ?? null;
    const before = new Map(named.map((id) => [id, collection.read() ? current(id) : null]));
    const rollBack = () => {
      for (const [id, previous] of before) {
        const now = current(id);
        if (now?._etag === previous?._etag) continue;
        if (now) documents.delete(id, partition);
        if (previous) documents._set(previous);
      }
    };
    let result: unknown;
    try {
      result = await handler(account, replay, response, params);
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
  const queryHandler = (
    require('@vercel/cosmosdb-server/lib/handler/query-documents.js') as { default: unknown }
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
        const run =
          handler === batchHandler
            ? atomically(handler)
            : handler === queryHandler
              ? answeringQueryPlans(handler)
              : handler;
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
  installPartitionIndex();
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
