import { inject, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, ApiKeyCreated } from '../../functions/src/api-keys/api-keys.schema.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  type Owner,
} from '../support/bidders.js';
import { call, database, demo, signedIn, type Session } from '../support/identity.js';

/**
 * The house's API keys: created by the owner with some of their permissions, shown once, stored
 * hashed; a key calls the domain routes under the same permission checks as a person, in its own
 * account only, until it is revoked.
 */

let owner: Owner;
let other: Owner;

beforeAll(async () => {
  [owner, other] = await Promise.all([freshOwner(), freshOwner()]);
});

const createKey = (token: string, body: unknown) =>
  domain<ApiKeyCreated>('POST', '/api-keys', { token, body });

async function keyWith(permissions: string[], name = 'ERP sync') {
  const reply = await createKey(owner.token, { name, permissions });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

const listKeys = async (token = owner.token) =>
  (await domain<{ keys: ApiKey[] }>('GET', '/api-keys', { token })).body.keys;

async function auditOf(accountId: string, entityId: string) {
  const { db, dispose } = await database();
  try {
    const { resources } = await db
      .container('audit')
      .items.query<{ action: string; actor: Record<string, unknown>; after?: unknown }>({
        query: 'SELECT * FROM c WHERE c.accountId = @accountId AND c.entity.id = @id',
        parameters: [
          { name: '@accountId', value: accountId },
          { name: '@id', value: entityId },
        ],
      })
      .fetchAll();
    return resources;
  } finally {
    dispose();
  }
}

describe('API keys', () => {
  it('calls the routes its permissions open, and no others', async () => {
    const bidder = await createBidder(owner.token);
    const key = await keyWith(['bidders:view']);
    expect(key.key).toMatch(/^lw_test_/);
    expect(key).toMatchObject({
      name: 'ERP sync',
      permissions: ['bidders:view'],
      prefix: 'lw_test_',
    });
    expect(key.key.endsWith(key.lastFour)).toBe(true);

    const listed = await domain<{ bidders: { id: string }[] }>('GET', '/listBidders', {
      token: key.key,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.bidders.map((item) => item.id)).toContain(bidder.id);

    const refused = await domain('POST', '/bidders', {
      token: key.key,
      body: { firstName: 'Ada', lastName: 'Key', email: 'ada.key@example.com' },
    });
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toContain('bidders:create');
  });

  it('sees its own account only: another tenant’s bidder is not found', async () => {
    const theirs = await createBidder(other.token);
    const key = await keyWith(['bidders:view']);
    const reply = await domain('GET', `/bidders/${theirs.id}`, { token: key.key });
    expect(reply.status).toBe(404);
    const mine = await createBidder(owner.token);
    expect((await domain('GET', `/bidders/${mine.id}`, { token: key.key })).status).toBe(200);
  });

  it('writes as the key, and the audit says so', async () => {
    const key = await keyWith(['bidders:view', 'bidders:create'], 'Website sign-ups');
    const created = await domain<{ id: string }>('POST', '/bidders', {
      token: key.key,
      body: {
        firstName: 'Grace',
        lastName: `Keyed${Date.now()}`,
        email: `grace-${Date.now()}@example.com`,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const entries = await auditOf(owner.accountId, created.body.id);
    expect(entries.find((entry) => entry.action === 'bidder.create')?.actor).toEqual({
      userId: null,
      kind: 'api_key',
      keyId: key.id,
      name: 'Website sign-ups (API key)',
    });
  });

  it('stops working the moment it is revoked, and the revocation is audited', async () => {
    const key = await keyWith(['bidders:view']);
    expect((await domain('GET', '/listBidders', { token: key.key })).status).toBe(200);
    const revoked = await domain<ApiKey>('DELETE', `/api-keys/${key.id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const after = await domain('GET', '/listBidders', { token: key.key });
    expect(after.status).toBe(401);
    expect(messageOf(after)).toBe('The API key has been revoked');
    const actions = (await auditOf(owner.accountId, key.id)).map((entry) => entry.action).sort();
    expect(actions).toEqual(['apiKey.create', 'apiKey.revoke']);
    for (const entry of await auditOf(owner.accountId, key.id)) {
      expect(JSON.stringify(entry)).not.toContain(key.key.slice(-48));
      expect(entry.after).not.toHaveProperty('hash');
    }
  });

  it('answers 401 for an unknown, altered or foreign-shaped key', async () => {
    const key = await keyWith(['bidders:view']);
    const altered = `${key.key.slice(0, -1)}${key.key.endsWith('0') ? '1' : '0'}`;
    const unknown = key.key.replace(`_${key.id}_`, '_0123456789abcdef_');
    const otherAccount = key.key.replace(owner.accountId, other.accountId);
    for (const token of [altered, unknown, otherAccount, 'lw_test_nothing', 'lw_live_x_y_z']) {
      const reply = await domain('GET', '/listBidders', { token });
      expect(reply.status, token).toBe(401);
    }
  });

  it('never reaches the auth app, nor routes for a signed-in person', async () => {
    const key = await keyWith(['bidders:view', 'users:view', 'system:settings']);
    for (const path of ['/users', '/accounts/current', '/me/sessions', '/users/me/profile']) {
      const reply = await call('GET', path, { token: key.key });
      expect(reply.status, path).toBe(401);
    }
    // `authenticated` routes serve a person (their notifications, their support tickets).
    const notifications = await domain('GET', '/notifications', { token: key.key });
    expect(notifications.status).toBe(401);
    expect(messageOf(notifications)).toMatch(/API keys are not accepted here/);
  });

  it('cannot be given a permission its creator cannot give, nor manage keys or webhooks', async () => {
    const keys = await createKey(owner.token, {
      name: 'Minting',
      permissions: ['bidders:view', 'system:api_keys'],
    });
    expect(keys.status).toBe(400);
    expect(fieldsOf(keys)).toEqual(['permissions.1']);
    // A webhook set up by a leaked key would keep sending the account's data after its revocation.
    const hooks = await createKey(owner.token, {
      name: 'Listening',
      permissions: ['system:webhooks', 'bidders:view'],
    });
    expect(hooks.status).toBe(400);
    expect(fieldsOf(hooks)).toEqual(['permissions.0']);
    const unknown = await createKey(owner.token, { name: 'Typo', permissions: ['bidders:fly'] });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['permissions.0']);
    const none = await createKey(owner.token, { name: 'Empty', permissions: [] });
    expect(fieldsOf(none)).toEqual(['permissions']);
    const nameless = await createKey(owner.token, { name: ' ', permissions: ['bidders:view'] });
    expect(fieldsOf(nameless)).toEqual(['name']);

    // A key is refused at the keys' and the webhooks' routes, whatever it holds.
    const broad = await keyWith(['bidders:view', 'system:settings']);
    for (const path of ['/api-keys', '/webhooks']) {
      const listed = await domain('GET', path, { token: broad.key });
      expect(listed.status).toBe(401);
    }
  });

  it('is managed by the owner only: admin and staff get 403', async () => {
    const staff = await signedIn(demo.staff);
    const adminLogin = await call<Session>('POST', '/login', {
      body: { email: demo.admin, password: 'Harborview!Demo2026' },
    });
    const harborview = adminLogin.body.accounts.find(
      (account) => account.accountName === 'Harborview Auctions',
    );
    const admin = await call<{ accessToken: string }>('POST', '/tokens/access', {
      token: adminLogin.body.sessionToken,
      body: { userId: adminLogin.body.user.id, accountId: harborview?.accountId },
    });
    for (const token of [staff.accessToken, admin.body.accessToken]) {
      const list = await domain('GET', '/api-keys', { token });
      expect(list.status).toBe(403);
      expect(messageOf(list)).toContain('system:api_keys');
      const create = await createKey(token, { name: 'Nope', permissions: ['bidders:view'] });
      expect(create.status).toBe(403);
      expect((await domain('DELETE', '/api-keys/0123456789abcdef', { token })).status).toBe(403);
    }
  });

  it('lists keys without ever showing one, with when each was last used', async () => {
    const key = await keyWith(['bidders:view'], 'Reporting');
    const before = (await listKeys()).find((listed) => listed.id === key.id);
    expect(before?.lastUsedAt).toBeNull();
    await domain('GET', '/listBidders', { token: key.key });
    const used = (await listKeys()).find((listed) => listed.id === key.id);
    expect(used?.lastUsedAt).not.toBeNull();
    // Used again within the minute: not written again.
    await domain('GET', '/listBidders', { token: key.key });
    const again = (await listKeys()).find((listed) => listed.id === key.id);
    expect(again?.lastUsedAt).toBe(used?.lastUsedAt);

    const reply = await domain('GET', '/api-keys', { token: owner.token });
    expect(reply.status).toBe(200);
    const text = JSON.stringify(reply.body);
    expect(text).not.toContain(key.key);
    expect(text).not.toContain(key.key.slice(-48, -4));
    expect(text).not.toContain('hash');
    expect(used).toMatchObject({
      name: 'Reporting',
      permissions: ['bidders:view'],
      lastFour: key.lastFour,
      createdBy: { name: expect.any(String) },
      revokedAt: null,
    });
  });

  it('keeps each account’s keys to itself', async () => {
    const key = await keyWith(['bidders:view']);
    expect((await listKeys(other.token)).map((listed) => listed.id)).not.toContain(key.id);
    const revoke = await domain('DELETE', `/api-keys/${key.id}`, { token: other.token });
    expect(revoke.status).toBe(404);
    expect(codeOf(revoke)).toBe('not_found');
    expect((await domain('GET', '/listBidders', { token: key.key })).status).toBe(200);
  });

  it('is described in the API description as a way to call the domain routes', async () => {
    const reply = await fetch(`${inject('domainUrl')}/openapi.json`);
    const document = (await reply.json()) as {
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    expect(document.paths['/listBidders']?.get?.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(document.paths['/api-keys']?.post?.security).toEqual([{ bearer: [] }]);
  });
});
