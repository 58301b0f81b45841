import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { EmulatorAccount, EmulatorRoute } from './emulator-types.js';
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
        body = ((await handler(account, request, response, params)) ?? {}) as Record<
          string,
          unknown
        >;
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
