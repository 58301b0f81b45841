import { once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';

/**
 * Zip archives written as a stream with `archiver`, one entry at a time: the next entry is asked
 * for only once the one before is in the archive, so memory holds one file however many there are.
 */

/** The little of archiver's API used here (the package ships no types of its own). */
interface Archiver extends NodeJS.ReadableStream {
  append(source: Buffer, data: { name: string; date?: Date }): this;
  finalize(): Promise<void>;
  abort(): this;
  on(event: 'error' | 'warning', listener: (error: Error) => void): this;
  on(event: string, listener: (...args: unknown[]) => void): this;
}

type ArchiverFactory = (format: 'zip', options?: { zlib?: { level?: number } }) => Archiver;

const require = createRequire(import.meta.url);
/** Loaded on the first archive, not by every host at start. */
const archiver: ArchiverFactory = (...args) => (require('archiver') as ArchiverFactory)(...args);

export interface ZipEntry {
  /** The entry's path in the archive. */
  name: string;
  data: Buffer;
  date?: Date;
}

/**
 * The archive of the entries, as they come. A failure while reading them (or writing the archive)
 * ends the stream with that error, so a reader never takes a cut-off archive for a whole one.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): Readable {
  const archive = archiver('zip', { zlib: { level: 6 } });
  const output = new PassThrough();
  const fail = (error: unknown) => {
    archive.abort();
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  archive.on('error', fail);
  // Archiver warns of entries it skips (files it cannot read): none here is a file.
  archive.on('warning', fail);
  archive.pipe(output);
  // A reader that goes away (a closed connection) stops the archive and the reading of entries.
  const gone = new AbortController();
  output.once('close', () => gone.abort());
  void (async () => {
    try {
      for await (const entry of entries) {
        if (gone.signal.aborted) break;
        const added = once(archive, 'entry', { signal: gone.signal });
        archive.append(entry.data, {
          name: entry.name,
          ...(entry.date ? { date: entry.date } : {}),
        });
        await added;
      }
      if (!gone.signal.aborted) await archive.finalize();
    } catch (error) {
      fail(error);
    }
  })();
  return output;
}
