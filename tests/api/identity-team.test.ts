import { beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  demo,
  GOOD_PASSWORD,
  ifMatch,
  latestMail,
  linkParam,
  signedIn,
  signup,
  uniqueEmail,
  type Session,
} from '../support/identity.js';

type Signed = Session & { accessToken: string };
let owner: Signed;
let admin: Signed;
let staff: Signed;
let viewer: Signed;

beforeAll(async () => {
  owner = await signedIn(demo.owner);
  staff = await signedIn(demo.staff);
  viewer = await signedIn(demo.viewer);
  const adminLogin = await call<Session>('POST', '/login', {
    body: { email: demo.admin, password: 'Harborview!Demo2026' },
  });
  const harborview = adminLogin.body.accounts.find(
    (account) => account.accountName === 'Harborview Auctions',
  );
  const granted = await call<{ accessToken: string }>('POST', '/tokens/access', {
    token: adminLogin.body.sessionToken,
    body: { userId: adminLogin.body.user.id, accountId: harborview?.accountId },
  });
  admin = { ...adminLogin.body, accessToken: granted.body.accessToken };
});

/** A member as the team screen shows them, with the ETag to change them against. */
async function shownMember(userId: string) {
  const reply = await call<{ etag: string }>('GET', `/users/${userId}`, {
    token: owner.accessToken,
  });
  expect(reply.headers.get('etag')).toBe(`"${reply.body.etag}"`);
  return reply.body;
}

/** A fresh member of Harborview with a given role, made through a real invitation. */
async function newMember(role: 'admin' | 'staff' | 'viewer') {
  const email = uniqueEmail(role);
  await call('POST', '/auction-house/invite', { token: owner.accessToken, body: { email, role } });
  const code = linkParam(await latestMail(email, 'invitation'), 'invitation');
  const joined = await signup({ email, invitationCode: code });
  return joined.body as Signed;
}

