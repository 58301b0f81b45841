import { describe, expect, it, vi } from 'vitest';
import { useSampleSettings } from '../dev/local-settings.js';

useSampleSettings();
const { functionsFor } = await import('./registry.js');
const { registerFunctions } = await import('./register.js');
const { serviceNames } = await import('./platform/functions.js');
const { allPermissions } = await import('./identity/permissions.js');

describe('function registration', () => {
  it.each(['auth', 'domain', 'all'] as const)('gives %s unique names and routes', (selection) => {
    const definitions = functionsFor(selection);
    const names = definitions.map((definition) => definition.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = definitions.flatMap((definition) =>
      definition.kind === 'http'
        ? definition.methods.map((method) => `${method} ${definition.route.toLowerCase()}`)
        : [],
    );
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('declares a known permission (or public / authenticated) on every HTTP function', () => {
    for (const definition of functionsFor('all')) {
      if (definition.kind !== 'http') continue;
      const known = ['public', 'authenticated', ...allPermissions] as string[];
      expect(known, definition.name).toContain(definition.permission);
    }
  });

  it('takes API keys on no route of the auth app, and on every catalogue route of the domain', () => {
    const http = (selection: 'auth' | 'domain') =>
      functionsFor(selection).filter((definition) => definition.kind === 'http');
    expect(
      http('auth')
        .filter((definition) => definition.contract?.apiKeys)
        .map((definition) => definition.name),
    ).toEqual([]);
    const domainWithoutKeys = http('domain').filter(
      (definition) =>
        definition.contract &&
        !definition.contract.apiKeys &&
        !definition.contract.feature &&
        !['public', 'authenticated'].includes(definition.permission),
    );
    // Keys, webhooks and the plan's billing are managed by people, and so are the add-ons' routes
    // (their plan is read from a person's token); every other catalogue route of the domain takes
    // keys. All kinds are there, so the check is not over an empty list.
    const permissions = new Set(domainWithoutKeys.map((definition) => definition.permission));
    expect([...permissions].sort()).toEqual([
      'system:api_keys',
      'system:settings',
      'system:webhooks',
    ]);
    expect(
      domainWithoutKeys
        .filter((definition) => definition.permission === 'system:settings')
        .every((definition) => definition.route.startsWith('billing/')),
    ).toBe(true);
    const addOnRoutes = http('domain').filter((definition) => definition.contract?.feature);
    expect(new Set(addOnRoutes.map((definition) => definition.contract?.feature))).toEqual(
      new Set(['inventory', 'payments']),
    );
    expect(addOnRoutes.every((definition) => !definition.contract?.apiKeys)).toBe(true);
  });

  it('serves health for each service from its own app, and the JSON 404 last', () => {
    const routes = (selection: 'auth' | 'domain') =>
      functionsFor(selection).flatMap((definition) =>
        definition.kind === 'http' ? [definition.route] : [],
      );
    expect(routes('auth')).toEqual(expect.arrayContaining(['health', 'client-errors', '{*path}']));
    expect(routes('domain')).toEqual(
      expect.arrayContaining([
        'health',
        'bidders/health',
        'auctions/health',
        'legal/health',
        'data-upload/health',
        'scoring/health',
      ]),
    );
    expect(routes('auth')).not.toContain('bidders/health');
    expect(serviceNames).toHaveLength(6);
  });

  it('hands HTTP, timer and queue functions to the runtime', () => {
    const target = { http: vi.fn(), timer: vi.fn(), storageQueue: vi.fn() };
    const handler = async () => undefined;
    registerFunctions(target, [
      ...functionsFor('auth'),
      { kind: 'timer', name: 'tick', schedule: '0 */5 * * * *', handler },
      { kind: 'queue', name: 'work', queueName: 'work-items', handler },
    ]);
    expect(target.http).toHaveBeenCalledWith(
      'health',
      expect.objectContaining({ route: 'health', methods: ['GET'], authLevel: 'anonymous' }),
    );
    expect(target.timer).toHaveBeenCalledWith(
      'tick',
      expect.objectContaining({ schedule: '0 */5 * * * *' }),
    );
    expect(target.storageQueue).toHaveBeenCalledWith(
      'work',
      expect.objectContaining({ queueName: 'work-items', connection: 'AzureWebJobsStorage' }),
    );
  });
});
