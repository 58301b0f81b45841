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
      body: {
        name: 'Planted House',
        businessName: 'Planted House LLC',
        city: 'Montpelier',
        accountId: owner.account?.id,
      },
    });
    expect(reply.status).toBe(201);
    const harborview = await call<{ houses: { name: string }[] }>('GET', '/accounts/current', {
      token: owner.accessToken,
    });
    expect(harborview.body.houses.map((house) => house.name)).not.toContain('Planted House');
  });
});

describe('houses and groups', () => {
  it('deletes a house while its group is edited at the same moment, and the group loses only the house', async () => {
    const house = await call<{ id: string }>('POST', '/accounts/current/auction-houses', {
      token: owner.accessToken,
      body: { name: 'Harborview Pop-up', businessName: 'Pop-up LLC', city: 'Bath' },
    });
    expect(house.status, JSON.stringify(house.body)).toBe(201);
    const group = await call<{ id: string; etag: string }>('POST', '/auction-house-groups', {
      token: owner.accessToken,
      body: { name: 'Pop-ups', houseIds: [house.body.id] },
    });
    expect(group.status).toBe(201);
    const [edited, deleted] = await Promise.all([
      call('PUT', `/auction-house-groups/${group.body.id}`, {
        token: owner.accessToken,
        body: { description: 'Summer rooms' },
        headers: ifMatch(group.body.etag),
      }),
      call('DELETE', `/auction-houses/${house.body.id}`, { token: owner.accessToken }),
    ]);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    // The edit was made against the group as it was: it stands, or is refused as stale.
    expect([200, 412]).toContain(edited.status);
    const after = await call<{ houseIds: string[]; description: string }>(
      'GET',
      `/auction-house-groups/${group.body.id}`,
      { token: owner.accessToken },
    );
    expect(after.body.houseIds).toEqual([]);
    if (edited.status === 200) expect(after.body.description).toBe('Summer rooms');
    await call('DELETE', `/auction-house-groups/${group.body.id}`, { token: owner.accessToken });
  });

  it('creates, edits and deletes a house and a group, owner only', async () => {
    const created = await call<{ id: string; name: string; staffCount: number; etag: string }>(
      'POST',
      '/accounts/current/auction-houses',
      {
        token: owner.accessToken,
        body: {
          name: 'Harborview Annex',
          businessName: 'Harborview Annex LLC',
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
      body: { name: 'X', businessName: 'X LLC', city: 'Salem', website: 'not a url' },
    });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toMatch(/^website: /);
  });

  const validHouse = { name: 'Harborview Lowell', businessName: 'Lowell LLC', city: 'Lowell' };
  const refusal = (reply: { body: unknown }) =>
    (reply.body as { error: { message: string } }).error.message;

  it.each([
    [{ businessName: 'Lowell LLC', city: 'Lowell' }, 'name: is required'],
    [{ name: 'Harborview Lowell', city: 'Lowell' }, 'businessName: is required'],
    [{ ...validHouse, businessName: '  ' }, 'businessName: is required'],
    [{ name: 'Harborview Lowell', businessName: 'Lowell LLC' }, 'city: is required'],
    [{ ...validHouse, timezone: 'Europe/London' }, /^timezone: /],
    [{ ...validHouse, currency: 'JPY' }, /^currency: /],
  ])('refuses a house missing or outside the rules, naming the field (%j)', async (body, says) => {
    const reply = await call('POST', '/accounts/current/auction-houses', {
      token: owner.accessToken,
      body,
    });
    expect(reply.status).toBe(400);
    expect(refusal(reply)).toMatch(says);
  });

  it('fills in the spec defaults: USA, Eastern time, US dollars', async () => {
    const created = await call<{ id: string; country: string; timezone: string; currency: string }>(
      'POST',
      '/accounts/current/auction-houses',
      { token: owner.accessToken, body: validHouse },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      country: 'USA',
      timezone: 'America/New_York',
      currency: 'USD',
    });
    expect(
      (await call('DELETE', `/auction-houses/${created.body.id}`, { token: owner.accessToken }))
        .status,
    ).toBe(204);
  });

  it('refuses to delete a house that auctions, bidders and team members belong to', async () => {
    const houses = await call<{ houses: { id: string; name: string }[] }>(
      'GET',
      '/accounts/current/auction-houses',
      { token: owner.accessToken },
    );
    const fineArt = houses.body.houses.find((house) => house.name === 'Harborview Fine Art');
    const reply = await call<{
      error: { code: string; message: string; details: Record<string, number> };
    }>('DELETE', `/auction-houses/${fineArt?.id}`, { token: owner.accessToken });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('conflict');
    expect(reply.body.error.message).toMatch(
      /^\d+ auctions?, \d+ bidders? and \d+ team members? still belong to this auction house\. Move or remove them first\.$/,
    );
    // The seed puts the admin, the staff member and the viewer in Fine Art.
    expect(reply.body.error.details.members).toBeGreaterThanOrEqual(3);
    expect(reply.body.error.details.auctions).toBeGreaterThan(0);
    expect(reply.body.error.details.bidders).toBeGreaterThan(0);
    const after = await call<{ houses: { id: string }[] }>(
      'GET',
      '/accounts/current/auction-houses',
      { token: owner.accessToken },
    );
    expect(after.body.houses.map((house) => house.id)).toContain(fineArt?.id);
    // Nobody lost their access to it either.
    const access = await call<{ houses: { houseId: string }[] }>(
      'GET',
      '/user/auction-house-access',
      { token: staff.accessToken },
    );
    expect(access.body.houses.map((house) => house.houseId)).toContain(fineArt?.id);
  });

  it('refuses to delete a house while a member still works in it, saying so', async () => {
    const created = await call<{ id: string }>('POST', '/accounts/current/auction-houses', {
      token: owner.accessToken,
      body: { ...validHouse, name: 'Harborview Gloucester' },
    });
    const member = await newMember('viewer');
    const shown = await shownMember(member.user.id);
    expect(
      (
        await call('PUT', `/users/${member.user.id}/auction-house-access`, {
          token: owner.accessToken,
          body: { houses: [{ houseId: created.body.id, role: 'viewer' }] },
          headers: ifMatch(shown.etag),
        })
      ).status,
    ).toBe(200);
    const refused = await call('DELETE', `/auction-houses/${created.body.id}`, {
      token: owner.accessToken,
    });
    expect(refused.status).toBe(409);
    expect(refusal(refused)).toBe(
      '1 team member still belongs to this auction house. Move or remove them first.',
    );
    const again = await shownMember(member.user.id);
    await call('PUT', `/users/${member.user.id}/auction-house-access`, {
      token: owner.accessToken,
      body: { houses: [] },
      headers: ifMatch(again.etag),
    });
    expect(
      (await call('DELETE', `/auction-houses/${created.body.id}`, { token: owner.accessToken }))
        .status,
    ).toBe(204);
  });

  it('never deletes the last house of an account', async () => {
    const joined = await signup();
    const token = joined.body.accessToken as string;
    const existing = joined.body.account?.houses ?? [];
    const only =
      existing[0]?.id ??
      (
        await call<{ id: string }>('POST', '/accounts/current/auction-houses', {
          token,
          body: validHouse,
        })
      ).body.id;
    const reply = await call('DELETE', `/auction-houses/${only}`, { token });
    expect(reply.status).toBe(409);
    expect(refusal(reply)).toMatch(/only auction house in the account/);
  });

  it('lets only whoever holds system:settings change houses and groups', async () => {
    const house = owner.account?.houses[0];
    const groups = await call<{ groups: { id: string; etag: string }[] }>(
      'GET',
      '/auction-house-groups',
      { token: owner.accessToken },
    );
    const group = groups.body.groups[0];
    for (const who of [admin, staff, viewer]) {
      const token = who.accessToken;
      const writes = [
        call('POST', '/accounts/current/auction-houses', { token, body: validHouse }),
        call('PUT', `/auction-houses/${house?.id}`, {
          token,
          body: { name: 'Renamed' },
          headers: ifMatch(house?.etag),
        }),
        call('DELETE', `/auction-houses/${house?.id}`, { token }),
        call('POST', '/auction-house-groups', {
          token,
          body: { name: 'Mine', houseIds: [house?.id] },
        }),
        call('PUT', `/auction-house-groups/${group?.id}`, {
          token,
          body: { name: 'Renamed' },
          headers: ifMatch(group?.etag),
        }),
        call('DELETE', `/auction-house-groups/${group?.id}`, { token }),
      ];
      expect((await Promise.all(writes)).map((reply) => reply.status)).toEqual([
        403, 403, 403, 403, 403, 403,
      ]);
      // Reading them is for every member.
      expect((await call('GET', '/auction-house-groups', { token })).status).toBe(200);
    }
  });

  it('answers 404 to another account for its houses and groups', async () => {
    const lakeside = await signedIn(demo.lakesideOwner);
    const token = lakeside.accessToken;
    const house = owner.account?.houses[0];
    const groups = await call<{ groups: { id: string; etag: string }[] }>(
      'GET',
      '/auction-house-groups',
      { token: owner.accessToken },
    );
    const group = groups.body.groups[0];
    const replies = await Promise.all([
      call('GET', `/auction-houses/${house?.id}`, { token }),
      call('DELETE', `/auction-houses/${house?.id}`, { token }),
      call('GET', `/auction-house-groups/${group?.id}`, { token }),
      call('PUT', `/auction-house-groups/${group?.id}`, {
        token,
        body: { name: 'Mine now' },
        headers: ifMatch(group?.etag),
      }),
      call('DELETE', `/auction-house-groups/${group?.id}`, { token }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([404, 404, 404, 404, 404]);
  });

  it('changes a house or group only against its current ETag: 428 without, 412 when stale', async () => {
    const created = await call<{ id: string; etag: string }>(
      'POST',
      '/accounts/current/auction-houses',
      { token: owner.accessToken, body: { ...validHouse, name: 'Harborview Andover' } },
    );
    const group = await call<{ id: string; etag: string }>('POST', '/auction-house-groups', {
      token: owner.accessToken,
      body: { name: 'Merrimack Valley', houseIds: [created.body.id] },
    });
    for (const [path, first, second] of [
      [`/auction-houses/${created.body.id}`, { city: 'North Andover' }, { city: 'Methuen' }],
      [`/auction-house-groups/${group.body.id}`, { name: 'Merrimack' }, { name: 'Valley' }],
    ] as const) {
      const etag = path.startsWith('/auction-houses') ? created.body.etag : group.body.etag;
      expect((await call('PUT', path, { token: owner.accessToken, body: first })).status).toBe(428);
      const saved = await call('PUT', path, {
        token: owner.accessToken,
        body: first,
        headers: ifMatch(etag),
      });
      expect(saved.status).toBe(200);
      const stale = await call('PUT', path, {
        token: owner.accessToken,
        body: second,
        headers: ifMatch(etag),
      });
      expect(stale.status).toBe(412);
      const now = await call<Record<string, unknown>>('GET', path, { token: owner.accessToken });
      expect(now.body).toMatchObject(first);
    }
    await call('DELETE', `/auction-house-groups/${group.body.id}`, { token: owner.accessToken });
    expect(
      (await call('DELETE', `/auction-houses/${created.body.id}`, { token: owner.accessToken }))
        .status,
    ).toBe(204);
  });
});