describe('team routes by role', () => {
  const routes = [
    { name: 'list team', method: 'GET', path: () => '/auction-house/users' },
    {
      name: 'invite',
      method: 'POST',
      path: () => '/auction-house/invite',
      body: () => ({ email: uniqueEmail('matrix'), role: 'viewer' }),
    },
    {
      name: 'activity',
      method: 'GET',
      path: () => `/auction-house/users/${viewer.user.id}/activity?days=30`,
    },
    { name: 'security settings', method: 'GET', path: () => '/security/settings' },
  ];
  const expected: Record<string, number[]> = {
    // owner, admin, staff, viewer
    'list team': [200, 200, 403, 403],
    invite: [201, 201, 403, 403],
    activity: [200, 200, 403, 403],
    'security settings': [200, 200, 403, 403],
  };
  it.each(routes)('$name: owner and admin may, staff and viewer get 403', async (route) => {
    const statuses = [];
    for (const who of [owner, admin, staff, viewer]) {
      const reply = await call(route.method, route.path(), {
        token: who.accessToken,
        ...(route.body ? { body: route.body() } : {}),
      });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual(expected[route.name]);
  });

  it('changes a role, with the role default permissions, and audits it', async () => {
    const member = await newMember('viewer');
    const changed = await call<{ accountRole: string; permissions: string[] }>(
      'PUT',
      `/auction-house/users/${member.user.id}/role`,
      {
        token: admin.accessToken,
        body: { role: 'staff' },
        headers: ifMatch((await shownMember(member.user.id)).etag),
      },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.accountRole).toBe('staff');
    expect(changed.body.permissions).toHaveLength(35);
    const activity = await call<{ activity: { action: string }[] }>(
      'GET',
      `/auction-house/users/${admin.user.id}/activity`,
      {
        token: owner.accessToken,
      },
    );
    expect(activity.body.activity.map((entry) => entry.action)).toContain('member.role-change');
  });

  it('offers Admin only to the owner', async () => {
    const member = await newMember('staff');
    const { etag } = await shownMember(member.user.id);
    const byAdmin = await call('PUT', `/auction-house/users/${member.user.id}/role`, {
      token: admin.accessToken,
      body: { role: 'admin' },
      headers: ifMatch(etag),
    });
    expect(byAdmin.status).toBe(403);
    const invitedByAdmin = await call('POST', '/auction-house/invite', {
      token: admin.accessToken,
      body: { email: uniqueEmail(), role: 'admin' },
    });
    expect(invitedByAdmin.status).toBe(403);
    const byOwner = await call('PUT', `/auction-house/users/${member.user.id}/role`, {
      token: owner.accessToken,
      body: { role: 'admin' },
      headers: ifMatch(etag),
    });
    expect(byOwner.status).toBe(200);
  });

  it('never deactivates the owner or your own row, and a deactivated member is out at once', async () => {
    expect(
      (
        await call('POST', `/auction-house/users/${owner.user.id}/deactivate`, {
          token: admin.accessToken,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('POST', `/auction-house/users/${admin.user.id}/deactivate`, {
          token: admin.accessToken,
        })
      ).status,
    ).toBe(403);
    const member = await newMember('staff');
    expect((await call('GET', '/users/me', { token: member.accessToken })).status).toBe(200);
    const done = await call<{ status: string }>(
      'POST',
      `/auction-house/users/${member.user.id}/deactivate`,
      { token: admin.accessToken },
    );
    expect(done.body.status).toBe('suspended');
    expect((await call('GET', '/users/me', { token: member.accessToken })).status).toBe(401);
    const again = await call<Session>('POST', '/login', {
      body: { email: member.user.email, password: GOOD_PASSWORD },
    });
    expect(again.body.accountSelection).toBe('none');
    expect(
      (
        await call('POST', `/auction-house/users/${member.user.id}/reactivate`, {
          token: admin.accessToken,
        })
      ).status,
    ).toBe(200);
  });

  it('sends an admin-triggered password reset to the member', async () => {
    const member = await newMember('viewer');
    expect(
      (await call('POST', `/users/${member.user.id}/reset-password`, { token: admin.accessToken }))
        .status,
    ).toBe(202);
    const mail = await latestMail(member.user.email, 'password-reset');
    expect(mail.text).toContain('Adam Reyes asked Lotwise');
  });

  it('lists members and pending invitations with MFA and status', async () => {
    const reply = await call<{
      users: { email: string; kind: string; status: string; mfa: { enabled: boolean } }[];
    }>('GET', '/auction-house/users', {
      token: owner.accessToken,
    });
    expect(reply.body.users.find((user) => user.email === demo.owner)).toMatchObject({
      kind: 'member',
      status: 'active',
    });
    expect(
      reply.body.users.some((user) => user.kind === 'invitation' && user.status === 'pending'),
    ).toBe(true);
  });
});

describe('tenancy', () => {
  it('hides another account: its ids answer 404', async () => {
    const lakeside = await signedIn(demo.lakesideOwner);
    const harborviewAccountId = owner.account?.id as string;
    expect(
      (await call('GET', `/accounts/${harborviewAccountId}`, { token: lakeside.accessToken }))
        .status,
    ).toBe(404);
    expect(
      (
        await call('PUT', `/accounts/${harborviewAccountId}`, {
          token: lakeside.accessToken,
          body: { name: 'Mine now' },
          headers: ifMatch(owner.account?.etag),
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('GET', `/users/${staff.user.id}`, { token: lakeside.accessToken })).status,
    ).toBe(404);
    expect(
      (
        await call('POST', `/auction-house/users/${staff.user.id}/deactivate`, {
          token: lakeside.accessToken,
        })
      ).status,
    ).toBe(404);
    const houseId = owner.account?.houses[0]?.id as string;
    expect(
      (
        await call('PUT', `/auction-houses/${houseId}`, {
          token: lakeside.accessToken,
          body: { name: 'Stolen' },
          headers: ifMatch(owner.account?.houses[0]?.etag),
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('GET', `/auction-houses/${houseId}/users`, { token: lakeside.accessToken }))
        .status,
    ).toBe(404);
    const team = await call<{ users: { email: string }[] }>('GET', '/auction-house/users', {
      token: lakeside.accessToken,
    });
    expect(team.body.users.map((user) => user.email)).not.toContain(demo.staff);
  });

  it('takes the account from the token, not from the body', async () => {
    const lakeside = await signedIn(demo.lakesideOwner);
    const reply = await call<{ id: string }>('POST', '/accounts/current/auction-houses', {
      token: lakeside.accessToken,
      body: { name: 'Planted House', accountId: owner.account?.id },
    });
    expect(reply.status).toBe(201);
    const harborview = await call<{ houses: { name: string }[] }>('GET', '/accounts/current', {
      token: owner.accessToken,
    });
    expect(harborview.body.houses.map((house) => house.name)).not.toContain('Planted House');
  });
});

describe('houses and groups', () => {
  it('creates, edits and deletes a house and a group, owner only', async () => {
    const created = await call<{ id: string; name: string; staffCount: number; etag: string }>(
      'POST',
      '/accounts/current/auction-houses',
      {
        token: owner.accessToken,
        body: {
          name: 'Harborview Annex',
          city: 'Salem',
          state: 'MA',
          email: 'annex@harborview.demo',
        },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.staffCount).toBe(1);
    expect(
      (
        await call('POST', '/accounts/current/auction-houses', {
          token: admin.accessToken,
          body: { name: 'No' },
        })
      ).status,
    ).toBe(403);
    const renamed = await call<{ name: string; city: string }>(
      'PUT',
      `/auction-houses/${created.body.id}`,
      {
        token: owner.accessToken,
        body: { name: 'Harborview Salem' },
        headers: ifMatch(created.body.etag),
      },
    );
    expect(renamed.body).toMatchObject({ name: 'Harborview Salem', city: 'Salem' });
    const group = await call<{ id: string; houseIds: string[]; etag: string }>(
      'POST',
      '/auction-house-groups',
      {
        token: owner.accessToken,
        body: { name: 'North Shore', houseIds: [created.body.id] },
      },
    );
    expect(group.status).toBe(201);
    const edited = await call<{ description: string; houseIds: string[] }>(
      'PUT',
      `/auction-house-groups/${group.body.id}`,
      {
        token: owner.accessToken,
        body: { description: 'Salem and around' },
        headers: ifMatch(group.body.etag),
      },
    );
    expect(edited.body).toMatchObject({
      description: 'Salem and around',
      houseIds: [created.body.id],
    });
    expect(
      (await call('DELETE', `/auction-houses/${created.body.id}`, { token: owner.accessToken }))
        .status,
    ).toBe(204);
    const groups = await call<{ groups: { id: string; houseIds: string[] }[] }>(
      'GET',
      '/auction-house-groups',
      { token: owner.accessToken },
    );
    expect(
      groups.body.groups.find((candidate) => candidate.id === group.body.id)?.houseIds,
    ).toEqual([]);
    expect(
      (await call('DELETE', `/auction-house-groups/${group.body.id}`, { token: owner.accessToken }))
        .status,
    ).toBe(204);
  });

  it('names bad house input', async () => {
    const reply = await call('POST', '/accounts/current/auction-houses', {
      token: owner.accessToken,
      body: { name: 'X', website: 'not a url' },
    });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toMatch(/^website: /);
  });
});
