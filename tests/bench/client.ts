import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { CosmosClient } from '@azure/cosmos';
import { GOOD_PASSWORD } from '../support/identity.js';
import type { TestStack } from '../support/test-stack.js';

/** What the stack-backed benchmarks share: an HTTP client, an account of their own, Cosmos. */

export const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface Reply {
  status: number;
  text: string;
  ms: number;
}

export function send(
  method: string,
  url: string,
  options: { token?: string; body?: Buffer | string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const started = performance.now();
  return new Promise<Reply>((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method,
        agent,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body === undefined
            ? {}
            : { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        response.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.end(options.body);
  });
}

export async function json<T>(
  method: string,
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const reply = await send(method, url, {
    ...(options.token ? { token: options.token } : {}),
    ...(options.body === undefined
      ? {}
      : {
          body: JSON.stringify(options.body),
          headers: { 'content-type': 'application/json', ...options.headers },
        }),
  });
  if (reply.status >= 300)
    throw new Error(`${method} ${url} answered ${reply.status}: ${reply.text}`);
  return JSON.parse(reply.text) as T;
}

/** A new account of its own (the owner holds every permission), and its access token. */
export async function newOwner(testStack: TestStack, label: string) {
  const email = `bench-${label}-${randomUUID().slice(0, 8)}@example.com`;
  const body = await json<{ accessToken?: string; account?: { id: string } }>(
    'POST',
    `${testStack.stack.authUrl}/signup`,
    {
      body: {
        firstName: 'Bench',
        lastName: 'Owner',
        email,
        password: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
        accountName: `Bench ${label}`,
        preferences: { termsAccepted: true, privacyPolicyAccepted: true },
      },
    },
  );
  if (!body.accessToken || !body.account) throw new Error('sign-up gave no token or account');
  return {
    email,
    accountId: body.account.id,
    /** A fresh access token (they last 15 minutes). */
    token: async () => {
      const session = await json<{ accessToken?: string }>(
        'POST',
        `${testStack.stack.authUrl}/login`,
        { body: { email, password: GOOD_PASSWORD } },
      );
      if (!session.accessToken) throw new Error('sign-in gave no access token');
      return session.accessToken;
    },
  };
}

export function cosmosFor(testStack: TestStack) {
  const client = new CosmosClient({
    endpoint: testStack.settings.COSMOS_ENDPOINT as string,
    key: testStack.settings.COSMOS_KEY as string,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  const database = client.database(testStack.settings.COSMOS_DATABASE as string);
  return {
    client,
    bidders: database.container('bidders'),
    auctions: database.container('auctions'),
  };
}

/** A multipart form of files in one field, as a browser sends it. */
export function multipart(files: { name: string; data: Buffer }[], field = 'files') {
  const boundary = `----lotwise-bench-${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${file.name}"\r\ncontent-type: text/csv\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type Owner = Awaited<ReturnType<typeof newOwner>>;
