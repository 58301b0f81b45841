import { documentExtensions, type DocumentExtension } from './documents.schema.js';

/**
 * What an uploaded file really is, from its bytes, and what its name claims: a case document is
 * kept only when the two agree, so a renamed executable never reaches someone's download folder
 * looking like a PDF.
 */

const startsWith = (data: Buffer, bytes: number[]) =>
  data.length >= bytes.length && data.subarray(0, bytes.length).equals(Buffer.from(bytes));

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** The OLE2 compound file every legacy Word document is. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const signatures: Record<DocumentExtension, (data: Buffer) => boolean> = {
  pdf: (data) => startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  doc: (data) => startsWith(data, OLE2),
  // A Word document is a zip whose entries live under word/ (other Office files are zips too).
  docx: (data) => startsWith(data, ZIP) && data.includes('word/', 0, 'latin1'),
  jpg: (data) => startsWith(data, [0xff, 0xd8, 0xff]),
  png: (data) => startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
};

/** The accepted extension a file name ends in, lower-cased; undefined for any other. */
export function extensionOf(fileName: string): DocumentExtension | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = fileName.slice(dot + 1).toLowerCase();
  return (documentExtensions as readonly string[]).includes(extension)
    ? (extension as DocumentExtension)
    : undefined;
}

/** Whether the bytes are a file of the kind the extension names. */
export const holds = (data: Buffer, extension: DocumentExtension) => signatures[extension](data);

/**
 * The name of an uploaded file as the person saw it: without a folder (old browsers send the whole
 * path), and read as UTF-8 when it arrived as the raw bytes browsers send (a form's parser hands
 * those over one byte per character).
 */
export function uploadedFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const bytes = [...base].every((character) => character.charCodeAt(0) <= 0xff)
    ? Buffer.from(base, 'latin1')
    : undefined;
  const decoded = bytes?.toString('utf8');
  const name = decoded !== undefined && !decoded.includes('\uFFFD') ? decoded : base;
  return name.replace(/\p{Cc}/gu, '').trim();
}

/** `Content-Disposition` for a download: a plain-ASCII name for old clients, the exact one in RFC 5987 form. */
export function attachmentDisposition(fileName: string): string {
  const plain = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${plain}"; filename*=UTF-8''${exact}`;
}

/** The name a download is saved under: the document's name, ending in its file's extension. */
export function downloadName(name: string, extension: DocumentExtension): string {
  const bare = name.replace(/[\\/]/g, '_');
  return extensionOf(bare) === extension ? bare : `${bare}.${extension}`;
}
