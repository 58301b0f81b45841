import { describe, expect, it } from 'vitest';
import { archiveFileName, archiveNames, entryName } from './document-archive.js';

describe('the names in a case’s export archive', () => {
  it('keep each file’s own name', () => {
    expect(archiveNames(['report.pdf', 'Photo Ölgemälde.PNG'])).toEqual([
      'report.pdf',
      'Photo Ölgemälde.PNG',
    ]);
  });

  it('number the same name again before its extension, counting case as the same', () => {
    expect(archiveNames(['scan.pdf', 'scan.pdf', 'SCAN.pdf', 'notes', 'notes'])).toEqual([
      'scan.pdf',
      'scan (2).pdf',
      'SCAN (3).pdf',
      'notes',
      'notes (2)',
    ]);
  });

  it('never give a numbered name that a later file already has, nor one that one before had', () => {
    expect(archiveNames(['a.pdf', 'a (2).pdf', 'a.pdf'])).toEqual([
      'a.pdf',
      'a (2).pdf',
      'a (3).pdf',
    ]);
  });

  it('hold no folders nor characters some system refuses', () => {
    expect(entryName('../../etc/passwd.pdf')).toBe('.._.._etc_passwd.pdf');
    expect(entryName('C:\\evil.pdf')).toBe('C__evil.pdf');
    expect(entryName('Note: "final"?.pdf')).toBe('Note_ _final__.pdf');
    expect(entryName('..')).toBe('_..');
    expect(entryName('')).toBe('_');
  });

  it('save the archive under the case number', () => {
    expect(archiveFileName('LC-2026-0001')).toBe('LC-2026-0001-documents.zip');
  });
});
