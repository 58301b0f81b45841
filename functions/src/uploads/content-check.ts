import type { FileFormat } from './uploads.schema.js';

/**
 * What an uploaded file really is, from its bytes (its name decides nothing): the spec's formats
 * are recognised, programs are refused whatever they are called, and archives are refused when
 * their central directory promises far more than they hold (a zip bomb). The first bytes decide
 * most formats; ZIP-based and OLE (legacy Office) files also need a look at their structure,
 * which the caller reads with ranged reads once the file is stored.
 */

/** How much of a file's start the checks read. */
export const HEAD_BYTES = 8192;

/** The most an archive may unpack to, in all. */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Unpacked over packed: past this, for anything of size, an archive is a bomb. */
export const MAX_COMPRESSION_RATIO = 100;
/** Small entries compress as they like: only this much unpacked is worth refusing. */
const RATIO_FLOOR_BYTES = 10 * 1024 * 1024;
export const MAX_ARCHIVE_ENTRIES = 10_000;

export type Verdict = { ok: true; format: FileFormat } | { ok: false; reason: string };

/** What the head says; `zip` and `ole` need their structure read to decide. */
export type HeadVerdict = Verdict | { ok: 'structure'; container: 'zip' | 'ole' };

const NOT_ACCEPTED = 'is not one of the accepted formats';
const refuse = (reason: string): Verdict => ({ ok: false, reason });
const accept = (format: FileFormat): Verdict => ({ ok: true, format });

const startsWith = (head: Buffer, bytes: number[]) =>
  head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);

const programs: { magic: number[]; reason: string }[] = [
  { magic: [0x7f, 0x45, 0x4c, 0x46], reason: 'is a Linux executable (ELF)' },
  { magic: [0xfe, 0xed, 0xfa, 0xce], reason: 'is a macOS executable (Mach-O)' },
  { magic: [0xfe, 0xed, 0xfa, 0xcf], reason: 'is a macOS executable (Mach-O)' },
  { magic: [0xce, 0xfa, 0xed, 0xfe], reason: 'is a macOS executable (Mach-O)' },
  { magic: [0xcf, 0xfa, 0xed, 0xfe], reason: 'is a macOS executable (Mach-O)' },
  {
    magic: [0xca, 0xfe, 0xba, 0xbe],
    reason: 'is a program (a Java class or a macOS universal binary)',
  },
  {
    magic: [0x4c, 0x00, 0x00, 0x00, 0x01, 0x14, 0x02, 0x00],
    reason: 'is a Windows shortcut (.lnk)',
  },
  { magic: [0x23, 0x21], reason: 'is a script (it starts with #!)' },
];

/** Decoded text of a head, or undefined when it is binary. */
function textOf(head: Buffer): string | undefined {
  if (startsWith(head, [0xff, 0xfe])) return head.subarray(2).toString('utf16le');
  if (startsWith(head, [0xfe, 0xff])) {
    const swapped = Buffer.from(head.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  if (head.includes(0)) return undefined;
  const body = startsWith(head, [0xef, 0xbb, 0xbf]) ? head.subarray(3) : head;
  // The head may end inside a character: up to three bytes of it are let go.
  for (let cut = 0; cut <= 3 && cut < body.length; cut += 1) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(0, body.length - cut));
    } catch {
      continue;
    }
  }
  // Not UTF-8: a single-byte encoding passes as text when it is nearly all printable.
  const controls = [...body].filter((byte) => byte < 0x20 && ![9, 10, 12, 13].includes(byte));
  return controls.length <= body.length / 100 ? body.toString('latin1') : undefined;
}

const sqlStart =
  /^(?:\s|--[^\n]*\n|#[^\n]*\n|\/\*[\s\S]*?\*\/;?)*(?:CREATE|INSERT|DROP|ALTER|SET|BEGIN|START\s+TRANSACTION|PRAGMA|USE|LOCK\s+TABLES|COPY)\b/i;
const dumpBanner = /^--\s*(?:MySQL dump|MariaDB dump|PostgreSQL database dump|Dump of)/im;

/** A line's delimiters outside quoted cells ("1,250.00" is one cell of a CSV, not two). */
function delimitersIn(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count += 1;
  }
  return count;
}

