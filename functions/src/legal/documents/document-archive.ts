/**
 * The names of a case's documents in its export archive: each file's own name, made safe to
 * unpack on any system, and told apart when two are the same ("report.pdf", "report (2).pdf").
 */

/** Characters no entry may hold: folder separators, and what Windows refuses in a file name. */
const unsafe = /[<>:"/\\|?*\p{Cc}]/gu;

/** A file name as an archive entry: one plain file at the top of the archive. */
export function entryName(fileName: string): string {
  const safe = fileName.replace(unsafe, '_').trim();
  // Nothing but dots would climb out of the folder it is unpacked into.
  return /^\.*$/.test(safe) ? `_${safe}` : safe;
}

function numbered(name: string, count: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
}

/**
 * The entry names of the files, in their order: the first of a name keeps it, the next get
 * " (2)", " (3)" before the extension. Names differing only in case count as the same, since
 * Windows and macOS would unpack them into one file.
 */
export function archiveNames(fileNames: string[]): string[] {
  const taken = new Set<string>();
  return fileNames.map((fileName) => {
    const base = entryName(fileName);
    let name = base;
    for (let count = 2; taken.has(name.toLowerCase()); count += 1) name = numbered(base, count);
    taken.add(name.toLowerCase());
    return name;
  });
}

/** What the archive of a case's documents is saved as. */
export const archiveFileName = (caseNumber: string) => `${entryName(caseNumber)}-documents.zip`;
