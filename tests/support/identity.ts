import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

/** A tiny client for the identity service in API tests. */

export const DEMO_PASSWORD = 'Harborview!Demo2026';
export const GOOD_PASSWORD = 'Quartz-Lantern-Orbit-42';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; base?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const response = await fetch(`${options.base ?? inject('authUrl')}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as T,
    headers: response.headers,
  };
}

/** The If-Match header for a change made against the version with this ETag. */
export const ifMatch = (etag: string | undefined) => ({ 'if-match': `"${etag ?? ''}"` });

export interface Session {
  status: string;
  accountSelection: 'selected' | 'pending' | 'none';
  sessionToken: string;
  refreshToken: string;
  accessToken?: string;
  /** Password sign-ins only: makes this client a known device of the person next time. */
  deviceToken?: string;
  user: { id: string; email: string; emailVerified: boolean; etag: string };
  accounts: { accountId: string; accountName: string; roles: string[] }[];
  account?: {
    id: string;
    etag: string;
    name: string;
    role: string;
    houses: { id: string; name: string; etag: string }[];
    subscription: { tier: string };
  };
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.com`;

export async function signup(overrides: Record<string, unknown> = {}): Promise<Reply<Session>> {
  return call<Session>('POST', '/signup', {
    body: {
      firstName: 'Test',
      lastName: 'Person',
      email: uniqueEmail(),
      password: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
      preferences: { termsAccepted: true, privacyPolicyAccepted: true },
      ...overrides,
    },
  });
}

export async function login(email: string, password: string, extra: Record<string, unknown> = {}) {
  return call<Session & { methods?: { id: string; type: string }[] }>('POST', '/login', {
    body: { email, password, ...extra },
  });
}

export async function signedIn(
  email: string,
  password = DEMO_PASSWORD,
): Promise<Session & { accessToken: string }> {
  const reply = await login(email, password);
  if (reply.status !== 200 || !reply.body.accessToken) {
    throw new Error(`sign-in as ${email} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body as Session & { accessToken: string };
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  kind: string;
  createdAt: string;
}

export async function outbox(to: string): Promise<OutboxMessage[]> {
  const reply = await call<{ messages: OutboxMessage[] }>(
    'GET',
    `/dev/outbox?to=${encodeURIComponent(to)}`,
  );
  return reply.body.messages;
}

/** The newest message of a kind to someone, waiting briefly for it to arrive. */
export async function latestMail(to: string, kind: string): Promise<OutboxMessage> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const found = (await outbox(to)).find((message) => message.kind === kind);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${kind} mail to ${to}`);
}

export function linkParam(message: OutboxMessage, name: string): string {
  const url = /https?:\/\/\S+/.exec(message.text)?.[0];
  const value = url ? new URL(url).searchParams.get(name) : null;
  if (!value) throw new Error(`no ${name} in ${message.text}`);
  return value;
}

export const demo = {
  owner: 'owner@harborview.demo',
  admin: 'admin@harborview.demo',
  staff: 'staff@harborview.demo',
  viewer: 'viewer@harborview.demo',
  lakesideOwner: 'owner@lakeside.demo',
};

/** Forgets every sign-in failure, so one test's throttling does not lock out the next. */
export async function clearThrottle(): Promise<void> {
  const { CosmosClient } = await import('@azure/cosmos');
  const settings = inject('settings');
  const client = new CosmosClient({
    endpoint: settings.COSMOS_ENDPOINT as string,
    key: settings.COSMOS_KEY as string,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  const container = client.database(settings.COSMOS_DATABASE as string).container('throttle');
  const { resources } = await container.items
    .query<{ id: string }>('SELECT c.id FROM c')
    .fetchAll();
  // A record may go meanwhile (a sign-in that succeeds clears its own): gone is as good.
  await Promise.all(
    resources.map((record) =>
      container
        .item(record.id, record.id)
        .delete()
        .catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== 404) throw error;
        }),
    ),
  );
  client.dispose();
}

/** Direct access to the test database, for the few facts no API exposes (such as expiry). */
export async function database() {
  const { CosmosClient } = await import('@azure/cosmos');
  const settings = inject('settings');
  const client = new CosmosClient({
    endpoint: settings.COSMOS_ENDPOINT as string,
    key: settings.COSMOS_KEY as string,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  return {
    db: client.database(settings.COSMOS_DATABASE as string),
    dispose: () => client.dispose(),
  };
}

/** Forgets the demos started from this machine, so a test has the full allowance of starts. */
export async function clearSandboxStarts(): Promise<void> {
  const { db, dispose } = await database();
  try {
    const starts = db.container('sandboxes');
    const { resources } = await starts.items
      .query<{ id: string }>("SELECT c.id FROM c WHERE c.type = 'starts'")
      .fetchAll();
    await Promise.all(resources.map(({ id }) => starts.item(id, id).delete()));
  } finally {
    dispose();
  }
}