function recogniseText(text: string): Verdict {
  const trimmed = text.trimStart();
  if (trimmed.length === 0) return refuse('is empty');
  if (trimmed.startsWith('#!')) return refuse('is a script (it starts with #!)');
  if (trimmed.startsWith('%PDF-')) return accept('pdf');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return accept('json');
  if (/^<!doctype\s+html|^<html[\s>]/i.test(trimmed)) return refuse(NOT_ACCEPTED);
  if (/^<(?:\?xml|[A-Za-z_!])/.test(trimmed)) return accept('xml');
  if (dumpBanner.test(trimmed) || sqlStart.test(trimmed)) return accept('sql');
  const lines = trimmed.split(/\r?\n/).filter((line) => line.trim() !== '');
  // A row the head cut short says nothing about its columns.
  const whole = lines.length > 1 ? lines.slice(0, -1) : lines;
  for (const delimiter of [',', ';', '\t', '|']) {
    const counts = whole.slice(0, 20).map((line) => delimitersIn(line, delimiter));
    const first = counts[0] ?? 0;
    if (first > 0 && counts.every((count) => count === first)) return accept('csv');
  }
  return accept('text');
}

/** What a file's first bytes say it is. */
export function recogniseHead(head: Buffer): HeadVerdict {
  if (head.length === 0) return refuse('is empty');
  const program = programs.find(({ magic }) => startsWith(head, magic));
  if (program) return refuse(program.reason);
  // "MZ" alone could start a line of text; a DOS/Windows program's header is binary.
  if (startsWith(head, [0x4d, 0x5a]) && head.subarray(0, 64).includes(0)) {
    return refuse('is a Windows executable');
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return { ok: 'structure', container: 'zip' };
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return { ok: 'structure', container: 'ole' };
  }
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return accept('pdf');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return accept('png');
  if (startsWith(head, [0xff, 0xd8, 0xff])) return accept('jpeg');
  if (head.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') return accept('sqlite');
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return accept('sql');
  const text = textOf(head);
  return text === undefined ? refuse(NOT_ACCEPTED) : recogniseText(text);
}

/** Reads `length` bytes of the stored file from `offset` (fewer at its end). */
export type RangeReader = (offset: number, length: number) => Promise<Buffer>;

/** Decides a file whose head needs its structure read; `size` is the stored file's length. */
export async function recogniseStructure(
  container: 'zip' | 'ole',
  head: Buffer,
  size: number,
  read: RangeReader,
): Promise<Verdict> {
  return container === 'zip' ? checkZip(size, read) : checkOle(head, read);
}

/** Head, then structure: the whole check for a stored file. */
export async function recogniseFile(
  head: Buffer,
  size: number,
  read: RangeReader,
): Promise<Verdict> {
  const verdict = recogniseHead(head);
  return verdict.ok === 'structure'
    ? recogniseStructure(verdict.container, head, size, read)
    : verdict;
}

// ---- ZIP (and the Office formats built on it) ----

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const MAX_COMMENT = 0xffff;
const U32_MAX = 0xffffffff;
const U16_MAX = 0xffff;

interface CentralDirectory {
  offset: number;
  size: number;
  entries: number;
}

/** The end-of-central-directory record (ZIP64 when the classic one overflows). */
async function centralDirectoryOf(
  size: number,
  read: RangeReader,
): Promise<CentralDirectory | undefined> {
  const tailLength = Math.min(size, EOCD_BYTES + MAX_COMMENT + 20 + 56);
  const tailStart = size - tailLength;
  const tail = await read(tailStart, tailLength);
  let at = -1;
  for (let index = tail.length - EOCD_BYTES; index >= 0; index -= 1) {
    if (tail.readUInt32LE(index) === EOCD_SIGNATURE) {
      at = index;
      break;
    }
  }
  if (at < 0) return undefined;
  const directory = {
    entries: tail.readUInt16LE(at + 10),
    size: tail.readUInt32LE(at + 12),
    offset: tail.readUInt32LE(at + 16),
  };
  const overflows =
    directory.entries === U16_MAX || directory.size === U32_MAX || directory.offset === U32_MAX;
  if (!overflows) return directory;
  const locator = at - 20;
  if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR_SIGNATURE) return undefined;
  const recordAt = Number(tail.readBigUInt64LE(locator + 8)) - tailStart;
  if (recordAt < 0 || recordAt + 56 > tail.length) return undefined;
  if (tail.readUInt32LE(recordAt) !== ZIP64_EOCD_SIGNATURE) return undefined;
  return {
    entries: Number(tail.readBigUInt64LE(recordAt + 32)),
    size: Number(tail.readBigUInt64LE(recordAt + 40)),
    offset: Number(tail.readBigUInt64LE(recordAt + 48)),
  };
}

