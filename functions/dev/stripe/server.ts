import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import qs from 'qs';
import { Context, expand } from './context.js';
import { controlRoutes } from './control.js';
import { Params, StripeError, findRoute, jsonReply, type HttpReply, type Route } from './http.js';
import { invoicePage } from './invoice-page.js';
import { catalogueRoutes } from './resources/catalogue.js';
import { customerRoutes } from './resources/customers.js';
import { eventRoutes } from './resources/events.js';
import { intentRoutes } from './resources/intents.js';
import { invoiceRoutes } from './resources/invoices.js';
import { meterRoutes } from './resources/meters.js';
import { paymentMethodRoutes } from './resources/payment-methods.js';
import { subscriptionRoutes } from './resources/subscriptions.js';
import { StripeStore } from './store.js';
import { cardFrame, stripeJs } from './stripe-js.js';
import { WebhookDispatcher, defaultRetryDelaysMs, type WebhookTarget } from './webhooks.js';

/**
 * The local Stripe: a stateful, Stripe-compatible HTTP server the real `stripe` SDK talks to
 * unchanged (`new Stripe(key, { host, port, protocol: 'http' })`), plus a Stripe.js stand-in for
 * browsers, webhooks to the domain service, and a control API under `/__stripe/`.
 */

export interface LocalStripeOptions {
  port: number;
  host?: string;
  /** Where the state is kept across restarts (`{dataDir}/stripe`); memory only without. */
  dataDir?: string;
  secretKey?: string;
  publishableKey?: string;
  /** The endpoint configured like a dashboard one: the domain service's `/billing/webhook`. */
  webhook?: { url: string; secret: string };
  /** Waits between webhook tries (1 s, 5 s, 30 s, 30 s by default). */
  retryDelaysMs?: number[];
}

export interface LocalStripe {
  /** `http://localhost:<port>` */
  url: string;
  store: StripeStore;
  webhooks: WebhookDispatcher;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key, Stripe-Version',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
};

function send(response: ServerResponse, reply: HttpReply): void {
  if (response.destroyed) return;
  response.writeHead(reply.status, {
    'content-type': reply.contentType,
    'request-id': `req_${Math.random().toString(36).slice(2, 16)}`,
    ...reply.headers,
  });
  response.end(reply.body);
}

const errorReply = (error: StripeError): HttpReply =>
  jsonReply(error.status, { error: { ...error.body, ...error.extra } });

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw StripeError.invalid('The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const parse = (text: string) =>
  qs.parse(text, { arrayLimit: 100, depth: 10, parameterLimit: 10_000 }) as Record<string, unknown>;

/** Which key the request carries, as Stripe reads it: a Bearer header, else the `key` field. */
function credential(request: IncomingMessage, params: Params): string | null {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer) return bearer;
  const basic = /^Basic\s+(\S+)$/i.exec(header)?.[1];
  if (basic) return Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? null;
  return params.string('key') ?? null;
}

