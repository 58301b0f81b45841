import { describe, expect, it } from 'vitest';
import { hasPermission, type Principal } from '../platform/principal.js';
import {
  allPermissions,
  defaultPermissions,
  ownerOnlyPermissions,
  permissionCatalogue,
  rolePermissions,
} from './permissions.js';

describe('the permission catalogue', () => {
  it('gives the spec role counts: admin 69, staff 35, viewer 11', () => {
    expect(rolePermissions.admin).toHaveLength(69);
    expect(rolePermissions.staff).toHaveLength(35);
    expect(rolePermissions.viewer).toHaveLength(11);
    expect(allPermissions).toHaveLength(69 + ownerOnlyPermissions.length);
  });

  it('labels every key and uses only the spec areas', () => {
    const areas = new Set(allPermissions.map((key) => key.split(':')[0]));
    expect([...areas].sort()).toEqual(
      [
        'auctions',
        'bidders',
        'communications',
        'compliance',
        'data',
        'inventory',
        'legal',
        'payments',
        'security',
        'system',
        'users',
      ].sort(),
    );
    for (const key of allPermissions) expect(permissionCatalogue[key].length).toBeGreaterThan(3);
  });

  it('nests the roles: viewer within staff within admin, and the owner holds everything', () => {
    for (const key of rolePermissions.viewer) expect(rolePermissions.staff).toContain(key);
    for (const key of rolePermissions.staff) expect(rolePermissions.admin).toContain(key);
    expect(defaultPermissions('owner')).toEqual(allPermissions);
  });

  it('keeps deletes, refunds, voids, settings and security from admin', () => {
    for (const key of [
      'auctions:delete',
      'payments:refund',
      'payments:void',
      'system:settings',
      'system:api_keys',
      'data:purge',
      'security:mfa_manage',
      'compliance:gdpr',
    ] as const) {
      expect(rolePermissions.admin).not.toContain(key);
    }
  });

  it('keeps user management, data and scoring from staff', () => {
    for (const key of [
      'users:invite',
      'users:view',
      'data:import',
      'bidders:scoring',
      'auctions:publish',
      'legal:approve',
      'payments:process',
      'system:audit',
    ] as const) {
      expect(rolePermissions.staff).not.toContain(key);
    }
    expect(rolePermissions.staff).toEqual(
      expect.arrayContaining(['auctions:create', 'bidders:edit', 'inventory:edit', 'legal:create']),
    );
  });
});

describe('hasPermission', () => {
  const principal = (
    role: Principal['role'],
    houses: Principal['houses'],
    permissions: string[],
  ): Principal => ({
    userId: 'u',
    accountId: 'a',
    sessionId: 's',
    email: 'e@x.com',
    name: 'N',
    role,
    permissions: new Set(permissions),
    houses,
    features: new Set(),
    mfaSetupRequired: false,
  });

  it('holds a permission listed for the named house, or for any house when none is named', () => {
    const staff = principal(
      'staff',
      [
        { id: 'h1', role: 'staff', permissions: new Set(['bidders:edit']) },
        { id: 'h2', role: 'viewer', permissions: new Set(['bidders:view']) },
      ],
      ['bidders:edit', 'bidders:view'],
    );
    expect(hasPermission(staff, 'bidders:edit', 'h1')).toBe(true);
    expect(hasPermission(staff, 'bidders:edit', 'h2')).toBe(false);
    expect(hasPermission(staff, 'bidders:edit')).toBe(true);
    expect(hasPermission(staff, 'bidders:edit', 'h3')).toBe(false);
    expect(hasPermission(staff, 'users:invite')).toBe(false);
  });

  it('lets the owner do everything everywhere', () => {
    const owner = principal('owner', [], []);
    expect(hasPermission(owner, 'compliance:gdpr')).toBe(true);
    expect(hasPermission(owner, 'bidders:delete', 'any-house')).toBe(true);
  });
});
