import { describe, expect, it } from 'vitest';
import { call, demo, ifMatch, signedIn, signup } from '../support/identity.js';

describe('accounts', () => {
  it('shows the current account with houses, features and my permissions', async () => {
    const owner = await signedIn(demo.owner);
    const reply = await call<{ name: string; features: string[]; houses: unknown[]; role: string }>(
      'GET',
      '/accounts/current',
      {
        token: owner.accessToken,
      },
    );
    expect(reply.body).toMatchObject({
      name: 'Harborview Auctions',
      role: 'owner',
      features: ['inventory', 'payments'],
    });
    expect(reply.body.houses).toHaveLength(2);
    const staff = await signedIn(demo.staff);
    const staffView = await call<{ houses: { name: string }[]; permissions: string[] }>(
      'GET',
      '/accounts/current',
      {
        token: staff.accessToken,
      },
    );
    expect(staffView.body.houses.map((house) => house.name)).toEqual(['Harborview Fine Art']);
    expect(staffView.body.permissions).toHaveLength(35);
  });

  it('reports features by add-on and flag, and the flags', async () => {
    const fresh = await signup();
    const reply = await call<{ features: { inventory: boolean }; flags: Record<string, boolean> }>(
      'GET',
      '/features',
      {
        token: fresh.body.accessToken,
      },
    );
    expect(reply.body.features).toEqual({ inventory: false, payments: false });
    expect(reply.body.flags).toMatchObject({
      'advanced-scoring': true,
      'bulk-operations': true,
      inventory: false,
    });
  });

  it('creates a second account, renames it, and closes it (owner only)', async () => {
    const fresh = await signup();
    const created = await call<{ id: string; role: string }>('POST', '/accounts/create', {
      token: fresh.body.accessToken,
      body: { name: 'Second House Co', type: 'organization' },
    });
    expect(created.status).toBe(201);
    expect(created.body.role).toBe('owner');
    const list = await call<{ accounts: unknown[] }>('GET', '/accounts', {
      token: fresh.body.accessToken,
    });
    expect(list.body.accounts).toHaveLength(2);
    const renamed = await call<{ name: string }>('PUT', `/accounts/${fresh.body.account?.id}`, {
      token: fresh.body.accessToken,
      body: { name: 'Renamed Rooms' },
      headers: ifMatch(fresh.body.account?.etag),
    });
    expect(renamed.body.name).toBe('Renamed Rooms');
    const staff = await signedIn(demo.staff);
    expect(
      (
        await call('PUT', `/accounts/${staff.account?.id}`, {
          token: staff.accessToken,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('DELETE', `/accounts/${fresh.body.account?.id}`, {
          token: fresh.body.accessToken,
        })
      ).status,
    ).toBe(204);
    expect((await call('GET', '/accounts/current', { token: fresh.body.accessToken })).status).toBe(
      401,
    );
  });

  it('lists the permission catalogue with labels and role sets', async () => {
    const viewer = await signedIn(demo.viewer);
    const reply = await call<{
      permissions: { key: string; label: string }[];
      roles: { role: string; permissions: string[] }[];
    }>('GET', '/permissions', { token: viewer.accessToken });
    expect(
      reply.body.permissions.find((permission) => permission.key === 'auctions:view')?.label,
    ).toBe('View auctions');
    expect(
      Object.fromEntries(reply.body.roles.map((role) => [role.role, role.permissions.length])),
    ).toEqual({
      owner: reply.body.permissions.length,
      admin: 69,
      staff: 35,
      viewer: 11,
    });
  });

  it('shows my house access', async () => {
    const staff = await signedIn(demo.staff);
    const reply = await call<{ role: string; houses: { houseName: string; role: string }[] }>(
      'GET',
      '/user/auction-house-access',
      {
        token: staff.accessToken,
      },
    );
    expect(reply.body).toMatchObject({
      role: 'staff',
      houses: [{ houseName: 'Harborview Fine Art', role: 'staff' }],
    });
  });
});
