import type { Conflict } from '@contracts/conflicts/conflicts.schema';
import { describe, expect, it } from 'vitest';
import {
  conflictTitle,
  displayValue,
  EMPTY_VALUE,
  keptSide,
  outcomeOf,
  recordLink,
  sourceLink,
} from './conflict-view';

const conflict = (changes: Partial<Conflict> = {}): Conflict => ({
  id: 'c1',
  type: 'bidder',
  uploadId: 'u1',
  uploadName: 'Spring bidders',
  source: { kind: 'upload', uploadId: 'u1', uploadName: 'Spring bidders' },
  conflictType: 'duplicate',
  status: 'pending',
  matchScore: 82,
  existingRecord: { id: 'b1', firstName: 'Ada', lastName: 'Marsh' },
  importedRecord: { firstName: 'Ada', lastName: 'Marsh-Lee' },
  existingId: 'b1',
  fields: [
    { field: 'email', label: 'Email', existing: 'a@x.test', imported: 'b@x.test' },
    { field: 'phone', label: 'Phone', existing: null, imported: '+1 555' },
  ],
  resolution: null,
  choices: null,
  resolvedBy: null,
  resolvedAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  etag: 'e1',
  ...changes,
});

describe('how a conflict reads', () => {
  it('writes values as people read them', () => {
    expect(displayValue(null)).toBe(EMPTY_VALUE);
    expect(displayValue('  ')).toBe(EMPTY_VALUE);
    expect(displayValue(true)).toBe('Yes');
    expect(displayValue(12500)).toBe('12,500');
    expect(displayValue(['a', '', 'b'])).toBe('a, b');
    expect(displayValue({ street: '1 Main St', city: 'Salem', zip: null })).toBe(
      '1 Main St, Salem',
    );
    expect(displayValue('2026-03-01T10:00:00.000Z')).toMatch(/^Mar 1, 2026/);
  });

  it('is titled by the record on file, else the imported one', () => {
    expect(conflictTitle(conflict())).toBe('Ada Marsh');
    expect(
      conflictTitle(conflict({ existingRecord: null, importedRecord: { caseNumber: 'LC-9' } })),
    ).toBe('LC-9');
    expect(conflictTitle(conflict({ existingRecord: { title: 'Spring sale' } }))).toBe(
      'Spring sale',
    );
  });

  it("links to the record on file and to the conflict's source", () => {
    expect(recordLink(conflict())).toBe('/bidders?bidder=b1');
    expect(recordLink({ type: 'auction', existingId: 'a 1' })).toBe('/auctions/a%201');
    expect(recordLink({ type: 'legal', existingId: 'k1' })).toBe('/legal/cases/k1');
    expect(recordLink({ type: 'legal', existingId: null })).toBeNull();
    expect(sourceLink(conflict())).toBe('/data-upload?q=Spring%20bidders');
    expect(
      sourceLink({
        uploadName: 'LiveAuctioneers sync',
        source: { kind: 'sync', platform: 'liveauctioneers', runId: 'r', externalId: 'x' },
      }),
    ).toBe('/settings/integrations');
    expect(
      sourceLink({ uploadName: 'Bidder import', source: { kind: 'import', importId: 'i' } }),
    ).toBe('/bidders/duplicates');
  });

  it('says which side each field kept, and who decided when', () => {
    const merged = conflict({
      status: 'resolved',
      resolution: 'merge',
      choices: { email: 'imported', phone: 'existing' },
      resolvedBy: { id: 'u', name: 'Dana Whitfield' },
      resolvedAt: '2026-03-02T15:30:00.000Z',
    });
    expect(keptSide(merged, 'email')).toBe('imported');
    expect(keptSide(merged, 'phone')).toBe('existing');
    expect(keptSide(conflict(), 'email')).toBeNull();
    expect(outcomeOf(merged)).toMatch(/^Merged by Dana Whitfield on Mar 2, 2026/);
    expect(outcomeOf(conflict({ status: 'skipped', resolvedBy: { id: 'u', name: 'Al' } }))).toBe(
      'Skipped by Al',
    );
    expect(outcomeOf(conflict())).toBeNull();
    expect(
      outcomeOf(
        conflict({ status: 'resolved', note: 'Already reviewed in Bidders › Duplicates.' }),
      ),
    ).toBe('Resolved. Already reviewed in Bidders › Duplicates.');
  });
});
