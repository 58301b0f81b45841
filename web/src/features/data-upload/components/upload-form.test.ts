import { MAX_UPLOAD_TOTAL_BYTES, UPLOAD_MESSAGES } from '@contracts/uploads/uploads.schema';
import { describe, expect, it } from 'vitest';
import { canSubmit, draftProblem, emptyDraft, sizeOf, withFiles } from './upload-form';

const file = (name: string, size: number) => ({ name, size }) as File;
const filled = {
  name: 'Spring bidders',
  category: 'bidders' as const,
  description: 'From the spring catalogue',
  files: [file('bidders.csv', 120)],
};

describe('the New Upload form', () => {
  it('is off without a name, a category or files, but not without a description', () => {
    expect(canSubmit(emptyDraft)).toBe(false);
    expect(canSubmit({ ...filled, name: '  ' })).toBe(false);
    expect(canSubmit({ ...filled, category: '' })).toBe(false);
    expect(canSubmit({ ...filled, files: [] })).toBe(false);
    expect(canSubmit({ ...filled, description: '' })).toBe(true);
  });

  it("refuses a missing field or more than 100 MB with the spec's messages", () => {
    expect(draftProblem(filled)).toBeNull();
    expect(draftProblem({ ...filled, description: ' ' })).toBe(UPLOAD_MESSAGES.missingFields);
    expect(draftProblem(emptyDraft)).toBe(UPLOAD_MESSAGES.missingFields);
    const big = [file('a.csv', MAX_UPLOAD_TOTAL_BYTES), file('b.csv', 1)];
    expect(draftProblem({ ...filled, files: big })).toBe(UPLOAD_MESSAGES.tooLarge);
    expect(draftProblem({ ...filled, files: [file('a.csv', MAX_UPLOAD_TOTAL_BYTES)] })).toBeNull();
  });

  it('keeps a file chosen twice once', () => {
    const first = [file('a.csv', 10)];
    expect(withFiles(first, [file('a.csv', 10), file('b.csv', 10)]).map((f) => f.name)).toEqual([
      'a.csv',
      'b.csv',
    ]);
  });

  it('writes sizes as people read them', () => {
    expect(sizeOf(812)).toBe('812 B');
    expect(sizeOf(14 * 1024)).toBe('14 KB');
    expect(sizeOf(3.2 * 1024 * 1024)).toBe('3.2 MB');
  });
});
