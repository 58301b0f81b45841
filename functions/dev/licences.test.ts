import { describe, expect, it } from 'vitest';
import { accepted, productionDependencies } from './licences.js';

describe('licences', () => {
  it('accepts permissive licences, one choice of an OR and every part of an AND', () => {
    expect(accepted('MIT')).toBe(true);
    expect(accepted('(MIT OR GPL-3.0-or-later)')).toBe(true);
    expect(accepted('(MIT AND Zlib)')).toBe(true);
    expect(accepted('(MIT AND GPL-2.0-only)')).toBe(false);
    expect(accepted('GPL-3.0-only')).toBe(false);
    expect(accepted('AGPL-3.0-or-later')).toBe(false);
    expect(accepted('SSPL-1.0')).toBe(false);
  });

  it('finds every production dependency and no development one', () => {
    const dependencies = productionDependencies();
    const names = new Set(dependencies.map((dependency) => dependency.name));
    for (const shipped of ['@azure/functions', '@azure/cosmos', 'zod', 'react', 'exceljs']) {
      expect(names).toContain(shipped);
    }
    for (const tool of ['vitest', 'eslint', 'playwright-core', 'esbuild']) {
      expect(names).not.toContain(tool);
    }
  });

  it('ships nothing whose licence is unknown or not accepted', () => {
    const refused = productionDependencies().filter(
      (dependency) => dependency.licence === null || !accepted(dependency.licence),
    );
    expect(refused).toEqual([]);
  });
});
