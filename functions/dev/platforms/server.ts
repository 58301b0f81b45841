import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Platform } from '../../src/auctions/auctions.schema.js';
import { platformUrlSettings } from '../../src/integrations/connectors/platform-urls.js';
import type { ApiContext, PlatformApi } from './apis/api.js';
import { auctionzip } from './apis/auctionzip.js';
import { bidsquare } from './apis/bidsquare.js';
import { bidwrangler } from './apis/bidwrangler.js';
import { invaluable } from './apis/invaluable.js';
import { liveauctioneers } from './apis/liveauctioneers.js';
import { proxybid } from './apis/proxybid.js';
import { controlRoutes } from './control.js';
import {
  SandboxInvalid,
  SandboxNotFound,
  findRoute,
  json,
  text,
  type SandboxReply,
  type SandboxRequest,
} from './http.js';
import { platformSlugs, SandboxStore } from './store.js';

/**
 * The local platform sandbox: one HTTP server standing in for every bidding platform, each under
 * its own path (`/proxybid/...`), with its own authentication, paging, field names, money, times
 * and errors, plus the control API under `/__sandbox/`. Data lives in memory and is seeded anew
 * at every start.
 */

const apis: Record<Platform, PlatformApi> = {
  ProxyBid: proxybid,
  BidWrangler: bidwrangler,
  Invaluable: invaluable,
  'Auction.zip': auctionzip,
  LiveAuctioneers: liveauctioneers,
  BidSquare: bidsquare,
};
const apiBySlug = new Map(
  Object.values(apis).map((api) => [platformSlugs[api.platform], api] as const),
);

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const CONTROL = '/__sandbox';

async function readRequest(request: IncomingMessage): Promise<SandboxRequest> {
  const origin = `http://${request.headers.host ?? 'localhost'}`;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new SandboxInvalid('the body is too large');
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  if (raw.trim() !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      throw new SandboxInvalid('the body is not JSON');
    }
  }
  return {
    method: request.method ?? 'GET',
    url: new URL(request.url ?? '/', origin),
    headers: request.headers,
    body,
    origin,
  };
}

function send(response: ServerResponse, reply: SandboxReply): void {
  if (response.destroyed) return;
  const raw =
    typeof reply.body === 'string' || Buffer.isBuffer(reply.body)
      ? reply.body
      : reply.body === undefined
        ? ''
        : JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    'content-type': reply.contentType ?? 'application/json; charset=utf-8',
    ...reply.headers,
  });
  response.end(raw);
}

/** What a platform answers with a fault on, or null to answer normally. */
async function faultReply(
  api: PlatformApi,
  context: ApiContext,
): Promise<SandboxReply | 'hold' | null> {
  const { faults } = context.account;
  if (faults.timeout) return 'hold';
  if (faults.slow) await sleep(faults.slow.delayMs);
  if (faults.expired_key) return api.answers.expired();
  if (faults.invalid_key) return api.answers.invalid();
  if (faults.fail_after && context.account.requestsSinceFaults > faults.fail_after.requests) {
    return api.answers.unavailable();
  }
  if (faults.server_error) return api.answers.serverError();
  if (faults.unavailable) return api.answers.unavailable();
  if (faults.rate_limited) return api.answers.rateLimited();
  if (faults.bad_payload === 'json') {
    return {
      status: 200,
      body: '{"data": [{"id": 1, "title": "Trunc',
      contentType: 'application/json',
    };
  }
  if (faults.bad_payload === 'shape') return json(200, { message: 'ok', items: 'none' });
  return null;
}