export interface ZipEntry {
  name: string;
  compressed: number;
  uncompressed: number;
}

/** The entries a central directory lists, with ZIP64 sizes where the classic fields overflow. */
export function zipEntries(directory: Buffer, count: number): ZipEntry[] | undefined {
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
      return undefined;
    }
    let compressed = directory.readUInt32LE(at + 20);
    let uncompressed = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > directory.length) return undefined;
    const name = directory.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = directory.readUInt16LE(extra);
      const length = directory.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        // The ZIP64 field holds, in this order, only the sizes whose classic field overflowed.
        let field = extra + 4;
        if (uncompressed === U32_MAX && field + 8 <= extraEnd) {
          uncompressed = Number(directory.readBigUInt64LE(field));
          field += 8;
        }
        if (compressed === U32_MAX && field + 8 <= extraEnd) {
          compressed = Number(directory.readBigUInt64LE(field));
        }
      }
      extra += 4 + length;
    }
    entries.push({ name, compressed, uncompressed });
    at = end;
  }
  return entries;
}

const archiveNames = /\.(?:zip|7z|rar|gz|tgz|tar|bz2|xz|jar|cab|iso)$/i;
const programNames = /\.(?:exe|dll|msi|com|scr|bat|cmd|ps1|vbs|lnk|sh|app|dmg|pif|cpl)$/i;
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** What a central directory's entries make of the archive: Word, Excel, a plain ZIP, or a bomb. */
export function judgeZip(entries: ZipEntry[]): Verdict {
  if (entries.length > MAX_ARCHIVE_ENTRIES) {
    return refuse(`is an archive of more than ${MAX_ARCHIVE_ENTRIES} files`);
  }
  const packed = entries.reduce((sum, entry) => sum + entry.compressed, 0);
  const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressed, 0);
  if (unpacked > MAX_UNPACKED_BYTES) {
    return refuse(
      `is a zip bomb: it unpacks to ${megabytes(unpacked)}, over ${megabytes(MAX_UNPACKED_BYTES)}`,
    );
  }
  for (const entry of entries) {
    const ratio = entry.uncompressed / Math.max(entry.compressed, 1);
    if (entry.uncompressed > RATIO_FLOOR_BYTES && ratio > MAX_COMPRESSION_RATIO) {
      return refuse(
        `is a zip bomb: ${entry.name} unpacks to ${Math.round(ratio)} times its packed size`,
      );
    }
  }
  if (unpacked > RATIO_FLOOR_BYTES && unpacked / Math.max(packed, 1) > MAX_COMPRESSION_RATIO) {
    return refuse(
      `is a zip bomb: it unpacks to ${Math.round(unpacked / Math.max(packed, 1))} times its size`,
    );
  }
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('[Content_Types].xml')) {
    if (names.has('word/document.xml')) return accept('docx');
    if (names.has('xl/workbook.xml')) return accept('xlsx');
  }
  const nested = entries.find((entry) => archiveNames.test(entry.name));
  // Archives inside it would be unpacked by nobody here, unchecked: one level only.
  if (nested)
    return refuse(`holds another archive (${nested.name}); upload archives one level deep`);
  const program = entries.find((entry) => programNames.test(entry.name));
  if (program) return refuse(`holds a program (${program.name})`);
  return accept('zip');
}

