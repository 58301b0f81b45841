import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  ifMatch,
  latestMail,
  linkParam,
  signup,
  uniqueEmail,
  type Reply,
} from '../support/identity.js';

/**
 * Every identity PUT changes a record against the version the caller read: without If-Match it
 * answers 428, with a stale ETag 412 and nothing changes, and of two writers who read the same
 * version exactly one wins.
 */

type Body = Record<string, unknown> & { etag?: string };

interface EditCase {
  name: string;
  /** The record as a screen reads it: its ETag and the value the edits change. */
  read(): Promise<{ etag: string; value: unknown }>;
  /** Edit number `n` sets the value to `expected(n)`. */
  write(n: number, headers: Record<string, string>): Promise<Reply<Body>>;
  expected(n: number): unknown;
}

let token = '';
let accountId = '';
let houseId = '';
let groupId = '';
let memberId = '';
let methodId = '';

const get = (path: string) => call<Body>('GET', path, { token });
const put = (path: string, body: unknown, headers: Record<string, string>) =>
  call<Body>('PUT', path, { token, headers, body });
const role = (n: number) => (n % 2 ? 'staff' : 'viewer');

beforeAll(async () => {
  const owner = await signup({ accountName: 'Concurrency Rooms' });
  token = owner.body.accessToken as string;
  accountId = owner.body.account?.id as string;
  const house = await call<Body>('POST', '/accounts/current/auction-houses', {
    token,
    body: { name: 'Annex', businessName: 'Annex LLC', city: 'Salem' },
  });
  houseId = house.body.id as string;
  const group = await call<Body>('POST', '/auction-house-groups', {
    token,
    body: { name: 'North', houseIds: [houseId] },
  });
  groupId = group.body.id as string;
  const email = uniqueEmail('member');
  await call('POST', '/auction-house/invite', {
    token,
    body: { email, role: 'viewer', auctionHouseIds: [houseId] },
  });
  const joined = await signup({
    email,
    invitationCode: linkParam(await latestMail(email, 'invitation'), 'invitation'),
  });
  memberId = joined.body.user.id;
  const setup = await call<{ methodId: string; secret: string }>('POST', '/security/2fa/setup', {
    token,
    body: { type: 'authenticator', name: 'Phone' },
  });
  methodId = setup.body.methodId;
  const verified = await call('POST', '/mfa/verify', {
    token,
    body: { methodId, code: await generate({ secret: setup.body.secret }) },
  });
  expect(verified.status).toBe(200);
});

const policy = (n: number) => ({
  required: false,
  requiredForRoles: ['owner', 'admin'],
  gracePeriodDays: 10 + n,
  enforceBackupCodes: true,
});
const settings = (n: number) => ({
  sessionIdleMinutes: 60 + n,
  sessionMaxDays: 14,
  requireVerifiedEmail: false,
  loginNotifications: false,
  allowedEmailDomains: [],
});

/** Reads a single record, whose ETag also comes as the header. */
async function single(path: string, value: (body: Body) => unknown) {
  const reply = await get(path);
  expect(reply.headers.get('etag')).toBe(`"${reply.body.etag}"`);
  return { etag: reply.body.etag as string, value: value(reply.body) };
}

/** Reads one row of a list, which carries its ETag as a field. */
async function row(path: string, list: string, id: string, value: (body: Body) => unknown) {
  const reply = await get(path);
  const found = (reply.body[list] as Body[]).find((entry) => entry.id === id) as Body;
  return { etag: found.etag as string, value: value(found) };
}

