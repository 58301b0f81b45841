import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../dev/local-settings.js';

useSampleSettings();
const { containerDefinitions } = await import('./registry.js');

describe('infra/containers.json', () => {
  it('declares exactly the containers the code bootstraps, so Bicep creates them in Azure', () => {
    const declared = JSON.parse(
      readFileSync(new URL('../../infra/containers.json', import.meta.url), 'utf8'),
    ) as unknown;
    const expected = containerDefinitions.map((definition) => ({
      id: definition.id,
      partitionKey: definition.partitionKey,
      compositeIndexes: definition.compositeIndexes ?? [],
      ...(definition.uniqueKeys ? { uniqueKeys: definition.uniqueKeys } : {}),
    }));
    expect(declared, 'update infra/containers.json to match functions/src/registry.ts').toEqual(
      expected,
    );
  });
});