async function checkZip(size: number, read: RangeReader): Promise<Verdict> {
  const broken = refuse('is a damaged ZIP archive');
  const directory = await centralDirectoryOf(size, read);
  if (!directory) return broken;
  if (directory.entries > MAX_ARCHIVE_ENTRIES) {
    return refuse(`is an archive of more than ${MAX_ARCHIVE_ENTRIES} files`);
  }
  if (directory.offset + directory.size > size) return broken;
  const entries = zipEntries(await read(directory.offset, directory.size), directory.entries);
  return entries ? judgeZip(entries) : broken;
}

/**
 * The most text a workbook's shared-strings part may hold for its rows to be read: the reader
 * keeps every shared string in memory while it reads the sheet that refers to them by number.
 */
export const MAX_WORKBOOK_TEXT_BYTES = 16 * 1024 * 1024;

const MB = 1024 * 1024;

/**
 * Why a workbook's rows cannot be read within the host's memory, or null: its shared text is
 * larger than MAX_WORKBOOK_TEXT_BYTES (a CSV of the same rows streams, whatever its size).
 */
export async function workbookTextProblem(size: number, read: RangeReader): Promise<string | null> {
  const directory = await centralDirectoryOf(size, read);
  if (!directory || directory.offset + directory.size > size) return null;
  const entries = zipEntries(await read(directory.offset, directory.size), directory.entries);
  const text = entries?.find((entry) => /(^|\/)sharedstrings\d*\.xml$/i.test(entry.name));
  if (!text || text.uncompressed <= MAX_WORKBOOK_TEXT_BYTES) return null;
  return `holds ${Math.ceil(text.uncompressed / MB)} MB of text, more than a workbook may (${MAX_WORKBOOK_TEXT_BYTES / MB} MB) to be read here; save it as CSV and upload that`;
}

// ---- OLE compound files: legacy Word and Excel, and Windows installers ----

/** Root CLSIDs of Windows Installer packages, patches and transforms ({000C108x-...-46}). */
function isInstallerClsid(clsid: Buffer) {
  return (
    clsid.length === 16 &&
    [0x84, 0x86, 0x82].includes(clsid[0] ?? 0) &&
    clsid[1] === 0x10 &&
    clsid[2] === 0x0c &&
    clsid.subarray(3, 8).equals(Buffer.alloc(5)) &&
    clsid.subarray(8).equals(Buffer.from([0xc0, 0, 0, 0, 0, 0, 0, 0x46]))
  );
}

async function checkOle(head: Buffer, read: RangeReader): Promise<Verdict> {
  if (head.length < 512) return refuse('is a damaged Office file');
  const sectorSize = 2 ** head.readUInt16LE(30);
  if (sectorSize !== 512 && sectorSize !== 4096) return refuse('is a damaged Office file');
  const firstDirectorySector = head.readUInt32LE(48);
  const sector = await read((firstDirectorySector + 1) * sectorSize, sectorSize);
  const names: string[] = [];
  for (let at = 0; at + 128 <= sector.length; at += 128) {
    const nameBytes = Math.min(sector.readUInt16LE(at + 64), 64);
    const type = sector[at + 66];
    if (type === 5 && isInstallerClsid(sector.subarray(at + 80, at + 96))) {
      return refuse('is a Windows installer (.msi)');
    }
    if (nameBytes >= 2) {
      names.push(sector.subarray(at, at + nameBytes - 2).toString('utf16le'));
    }
  }
  if (names.includes('WordDocument')) return accept('doc');
  if (names.includes('Workbook') || names.includes('Book')) return accept('xls');
  return refuse(NOT_ACCEPTED);
}
