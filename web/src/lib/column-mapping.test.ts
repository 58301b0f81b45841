import type { UploadPreview } from '@contracts/uploads/uploads.schema';
import { describe, expect, it } from 'vitest';
import {
  checkMapping,
  initialMappings,
  mappingsReady,
  previewNeedsAttention,
  sampleValues,
  toFileMappings,
} from './column-mapping';

const fields = [
  { key: 'email', label: 'Email', required: true },
  { key: 'firstName', label: 'First name', required: false },
  { key: 'lastName', label: 'Last name', required: true },
];

const preview: UploadPreview = {
  uploadId: 'u1',
  category: 'bidders',
  fields,
  files: [
    {
      index: 0,
      name: 'people.csv',
      format: 'csv',
      columns: ['E-mail', 'Given', 'Family', 'Notes'],
      rows: [
        { 'E-mail': 'a@example.com', Given: 'Ada', Family: 'Marsh', Notes: '' },
        { 'E-mail': 'b@example.com', Given: 'Ben', Family: '', Notes: 'vip' },
      ],
      mapping: { 'E-mail': 'email', Given: 'firstName', Family: null, Notes: 'retired' },
      missingRequired: ['lastName'],
      problem: null,
    },
    {
      index: 1,
      name: 'scan.pdf',
      format: 'pdf',
      columns: [],
      rows: [],
      mapping: {},
      missingRequired: [],
      problem: 'holds no rows',
    },
  ],
};

describe('column mapping', () => {
  it('starts from the detected mapping, every column listed, unknown fields ignored', () => {
    expect(initialMappings(preview)).toEqual({
      0: { 'E-mail': 'email', Given: 'firstName', Family: null, Notes: null },
    });
  });

  it('names required fields left unmapped and fields mapped twice', () => {
    const check = checkMapping(fields, { a: 'email', b: 'email', c: null });
    expect(check.missing.map((field) => field.key)).toEqual(['lastName']);
    expect(check.doubled).toEqual([{ field: fields[0], columns: ['a', 'b'] }]);
  });

  it('is ready once every mappable file fills its required fields once', () => {
    const mappings = initialMappings(preview);
    expect(mappingsReady(preview, mappings)).toBe(false);
    const fixed = { 0: { ...mappings[0], Family: 'lastName' } };
    expect(mappingsReady(preview, fixed)).toBe(true);
    expect(toFileMappings(preview, fixed)).toEqual([{ file: 0, mapping: fixed[0] }]);
  });

  it('asks for attention when a required field is unmapped or a file cannot be read', () => {
    expect(previewNeedsAttention(preview)).toBe(true);
    const clean = { ...preview, files: [{ ...preview.files[0]!, missingRequired: [] }] };
    expect(previewNeedsAttention(clean)).toBe(false);
  });

  it('samples a column by its first non-empty values', () => {
    const [file] = preview.files;
    expect(sampleValues(file!, 'Family')).toEqual(['Marsh']);
    expect(sampleValues(file!, 'E-mail', 1)).toEqual(['a@example.com']);
  });
});