async function platformReply(
  store: SandboxStore,
  api: PlatformApi,
  request: SandboxRequest,
  path: string,
): Promise<SandboxReply | 'hold'> {
  const key = api.credential(request);
  const account = key === null ? undefined : store.get(key);
  if (!account || account.platform !== api.platform) return api.answers.invalid();
  account.requestsSinceFaults += 1;
  const slug = platformSlugs[api.platform];
  const context: ApiContext = { account, request, base: `${request.origin}/${slug}` };
  const fault = await faultReply(api, context);
  if (fault) return fault;
  const found = findRoute(api.routes, request.method, path);
  if (found === null) return api.answers.notFound(`route ${request.method} ${path}`);
  if (found === 'method')
    return api.answers.invalidRequest(`${request.method} is not allowed here`);
  try {
    return await found.route.handler(context, found.params);
  } catch (error) {
    if (error instanceof SandboxNotFound) return api.answers.notFound(error.message);
    if (error instanceof SandboxInvalid) return api.answers.invalidRequest(error.message);
    throw error;
  }
}

async function controlReply(store: SandboxStore, request: SandboxRequest, path: string) {
  if (path === '' || path === '/') {
    return json(200, {
      platforms: Object.fromEntries(
        Object.values(apis).map((api) => [
          api.platform,
          `${request.origin}/${platformSlugs[api.platform]}`,
        ]),
      ),
      accounts: `${request.origin}${CONTROL}/accounts`,
    });
  }
  const found = findRoute(controlRoutes, request.method, path);
  if (found === null) return json(404, { error: `no control route ${request.method} ${path}` });
  if (found === 'method') return json(405, { error: `${request.method} is not allowed here` });
  try {
    return await found.route.handler({ store, request }, found.params);
  } catch (error) {
    if (error instanceof SandboxNotFound) return json(404, { error: `No ${error.message}` });
    if (error instanceof SandboxInvalid) return json(400, { error: error.message });
    throw error;
  }
}

export interface PlatformSandbox {
  /** `http://localhost:<port>`; a platform's API is under `/<slug>`, the control API under `/__sandbox`. */
  url: string;
  store: SandboxStore;
  close(): Promise<void>;
}

/** Each platform's base URL under a sandbox, as the `PLATFORM_URL_*` settings hold them. */
export function platformUrls(url: string): Record<Platform, string> {
  return Object.fromEntries(
    Object.values(apis).map((api) => [api.platform, `${url}/${platformSlugs[api.platform]}`]),
  ) as Record<Platform, string>;
}

/** The `PLATFORM_URL_*` settings that point the services at a sandbox. */
export function sandboxSettings(url: string): Record<string, string> {
  const urls = platformUrls(url);
  return Object.fromEntries(
    Object.values(apis).map((api) => [platformUrlSettings[api.platform], urls[api.platform]]),
  );
}

export async function startPlatformSandbox(options: {
  port: number;
  host?: string;
}): Promise<PlatformSandbox> {
  const store = new SandboxStore();
  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    let request: SandboxRequest;
    try {
      request = await readRequest(incoming);
    } catch (error) {
      send(response, json(400, { error: error instanceof Error ? error.message : 'bad request' }));
      return;
    }
    const { pathname } = request.url;
    if (pathname === CONTROL || pathname.startsWith(`${CONTROL}/`)) {
      send(response, await controlReply(store, request, pathname.slice(CONTROL.length)));
      return;
    }
    const [, slug = '', ...rest] = pathname.split('/');
    const api = apiBySlug.get(slug);
    if (!api) {
      send(response, text(404, `No platform at /${slug}; see ${CONTROL}`));
      return;
    }
    const reply = await platformReply(store, api, request, `/${rest.join('/')}`);
    // A held request is never answered: the client's timeout ends it, or the sandbox closing.
    if (reply !== 'hold') send(response, reply);
  };
  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      process.stderr.write(
        `${JSON.stringify({ level: 'error', message: 'platform sandbox failure', error: String(error) })}\n`,
      );
      if (!response.headersSent) send(response, text(500, 'sandbox failure'));
      else response.end();
    });
  });
  const host = options.host ?? 'localhost';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Held and kept-alive connections would keep it open for ever.
        server.closeAllConnections();
      }),
  };
}
