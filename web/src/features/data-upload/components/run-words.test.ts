import type { UploadRun } from '@contracts/uploads/uploads.schema';
import { describe, expect, it } from 'vitest';
import { shownValue } from './OverwriteDialog';
import { runFigures, runTitle } from './UploadRuns';

const run = (overrides: Partial<UploadRun>): UploadRun => ({
  number: 1,
  kind: 'import',
  mode: 'new',
  startedAt: '2026-11-25T10:00:00.000Z',
  finishedAt: '2026-11-25T10:01:00.000Z',
  by: { id: 'u1', name: 'Ada Marsh' },
  created: 0,
  updated: 0,
  removed: 0,
  restored: 0,
  kept: 0,
  cancelled: false,
  ...overrides,
});

describe('an upload run in words', () => {
  it('names the first import, a re-run by its mode, and an undo', () => {
    expect(runTitle(run({}))).toBe('Import');
    expect(runTitle(run({ number: 2, mode: 'update' }))).toBe('Re-run: update all');
    expect(runTitle(run({ number: 3, mode: 'failed' }))).toBe('Re-run: failed rows only');
    expect(runTitle(run({ number: 4, kind: 'undo', mode: null }))).toBe('Undo');
  });

  it("gives an import's and an undo's figures", () => {
    expect(runFigures(run({ created: 1200, updated: 3 }))).toBe(
      `${(1200).toLocaleString()} created · 3 updated`,
    );
    expect(runFigures(run({ kind: 'undo', removed: 1, restored: 2, kept: 0 }))).toBe(
      '1 record removed · 2 put back · 0 kept (edited since)',
    );
  });
});

describe('a value in the overwrite preview', () => {
  it('reads empty values as such, lists and objects as text', () => {
    expect(shownValue(null)).toBe('(empty)');
    expect(shownValue('')).toBe('(empty)');
    expect(shownValue(['Art', 'Jewelry'])).toBe('Art, Jewelry');
    expect(shownValue(42)).toBe('42');
    expect(shownValue({ city: 'Boston' })).toBe('{"city":"Boston"}');
  });
});
