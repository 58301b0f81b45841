import { describe, expect, it } from 'vitest';
import { checkUpload, formatBytes, nameFromFile } from './document-form';

describe('formatBytes', () => {
  it('reads as people count', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(14 * 1024)).toBe('14 KB');
    expect(formatBytes(3.25 * 1024 * 1024)).toBe('3.3 MB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
  });
});

describe('nameFromFile', () => {
  it('drops the extension', () => {
    expect(nameFromFile('Invoice 14.pdf')).toBe('Invoice 14');
    expect(nameFromFile('scan.final.PNG')).toBe('scan.final');
    expect(nameFromFile('README')).toBe('README');
  });
});

describe('checkUpload', () => {
  const file = { name: 'invoice.pdf', size: 2048 };

  it('needs a file, a name and a type', () => {
    expect(checkUpload({ file: null, name: ' ', type: '' })).toEqual({
      file: 'File is required',
      name: 'Name is required',
      type: 'Type is required',
    });
    expect(checkUpload({ file, name: 'Invoice', type: 'evidence' })).toEqual({});
  });

  it('takes the spec’s formats only, up to the size limit', () => {
    expect(
      checkUpload({ file: { name: 'notes.txt', size: 10 }, name: 'n', type: 'other' }),
    ).toEqual({ file: 'Choose a PDF, DOC, DOCX, JPG or PNG file' });
    expect(
      checkUpload({ file: { name: 'scan.JPG', size: 26 * 1024 * 1024 }, name: 'n', type: 'other' }),
    ).toEqual({ file: 'A document must be 25 MB or smaller' });
  });
});
