import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../../../dev/local-settings.js';
import {
  attachmentDisposition,
  downloadName,
  extensionOf,
  holds,
  uploadedFileName,
} from './document-content.js';

useSampleSettings();
const { signDocumentLink, verifyDocumentLink } = await import('./document-link.js');

const bytes = (...values: number[]) => Buffer.from(values);
const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
const doc = bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0);
const docx = Buffer.concat([bytes(0x50, 0x4b, 0x03, 0x04), Buffer.from('....word/document.xml')]);
const xlsx = Buffer.concat([bytes(0x50, 0x4b, 0x03, 0x04), Buffer.from('....xl/workbook.xml')]);
const jpg = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10);
const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0);

describe('what a document file is', () => {
  it('accepts each kind only with its own bytes', () => {
    const files = { pdf, doc, docx, jpg, png } as const;
    for (const extension of Object.keys(files) as (keyof typeof files)[]) {
      for (const [other, data] of Object.entries(files)) {
        expect(holds(data, extension), `${other} as .${extension}`).toBe(other === extension);
      }
    }
    expect(holds(xlsx, 'docx')).toBe(false);
    expect(holds(Buffer.alloc(0), 'pdf')).toBe(false);
    expect(holds(Buffer.from('MZ\x90\x00'), 'pdf')).toBe(false);
  });

  it('reads the extension of the five accepted kinds only, whatever its case', () => {
    expect(extensionOf('Contract.PDF')).toBe('pdf');
    expect(extensionOf('scan.final.jpg')).toBe('jpg');
    expect(extensionOf('setup.exe')).toBeUndefined();
    expect(extensionOf('photo.jpeg')).toBeUndefined();
    expect(extensionOf('README')).toBeUndefined();
  });
});

describe('file names', () => {
  it('drops folders and reads the raw UTF-8 bytes a browser sends', () => {
    expect(uploadedFileName('C:\\Users\\ann\\Évaluation.pdf')).toBe('Évaluation.pdf');
    const raw = Buffer.from('Gutachten Müller – Öl.pdf', 'utf8').toString('latin1');
    expect(uploadedFileName(raw)).toBe('Gutachten Müller – Öl.pdf');
    expect(uploadedFileName('caf\u00e9.pdf')).toBe('café.pdf');
    expect(uploadedFileName('bad\r\nname.pdf')).toBe('badname.pdf');
  });

  it('gives a download its extension and a header no name can break', () => {
    expect(downloadName('Signed contract', 'pdf')).toBe('Signed contract.pdf');
    expect(downloadName('scan.PNG', 'png')).toBe('scan.PNG');
    expect(downloadName('../../etc/passwd', 'doc')).toBe('.._.._etc_passwd.doc');
    const header = attachmentDisposition('Évaluation "final"; v2.pdf');
    expect(header).toBe(
      `attachment; filename="_valuation _final__ v2.pdf"; filename*=UTF-8''%C3%89valuation%20%22final%22%3B%20v2.pdf`,
    );
    expect(attachmentDisposition("it's (1).pdf")).toContain(
      "filename*=UTF-8''it%27s%20%281%29.pdf",
    );
  });
});

describe('download link tokens', () => {
  const claims = { accountId: 'acc-1', caseId: 'case-1', documentId: 'doc-1' };
  const now = new Date('2026-05-01T12:00:00Z');
  const expires = now.getTime() / 1000 + 300;

  it('carry what they were signed with until they expire', () => {
    const token = signDocumentLink({ ...claims, expires });
    expect(verifyDocumentLink(token, now)).toEqual({ ...claims, expires });
    expect(() => verifyDocumentLink(token, new Date((expires + 1) * 1000))).toThrow(/expired/);
  });

  it('refuse any change to what was signed', () => {
    const token = signDocumentLink({ ...claims, expires });
    const [version, payload, signature] = token.split('.') as [string, string, string];
    const other = signDocumentLink({ ...claims, documentId: 'doc-2', expires });
    const otherPayload = other.split('.')[1] as string;
    for (const forged of [
      `${version}.${otherPayload}.${signature}`,
      `${version}.${payload}.${signature.slice(0, -2)}AA`,
      `v2.${payload}.${signature}`,
      `${token}.extra`,
      'not-a-token',
      '',
    ]) {
      expect(() => verifyDocumentLink(forged, now), forged).toThrow(/not valid/);
    }
  });
});