const cases: EditCase[] = [
  {
    name: 'accounts-update (PUT /accounts/{id})',
    read: () => single(`/accounts/${accountId}`, (body) => body.name),
    write: (n, headers) => put(`/accounts/${accountId}`, { name: `Rooms ${n}` }, headers),
    expected: (n) => `Rooms ${n}`,
  },
  {
    name: 'users-me-profile-update (PUT /users/me/profile)',
    read: () => single('/users/me/profile', (body) => body.firstName),
    write: (n, headers) => put('/users/me/profile', { firstName: `Grace ${n}` }, headers),
    expected: (n) => `Grace ${n}`,
  },
  {
    name: 'houses-update (PUT /auction-houses/{id})',
    read: () => row('/accounts/current/auction-houses', 'houses', houseId, (body) => body.name),
    write: (n, headers) => put(`/auction-houses/${houseId}`, { name: `Annex ${n}` }, headers),
    expected: (n) => `Annex ${n}`,
  },
  {
    name: 'groups-update (PUT /auction-house-groups/{id})',
    read: () => row('/auction-house-groups', 'groups', groupId, (body) => body.description),
    write: (n, headers) =>
      put(`/auction-house-groups/${groupId}`, { description: `Around ${n}` }, headers),
    expected: (n) => `Around ${n}`,
  },
  {
    name: 'team-role (PUT /auction-house/users/{id}/role)',
    read: () => single(`/users/${memberId}`, (body) => body.accountRole),
    write: (n, headers) => put(`/auction-house/users/${memberId}/role`, { role: role(n) }, headers),
    expected: role,
  },
  {
    name: 'users-update (PUT /users/{id})',
    read: () => single(`/users/${memberId}`, (body) => body.name),
    write: (n, headers) => put(`/users/${memberId}`, { name: `Member ${n}` }, headers),
    expected: (n) => `Member ${n}`,
  },
  {
    name: 'user-house-access-update (PUT /users/{id}/auction-house-access)',
    read: () =>
      single(`/users/${memberId}`, (body) =>
        (body.auctionHouseAccess as { role: string }[]).map((grant) => grant.role).join(),
      ),
    write: (n, headers) =>
      put(
        `/users/${memberId}/auction-house-access`,
        { houses: [{ houseId, role: role(n) }] },
        headers,
      ),
    expected: role,
  },
  {
    name: 'mfa-method-update (PUT /security/2fa/methods/{id})',
    read: () => row('/security/2fa/methods', 'methods', methodId, (body) => body.name),
    write: (n, headers) =>
      put(`/security/2fa/methods/${methodId}`, { name: `Phone ${n}` }, headers),
    expected: (n) => `Phone ${n}`,
  },
  {
    name: 'mfa-policy-update (PUT /security/mfa-policy)',
    read: () => single('/security/mfa-policy', (body) => body.gracePeriodDays),
    write: (n, headers) => put('/security/mfa-policy', policy(n), headers),
    expected: (n) => 10 + n,
  },
  {
    name: 'security-settings-update (PUT /security/settings)',
    read: () => single('/security/settings', (body) => body.sessionIdleMinutes),
    write: (n, headers) => put('/security/settings', settings(n), headers),
    expected: (n) => 60 + n,
  },
];

const errorCode = (reply: Reply<Body>) => (reply.body.error as { code: string }).code;

describe.each(cases)('$name', (edit) => {
  it('answers 428 without If-Match, and changes nothing', async () => {
    const before = await edit.read();
    const reply = await edit.write(1, {});
    expect(reply.status).toBe(428);
    expect(errorCode(reply)).toBe('precondition_required');
    expect(await edit.read()).toEqual(before);
  });

  it('saves against the current ETag and answers 412 to a stale one, changing nothing', async () => {
    const shown = await edit.read();
    const saved = await edit.write(1, ifMatch(shown.etag));
    expect(saved.status).toBe(200);
    expect(saved.body.etag).not.toBe(shown.etag);
    expect(saved.headers.get('etag')).toBe(`"${saved.body.etag}"`);
    const stale = await edit.write(2, ifMatch(shown.etag));
    expect(stale.status).toBe(412);
    expect(errorCode(stale)).toBe('precondition_failed');
    const after = await edit.read();
    expect(after.value).toEqual(edit.expected(1));
    expect(after.etag).toBe(saved.body.etag);
  });

  it('lets exactly one of two writers of the same version win; the other gets 412', async () => {
    const shown = await edit.read();
    const replies = await Promise.all([3, 4].map((n) => edit.write(n, ifMatch(shown.etag))));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
    const winner = replies.findIndex((reply) => reply.status === 200) + 3;
    expect((await edit.read()).value).toEqual(edit.expected(winner));
  });
});

describe('PUT /users/{id}/auction-house-access', () => {
  it('refuses a list that names one house twice, naming the field, and changes nothing', async () => {
    const before = await get(`/users/${memberId}`);
    const reply = await put(
      `/users/${memberId}/auction-house-access`,
      {
        houses: [
          { houseId, role: 'staff' },
          { houseId, role: 'viewer' },
        ],
      },
      ifMatch(before.body.etag as string),
    );
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toContain('houses');
    expect((await get(`/users/${memberId}`)).body).toEqual(before.body);
  });
});
