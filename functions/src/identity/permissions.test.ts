import { describe, expect, it } from 'vitest';
import { hasPermission, type Principal } from '../platform/principal.js';
import {
  allPermissions,
  currentPermissions,
  defaultPermissions,
  ownerOnlyPermissions,
  permissionCatalogue,
  rolePermissions,
} from './permissions.js';

/** The spec's catalogue (§6), area by area, in its own words. */
const specKeys = Object.entries({
  auctions:
    'view, create, edit, publish, schedule, go_live, close, duplicate, import, export, analytics',
  bidders:
    'view, create, edit, scoring, scoring_local, scoring_national, invite, communicate, assessment, tier_assign, history_view, history_edit, export, bulk_actions',
  legal:
    'view, create, edit, workflow, workflow_approve, documents, documents_upload, notifications, escalate, reports',
  inventory:
    'view, create, edit, valuate, authenticate, conservation, location_track, condition_update, import, export, bulk_actions',
  payments: 'view, process, dispute, reports, reconcile',
  users: 'view, invite, edit, roles_assign, password_reset',
  data: 'export, import',
  communications: 'email, sms, broadcast, templates',
  system: 'reports, reports_financial, reports_operational, audit, integrations',
}).flatMap(([area, actions]) => actions.split(', ').map((action) => `${area}:${action}`));

describe('the permission catalogue', () => {
  it('holds the spec’s 67 keys by their exact names', () => {
    expect(specKeys).toHaveLength(67);
    for (const key of specKeys) expect(allPermissions).toContain(key);
  });

  it('adds only the documented keys: two for admins, the rest the owner’s alone', () => {
    const added = allPermissions.filter((key) => !specKeys.includes(key));
    expect(added.filter((key) => !ownerOnlyPermissions.includes(key)).sort()).toEqual([
      'bidders:merge',
      'users:security',
    ]);
  });

  it('reads permissions stored under earlier names as today’s', () => {
    expect(
      currentPermissions(['bidders:history', 'bidders:score_override', 'users:roles', 'gone:key']),
    ).toEqual(['bidders:history_view', 'bidders:scoring_local', 'users:roles_assign']);
    expect(currentPermissions(['users:edit', 'users:deactivate'])).toEqual(['users:edit']);
  });

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
      'legal:workflow_approve',
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
    planRevision: 0,
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
