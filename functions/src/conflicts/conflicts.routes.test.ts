import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';

useSampleSettings();
const { functionsFor } = await import('../registry.js');
const { RouteTable } = await import('../platform/route-template.js');
const { isStorableId } = await import('../platform/repo.js');
const { conflictIdOf } = await import('./conflicts.repo.js');
const { conflictFunctions } = await import('./conflicts.routes.js');
const { resolveConflictSchema, conflictSchema } = await import('./conflicts.schema.js');

describe('conflict routes', () => {
  it('are served by the domain app and need data:import; resolve needs If-Match', () => {
    expect(conflictFunctions.app).toBe('domain');
    for (const definition of conflictFunctions.functions) {
      if (definition.kind !== 'http') continue;
      expect(definition.permission, definition.name).toBe('data:import');
      expect(definition.contract?.concurrency, definition.name).toBe(
        definition.name === 'data-upload-conflicts-resolve' ? 'if-match' : 'none',
      );
    }
  });

  it('win over the uploads’ data-upload/{uploadId} patterns', () => {
    const http = functionsFor('domain').filter((definition) => definition.kind === 'http');
    const table = new RouteTable(http);
    const served = (method: string, path: string) =>
      table.matchAll(path).find(({ entry }) => entry.methods.includes(method as 'GET'))?.entry.name;
    expect(served('GET', 'data-upload/conflicts')).toBe('data-upload-conflicts-list');
    expect(served('GET', 'data-upload/conflicts/cf-1')).toBe('data-upload-conflicts-get');
    // A conflict id that is also an upload route's last segment is still a conflict.
    expect(served('GET', 'data-upload/conflicts/preview')).toBe('data-upload-conflicts-get');
    expect(served('POST', 'data-upload/conflicts/cf-1/resolve')).toBe(
      'data-upload-conflicts-resolve',
    );
    expect(served('POST', 'data-upload/conflicts/bulk-resolve')).toBe(
      'data-upload-conflicts-bulk-resolve',
    );
    expect(served('GET', 'data-upload/history')).toBe('data-upload-history');
  });
});

describe('conflict ids', () => {
  it('are the same for the same key, so a re-run records a conflict once', () => {
    const key = 'sync:ProxyBid:PB-1/2#3?:2026-01-01T00:00:00.000Z';
    expect(conflictIdOf(key)).toBe(conflictIdOf(key));
    expect(conflictIdOf(key)).not.toBe(conflictIdOf(`${key}x`));
    expect(isStorableId(conflictIdOf(key))).toBe(true);
    expect(conflictIdOf(key)).toMatch(/^cf-[0-9a-f]{40}$/);
  });
});

describe('conflict contracts', () => {
  it('take a merge only with a side per field', () => {
    expect(
      resolveConflictSchema.safeParse({ resolution: 'merge', choices: { email: 'imported' } })
        .success,
    ).toBe(true);
    expect(resolveConflictSchema.safeParse({ resolution: 'merge' }).success).toBe(false);
    expect(
      resolveConflictSchema.safeParse({ resolution: 'merge', choices: { email: 'both' } }).success,
    ).toBe(false);
    expect(resolveConflictSchema.safeParse({ resolution: 'skip' }).success).toBe(true);
  });

  it('answer a conflict recorded before notes existed', () => {
    const conflict = {
      id: 'cf-1',
      type: 'legal',
      uploadId: 'u-1',
      uploadName: 'Cases.csv',
      source: { kind: 'upload', uploadId: 'u-1', uploadName: 'Cases.csv' },
      conflictType: 'related',
      status: 'pending',
      matchScore: 90,
      existingRecord: null,
      importedRecord: {},
      existingId: null,
      fields: [],
      resolution: null,
      choices: null,
      resolvedBy: null,
      resolvedAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      etag: 'e',
    };
    expect(conflictSchema.safeParse(conflict).success).toBe(true);
  });
});
