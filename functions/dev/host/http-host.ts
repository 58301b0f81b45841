import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Cookie,
  HttpRequestInit,
  HttpResponse as HttpResponseType,
  HttpResponseInit,
} from '@azure/functions';
import { HttpRequest, HttpResponse, InvocationContext } from './azure-functions.js';
import type { HttpFunction } from '../../src/platform/functions.js';
import { RouteTable } from '../../src/platform/route-template.js';
import { invocationLogHandler } from './invocation-log.js';

export interface HttpHostOptions {
  name: string;
  port: number;
  host?: string;
  functions: HttpFunction[];
  /** Origins allowed to call from a browser, as the Function App's CORS setting would. */
  allowedOrigins: string[];
}

export interface RunningHttpHost {
  url: string;
  server: Server;
  close(): Promise<void>;
}

// content-disposition: a download (an export, a statement) is saved under the service's name.
const exposedHeaders = [
  'x-correlation-id',
  'etag',
  'retry-after',
  'location',
  'allow',
  'content-disposition',
];

function corsHeaders(request: IncomingMessage, allowedOrigins: string[]): Record<string, string> {
  const origin = request.headers.origin;
  if (!origin || !allowedOrigins.includes(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': exposedHeaders.join(', '),
    vary: 'Origin',
  };
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // In Azure the front end appends the caller's address (with its port); so does the dev host.
  const address = request.socket.remoteAddress ?? 'unknown';
  const caller = `${address.includes(':') ? `[${address}]` : address}:${request.socket.remotePort ?? 0}`;
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${caller}`
    : caller;
  return headers;
}

/** The Functions host refuses request bodies over 100 MB before any function sees them. */
const MAX_REQUEST_BYTES = 100 * 1024 * 1024;

/**
 * The request body as the function reads it, chunk by chunk as it arrives (the app streams
 * request bodies, as `enableHttpStream` makes Functions do), failing past the host's limit when
 * no length was declared. Nothing is read until the function asks, so a body it never reads is
 * left for Node to drop.
 */
function bodyOf(request: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = request[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) {
          controller.close();
          return;
        }
        total += next.value.length;
        if (total > MAX_REQUEST_BYTES) {
          controller.error(new Error('The request body is larger than 100 MB'));
          return;
        }
        controller.enqueue(next.value);
      },
    },
    { highWaterMark: 0 },
  );
}

function serialiseCookie(cookie: Cookie): string {
  const parts = [`${cookie.name}=${encodeURIComponent(cookie.value)}`];
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (cookie.path) parts.push(`Path=${cookie.path}`);
  if (cookie.expires !== undefined) {
    parts.push(`Expires=${new Date(cookie.expires).toUTCString()}`);
  }
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${cookie.maxAge}`);
  if (cookie.secure) parts.push('Secure');
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.sameSite) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}

async function writeResponse(
  response: ServerResponse,
  result: HttpResponseInit | HttpResponseType,
  extraHeaders: Record<string, string>,
  method: string,
): Promise<void> {
  // Normalising through HttpResponse gives the same jsonBody and header handling as Functions.
  const normalised = result instanceof HttpResponse ? result : new HttpResponse(result);
  const body = Buffer.from(await normalised.arrayBuffer());
  response.statusCode = normalised.status;
  normalised.headers.forEach((value, name) => response.setHeader(name, value));
  for (const [name, value] of Object.entries(extraHeaders)) response.setHeader(name, value);
  if (normalised.cookies.length) {
    response.setHeader('set-cookie', normalised.cookies.map(serialiseCookie));
  }
  response.setHeader('content-length', body.length);
  response.end(method === 'HEAD' ? undefined : body);
}

/** Serves a route table the way the Functions host would, on one port. */
export async function startHttpHost(options: HttpHostOptions): Promise<RunningHttpHost> {
  const table = new RouteTable(options.functions);
  const hostName = options.host ?? 'localhost';

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = (request.method ?? 'GET').toUpperCase();
    const cors = corsHeaders(request, options.allowedOrigins);
    if (method === 'OPTIONS' && request.headers['access-control-request-method']) {
      response.writeHead(204, {
        ...cors,
        ...(cors['access-control-allow-origin']
          ? {
              'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD',
              'access-control-allow-headers':
                request.headers['access-control-request-headers'] ?? 'content-type',
              'access-control-max-age': '600',
            }
          : {}),
      });
      response.end();
      return;
    }

    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? hostName}`);
    const match = table
      .matchAll(url.pathname)
      .find((candidate) => candidate.entry.methods.includes(method as never));
    if (Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_BYTES) {
      response.writeHead(413, { ...cors, connection: 'close' });
      response.end();
      request.destroy();
      return;
    }
    if (!match) {
      // Only reachable when a table has no catch-all; Functions answers an empty 404 then.
      response.writeHead(404, cors);
      response.end();
      return;
    }

    const fn = match.entry;
    // As the Functions worker builds a streamed request: a fetch Request around the body.
    const nativeRequest = new Request(url.toString(), {
      method,
      headers: flattenHeaders(request),
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: bodyOf(request), duplex: 'half' }),
    });
    const httpRequest = new HttpRequest({
      nativeRequest,
      params: match.params,
    } as HttpRequestInit);
    const context = new InvocationContext({
      invocationId: randomUUID(),
      functionName: fn.name,
      logHandler: invocationLogHandler(fn.name),
      triggerMetadata: { request: { method, url: url.toString() } },
      options: {
        trigger: {
          type: 'httpTrigger',
          name: 'request',
          route: fn.route,
          methods: fn.methods,
          authLevel: 'anonymous',
        },
        return: { type: 'http', name: '$return' },
        extraInputs: [],
        extraOutputs: [],
      },
    });
    const result = await fn.handler(httpRequest, context);
    await writeResponse(response, result ?? { status: 204 }, cors, method);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // The platform wrapper answers every handled failure itself; this is the host's own fault.
      process.stderr.write(
        `${JSON.stringify({ level: 'error', message: 'dev host failure', host: options.name, error: String(error) })}\n`,
      );
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, hostName, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
