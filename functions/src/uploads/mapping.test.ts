import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bidderFields } from './importers/bidders.js';
import {
  detectMapping,
  effectiveMapping,
  jsonColumns,
  mappedReading,
  mappingProblems,
  missingRequired,
  normaliseHeader,
  type MappableField,
} from './mapping.js';
import { dataRows } from './upload-processors.js';

const fields: MappableField[] = [
  { key: 'firstName', label: 'First Name', required: true, aliases: ['given name', 'first'] },
  { key: 'lastName', label: 'Last Name', required: true, aliases: ['surname', 'family name'] },
  { key: 'email', label: 'Email', required: true, aliases: ['email address', 'mail'] },
  { key: 'phone', label: 'Phone', required: false, aliases: ['telephone', 'mobile'] },
];

describe('normaliseHeader', () => {
  it('sets case, spaces, punctuation and accents aside', () => {
    expect(normaliseHeader(' E-Mail_Address ')).toBe('emailaddress');
    expect(normaliseHeader('Prénom')).toBe('prenom');
    expect(normaliseHeader('Téléphone (mobile)')).toBe('telephonemobile');
  });
});

describe('detectMapping', () => {
  it('maps keys, labels and aliases in any case and punctuation, and names every column', () => {
    expect(
      detectMapping(fields, ['FIRST NAME', 'surname', 'E-mail', 'Tel', 'Notes', 'given_name']),
    ).toEqual({
      'FIRST NAME': 'firstName',
      surname: 'lastName',
      'E-mail': 'email',
      Tel: null,
      Notes: null,
      given_name: null,
    });
  });

  it('gives a field to the column naming its key or label before one naming an alias', () => {
    expect(detectMapping(fields, ['Email Address', 'email'])).toEqual({
      'Email Address': null,
      email: 'email',
    });
  });

  it('fills a field from the first of two columns naming it, and none that is taken', () => {
    expect(detectMapping(fields, ['mobile', 'telephone'])).toEqual({
      mobile: 'phone',
      telephone: null,
    });
    expect(detectMapping(fields, ['Phone'], new Set(['phone']))).toEqual({ Phone: null });
  });

  it('maps nothing for a category without fields', () => {
    expect(detectMapping([], ['a', 'b'])).toEqual({ a: null, b: null });
  });
});

describe('effectiveMapping', () => {
  it("takes the user's choice, ignores a column set to null, and detects the rest", () => {
    const mapping = effectiveMapping(fields, ['Given', 'Family', 'Email', 'Phone'], {
      Given: 'firstName',
      Family: 'lastName',
      Phone: null,
    });
    expect(mapping).toEqual({
      Given: 'firstName',
      Family: 'lastName',
      Email: 'email',
      Phone: null,
    });
    expect(missingRequired(fields, mapping)).toEqual([]);
  });

  it('never detects a field the user gave to another column', () => {
    expect(effectiveMapping(fields, ['Email', 'Contact'], { Contact: 'email' })).toEqual({
      Email: null,
      Contact: 'email',
    });
  });

  it('names the required fields nothing fills', () => {
    expect(missingRequired(fields, detectMapping(fields, ['Given', 'Family', 'Email']))).toEqual([
      'firstName',
      'lastName',
    ]);
  });
});

describe('mappingProblems', () => {
  const files = [
    { index: 0, name: 'a.csv' },
    { index: 1, name: 'b.csv' },
  ];

  it('names an unknown field, a missing file, a file given twice and a field filled twice', () => {
    const problems = mappingProblems(fields, files, [
      { file: 0, mapping: { Given: 'firstName', Nick: 'nickname' } },
      { file: 3, mapping: {} },
      { file: 1, mapping: { A: 'email', B: 'email' } },
      { file: 1, mapping: {} },
    ]);
    expect(problems.map((problem) => problem.field)).toEqual([
      'mappings.0.mapping.Nick',
      'mappings.1.file',
      'mappings.2.mapping.B',
      'mappings.3.file',
    ]);
    expect(problems[0]?.message).toMatch(/^nickname is not a field of this import/);
  });

  it('accepts null targets, and refuses any field for a category only stored', () => {
    expect(mappingProblems(fields, files, [{ file: 0, mapping: { X: null } }])).toEqual([]);
    expect(mappingProblems([], files, [{ file: 0, mapping: { X: 'email' } }])[0]?.message).toMatch(
      /stored, not imported/,
    );
  });
});

describe('reading rows with a mapping', () => {
  it('renames CSV columns to fields and leaves the others out', async () => {
    const csv = 'Given,Family,E-post,Shoe size\nAda,Lovelace,ada@example.com,38\n';
    const reading = mappedReading(fields, { Given: 'firstName', 'E-post': 'email' }, null);
    const rows = [];
    for await (const row of dataRows('csv', Readable.from([Buffer.from(csv)]), reading)) {
      rows.push(row);
    }
    expect(rows).toEqual([{ row: 1, values: { firstName: 'Ada', email: 'ada@example.com' } }]);
  });

  it("flattens a JSON item's nested objects, maps its keys, and keeps arrays whole", async () => {
    const items = [{ given: 'Ada', surname: 'L', contact: { mail: 'a@x.io' }, tags: ['a', 'b'] }];
    expect(jsonColumns(items[0], undefined)).toEqual({
      given: 'Ada',
      surname: 'L',
      mail: 'a@x.io',
      tags: ['a', 'b'],
    });
    const reading = mappedReading(fields, { given: 'firstName' }, 'people');
    const rows = [];
    const data = Buffer.from(JSON.stringify({ people: items }));
    for await (const row of dataRows('json', Readable.from([data]), reading)) rows.push(row);
    expect(rows).toEqual([
      { row: 1, values: { firstName: 'Ada', lastName: 'L', email: 'a@x.io' } },
    ]);
  });

  it("detects the bidder import's known headers as the first part did", () => {
    expect(
      detectMapping(bidderFields, [
        'First Name',
        'Last Name',
        'Email',
        'Bidder ID',
        'Note',
        'Postcode',
        'Address',
        'Total Spent',
      ]),
    ).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Email: 'email',
      'Bidder ID': 'bidderId',
      Note: 'note',
      Postcode: 'zip',
      Address: 'street',
      'Total Spent': 'totalWinAmount',
    });
  });
});