const unauthorized = (key: string | null) =>
  jsonReply(401, {
    error: {
      type: 'invalid_request_error',
      message: key
        ? `Invalid API Key provided: ${key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    },
  });

export async function startLocalStripe(options: LocalStripeOptions): Promise<LocalStripe> {
  const secretKey = options.secretKey ?? 'sk_test_lotwise_local';
  const publishableKey = options.publishableKey ?? 'pk_test_lotwise_local';
  const store = new StripeStore(options.dataDir ? join(options.dataDir, 'stripe') : null);
  const webhooks = new WebhookDispatcher(options.retryDelaysMs ?? defaultRetryDelaysMs);
  const routes: Route<Context>[] = [
    ...customerRoutes,
    ...catalogueRoutes,
    ...meterRoutes,
    ...paymentMethodRoutes,
    ...intentRoutes,
    ...subscriptionRoutes,
    ...invoiceRoutes,
    ...eventRoutes,
  ];
  const control = controlRoutes(webhooks);

  const targets = (): WebhookTarget[] => [
    ...(options.webhook ? [{ ...options.webhook, events: ['*'] }] : []),
    ...Object.values(store.state.webhook_endpoints)
      .filter((endpoint) => endpoint.status === 'enabled' && endpoint.secret)
      .map((endpoint) => ({
        url: endpoint.url,
        secret: endpoint.secret as string,
        events: endpoint.enabled_events,
      })),
  ];

  /** Runs a handler as one transaction: a thrown error undoes its changes unless it says keep. */
  function run(route: Route<Context>, path: Record<string, string>, context: Context): HttpReply {
    const snapshot = store.snapshot();
    try {
      const result = route.handler(context, path);
      store.save();
      return jsonReply(200, expand(store, result, context.params.strings('expand')));
    } catch (error) {
      if (!(error instanceof StripeError)) {
        store.restore(snapshot);
        throw error;
      }
      if (error.keep) store.save();
      else {
        store.restore(snapshot);
        context.events.length = 0;
      }
      return errorReply(error);
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const origin = `http://${request.headers.host ?? 'localhost'}`;
    const url = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (method === 'OPTIONS') {
      send(response, { status: 204, body: '', contentType: 'text/plain', headers: cors });
      return;
    }
    if (method === 'GET' && (path === '/v3' || path === '/v3/stripe.js')) {
      send(response, {
        status: 200,
        body: stripeJs(origin),
        contentType: 'application/javascript; charset=utf-8',
        headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-cache' },
      });
      return;
    }
    if (method === 'GET' && path === '/elements/card') {
      // Framed by the app's pages on any localhost origin; never cached so changes show at once.
      send(response, {
        status: 200,
        body: cardFrame(),
        contentType: 'text/html; charset=utf-8',
        headers: {
          'cache-control': 'no-cache',
          'content-security-policy':
            'frame-ancestors http://localhost:* http://127.0.0.1:* https://localhost:*',
        },
      });
      return;
    }
    const invoiceId = /^\/i\/(in_[A-Za-z0-9]+)$/.exec(path)?.[1];
    if (method === 'GET' && invoiceId) {
      const invoice = store.state.invoices[invoiceId];
      send(
        response,
        invoice
          ? { status: 200, body: invoicePage(invoice), contentType: 'text/html; charset=utf-8' }
          : { status: 404, body: 'No such invoice', contentType: 'text/plain' },
      );
      return;
    }

    const raw = await readBody(request);
    const params = new Params(
      parse(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : raw),
    );
    const isControl = path === '/__stripe' || path.startsWith('/__stripe/');
    const found = findRoute(isControl ? control : routes, method, path);
    const headers = path.startsWith('/v1/') ? cors : {};
    if (!found) {
      send(response, {
        ...jsonReply(404, {
          error: {
            type: 'invalid_request_error',
            message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
          },
        }),
        headers,
      });
      return;
    }
    let auth: 'secret' | 'publishable' = 'secret';
    if (!isControl) {
      const key = credential(request, params);
      if (key === publishableKey && found.route.publishable) auth = 'publishable';
      else if (key !== secretKey) {
        send(response, { ...unauthorized(key), headers });
        return;
      }
    }
    const idempotencyKey =
      method === 'POST'
        ? ((request.headers['idempotency-key'] as string | undefined) ?? null)
        : null;
    const fingerprint = createHash('sha256').update(`${method} ${path} ${raw}`).digest('hex');
    const replay = idempotencyKey ? store.state.idempotency[idempotencyKey] : undefined;
    if (replay) {
      if (replay.fingerprint !== fingerprint) {
        send(response, {
          ...jsonReply(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          }),
          headers,
        });
        return;
      }
      send(response, {
        ...jsonReply(replay.status, replay.body),
        headers: { ...headers, 'idempotent-replayed': 'true' },
      });
      return;
    }
    const context = new Context(store, params, request.headers, origin, auth, idempotencyKey);
    const reply = run(found.route, found.path, context);
    if (idempotencyKey && reply.status !== 500) {
      store.state.idempotency[idempotencyKey] = {
        fingerprint,
        status: reply.status,
        body: JSON.parse(String(reply.body)),
      };
      store.save();
    }
    send(response, { ...reply, headers });
    // After the answer, as Stripe: webhooks never hold up the API call that caused them.
    if (context.events.length) webhooks.enqueue(context.events, targets());
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof StripeError) {
        send(response, errorReply(error));
        return;
      }
      process.stderr.write(
        `${JSON.stringify({ level: 'error', message: 'local stripe failure', error: String(error instanceof Error ? error.stack : error) })}\n`,
      );
      if (!response.headersSent)
        send(
          response,
          jsonReply(500, { error: { type: 'api_error', message: 'An unknown error occurred' } }),
        );
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? 'localhost', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    store,
    webhooks,
    close: () =>
      new Promise<void>((resolve) => {
        webhooks.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
